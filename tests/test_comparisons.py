"""Variant comparisons never call a difference significant without a test behind it."""

import numpy as np
import pytest

from tyrsim.core.run.scenario import scenario_from_data
from tyrsim.core.run.sweep import run_scenario
from tyrsim.core.stats import intervals as stats
from tyrsim.core.stats.comparisons import comparison_table
from tyrsim.games import get_game


def compare(game: str, analysis: str, args: dict, sweep: dict, baseline: dict, metrics: list[str]):
    scenario = scenario_from_data({
        "game": game, "analysis": analysis, "seed": 3, "args": args, "sweep": {"rules": sweep},
        "compare": {"baseline": baseline, "metrics": metrics},
    }, "test", games=get_game)
    return comparison_table(scenario, run_scenario(scenario))


def test_exact_points_compare_exactly():
    from tyrsim.games.tyranno_ex import combat
    from tyrsim.games.tyranno_ex.rules import Rules

    args = {"attacker_strength": [2], "attacker_dice": [3], "defender_strength": [1], "defender_dice": [4],
            "method": "exact"}
    table = compare("tyranno-ex", "combat", args, {"tie_rule": ["reroll", "defender"]}, {"tie_rule": "reroll"},
                    ["p_attacker_wins", "p_clean_win"]).set_index("metric")
    wins = table.loc["p_attacker_wins"]
    exact = {rule: combat.odds_table(combat.matchups([2], [3], [1], [4], Rules(tie_rule=rule)), Rules(tie_rule=rule))
             for rule in ("reroll", "defender")}
    expected = exact["defender"]["p_attacker_wins"].iloc[0] - exact["reroll"]["p_attacker_wins"].iloc[0]
    assert wins["difference"] == pytest.approx(expected, abs=1e-12) and abs(expected) > 0.1
    assert wins["diff_low"] == wins["diff_high"] == wins["difference"]  # no sampling error
    assert np.isnan(wins["p_value"]) and not wins["significant"]
    assert wins["test"] == "exact (no sampling error)"
    # the odds table has no clean-win column: no exact value, and nothing claimed
    clean = table.loc["p_clean_win"]
    assert np.isnan(clean["difference"]) and np.isnan(clean["p_value"]) and not clean["significant"]
    assert clean["test"].startswith("none")


def test_one_game_of_a_mean_metric_has_no_test():
    # one game per point: each policy's mean score is one number with no spread
    # (before: Welch's p became 0 and the row read "significant" with a blank interval)
    table = compare("zooloretto-duell", "game", {"policies": ["heuristic", "greedy"], "games": 1},
                    {"majority_points": [1, 3]}, {"majority_points": 1}, ["mean_score"])
    assert len(table) == 2  # one row per policy: one seat, one game each
    assert (table["test"] == stats.TOO_FEW_TRIALS).all()
    assert table["p_value"].isna().all() and table["diff_low"].isna().all() and not table["significant"].any()
