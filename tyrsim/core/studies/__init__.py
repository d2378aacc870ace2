"""The studies room: one module per analysis every full game engine gets, named after it (`game`,
`rate`, `explore`, `rulings`, `ladder`, `trace`, `tune`), and the games played in blocks that several of
them share (`blocks`)."""
