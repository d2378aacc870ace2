"""What a combat report page opens with: its findings (on hand-built tables and a tiny real run), its summary's
means with intervals, its glossary, and the player files it holds."""

import re

import numpy as np
import pandas as pd
import pytest

from tyrsim.core.report.pages import build_report
from tyrsim.core.run.scenario import load_scenario
from tyrsim.core.run.sweep import run_scenario
from tyrsim.games import get_game
from tyrsim.games.tyranno_ex import combat
from tyrsim.games.tyranno_ex.combat_analysis import COMBAT, SUMMARY_COLUMNS, odds_tables, report_files, summary
from tyrsim.games.tyranno_ex.combat_words import combat_findings
from tyrsim.games.tyranno_ex.rules import Rules


def _summary_row(method="exact", matchups=200, wins=0.55, favoured=120, upset=0.08, tie=0.2, rolls=2.6,
                 endless=0, half=np.nan):
    return {"method": method, "matchups": matchups, "mean_p_attacker_wins": wins,
            "mean_p_attacker_wins_low": wins - half, "mean_p_attacker_wins_high": wins + half,
            "attacker_favoured": favoured, "mean_p_upset": upset, "mean_p_upset_low": upset - half,
            "mean_p_upset_high": upset + half, "mean_p_round_tie": tie, "mean_expected_rolls": rolls,
            "endless": endless}


def test_one_exact_point_reads_the_attacker_the_underdog_and_the_endless_fights():
    tables = {"summary": pd.DataFrame([_summary_row(endless=6)], columns=SUMMARY_COLUMNS)}
    first, underdog, endless = combat_findings(tables, Rules(), {})
    assert first == ("With ties rerolled and 2 won rounds to win (the rulebook's), the attacker wins 55.0% of fights "
                     "(exact odds) on average over the 200 matchups that can end, and is the favourite in 120 "
                     "(60.0%).")
    assert underdog == ("The underdog, the side less likely to win a single round, still wins 8.0% of its fights on "
                        "average; a fight takes 2.60 rolls on average, and 20.0% of rolls are tied.")
    assert endless.startswith("6 of the 206 matchups can never end") and "left out" in endless
    # a variant rule is named, and without endless fights there is no sentence about them
    tables = {"summary": pd.DataFrame([_summary_row()], columns=SUMMARY_COLUMNS)}
    sentences = combat_findings(tables, Rules(tie_rule="defender"), {})
    assert sentences[0].startswith("With ties won by the defender and 2 won rounds to win, the attacker")
    assert len(sentences) == 2


def test_simulated_points_carry_intervals_and_a_sweep_names_each_point():
    rows = [_summary_row("mc", wins=w, half=0.002) for w in (0.54, 0.67, 0.42)]
    table = pd.DataFrame(rows, columns=SUMMARY_COLUMNS)
    table.insert(0, "tie_rule", ["reroll", "attacker", "defender"])
    attacker, underdog = combat_findings({"summary": table}, Rules(), {})
    assert attacker == ("On average over the 200 matchups that can end, the attacker wins 54.0% [53.8, 54.2] of "
                        "fights with tie rule = reroll, 67.0% [66.8, 67.2] with tie rule = attacker and 42.0% "
                        "[41.8, 42.2] with tie rule = defender (simulated).")
    # no fight length: the simulation gives it no interval
    assert underdog == ("The underdog, the side less likely to win a single round, still wins 8.0% [7.8, 8.2], "
                        "8.0% [7.8, 8.2] and 8.0% [7.8, 8.2] of its fights (in the same order).")
    # exact points add the fight length; more points than are named say so
    rows = [_summary_row(rolls=r) for r in (1.2, 2.7, 4.2, 5.5)]
    table = pd.DataFrame(rows, columns=SUMMARY_COLUMNS)
    table.insert(0, "rounds_to_win", [1, 2, 3, 4])
    attacker, underdog = combat_findings({"summary": table}, Rules(), {})
    assert attacker.endswith("with rounds to win = 3 (exact odds; the first 3 of 4 points).")
    assert underdog.endswith("(in the same order), and a fight takes 1.20, 2.70 and 4.20 rolls.")


def test_the_simulation_is_checked_against_the_exact_odds():
    matchups = combat.matchups([1, 3], [1, 2, 4], [2], [1, 3])
    exact = combat.odds_table(matchups, Rules())
    mc = exact.assign(method="mc", n_fights=1000, ci_low=exact["p_attacker_wins"] - 0.01,
                      ci_high=exact["p_attacker_wins"] + 0.01)
    mc.loc[0, ["p_attacker_wins", "ci_low", "ci_high"]] += 0.05  # one matchup's interval misses by 5 points
    odds = pd.concat([exact, mc], ignore_index=True)
    sentence = combat_findings({"odds": odds, "summary": summary(odds, Rules())}, Rules(), {})[-1]
    assert sentence.startswith("The simulation agrees with the exact odds: the exact chance lies inside the "
                               "simulation's 95% interval in 11 of the 12 matchups (91.7%; about 95% expected)")
    assert sentence.endswith("the largest gap is 5.00 points.")


def test_summary_means_have_intervals_only_when_simulated():
    rules = Rules()
    raw = combat.simulate_counts(combat.matchups([1, 4], [0, 2, 5], [1, 3], [0, 3]), 4000, np.random.default_rng(5),
                                 rules)
    args = COMBAT.check_args({"attacker_strength": [1, 4], "attacker_dice": [0, 2, 5], "defender_strength": [1, 3],
                              "defender_dice": [0, 3], "method": "both", "fights": 4000})
    table = odds_tables(raw, rules, args)["summary"].set_index("method")
    exact, mc = table.loc["exact"], table.loc["mc"]
    assert np.isnan(exact["mean_p_attacker_wins_low"]) and np.isnan(exact["mean_p_upset_high"])
    assert exact["endless"] == mc["endless"] == 4  # no dice on either side, each pair of strengths
    assert exact["matchups"] == mc["matchups"] == 20
    # each simulated mean's interval is 1.96 standard errors wide, and the exact mean lies within 3 of them
    odds = combat.odds([1, 4], [0, 2, 5], [1, 3], [0, 3])
    p = odds.loc[odds["decisive"], "p_attacker_wins"]
    se = np.sqrt(np.sum(p * (1 - p) / 4000)) / len(p)
    for name in ("mean_p_attacker_wins", "mean_p_upset"):
        half = (mc[f"{name}_high"] - mc[f"{name}_low"]) / 2
        assert abs(mc[name] - exact[name]) < 3 * half / 1.96
    half = (mc["mean_p_attacker_wins_high"] - mc["mean_p_attacker_wins_low"]) / 2
    assert half == pytest.approx(1.96 * se, rel=0.1)


def test_a_table_of_fights_that_never_end_still_has_a_summary():
    odds = combat.odds([1, 6], 0, [2], 0)
    row = summary(odds, Rules()).iloc[0]
    assert row["matchups"] == 0 and row["endless"] == 2 and np.isnan(row["mean_p_attacker_wins"])
    assert combat_findings({"odds": odds, "summary": summary(odds, Rules())}, Rules(), {}) == [
        "2 of the 2 matchups can never end (neither side has dice, or both hit with every die and roll as many "
        "dice, and tied rolls are rolled again); they are left out of these averages."]


def test_the_glossary_explains_the_measures_and_the_endless_matchups():
    for column in ("mean_p_upset", "decisive", "p_attacker_2_1", "p_defender_3_0", "expected_rolls", "endless"):
        assert column in COMBAT.glossary
    assert "66" in COMBAT.glossary["decisive"] and "summary leaves them out" in COMBAT.glossary["decisive"]
    assert "less likely to win a single" in COMBAT.glossary["mean_p_upset"]


SCENARIO = """
title = "tiny"
game = "tyranno-ex"
analysis = "combat"
seed = 3
[args]
attacker_strength = [1, 3]
attacker_dice = [0, 2]
defender_strength = [1, 6]
defender_dice = [0, 3]
method = "{method}"
fights = 3000
{sweep}
"""


@pytest.mark.parametrize("method, sweep", [
    ("both", ""),
    ("mc", '[sweep.rules]\ntie_rule = ["reroll", "defender"]'),
])
def test_a_tiny_real_run_reads_with_intervals_and_no_nan(tmp_path, method, sweep):
    path = tmp_path / "tiny.toml"
    path.write_text(SCENARIO.format(method=method, sweep=sweep))
    scenario = load_scenario(path, games=get_game)
    report = build_report(scenario, run_scenario(scenario, progress=False), 0.0)
    assert 2 <= len(report.findings) <= 5
    for sentence in report.findings:
        assert not re.search(r"\bnan\b|not computable", sentence, re.IGNORECASE), sentence
        assert re.search(r"\d", sentence), sentence
        if "(simulated)" in sentence:
            assert re.search(r"\d% \[\d", sentence), sentence  # a simulated share has its interval
    if sweep:  # one sheet cannot stand for two tie rules: a sweep of a fight rule gets no player files
        assert report.files == {}
        assert any("with 'defender' for a round with equal hits" in s for s in report.findings)
        assert any(s.startswith("4 of the 16 matchups can never end with 'reroll' for a round with equal hits (")
                   for s in report.findings)
    else:
        assert sorted(report.files) == ["cheat_sheet.pdf", "cheat_sheet.png", "odds.html"]


def test_player_files_follow_the_page_rules_unless_a_fight_rule_is_swept():
    odds = combat.odds(1, 1, 1, 1)
    plain = report_files({"odds": odds}, Rules(max_dice=0), {})  # no dice: no sheet, but the calculator
    assert list(plain) == ["odds.html"]
    other = odds.assign(deck_file="x")[["deck_file", *odds.columns]]  # a swept rule that no fight reads
    assert report_files({"odds": other}, Rules(max_dice=0), {}) == plain
    for rule in ("tie_rule", "rounds_to_win", "die_faces", "max_strength", "max_dice"):
        swept = odds.assign(**{rule: 1})[[rule, *odds.columns]]
        assert report_files({"odds": swept}, Rules(), {}) == {}
