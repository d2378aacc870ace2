"""What a survival report page opens with: survival by symbol pattern, what the chips laid change, the dice a
card would fight with (kernel), or the checks passed in games and which policy keeps its cards best."""

import re

import pandas as pd

from tyrsim.core.report.pages import build_report
from tyrsim.core.run.scenario import load_scenario
from tyrsim.core.run.sweep import run_scenario
from tyrsim.games import get_game
from tyrsim.games.tyranno_ex.analysis import SURVIVAL
from tyrsim.games.tyranno_ex.rules import Rules
from tyrsim.games.tyranno_ex.survival_findings import survival_findings


def _kernel_rows(chips, shares, dice=3.0, dice_half=0.0, half=0.005):
    return [{"chips": chips, "pattern": pattern, "n": 1000, "distinct_symbols": k, "survival": share,
             "survival_low": share - half, "survival_high": share + half, "mean_dice": dice,
             "mean_dice_low": dice - dice_half, "mean_dice_high": dice + dice_half}
            for (pattern, k), share in zip((("aaa", 1), ("aab", 2), ("abc", 3)), shares, strict=True)]


def test_kernel_survival_by_pattern_most_distinct_symbols_first():
    table = pd.DataFrame(_kernel_rows(0, (0.685, 0.938, 0.995)) + _kernel_rows(24, (0.684, 0.937, 0.996), 5.9, 0.02))
    first, chips, dice = survival_findings({"survival": table}, Rules(), {})
    assert first == ("On a fresh environment card (no chips laid), a card survives an environment phase 99.5% "
                     "[99.0, 100.0] with three different symbols, 93.8% [93.3, 94.3] with a doubled symbol and 68.5% "
                     "[68.0, 69.0] with one symbol three times; after 24 chips laid at random, 99.6% [99.1, 100.1], "
                     "93.7% [93.2, 94.2] and 68.4% [67.9, 68.9].")
    assert chips.startswith("Laying chips at random does not measurably change these chances")
    assert dice == ("Whatever its symbol pattern, a card would fight with 3.00 dice on average on a fresh "
                    "environment card (no chips laid) and 5.90 [5.88, 5.92] after 24 chips laid at random.")


def test_a_change_the_intervals_show_is_named():
    table = pd.DataFrame(_kernel_rows(0, (0.685, 0.938, 0.995)) + _kernel_rows(24, (0.60, 0.937, 0.996)))
    table.insert(0, "majority_tie", "chooser")
    sentences = survival_findings({"survival": table}, Rules(), {})
    assert sentences[0].startswith("With majority tie = chooser: on a fresh environment card")
    assert sentences[1] == ("Laying chips at random changes the chance for one symbol three times with majority "
                            "tie = chooser (the intervals are apart).")


def _games_rows(policy, checked_survived):
    return [{"policy": policy, "pattern": pattern, "checked": checked, "survived": survived,
             "distinct_symbols": k} for (pattern, k), (checked, survived)
            in zip((("aaa", 1), ("aab", 2), ("abc", 3)), checked_survived, strict=True)]


def test_games_pool_the_policies_and_name_the_one_that_keeps_its_cards():
    rows = _games_rows("builder", [(0, 0), (400, 360), (600, 594)]) + _games_rows("random", [(0, 0), (400, 250),
                                                                                              (600, 480)])
    pooled, best = survival_findings({"survival_in_play": pd.DataFrame(rows)}, Rules(), {})
    assert pooled.startswith("In play, cards pass their survival checks 89.5% [") and "with three different" in pooled
    assert "(no card with one symbol three times was checked: the deck may have none)" in pooled
    assert best.startswith("The builder policy keeps its cards best: the builder policy's cards pass 95.4% [")
    rows = _games_rows("builder", [(0, 0), (40, 36), (60, 59)]) + _games_rows("greedy", [(0, 0), (40, 35), (60, 59)])
    best = survival_findings({"survival_in_play": pd.DataFrame(rows)}, Rules(), {})[1]
    assert best.startswith("No policy keeps its cards measurably best (builder and greedy cannot be told apart")


SCENARIO = """
title = "tiny"
game = "tyranno-ex"
analysis = "survival"
seed = 5
[args]
{args}
{sweep}
"""


def test_tiny_real_runs_read_with_intervals_and_no_nan(tmp_path):
    runs = [('chips = [0, 8]\ntrials = 3000', '[sweep.rules]\nmajority_tie = ["chooser", "no_change"]'),
            ('source = "games"\npolicies = ["greedy", "random", "greedy", "random"]\ntrials = 4', "")]
    for args, sweep in runs:
        path = tmp_path / "tiny.toml"
        path.write_text(SCENARIO.format(args=args, sweep=sweep))
        scenario = load_scenario(path, games=get_game)
        report = build_report(scenario, run_scenario(scenario, progress=False), 0.0)
        assert 2 <= len(report.findings) <= 5
        for sentence in report.findings:
            assert not re.search(r"\bnan\b|not computable", sentence, re.IGNORECASE), sentence
            for share in re.findall(r"\d+\.\d%( \[)?", sentence):
                assert share == " [", sentence  # every share has its interval


def test_the_glossary_covers_both_tables():
    for column in ("chips", "pattern", "survival", "mean_dice", "checked", "survived"):
        assert column in SURVIVAL.glossary
