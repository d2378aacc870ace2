"""Task summaries: the `game` analysis's tables from per-task sums are the tables from the rows, to rounding.

The rows path is the reference (`Analysis.tables` of the concatenated rows); the summary path adds up each
task's `TaskSummary` and makes the tables from the `Totals`. Both are compared on many seeds and task sizes,
on one and two games (standard deviations and intervals NaN), through the sweep (precision targets,
variant comparisons, the result store) and for a core `game` analysis of more than two seats.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from tyrsim.core.engine.analysis import SummaryError, TaskSummary, Totals
from tyrsim.core.run.scenario import load_scenario
from tyrsim.core.run.store import ResultStore
from tyrsim.core.run.sweep import run_scenario, run_task
from tyrsim.core.stats.comparisons import comparison_table
from tyrsim.core.studies.game import game_analysis
from tyrsim.games import get_game

ZOO = get_game("zooloretto-duell")
RTOL = 1e-9  # the two paths sum in other orders; a sd from sums of squares differs in its last digits


def both_paths(analysis, rules, args, games: int, per_task: int, seed: int):
    """(rows, totals) of `games` games played in tasks of `per_task`, each task from its own stream."""
    rows, summaries = [], []
    for chunk, first in enumerate(range(0, games, per_task)):
        raw = analysis.run(rules, args, first, min(per_task, games - first), np.random.default_rng([seed, chunk]))
        rows.append(raw)
        summary = analysis.task_summary.summarize(raw, rules, args)
        analysis.task_summary.check(summary)
        summaries.append(summary)
    return pd.concat(rows, ignore_index=True), analysis.task_summary.add_up(summaries)


def assert_same_tables(analysis, rules, args, raw, totals):
    from_rows, from_totals = analysis.tables(raw, rules, args), analysis.tables(totals, rules, args)
    assert list(from_rows) == list(from_totals)
    for name, table in from_rows.items():
        pd.testing.assert_frame_equal(from_totals[name], table, check_exact=False, rtol=RTOL, atol=1e-12,
                                      obj=name)
    for name, metric in analysis.metrics.items():
        # a metric's key column may be of another text dtype where no game has a leader; its values are compared
        pd.testing.assert_frame_equal(metric.estimate(totals, rules, args), metric.estimate(raw, rules, args),
                                      check_exact=False, rtol=RTOL, atol=1e-12, check_dtype=False, obj=name)
    return from_rows


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("name", ["game", "zoo-ev"])
def test_zooloretto_tables_from_summaries_are_the_tables_from_rows(name, seed):
    analysis = ZOO.analyses[name]
    policies = [("heuristic", "greedy"), ("heuristic", "heuristic"), ("random", "greedy")][seed % 3]
    games, per_task = [(300, 100), (257, 64), (120, 7), (40, 40)][seed % 4]
    args = analysis.check_args({"policies": policies, "games": games, "engine": "compiled"})
    rules = ZOO.rules()
    raw, totals = both_paths(analysis, rules, args, games, per_task, seed)
    tables = assert_same_tables(analysis, rules, args, raw, totals)
    assert (tables["by_seat"]["games"] == games).all()


@pytest.mark.parametrize("games, per_task", [(1, 1), (2, 1), (2, 2), (3, 1)])
def test_one_and_two_games_give_the_same_nans(games, per_task):
    analysis = ZOO.analyses["game"]
    args = analysis.check_args({"policies": ("heuristic", "greedy"), "games": games, "engine": "compiled"})
    rules = ZOO.rules()
    raw, totals = both_paths(analysis, rules, args, games, per_task, 5)
    tables = assert_same_tables(analysis, rules, args, raw, totals)
    if games == 1:  # one game a seat: no sd, no t interval, on both paths alike
        assert tables["by_seat"]["sd_score"].isna().all()
        assert tables["game_length"]["ci_low"].isna().all()


def test_the_object_engine_and_the_rules_changed_give_the_same_tables_too():
    analysis = ZOO.analyses["zoo-ev"]
    args = analysis.check_args({"policies": ("heuristic", "greedy"), "games": 30, "engine": "object"})
    rules = ZOO.rules.from_overrides({"majority_points": 3})
    raw, totals = both_paths(analysis, rules, args, 30, 12, 3)
    assert_same_tables(analysis, rules, args, raw, totals)


def test_the_core_game_analysis_of_four_seats_with_shared_wins():
    tyros = get_game("tyros")
    analysis = game_analysis(("greedy", "random", "greedy", "random"), default_games=10).build(tyros)
    assert analysis.summarises()  # the core tables alone have their summary form
    args = analysis.check_args({"policies": ("greedy", "random", "greedy", "random"), "games": 24})
    raw, totals = both_paths(analysis, tyros.rules(), args, 24, 8, 11)
    tables = assert_same_tables(analysis, tyros.rules(), args, raw, totals)
    assert len(tables["by_seat"]) == 4


def test_other_games_keep_rows_until_their_extra_tables_have_a_summary_form():
    for name in ("tyranno-ex", "tyros", "tiny-epic-dinosaurs"):
        assert not get_game(name).analyses["game"].summarises(), name
    assert ZOO.analyses["game"].summarises() and ZOO.analyses["zoo-ev"].summarises()
    # a metric without a summary form keeps the rows as well
    from dataclasses import replace

    from tyrsim.core.engine.analysis import Metric

    analysis = ZOO.analyses["game"]
    metric = Metric("proportion", ("policy",), lambda raw, rules, args: raw, "rows only")
    assert not replace(analysis, metrics={**analysis.metrics, "rows_only": metric}).summarises()


def test_a_summary_not_as_declared_is_refused_naming_what_is_wrong():
    summary = ZOO.analyses["game"].task_summary
    raw = ZOO.analyses["game"].run(ZOO.rules(), ZOO.analyses["game"].check_args({"engine": "compiled"}), 0, 4,
                                   np.random.default_rng(1))
    parts = summary.summarize(raw, None, {})
    summary.check(parts)
    with pytest.raises(SummaryError, match="parts"):
        summary.check({k: v for k, v in parts.items() if k != "zoo.rounds"})
    with pytest.raises(SummaryError, match="key columns"):
        summary.check({**parts, "zoo.rounds": parts["zoo.rounds"].drop(columns="rounds")})
    with pytest.raises(SummaryError, match="'games' is a sum"):
        summary.check({**parts, "zoo.rounds": parts["zoo.rounds"].astype({"games": str})})
    with pytest.raises(ValueError, match="both task summaries"):
        summary + TaskSummary({"zoo.rounds": ("rounds",)}, lambda raw, rules, args: {})


SCENARIO = """
game = "zooloretto-duell"
analysis = "game"
seed = 9
[args]
policies = ["greedy", "random"]
games = 20100
[sweep.rules]
majority_points = [2, 3]
[compare]
baseline = { majority_points = 2 }
metrics = ["win_rate", "mean_score", "seat_win_rate", "marker_leader_win_rate"]
"""


def test_a_sweep_of_summaries_gives_the_rows_tables_comparisons_and_store_entries(tmp_path):
    scenario = load_scenario("zoo.toml", text=SCENARIO, games=get_game)
    rows = run_scenario(scenario, progress=False)
    store = tmp_path / "store"
    summed = run_scenario(scenario, progress=False, summaries=True, store_folder=store)
    assert [r.task_results for r in rows] == ["rows", "rows"]
    assert [r.task_results for r in summed] == ["summaries", "summaries"]
    for a, b in zip(rows, summed, strict=True):
        assert isinstance(b.raw, Totals) and a.trials == b.trials == 20100
        # what the main process holds: a few hundred summed rows, not 40,200 rows of games
        assert sum(len(part) for part in b.raw.parts.values()) < 1000
        tables = assert_same_tables(scenario.analysis, a.point.rules, a.point.args, a.raw, b.raw)
        # two seats' shares (0, 1/2, 1) sum exactly: the same covariance, so the same bias correction, bit for bit
        balance = scenario.analysis.tables(b.raw, b.point.rules, b.point.args)["balance"]
        assert balance["value"].tolist()[:3] == tables["balance"]["value"].tolist()[:3]
    pd.testing.assert_frame_equal(comparison_table(scenario, summed), comparison_table(scenario, rows),
                                  check_exact=False, rtol=1e-7)
    # stored summaries are read back, bit for bit, and make the same tables
    entries = sorted(store.iterdir())
    assert len(entries) == 2 * 2  # 2 points x 2 tasks (20,000 compiled games and 100)
    again = run_scenario(scenario, progress=False, summaries=True, store_folder=store)
    assert [r.stored for r in again] == [2, 2]
    for a, b in zip(summed, again, strict=True):
        for name, part in a.raw.parts.items():
            pd.testing.assert_frame_equal(b.raw[name], part, check_exact=True)


def test_a_stored_summary_missing_a_part_is_computed_again(tmp_path):
    scenario = load_scenario("zoo.toml", text=SCENARIO.replace("20100", "30"), games=get_game)
    store = tmp_path / "store"
    first = run_scenario(scenario, progress=False, summaries=True, store_folder=store)
    entry = sorted(store.iterdir())[0]
    key = entry.stem
    parts = ResultStore(store).get(key)
    assert isinstance(parts, dict) and set(parts) == set(scenario.analysis.task_summary.keys)
    ResultStore(store).put(key, {k: v for k, v in parts.items() if k != "zoo.margins"})  # well-formed, not as declared
    again = run_scenario(scenario, progress=False, summaries=True, store_folder=store)
    assert sum(r.stored for r in again) == len(list(store.iterdir())) - 1
    for a, b in zip(first, again, strict=True):
        for name, part in a.raw.parts.items():
            pd.testing.assert_frame_equal(b.raw[name], part, check_exact=True)
    # the rows of the same tasks are other entries: a rows run reads none of the summaries
    rows = run_scenario(scenario, progress=False, store_folder=store)
    assert [r.stored for r in rows] == [0, 0]


def test_a_precision_target_doubles_the_same_chunks_on_summaries():
    text = SCENARIO.replace("games = 20100", 'engine = "object"') + """
[precision]
half_width = 0.04
max_trials = 400
"""
    scenario = load_scenario("zoo.toml", text=text, games=get_game)
    rows = run_scenario(scenario, progress=False)
    summed = run_scenario(scenario, progress=False, summaries=True)
    assert [r.trials for r in rows] == [r.trials for r in summed]
    assert any(r.trials > 200 for r in rows)  # the target asked for more than one chunk of 200 games
    for a, b in zip(rows, summed, strict=True):
        assert a.met == b.met and b.half_width == pytest.approx(a.half_width, rel=RTOL)


def test_a_summarising_task_hands_back_its_summary_not_its_rows():
    args = ZOO.analyses["game"].check_args({"engine": "compiled", "games": 10})
    point, chunk, result = run_task(ZOO, "game", ZOO.rules(), args, 1, 0, 0, 0, 10, summarise=True)
    assert (point, chunk) == (0, 0) and isinstance(result, dict)
    assert set(result) == set(ZOO.analyses["game"].task_summary.keys)
    _, _, rows = run_task(ZOO, "game", ZOO.rules(), args, 1, 0, 0, 0, 10)
    assert isinstance(rows, pd.DataFrame) and len(rows) == 20


def test_the_manifest_says_what_the_tasks_handed_back(tmp_path):
    import json

    from click.testing import CliRunner

    from tyrsim.cli import main

    result = CliRunner().invoke(main, ["simulate", "zooloretto-duell", "--games", "6", "--policy", "random",
                                       "--policy", "random", "--out", str(tmp_path / "o")])
    assert result.exit_code == 0, result.output
    [point] = json.loads((tmp_path / "o" / "manifest.json").read_text())["points"]
    assert point["task_results"] == "rows"  # --out writes games.csv, so the rows are kept
