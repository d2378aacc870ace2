"""The engine room: what a game is made of and how one game is played. The Game/State/Policy protocols and
the `GameSpec` a game registers, rules as data and their validation, the runner that plays games with
policies, seeding and random streams, data and weights files, the declarations of a game's analyses, the
size limits a user may ask for, and the Python search (the readable reference the compiled search is
tested against)."""
