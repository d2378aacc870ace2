"""Tyros: empire growth, ships, cities and trade in the Phoenician Mediterranean."""

from tyrsim.core.designer import explore_analysis, rating_analysis
from tyrsim.core.game import GameSpec, RandomPolicy
from tyrsim.core.rulings import rulings_analysis
from tyrsim.core.skill import ladder_analysis, trace_analysis
from tyrsim.games.tyros.analysis import EMPIRE_SIZES, GAME
from tyrsim.games.tyros.game import make_game
from tyrsim.games.tyros.policies import GreedyPolicy, IsmctsPolicy, PlannerPolicy
from tyrsim.games.tyros.rules import Rules

SPEC = GameSpec(
    name="tyros",
    title="Tyros",
    rules=Rules,
    players=(3, 4),
    make_game=make_game,
    policies={"random": RandomPolicy, "greedy": GreedyPolicy, "planner": PlannerPolicy, "ismcts": IsmctsPolicy},
    analyses={
        "empire-sizes": EMPIRE_SIZES,
        "game": GAME,
        "rate": rating_analysis("tyros", ("planner", "greedy", "random"), 4),
        "ladder": ladder_analysis("tyros", ("random", "greedy", "planner", "ismcts"), 4),
        "trace": trace_analysis("tyros", "ismcts", 4),
        "explore": explore_analysis(
            "tyros", ("planner", "greedy", "planner", "greedy"),
            ("city_cost=3:7", "cards_kept=0:5", "bank_buy_cost=2:5"),
        ),
        "rulings": rulings_analysis("tyros", ("planner", "greedy", "planner", "greedy")),
    },
)
