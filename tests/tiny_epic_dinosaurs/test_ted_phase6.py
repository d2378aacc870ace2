"""Phase 6 houses as many newborns as any way of giving out the empty enclosures could: "Any dinosaurs produced
by breeding must immediately be placed on that player's ranch, following the normal rules for placing dinosaurs"
("If you are able to place a dinosaur, you must do so"), and no dinosaur already on the ranch moves.

The engine's choices are checked against a brute force written plainly from the rulebook, on random ranches
where two or more kinds breed: the newborns first fill the free spaces of their kind's enclosures; then every
way of giving each empty enclosure to one kind (or to none) is tried, each space taking one newborn of its
enclosure's kind while any is left. Every sequence of choices the engine offers must end housing the most
newborns any way does, and every choice it leaves out must lead to no such way. The compiled engine offers the
same choices and reaches the same positions.
"""

from itertools import product

import numpy as np
import pytest
import ted_reference as reference
from ted_scripted import check_enclose_choice, fence, new_state, put, run

from tyrsim.games.tiny_epic_dinosaurs import compiled as C
from tyrsim.games.tiny_epic_dinosaurs.steps import BreedHerd

KINDS = ("stegosaurus", "raptor", "brachiosaurus", "allosaurus")
GAME = new_state(players=2).game


def newborns(state, enclosures: list[tuple[int, ...]]) -> dict[str, int]:
    """"Every two dinosaurs of the same type in the same enclosure produce 1 dinosaur of that type", as many as
    the supply holds."""
    cells = state.players[0].ranch.cells
    born: dict[str, int] = {}
    for spaces in enclosures:
        kinds = {cells[c] for c in spaces} - {None}
        if len(kinds) == 1:
            kind = kinds.pop()
            born[kind] = born.get(kind, 0) + sum(cells[c] == kind for c in spaces) // 2
    return {kind: min(n, state.supply[kind]) for kind, n in born.items() if n}


def housed(own: dict[str, int], empty: list[tuple[int, ...]], kinds: tuple, born: dict[str, int]) -> int:
    """Newborns housed when the free spaces of each kind's enclosures (`own`) take its newborns and empty
    enclosure i holds only `kinds[i]` (None: nobody)."""
    room = dict(own)
    for spaces, kind in zip(empty, kinds, strict=True):
        if kind is not None:
            room[kind] = room.get(kind, 0) + len(spaces)
    return sum(min(n, room.get(kind, 0)) for kind, n in born.items())


def brute_force(state, enclosures) -> tuple[int, int, list[tuple[int, ...]], list[tuple]]:
    """(newborns, the most any assignment houses, the empty enclosures, every assignment that does)."""
    cells = state.players[0].ranch.cells
    born = newborns(state, enclosures)
    own: dict[str, int] = {}
    empty = []
    for spaces in enclosures:
        kinds = {cells[c] for c in spaces} - {None}
        if not kinds:
            empty.append(spaces)
        elif len(kinds) == 1:
            kind = kinds.pop()
            own[kind] = own.get(kind, 0) + sum(cells[c] is None for c in spaces)
    assignments = list(product([None, *born], repeat=len(empty)))
    most = max(housed(own, empty, kinds, born) for kinds in assignments)
    best = [kinds for kinds in assignments if housed(own, empty, kinds, born) == most]
    return sum(born.values()), most, empty, best


def explore(state, born: int, most: int, empty, best, escapes_before: int) -> int:
    """Follow every sequence of choices the engine offers; check each choice it leaves out reaches no best
    assignment and each sequence ends housing `most`. The number of prompts seen."""
    prompt = state.prompt
    if prompt is None or prompt.kind != "house":
        escaped = state.players[0].counters["escapes"] - escapes_before
        assert born - escaped == most, f"{escaped} of {born} newborns escaped, the best assignment houses {most}"
        return 0
    given = {prompt.enclosures[i].cells: kind for i, kind in prompt.assignment.items()}
    index = {cells: i for i, cells in enumerate(empty)}
    offered = set(state.legal_actions())
    for region in prompt.enclosures:
        if region.cells in given:
            continue
        for kind, n in prompt.unplaced.items():
            if not n:
                continue
            check_enclose_choice(offered, region, kind, given, index, best)
    seen = 1
    for action in sorted(offered, key=repr):
        child = state.clone()
        child.apply(action)
        seen += explore(child, born, most, empty, best, escapes_before)
    return seen


def random_phase6(rng: np.random.Generator):
    """A two-player game at player 0's Phase 6: random fence tokens, and two to four kinds standing in
    enclosures of their own, each enclosure filled at random (so several kinds breed), a few spaces left."""
    while True:
        state = GAME.new_state(rng)
        ranch = state.players[0].ranch
        slots = list(ranch.free_slots())
        edges = rng.choice(slots, int(rng.integers(4, 16)), replace=False)
        fence(state, 0, *(ranch.layout.edge_names[e] for e in edges))
        enclosures = reference.enclosures(state, ranch)
        if len(enclosures) < 3:
            continue
        kinds = list(KINDS[: int(rng.integers(2, 5))])
        for spaces in rng.permutation(len(enclosures)):
            spaces = enclosures[spaces]
            if rng.random() < 0.35:
                continue  # stays empty
            kind = str(rng.choice(kinds))
            put(state, 0, kind, list(spaces[: int(rng.integers(1, len(spaces) + 1))]))
        if len(newborns(state, enclosures)) >= 2:
            return state, enclosures


@pytest.mark.parametrize("ranches", [500, pytest.param(2_000, marks=pytest.mark.exhaustive)])
def test_the_newborns_of_several_kinds_are_housed_the_most_there_can_be(ranches):
    rng = np.random.default_rng(41)
    prompts = short = 0
    for _ in range(ranches):
        state, enclosures = random_phase6(rng)
        born, most, empty, best = brute_force(state, enclosures)
        short += most < born
        escapes = state.players[0].counters["escapes"]
        run(state, BreedHerd(0))
        prompts += explore(state, born, most, empty, best, escapes)
    assert prompts > ranches // 4  # many ranches leave the player a choice
    assert short > ranches // 40  # and many cannot house every newborn


def test_the_compiled_engine_offers_the_same_choices_and_houses_the_same_newborns():
    rng = np.random.default_rng(42)
    state = new_state(players=2)
    tables = C.rule_tables(state.rules, 2)
    bits = np.random.default_rng(0).bit_generator
    asked = 0
    for _ in range(300):
        state, _ = random_phase6(rng)
        state.prompt, state._legal, state._todo = None, None, [BreedHerd(0)]
        position, workspace = C.position_of(state), C.new_workspace()
        C.play_action(position, tables, bits, workspace, C.NONE)  # no answer: runs the step
        state._advance()
        while True:
            assert C.differences(C.position_of(state), position) == []
            if state.prompt is None:
                break
            asked += 1
            legal = state.legal_actions()
            listed = [C.action_row(position, tables, workspace, i) for i in range(workspace[0]["count"])]
            assert [C.action_of(state, a) for a in legal] == listed
            i = int(rng.integers(len(legal)))
            state.apply(legal[i])
            C.play_action(position, tables, bits, workspace, i)
    assert asked > 50

