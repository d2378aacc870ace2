"""The Tyranno Ex board: the grid of colour columns and rows, the special spaces, and the cards on them.

The board is a list of 16 grid spots, spot = column * 4 + row index (row
index 0-3 for rows 0, 3, 6, 9), followed by the special spaces (13, 10, 7 by
default). Special space i has i + 1 spots, since it can hold that many cards
(`special_space_holds = "several"`: each shift moves one card onto 13 and the
cards on space i - 1 on to space i); they follow one another, space by space:
spot 16 is 13, spots 17-18 are 10, spots 19-21 are 7. With one card per space
only each space's first spot is used.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from tyrsim.games.tyranno_ex.cards import Card

ROWS = (0, 3, 6, 9)  # the grid's rows, bottom to top; a card scores its row's number
COLUMNS = 4
PILES = 4
TRACK = COLUMNS * len(ROWS)  # first special-space spot


def track_spot(space: int, slot: int = 0) -> int:
    """The spot of card `slot` on special space `space` (0 is the first, 13 by default); space i has i + 1."""
    return TRACK + space * (space + 1) // 2 + slot


def track_space(spot: int) -> int:
    """The special space (0 is the first, 13 by default) of a spot at or after TRACK."""
    return (math.isqrt(8 * (spot - TRACK) + 1) - 1) // 2


def spot_name(spot: int) -> str:
    """'c2r6' for column 2, row 6; 's0', 's1', 's2' for the special spaces (13, 10, 7 by default),
    's1.1' for the second card on space 's1' (when a special space holds several cards)."""
    if spot >= TRACK:
        space = track_space(spot)
        slot = spot - track_spot(space)
        return f"s{space}" + (f".{slot}" if slot else "")
    return f"c{spot // 4}r{ROWS[spot % 4]}"


@dataclass(slots=True)
class BoardCard:
    """An animal card on the board, marked with its owner's stone."""

    card: Card
    owner: int
    column: int
    die: int | None = None  # the strength die's value, None without a die
    face_down: bool = False  # lost 2:1 this round: scores nothing at the next scoring
    entry_row: int = 0  # the row it was placed in
    points: int = 0  # points it has scored so far

    def copy(self) -> BoardCard:
        new = BoardCard.__new__(BoardCard)
        new.card, new.owner, new.column, new.die = self.card, self.owner, self.column, self.die
        new.face_down, new.entry_row, new.points = self.face_down, self.entry_row, self.points
        return new

    def __repr__(self) -> str:
        die = f" die {self.die}" if self.die is not None else ""
        return f"{self.card.name}[P{self.owner}{die}{' face down' if self.face_down else ''}]"


def column_layout(num_players: int, two_player_columns: int = 2) -> tuple[list[int | None], list[tuple[int, ...]]]:
    """(owner of each column, columns of each player).

    With 2 players each runs an outer and an inner column, outer first (its
    battle comes first); with 3 players the last column is left out. Ruling
    `two_player_columns = 1`: 2 players run one column each, the last two are
    left out.
    """
    if num_players == 2 and two_player_columns == 2:
        return [0, 1, 0, 1], [(0, 2), (3, 1)]
    owners = [p if p < num_players else None for p in range(COLUMNS)]
    return owners, [(p,) for p in range(num_players)]
