"""The deck data: the bundled balanced deck and validation of a user's deck file."""

from __future__ import annotations

import numpy as np
import pytest

from tyrsim.core.engine.datafile import DataFileError
from tyrsim.core.engine.rules import RuleError
from tyrsim.games.tyranno_ex.cards import load_deck, symbol_totals
from tyrsim.games.tyranno_ex.game import make_game
from tyrsim.games.tyranno_ex.rules import Rules


def test_bundled_deck_is_balanced():
    deck = load_deck()
    assert len(deck) == 28
    assert symbol_totals(deck) == [21, 21, 21, 21]  # like the 21 chips of each symbol
    assert sorted(c.distinct for c in deck).count(3) == 16
    assert [c.name for c in deck if c.homo_sapiens] == ["Homo sapiens"]


def test_alternative_bundled_deck_shows_three_different_symbols_on_every_card():
    deck = load_deck("bundled:deck_distinct.toml")
    assert len(deck) == 28 and symbol_totals(deck) == [21, 21, 21, 21]
    assert all(c.distinct == 3 for c in deck)
    assert sorted({c.mask for c in deck}) == [7, 11, 13, 14] and all(
        sum(c.mask == m for c in deck) == 7 for m in (7, 11, 13, 14)
    )  # 7 cards of each combination of three symbols
    assert [c.name for c in deck if c.homo_sapiens] == ["Homo sapiens"]
    assert sorted(c.name for c in deck) == sorted(c.name for c in load_deck())
    assert Rules.rulings()["deck_file"] == ("bundled:deck_distinct.toml",)
    state = make_game(Rules(deck_file="bundled:deck_distinct.toml"), 4).new_state(np.random.default_rng(0))
    assert all(c.distinct == 3 for p in state.piles for c in p)


def write_deck(tmp_path, cards: list[str]) -> str:
    path = tmp_path / "deck.toml"
    path.write_text("\n".join(cards), encoding="utf-8")
    return str(path)


def card(name: str, symbols: str) -> str:
    return f'[[card]]\nname = "{name}"\nsymbols = {symbols}\n'


def test_user_deck_is_used(tmp_path):
    path = write_deck(tmp_path, [card(f"A{i}", '["sun", "sun", "sun"]') for i in range(8)])
    state = make_game(Rules(deck_file=path), 4).new_state(np.random.default_rng(0))
    assert sum(len(p) for p in state.piles) == 8 and all(c.symbols == (0, 0, 0) for p in state.piles for c in p)


@pytest.mark.parametrize(
    ("cards", "message"),
    [
        ([card(f"A{i}", '["sun", "sun", "fire"]') for i in range(8)], r"card\[0\]\.symbols .*one of sun, water"),
        ([card(f"A{i}", '["sun", "sun"]') for i in range(8)], r"card\[0\]\.symbols .*3 symbols"),
        ([card("A", '["sun", "sun", "sun"]')] * 8, r"card\[1\]\.name 'A' appears twice"),
        ([card(f"A{i}", '["sun", "sun", "sun"]') for i in range(3)], r"at least 8"),
        (["cards = 3"], r"unknown key 'cards'"),
        (["[[card]]\nname = 'x'\nsymbols = ['sun','sun','sun']\ncolour = 1"], r"card\[0\]: unknown key 'colour'"),
        (["[[card"], r"not valid TOML"),
    ],
)
def test_bad_deck_files_name_file_key_and_allowed_values(tmp_path, cards, message):
    path = write_deck(tmp_path, cards)
    with pytest.raises(DataFileError, match=message) as info:
        make_game(Rules(deck_file=path), 4)
    assert str(path) in str(info.value)


def test_missing_deck_file_is_a_bad_rule_value(tmp_path):
    with pytest.raises(DataFileError, match="cannot read"):
        load_deck(str(tmp_path / "nope.toml"))
    with pytest.raises(RuleError, match="rule 'deck_file': .*nope.toml: cannot read"):
        Rules.from_overrides({"deck_file": str(tmp_path / "nope.toml")})


def test_rule_checks():
    with pytest.raises(RuleError, match="homo_sapiens_die"):
        Rules(homo_sapiens_die=7)
    with pytest.raises(RuleError, match="special_spaces"):
        Rules.from_overrides({"special_spaces": []})
    assert Rules.from_overrides({"special_spaces": "13,10"}).special_spaces == (13, 10)
