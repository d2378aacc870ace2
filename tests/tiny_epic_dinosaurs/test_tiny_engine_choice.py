"""The `engine` argument of the Tiny Epic Dinosaurs `game` analysis and `tyrsim simulate --engine`: 'compiled',
'object', 'auto' (`tyrsim.core.compiled.engines`)."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner
from compiled_checks import recorded_chunks

from tyrsim.cli import main
from tyrsim.core.engine.analysis import ArgumentError
from tyrsim.core.engine.rules import RuleError
from tyrsim.core.run.scenario import scenario_from_data
from tyrsim.core.run.sweep import run_scenario
from tyrsim.games import get_game
from tyrsim.games.tiny_epic_dinosaurs import SPEC
from tyrsim.games.tiny_epic_dinosaurs.analysis import COMPILED
from tyrsim.games.tiny_epic_dinosaurs.rules import Rules

GAME = "tiny-epic-dinosaurs"
ANALYSES = SPEC.analyses
POLICIES = ["hunter", "breeder", "contractor"]  # the game study's default seats
SEARCH = "ismcts:iterations=1"  # a search: no compiled form
# a supply of 27 figures a kind could overflow the compiled engine's Holding with the bundled files
CROWDED = Rules(dinosaurs_per_kind=27)


@pytest.mark.parametrize("policies", [POLICIES, ["greedy", "random"]])
def test_both_engines_give_the_same_table(policies):
    analysis = ANALYSES["game"]
    args = analysis.check_args({"policies": policies})
    compiled, objects = (analysis.run(Rules(), {**args, "engine": e}, 3, 12, np.random.default_rng(5))
                         for e in ("compiled", "object"))
    pd.testing.assert_frame_equal(compiled, objects)  # the same games, move for move
    assert set(analysis.tables(compiled, Rules(), args)) == set(analysis.tables(objects, Rules(), args))


def test_auto_plays_the_compiled_engine_wherever_it_can():
    analysis = ANALYSES["game"]
    args = analysis.check_args({"policies": POLICIES})
    assert args["engine"] == "auto" and COMPILED.engine_for(Rules(), args) == "compiled"
    assert analysis.trials_per_task(Rules(), args) == COMPILED.games_per_task
    assert COMPILED.engine_for(Rules(), {**args, "engine": "object"}) == "object"
    search = analysis.check_args({"policies": [SEARCH, *POLICIES[1:]]})
    assert COMPILED.engine_for(Rules(), search) == "object"
    [note] = analysis.point_substitutions(Rules(), search)
    assert note.asked == "engine 'auto'" and f"has no form of policy '{SEARCH}'" in note.reason
    with pytest.raises(ArgumentError, match="'compiled' plays only the random, greedy, hunter, breeder and contractor"):
        analysis.check_args({"policies": [SEARCH, *POLICIES[1:]], "engine": "compiled"})
    # a rule it cannot play: 'auto' falls back and says why; 'compiled' is refused before any task
    assert COMPILED.engine_for(CROWDED, args) == "object"
    assert analysis.trials_per_task(CROWDED, args) < COMPILED.games_per_task
    [note] = analysis.point_substitutions(CROWDED, args)
    assert "rule 'dinosaurs_per_kind'" in note.reason
    with pytest.raises(RuleError, match="--engine compiled: rule 'dinosaurs_per_kind'"):
        analysis.point_substitutions(CROWDED, {**args, "engine": "compiled"})


def invoke(*args):
    return CliRunner().invoke(main, ["simulate", GAME, *map(str, args)])


def test_a_policy_without_a_compiled_form_is_said_on_the_terminal_and_in_the_manifest(tmp_path):
    result = invoke("--games", 1, "--policy", SEARCH, "--policy", "random", "--jobs", 1, "--out", tmp_path / "s")
    assert result.exit_code == 0, result.output
    line = (f"{GAME}: the object engine plays the moves of these games; the compiled search chooses them; the "
            f"compiled engine has no form of policy '{SEARCH}' "
            "(asked: engine 'auto')")
    assert [t for t in result.stderr.splitlines() if "note: " in t] == [f"note: {line}"]
    [listed] = json.loads((tmp_path / "s" / "manifest.json").read_text())["substitutions"]
    assert listed["line"] == line and listed["asked"] == "engine 'auto'"


@pytest.mark.parametrize(
    "args, words",
    [
        (["--policy", SEARCH, "--policy", "hunter"],
         f"--engine: 'compiled' plays only the random, greedy, hunter, breeder and contractor policies: the compiled "
         f"engine has no form of policy '{SEARCH}'"),
        (["--rule", "dinosaurs_per_kind=27"],
         "--engine compiled: rule 'dinosaurs_per_kind': the compiled engine holds up to"),
    ],
)
def test_simulate_engine_compiled_refused_exits_2(args, words, tmp_path):
    result = invoke("--engine", "compiled", *args, "--games", 2, "--jobs", 1, "--out", tmp_path / "s")
    assert result.exit_code == 2, result.output
    assert words in " ".join(result.output.split()) and "Traceback" not in result.output
    assert not (tmp_path / "s").exists()


def test_simulate_with_the_compiled_engine(tmp_path):
    result = invoke("--games", 40, "--engine", "compiled", "--policy", "greedy", "--policy", "random",
                    "--jobs", 1, "--out", tmp_path / "s")
    assert result.exit_code == 0, result.output
    assert "points_by_source" in result.output and "note: " not in result.stderr
    games = pd.read_csv(tmp_path / "s" / "games.csv")
    assert len(games) == 80 and set(games["policy"]) == {"greedy", "random"}


@pytest.mark.slow
def test_same_seed_same_tables_whatever_the_jobs_or_backend():
    games = COMPILED.games_per_task + 7  # two compiled tasks
    data = {"name": "engine", "game": GAME, "analysis": "game", "seed": 5,
            "args": {"policies": ["random", "random"], "games": games, "engine": "compiled"}}
    scenario = scenario_from_data(data, "test", games=get_game)
    runs = [run_scenario(scenario, n_jobs=jobs, backend_name=backend, progress=False)[0].raw
            for jobs, backend in ((1, "loky"), (2, "loky"), (2, "dask"))]
    for raw in runs[1:]:
        pd.testing.assert_frame_equal(runs[0], raw)
    assert runs[0]["game_id"].nunique() == games


def test_the_sensitivity_study_plays_its_rule_points_on_the_compiled_engine(monkeypatch):
    from tyrsim.games.tiny_epic_dinosaurs import compiled_policies

    played = recorded_chunks(monkeypatch, compiled_policies)
    explore = SPEC.analyses["explore"]
    args = explore.check_args({"points": 4, "games": 6, "params": ["breed_group=2:4"]})
    assert explore.point_substitutions(Rules(), args) == ()
    raw = explore.run(Rules(), args, 6, 6, np.random.default_rng(3))
    assert played == [6] and set(raw["point"]) == {1} and raw["game_id"].nunique() == 6
    assert COMPILED.refusal(CROWDED, ["hunter", "breeder"]) is not None
