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


@dataclass(frozen=True, slots=True, eq=False)
class Connect:
    """Action A, second step: connect the drawn card to a truck with a free place. Equal to another of the
    same kind of card and truck."""

    card: Card
    truck: int

    def __eq__(self, other: object) -> bool:
        return type(other) is Connect and other.truck == self.truck and other.card.kind == self.card.kind

    def __hash__(self) -> int:
        return hash((self.truck, self.card.kind))

    def __repr__(self) -> str:
        return f"connect {self.card} to truck {self.truck + 1}"


@dataclass(frozen=True, slots=True, eq=False)
class DiscardDrawn:
    """Expert variant: pay to put the drawn card on the discard pile instead. Equal to another of the same
    kind of card."""

    card: Card

    def __eq__(self, other: object) -> bool:
        return type(other) is DiscardDrawn and other.card.kind == self.card.kind

    def __hash__(self) -> int:
        return hash(self.card.kind)

    def __repr__(self) -> str:
        return f"pay to discard {self.card}"


@dataclass(frozen=True, slots=True, eq=False)
class TakeTruck:
    """Action B: take a truck with at least one card, quit the round, place its cards in this order. Orders
    that differ only in interchangeable cards are one action: two compare equal when their kinds do."""

    truck: int
    cards: tuple[Card, ...]

    def __eq__(self, other: object) -> bool:
        return type(other) is TakeTruck and other.truck == self.truck and kinds(other.cards) == kinds(self.cards)

    def __hash__(self) -> int:
        return hash((self.truck, kinds(self.cards)))

    def __repr__(self) -> str:
        return f"take truck {self.truck + 1} ({', '.join(map(repr, self.cards))}) and quit"


@dataclass(frozen=True, slots=True, eq=False)
class Steal:
    """Action C I: pay to steal an animal from the opponent's zoo. Equal to another of the same kind of card."""

    card: Card

    def __eq__(self, other: object) -> bool:
        return type(other) is Steal and other.card.kind == self.card.kind

    def __hash__(self) -> int:
        return hash(self.card.kind)

    def __repr__(self) -> str:
        return f"pay to steal {self.card}"


@dataclass(frozen=True, slots=True)
class DisposeMinus:
    """Action C II: pay to return all minus points."""

    def __repr__(self) -> str:
        return "pay to dispose of all minus points"


@dataclass(frozen=True, slots=True, eq=False)
class Donate:
    """Square symbol: take this card from the discard pile into your zoo. Equal to another of the same kind of card."""

    card: Card

    def __eq__(self, other: object) -> bool:
        return type(other) is Donate and other.card.kind == self.card.kind

    def __hash__(self) -> int:
        return hash(self.card.kind)

    def __repr__(self) -> str:
        return f"take {self.card} from the discard pile"


@dataclass(frozen=True, slots=True)
class QuitEmptyHanded:
    """Ruling: with the draw pile empty and every truck in the middle empty, a player leaves the round
    without a truck."""

    def __repr__(self) -> str:
        return "quit the round without a truck (nothing left to draw)"


def kinds(cards: tuple[Card, ...]) -> tuple:
    """The cards' kinds in order: what tells actions apart (cards of one kind are interchangeable in play)."""
    return tuple(c.kind for c in cards)


Action = Draw | Connect | DiscardDrawn | TakeTruck | Steal | DisposeMinus | Donate | QuitEmptyHanded
DRAW, DISPOSE, QUIT_EMPTY = Draw(), DisposeMinus(), QuitEmptyHanded()
