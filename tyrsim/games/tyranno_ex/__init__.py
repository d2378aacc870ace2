"""Tyranno Ex: combat odds (exact and Monte Carlo) and the full game with policies and analyses."""

from tyrsim.core.engine.spec import GameSpec
from tyrsim.games.tyranno_ex.analysis import ANALYSES, COMPILED
from tyrsim.games.tyranno_ex.game import make_game
from tyrsim.games.tyranno_ex.policies import POLICIES
from tyrsim.games.tyranno_ex.rules import Rules

SPEC = GameSpec(
    name="tyranno-ex",
    title="Tyranno Ex",
    rules=Rules,
    players=(2, 3, 4),
    make_game=make_game,
    policies=POLICIES,
    analyses=ANALYSES,
    package=__name__,
    compiled=COMPILED,
)
