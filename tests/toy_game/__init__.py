"""The Dice game: a tiny game in the standard package layout, for testing the shared machinery and for
docs/adding_a_game.md, whose every step it follows. Each turn a player rolls a die or passes.

It stays test-only: the tests register it under its name (tests/conftest.py, `dice_game`), as
tyrsim/games/__init__.py's REGISTRY would hold it.
"""

from toy_game.analysis import ANALYSES
from toy_game.game import NAME, DiceGame
from toy_game.policies import POLICIES
from toy_game.rules import Rules
from tyrsim.core.engine.spec import GameSpec

SPEC = GameSpec(
    name=NAME,
    title="Dice",
    rules=Rules,
    players=(2, 3),
    make_game=DiceGame,
    policies=POLICIES,
    analyses=ANALYSES,
    package=__name__,
)
