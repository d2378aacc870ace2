"""Tiny Epic Dinosaurs: full game engine, ranch enclosures, policies, hunt and herd-growth analyses."""

from tyrsim.core.engine.spec import GameSpec
from tyrsim.games.tiny_epic_dinosaurs.analysis import ANALYSES, COMPILED
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
    analyses=ANALYSES,
    package=__name__,
    compiled=COMPILED,
)
