"""Zooloretto Duell components: the cards, the scoring markers, and their data files.

The rulebook prints the card counts (45 animals, 12 vending stands, 3 offspring,
the "final round" card) but not which animal cards carry which symbol, which
symbol each vending stand shows (only that the three yellow ones differ), nor
the scoring markers' values and letters. Those come from `data/symbols.toml`,
`data/stands.toml` and `data/markers.toml` (stated assumptions; other bundled
files hold the alternatives the rulings play) or from a user's own files,
validated here with errors that name the file, the key and what is allowed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tyrsim.core.engine.datafile import DataFileError, data_file_cache, integer, load_data

# enclosures in the order of their target values 3 to 8
SPECIES = ("gorilla", "bison", "antelope", "bear", "tiger", "hyena")
SPECIES_CARDS = (5, 6, 7, 8, 9, 10)
STAND = -1  # `Card.species` of a vending stand
FINAL_ROUND = -2  # `Card.species` of the "final round" card

# symbols on animal cards
NO_SYMBOL, LIGHTNING, HEART, SQUARE = 0, 1, 2, 3
ANIMAL_SYMBOLS = ("", "lightning", "heart", "square")
# species that may carry a symbol (the rulebook's "The Symbols")
SYMBOL_SPECIES = {
    "lightning": set(SPECIES),
    "heart": {"bear", "tiger", "hyena"},
    "square": {"antelope", "tiger", "hyena"},
}
OFFSPRING_SPECIES = (3, 4, 5)  # bear, tiger, hyena

# vending stands: 3 of each colour; which symbol each shows comes from a data file
COLOURS = ("red", "green", "blue", "yellow")
STAND_SYMBOLS = ("ice cream", "pretzel", "drink")
STANDS_PER_COLOUR = 3


@dataclass(frozen=True, slots=True, eq=False)
class Card:
    """One card; cards compare by identity (every physical card is distinct)."""

    id: int
    species: int  # 0..5 (SPECIES), STAND or FINAL_ROUND
    symbol: int  # animals: NO_SYMBOL/LIGHTNING/HEART/SQUARE; stands: index in STAND_SYMBOLS
    colour: int = -1  # stands: index in COLOURS
    offspring: bool = False
    # cards with the same kind are interchangeable in play (an offspring plays like a plain animal)
    kind: tuple = ()

    def __repr__(self) -> str:
        if self.species == FINAL_ROUND:
            return "final-round card"
        if self.species == STAND:
            return f"{COLOURS[self.colour]} {STAND_SYMBOLS[self.symbol]} stand"
        name = SPECIES[self.species]
        if self.offspring:
            return f"{name} offspring"
        return f"{name}({ANIMAL_SYMBOLS[self.symbol]})" if self.symbol else name


@dataclass(frozen=True, slots=True)
class Marker:
    """A scoring marker: plus points and maybe a coin, or the "final round" marker; `letter` is on its back."""

    points: int = 0
    coin: bool = False
    final_round: bool = False
    letter: str = ""

    def __repr__(self) -> str:
        if self.final_round:
            return "final-round marker"
        return f"{self.points}{' + coin' if self.coin else ''}"


ANIMALS = 24  # animal kinds: species * 4 + symbol
FINAL_CARD = ANIMALS + len(COLOURS) * len(STAND_SYMBOLS)  # the kind of the final-round card (36)


def card_kind(card: Card) -> int:
    """A card's kind as a number (`Card.kind` counted out): an animal `species * 4 + symbol` (an offspring plays
    like a plain animal), a vending stand `ANIMALS + colour * 3 + symbol`, the final-round card FINAL_CARD. The
    compiled engine holds cards as these numbers, and determinizations deal the unseen cards in this order."""
    if card.species == FINAL_ROUND:
        return FINAL_CARD
    if card.species == STAND:
        return ANIMALS + card.colour * len(STAND_SYMBOLS) + card.symbol
    return card.species * 4 + (0 if card.offspring else card.symbol)


def _card(id_: int, species: int, symbol: int, colour: int = -1, offspring: bool = False) -> Card:
    kind = (species, 0 if offspring else symbol, colour)
    return Card(id_, species, symbol, colour, offspring, kind)


def make_cards(
    symbols: tuple[tuple[int, int, int], ...], stands: tuple[tuple[int, int], ...]
) -> tuple[Card, ...]:
    """All 61 cards: 45 animals (symbols per species as (lightning, heart, square)),
    12 vending stands (each as (colour, symbol)), 3 offspring and the "final round" card."""
    faces: list[tuple] = []  # (species, symbol, colour, offspring) of each card
    for s, count in enumerate(SPECIES_CARDS):
        marks = [LIGHTNING] * symbols[s][0] + [HEART] * symbols[s][1] + [SQUARE] * symbols[s][2]
        faces += [(s, mark, -1, False) for mark in marks + [NO_SYMBOL] * (count - len(marks))]
    faces += [(STAND, symbol, colour, False) for colour, symbol in stands]
    faces += [(s, NO_SYMBOL, -1, True) for s in OFFSPRING_SPECIES]
    faces.append((FINAL_ROUND, NO_SYMBOL, -1, False))
    cards = [_card(i, *face) for i, face in enumerate(faces)]
    return tuple(cards)


def _read(path: str, default: str) -> tuple[str, dict[str, Any]]:
    """(name to quote in errors, parsed TOML) of a user's file, or of the bundled default."""
    return load_data(path, "tyrsim.games.zooloretto_duell", default)


@data_file_cache(maxsize=32)
def load_symbols(path: str = "") -> tuple[tuple[int, int, int], ...]:
    """Per species (in SPECIES order): how many cards show (lightning, heart, square)."""
    name, data = _read(path, "symbols.toml")
    unknown = set(data) - set(SPECIES)
    if unknown:
        keys = ", ".join(map(repr, sorted(unknown)))
        raise DataFileError(f"{name}: key{'s' if len(unknown) > 1 else ''} {keys}: unknown species; "
                            f"expected one of {', '.join(SPECIES)}")
    out = []
    for species, cards in zip(SPECIES, SPECIES_CARDS, strict=True):
        if species not in data:
            raise DataFileError(f"{name}: key {species!r}: missing table [{species}]; every species needs one")
        table = data[species]
        if not isinstance(table, dict):
            raise DataFileError(f"{name}: key {species!r}: {table!r} is not allowed; expected a table like [{species}]")
        for symbol in table:
            if symbol not in SYMBOL_SPECIES:
                raise DataFileError(
                    f"{name}: key '{species}.{symbol}': unknown symbol; "
                    f"expected one of {', '.join(SYMBOL_SPECIES)}"
                )
            if species not in SYMBOL_SPECIES[symbol] and table[symbol]:
                allowed = ", ".join(s for s in SPECIES if s in SYMBOL_SPECIES[symbol])
                raise DataFileError(
                    f"{name}: key '{species}.{symbol}': the {symbol} symbol appears only on {allowed}"
                )
        counts = tuple(integer(name, f"{species}.{sym}", table.get(sym, 0)) for sym in SYMBOL_SPECIES)
        if sum(counts) > cards:
            raise DataFileError(
                f"{name}: key {species!r}: {sum(counts)} cards with a symbol, "
                f"but the game has only {cards} {species} cards"
            )
        out.append(counts)
    return tuple(out)


@data_file_cache(maxsize=32)
def load_stands(path: str = "") -> tuple[tuple[int, int], ...]:
    """The 12 vending stands as (colour, symbol) indices into COLOURS and STAND_SYMBOLS."""
    name, data = _read(path, "stands.toml")
    stands = data.get("stands")
    if set(data) != {"stands"} or not isinstance(stands, list):
        raise DataFileError(f"{name}: expected exactly one key 'stands', a list of 12 stand tables")
    out = []
    for i, item in enumerate(stands):
        key = f"stands[{i}]"
        if not isinstance(item, dict) or set(item) != {"colour", "symbol"}:
            raise DataFileError(
                f"{name}: key {key!r}: {item!r} is not allowed; expected {{colour = ..., symbol = ...}}"
            )
        for field, allowed in (("colour", COLOURS), ("symbol", STAND_SYMBOLS)):
            if item[field] not in allowed:
                raise DataFileError(
                    f"{name}: key '{key}.{field}': {item[field]!r} is not allowed; "
                    f"expected one of {', '.join(allowed)}"
                )
        out.append((COLOURS.index(item["colour"]), STAND_SYMBOLS.index(item["symbol"])))
    for c, colour in enumerate(COLOURS):
        count = sum(colour_ == c for colour_, _ in out)
        if count != STANDS_PER_COLOUR:
            raise DataFileError(
                f"{name}: key 'stands': {count} {colour} stands; the game has {STANDS_PER_COLOUR} of each colour"
            )
    # printed in the rulebook: "There are three yellow vending stands, each with a different symbol."
    yellow = COLOURS.index("yellow")
    if len({symbol for colour, symbol in out if colour == yellow}) != STANDS_PER_COLOUR:
        raise DataFileError(
            f"{name}: key 'stands': the three yellow stands must show three different symbols (the rulebook)"
        )
    return tuple(out)


@data_file_cache(maxsize=32)
def load_markers(path: str = "") -> tuple[Marker, ...]:
    """The 8 scoring markers sorted by the letters on their backs, from the top of the stockpile to the bottom."""
    name, data = _read(path, "markers.toml")
    markers = data.get("markers")
    if not isinstance(markers, list) or set(data) - {"markers", "letters"}:
        raise DataFileError(
            f"{name}: expected the key 'markers', a list of 8 marker tables, "
            "and optionally 'letters', the 8 letters on their backs"
        )
    if len(markers) != 8:
        raise DataFileError(f"{name}: key 'markers': {len(markers)} markers; the game has 8")
    letters = data.get("letters", [])
    if "letters" in data and (
        not isinstance(letters, list)
        or len(letters) != 8
        or not all(isinstance(x, str) and len(x) == 1 and "A" <= x <= "Z" for x in letters)
    ):
        raise DataFileError(
            f"{name}: key 'letters': {letters!r} is not allowed; expected 8 capital letters, one per marker"
        )
    if letters != sorted(letters):
        raise DataFileError(
            f"{name}: key 'letters': {letters!r} is not in order; the stockpile is sorted by letter, "
            "'A' on top, so list the markers from the top"
        )
    out = []
    for i, item in enumerate(markers):
        key = f"markers[{i}]"
        if not isinstance(item, dict) or set(item) - {"points", "coin", "final_round"}:
            raise DataFileError(
                f"{name}: key {key!r}: {item!r} is not allowed; expected "
                "{points = N, coin = true/false} or {final_round = true}"
            )
        if item.get("final_round", False) is True:
            if set(item) != {"final_round"}:
                raise DataFileError(f"{name}: key {key!r}: the final-round marker has no points or coin")
            out.append(Marker(final_round=True, letter=letters[i] if letters else ""))
            continue
        if "final_round" in item and item["final_round"] is not False:
            raise DataFileError(f"{name}: key '{key}.final_round': {item['final_round']!r} is not allowed; "
                                "expected true or false")
        coin = item.get("coin", False)
        if not isinstance(coin, bool):
            raise DataFileError(f"{name}: key '{key}.coin': {coin!r} is not allowed; expected true or false")
        if "points" not in item:
            raise DataFileError(f"{name}: key {key!r}: a scoring marker needs 'points'")
        out.append(Marker(integer(name, f"{key}.points", item["points"]), coin, letter=letters[i] if letters else ""))
    finals = sum(m.final_round for m in out)
    if finals != 1:
        raise DataFileError(f"{name}: key 'markers': {finals} final-round markers; the game has exactly 1")
    return tuple(out)
