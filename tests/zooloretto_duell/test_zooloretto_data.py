"""The data files: bundled assumptions, a user's own files, and clear errors."""

from __future__ import annotations

import pytest

from tyrsim.core.rules import RuleError
from tyrsim.games.zooloretto_duell.cards import (
    HEART,
    LIGHTNING,
    SQUARE,
    STAND,
    DataFileError,
    load_markers,
    load_symbols,
    make_cards,
)
from tyrsim.games.zooloretto_duell.game import ZooGame
from tyrsim.games.zooloretto_duell.rules import Rules


def test_bundled_components():
    cards = make_cards(load_symbols())
    assert len(cards) == 61
    animals = [c for c in cards if c.species >= 0 and not c.offspring]
    assert len(animals) == 45 and len([c for c in cards if c.offspring]) == 3
    stands = [c for c in cards if c.species == STAND]
    assert sorted((c.colour, c.symbol) for c in stands) == [(c, s) for c in range(4) for s in range(3)]
    per_symbol = {sym: sum(c.symbol == sym for c in animals) for sym in (LIGHTNING, HEART, SQUARE)}
    assert per_symbol == {LIGHTNING: 12, HEART: 6, SQUARE: 6}
    assert [repr(m) for m in load_markers()] == ["4", "3 + coin", "3", "2 + coin", "final-round marker", "2",
                                                  "1 + coin", "1"]  # fmt: skip


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
        ("[gorilla]\nlightning = 6\n[bison]\n[antelope]\n[bear]\n[tiger]\n[hyena]\n", "only 5 gorilla cards"),
        ("[gorilla]\nheart = 1\n[bison]\n[antelope]\n[bear]\n[tiger]\n[hyena]\n", "appears only on bear, tiger, hyena"),
        ("[gorilla]\n[bison]\n[antelope]\n[bear]\n[tiger]\n", "missing table [hyena]"),
        ("[gorilla]\nstar = 1\n[bison]\n[antelope]\n[bear]\n[tiger]\n[hyena]\n", "unknown symbol"),
        ("[gorilla]\nlightning = -1\n[bison]\n[antelope]\n[bear]\n[tiger]\n[hyena]\n", "'gorilla.lightning'"),
        ("[lion]\n", "unknown species"),
        ("[gorilla\n", "not valid TOML"),
    ],
)
def test_bad_symbols_file(tmp_path, text, message):
    path = tmp_path / "symbols.toml"
    path.write_text(text)
    with pytest.raises(DataFileError, match="symbols.toml") as error:
        Rules(symbols_file=str(path))
    assert message in str(error.value)


@pytest.mark.parametrize(
    ("markers", "message"),
    [
        ("{points = 1}, " * 7 + "{points = 1}", "0 final-round markers"),
        ("{points = 1}, " * 6 + "{final_round = true}", "7 markers"),
        ("{points = 1}, " * 6 + "{final_round = true}, {points = 1, coin = 2}", "markers[7].coin"),
        ("{points = 1}, " * 6 + "{final_round = true}, {coin = true}", "needs 'points'"),
        ("{points = 1}, " * 6 + "{final_round = true}, {points = 1, bonus = 1}", "markers[7]"),
    ],
)
def test_bad_markers_file(tmp_path, markers, message):
    path = tmp_path / "markers.toml"
    path.write_text(f"markers = [{markers}]\n")
    with pytest.raises(DataFileError) as error:
        Rules.from_overrides({"markers_file": str(path)})
    assert message in str(error.value) and "markers.toml" in str(error.value)


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
