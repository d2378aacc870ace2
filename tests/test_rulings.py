"""The `rulings` analysis: readings played against the baseline on the same games, on the toy dice game
(whose rulings have effects known exactly) and on every game's declared rulings."""

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from tyrsim.cli import main
from tyrsim.core.engine.rng import task_rng, trial_rng
from tyrsim.core.run.scenario import scenario_from_data
from tyrsim.core.run.sweep import run_scenario
from tyrsim.core.studies.rulings import readings
from tyrsim.games import game_names, get_game


def dice_rulings(games: int, rules: dict | None = None, **args):
    data = {"name": "r", "game": "dice", "analysis": "rulings", "seed": 11, "rules": rules or {},
            "args": {"games": games, **args}}
    scenario = scenario_from_data(data, "test", games=get_game)
    result = run_scenario(scenario, n_jobs=1)[0]
    return scenario.analysis.tables(result.raw, scenario.rules, scenario.points[0].args)


def row(table: pd.DataFrame, ruling: str, alternative: str, measure: str) -> pd.Series:
    hit = table[(table["ruling"] == ruling) & (table["alternative"] == alternative) & (table["measure"] == measure)]
    assert len(hit) == 1, (ruling, alternative, measure)
    return hit.iloc[0]


def within_sampling_error(r: pd.Series, exact: float, k: float = 4.0) -> None:
    se = (r["diff_high"] - r["diff_low"]) / (2 * 1.96)
    assert abs(r["difference"] - exact) < k * se, (r["difference"], exact, se)


def test_effects_match_their_exact_values(dice_game):
    # policies: "roller" always rolls (3 turns), "roller:eagerness=0.5" rolls half its turns
    tables = dice_rulings(3000)
    table = tables["rulings"]
    # six again: a roll is worth 3.5 / (5/6) = 4.2 instead of 3.5; 4.5 rolls per game over two seats
    within_sampling_error(row(table, "six_again", "True", "mean_score"), 0.7 * 4.5 / 2)
    # a bonus of 2 for passing: 1.5 passes per game, over two seats, and nothing random changes
    within_sampling_error(row(table, "bonus", "2", "mean_score"), 2 * 1.5 / 2)
    within_sampling_error(row(table, "bonus", "1", "mean_score"), 1 * 1.5 / 2)
    assert row(table, "bonus", "2", "mean_score")["significant"]
    # the game length never depends on a ruling here: every pair equal, exactly 0, p = 1
    length = row(table, "six_again", "True", "actions")
    assert (length["difference"], length["diff_low"], length["diff_high"], length["p_holm"]) == (0, 0, 0, 1)
    assert not length["significant"]


def test_a_reading_the_game_never_reads_never_fires_and_ranks_last(dice_game):
    tables = dice_rulings(200)
    ranking = tables["ruling_ranking"]
    idle = ranking[ranking["ruling"] == "idle"].iloc[0]
    assert idle["games_changed"] == 0 and idle["answers_moved"] == idle["counters_moved"] == 0
    assert idle["rank"] == len(ranking)
    assert not tables["rulings"].query("ruling == 'idle'")["significant"].any()
    finding = tables["findings"].query("ruling == 'idle'")["finding"].iloc[0]
    assert "never fired" in finding


def test_readings_rank_by_their_effect_on_the_answers_before_the_counters(dice_game):
    tables = dice_rulings(1000)
    ranking = tables["ruling_ranking"].set_index("alternative")
    # counting fives too doubles the tally (about +0.9 sd, more than any effect on a score) yet moves no answer
    tally = ranking.loc["high"]
    assert tally["answers_moved"] == 0 and tally["counter_measure"] == "tally" and tally["counter_size"] > 0.7
    assert tally["rank"] > max(ranking.loc[alt, "rank"] for alt in ("True", "1", "2"))
    assert ranking.loc["True", "answers_moved"] > 0 and ranking.loc["b", "rank"] == len(ranking)
    finding = tables["findings"].set_index("alternative").loc["high", "finding"]
    assert "no answer (win rates, score, seat balance, margin, length) moved significantly" in finding
    assert "of the engine's counters it moves tally by +" in finding


def test_pairing_makes_a_rare_effect_visible(dice_game):
    # the same games under both readings: only games with a six differ, so the paired test sees an
    # effect of +1.6 points that independent games of this size could hardly tell from noise
    table = dice_rulings(300)["rulings"]
    six = row(table, "six_again", "True", "mean_score")
    assert six["significant"] and six["games_differing"] < six["games"]
    assert six["diff_high"] - six["diff_low"] < 1.0  # the unpaired interval is about 1.5 wide here


def test_readings_against_a_changed_baseline(dice_game):
    rules = get_game("dice").rules
    assert readings(rules(), ("all",)) == [("six_again", True), ("bonus", 1), ("bonus", 2), ("idle", "b"),
                                           ("tally", "high")]
    # the baseline plays an alternative: the default becomes a reading
    assert readings(rules(bonus=2), ("bonus",)) == [("bonus", 0), ("bonus", 1)]
    # a value that is none of the declared readings stands in for the default: as many readings as before
    assert readings(rules(bonus=5), ("bonus",)) == [("bonus", 1), ("bonus", 2)]
    tables = dice_rulings(40, rules={"bonus": 2}, rulings=["bonus"])
    ranking = tables["ruling_ranking"]
    assert sorted(ranking["alternative"]) == ["0", "1"]
    assert (row(tables["rulings"], "bonus", "0", "mean_score")["difference"]) < 0


def test_game_g_is_the_same_game_in_every_chunk_and_reading(dice_game):
    analysis = get_game("dice").analyses["rulings"]
    rules = get_game("dice").rules()
    args = analysis.check_args({"games": 30})
    # a task plays its games under every reading
    whole = analysis.run(rules, args, 0, 30, task_rng(5, 0, 0))
    assert (whole.groupby("block")["game_id"].unique().map(sorted) == [list(range(30))] * 6).all()
    split = pd.concat([analysis.run(rules, args, first, count, task_rng(5, 0, chunk))
                       for chunk, (first, count) in enumerate([(0, 7), (7, 16), (23, 7)])], ignore_index=True)
    order = ["block", "game_id", "seat"]
    pd.testing.assert_frame_equal(whole.sort_values(order, ignore_index=True),
                                  split.sort_values(order, ignore_index=True))
    # the reading that changes nothing plays exactly the baseline's games
    idle = 1 + [name for name, _ in readings(rules, ("all",))].index("idle")
    base = whole[whole["block"] == 0].drop(columns="block").reset_index(drop=True)
    same = whole[whole["block"] == idle].drop(columns="block").reset_index(drop=True)
    pd.testing.assert_frame_equal(base, same)


def test_a_precision_target_plays_every_reading_on_the_same_games_until_the_effects_are_precise(dice_game):
    data = {"name": "r", "game": "dice", "analysis": "rulings", "seed": 11, "args": {"rulings": ["idle", "six_again"]},
            "precision": {"half_width": 0.08, "min_trials": 300, "max_trials": 4000}}
    scenario = scenario_from_data(data, "test", games=get_game)
    size = scenario.analysis.trials_per_task(scenario.rules, scenario.points[0].args)
    result = run_scenario(scenario, n_jobs=1)[0]
    assert result.met and 300 <= result.trials <= 4000 and result.trials % size == 0
    games = result.raw.groupby("block")["game_id"].nunique()
    assert list(games) == [result.trials] * 3  # the baseline and both readings, the same games
    # the target is on the readings' effects on the answers, in baseline standard deviations
    effects = scenario.analysis.metrics["answer_effect"].estimate(result.raw, scenario.rules, scenario.points[0].args)
    assert effects["half_width"].max() <= 0.08 < 1.2 * effects["half_width"].max() * 2 ** 0.5  # not far past it
    table = scenario.analysis.tables(result.raw, scenario.rules, scenario.points[0].args)["rulings"]
    score = row(table, "six_again", "True", "mean_score")
    effect = effects[(effects["ruling"] == "six_again") & (effects["measure"] == "mean_score")].iloc[0]
    assert effect["estimate"] == pytest.approx(score["effect_size"])
    idle = effects[effects["ruling"] == "idle"]
    constant = idle["measure"] == "actions"  # the same in every game: no scale, so no effect size
    assert idle[constant]["estimate"].isna().all() and not idle[~constant].empty
    assert (idle[~constant]["estimate"] == 0).all() and (idle[~constant]["half_width"] == 0).all()  # it never fired


def test_trial_streams():
    a = trial_rng(task_rng(3, 2, 0), 7).random(4)
    assert np.array_equal(a, trial_rng(task_rng(3, 2, 9), 7).random(4))  # any chunk of the point
    assert not np.array_equal(a, trial_rng(task_rng(3, 1, 0), 7).random(4))  # another point
    assert not np.array_equal(a, trial_rng(task_rng(4, 2, 0), 7).random(4))  # another run seed
    assert not np.array_equal(a, trial_rng(task_rng(3, 2, 0), 8).random(4))  # another trial
    with pytest.raises(ValueError, match="task_rng"):
        trial_rng(np.random.default_rng(), 0)


def test_cli_rulings_and_bad_input(dice_game, tmp_path):
    out = tmp_path / "o"
    result = CliRunner().invoke(main, ["rulings", "dice", "--games", "20", "--ruling", "bonus", "--jobs", "1",
                                       "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "2 alternative readings against the baseline x 20 games" in result.output
    table = pd.read_csv(out / "rulings.csv")
    assert list(table.columns[:10]) == ["ruling", "alternative", "measure", "baseline", "value", "difference",
                                        "diff_low", "diff_high", "p_holm", "significant"]
    assert set(table["ruling"]) == {"bonus"} and (out / "rulings.png").exists()
    bad = CliRunner().invoke(main, ["rulings", "dice", "--ruling", "turns", "--jobs", "1"])
    assert bad.exit_code == 2 and "'turns' is not a ruling of Dice; the rulings are: six_again, bonus, idle, tally" \
        in bad.output
    assert "Traceback" not in bad.output
    bad = CliRunner().invoke(main, ["rulings", "dice", "--games", "1"])
    assert bad.exit_code == 2 and "--games" in bad.output


@pytest.mark.parametrize("game", game_names())
def test_every_rulings_alternative_is_a_valid_rule_set(game):
    rules = get_game(game).rules
    marked = rules.rulings()
    assert marked, f"{game} marks no rule as a ruling"
    for name, alternatives in marked.items():
        assert alternatives, f"{game}: ruling {name!r} has no alternative reading"
        for value in alternatives:
            assert getattr(rules.from_overrides({name: value}), name) == value
    assert "rulings" in get_game(game).analyses



@pytest.mark.slow
def test_same_tables_whatever_jobs():
    data = {"name": "r", "game": "zooloretto-duell", "analysis": "rulings", "seed": 4,
            "args": {"games": 20, "policies": ["greedy", "random"]}}  # over 100 games: several tasks
    scenario = scenario_from_data(data, "test", games=get_game)
    one, two = (run_scenario(scenario, n_jobs=jobs)[0] for jobs in (1, 2))
    args = scenario.points[0].args
    for name, table in scenario.analysis.tables(one.raw, scenario.rules, args).items():
        pd.testing.assert_frame_equal(table, scenario.analysis.tables(two.raw, scenario.rules, args)[name])


def test_a_ruling_of_a_number_must_name_its_alternatives():
    from dataclasses import dataclass

    from tyrsim.core.engine.rules import RuleSet, rule

    @dataclass(frozen=True)
    class Unnamed(RuleSet):
        size: int = rule(3, "a number", low=1, high=9, ruling=True)

    @dataclass(frozen=True)
    class Marked(RuleSet):
        size: int = rule(3, "a number", low=1, high=9, ruling=(5,))
        edge: bool = rule(True, "a switch", ruling=True)
        kind: str = rule("a", "a choice", choices=("a", "b", "c"), ruling=True)
        plain: int = rule(1, "no ruling", low=0)

    with pytest.raises(TypeError, match="'size': ruling=True needs choices or a bool"):
        Unnamed.rulings()
    assert Marked.rulings() == {"size": (5,), "edge": (False,), "kind": ("b", "c")}


def test_holm_runs_over_the_answers_and_over_the_counters_apart(dice_game):
    from tyrsim.core.stats import intervals as stats

    table = dice_rulings(100)["rulings"]
    for kind in ("answer", "counter"):
        rows = table[table["kind"] == kind]
        assert np.allclose(rows["p_holm"], stats.holm(rows["p_value"].to_numpy()), equal_nan=True)
    assert set(table["kind"]) == {"answer", "counter"}


def test_an_effect_on_a_measure_constant_under_the_default_has_no_sd_size():
    from tyrsim.core.studies.rulings import findings

    # rounds always 6 under the default: the size in standard deviations cannot be computed
    ranking = pd.DataFrame([{"rank": 1, "ruling": "r", "alternative": "x", "games": 50, "games_changed": 50,
                             "share_changed": 1.0, "answers_moved": 1, "counters_moved": 0,
                             "answer_measure": "rounds", "answer_size": float("nan"), "answer_difference": 1.0,
                             "answer_low": 1.0, "answer_high": 1.0}])
    text = findings(ranking)["finding"].iloc[0]
    assert "moves rounds by +1 [1, 1], significant" in text and "nan" not in text


def test_a_rule_says_whether_it_is_the_rulebooks_a_simulation_guard_or_a_choice_made_for_the_player():
    from dataclasses import dataclass

    from tyrsim.core.engine.rules import RuleSet, rule

    @dataclass(frozen=True)
    class Kinds(RuleSet):
        size: int = rule(3, "a number", low=1, high=9)
        cap: int = rule(3, "a limit so that play ends", low=0, high=9, ruling=(0,), kind="guard")
        order: str = rule("a", "which first", choices=("a", "b"), kind="choice")

    assert [row["kind"] for row in Kinds.describe()] == ["rule", "guard", "choice"]
    assert Kinds.of_kind("guard") == ["cap"] and Kinds.of_kind("choice") == ["order"]
    assert Kinds.rulings() == {"cap": (0,)}
    with pytest.raises(TypeError, match="rule kind 'reading'"):
        rule(1, "bad", kind="reading")


def test_the_rulings_figure_labels_each_reading_in_words_and_its_answer_by_its_header():
    import matplotlib.pyplot as plt

    from tyrsim.core.studies.rulings import rulings_figure

    rules = get_game("tyros").rules  # the class: a ranking names its readings by field and value
    effect = {"answer_difference": 1.5, "answer_low": 0.5, "answer_high": 2.5, "answer_size": 0.2}
    ranking = pd.DataFrame([
        {"ruling": "ships_pass_unclaimed", "alternative": "False", "answers_moved": 1, "answer_measure": "mean_score",
         **effect},
        {"ruling": "board", "alternative": "bundled:board_alt.toml", "answers_moved": 0, "answer_measure": "",
         **{k: np.nan for k in effect}}])
    fig = rulings_figure(ranking, rules)
    labels = [t.get_text() for t in fig.axes[0].get_yticklabels()]
    plt.close(fig)
    assert labels == ["board from board_alt.toml\n(nothing significant)",
                      "a ship may not pass through spaces without an empire chip\n(mean score)"]
