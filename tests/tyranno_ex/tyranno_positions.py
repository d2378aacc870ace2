"""Scripted Tyranno Ex positions shared by the rule tests: put a card on a spot, start an environment turn."""

from __future__ import annotations

from tyrsim.games.tyranno_ex.board import TRACK, BoardCard
from tyrsim.games.tyranno_ex.cards import Card


def put(state, at: int, card: Card | tuple[int, ...], owner: int, die: int | None = None,
        face_down: bool = False) -> BoardCard:
    """Place `card` (or a card with these symbols) on spot `at` for `owner`; track spots take the owner's column."""
    if not isinstance(card, Card):
        card = Card(f"card{at}", card)
    bc = BoardCard(card, owner, at // 4 if at < TRACK else owner, die, face_down)
    state.spots[at] = bc
    return bc


def environment_phase(state, player: int = 0, move: int = 1) -> None:
    """Make it `player`'s turn in the environment phase, on placement round `move`."""
    state.phase, state.player, state.start, state.move, state.passes = "environment", player, 0, move, 0
    state.limit = state._limit()
