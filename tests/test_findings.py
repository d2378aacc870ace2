"""The sentences that open a report page: they say what the tables say, with intervals, and never 'nan'."""

import math
from dataclasses import dataclass

import pandas as pd

from tyrsim.core.engine.analysis import Metric
from tyrsim.core.engine.rules import RuleSet, rule
from tyrsim.core.report import findings


def by_policy(rates):
    rows = [{"policy": p, "games": 100, "win_rate": r, "win_low": lo, "win_high": hi, "mean_score": 1.0,
             "score_low": 0.5, "score_high": 1.5, "sd_score": 1.0} for p, (r, lo, hi) in rates.items()]
    return pd.DataFrame(rows)


def test_who_wins_names_the_leader_only_when_the_intervals_part():
    clear = findings.game_findings({"by_policy": by_policy({"breeder": (0.3, 0.2, 0.4), "hunter": (0.7, 0.6, 0.8)})})
    assert clear[0].startswith("hunter wins most often: games won hunter 70.0% [60.0, 80.0], breeder 30.0%")
    close = findings.game_findings({"by_policy": by_policy({"breeder": (0.45, 0.35, 0.55),
                                                            "hunter": (0.55, 0.45, 0.65)})})
    assert "cannot be told apart" in close[0]


TIE_WORDS = {"reroll": "with 'reroll' for a round with equal hits", "defender": "in the defender's favour"}


def test_a_sweep_speaks_of_each_point_by_its_swept_value_in_the_words_the_report_gives_it():
    table = by_policy({"a": (0.7, 0.6, 0.8), "b": (0.3, 0.2, 0.4)})
    stacked = pd.concat([table.assign(tie_rule="reroll"), table.assign(tie_rule="defender")])
    stacked = stacked[["tie_rule", *table.columns]]
    stacked.attrs[findings.PHRASES] = {"tie_rule": TIE_WORDS}
    sentences = findings.game_findings({"by_policy": stacked})
    assert [s.split(": ")[0] for s in sentences] == ["With 'reroll' for a round with equal hits",
                                                      "In the defender's favour"]


def comparison(rows):
    table = pd.DataFrame([{"variant": "tie_rule=defender", "metric": "p_attacker_wins", "policy": p,
                           "baseline": b, "value": v, "difference": v - b, "diff_low": lo, "diff_high": hi,
                           "p_value": p_, "test": "z", "p_holm": p_, "significant": p_ < 0.05}
                          for p, b, v, lo, hi, p_ in rows])
    table.attrs[findings.PHRASES] = {"variant": {"tie_rule=defender": "with 'defender' for a round with equal hits"}}
    return table


METRICS = {"p_attacker_wins": Metric("proportion", ("policy",), lambda *a: None, "share of fights the attacker wins")}


def test_a_comparison_says_the_direction_the_interval_and_the_holm_verdict():
    [sentence] = findings.comparison_findings(comparison([("x", 0.5, 0.459, -0.043, -0.039, 1e-9)]), METRICS)
    assert sentence == ("With 'defender' for a round with equal hits: share of fights the attacker wins: x 45.9% "
                        "against 50.0% at the baseline, -4.1 points [-4.3, -3.9], significant after the Holm "
                        "correction.")


def test_a_comparison_without_a_test_is_never_significant():
    [sentence] = findings.comparison_findings(comparison([("x", 0.5, 0.6, math.nan, math.nan, math.nan)]), METRICS)
    assert "no test possible" in sentence and "nan" not in sentence


def test_many_items_are_summarised_with_the_largest_significant_change():
    rows = [(f"m{i}", 0.5, 0.5 - 0.01 * i, -0.01 * i - 0.005, -0.01 * i + 0.005, 1e-6 if i > 5 else 0.5)
            for i in range(1, 11)]
    [sentence] = findings.comparison_findings(comparison(rows), METRICS)
    assert "higher in 0 and lower in 10 of 10 cases" in sentence
    assert "5 of 10 changes are significant" in sentence
    assert "the largest is -10.0 points [-10.5, -9.5] at m10" in sentence


def test_ladder_reads_each_pairing_by_its_interval():
    ladder = pd.DataFrame({"rung": [0, 1, 2], "policy": ["random", "greedy", "ismcts"], "rating": [-200.0, 0, 200],
                           "ci_low": [-300.0, -50, 100], "ci_high": [-100.0, 50, 300]})
    pairwise = pd.DataFrame({"policy": ["greedy", "ismcts"], "opponent": ["random", "greedy"], "wins": [90, 55],
                             "games": [100, 100], "win_rate": [0.9, 0.55], "ci_low": [0.83, 0.45],
                             "ci_high": [0.95, 0.65]})
    first, top, second = findings.ladder_findings({"ladder": ladder, "ladder_pairwise": pairwise})
    assert first.startswith("Strongest: ismcts") and "ismcts > greedy > random" in first
    assert top.startswith("ismcts finished ahead of greedy in 55.0% [45.0, 65.0]") and "cannot be told apart" in top
    assert second.endswith("clearly stronger.")


def test_points_by_name_names_each_sweep_point_and_is_empty_without_the_table():
    from tyrsim.core.report.findings import points_by_name

    swept = pd.DataFrame({"tie_rule": ["reroll", "reroll", "defender"], "policy": ["a", "b", "a"], "x": [1, 2, 3]})
    points = points_by_name({"by_policy": swept}, "by_policy", "policy")
    assert list(points) == ["With tie rule = reroll: ", "With tie rule = defender: "]  # a table no report named
    assert points["With tie rule = reroll: "]["x"].tolist() == [1, 2]
    assert list(points_by_name({"by_policy": swept.iloc[:, 1:]}, "by_policy", "policy")) == [""]
    assert points_by_name({"by_policy": swept.iloc[:0]}, "by_policy", "policy") == {}
    assert points_by_name({}, "by_policy", "policy") == {}


def test_every_finding_names_the_policies_that_produced_it():
    from tyrsim.core.report.pages import named_players

    tuned = "hunter:weights=bundled:hunter_tuned.toml"
    said = ["No evidence that any seat has an edge (chi-square p = 0.3): seat 0 wins 35.0% [32.0, 38.1].",
            f"{tuned} scores 24.71 [24.46, 24.96] points a game"]
    named = named_players(said, [{"policies": (tuned,) * 3}, {"policies": (tuned,) * 3}])
    assert named[0] == said[0][:-1] + " (played by three tuned hunter players)."
    assert named[1] == said[1]  # it names its policy already
    # a sweep over the policies names each point's in its sentences
    assert named_players(said, [{"policies": ("hunter", "breeder")}, {"policies": ("hunter", "contractor")}]) == said
    assert named_players(said, [{"fights": 10}]) == said  # nobody played: computed odds


@dataclass(frozen=True)
class ToyRules(RuleSet):
    """Two rulings, declared as a game declares them."""

    ships_pass: bool = rule(True, "a ship may pass through spaces without a chip", ruling=True)
    board: str = rule("", "board data file", data_file=True, ruling=("bundled:board_alt.toml",))


def test_a_rulings_sweep_names_each_point_and_each_reading_in_words():
    quiet = {"games": 40, "answers_moved": 0, "counters_moved": 0}
    ranking = pd.DataFrame([
        {"players": 3, "rank": 1, "ruling": "ships_pass", "alternative": "False", **quiet, "games": 8000,
         "games_changed": 7822,
         "answers_moved": 1, "answer_measure": "mean_score", "answer_difference": 1.5, "answer_low": 0.5,
         "answer_high": 2.5, "answer_size": 0.2},
        {"players": 3, "rank": 2, "ruling": "board", "alternative": "bundled:board_alt.toml", **quiet,
         "games_changed": 0},
        {"players": 2, "rank": 1, "ruling": "board", "alternative": "bundled:board_alt.toml", **quiet,
         "games_changed": 3},
        {"players": 2, "rank": 2, "ruling": "ships_pass", "alternative": "False", **quiet, "games_changed": 0}])
    ranking.attrs[findings.PHRASES] = {"players": {3: "with number of players set to 3", 2: "with two players"}}
    found = findings.rulings_findings({"ruling_ranking": ranking}, ToyRules)
    assert found == ["With number of players set to 3: 1 of 2 alternative readings of the rulebook moved an answer "
                     "(win rates, score, seat balance, margin, length) significantly after the Holm correction: when "
                     "a ship may not pass through spaces without a chip.",
                     "With number of players set to 3: when a ship may not pass through spaces without a chip: "
                     "changed 7,822 of 8,000 games; moves mean score by +1.5 [0.5, 2.5] (+0.20 sd), significant "
                     "after Holm's correction.",
                     "With two players: 0 of 2 alternative readings of the rulebook moved an answer (win rates, "
                     "score, seat balance, margin, length) significantly after the Holm correction.",
                     "With two players: with the board from board_alt.toml: changed 3 of 40 games; no answer (win "
                     "rates, score, seat balance, margin, length) moved significantly."]
