"""The steps of a round the engine still has to run (`TinyEpicDinosaursState._todo`), as named records.

A round is a stack of steps, the next one last: Phase 1 (`StartRound`), Phase 2 one turn at a time
(`AssignTurn`), Phase 3 (`ReturnRanchers`), then Phases 4, 5 and 6 for each player in turn order
(`ArrangeRanch`, `FeedHerd`, `BreedHerd`) and Phase 7 (`EndRound`); escapes add their penalties
(`PayPenalties`, `LoseDinosaurPenalty`). Each record's `name` names the engine's method that runs it
(`_step_<name>`). The records are frozen dataclasses, not named tuples: two steps are equal only when
they are the same step (a named tuple `FeedHerd(0)` would equal `ArrangeRanch(0)`), so the engine can
ask whether a step is still to come (`steps_left`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar


@dataclass(frozen=True, slots=True)
class StartRound:
    """Phase 1: every player collects resources and gets their ranchers back; Phase 2 begins."""

    name: ClassVar[str] = "start_round"


@dataclass(frozen=True, slots=True)
class AssignTurn:
    """Phase 2: the next player in turn who can still place ranchers places a group (or Phase 3 comes)."""

    name: ClassVar[str] = "assign_turn"


@dataclass(frozen=True, slots=True)
class ReturnRanchers:
    """Phase 3: every rancher returns home; Phases 4 to 7 are scheduled."""

    name: ClassVar[str] = "return_ranchers"


@dataclass(frozen=True, slots=True)
class ArrangeRanch:
    """Phase 4 for one player: fences from Holding, then the layout of the herd."""

    seat: int
    name: ClassVar[str] = "arrange"


@dataclass(frozen=True, slots=True)
class FeedHerd:
    """Phase 5 for one player: the herd eats, or the player chooses who is fed."""

    seat: int
    name: ClassVar[str] = "feed"


@dataclass(frozen=True, slots=True)
class BreedHerd:
    """Phase 6 for one player: newborns in the enclosures."""

    seat: int
    name: ClassVar[str] = "breed"


@dataclass(frozen=True, slots=True)
class EndRound:
    """Phase 7: contracts and research cards are refilled; the next round or the end of the game."""

    name: ClassVar[str] = "end_round"


@dataclass(frozen=True, slots=True)
class PayPenalties:
    """The escape penalties a player owes for the groups of the dinosaurs that just escaped."""

    seat: int
    herbivore: bool  # a herbivore escaped (or escaping omnivores count as herbivores)
    carnivore: bool  # a carnivore escaped (or escaping omnivores count as carnivores)
    omnivore: bool  # an omnivore escaped and the player has not yet said how it counts
    name: ClassVar[str] = "penalties"


@dataclass(frozen=True, slots=True)
class LoseDinosaurPenalty:
    """The carnivore escape penalty: the player gives up a dinosaur from the ranch."""

    seat: int
    name: ClassVar[str] = "lose_dinosaur"


START_ROUND, ASSIGN_TURN, RETURN_RANCHERS, END_ROUND = StartRound(), AssignTurn(), ReturnRanchers(), EndRound()

Step = (
    StartRound | AssignTurn | ReturnRanchers | ArrangeRanch | FeedHerd | BreedHerd | EndRound | PayPenalties
    | LoseDinosaurPenalty
)
STEPS = (
    StartRound, AssignTurn, ReturnRanchers, ArrangeRanch, FeedHerd, BreedHerd, EndRound, PayPenalties,
    LoseDinosaurPenalty,
)
