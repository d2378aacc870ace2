"""Zooloretto Duell: the full two-player game, policies from random to search, zoo scoring analyses."""

from tyrsim.core.engine.spec import GameSpec
from tyrsim.games.zooloretto_duell.analysis import ANALYSES, COMPILED
from tyrsim.games.zooloretto_duell.game import NAME, make_game
from tyrsim.games.zooloretto_duell.policies import POLICIES
from tyrsim.games.zooloretto_duell.rules import Rules

SPEC = GameSpec(
    name=NAME,
    title="Zooloretto Duell",
    rules=Rules,
    players=(2,),
    make_game=make_game,
    policies=POLICIES,
    analyses=ANALYSES,
    package=__name__,
    compiled=COMPILED,
)
