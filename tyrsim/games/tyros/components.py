"""Tyros components: the four empire colours, commerce cards and card hands.

Empire colours are numbered in the rulebook's tie order (orange, yellow, green,
violet); a commerce card is one of the four colours or WILD. A hand, draw pile
or discard pile is a list of five counts, one per kind of card.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations_with_replacement

ORANGE, YELLOW, GREEN, VIOLET, WILD = range(5)
EMPIRES = (ORANGE, YELLOW, GREEN, VIOLET)  # size ties are ranked in this order
COLOUR_NAMES = ("orange", "yellow", "green", "violet", "wild")
CARD_KINDS = 5

Cards = tuple[int, ...]  # a multiset of card kinds, sorted, e.g. (ORANGE, ORANGE, WILD)


def card_names(cards: Cards) -> str:
    return "+".join(COLOUR_NAMES[c] for c in cards) or "nothing"


def full_deck(per_colour: int, wild: int) -> list[int]:
    return [per_colour] * 4 + [wild]


@lru_cache(maxsize=65536)
def multisets(hand: tuple[int, ...], size: int) -> tuple[Cards, ...]:
    """Every distinct choice of `size` cards from `hand` (counts per kind)."""
    pool = [kind for kind in range(CARD_KINDS) if hand[kind]]
    out = []
    for combo in combinations_with_replacement(pool, size):
        if all(combo.count(kind) <= hand[kind] for kind in set(combo)):
            out.append(combo)
    return tuple(out)


def colour_payment(hand: list[int], colour: int, amount: int) -> Cards | None:
    """`amount` cards of `colour`, matching cards first and wilds for the rest; None if short.

    Ruling: a wild can stand for any colour, so keeping it is never worse than
    keeping a matching card; payments therefore spend matching cards first.
    """
    matching = min(hand[colour], amount)
    wild = amount - matching
    if wild > hand[WILD]:
        return None
    return (colour,) * matching + (WILD,) * wild
