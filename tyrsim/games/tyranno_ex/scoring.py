"""Phase 5 of a Tyranno Ex round, second half, scoring, and the end of the game: part of `TyrannoExState`
(game.py)."""

from __future__ import annotations

from tyrsim.games.tyranno_ex import narration as words
from tyrsim.games.tyranno_ex.board import COLUMNS, ROWS, TRACK, track_space


class Scoring:
    """Grid cards score their row plus the empty-space bonus, special spaces their value; face-down nothing."""

    def empty_spaces(self, row_index: int) -> int:
        """Empty spaces in a grid row, counting the unused column's with 3 players if the rule says so."""
        columns = range(COLUMNS) if self.rules.unused_column_empty else self.used_columns
        return sum(1 for c in columns if self.spots[c * 4 + row_index] is None)

    def _score(self) -> None:
        rows, empty, special = self.points["rows"], self.points["empty"], self.points["special"]
        bonus = self.rules.empty_space_bonus
        extras = [bonus * self.empty_spaces(r) for r in range(len(ROWS))]
        # the play log's (card's words, points) per player, None when nobody listens
        said: list[list[tuple[str, int]]] | None = None if self.narration is None else [
            [] for _ in range(self.num_players)]
        for spot, bc in enumerate(self.spots):
            if bc is None:
                continue
            if bc.face_down:
                bc.face_down = False  # turned face up again after this scoring
                if said is not None:
                    said[bc.owner].append((words.face_down_card(bc), 0))
                continue
            row = extra = 0
            if spot >= TRACK:
                scored = self.rules.special_spaces[track_space(spot)]
                special[bc.owner] += scored
            else:
                row, extra = ROWS[spot % 4], extras[spot % 4]
                scored = row + extra
                rows[bc.owner] += row
                empty[bc.owner] += extra
            bc.points += scored
            if said is not None:
                said[bc.owner].append((words.scored_card(bc, spot, scored, row, extra), scored))
        if said is not None:
            self.narration += words.scoring(self, said)

    def _count_lead_change(self) -> None:
        """Count a lead change: the players with the most points differ from those after the last scoring.

        The leaders are compared as a set, so a tie for the lead differs from
        either player leading alone; the first scoring only sets the lead.
        Unused "5" markers score after the last scoring and change nothing.
        """
        leaders = self._leaders()
        if self.leaders is not None and leaders != self.leaders:
            self.counters["lead_changes"] += 1
        self.leaders = leaders

    def _game_over(self) -> bool:
        """No card can be placed any more and a column has no card in the grid."""
        return not any(self.piles) and any(
            all(self.spots[c * 4 + r] is None for r in range(len(ROWS))) for c in self.used_columns
        )

    def _game_end(self) -> None:
        """Unused "5" markers score; every card still on the board is counted in the statistics."""
        for bc in self.spots:
            if bc is not None:
                self._count_card(bc)
        for p in range(self.num_players):
            if self.five[p]:
                self.points["five"][p] += self.rules.five_points
        self.terminal = True
        self.phase = "over"
        self.player = -1
        if self.narration is not None:
            self.narration += words.game_end(self)
