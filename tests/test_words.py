"""Numbers in words for report findings."""

import math

import pandas as pd

from tyrsim.core.report import words


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
    assert [words.a(w) for w in ("gorilla", "antelope", "Ice cream stand")] == [
        "a gorilla", "an antelope", "an Ice cream stand"]
    assert [words.listing(n) for n in ([], ["sun"], ["sun", "water"], ["sun", "water", "leaf"])] == [
        "nothing", "sun", "sun and water", "sun, water and leaf"]


def test_who_played_in_a_sentence():
    tuned = "greedy:weights=bundled:greedy_tuned.toml"
    assert words.players([tuned] * 4) == f"four {tuned} players"
    assert words.players(["heuristic", "greedy"]) == "heuristic against greedy"
    assert words.players(["greedy", "aggressive", "builder", "greedy"]) == "2 greedy, aggressive and builder"
    assert words.players(["ismcts"]) == "one ismcts player"
