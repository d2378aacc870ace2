"""The readings the rulebook leaves to the player, as rulings: which symbols dinosaurs cover (`cover_order`)
and which food an omnivore's "either" units come from (`either_food`)."""

import pytest
from ted_scripted import new_state, put, run

from tyrsim.games.tiny_epic_dinosaurs.feeding import eat_either
from tyrsim.games.tiny_epic_dinosaurs.ranch import Ranch, RanchBoard, load_ranch
from tyrsim.games.tiny_epic_dinosaurs.steps import FeedHerd


@pytest.mark.parametrize(
    ("order", "covered"),
    [("leaf-meat-supply", ["", "", "", "", "leaf", "leaf"]), ("supply-meat-leaf", ["", "", "", "", "supply", "meat"])],
)
def test_dinosaurs_cover_the_symbols_in_the_ruled_order(order, covered):
    layout = load_ranch(border="fence", cover_order=tuple(order.split("-")))
    ranch = Ranch(RanchBoard(layout))
    enclosures = layout.enclosures(set())  # the permanent 2 x 2 corner and the rest
    big = next(i for i, r in enumerate(enclosures) if r.capacity == 12)  # 4 leaves, 3 meat, 1 supply, 4 none
    assert ranch.lay_out(enclosures, {big: "raptor"}, {"raptor": 6}, []) == {}
    assert sorted(layout.symbols[c] for c, k in enumerate(ranch.cells) if k) == sorted(covered)
    # they leave in the reverse order: a space with the symbol covered last is freed first
    before = ranch.cells
    ranch.remove("raptor")
    (freed,) = [c for c, k in enumerate(ranch.cells) if k != before[c]]
    assert layout.symbols[freed] == covered[-1]


@pytest.mark.parametrize(("order", "kept"), [("leaf-meat-supply", (0, 1, 1)), ("supply-meat-leaf", (2, 0, 0))])
def test_the_cover_order_decides_the_income(order, kept):
    layout = load_ranch(border="fence", cover_order=tuple(order.split("-")))
    ranch = Ranch(RanchBoard(layout))
    enclosures = layout.enclosures(set())
    big = next(i for i, r in enumerate(enclosures) if r.capacity == 12)  # 4 leaves, 3 meat, 1 supply, 4 none
    ranch.lay_out(enclosures, {big: "raptor"}, {"raptor": 10}, [])
    corner = (1, 0, 0)  # the permanent enclosure, empty, keeps its leaf
    assert ranch.survey().income == tuple(a + b for a, b in zip(kept, corner, strict=True))


def test_a_bad_cover_order_is_refused_naming_the_allowed_orders():
    with pytest.raises(ValueError, match="cover_order.*leaf-meat-supply"):
        new_state(cover_order="leaf-supply")


@pytest.mark.parametrize(
    ("food", "left"), [("plentiful", (3, 3)), ("leaf", (1, 5)), ("meat", (5, 1))],
)
def test_either_food_comes_from_the_ruled_stock(food, left):
    assert eat_either(5, 5, 4, food) == left


def test_either_food_takes_the_other_stock_when_one_runs_out():
    assert eat_either(1, 5, 3, "leaf") == (0, 3)
    assert eat_either(5, 0, 2, "meat") == (3, 0)
    assert eat_either(2, 2, 3, "plentiful") == (0, 1)  # leaf on a tie, then the more plentiful


def test_an_omnivore_eats_by_the_either_food_ruling_in_phase_5():
    for food, left in (("plentiful", [4, 4]), ("leaf", [3, 5]), ("meat", [5, 3])):
        state = new_state(either_food=food)
        omnivore = next(name for name, d in state.dinosaurs.items() if d.unique and d.either == 2)
        player = state.players[0]
        player.research = [card for card in state.research_deck if card.name == omnivore]
        player.learn()
        put(state, 0, omnivore, [12])
        player.resources = [5, 5, 0]
        run(state, FeedHerd(0))
        assert player.resources[:2] == left, food
