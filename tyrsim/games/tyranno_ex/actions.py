"""The decisions a Tyranno Ex player makes, and the lists of them a position offers.

Actions are frozen records: actions of different kinds never compare equal, and each is
immutable, so each is built once and shared. The lists of actions a hand of chips allows
are cached as tuples (never changed, so one list serves every state that asks).
"""

from __future__ import annotations

import functools
import itertools
from dataclasses import dataclass, field

from tyrsim.games.tyranno_ex.board import spot_name
from tyrsim.games.tyranno_ex.cards import SYMBOLS, Card
from tyrsim.games.tyranno_ex.environment import NUM_SYMBOLS, SPACES


@dataclass(frozen=True, slots=True)
class PlaceCard:
    """Take the face-up card of a pile (`card`, named for the log) and place it in a column's row."""

    pile: int
    column: int
    row: int
    card: Card

    def __repr__(self) -> str:
        return f"PlaceCard({self.card.name} from pile {self.pile} -> column {self.column} row {self.row})"


@dataclass(frozen=True, slots=True)
class Trade:
    """Draw len(returned) chips from the bag, then return these old chips (symbols)."""

    returned: tuple[int, ...]

    def __repr__(self) -> str:
        return f"Trade({', '.join(SYMBOLS[s] for s in self.returned)})"


def _group_by_space(setting: SetChips | UseFive) -> None:
    spaces = tuple(sorted({space for _, space in setting.chips}))
    by_space = tuple((space, tuple(sorted(s for s, sp in setting.chips if sp == space))) for space in spaces)
    object.__setattr__(setting, "spaces", spaces)
    object.__setattr__(setting, "by_space", by_space)


@dataclass(frozen=True, slots=True)
class SetChips:
    """Lay chips face down on potential spaces: (symbol, space) pairs."""

    chips: tuple[tuple[int, int], ...]
    spaces: tuple[int, ...] = field(init=False, compare=False, repr=False)  # the spaces laid on, in order
    # (space, sorted symbols laid there) for each space laid on, in order
    by_space: tuple[tuple[int, tuple[int, ...]], ...] = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        _group_by_space(self)

    def __repr__(self) -> str:
        return f"SetChips({', '.join(f'{SYMBOLS[s]}->space {sp}' for s, sp in self.chips)})"


@dataclass(frozen=True, slots=True)
class UseFive:
    """Give up the "5" marker to lay extra chips: (symbol, space) pairs."""

    chips: tuple[tuple[int, int], ...]
    spaces: tuple[int, ...] = field(init=False, compare=False, repr=False)  # the spaces laid on, in order
    # (space, sorted symbols laid there) for each space laid on, in order
    by_space: tuple[tuple[int, tuple[int, ...]], ...] = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        _group_by_space(self)

    def __repr__(self) -> str:
        return f"UseFive({', '.join(f'{SYMBOLS[s]}->space {sp}' for s, sp in self.chips)})"


@dataclass(frozen=True, slots=True)
class KeepFive:
    """Keep the "5" marker for now."""

    def __repr__(self) -> str:
        return "KeepFive()"


@dataclass(frozen=True, slots=True)
class ChooseSymbol:
    """Pick the new current symbol of a space among the tied potential symbols."""

    space: int
    symbol: int

    def __repr__(self) -> str:
        return f"ChooseSymbol(space {self.space}: {SYMBOLS[self.symbol]})"


@dataclass(frozen=True, slots=True)
class Pass:
    """Do nothing this environment turn."""

    def __repr__(self) -> str:
        return "Pass()"


@dataclass(frozen=True, slots=True)
class Challenge:
    """Fight with own card on spot `attacker` against another player's card on spot `defender`."""

    attacker: int
    defender: int

    def __repr__(self) -> str:
        return f"Challenge({spot_name(self.attacker)} -> {spot_name(self.defender)})"


@dataclass(frozen=True, slots=True)
class NoFight:
    """Pick no fight this round."""

    def __repr__(self) -> str:
        return "NoFight()"


PASS, KEEP_FIVE, NO_FIGHT = Pass(), KeepFive(), NoFight()
place_card = functools.cache(PlaceCard)  # one shared record per (pile, column, row, card)


# --- the lists of actions a position offers (cached tuples, shared by every state that asks) ---


@functools.cache
def challenge_row(attacker: int, spots: int) -> tuple[Challenge, ...]:
    """The challenges of the card on spot `attacker` against each spot of a board of `spots` spots."""
    return tuple(Challenge(attacker, defender) for defender in range(spots))


@functools.lru_cache(maxsize=256)
def tie_choices(space: int, tied: tuple[int, ...]) -> tuple[ChooseSymbol, ...]:
    """The chooser's picks among the tied symbols of a space."""
    return tuple(ChooseSymbol(space, s) for s in tied)


@functools.lru_cache(maxsize=4096)
def chip_options(hand: tuple[int, ...], most: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Every way to lay 1 to `most` chips of the hand (chips per symbol) on the spaces."""
    pairs = [(s, sp) for s in range(NUM_SYMBOLS) for sp in range(SPACES)]
    out = []
    for k in range(1, most + 1):
        for combo in itertools.combinations_with_replacement(pairs, k):
            used = [0] * NUM_SYMBOLS
            for s, _ in combo:
                used[s] += 1
            if all(u <= h for u, h in zip(used, hand, strict=True)):
                out.append(combo)
    return tuple(out)


def _at_most(hand: tuple[int, ...], most: int) -> tuple[int, ...]:
    """The hand with counts above `most` cut to `most`: the same options, fewer cache keys."""
    return tuple(h if h < most else most for h in hand)


@functools.lru_cache(maxsize=4096)
def _set_chips_actions(hand: tuple[int, ...], most: int) -> tuple[SetChips, ...]:
    return tuple(SetChips(c) for c in chip_options(hand, most))


@functools.lru_cache(maxsize=4096)
def _use_five_actions(hand: tuple[int, ...], most: int, exact: bool) -> tuple[UseFive, ...]:
    # ruling `five_count`: "place 2 additional chips" lays exactly `most` chips ("exact"), or 1 to `most`
    return tuple(UseFive(c) for c in chip_options(hand, most) if not exact or len(c) == most)


def set_chips_actions(hand: tuple[int, ...], most: int) -> tuple[SetChips, ...]:
    """Every setting of 1 to `most` chips of the hand (chips per symbol)."""
    return _set_chips_actions(_at_most(hand, most), most)


def use_five_actions(hand: tuple[int, ...], most: int, exact: bool) -> tuple[UseFive, ...]:
    """Every use of the "5" marker with the hand: exactly `most` chips if `exact`, else 1 to `most`."""
    return _use_five_actions(_at_most(hand, most), most, exact)


@functools.lru_cache(maxsize=4096)
def trade_actions(hand: tuple[int, ...], most: int) -> tuple[Trade, ...]:
    """Every trade of 1 to `most` chips of the hand."""
    out = []
    for k in range(1, most + 1):
        for combo in itertools.combinations_with_replacement(range(NUM_SYMBOLS), k):
            if all(combo.count(s) <= hand[s] for s in set(combo)):
                out.append(Trade(combo))
    return tuple(out)


@functools.lru_cache(maxsize=8192)
def environment_actions(
    hand: tuple[int, ...], set_most: int, trade_most: int, five_most: int, five_exact: bool
) -> tuple:
    """An environment turn's actions: pass, trade up to `trade_most`, set up to `set_most` chips, and use
    the "5" marker with `five_most` chips (0: no trade / no marker this turn)."""
    return (
        PASS, *trade_actions(hand, trade_most), *set_chips_actions(hand, set_most),
        *use_five_actions(hand, five_most, five_exact),
    )  # fmt: skip
