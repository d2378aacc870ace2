"""The data files: bundled assumptions, a user's own files, and clear errors."""

from __future__ import annotations

import pytest

from tyrsim.core.engine.rules import RuleError
from tyrsim.games.zooloretto_duell.cards import (
    HEART,
    LIGHTNING,
    SPECIES,
    SQUARE,
    STAND,
    DataFileError,
    load_markers,
    load_stands,
    load_symbols,
    make_cards,
)
from tyrsim.games.zooloretto_duell.game import ZooGame
from tyrsim.games.zooloretto_duell.rules import Rules


def symbol_counts(cards) -> dict[str, tuple[int, int, int]]:
    """Per species: how many of its animal cards show (lightning, heart, square)."""
    animals = [c for c in cards if c.species >= 0 and not c.offspring]
    return {name: tuple(sum(c.species == s and c.symbol == sym for c in animals) for sym in (LIGHTNING, HEART, SQUARE))
            for s, name in enumerate(SPECIES)}


def test_bundled_components():
    cards = make_cards(load_symbols(), load_stands())
    assert len(cards) == 61
    animals = [c for c in cards if c.species >= 0 and not c.offspring]
    assert len(animals) == 45 and len([c for c in cards if c.offspring]) == 3
    stands = [c for c in cards if c.species == STAND]
    assert sorted((c.colour, c.symbol) for c in stands) == [(c, s) for c in range(4) for s in range(3)]
    # a third card with one symbol in the three largest species, so the third-symbol rule and a wasted heart
    # can happen without a steal (hyena: 4 hearts, a pair for each player)
    assert symbol_counts(cards) == {"gorilla": (2, 0, 0), "bison": (2, 0, 0), "antelope": (2, 0, 2),
                                    "bear": (3, 2, 0), "tiger": (2, 2, 3), "hyena": (2, 4, 2)}  # fmt: skip
    assert [repr(m) for m in load_markers()] == ["4", "3 + coin", "3", "2 + coin", "final-round marker", "2",
                                                  "1 + coin", "1"]  # fmt: skip
    assert "".join(m.letter for m in load_markers()) == "ABBCDEFF"  # "A" to "F" on 8 markers


def test_bundled_alternatives():
    two_each = make_cards(load_symbols("bundled:symbols_two_each.toml"), load_stands())
    assert set(symbol_counts(two_each).values()) == {(2, 0, 0), (2, 0, 2), (2, 2, 0), (2, 2, 2)}
    by_colour = load_stands("bundled:stands_by_colour.toml")
    assert sorted(by_colour) == sorted([(0, 0)] * 3 + [(1, 1)] * 3 + [(2, 2)] * 3 + [(3, 0), (3, 1), (3, 2)])
    threes = load_markers("bundled:markers_threes.toml")
    assert [m.points for m in threes if not m.final_round] == [3, 3, 2, 2, 2, 1, 1]
    assert "".join(m.letter for m in threes) == "AABBCDEF"


def test_user_files(tmp_path):
    symbols = tmp_path / "my_symbols.toml"
    symbols.write_text("[gorilla]\nlightning = 1\n[bison]\n[antelope]\nsquare = 3\n[bear]\n[tiger]\n[hyena]\n")
    markers = tmp_path / "my_markers.toml"
    markers.write_text("markers = [" + "{points = 5}, " * 6 + "{final_round = true}, {points = 1, coin = true}]\n")
    game = ZooGame(Rules(symbols_file=str(symbols), markers_file=str(markers)))
    assert sum(c.symbol == SQUARE for c in game.cards if c.species == 2) == 3
    assert [m.points for m in game.markers] == [5] * 6 + [0, 1]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[gorilla]\nlightning = 6\n[bison]\n[antelope]\n[bear]\n[tiger]\n[hyena]\n",
         "key 'gorilla': 6 cards with a symbol, but the game has only 5 gorilla cards"),
        ("[gorilla]\nheart = 1\n[bison]\n[antelope]\n[bear]\n[tiger]\n[hyena]\n",
         "key 'gorilla.heart': the heart symbol appears only on bear, tiger, hyena"),
        ("[gorilla]\n[bison]\n[antelope]\n[bear]\n[tiger]\n", "key 'hyena': missing table [hyena]"),
        ("gorilla = 1\n[bison]\n[antelope]\n[bear]\n[tiger]\n[hyena]\n",
         "key 'gorilla': 1 is not allowed; expected a table like [gorilla]"),
        ("[gorilla]\nstar = 1\n[bison]\n[antelope]\n[bear]\n[tiger]\n[hyena]\n",
         "key 'gorilla.star': unknown symbol; expected one of lightning, heart, square"),
        ("[gorilla]\nlightning = -1\n[bison]\n[antelope]\n[bear]\n[tiger]\n[hyena]\n", "'gorilla.lightning'"),
        ("[lion]\n", "key 'lion': unknown species; expected one of gorilla, bison, antelope, bear, tiger, hyena"),
        ("[lion]\n[zebra]\n", "keys 'lion', 'zebra': unknown species"),
        ("[gorilla\n", "not valid TOML"),
    ],
)
def test_bad_symbols_file(tmp_path, text, message):
    path = tmp_path / "symbols.toml"
    path.write_text(text)
    with pytest.raises(DataFileError) as error:
        Rules(symbols_file=str(path))
    # the shared words of a data file's message: the rule, the file, then the key (tyrsim.core.engine.datafile.integer)
    assert str(error.value).startswith(f"rule 'symbols_file': {path}: ") and message in str(error.value)


@pytest.mark.parametrize(
    ("stands", "message"),
    [
        ('{colour = "red", symbol = "drink"}, ' * 12, "12 red stands"),
        ('{colour = "pink", symbol = "drink"}, ', "'stands[0].colour': 'pink'"),
        ('{colour = "red", symbol = "popcorn"}, ', "'stands[0].symbol'"),
        ('{colour = "red"}, ', "'stands[0]'"),
        ("".join(f'{{colour = "{c}", symbol = "drink"}}, ' for c in ("red", "green", "blue", "yellow") * 3),
         "three yellow stands must show three different symbols"),
    ],
)
def test_bad_stands_file(tmp_path, stands, message):
    path = tmp_path / "stands.toml"
    path.write_text(f"stands = [{stands}]\n")
    with pytest.raises(DataFileError) as error:
        Rules.from_overrides({"stands_file": str(path)})
    assert str(error.value).startswith(f"rule 'stands_file': {path}: ") and message in str(error.value)


def test_a_stands_file_sets_each_stands_symbol(tmp_path):
    path = tmp_path / "stands.toml"
    colours = ("red", "green", "blue")
    path.write_text("stands = [" + "".join(f'{{colour = "{c}", symbol = "pretzel"}}, ' for c in colours * 3)
                    + "".join(f'{{colour = "yellow", symbol = "{s}"}}, ' for s in ("ice cream", "pretzel", "drink"))
                    + "]\n")
    stands = [c for c in ZooGame(Rules(stands_file=str(path))).cards if c.species == STAND]
    assert sum(c.symbol == 1 for c in stands) == 10 and repr(stands[0]) == "red pretzel stand"


SEVEN = "{points = 1}, " * 6 + "{final_round = true}, {points = 1}"  # a valid marker list, without its "]"


@pytest.mark.parametrize(
    ("markers", "message"),
    [
        ("{points = 1}, " * 7 + "{points = 1}", "0 final-round markers"),
        ("{points = 1}, " * 6 + "{final_round = true}", "7 markers"),
        ("{points = 1}, " * 6 + "{final_round = true}, {points = 1, coin = 2}", "markers[7].coin"),
        ("{points = 1}, " * 6 + "{final_round = true}, {coin = true}", "needs 'points'"),
        ("{points = 1}, " * 6 + "{final_round = true}, {points = 1, bonus = 1}", "markers[7]"),
        ("{points = 1}, " * 6 + "{final_round = true}, {final_round = 2}",
         "key 'markers[7].final_round': 2 is not allowed; expected true or false"),
        (SEVEN + ']\nletters = ["A", "B"', "'letters'"),
        (SEVEN + ']\nletters = ["A", "B", "C", "D", "E", "F", "G", "a"', "8 capital letters"),
        (SEVEN + ']\nletters = ["B", "A", "C", "D", "E", "F", "F", "F"', "not in order"),
        (SEVEN + ']\nlabels = ["A"', "optionally 'letters'"),
    ],
)
def test_bad_markers_file(tmp_path, markers, message):
    path = tmp_path / "markers.toml"
    path.write_text(f"markers = [{markers}]\n")
    with pytest.raises(DataFileError) as error:
        Rules.from_overrides({"markers_file": str(path)})
    assert str(error.value).startswith(f"rule 'markers_file': {path}: ") and message in str(error.value)


def test_missing_file_is_a_rule_error():
    with pytest.raises(RuleError, match="no-such-file.toml"):
        Rules(markers_file="no-such-file.toml")


@pytest.mark.parametrize(
    ("override", "message"),
    [
        ({"truck_places": "1"}, "at least 2 trucks"),
        ({"truck_places": "1,9,2"}, "from 1 to 5"),
        ({"target_values": "3,4,5"}, "needs 6 values"),
        ({"final_round_card_depth": "99"}, "out of range"),
    ],
)
def test_bad_rules(override, message):
    with pytest.raises(RuleError, match=message):
        Rules.from_overrides(override)


def test_marker_points_rule_replaces_the_values():
    game = ZooGame(Rules.from_overrides({"marker_points": "2,2,2,2,2,2,2"}))
    assert [m.points for m in game.markers if not m.final_round] == [2] * 7
    assert [m.coin for m in game.markers] == [m.coin for m in load_markers()]  # coins and order kept
    with pytest.raises(RuleError, match="marker_points"):
        Rules(marker_points=(1, 2))
