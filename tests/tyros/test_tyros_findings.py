"""The sentences that open the Tyros report pages: what they say on hand-built tables (the leader, the
direction, "cannot be told apart" when intervals overlap, balanced or not), and that on a tiny real run every
one carries an interval and no "nan"."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

from tyrsim.games.tyros import SPEC
from tyrsim.games.tyros.findings import (
    EMPIRE_GLOSSARY,
    GAME_GLOSSARY,
    difference_sentence,
    empire_findings,
    empire_sentence,
    game_findings,
)
from tyrsim.games.tyros.rules import Rules

INTERVAL = re.compile(r"\d\S* \[-?[\d.,]+, -?[\d.,]+\]")
COLOURS = ("orange", "yellow", "green", "violet")


def sizes(*means: float) -> pd.DataFrame:
    return pd.DataFrame([{"empire": c, "mean_size": m, "ci_low": m - 0.1, "ci_high": m + 0.1, "games": 1000}
                         for c, m in zip(COLOURS, means, strict=True)])


def largest(*shares: float, half: float = 0.01) -> pd.DataFrame:
    rows = [{"empire": c, "position": "largest", "games": 1000, "share": s, "ci_low": s - half, "ci_high": s + half}
            for c, s in zip(COLOURS, shares, strict=True)]
    rows += [{**r, "position": "smallest"} for r in rows]
    return pd.DataFrame(rows)


def tyros_joins(violet: float) -> pd.DataFrame:
    rows = [("orange", 0.0), ("yellow", 0.0), ("green", 0.98 - violet), ("violet", violet), ("any empire", 0.98),
            ("no empire", 0.02)]
    return pd.DataFrame([{"tyros": t, "games": 1000, "share": s, "ci_low": max(0.0, s - 0.01),
                          "ci_high": min(1.0, s + 0.01)} for t, s in rows])


def length(rounds: float) -> pd.DataFrame:
    return pd.DataFrame([{"quantity": q, "mean": m, "ci_low": m - 0.01, "ci_high": m + 0.01, "games": 1000}
                         for q, m in (("rounds", rounds), ("tiles_left", 1.2), ("blocked", 0.4))])


def test_a_clear_leader_is_named_with_the_least_often_largest_against_a_balanced_quarter():
    said = empire_sentence("", sizes(8.2, 5.4, 5.5, 9.7), largest(0.32, 0.10, 0.11, 0.47))
    assert said == ("Mean final sizes: violet 9.70 [9.60, 9.80], orange 8.20 [8.10, 8.30], green 5.50 [5.40, 5.60] "
                    "and yellow 5.40 [5.30, 5.50] spaces; violet ends largest most often, in 47.0% [46.0, 48.0] of "
                    "games, yellow least often (10.0% [9.0, 11.0]), where a balanced set-up gives 25% each.")


def test_overlapping_leaders_cannot_be_told_apart():
    said = empire_sentence("", sizes(7.4, 7.0, 7.3, 6.7), largest(0.27, 0.26, 0.265, 0.205))
    assert "orange and green end largest most often and cannot be told apart (27.0% [26.0, 28.0] and " \
           "26.5% [25.5, 27.5] of games), violet least often (20.5% [19.5, 21.5])" in said


def test_shares_all_near_a_quarter_read_as_balanced():
    said = empire_sentence("", sizes(7, 7, 7, 7), largest(0.26, 0.25, 0.245, 0.245, half=0.02))
    assert "each ends largest about equally often, as a balanced set-up would (25% each): from violet's " \
           "24.5% [22.5, 26.5] to orange's 26.0% [24.0, 28.0] of games" in said


def stacked(setups: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """Per-point tables stacked as the report does, the swept value as a leading column."""
    return pd.concat([t.assign(setup=v)[["setup", *t.columns]] for v, t in setups.items()], ignore_index=True)


def test_a_sweep_gets_a_sentence_per_point_and_one_across_them():
    tables = {
        "empire_sizes": stacked({"first-game": sizes(8, 5, 5, 10), "variable": sizes(7, 7, 7, 7)}),
        "largest_smallest": stacked({"first-game": largest(0.3, 0.1, 0.1, 0.5), "variable": largest(*[0.25] * 4)}),
        "tyros_joins": stacked({"first-game": tyros_joins(0.7), "variable": tyros_joins(0.0)}),
        "game_length": stacked({"first-game": length(4.05), "variable": length(4.19)}),
    }
    said = empire_findings(tables, Rules(), {})
    assert [s.split(": ")[0] for s in said[:2]] == ["With setup = first-game", "With setup = variable"]
    assert "violet ends largest most often" in said[0] and "about equally often" in said[1]
    assert said[2] == ("Across the points, Tyros joins an empire in 98.0% [97.0, 99.0] to 98.0% [97.0, 99.0] of "
                       "games, and a game lasts 4.05 [4.04, 4.06] to 4.19 [4.18, 4.20] rounds.")


def test_one_point_names_the_empire_tyros_joins_most_often():
    tables = {"empire_sizes": sizes(8, 5, 5, 10), "largest_smallest": largest(0.3, 0.1, 0.1, 0.5),
              "tyros_joins": tyros_joins(0.7), "game_length": length(4.05)}
    assert empire_findings(tables, Rules(), {})[-1] == (
        "Tyros joins an empire in 98.0% [97.0, 99.0] of games, most often the violet one (70.0% [69.0, 71.0]); "
        "a game lasts 4.05 [4.04, 4.06] rounds.")


def points(policy: str, city: float, ship: float, bonus: float, half: float = 1.0) -> pd.DataFrame:
    total = city + ship + bonus
    return pd.DataFrame([{"policy": policy, "source": s, "mean_points": m, "ci_low": m - half, "ci_high": m + half,
                          "share_of_points": m / total, "share_ci_low": m / total - 0.02,
                          "share_ci_high": m / total + 0.02}
                         for s, m in (("city_points", city), ("ship_points", ship), ("bonus_points", bonus))])


def test_the_winning_policys_sources_largest_first_and_what_separates_the_policies():
    tables = {
        "by_policy": pd.DataFrame([{"policy": "planner", "win_rate": 0.5, "mean_score": 30.0, "score_low": 28.0,
                                    "score_high": 32.0},
                                   {"policy": "greedy", "win_rate": 0.1, "mean_score": 16.0, "score_low": 14.0,
                                    "score_high": 18.0}]),
        "points_by_source": pd.concat([points("greedy", 6, 8, 2), points("planner", 13, 9, 8)], ignore_index=True),
    }
    said = game_findings(tables, Rules(), {})
    assert said[0] == ("planner scores 30.0 [28.0, 32.0] points per game: 43.3% [41.3, 45.3] from cities, "
                       "30.0% [28.0, 32.0] from ships and 26.7% [24.7, 28.7] from bonuses.")
    assert said[1] == ("The policies differ most in points from cities: planner 13.0 [12.0, 14.0], greedy 6.0 "
                       "[5.0, 7.0]; in points from ships they cannot be told apart (planner 9.0 [8.0, 10.0], "
                       "greedy 8.0 [7.0, 9.0]).")
    assert difference_sentence(points("planner", 13, 9, 8)) is None  # one policy: nothing to compare
    alone = {"by_policy": tables["by_policy"].iloc[:1], "points_by_source": points("planner", 13, 9, 8)}
    assert game_findings(alone, Rules(), {}) == [
        "A player scores 30.0 [28.0, 32.0] points per game: 43.3% [41.3, 45.3] from cities, 30.0% [28.0, 32.0] "
        "from ships and 26.7% [24.7, 28.7] from bonuses."]


def test_real_runs_give_sentences_with_intervals_and_a_glossary_for_every_column():
    rules = Rules()
    for name, given, count, glossary in (
            ("empire-sizes", {"games": 2000}, 2000, EMPIRE_GLOSSARY),
            ("game", {"policies": ["greedy", "random", "planner", "random"], "games": 4}, 4, GAME_GLOSSARY)):
        analysis = SPEC.analyses[name]
        args = analysis.check_args(given)
        tables = analysis.tables(analysis.run(rules, args, 0, count, np.random.default_rng(3)), rules, args)
        said = analysis.findings(tables, rules, args)
        assert len(said) >= 2
        for sentence in said:
            assert INTERVAL.search(sentence), sentence
            assert "nan" not in sentence.lower() and "not computable" not in sentence
        own = set(tables) - {"by_policy", "by_seat", "balance", "counters"}
        shown = {c for t in own for c in tables[t].columns if not c.endswith(("_low", "_high"))}
        assert shown - {"policy"} <= set(glossary), name
        assert glossary.items() <= analysis.glossary.items()
