"""Phase 4 houses as many dinosaurs as any layout could: "If you are able to place a dinosaur, you must do so."

The engine's `Enclose` choices are checked against a brute force written plainly from the rulebook: every
way of giving each enclosure to one kind (or to none), each space then taking one dinosaur of its
enclosure's kind while any is left. Every sequence of choices the engine offers must end in a layout that
houses the most dinosaurs any way does, and every choice it leaves out must lead to no such layout.
"""

from itertools import product

import numpy as np
import pytest
import ted_reference as reference
from ted_scripted import check_enclose_choice, fence, new_state, run

from tyrsim.games.tiny_epic_dinosaurs.actions import Enclose
from tyrsim.games.tiny_epic_dinosaurs.steps import ArrangeRanch

KINDS = ("stegosaurus", "raptor", "brachiosaurus", "allosaurus")


def houses(enclosures: list[tuple[int, ...]], kinds: tuple, herd: dict[str, int]) -> int:
    """Dinosaurs housed when enclosure i holds only `kinds[i]` (None: nobody): "Each space on a ranch may contain
    only 1 dinosaur. Each enclosure may only contain dinosaurs of one type." Space by space, each takes one
    dinosaur of its enclosure's kind while one is left."""
    left = dict(herd)
    placed = 0
    for spaces, kind in zip(enclosures, kinds, strict=True):
        for _ in spaces:
            if kind is not None and left.get(kind, 0):
                left[kind] -= 1
                placed += 1
    return placed


def best_layouts(enclosures: list[tuple[int, ...]], herd: dict[str, int]) -> tuple[int, list[tuple]]:
    """(the most dinosaurs any layout houses, every layout that does), trying every kind (or none) per enclosure."""
    layouts = list(product([None, *herd], repeat=len(enclosures)))
    most = max(houses(enclosures, kinds, herd) for kinds in layouts)
    return most, [kinds for kinds in layouts if houses(enclosures, kinds, herd) == most]


def explore(state, enclosures, herd, most, best, seat=0, escapes_before=0) -> int:
    """Follow every sequence of `Enclose` choices the engine offers from this state; check each choice it
    leaves out reaches no best layout and each sequence ends housing `most`. The number of prompts seen."""
    prompt = state.prompt
    if prompt is None or prompt.kind != "enclose":
        escaped = state.players[seat].counters["escapes"] - escapes_before
        assert sum(herd.values()) - escaped == most, f"{escaped} escaped, the best layout houses {most}"
        return 0
    given = {prompt.enclosures[i].cells: kind for i, kind in prompt.assignment.items()}
    index = {cells: i for i, cells in enumerate(enclosures)}
    offered = set(state.legal_actions())
    room = {}
    for cells, kind in given.items():
        room[kind] = room.get(kind, 0) + len(cells)
    for region in prompt.enclosures:
        if region.cells in given:
            continue
        for kind in herd:
            if herd[kind] <= room.get(kind, 0):
                continue  # no dinosaur of this kind is left to place
            check_enclose_choice(offered, region, kind, given, index, best)
    seen = 1
    for action in sorted(offered, key=repr):
        child = state.clone()
        child.apply(action)
        seen += explore(child, enclosures, herd, most, best, seat, escapes_before)
    return seen


def random_phase4(rng: np.random.Generator):
    """A two-player game at player 0's Phase 4: a few random fence tokens, random dinosaurs on the ranch and in
    Holding (the ranch's are laid out again with them)."""
    state = new_state(players=2, seed=int(rng.integers(1 << 30)))
    ranch = state.players[0].ranch
    slots = list(ranch.free_slots())
    fence(state, 0, *(ranch.layout.edge_names[e] for e in rng.choice(slots, int(rng.integers(0, 12)), replace=False)))
    grass = [c for c, t in enumerate(ranch.layout.terrain) if t == "grass"]
    kinds = KINDS[: int(rng.integers(1, 5))]
    on_ranch = rng.choice(grass, int(rng.integers(0, 8)), replace=False)
    ranch.cells = [str(rng.choice(kinds)) if c in on_ranch else None for c in range(len(ranch.cells))]
    state.players[0].holding = [str(rng.choice(kinds)) for _ in range(int(rng.integers(0, 8)))]
    herd: dict[str, int] = {}
    for kind in (*ranch.cells, *state.players[0].holding):
        if kind is not None:
            herd[kind] = herd.get(kind, 0) + 1
    return state, herd


@pytest.mark.parametrize("ranches", [500, pytest.param(2_000, marks=pytest.mark.exhaustive)])
def test_every_offered_layout_houses_the_most_dinosaurs_on_random_ranches(ranches):
    rng = np.random.default_rng(26)
    prompts = 0
    for _ in range(ranches):
        state, herd = random_phase4(rng)
        enclosures = reference.enclosures(state, state.players[0].ranch)
        most, best = best_layouts(enclosures, herd)
        escapes = state.players[0].counters["escapes"]
        run(state, ArrangeRanch(0))
        prompts += explore(state, enclosures, herd, most, best, escapes_before=escapes)
    assert prompts > ranches  # most positions ask at least once


def test_a_raptor_cannot_take_the_enclosure_the_stegosauruses_need():
    # The permanent 4-space enclosure and a 1-space one (fences on both open sides of space 0,2); Holding
    # 4 Stegosaurus and 1 Raptor. Stegosauruses in the 4-space and the Raptor in the 1-space house all five,
    # so the Raptor in the 4-space enclosure (3 Stegosauruses would escape) is not offered.
    state = new_state(players=2)
    fence(state, 0, "0,2|N", "0,2|1,2")
    state.players[0].holding = ["stegosaurus"] * 4 + ["raptor"]
    run(state, ArrangeRanch(0))
    assert set(state.legal_actions()) == {Enclose("0,0", 4, "stegosaurus"), Enclose("0,2", 1, "raptor")}
    state.apply(Enclose("0,0", 4, "stegosaurus"))  # the Raptor then takes the 1-space enclosure by itself
    assert state.players[0].counters["escapes"] == 0
    assert state.players[0].ranch.herd() == {"stegosaurus": 4, "raptor": 1}
