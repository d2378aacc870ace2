"""Zooloretto Duell's actions: A (draw, then connect the card to a truck), B (take a truck), C (the money
actions), the square's donation, and the expert variant's discard.

Each is a small frozen record that prints as a play-by-play line; an action that names a card names one
physical card, and the engine offers one action per kind of card (interchangeable cards do the same).
"""

from __future__ import annotations

from dataclasses import dataclass

from tyrsim.games.zooloretto_duell.cards import Card


@dataclass(frozen=True, slots=True)
class Draw:
    """Action A, first step: pick the top card of the draw pile."""

    def __repr__(self) -> str:
        return "draw the top card"


@dataclass(frozen=True, slots=True)
class Connect:
    """Action A, second step: connect the drawn card to a truck with a free place."""

    card: Card
    truck: int

    def __repr__(self) -> str:
        return f"connect {self.card} to truck {self.truck + 1}"


@dataclass(frozen=True, slots=True)
class DiscardDrawn:
    """Expert variant: pay to put the drawn card on the discard pile instead."""

    card: Card

    def __repr__(self) -> str:
        return f"pay to discard {self.card}"


@dataclass(frozen=True, slots=True)
class TakeTruck:
    """Action B: take a truck with at least one card, quit the round, place its cards in this order."""

    truck: int
    cards: tuple[Card, ...]

    def __repr__(self) -> str:
        return f"take truck {self.truck + 1} ({', '.join(map(repr, self.cards))}) and quit"


@dataclass(frozen=True, slots=True)
class Steal:
    """Action C I: pay to steal an animal from the opponent's zoo."""

    card: Card

    def __repr__(self) -> str:
        return f"pay to steal {self.card}"


@dataclass(frozen=True, slots=True)
class DisposeMinus:
    """Action C II: pay to return all minus points."""

    def __repr__(self) -> str:
        return "pay to dispose of all minus points"


@dataclass(frozen=True, slots=True)
class Donate:
    """Square symbol: take this card from the discard pile into your zoo."""

    card: Card

    def __repr__(self) -> str:
        return f"take {self.card} from the discard pile"


@dataclass(frozen=True, slots=True)
class QuitEmptyHanded:
    """Ruling: with the draw pile empty and every truck in the middle empty, a player leaves the round
    without a truck."""

    def __repr__(self) -> str:
        return "quit the round without a truck (nothing left to draw)"


Action = Draw | Connect | DiscardDrawn | TakeTruck | Steal | DisposeMinus | Donate | QuitEmptyHanded
DRAW, DISPOSE, QUIT_EMPTY = Draw(), DisposeMinus(), QuitEmptyHanded()
