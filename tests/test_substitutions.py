"""No silent substitutions: what a run plays in place of what was asked is printed once and listed in the report.

The notes are decided in the main process (`sweep.run_substitutions`), so they are the same with one job,
several, the Dask backend, or the report's scenarios sharing one pool of workers.
"""

from __future__ import annotations

import dataclasses
import json

import pytest
from click.testing import CliRunner

from tyrsim.cli import execute, main, seat_policies
from tyrsim.core.compiled.engines import CompiledEngine
from tyrsim.core.engine.protocols import PolicyError
from tyrsim.core.run.scenario import scenario_from_data
from tyrsim.core.run.sweep import run_substitutions
from tyrsim.core.run.workers import shared_pool
from tyrsim.core.studies.explore import explore_analysis
from tyrsim.games import get_game
from tyrsim.games.zooloretto_duell.analysis import COMPILED

ZD = "zooloretto-duell"
MCTS = "mcts:playouts=2"  # a search: no compiled form
BIG_MARKERS = "2000000,1,1,1,1,1,1"  # a scoring marker beyond the compiled engine's integers
NOTE = "note: "


def invoke(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def notes(output: str) -> list[str]:
    return [line for line in output.splitlines() if NOTE in line]


def manifest(folder) -> dict:
    return json.loads((folder / "manifest.json").read_text())


def test_a_policy_without_a_compiled_form_is_said_once_and_listed(tmp_path):
    result = invoke("simulate", ZD, "--games", 2, "--policy", MCTS, "--policy", "heuristic", "--jobs", 1,
                    "--out", tmp_path / "s")
    assert result.exit_code == 0, result.output
    said = notes(result.stderr)
    assert said == [f"note: {ZD}: the object engine plays these games; the compiled engine has no form of policy "
                    f"'{MCTS}' (asked: engine 'auto')"]
    listed = manifest(tmp_path / "s")["substitutions"]
    assert [n["line"] for n in listed] == [said[0].removeprefix(NOTE)]
    assert listed[0]["asked"] == "engine 'auto'" and listed[0]["points"] == []
    assert f"Played other than asked: {said[0].removeprefix(NOTE)}" in (tmp_path / "s" / "index.md").read_text()


def test_a_rule_the_compiled_engine_cannot_play_is_said_once():
    result = invoke("simulate", ZD, "--games", 2, "--policy", "random", "--policy", "random", "--rule",
                    f"marker_points={BIG_MARKERS}", "--jobs", 1)
    assert result.exit_code == 0, result.output
    [said] = notes(result.stderr)
    assert "the object engine plays these games; rule 'marker_points': the compiled engine" in said


def test_a_run_with_no_substitution_says_none(tmp_path):
    result = invoke("simulate", ZD, "--games", 20, "--policy", "greedy", "--policy", "random", "--jobs", 1,
                    "--out", tmp_path / "s")
    assert result.exit_code == 0, result.output
    assert notes(result.output) == []
    assert manifest(tmp_path / "s")["substitutions"] == []


def test_an_engine_asked_by_name_is_no_substitution():
    scenario = scenario_from_data({"game": ZD, "analysis": "zoo-ev", "seed": 1,
                                   "args": {"policies": [MCTS, "heuristic"], "games": 2, "engine": "object"}}, "t",
                                  games=get_game)
    assert run_substitutions(scenario) == []


SWEEP = f"""
game = "{ZD}"
analysis = "zoo-ev"
seed = 3
[args]
policies = ["random", "random"]
games = 4
[sweep.rules]
marker_points = [[4, 3, 3, 2, 2, 1, 1], [{BIG_MARKERS}]]
"""


@pytest.mark.parametrize("backend", ["loky", "dask"])
def test_a_sweep_names_the_points_it_holds_at_once_per_run_whatever_the_backend(tmp_path, backend):
    path = tmp_path / "sweep.toml"
    path.write_text(SWEEP)
    first = invoke("run", path, "--out", tmp_path / "o", "--jobs", 1, "--backend", backend)
    assert first.exit_code == 0, first.output
    [said] = notes(first.stderr)
    assert said.endswith("at sweep points marker_points=[2000000, 1, 1, 1, 1, 1, 1]")
    [listed] = manifest(tmp_path / "o")["substitutions"]
    assert listed["points"] == ["marker_points=[2000000, 1, 1, 1, 1, 1, 1]"] and listed["line"] == said[len(NOTE):]
    again = invoke("run", path, "--out", tmp_path / "o", "--jobs", 1)  # answered from the store: said again, once
    assert notes(again.stderr) == [said]


def test_the_report_lanes_say_each_scenarios_notes_under_its_label(tmp_path, capsys):
    scenario = scenario_from_data({"name": "lane", "game": ZD, "analysis": "zoo-ev", "seed": 2,
                                   "args": {"policies": [MCTS, "random"], "games": 2}}, "t", games=get_game)
    with shared_pool(1) as pool:
        execute(scenario, tmp_path / "lane", 8, "loky", None, False, pool=pool, label="[1/2] lane")
    said = notes(capsys.readouterr().err)
    # the shared pool is the report's, not this scenario's: no note about its workers
    assert said == [f"[1/2] lane: note: {ZD}: the object engine plays these games; the compiled engine has no form "
                    f"of policy '{MCTS}' (asked: engine 'auto')"]
    assert len(manifest(tmp_path / "lane")["substitutions"]) == 1


def test_more_jobs_than_tasks_says_how_many_workers_start(tmp_path):
    result = invoke("simulate", ZD, "--games", 2, "--policy", "random", "--policy", "random", "--jobs", 3)
    assert result.exit_code == 0, result.output
    assert notes(result.stderr) == [f"note: {ZD}: at most 1 worker process starts; the run has 1 task and a worker "
                                    "plays one task at a time (asked: 3 worker processes)"]
    # not asked: nothing to say
    assert notes(invoke("simulate", ZD, "--games", 2, "--policy", "random", "--policy", "random").output) == []


def test_jobs_with_a_scheduler_is_refused(tmp_path):
    path = tmp_path / "sweep.toml"
    path.write_text(SWEEP)
    result = invoke("run", path, "--backend", "dask", "--scheduler", "tcp://127.0.0.1:8786", "--jobs", 2,
                    "--out", tmp_path / "o")
    assert result.exit_code == 2 and "--jobs" in result.stderr and "cluster's own workers" in result.stderr
    assert not (tmp_path / "o").exists()


def test_the_sensitivity_study_says_how_many_rule_points_the_object_engine_plays():
    explore = get_game(ZD).analyses["explore"]
    args = explore.check_args({"points": 4, "games": 2, "params": ["majority_points=0:3"]})
    refusing = dataclasses.replace(get_game(ZD), compiled=Refusing(COMPILED.rules_module, COMPILED.policies_module,
                                                                    COMPILED.policies, game=COMPILED.game,
                                                                    policy_table=COMPILED.policy_table))
    study = explore_analysis(("heuristic", "heuristic"), ("majority_points=0:3",)).build(refusing)
    [note] = study.point_substitutions(get_game(ZD).rules(), args)
    refused = sum(r.majority_points >= 2 for r in _point_rules(study, args))
    assert 0 < refused < 12 and note.played == f"the object engine plays the games of {refused} of 12 rule points"
    assert note.reason == "too many"
    assert explore.point_substitutions(get_game(ZD).rules(), args) == ()  # the compiled engine plays all
    searching = explore.check_args({**args, "policies": [MCTS, "heuristic"]})
    [note] = explore.point_substitutions(get_game(ZD).rules(), searching)
    assert note.played == "the object engine plays these games" and f"'{MCTS}'" in note.reason


@dataclasses.dataclass(frozen=True)
class Refusing(CompiledEngine):
    """The game's compiled engine, made to refuse the rule points with 2 or more majority points."""

    def refusal(self, rules, texts):
        return "too many" if rules.majority_points >= 2 else super().refusal(rules, texts)


def _point_rules(study, args):
    from tyrsim.core.stats.sensitivity import sobol_design

    points = sobol_design({"majority_points": (0, 3, int)}, args["points"], args["design_seed"])
    return [get_game(ZD).rules().replace({"majority_points": int(v)}) for v in points["majority_points"]]


def test_a_policy_parameter_given_twice_is_refused():
    with pytest.raises(PolicyError, match="parameter 'take_threshold' is given twice"):
        get_game(ZD).make_policy("heuristic:take_threshold=1,take_threshold=2")
    with pytest.raises(PolicyError, match="parameter 'weights' is given twice"):
        get_game(ZD).make_policy("heuristic:weights=bundled:heuristic_tuned.toml,weights=bundled:heuristic_tuned.toml")
    # a weight beside its weights file takes the value given, before or after the file
    for text in ("heuristic:take_threshold=3,weights=bundled:heuristic_tuned.toml",
                 "heuristic:weights=bundled:heuristic_tuned.toml,take_threshold=3"):
        assert get_game(ZD).make_policy(text).take_threshold == 3


def test_a_policy_given_twice_in_a_tournament_is_refused():
    result = invoke("rate", ZD, "--policy", "heuristic", "--policy", "heuristic", "--policy", "greedy", "--games", 2)
    assert result.exit_code == 2 and "'heuristic' is given twice; a tournament rates each policy once" in result.output


def test_tune_refuses_opponents_that_would_never_sit_down(tmp_path):
    result = invoke("tune", ZD, "--policy", "heuristic", "--opponent", "greedy", "--opponent", "random",
                    "--out", tmp_path / "t")
    assert result.exit_code == 2, result.output
    assert "--opponent" in result.output and "a 2-player table has 1 other seat; give at most 1" in result.output


def test_tune_says_when_budget_games_are_left_over(tmp_path):
    result = invoke("tune", ZD, "--policy", "heuristic", "--opponent", "random", "--budget", 5, "--games", 2,
                    "--population", 2, "--check-games", 2, "--out", tmp_path / "t")
    assert result.exit_code == 0, result.output
    assert notes(result.stderr) == [f"note: {ZD}: 4 games are played; 1 more would not fill a generation of 2 "
                                    "candidates x 2 games (asked: --budget 5)"]


@pytest.mark.parametrize("game", ["tyros", "tyranno-ex"])
def test_explore_and_rulings_seat_their_own_default_table(game):
    spec = get_game(game)
    for study in ("explore", "rulings"):
        default = list(spec.analyses[study].param("policies").default)
        assert seat_policies(spec, (), None, study) == default
        assert seat_policies(spec, (), 3, study) == default[:3]
    assert spec.analyses["explore"].param("policies").default != spec.analyses["game"].param("policies").default


@pytest.mark.parametrize("option, value", [("--fights", 5000), ("--seed", 3)])
def test_exact_combat_odds_refuse_what_only_monte_carlo_uses(option, value):
    one = ["combat", "--attacker-strength", 3, "--attacker-dice", 2, "--defender-strength", 1, "--defender-dice", 4]
    result = invoke(*one, option, value)
    assert result.exit_code == 2 and option in result.output and "the exact odds simulate no fights" in result.output
    assert invoke(*one, "--method", "mc", "--fights", 200, option, value).exit_code == 0
    assert invoke(*one).exit_code == 0


def test_a_search_without_a_turn_loop_says_the_compiled_search_chooses_its_moves():
    game = get_game(ZD)
    [note] = game.analyses["game"].point_substitutions(game.rules(), {"policies": ("ismcts", "heuristic"),
                                                                      "engine": "auto"})
    assert note.played == "the object engine plays the moves of these games; the compiled search chooses them"
    assert note.reason == "the compiled engine has no form of policy 'ismcts'"
    ladder = game.analyses["ladder"]
    args = ladder.check_args({"policies": ["random", "heuristic", "ismcts"], "games": 2})
    [note] = ladder.point_substitutions(game.rules(), args)
    assert note.played.startswith("the object engine plays the moves of the games of ")
    assert note.played.endswith("; the compiled search chooses them")
