"""Phase 1 of a Tyranno Ex round, placing the animal cards: part of `TyrannoExState` (game.py)."""

from __future__ import annotations

from tyrsim.games.tyranno_ex import narration as words
from tyrsim.games.tyranno_ex.actions import PlaceCard, place_card
from tyrsim.games.tyranno_ex.board import ROWS, BoardCard


class Placement:
    """In turn from the start player, each player takes a face-up card into row 0 of their column (two
    cards in the first round and after a double shift); the pile's next card turns face up."""

    def _target_rows(self) -> tuple[int, ...]:
        """Row indices to fill this round: rows 0 and 3 in the first round and after a double shift."""
        return (0, 1) if self.round == 1 or self.double_last else (0,)

    def _begin_placement(self) -> None:
        self.phase = "place"
        rows = len(self._target_rows())
        order = self._order(self.start)
        if self.rules.placement_order == "laps":  # ruling: one card per turn, round the table twice
            self.queue = [(p, c) for _ in range(rows) for p in order for c in self.player_columns[p]]
        else:
            self.queue = [(p, c) for p in order for c in self.player_columns[p] for _ in range(rows)]
        self._next_placement()

    def _next_placement(self) -> None:
        while self.queue:
            if any(self.piles):
                self.player = self.queue[0][0]
                return
            self.queue.clear()  # no face-up card left: nobody can place
        self._begin_environment()

    def _place_actions(self) -> tuple[PlaceCard, ...]:
        column = self.queue[0][1]
        empty = [r for r in self._target_rows() if self.spots[column * 4 + r] is None]
        if self.round == 1:
            empty = empty[:1]  # the first round's second card goes directly above the first
        return tuple(place_card(i, column, ROWS[r], pile[-1]) for i, pile in enumerate(self.piles) if pile
                     for r in empty)  # fmt: skip

    def _place(self, action: PlaceCard) -> None:
        card = self.piles[action.pile].pop()  # the pile's next card turns face up
        die = self.rules.homo_sapiens_die if card.homo_sapiens else None
        self.spots[action.column * 4 + ROWS.index(action.row)] = BoardCard(
            card, self.player, action.column, die, entry_row=action.row
        )
        self.seat_counters["cards_placed"][self.player] += 1
        if self.narration is not None:
            self.narration += words.placement(self, action.pile, die)
        self.queue.pop(0)
        self._next_placement()
