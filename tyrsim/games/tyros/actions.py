"""Tyros actions: small frozen dataclasses that read like a play-by-play.

Dataclasses rather than named tuples, so actions of different kinds never compare equal.
"""

from __future__ import annotations

from dataclasses import dataclass

from tyrsim.games.tyros.components import COLOUR_NAMES, Cards, card_names


@dataclass(frozen=True, slots=True, repr=False)
class PlayTile:
    """Expand an empire: play the tile of `space` and extend the neighbouring `empire`."""

    space: int
    empire: int

    def __repr__(self) -> str:
        return f"play tile {self.space} for {COLOUR_NAMES[self.empire]}"


@dataclass(frozen=True, slots=True, repr=False)
class Blocked:
    """No tile can be played: reveal the hand, put `tile` under the pile, draw one."""

    tile: int

    def __repr__(self) -> str:
        return f"blocked: tile {self.tile} to the bottom of the pile"


@dataclass(frozen=True, slots=True, repr=False)
class MoveShip:
    """A. Move a ship between coasts (labels such as '22', '16w', 'tyros'); `toll` is the card kind the
    player gives a city's owner when the move ends in another player's city ("any one of his commerce
    cards", the player's choice), None where no toll is due or the hand is empty."""

    start: str
    end: str
    toll: int | None = None

    def __repr__(self) -> str:
        toll = "" if self.toll is None else f", {COLOUR_NAMES[self.toll]} card as toll"
        return f"move ship {self.start} -> {self.end}{toll}"


@dataclass(frozen=True, slots=True, repr=False)
class BuildCity:
    """B. Build a city in `space`."""

    space: int

    def __repr__(self) -> str:
        return f"build city in {self.space or 'Tyros'}"


@dataclass(frozen=True, slots=True, repr=False)
class BuildShip:
    """C. Build a ship in `space`; `extra` are the cards of the player's choice: beside the matching card,
    one per ship already in the space; in Tyros while it has no city, the whole payment ("any colour(s)")."""

    space: int
    extra: Cards = ()

    def __repr__(self) -> str:
        extra = f" (+{card_names(self.extra)})" if self.extra else ""
        return f"build ship in {self.space or 'Tyros'}{extra}"


@dataclass(frozen=True, slots=True, repr=False)
class BankSwap:
    """D. Discard up to three cards and draw as many from the draw pile."""

    give: Cards

    def __repr__(self) -> str:
        return f"swap {card_names(self.give)} with the draw pile"


@dataclass(frozen=True, slots=True, repr=False)
class BankBuy:
    """D. Discard three cards and take one card of choice from the discard pile."""

    give: Cards
    take: int

    def __repr__(self) -> str:
        article = "an" if COLOUR_NAMES[self.take][0] in "aeiou" else "a"
        return f"discard {card_names(self.give)} for {article} {COLOUR_NAMES[self.take]} card from the discard pile"


@dataclass(frozen=True, slots=True, repr=False)
class Offer:
    """E. Offer the other players `give` for `get`; each is asked in turn, and the player trades with one
    who accepts (`TradeWith` where several do)."""

    give: Cards
    get: Cards

    def __repr__(self) -> str:
        return f"offer {card_names(self.give)} for {card_names(self.get)}"


@dataclass(frozen=True, slots=True, repr=False)
class Accept:
    def __repr__(self) -> str:
        return "accept the offer"


@dataclass(frozen=True, slots=True, repr=False)
class Refuse:
    def __repr__(self) -> str:
        return "refuse the offer"


@dataclass(frozen=True, slots=True, repr=False)
class TradeWith:
    """E. Several players accepted the offer: trade with `partner` ("only one player may be traded with")."""

    partner: int

    def __repr__(self) -> str:
        return f"trade with P{self.partner}"


@dataclass(frozen=True, slots=True, repr=False)
class Pass:
    def __repr__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True, repr=False)
class Keep:
    """End of round: keep these cards, discard the rest."""

    cards: Cards

    def __repr__(self) -> str:
        return f"keep {card_names(self.cards)}"
