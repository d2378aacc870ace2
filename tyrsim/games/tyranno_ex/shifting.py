"""Phase 5 of a Tyranno Ex round, first half, shifting: every card moves up a row, and the cards off row 9
enter the special track: part of `TyrannoExState` (game.py)."""

from __future__ import annotations

import functools

from tyrsim.games.tyranno_ex import narration as words
from tyrsim.games.tyranno_ex.board import BoardCard, track_spot
from tyrsim.games.tyranno_ex.combat import strength


class Shifting:
    """Every card moves up a row; cards off row 9 enter the special track, face-down first, strongest first."""

    def _shift(self) -> None:
        """One shift of the board.

        The entering cards land on 13, 10, 7 in that order ("each card after the
        first is placed one space further along"); a fourth goes past 7 and
        leaves the game. Ruling `special_space_holds`: "several" (the rulebook's
        "on later shifts, it moves rightward onto 10 and then 7"): a card on the
        track moves one space per shift whatever enters, and a space may hold
        several cards; "one": each space holds one card, so the entering cards
        push the cards on the track one space further each (empty spaces travel along).
        """
        spots = self.spots
        leaving = []
        for c in self.used_columns:
            base = c * 4
            if spots[base + 3] is not None:
                leaving.append(spots[base + 3])
            spots[base + 3], spots[base + 2], spots[base + 1], spots[base] = (
                spots[base + 2], spots[base + 1], spots[base], None,
            )  # fmt: skip
        entering = self._entering_order(leaving)
        n = len(self.rules.special_spaces)
        on_track = [[bc for bc in spots[track_spot(i) : track_spot(i + 1)] if bc is not None] for i in range(n)]
        if self.rules.special_space_holds == "one":
            line = (entering or [None]) + [cards[0] if cards else None for cards in on_track]
            spaces = [[] if bc is None else [bc] for bc in line[:n]]
            gone = [bc for bc in line[n:] if bc is not None]
        else:  # space i gets the cards of space i - 1 and the i-th entering card: at most i + 1 cards
            spaces = [(on_track[i - 1] if i else []) + entering[i : i + 1] for i in range(n)]
            gone = on_track[-1] + entering[n:]
        for bc in gone:
            self._retire(bc)
        for i, cards in enumerate(spaces):
            spots[track_spot(i) : track_spot(i + 1)] = cards + [None] * (i + 1 - len(cards))
        if self.narration is not None:
            self.narration += words.track_moves(self, entering, on_track, spaces)

    def _entering_order(self, cards: list[BoardCard]) -> list[BoardCard]:
        """Face-down cards first, then strongest first, so the weakest lands furthest along; ties fight.

        The order goes by the cards as they left row 9 (face, strength), so a tie fight's effects under
        `track_tie_fight = "full_effects"` never reorder cards already compared; a card such a fight
        eliminates leaves the game instead of entering the track.
        """
        if len(cards) < 2:
            return cards
        chips = self.env.chips_of()
        keys = {id(bc): (not bc.face_down, -strength(bc.die)) for bc in cards}
        knocked_out: dict[int, BoardCard] = {}  # by id: eliminated by a tie fight (full effects only)

        def compare(x: BoardCard, y: BoardCard) -> int:
            key_x, key_y = keys[id(x)], keys[id(y)]
            if key_x != key_y:
                return -1 if key_x < key_y else 1
            if id(x) in knocked_out or id(y) in knocked_out:  # out of the game already: no second fight
                return (id(x) in knocked_out) - (id(y) in knocked_out)
            return -1 if self._tie_fight(x, y, chips, knocked_out) is x else 1

        ordered = sorted(cards, key=functools.cmp_to_key(compare))
        for bc in knocked_out.values():
            self.counters["track_tie_losses"] += 1
            self._retire(bc)
        return [bc for bc in ordered if id(bc) not in knocked_out]

    def _tie_fight(self, x: BoardCard, y: BoardCard, chips: list[int], knocked_out: dict[int, BoardCard]) -> BoardCard:
        """Two equally strong cards leaving row 9 fight it out (the lower column attacks); the winner, who
        counts as the stronger. A fight that can never end is settled at random.

        Ruling `track_tie_fight`: the fight settles the order only ("order_only": "the tied cards fight it
        out for the placement"), or also has the usual effects of a fight ("full_effects": dice, face down, a
        2:0 loser eliminated: put in `knocked_out`, by id).
        """
        first, second = (x, y) if x.column < y.column else (y, x)
        self.counters["track_tie_fights"] += 1
        fight = self._resolve(first, second, chips)
        narration = self.narration
        if narration is not None:
            narration.append(words.tie_fight_begins(first, second))
            narration += words.fight_lines(first.card.name, second.card.name, fight)
        if fight.winner is None:
            winner = first if self.rng.random() < 0.5 else second
            if narration is not None:
                narration.append(words.endless_tie_fight(winner))
            return winner
        winner = first if fight.winner == "attacker" else second
        loser = second if winner is first else first
        dice = (winner.die, loser.die)
        full = self.rules.track_tie_fight == "full_effects"
        if full and self._take_effects(winner, loser, fight.loser_rounds):
            knocked_out[id(loser)] = loser
        if narration is not None:
            narration.append(words.outcome_text(winner, loser, dice, fight, id(loser) in knocked_out) if full
                             else words.tie_fight_order(winner))  # fmt: skip
        return winner
