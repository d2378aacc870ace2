"""The `engine` argument of the game / zoo-ev analyses and `tyrsim simulate --engine`."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from tyrsim.cli import main
from tyrsim.core.analysis import ArgumentError
from tyrsim.core.designer import point_metrics
from tyrsim.core.runner import GAMES_PER_CHUNK
from tyrsim.core.scenario import scenario_from_data
from tyrsim.core.sweep import run_scenario
from tyrsim.games import get_game
from tyrsim.games.zooloretto_duell import SPEC
from tyrsim.games.zooloretto_duell.analysis import (
    BATCH_GAMES_PER_TASK,
    BATCH_MIN_GAMES,
    BATCH_MIN_GAMES_LOOKING_AHEAD,
    engine_for,
    play_games,
)
from tyrsim.games.zooloretto_duell.batch import BatchRuleError, tables
from tyrsim.games.zooloretto_duell.rules import Rules

ANALYSES = SPEC.analyses  # the package's table holds the studies before the spec builds them


@pytest.mark.parametrize("name", ["game", "zoo-ev"])
def test_the_engine_argument_is_checked(name):
    analysis = ANALYSES[name]
    assert analysis.check_args({})["engine"] == "auto"
    with pytest.raises(ArgumentError, match="'mcts' has no batch form"):
        analysis.check_args({"policies": ["heuristic", "mcts"], "engine": "batch"})
    with pytest.raises(ArgumentError, match="expected one of 'auto', 'batch', 'object'"):
        analysis.check_args({"engine": "fast"})
    assert analysis.check_args({"policies": ["heuristic", "mcts"], "engine": "object"})["engine"] == "object"


def test_auto_plays_the_batch_engine_where_it_can_and_pays():
    args = ANALYSES["zoo-ev"].check_args({"policies": ["heuristic", "greedy"]})
    assert engine_for(Rules(), args, BATCH_MIN_GAMES_LOOKING_AHEAD) == "batch"
    assert engine_for(Rules(), args, BATCH_MIN_GAMES_LOOKING_AHEAD - 1) == "object"  # too few games for it to pay
    randoms = ANALYSES["zoo-ev"].check_args({"policies": ["random", "random"]})
    assert engine_for(Rules(), randoms, BATCH_MIN_GAMES_LOOKING_AHEAD) == "object"
    assert engine_for(Rules(), randoms, BATCH_MIN_GAMES) == "batch"
    assert engine_for(Rules(), {**args, "engine": "batch"}, 10) == "batch"
    assert engine_for(Rules(), {**args, "engine": "object"}, 10**6) == "object"
    search = ANALYSES["zoo-ev"].check_args({"policies": ["heuristic", "ismcts"]})
    assert engine_for(Rules(), search, 10**6) == "object"
    costly = Rules(marker_points=(2000, 1, 1, 1, 1, 1, 1))  # beyond the batch engine's integers
    assert engine_for(costly, args, 10**6) == "object"
    with pytest.raises(BatchRuleError, match="rule 'marker_points'"):
        ANALYSES["zoo-ev"].run(costly, {**args, "engine": "batch"}, 0, 10, np.random.default_rng(0))
    # a task holds as many games as suit the engine that plays it
    per_task = ANALYSES["zoo-ev"].trials_per_task
    assert per_task(Rules(), args) == BATCH_GAMES_PER_TASK
    assert per_task(Rules(), {**args, "engine": "object"}) == per_task(Rules(), search) == GAMES_PER_CHUNK * 4
    assert per_task(costly, args) == GAMES_PER_CHUNK * 4


def test_a_markers_file_the_batch_engine_cannot_hold_is_named(tmp_path):
    markers = tmp_path / "markers.toml"
    markers.write_text("markers = [{points = 5000}, {points = 3}, {points = 3}, {points = 2}, {final_round = true},"
                       " {points = 2}, {points = 1}, {points = 1}]\n")
    with pytest.raises(BatchRuleError, match="rule 'markers_file': .* not 5,000"):
        tables(Rules(markers_file=str(markers)))


def test_both_engines_give_the_same_table():
    analysis = ANALYSES["game"]
    args = analysis.check_args({"policies": ["greedy", "random"]})
    batch, objects = (analysis.run(Rules(), {**args, "engine": e}, 4, 30, np.random.default_rng(2))
                      for e in ("batch", "object"))
    assert list(batch.columns) == list(objects.columns)
    assert (batch.dtypes == objects.dtypes).all()
    assert batch[["game_id", "seat", "policy"]].equals(objects[["game_id", "seat", "policy"]])
    assert set(analysis.tables(batch, Rules(), args)) == set(analysis.tables(objects, Rules(), args))


def test_the_sensitivity_study_plays_each_rule_point_in_one_batch_task(monkeypatch):
    explore = ANALYSES["explore"]
    args = explore.check_args({"points": 4, "games": 300, "params": ["majority_points=0:3"]})
    assert explore.trials_per_task(Rules(), args) == 300  # a rule point's games, for the batch engine
    engines = []
    monkeypatch.setattr("tyrsim.games.zooloretto_duell.analysis.engine_for",
                        lambda rules, a, games: engines.append(engine_for(rules, a, games)) or engines[-1])
    raw = explore.run(Rules(), args, 300, 300, np.random.default_rng(3))  # the second rule point
    assert engines == ["batch"] and set(raw["point"]) == {1} and raw["game_id"].nunique() == 300
    # too few games for the batch engine to pay: the runner plays them, with the object engine
    assert play_games(Rules(), ["heuristic", "greedy"], 0, 20, np.random.default_rng(4)) is None
    few = explore.run(Rules(), {**args, "games": 20}, 20, 20, np.random.default_rng(4))
    assert engines[1:] == ["object", "object"]
    assert list(few.columns) == list(raw.columns) and (few.dtypes == raw.dtypes).all()  # the same table either way
    measured = point_metrics(raw)  # what the study measures at a rule point played by the batch engine
    assert all(np.isfinite(measured[m][0]) for m in ("mean_margin", "first_seat_win_rate", "mean_rounds"))


def test_same_seed_same_tables_whatever_the_jobs():
    data = {"name": "engine", "game": "zooloretto-duell", "analysis": "zoo-ev", "seed": 5,
            "args": {"policies": ["random", "random"], "games": 3 * GAMES_PER_CHUNK * 4, "engine": "batch"}}
    scenario = scenario_from_data(data, "test", games=get_game)
    raws = [run_scenario(scenario, n_jobs=jobs, progress=False)[0].raw for jobs in (1, 2)]
    pd.testing.assert_frame_equal(raws[0], raws[1])
    assert raws[0]["game_id"].nunique() == 3 * GAMES_PER_CHUNK * 4


def invoke(*args):
    return CliRunner().invoke(main, ["simulate", *map(str, args)])


@pytest.mark.parametrize(
    "args, words",
    [
        (["tyros", "--engine", "batch"], "Tyros has no batch engine"),
        (["zooloretto-duell", "--engine", "batch", "--policy", "mcts", "--policy", "heuristic"],
         "--engine: 'batch' plays only the random, greedy and heuristic policies; 'mcts' has no batch form"),
        (["zooloretto-duell", "--engine", "fast"], "'fast' is not one of 'auto', 'batch', 'object'"),
        (["zooloretto-duell", "--engine", "batch", "--rule", "marker_points=2000,1,1,1,1,1,1"],
         "rule 'marker_points': the batch engine plays scoring markers of up to 1,000 points"),
    ],
)
def test_simulate_engine_bad_input_exits_2(args, words):
    result = invoke(*args, "--games", 10, "--jobs", 1)
    assert result.exit_code == 2, result.output
    assert words in " ".join(result.output.split()) and "Traceback" not in result.output


def test_simulate_with_the_batch_engine(tmp_path):
    result = invoke("zooloretto-duell", "--games", 40, "--engine", "batch", "--policy", "greedy", "--policy", "random",
                    "--jobs", 1, "--out", tmp_path / "s")
    assert result.exit_code == 0, result.output
    assert "points_by_source" in result.output
    games = pd.read_csv(tmp_path / "s" / "games.csv")
    assert len(games) == 80 and set(games["policy"]) == {"greedy", "random"}
