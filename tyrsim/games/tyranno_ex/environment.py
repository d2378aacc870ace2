"""The environment card and the chip bag: current and potential living conditions.

Each of the 4 spaces holds current chips (face up, all of one symbol) and
potential chips (face down, any symbols). Chips are kept as counts per symbol:
only how many chips of each symbol lie somewhere ever matters. Whenever a
space's potential chips outnumber its current chips, the current chips go
back to the bag and the most common potential symbol becomes current (as the
rulings `majority` and `majority_tie` read it); the rest stay face down, and
the check repeats at once (a rapid change, or cascade).

Who knows which face-down chips: a chip's symbol is known to the player who
laid it (`laid`) until the space's chips are turned face up, which happens
whenever they outnumber the current chips, a change or not ("The face-down
potential chips on that space are then turned face up [...] The rest of the
chips on that space are turned face down again"); from then on everyone has
seen the chips left there (`known`). A search's determinization resamples
only the chips its player has not seen.

A play log passes `resolve` a function to tell what happens on the space (each
change, rapid change and tie; `narration.py` puts it in words); without one it
says nothing and costs nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from tyrsim.games.tyranno_ex.cards import SYMBOLS

SPACES = 4  # "current living conditions" spaces on the environment card
NUM_SYMBOLS = len(SYMBOLS)
# what `resolve` tells of a space whose face-down chips outnumber its current chips (`narration.space_outcome`)
OUTCOMES = ("change", "tie_drawn", "tie_chooser", "tie_no_change", "tie_empty", "tie_not_over_half", "not_over_half")
Tell = Callable[[str, int, int, list[int] | None, int | None], None]  # (outcome, space, changes, tied, symbol)


class Bag:
    """The cloth bag: chips per symbol, drawn without replacement from the game's generator."""

    __slots__ = ("chips",)

    def __init__(self, chips: Sequence[int]) -> None:
        self.chips = list(chips)

    def total(self) -> int:
        return sum(self.chips)

    def draw(self, n: int, rng: np.random.Generator) -> list[int]:
        """Draw up to n chips (fewer if the bag runs out), one at a time; returns chips per symbol."""
        chips = self.chips
        total = sum(chips)
        drawn = [0] * NUM_SYMBOLS
        if n <= 0 or total == 0:
            return drawn
        for u in rng.random(min(n, total)).tolist():
            pick = int(u * total)  # the pick-th chip in the bag, counting symbol by symbol
            s = 0
            while pick >= chips[s]:
                pick -= chips[s]
                s += 1
            chips[s] -= 1
            drawn[s] += 1
            total -= 1
        return drawn

    def put_back(self, symbol: int, n: int = 1) -> None:
        self.chips[symbol] += n


class Environment:
    """The environment card's 4 spaces, each with current and potential chips."""

    __slots__ = ("current", "current_count", "potential", "known", "laid")

    def __init__(self, current: Sequence[int], current_count: Sequence[int] | None = None, players: int = 4) -> None:
        self.current = list(current)  # symbol of each space's current chips
        self.current_count = list(current_count or [1] * len(current))  # how many current chips
        self.potential = [[0] * NUM_SYMBOLS for _ in current]  # face-down chips per space and symbol
        # of those: chips everyone saw turned face up, per space and symbol ...
        self.known = [[0] * NUM_SYMBOLS for _ in current]
        # ... and chips not yet turned face up, per player who laid them, space and symbol
        self.laid = [[[0] * NUM_SYMBOLS for _ in current] for _ in range(players)]

    def present(self) -> int:
        """Bitmask of the symbols among the current living conditions (an emptied space shows none)."""
        mask = 0
        for s, n in zip(self.current, self.current_count, strict=True):
            if n:
                mask |= 1 << s
        return mask

    def chips_of(self) -> list[int]:
        """Current chips per symbol, summed over the spaces (a card's dice come from these)."""
        counts = [0] * NUM_SYMBOLS
        for s, n in zip(self.current, self.current_count, strict=True):
            counts[s] += n
        return counts

    def potential_total(self, space: int) -> int:
        return sum(self.potential[space])

    def chips_on_card(self) -> int:
        return sum(self.current_count) + sum(sum(p) for p in self.potential)

    def set_chip(self, space: int, symbol: int, player: int | None = None) -> None:
        """`player` (None: nobody recorded) lays one chip face down on a potential space."""
        self.potential[space][symbol] += 1
        if player is not None:
            self.laid[player][space][symbol] += 1

    def reveal(self, space: int) -> None:
        """The space's face-down chips are turned face up (and the rest face down again): everyone has seen them."""
        self.known[space] = list(self.potential[space])
        for laid in self.laid:
            laid[space] = [0] * NUM_SYMBOLS

    def unseen(self, space: int, player: int) -> int:
        """How many face-down chips on the space `player` has not seen (laid by others since the last reveal)."""
        return sum(self.potential[space]) - sum(self.known[space]) - sum(self.laid[player][space])

    def majority(self, space: int) -> list[int]:
        """The symbols with the most potential chips on the space (several when tied)."""
        pot = self.potential[space]
        top = max(pot)
        return [s for s in range(NUM_SYMBOLS) if pot[s] == top]

    def empty(self, space: int, bag: Bag) -> None:
        """Current chips back to the bag and none take their place: the space shows no condition (its symbol
        stays recorded with no chips, so it counts for nothing)."""
        bag.put_back(self.current[space], self.current_count[space])
        self.current_count[space] = 0

    def change(self, space: int, symbol: int, bag: Bag) -> None:
        """Current chips back to the bag; the revealed `symbol` chips become the current conditions."""
        bag.put_back(self.current[space], self.current_count[space])
        self.current[space] = symbol
        self.current_count[space] = self.potential[space][symbol]
        self.potential[space][symbol] = 0
        self.reveal(space)

    def resolve(
        self, space: int, majority_tie: str, bag: Bag, rng: np.random.Generator, majority: str = "most",
        tell: Tell | None = None,
    ) -> tuple[int, int, list[int] | None]:
        """Change the space while its potential chips outnumber its current chips.

        Returns (changes made, ties met, tied symbols): tied symbols are
        returned, with the space left as it is, when the rule lets the chooser
        pick among them. Ruling `majority`: "whichever symbol has a simple
        majority" is the symbol with the "most" chips, or ("over_half") only a
        symbol with more than half of the revealed chips; without one the space
        stays as it is until a later chip gives one. Ruling `majority_tie` (for
        "most"): a tie for the most chips is no "simple majority", so
        "empty" (the default: "that space's current chips are immediately
        removed", before the chips are turned face up) leaves the space with no
        current chips until a later chip breaks the tie; "no_change" keeps the
        old chips; "random" draws one of the tied symbols. A tie for the
        most is counted under every reading. `tell`, if given, is told each
        outcome (one of OUTCOMES, with the changes made so far, the tied symbols
        and the new or leading symbol) before anything changes.
        """
        changes = ties = 0
        pot = self.potential[space]
        if sum(pot) > self.current_count[space]:  # turned face up, whatever the majority
            self.reveal(space)
        while (revealed := sum(pot)) > self.current_count[space]:  # the potential chips outnumber the current
            top = max(pot)
            if pot.count(top) > 1:
                ties += 1
                tied = self.majority(space)
                if majority == "over_half":  # tied symbols never hold more than half
                    if tell is not None:
                        tell("tie_not_over_half", space, changes, tied, None)
                    break
                if majority_tie == "chooser":
                    if tell is not None:
                        tell("tie_chooser", space, changes, tied, None)
                    return changes, ties, tied
                if majority_tie == "no_change":
                    if tell is not None:
                        tell("tie_no_change", space, changes, tied, None)
                    break
                if majority_tie == "empty":
                    if tell is not None:
                        tell("tie_empty", space, changes, tied, None)
                    self.empty(space, bag)
                    break
                symbol = tied[int(rng.integers(len(tied)))]
                if tell is not None:
                    tell("tie_drawn", space, changes, tied, symbol)
            elif majority == "over_half" and 2 * top <= revealed:
                if tell is not None:
                    tell("not_over_half", space, changes, None, pot.index(top))
                break
            else:
                symbol = pot.index(top)
                if tell is not None:
                    tell("change", space, changes, None, symbol)
            self.change(space, symbol, bag)
            changes += 1
        return changes, ties, None

    def copy(self) -> Environment:
        env = Environment.__new__(Environment)
        env.current = list(self.current)
        env.current_count = list(self.current_count)
        env.potential = [list(p) for p in self.potential]
        env.known = [list(k) for k in self.known]
        env.laid = [[list(space) for space in laid] for laid in self.laid]
        return env

    def __repr__(self) -> str:
        spaces = ", ".join(
            f"{n}x{SYMBOLS[s]} [{sum(p)} face down]"
            for s, n, p in zip(self.current, self.current_count, self.potential, strict=True)
        )
        return f"Environment({spaces})"
