"""The round's steps are records equal only to the same step, so the engine can ask which are still to come."""

from tyrsim.games.tiny_epic_dinosaurs.game import TinyEpicDinosaursState
from tyrsim.games.tiny_epic_dinosaurs.steps import (
    END_ROUND,
    START_ROUND,
    STEPS,
    ArrangeRanch,
    BreedHerd,
    FeedHerd,
    LoseDinosaurPenalty,
)


def test_two_steps_are_equal_only_when_they_are_the_same_step():
    # as named tuples, FeedHerd(0) would equal ArrangeRanch(0) and END_ROUND would equal START_ROUND
    assert FeedHerd(0) == FeedHerd(0) and FeedHerd(0) != FeedHerd(1)
    assert FeedHerd(0) != ArrangeRanch(0) != BreedHerd(0) != LoseDinosaurPenalty(0)
    assert END_ROUND != START_ROUND
    assert FeedHerd(0) not in [ArrangeRanch(0), BreedHerd(0), END_ROUND] and END_ROUND not in [START_ROUND]


def test_every_step_names_a_method_of_the_engine():
    names = [step.name for step in STEPS]
    assert len(set(names)) == len(names)
    assert all(callable(getattr(TinyEpicDinosaursState, f"_step_{name}", None)) for name in names)
