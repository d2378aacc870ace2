"""Tyros: empire growth, ships, cities and trade in the Phoenician Mediterranean."""

from tyrsim.core.engine.spec import GameSpec
from tyrsim.games.tyros.analysis import ANALYSES, COMPILED
from tyrsim.games.tyros.game import NAME, make_game
from tyrsim.games.tyros.policies import POLICIES
from tyrsim.games.tyros.rules import Rules

SPEC = GameSpec(
    name=NAME,
    title="Tyros",
    rules=Rules,
    players=(3, 4),
    make_game=make_game,
    policies=POLICIES,
    analyses=ANALYSES,
    package=__name__,
    compiled=COMPILED,
)
