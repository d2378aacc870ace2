"""Phase 3 of a Tyranno Ex round, survival: part of `TyrannoExState` (game.py)."""

from __future__ import annotations

from tyrsim.games.tyranno_ex import narration as words
from tyrsim.games.tyranno_ex.board import ROWS, TRACK

PLACE_NAMES = tuple(f"row{r}" for r in ROWS)  # survival counters: where the card was checked
SYMBOL_COUNT_NAMES = ("", "sym1", "sym2", "sym3")  # ... and how many different symbols it shows
SURVIVAL_NAMES = (*PLACE_NAMES, "special", *SYMBOL_COUNT_NAMES[1:])


class Survival:
    """A card with none of its symbols among the current conditions is eliminated."""

    def _survival(self) -> None:
        """Check every card on the board (counted by where it is and how many symbols it shows), then combat."""
        present = self.env.present()
        # ruling: cards on the special spaces are on the board and are checked too (unless the rule says not)
        last = len(self.spots) if self.rules.track_cards_need_survival else TRACK
        counters = self.seat_counters
        spots = self.spots
        narration = self.narration
        if narration is not None:
            narration.append(words.survival_begins(present))
            losses = self.counters["survival_losses"]
        for spot in range(last):
            bc = spots[spot]
            if bc is None:
                continue
            where = "special" if spot >= TRACK else PLACE_NAMES[spot % 4]
            sym = SYMBOL_COUNT_NAMES[bc.card.distinct]
            owner = bc.owner
            counters["checked_" + where][owner] += 1
            counters["checked_" + sym][owner] += 1
            if bc.card.mask & present == 0:
                counters["lost_" + where][owner] += 1
                counters["lost_" + sym][owner] += 1
                self.counters["survival_losses"] += 1
                if narration is not None:
                    narration.append(words.survival_loss(self, spot))
                self._eliminate(spot)
        if narration is not None and losses == self.counters["survival_losses"]:
            narration.append(words.EVERY_CARD_SURVIVES)
        self._begin_combat()
