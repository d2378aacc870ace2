"""Tyranno Ex animal cards: the 4 symbols, the cards' symbols, and the deck file.

The rulebook does not print which symbols each card shows; the bundled
data/deck.toml holds a balanced assumption (see its header), and a user may
name their own deck file in the `deck_file` rule. Symbols are small integers
(0-3, in SYMBOLS order) on the hot path; a card's `mask` has bit s set when it
shows symbol s.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tyrsim.core.engine.datafile import DataFileError, data_file_cache, load_data

SYMBOLS = ("sun", "water", "leaf", "bone")  # red, blue, green, white chips
SYMBOLS_PER_CARD = 3
BUNDLED_DECK = "deck.toml"


@dataclass(frozen=True)
class Card:
    """One animal card: its name and its 3 printed symbols (a symbol may repeat)."""

    name: str
    symbols: tuple[int, ...]
    homo_sapiens: bool = False  # enters the board with a strength die
    mask: int = field(init=False, compare=False)  # bit s is set when the card shows symbol s
    distinct: int = field(init=False, compare=False)  # how many different symbols the card shows (1 to 3)

    def __post_init__(self) -> None:
        mask = 0
        for s in self.symbols:
            mask |= 1 << s
        object.__setattr__(self, "mask", mask)
        object.__setattr__(self, "distinct", len(set(self.symbols)))

    def __repr__(self) -> str:
        return f"{self.name}({'/'.join(SYMBOLS[s] for s in self.symbols)})"

    def describe(self) -> str:
        """The card for a play log: "Frog (sun/water/leaf)"."""
        return f"{self.name} ({'/'.join(SYMBOLS[s] for s in self.symbols)})"


def _card(entry: object, index: int, source: str) -> Card:
    where = f"{source}: card[{index}]"
    if not isinstance(entry, dict):
        raise DataFileError(f"{where} must be a table with keys name, symbols and optionally homo_sapiens")
    unknown = set(entry) - {"name", "symbols", "homo_sapiens"}
    if unknown:
        raise DataFileError(f"{where}: unknown key {sorted(unknown)[0]!r}; allowed keys: name, symbols, homo_sapiens")
    name = entry.get("name")
    if not isinstance(name, str) or not name.strip():
        raise DataFileError(f"{where}.name must be a non-empty string, got {name!r}")
    symbols = entry.get("symbols")
    if (
        not isinstance(symbols, list)
        or len(symbols) != SYMBOLS_PER_CARD
        or any(s not in SYMBOLS for s in symbols)
    ):
        raise DataFileError(
            f"{where}.symbols ({name}) must be a list of {SYMBOLS_PER_CARD} symbols, each one of "
            f"{', '.join(SYMBOLS)}; got {symbols!r}"
        )
    homo = entry.get("homo_sapiens", False)
    if not isinstance(homo, bool):
        raise DataFileError(f"{where}.homo_sapiens ({name}) must be true or false, got {homo!r}")
    return Card(name.strip(), tuple(SYMBOLS.index(s) for s in symbols), homo)


def parse_deck(data: dict, source: str) -> tuple[Card, ...]:
    """The cards of a parsed deck file, validated; `source` names the file in errors."""
    entries = data.get("card")
    unknown = set(data) - {"card"}
    if unknown:
        raise DataFileError(f"{source}: unknown key {sorted(unknown)[0]!r}; a deck file holds only [[card]] tables")
    if not isinstance(entries, list):
        raise DataFileError(f"{source}: key 'card' must hold [[card]] tables")
    cards = tuple(_card(entry, i, source) for i, entry in enumerate(entries))
    if len(cards) < 8:
        raise DataFileError(f"{source}: key 'card' must hold at least 8 [[card]] tables (4 piles, 2 cards each)")
    seen = set()
    for i, card in enumerate(cards):
        if card.name in seen:
            raise DataFileError(f"{source}: card[{i}].name {card.name!r} appears twice; card names must be unique")
        seen.add(card.name)
    return cards


@data_file_cache(maxsize=16)
def load_deck(deck_file: str = "") -> tuple[Card, ...]:
    """The cards of `deck_file` (a TOML path), or of the bundled deck when it is empty."""
    source, data = load_data(deck_file, "tyrsim.games.tyranno_ex", BUNDLED_DECK)
    return parse_deck(data, source)


def symbol_totals(cards: tuple[Card, ...]) -> list[int]:
    """How often each symbol is printed over the cards."""
    totals = [0] * len(SYMBOLS)
    for card in cards:
        for s in card.symbols:
            totals[s] += 1
    return totals
