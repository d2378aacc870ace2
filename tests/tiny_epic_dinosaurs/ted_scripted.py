"""Scripted Tiny Epic Dinosaurs states for the rule tests: set up a position, run chosen steps."""

from __future__ import annotations

import numpy as np

from tyrsim.games.tiny_epic_dinosaurs.actions import Enclose
from tyrsim.games.tiny_epic_dinosaurs.game import TinyEpicDinosaursState, make_game
from tyrsim.games.tiny_epic_dinosaurs.rules import Rules
from tyrsim.games.tiny_epic_dinosaurs.steps import Step


def new_state(players: int = 2, seed: int = 0, **rules) -> TinyEpicDinosaursState:
    """A fresh game (round 1, first player about to place)."""
    return make_game(Rules.from_overrides(rules), players).new_state(np.random.default_rng(seed))


def cell(row: int, col: int) -> int:
    return row * 5 + col  # the bundled ranch has 5 columns


def put(state: TinyEpicDinosaursState, seat: int, kind: str, cells: list[int]) -> None:
    """Stand dinosaurs of `kind` on these ranch spaces (taken from the supply)."""
    ranch = state.players[seat].ranch
    spaces = list(ranch.cells)
    for c in cells:
        spaces[c] = kind
        if kind in state.supply:
            state.supply[kind] -= 1
    ranch.cells = spaces
    state._legal = None  # the position changed: recompute the options


def fence(state: TinyEpicDinosaursState, seat: int, *edges: str) -> None:
    """Put fence tokens (taken from the supply) on these edges of a ranch."""
    for name in edges:
        state.players[seat].ranch.add_fence(state.layout.edge_id(name))
        state.fence_supply -= 1
    state._legal = None


def run(state: TinyEpicDinosaursState, *steps: Step) -> None:
    """Forget the current prompt and run exactly these steps (and whatever they schedule)."""
    state.prompt = None
    state._legal = None
    state._todo = list(reversed(steps))
    state._advance()


def place(
    state: TinyEpicDinosaursState, space: str, ranchers: int = 1, owner: bool = False, choice: str = "", extra: str = ""
) -> None:
    """Play the legal placement on `space` with this group (and choice, when the space needs one)."""
    matches = [
        a
        for a in state.legal_actions()
        if a.space == space
        and (a.ranchers, a.owner) == (ranchers, owner)
        and (not choice or a.choice == choice)
        and a.extra == extra
    ]
    assert len(matches) == 1, f"{len(matches)} placements match {space} {ranchers} {owner} {choice} {extra}"
    state.apply(matches[0])


def check_enclose_choice(offered: set, region, kind: str, given: dict, index: dict, best: list) -> None:
    """An `Enclose` of `kind` in `region` is offered exactly when a best assignment (`best`: a kind or None per
    enclosure, in `index`'s order of their cells) still agrees with the choices already `given` and puts `kind`
    there."""
    reachable = any(
        kinds[index[region.cells]] == kind and all(kinds[index[c]] == k for c, k in given.items()) for kinds in best
    )
    action = Enclose(region.name, region.capacity, kind)
    assert (action in offered) == reachable, f"{action!r}: offered {action in offered}, best {reachable}"
