"""The `engine` argument of the game / zoo-ev analyses and `tyrsim simulate --engine`: 'compiled', 'object', 'auto'."""

from __future__ import annotations

import ast
import dataclasses
import inspect

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner
from compiled_checks import recorded_chunks

from tyrsim.cli import main
from tyrsim.core.engine.analysis import ArgumentError
from tyrsim.core.engine.rules import RuleError, rule
from tyrsim.core.engine.runner import GAMES_PER_CHUNK, play
from tyrsim.core.run.scenario import scenario_from_data
from tyrsim.core.run.sweep import run_scenario
from tyrsim.core.studies.explore import point_metrics
from tyrsim.games import get_game, zooloretto_duell
from tyrsim.games.zooloretto_duell import SPEC, compiled, compiled_policies
from tyrsim.games.zooloretto_duell.analysis import COMPILED
from tyrsim.games.zooloretto_duell.compiled import MAX_POINTS
from tyrsim.games.zooloretto_duell.game import ZooGame
from tyrsim.games.zooloretto_duell.rules import Rules

ANALYSES = SPEC.analyses  # the package's table holds the studies before the spec builds them
COSTLY = Rules(marker_points=(MAX_POINTS + 1, 1, 1, 1, 1, 1, 1))  # beyond the compiled engine's integers


@pytest.mark.parametrize("name", ["game", "zoo-ev"])
def test_the_engine_argument_is_checked(name):
    analysis = ANALYSES[name]
    assert analysis.check_args({})["engine"] == "auto"
    with pytest.raises(ArgumentError, match="has no form of policy 'mcts'"):
        analysis.check_args({"policies": ["heuristic", "mcts"], "engine": "compiled"})
    with pytest.raises(ArgumentError, match="expected one of 'auto', 'compiled', 'object'"):
        analysis.check_args({"engine": "fast"})
    assert analysis.check_args({"policies": ["heuristic", "mcts"], "engine": "object"})["engine"] == "object"


def test_auto_plays_the_compiled_engine_wherever_it_can():
    args = ANALYSES["zoo-ev"].check_args({"policies": ["heuristic", "greedy"]})
    assert COMPILED.engine_for(Rules(), args) == "compiled"
    assert COMPILED.engine_for(Rules(), {**args, "engine": "object"}) == "object"
    search = ANALYSES["zoo-ev"].check_args({"policies": ["heuristic", "ismcts"]})
    assert COMPILED.engine_for(Rules(), search) == "object"
    assert COMPILED.engine_for(COSTLY, args) == "object"
    # asked by name, the compiled engine refuses the rules in the main process, before any task
    with pytest.raises(RuleError, match="--engine compiled: rule 'marker_points'"):
        ANALYSES["zoo-ev"].point_substitutions(COSTLY, {**args, "engine": "compiled"})
    # a task holds as many games as suit the engine that plays it
    per_task = ANALYSES["zoo-ev"].trials_per_task
    assert per_task(Rules(), args) == COMPILED.games_per_task
    assert per_task(Rules(), {**args, "engine": "object"}) == per_task(Rules(), search) == GAMES_PER_CHUNK * 4
    assert per_task(COSTLY, args) == GAMES_PER_CHUNK * 4


def test_a_markers_file_the_compiled_engine_cannot_hold_is_named(tmp_path):
    from tyrsim.games.zooloretto_duell.compiled import supported

    markers = tmp_path / "markers.toml"
    markers.write_text(f"markers = [{{points = {MAX_POINTS * 5}}}, {{points = 3}}, {{points = 3}}, {{points = 2}}, "
                       "{final_round = true}, {points = 2}, {points = 1}, {points = 1}]\n")
    assert "rule 'markers_file'" in supported(Rules(markers_file=str(markers)))


def test_both_engines_give_the_same_table():
    analysis = ANALYSES["game"]
    args = analysis.check_args({"policies": ["greedy", "random"]})
    compiled, objects = (analysis.run(Rules(), {**args, "engine": e}, 4, 30, np.random.default_rng(2))
                         for e in ("compiled", "object"))
    pd.testing.assert_frame_equal(compiled, objects)  # the same games, move for move
    assert set(analysis.tables(compiled, Rules(), args)) == set(analysis.tables(objects, Rules(), args))


def test_the_sensitivity_study_plays_each_rule_point_in_one_compiled_task(monkeypatch):
    explore = ANALYSES["explore"]
    args = explore.check_args({"points": 4, "games": 300, "params": ["majority_points=0:3"]})
    assert explore.trials_per_task(Rules(), args) == 300  # a rule point's games, for the compiled engine
    played = recorded_chunks(monkeypatch, compiled_policies)
    raw = explore.run(Rules(), args, 300, 300, np.random.default_rng(3))  # the second rule point
    assert played == [300] and set(raw["point"]) == {1} and raw["game_id"].nunique() == 300
    measured = point_metrics(raw)  # what the study measures at a rule point played by the compiled engine
    assert all(np.isfinite(measured[m][0]) for m in ("mean_margin", "first_seat_win_rate", "mean_rounds"))
    # where the compiled engine cannot play a point, the runner plays it with the object engine
    monkeypatch.undo()
    assert COMPILED.refusal(COSTLY, ["heuristic", "greedy"]) is not None


@pytest.mark.slow
@pytest.mark.parametrize("engine", ["compiled", "object"])
def test_same_seed_same_tables_whatever_the_jobs_or_backend(engine):
    data = {"name": "engine", "game": "zooloretto-duell", "analysis": "zoo-ev", "seed": 5,
            "args": {"policies": ["heuristic", "random"], "games": 3 * GAMES_PER_CHUNK * 4, "engine": engine}}
    scenario = scenario_from_data(data, "test", games=get_game)
    runs = [run_scenario(scenario, n_jobs=jobs, backend_name=backend, progress=False)[0].raw
            for jobs, backend in ((1, "loky"), (2, "loky"), (2, "dask"))]
    for raw in runs[1:]:
        pd.testing.assert_frame_equal(runs[0], raw)
    assert runs[0]["game_id"].nunique() == 3 * GAMES_PER_CHUNK * 4


def test_the_main_process_compiles_before_the_tasks_go_out(monkeypatch):
    played = recorded_chunks(monkeypatch, compiled_policies)
    data = {"game": "zooloretto-duell", "analysis": "zoo-ev", "seed": 1,
            "args": {"policies": ["random", "random"], "games": 4}}
    run_scenario(scenario_from_data(data, "test", games=get_game), n_jobs=1, progress=False)
    assert played == [0, 4]  # no games: the compile (or the cache's load), then the task
    played.clear()
    run_scenario(scenario_from_data({**data, "args": {**data["args"], "engine": "object"}}, "test", games=get_game),
                 n_jobs=1, progress=False)
    assert played == []


def invoke(*args):
    return CliRunner().invoke(main, ["simulate", *map(str, args)])


@pytest.mark.parametrize(
    "args, words",
    [
        (["zooloretto-duell", "--engine", "compiled", "--policy", "mcts", "--policy", "heuristic"],
         "--engine: 'compiled' plays only the random, greedy and heuristic policies: the compiled engine has no form "
         "of policy 'mcts'"),
        (["zooloretto-duell", "--engine", "fast"], "'fast' is not one of 'auto', 'compiled', 'object'"),
        (["zooloretto-duell", "--engine", "compiled", "--rule", f"marker_points={MAX_POINTS + 1},1,1,1,1,1,1"],
         f"--engine compiled: rule 'marker_points': the compiled engine plays scoring markers of up to {MAX_POINTS:,}"),
    ],
)
def test_simulate_engine_bad_input_exits_2(args, words, tmp_path):
    result = invoke(*args, "--games", 10, "--jobs", 1, "--out", tmp_path / "s")
    assert result.exit_code == 2, result.output
    assert words in " ".join(result.output.split()) and "Traceback" not in result.output
    assert not (tmp_path / "s").exists()


def test_simulate_with_the_compiled_engine(tmp_path):
    result = invoke("zooloretto-duell", "--games", 40, "--engine", "compiled", "--policy", "greedy", "--policy",
                    "random", "--jobs", 1, "--out", tmp_path / "s")
    assert result.exit_code == 0, result.output
    assert "points_by_source" in result.output
    games = pd.read_csv(tmp_path / "s" / "games.csv")
    assert len(games) == 80 and set(games["policy"]) == {"greedy", "random"}


@dataclasses.dataclass(frozen=True)
class RulesWithOneMore(Rules):
    """A rule added to the object engine's `Rules` that the compiled engine has not learnt."""

    unlearnt_rule: int = rule(0, "a rule only the object engine knows")


def test_the_compiled_engine_declares_the_rules_it_plays_in_a_literal_tuple():
    """`compiled.PLAYED` is written out name by name, so a rule added to `Rules` is refused until the compiled
    engine learns it: a declaration derived from `Rules` (its fields) would let every new rule through."""
    source = ast.parse(inspect.getsource(compiled))
    values = [node.value for node in source.body if isinstance(node, ast.Assign)
              and any(isinstance(t, ast.Name) and t.id == "PLAYED" for t in node.targets)]
    assert len(values) == 1 and isinstance(values[0], ast.Tuple)
    assert all(isinstance(e, ast.Constant) and isinstance(e.value, str) for e in values[0].elts)
    names = [e.value for e in values[0].elts]
    assert tuple(names) == compiled.PLAYED and len(set(names)) == len(names)
    assert set(names) == {f.name for f in dataclasses.fields(Rules)}  # and it plays every rule of today


def test_a_rule_the_compiled_engine_has_not_learnt_is_refused_by_it_and_played_by_the_object_engine(monkeypatch):
    rules = RulesWithOneMore()
    assert compiled.supported(rules) == ("rule 'unlearnt_rule': the compiled engine does not play it yet "
                                         "(the object engine does)")
    with pytest.raises(ValueError, match="'unlearnt_rule'"):
        compiled.rule_tables(rules)  # never a table that leaves the rule out
    args = ANALYSES["game"].check_args({"policies": ["random", "random"]})
    assert COMPILED.engine_for(rules, args) == "object"
    record = play(ZooGame(rules), [SPEC.make_policy("random")] * 2, np.random.default_rng(4))
    assert record.winners
    # the command line: asked by name, the compiled engine refuses (exit 2, naming the rule); 'auto' plays
    # the object engine and says why
    monkeypatch.setattr(zooloretto_duell, "SPEC", dataclasses.replace(SPEC, rules=RulesWithOneMore))
    command = ["simulate", "zooloretto-duell", "--games", "4", "--policy", "random", "--policy", "random",
               "--seed", "1", "--jobs", "1"]
    refused = CliRunner().invoke(main, [*command, "--engine", "compiled"])
    assert refused.exit_code == 2 and "'unlearnt_rule'" in refused.output
    auto = CliRunner().invoke(main, command)
    assert auto.exit_code == 0, auto.output
    assert "note:" in auto.output and "'unlearnt_rule'" in auto.output
