"""Tiny Epic Dinosaurs: full game engine, ranch enclosures, policies, hunt and herd-growth analyses."""

from tyrsim.core.designer import explore_analysis, rating_analysis
from tyrsim.core.game import GameSpec
from tyrsim.core.rulings import rulings_analysis
from tyrsim.core.skill import ladder_analysis, trace_analysis
from tyrsim.games.tiny_epic_dinosaurs.analysis import ANALYSES
from tyrsim.games.tiny_epic_dinosaurs.game import make_game
from tyrsim.games.tiny_epic_dinosaurs.policies import POLICIES
from tyrsim.games.tiny_epic_dinosaurs.rules import Rules

SPEC = GameSpec(
    name="tiny-epic-dinosaurs",
    title="Tiny Epic Dinosaurs",
    rules=Rules,
    players=(2, 3, 4),
    make_game=make_game,
    policies=POLICIES,
    analyses={
        **ANALYSES,
        "rate": rating_analysis("tiny-epic-dinosaurs", ("hunter", "breeder", "contractor", "greedy", "random"), 2),
        "ladder": ladder_analysis("tiny-epic-dinosaurs", ("random", "greedy", "hunter", "ismcts"), 2),
        "trace": trace_analysis("tiny-epic-dinosaurs", "ismcts", 2),
        "explore": explore_analysis(
            "tiny-epic-dinosaurs", ("hunter", "breeder", "contractor"),
            ("breed_group=2:4", "hunt_net_faces=1:5", "resource_cap=8:16"),
        ),
        "rulings": rulings_analysis("tiny-epic-dinosaurs", ("hunter", "breeder", "contractor")),
    },
)
