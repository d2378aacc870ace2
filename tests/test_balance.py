"""`tyrsim balance`: its input checks, a study of Zooloretto Duell whose answer is known from direct play, and
every game's bundled designer question (it loads, and a tiny run of one answers in the four parts).

The known answer: in Zooloretto Duell between heuristic players, the deeper the "final round" card lies the
fewer rounds a game lasts (1,000 games a depth, seed 99: depth 10 plays 11.00 rounds, 11 plays 10.80 and 12
plays 10.62, each +/- 0.02), so of the depths 6 to 16 only 11 meets 10.7 <= mean_rounds <= 10.9, and its
neighbours miss by four or five standard errors.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from tyrsim.cli import main
from tyrsim.core.engine.analysis import ArgumentError
from tyrsim.core.run.store import ResultStore
from tyrsim.core.studies import balance as balance_module
from tyrsim.core.studies.balance import SEARCH, balance, plan_balance
from tyrsim.games import game_names, get_game

GAME = "zooloretto-duell"
SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"
DEPTH = "final_round_card_depth"
TARGETS = ("mean_rounds>=10.7", "mean_rounds<=10.9")


@pytest.fixture(scope="module")
def spec():
    return get_game(GAME)


def setup_for(spec, **changes):
    args = dict(budget=3000, block=25, rungs=4, batch=4, check_games=1000, finalists=3, seed=5)
    return plan_balance(spec, spec.rules(), [f"{DEPTH}=6:16"], TARGETS, ("heuristic", "heuristic"),
                        **(args | changes))


@pytest.fixture(scope="module")
def study(spec):
    return balance(spec, setup_for(spec))


def test_the_one_depth_that_meets_the_targets_is_found_and_certified_on_fresh_games(study):
    best = study.finalists[study.best]
    assert best.values == {DEPTH: 11}
    assert best.meets and best.changed == 1
    value, low, high = best.metrics["mean_rounds"]
    assert 10.7 <= low <= value <= high <= 10.9
    # the rulebook's depth, 5, lasts about 11.65 rounds: it misses, and the answer says so beside the best
    assert study.finalists[0].values == {DEPTH: 5} and not study.finalists[0].meets
    # one step either way leaves the targets: the distance grows, clearly (paired on the fresh games)
    around = study.neighbours[study.neighbours["measure"] == "distance"].set_index("step")
    assert set(around["value"]) == {"10", "12"}
    assert (around["diff_low"] > 0).all()
    rounds = study.neighbours[study.neighbours["measure"] == "mean_rounds"].set_index("step")
    assert rounds.loc["down", "diff_low"] > 0 and rounds.loc["up", "diff_high"] < 0  # deeper: fewer rounds


def test_the_answer_reads_from_fresh_games_not_the_searched_ones(spec, study):
    setup = study.setup
    searched = game_columns_of(spec, setup, {DEPTH: 11}, 200)
    fresh = study.finalists[study.best].matrix[:200]
    assert fresh.shape == searched.shape and not np.array_equal(fresh, searched)
    assert study.finalists[study.best].search.games == setup.full


def game_columns_of(spec, setup, values, games):
    from tyrsim.core.studies.balance import play_block

    table = play_block(spec, setup, setup.variant(values), SEARCH, 0, games)
    return table[setup.columns()].to_numpy(dtype=float)


def test_the_answer_in_sentences_names_the_best_the_smallest_change_the_ties_and_the_steps(study):
    from tyrsim.core.report.balance_page import findings

    sentences = findings(study)
    assert sentences[0].startswith(f"The best variant the search found: {DEPTH}=11 (1 rule changed")
    assert "met)" in sentences[0] and "under the run's rules" in sentences[0]
    assert sentences[1].startswith(f"The smallest change to the published rules that meets every target: {DEPTH}=11")
    assert "tied with the best" in sentences[2]
    assert sentences[3].startswith(f"Around the best, {DEPTH}: one step down (10)")


def test_every_finalist_plays_the_same_fresh_games_and_the_search_plays_every_depth(study):
    assert study.stopped_by == "space"
    assert sorted(c.values[DEPTH] for c in study.candidates[1:]) == [d for d in range(6, 17) if d != 5]
    assert study.spent <= study.setup.budget
    assert len({f.matrix.shape for f in study.finalists}) == 1


def test_a_closest_miss_is_named_when_no_variant_meets_the_targets(spec):
    from tyrsim.core.report.balance_page import findings

    unreachable = plan_balance(spec, spec.rules(), [f"{DEPTH}=6:8"], ("mean_rounds<=9",), ("heuristic", "heuristic"),
                               budget=500, block=25, rungs=3, batch=2, check_games=200, finalists=2, seed=5)
    missed = balance(spec, unreachable)
    assert not any(f.meets for f in missed.finalists)
    assert "No variant played meets every target" in " ".join(findings(missed))
    assert "closest miss" in " ".join(findings(missed))


@pytest.mark.slow
@pytest.mark.parametrize("killed_at", [3, 14])  # in the first batch's first block; in a later batch
def test_a_rerun_after_an_interruption_ends_where_an_uninterrupted_run_ends(spec, tmp_path, monkeypatch, killed_at):
    setup = setup_for(spec, budget=1500, check_games=100, seed=8, finalists=2)
    whole = balance(spec, setup, store=ResultStore(tmp_path / "whole"))
    played = {"blocks": 0}
    real = balance_module.play_block

    def killed(*args, **kwargs):
        played["blocks"] += 1
        if played["blocks"] == killed_at:  # candidates asked and not yet told
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(balance_module, "play_block", killed)
    with pytest.raises(KeyboardInterrupt):
        balance(spec, setup, store=ResultStore(tmp_path / "resumed"))
    monkeypatch.setattr(balance_module, "play_block", real)
    resumed = balance(spec, setup, store=ResultStore(tmp_path / "resumed"))
    assert (tmp_path / "resumed" / balance_module.JOURNAL).exists()
    same_answer(whole, resumed)
    # and a third run reads every game back, playing none
    monkeypatch.setattr(balance_module, "play_block", lambda *a, **k: pytest.fail("a stored game was played again"))
    same_answer(whole, balance(spec, setup, store=ResultStore(tmp_path / "resumed")))


def same_answer(a, b) -> None:
    columns = [c for c in a.search_table().columns if c != "trial"]  # a re-asked batch has new trial numbers
    pd.testing.assert_frame_equal(a.search_table()[columns], b.search_table()[columns])
    pd.testing.assert_frame_equal(a.table(), b.table())
    pd.testing.assert_frame_equal(a.comparisons, b.comparisons)


@pytest.mark.slow
def test_one_job_and_two_jobs_give_the_same_answer(spec):
    setup = setup_for(spec, budget=1500, check_games=100, seed=8, finalists=2)
    same_answer(balance(spec, setup, n_jobs=1), balance(spec, setup, n_jobs=2))


def test_the_rulebook_is_told_to_the_sampler_and_racing_stops_clear_losers(spec):
    setup = plan_balance(spec, spec.rules(), [f"{DEPTH}=0:20"], ("mean_rounds<=10.3",), ("heuristic", "heuristic"),
                         budget=2000, block=25, rungs=4, batch=4, check_games=50, finalists=1, seed=3)
    result = balance(spec, setup)
    table = result.search_table()
    stopped = table[table["stopped"] == "racing"]
    assert len(stopped) and (stopped["games"] < setup.full).all()
    # a depth stopped early is far from the target: it lasts longer than the best by the search's own games
    best = table[table["played_every_block"]].sort_values("distance").iloc[0]
    assert (stopped[DEPTH] < best[DEPTH]).all()


@pytest.mark.parametrize("args, option, message", [
    ([], "--vary", "the space is empty"),
    (["--vary", "nonsense=1:3"], "--vary", "unknown rule 'nonsense'"),
    (["--vary", "expert=0:1"], "--vary", "LOW:HIGH is for an integer rule"),
    (["--vary", "money_action_cost=0:3"], "--vary", "'money_action_cost': 0 is not allowed; expected an integer "
     "from 1 to 12"),
    (["--vary", "marker_order=shuffled,sorted"], "--vary", "expected one of 'shuffled', 'printed'"),
    (["--vary", "coins_per_point=2,2"], "--vary", "gives one value"),
    (["--vary", "coins_per_point=1:3", "--target", "fun>=1"], "--target", "'fun' is not a metric"),
    (["--vary", "coins_per_point=1:3", "--target", "mean_rounds>=12", "--target", "mean_rounds<=11"], "--target",
     "contradict each other"),
    (["--vary", "coins_per_point=1:3", "--target", "balance=1.5"], "--target", "a share of games, from 0 to 1"),
    (["--vary", "coins_per_point=1:3", "--target", "rounds about 10"], "--target", "is not METRIC=VALUE"),
    (["--vary", "coins_per_point=1:3", "--target", "balance>=0.9", "--games", "100"], "--games",
     "cannot play the run's rules' 400 games and one batch"),
])
def test_bad_input_exits_2_naming_the_option_before_any_game(args, option, message, tmp_path, monkeypatch):
    monkeypatch.setattr(balance_module, "play_block", lambda *a, **k: pytest.fail("a game was played"))
    target = [] if "--target" in args else ["--target", "first_seat_win_rate=0.5"]
    result = CliRunner().invoke(main, ["balance", GAME, *args, *target, "--out", str(tmp_path / "o")])
    assert result.exit_code == 2, result.output
    assert option in result.output and message in " ".join(result.output.split()), result.output
    assert "Traceback" not in result.output
    assert not (tmp_path / "o").exists()


def test_a_ruling_s_readings_and_a_counter_can_be_named(spec):
    setup = plan_balance(spec, spec.rules(), ["symbols_file=,bundled:symbols_two_each.toml", "steal_triggers_symbols="
                                              "true,false"], ("mean_steals<=1", "balance>=0.9"),
                         ("heuristic", "heuristic"), budget=1000, block=25, rungs=2, batch=2, check_games=10,
                         finalists=1, seed=0)
    assert [d.values for d in setup.space] == [("", "bundled:symbols_two_each.toml"), (True, False)]
    assert setup.columns() == ["seat_0", "seat_1", "steals"]
    with pytest.raises(ArgumentError, match="mean_steals"):
        plan_balance(spec, spec.rules(), ["coins_per_point=1:2"], ("mean_stealz<=1",), ("heuristic", "heuristic"),
                     budget=1000, block=25, rungs=2, batch=2, check_games=10, finalists=1, seed=0)


def test_the_command_writes_the_page_tables_figures_and_manifest(tmp_path):
    out = tmp_path / "b"
    result = CliRunner().invoke(main, ["balance", GAME, "--vary", f"{DEPTH}=9:12", "--target", "mean_rounds<=10.9",
                                       "--games", "600", "--block", "25", "--rungs", "3", "--batch", "2",
                                       "--check-games", "100", "--finalists", "2", "--jobs", "1", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "The best variant the search found" in result.output
    written = {p.name for p in out.iterdir()}
    assert {"index.html", "index.md", "manifest.json", "finalists.csv", "tied_with_best.csv", "around_best.csv",
            "front.csv", "search.csv", "objective.png", "front.png", ".store"} <= written
    page = (out / "index.html").read_text()
    assert "The best variant the search found" in page and "How this was run" in page
    finalists = pd.read_csv(out / "finalists.csv")
    assert {"variant", "rules_changed", "distance", "distance_low", "distance_high", "mean_rounds",
            "mean_rounds_low", "mean_rounds_high", "meets_targets"} <= set(finalists.columns)


def test_the_tables_travel_as_one_long_table_and_come_back_whole():
    from tyrsim.core.studies.balance_analysis import from_rows, to_rows

    tables = {"a": pd.DataFrame({"name": ["x", "y"], "n": [1, 2], "share": [0.5, np.nan], "tied": [True, False]}),
              "empty": pd.DataFrame({"variant": pd.Series([], dtype=object), "p": pd.Series([], dtype=float)})}
    back = from_rows(to_rows(tables))
    assert list(back) == ["a", "empty"]
    pd.testing.assert_frame_equal(back["a"], tables["a"])
    assert list(back["empty"].columns) == ["variant", "p"] and len(back["empty"]) == 0


def test_a_scenario_runs_the_study_and_opens_its_page_with_the_answer(tmp_path):
    from tyrsim.core.report.pages import build_report, write_report
    from tyrsim.core.run.scenario import ScenarioError, scenario_from_data
    from tyrsim.core.run.sweep import run_scenario

    data = {"name": "b", "game": GAME, "analysis": "balance", "seed": 4,
            "args": {"policies": ["heuristic", "heuristic"], "vary": [f"{DEPTH}=9:12"], "targets": list(TARGETS),
                     "games": 600, "block": 25, "rungs": 3, "batch": 2, "check_games": 100, "finalists": 2}}
    scenario = scenario_from_data(data, "test", games=get_game)
    results = run_scenario(scenario, n_jobs=1, progress=False)
    report = build_report(scenario, results, 1.0)
    assert report.findings[0].startswith("The best variant the search found")
    assert {"finalists", "tied_with_best", "around_best", "front", "search"} <= set(report.tables)
    write_report(report, tmp_path / "page")
    assert "The best variant the search found" in (tmp_path / "page" / "index.html").read_text()
    with pytest.raises(ScenarioError, match="contradict"):
        scenario_from_data({**data, "args": {**data["args"], "targets": ["mean_rounds>=12", "mean_rounds<=11"]}},
                           "test", games=get_game)


def test_a_skill_target_plays_the_matchup_beside_the_table_and_reads_its_share(spec):
    setup = plan_balance(spec, spec.rules(), [f"{DEPTH}=9:10"], (), ("heuristic", "heuristic"),
                         skills=("heuristic>random>=0.9",), budget=2000, block=25, rungs=2, batch=1,
                         check_games=200, finalists=1, seed=2)
    assert setup.matchups() == [("heuristic", "random")] and setup.tables == 2
    assert setup.columns() == ["seat_0", "seat_1", "skill:heuristic>random"]
    result = balance(spec, setup)
    value, low, high = result.finalists[result.best].metrics["skill:heuristic>random"]
    assert 0.9 < low <= value <= high  # the heuristic beats a random player nearly every game
    assert result.spent <= setup.budget and result.spent % 2 == 0  # every game also played in the matchup
    # in a scenario's list of targets a skill target reads the same
    among = plan_balance(spec, spec.rules(), [f"{DEPTH}=9:10"], ("heuristic>random>=0.9",), ("heuristic", "heuristic"),
                         budget=2000, block=25, rungs=2, batch=1, check_games=200, finalists=1, seed=2)
    assert among.targets == setup.targets


@pytest.mark.parametrize("skill, message", [
    ("heuristic>>0.9", "is not STRONG>WEAK>=SHARE"),
    ("heuristic>nobody>=0.9", "unknown policy"),
    ("heuristic>heuristic>=0.9", "against itself"),
    ("heuristic>random>=1.5", "from 0 to 1"),
    ("heuristic>random>=0.9', '--skill', 'heuristic>random<=0.8", "contradict each other"),
])
def test_bad_skill_targets_exit_2(skill, message, tmp_path):
    skills = [part for text in skill.split("', '--skill', '") for part in ("--skill", text)]
    result = CliRunner().invoke(main, ["balance", GAME, "--vary", f"{DEPTH}=9:10", *skills,
                                       "--out", str(tmp_path / "o")])
    assert result.exit_code == 2 and "--skill" in result.output, result.output
    assert message in " ".join(result.output.split()), result.output


@pytest.mark.slow
def test_a_local_dask_cluster_gives_the_answer_loky_gives(spec):
    setup = setup_for(spec, budget=1500, check_games=100, seed=8, finalists=2)
    same_answer(balance(spec, setup, n_jobs=2), balance(spec, setup, n_jobs=2, backend="dask"))


@pytest.mark.parametrize("game", game_names())
def test_every_game_offers_its_designer_question_played_by_its_tuned_policies(game):
    spec = get_game(game)
    analysis = spec.analyses["balance"]
    policies = analysis.param("policies").default
    assert len(policies) in spec.players and all(":weights=bundled:" in p for p in policies)
    setup = plan_balance(spec, spec.rules(), analysis.param("vary").default, analysis.param("targets").default,
                         policies, budget=analysis.param("games").default, block=50, rungs=4, batch=8,
                         check_games=100, finalists=5, seed=0)
    assert len(setup.space) >= 2 and setup.targets


def bundled_question(game: str) -> Path:
    return SCENARIOS / f"{game.replace('-', '_')}_balance.toml"


@pytest.mark.parametrize("game", game_names())
def test_each_game_s_bundled_question_loads_and_asks_the_analysis_s_own_question(game):
    from tyrsim.core.run.scenario import load_scenario

    scenario = load_scenario(bundled_question(game), games=get_game)  # every argument checked, no game played
    assert scenario.analysis.name == "balance" and scenario.default_report  # in the default report, in its section
    assert scenario.section == "Designer's questions: rules that balance the game"
    [quick] = scenario.quick().points  # a quick report's search: fewer games, each finalist on fewer fresh ones
    assert quick.args["check_games"] == 200 and quick.args["games"] == 1000
    [point] = scenario.points
    defaults = {name: get_game(game).analyses["balance"].param(name).default
                for name in ("policies", "vary", "targets")}
    assert {name: tuple(point.args[name]) for name in defaults} == defaults
    assert not scenario.analysis.substitutions(point.rules, point.args)  # the budget plays every block it asks


def test_a_bundled_question_of_another_game_answers_in_its_four_parts_on_a_tiny_budget(tmp_path):
    from tyrsim.core.report.pages import build_report
    from tyrsim.core.run.scenario import scenario_from_data
    from tyrsim.core.run.sweep import run_scenario

    data = tomllib.loads(bundled_question("tyranno-ex").read_text())
    data["args"] |= {"games": 400, "block": 20, "rungs": 2, "batch": 3, "check_games": 60, "finalists": 2}
    scenario = scenario_from_data(data, "test", games=get_game)
    report = build_report(scenario, run_scenario(scenario, n_jobs=1, progress=False), 1.0)
    best, smallest, tied, *around, search = report.tables["findings"]["finding"]
    # the page's answer holds every part (each naming the players after it): the four, one sentence around the
    # best per varied rule, and the search's
    assert [page[:80] for page in report.findings] == [part[:80] for part in (best, smallest, tied, *around, search)]
    assert best.startswith("The best variant the search found") and "under the run's rules" in best
    assert "mean_margin" in best and "largest_seat_gap" in best
    assert smallest.startswith(("The smallest change to the published rules", "No variant played meets",
                                "The run's rules already meet"))
    assert "tied with the best" in tied
    assert [a.split(":")[0] for a in around] == [f"Around the best, {rule}"
                                                 for rule in ("die_rounds", "chips_per_player", "five_points")]
    assert search.startswith("The search played")
    assert {"finalists", "tied_with_best", "around_best", "front", "search"} <= set(report.tables)


def test_the_parts_of_the_best_s_change_are_re_played_so_the_smallest_change_need_not_be_one_the_search_played():
    base = {"a": 1, "b": 1, "c": 1, "d": 1}
    assert balance_module.parts_of_change(base, {**base, "a": 2}) == []  # one rule changed: no smaller part
    two = balance_module.parts_of_change(base, {**base, "a": 2, "b": 3})
    assert two == [{**base, "a": 2}, {**base, "b": 3}]
    three = balance_module.parts_of_change(base, {"a": 2, "b": 3, "c": 4, "d": 1})
    assert len(three) == 6 and {**base, "a": 2, "c": 4} in three  # every proper part: 3 alone, 3 pairs
    four = balance_module.parts_of_change(base, {"a": 2, "b": 3, "c": 4, "d": 5})
    assert four == [{**base, "a": 2}, {**base, "b": 3}, {**base, "c": 4}, {**base, "d": 5}]  # past six: each alone
