"""Numbers in words for report findings."""

import dataclasses
import math
import re
from dataclasses import dataclass

import pandas as pd
import pytest

from tyrsim.core.engine.rules import RuleSet, rule
from tyrsim.core.report import rule_words, words


def test_share_with_interval():
    assert words.percent(0.58, 0.531, 0.627) == "58.0% [53.1, 62.7]"
    assert words.percent(0.5) == "50.0%"


def test_difference_in_points_is_unsigned_with_the_interval_turned_round():
    assert words.points(-0.041, -0.043, -0.039) == "4.1 points [3.9, 4.3]"
    assert words.points(0.02, -0.01, 0.05) == "2.0 points [-1.0, 5.0]"


def test_mean_decimals_follow_the_interval():
    assert words.number(12.4123, 12.1, 12.7) == "12.41 [12.10, 12.70]"
    assert words.number(1234.5, 1200.0, 1269.0) == "1,234 [1,200, 1,269]"
    assert words.number(-0.00001, digits=2) == "0.00"  # never "-0.00"


def test_p_values_and_what_cannot_be_computed():
    assert words.p_value(3e-12) == "3e-12"
    assert words.p_value(0.0312) == "0.031"
    for f in (words.percent, words.points, words.number, words.p_value):
        assert f(math.nan) == words.NOT_COMPUTABLE
    assert words.verdict(False, math.nan) == "no test possible"


def test_a_rows_share_reads_its_interval_columns():
    row = pd.Series({"share": 0.25, "ci_low": 0.2, "ci_high": 0.3, "survival": 0.9, "survival_low": 0.85})
    assert words.row_percent(row, "share") == "25.0% [20.0, 30.0]"
    assert words.row_percent(row, "survival", own=True) == "90.0%"  # no upper bound: no interval


def test_counts_articles_and_listings():
    assert [words.count(n, "coin") for n in (0, 1, 2)] == ["0 coins", "1 coin", "2 coins"]
    assert words.count(3, "die", "dice") == "3 dice" and words.count(1, "die", "dice") == "1 die"
    assert words.count(8000, "game") == "8,000 games"  # a count reads with thousands separators
    assert [words.a(w) for w in ("gorilla", "antelope", "Ice cream stand")] == [
        "a gorilla", "an antelope", "an Ice cream stand"]
    assert [words.listing(n) for n in ([], ["sun"], ["sun", "water"], ["sun", "water", "leaf"])] == [
        "nothing", "sun", "sun and water", "sun, water and leaf"]


def test_who_played_in_a_sentence():
    tuned = "greedy:weights=bundled:greedy_tuned.toml"
    assert words.players([tuned] * 4) == "four tuned greedy players"
    assert words.players(["heuristic", "greedy"]) == "heuristic against greedy"
    assert words.players(["greedy", "aggressive", "builder", "greedy"]) == "2 greedy, aggressive and builder"
    assert words.players(["ismcts"]) == "one ismcts player"


def test_a_bundled_tuned_policy_is_named_short_and_any_other_policy_text_as_given():
    tuned = "heuristic:weights=bundled:heuristic_tuned.toml"
    assert words.players([tuned, tuned]) == "two tuned heuristic players"
    assert words.policy_name("ismcts:iterations=400") == "ismcts:iterations=400"
    assert words.policy_name("greedy:weights=bundled:hunter_tuned.toml") == "greedy:weights=bundled:hunter_tuned.toml"
    assert words.policy_names(f"{tuned} wins 51.0% against greedy") == "tuned heuristic wins 51.0% against greedy"


@dataclass(frozen=True)
class ToyRules(RuleSet):
    """Rules declared as a game declares them, to be read back in words."""

    expert: bool = rule(False, "expert variant: pay a coin to discard a drawn card")
    ships_pass: bool = rule(True, "a ship may pass through spaces without a chip (only its end needs one): 'quote'")
    counts: bool = rule(True, "Tyros counts as one space of its empire's size")
    shifts: bool = rule(True, "once a pile is empty the board shifts twice per round")
    beside: bool = rule(True, "variable set-up: empires may start on both spaces next to Tyros")
    tie_rule: str = rule("reroll", "a round with equal hits: 'reroll' (doesn't count), or won by the 'attacker'",
                         choices=("reroll", "attacker"))
    die_gain: str = rule("completed", "a change earns a die for a card it 'completed', or 'any_change'",
                         choices=("completed", "any_change"))
    board: str = rule("", "board data file (TOML); empty: the bundled map", data_file=True)
    passes: int = rule(2, "expansion passes in each later round (not the first), with 3 players", low=1)
    breed_group: int = rule(2, "every this many dinosaurs of a kind in one enclosure produce one more", low=1)
    points: tuple = rule((12, 10), "city points by empire size, largest first")


def test_a_rule_reads_as_its_description_with_its_value_in_words():
    said = {(name, value): rule_words.rule(ToyRules, name, value) for name, value in [
        ("expert", True), ("expert", False), ("ships_pass", False), ("ships_pass", "True"), ("counts", False),
        ("shifts", False), ("beside", False), ("tie_rule", "attacker"), ("die_gain", "any_change"), ("board", ""),
        ("board", "bundled:board_alt.toml"), ("passes", 1), ("breed_group", 3), ("points", (6, 5))]}
    assert list(said.values()) == [
        "in the expert variant", "without the expert variant",
        "when a ship may not pass through spaces without a chip", "when a ship may pass through spaces without a chip",
        "when Tyros does not count as one space of its empire's size",
        "without the rule that once a pile is empty the board shifts twice per round",
        "in the variable set-up, when empires may not start on both spaces next to Tyros",
        "with 'attacker' for a round with equal hits", "with 'any change' for die gain", "with the bundled board",
        "with the board from board_alt.toml", "with expansion passes in each later round set to 1",
        "when every 3 dinosaurs of a kind in one enclosure produce one more",
        "with city points by empire size set to 6 and 5"]


@pytest.mark.parametrize("game", ["tyranno-ex", "tyros", "tiny-epic-dinosaurs", "zooloretto-duell"])
def test_every_rule_and_reading_of_every_game_reads_without_its_field_name(game):
    from tyrsim.games import get_game

    rules = get_game(game).rules
    for f in dataclasses.fields(rules):
        values = (True, False) if isinstance(f.default, bool) else (f.default, *rules.rulings().get(f.name, ()))
        for value in values:
            text = rule_words.rule(rules, f.name, value)
            assert (f"{f.name} =" not in text and f"{f.name}=" not in text and "(bundled)" not in text
                    and text.startswith(("in the ", "without ", "when ", "with "))), (f.name, value, text)
            assert not re.search(r"\b[a-z]+_[a-z_]+\b(?!\.toml)", text), (f.name, value, text)  # no field name


def test_a_figure_labels_a_rule_without_the_words_that_fit_it_into_a_sentence_and_wraps_it():
    labels = [rule_words.label(rule_words.rule(ToyRules, name, value)) for name, value in [
        ("expert", True), ("expert", False), ("ships_pass", False), ("board", ""), ("tie_rule", "attacker")]]
    assert labels == ["expert variant", "without the expert variant",
                      "a ship may not pass through spaces without a\nchip", "bundled board",
                      "'attacker' for a round with equal hits"]
    assert all(len(line) <= 20 for line in rule_words.label("when " + "a long rule " * 9, 20).split("\n"))

