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
            if not any(self.piles):
                self.queue.clear()  # no face-up card left: nobody can place
            elif self._marker_stone_left(self.queue[0][1]):
                self.player = self.queue[0][0]
                return
            else:  # every marker stone of the colour marks a card on the board: this card is not placed
                self.counters["no_stone"] += 1
                if self.narration is not None:
                    self.narration.append(words.no_marker_stone(self, *self.queue[0]))
                self.queue.pop(0)
        self._begin_environment()

    def _marker_stone_left(self, column: int) -> bool:
        """Whether the colour has a marker stone to mark a new card with: "placing it ... marking the card at
        its edge with one of their marker stones" (5 each in 4 colours: ruling `marker_stones`). A stone comes
        back when its card leaves the board (eliminated, or past the last special space); 0: never run out."""
        stones = self.rules.marker_stones
        return not stones or sum(bc is not None and bc.column == column for bc in self.spots) < stones

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
