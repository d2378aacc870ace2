"""The questions the engine asks a player (`state.prompt`), as named records.

Each prompt names the deciding `player` and the data its options are worked out from;
`kind` names it in messages and tests. A policy reads its own prompt through
`state.view(me).decision`. The answers are the actions of `actions.py`.

The prompts are a module of their own, beside `actions.py` rather than in it: the actions
are what every game has (the records a policy returns and a play log describes), the
prompts are this engine's own way of running a round (a stack of steps that stops at a
question), part of the state a search copies and a determinization may resample.
"""

from __future__ import annotations

from typing import NamedTuple

from tyrsim.games.tiny_epic_dinosaurs.components import ResearchCard
from tyrsim.games.tiny_epic_dinosaurs.ranch import Region


class Placement(NamedTuple):
    """Phase 2: where to send ranchers (`Place`)."""

    player: int
    kind = "assign"


class ResearchChoice(NamedTuple):
    """A research space: a face-up card or "draw" three (`PickResearch`)."""

    player: int
    kind = "take_research"


class DrawnResearch(NamedTuple):
    """Keep one of the cards just drawn (`PickResearch`); the others join the face-up ones."""

    player: int
    drawn: tuple[ResearchCard, ...]
    kind = "pick_research"


class Rearranging(NamedTuple):
    """Fence rearranging: move another fence (`MoveFence`) or stop (`StopRearranging`)."""

    player: int
    moved: tuple[int, ...]  # the edges fences were moved to so far (each fence moves at most once)
    kind = "rearrange"


class FencePlacement(NamedTuple):
    """Phase 4: where the next fence from Holding goes (`PlaceFence`)."""

    player: int
    kind = "place_fence"


class Enclosing(NamedTuple):
    """Phase 4: which kind gets the next enclosure (`Enclose`)."""

    player: int
    enclosures: tuple[Region, ...]  # the ranch's enclosures
    assignment: dict[int, str]  # enclosure index -> kind, given so far
    herd: dict[str, int]  # the basic dinosaurs to lay out (ranch and Holding), by kind
    unplaced: dict[str, int]  # of those, how many have no room yet, by kind
    uniques: tuple[str, ...]  # the unique dinosaurs to lay out
    kind = "enclose"


class Housing(NamedTuple):
    """Phase 6: which kind's newborns get the next empty enclosure (`Enclose`)."""

    player: int
    enclosures: tuple[Region, ...]  # the ranch's empty enclosures
    assignment: dict[int, str]  # enclosure index (in `enclosures`) -> kind, given so far
    herd: dict[str, int]  # the newborns by kind without room in their kind's enclosures, in the order born
    unplaced: dict[str, int]  # of those, how many have no room yet, by kind
    born: dict[str, int]  # all the newborns by kind (for the play log)
    kind = "house"


class OmnivoreEscape(NamedTuple):
    """Escaping omnivores count as herbivores or carnivores (`EscapeAs`)."""

    player: int
    herbivore: bool  # whether a herbivore escaped too
    carnivore: bool  # whether a carnivore escaped too
    kind = "escape_as"


class FenceLoss(NamedTuple):
    """Herbivore escape penalty: which fence goes (`LoseFence`)."""

    player: int
    kind = "lose_fence"


class DinosaurLoss(NamedTuple):
    """Carnivore escape penalty: which kind of dinosaur goes (`LoseDinosaur`)."""

    player: int
    kind = "lose_dinosaur"


class Feeding(NamedTuple):
    """Phase 5 with too little food: which dinosaurs eat (`Feed`)."""

    player: int
    herd: tuple[tuple[str, int], ...]  # the dinosaurs on the ranch as (kind, n) pairs
    kind = "feed"


Prompt = (
    Placement | ResearchChoice | DrawnResearch | Rearranging | FencePlacement | Enclosing | Housing
    | OmnivoreEscape | FenceLoss | DinosaurLoss | Feeding
)
