"""The skill ladder and the skill trace, on the toy dice game (rolling is always right there)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from tyrsim.core.engine.analysis import ArgumentError
from tyrsim.core.report.findings import ladder_findings
from tyrsim.core.run.scenario import scenario_from_data
from tyrsim.core.run.sweep import run_scenario
from tyrsim.core.studies.ladder import ladder_pairings
from tyrsim.core.studies.trace import seats_ahead
from tyrsim.games import get_game


def dice_tables(analysis: str, **args):
    data = {"name": "s", "game": "dice", "analysis": analysis, "seed": 5, "args": args}
    scenario = scenario_from_data(data, "test", games=get_game)
    result = run_scenario(scenario, n_jobs=1)[0]
    return scenario.analysis.tables(result.raw, scenario.rules, scenario.points[0].args), result.raw


def test_ladder_pairs_each_rung_with_the_rungs_just_above():
    assert ladder_pairings(["a", "b", "c", "d"], 2, 2) == [("a", "b"), ("a", "c"), ("b", "c"), ("b", "d"),
                                                           ("c", "d")]
    assert ladder_pairings(["a", "b", "c"], 1, 4) == [("a", "b", "a", "b"), ("b", "c", "b", "c")]


def test_the_costliest_seatings_are_played_first_under_their_own_labels(dice_game):
    """Task 0 plays the last seating (the strongest rungs, the largest multiple), still labelled as it."""
    from toy_game.rules import Rules

    from tyrsim.core.studies.blocks import costliest_first

    seatings = [("random", "cautious"), ("cautious", "roller")]
    first_task = costliest_first(dice_game, Rules(), seatings, 4, 0, 4, np.random.default_rng(0), "pairing")
    assert set(first_task["pairing"]) == {1} and set(first_task["policy"]) == {"cautious", "roller"}
    whole = costliest_first(dice_game, Rules(), seatings, 4, 0, 8, np.random.default_rng(0), "pairing")
    for block, seats in enumerate(seatings):
        assert set(whole.loc[whole["pairing"] == block, "policy"]) == set(seats)
        assert sorted(whole.loc[whole["pairing"] == block, "game_id"].unique()) == [0, 1, 2, 3]


def test_ladder_rates_the_always_roller_above_the_cautious(dice_game):
    tables, raw = dice_tables("ladder", games=200)
    ladder = tables["ladder"].set_index("policy")
    assert list(tables["ladder"]["policy"]) == ["random", "cautious", "ismcts", "roller"]  # rung order
    # cautious rolls 30% of its turns, random 50%, the search and the roller always: intervals apart
    assert ladder.loc["roller", "ci_low"] > ladder.loc["cautious", "ci_high"]
    assert ladder.loc["random", "rating"] > ladder.loc["cautious", "rating"]
    # ratings are measured from the middle rung
    assert ladder.loc["ismcts", "rating"] == 0 and ladder.loc["ismcts", "ci_high"] == 0
    assert "measured from ismcts, rated 0" in ladder_findings(tables, "ismcts")[0]
    # random never meets the roller (three rungs apart with span 2)
    pairs = tables["ladder_pairwise"]
    assert pairs[(pairs["policy"] == "random") & (pairs["opponent"] == "roller")].empty
    assert raw["pairing"].nunique() == 5


def test_trace_shows_the_gain_of_a_bigger_budget(dice_game):
    # with one iteration the search plays the first action it tries, at random; from two on it always rolls
    tables, raw = dice_tables("trace", policy="ismcts:iterations=1", multiples=[2, 4], games=300)
    trace = tables["skill_trace"].set_index("multiple")
    assert list(trace["budget"]) == [2, 4]
    assert trace.loc[2, "significant"] and trace.loc[4, "significant"]
    assert trace.loc[2, "seats_beaten"] > 0.6
    # 4x plays as 2x does: the reading does not claim a growing gain
    reading = tables["skill_trace_reading"]["reading"].iloc[0]
    assert "pays from 2x on; the smallest and largest multiples' intervals overlap" in reading
    assert "keeps paying" not in reading


def test_trace_of_a_budget_that_already_suffices_is_flat(dice_game):
    tables, _ = dice_tables("trace", multiples=[2], games=200)
    row = tables["skill_trace"].iloc[0]
    assert row["ci_low"] < 0.5 < row["ci_high"]
    assert "did not pay" in tables["skill_trace_reading"]["reading"].iloc[0]


def test_seats_ahead_counts_ties_half():
    raw = pd.DataFrame({"game_id": [0, 0, 0, 1, 1, 1], "policy": ["x", "y", "y", "x", "y", "y"],
                        "rank": [1, 2, 1, 3, 1, 2]})
    assert seats_ahead(raw, "x")["ahead"].tolist() == [0.75, 0.0]


@pytest.mark.parametrize("analysis, args, message", [
    ("trace", {"budget": "exploration"}, "whole-number budget"),
    ("trace", {"budget": "depth"}, "not a parameter"),
    ("trace", {"multiples": [1, 2]}, "from 2 to 1024"),
    ("trace", {"multiples": [2, 2]}, "different multiples"),
    ("trace", {"policy": "nobody"}, "unknown policy"),
    ("ladder", {"policies": ["random", "random"]}, "two different"),
    ("ladder", {"policies": ["random", "roller"], "span": 2}, "only 2 rungs"),
])
def test_bad_arguments(dice_game, analysis, args, message):
    data = {"name": "s", "game": "dice", "analysis": analysis, "seed": 5, "args": args}
    with pytest.raises((ArgumentError, ValueError), match=message):
        scenario_from_data(data, "test", games=get_game)


def test_a_trace_of_few_games_says_it_cannot_tell(dice_game):
    tables, _ = dice_tables("trace", multiples=[2], games=6)
    reading = tables["skill_trace_reading"]["reading"].iloc[0]
    assert "cannot tell whether more search pays" in reading and "shallow" not in reading


def test_the_answer_of_a_full_trace_speaks_of_every_multiple_and_its_glossary_of_its_own_test(dice_game, tmp_path):
    from tyrsim.core.report.pages import build_report, write_report

    data = {"name": "s", "game": "dice", "analysis": "trace", "seed": 5,
            "args": {"policy": "ismcts:iterations=1", "multiples": [2, 4, 8, 16], "games": 20}}
    scenario = scenario_from_data(data, "test", games=get_game)
    folder = write_report(build_report(scenario, run_scenario(scenario, n_jobs=1), 0.0), tmp_path / "trace")
    text = (folder / "index.md").read_text()
    answer = text.split("## Answer")[1].split("##")[0]
    assert [f"At {m}x" in answer for m in (2, 4, 8, 16)] == [True] * 4
    glossary = text.split("## Glossary")[1]
    assert "lies wholly above 50%" in glossary and "Holm" not in glossary


def test_a_trace_of_many_multiples_gives_a_sentence_to_the_largest_four():
    from tyrsim.core.report.findings import MAX_MULTIPLES, trace_findings

    trace = pd.DataFrame([{"multiple": m, "budget": 10 * m, "games": 50, "seats_beaten": 0.6, "ci_low": 0.55,
                           "ci_high": 0.65, "win_rate": 0.6, "win_low": 0.5, "win_high": 0.7, "par": 0.5}
                          for m in (2, 4, 8, 16, 32, 64)])
    reading = pd.DataFrame([{"policy": "ismcts", "reading": "ismcts: the reading."}])
    sentences = trace_findings({"skill_trace": trace, "skill_trace_reading": reading}, "iterations")
    assert sentences[0] == "ismcts: the reading." and len(sentences) == 1 + MAX_MULTIPLES == 5
    assert [s.split(" (")[0] for s in sentences[1:]] == ["At 8x", "At 16x", "At 32x", "At 64x"]
