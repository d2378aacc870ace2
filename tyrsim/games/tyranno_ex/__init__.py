"""Tyranno Ex: combat odds (exact and Monte Carlo) and the full game with policies and analyses."""

from tyrsim.core.designer import explore_analysis, rating_analysis
from tyrsim.core.game import GameSpec
from tyrsim.core.rulings import rulings_analysis
from tyrsim.core.skill import ladder_analysis, trace_analysis
from tyrsim.games.tyranno_ex.analysis import GAME, SURVIVAL
from tyrsim.games.tyranno_ex.combat_analysis import COMBAT
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
    analyses={
        "combat": COMBAT,
        "game": GAME,
        "survival": SURVIVAL,
        "rate": rating_analysis("tyranno-ex", ("greedy", "aggressive", "builder", "random"), 4),
        "ladder": ladder_analysis("tyranno-ex", ("random", "builder", "greedy", "ismcts"), 4),
        "trace": trace_analysis("tyranno-ex", "ismcts", 4),
        "explore": explore_analysis(
            "tyranno-ex", ("greedy", "aggressive", "builder", "greedy"),
            ("chips_per_player=8:16", "die_rounds=0:6", "five_points=0:10"),
        ),
        "rulings": rulings_analysis("tyranno-ex", ("greedy", "aggressive", "builder", "greedy")),
    },
)
