"""The batch engine plays the same game as the object engine: two-sample tests at fixed seeds.

Object-engine games (`runner.play_chunk`) and batch games (`batch.play_chunk`) of the same
policies and rules are compared on every quantity the analyses report: each seat's score,
points by source, coins and symbol firing counts (per policy and seat), the rounds and
actions of a game, how it ended and the first player's win rate. Means by the two-sample t
test with pooled variance (under the hypothesis of equality both samples have one
distribution; Welch's test would take a sample without any event of a rare kind, such as a
wasted square in 300 games, as exact), shares by the two-proportion z test; the p-values of
one comparison are Holm-adjusted, and the engines pass when none is below LEVEL. With the
seeds fixed the outcome is fixed; LEVEL says how rarely another seed would make a correct
engine fail (about 1 in 1,000 comparisons).

Each policy's comparison is also run against a batch engine with one rule deliberately
broken (the gorilla's target value 4 instead of 3: an off-by-one in one species' interim
scoring), which the same test must reject.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats as scipy_stats

from tyrsim.core import stats
from tyrsim.core.runner import play_chunk as object_games
from tyrsim.games.zooloretto_duell import SPEC
from tyrsim.games.zooloretto_duell.batch import play_chunk as batch_games
from tyrsim.games.zooloretto_duell.batch_policies import batch_policy
from tyrsim.games.zooloretto_duell.rules import Rules

LEVEL = 0.001
SEAT_QUANTITIES = ("score", "marker_points", "majority_points", "coin_points", "minus_points", "coins", "lightning",
                   "heart", "heart_wasted", "square", "square_wasted", "third_symbol", "stand_coin", "steals",
                   "disposals", "minus_disposed", "expert_discards", "interim_markers")
GAME_MEANS = ("rounds", "actions", "win_share")  # win_share of seat 0: the first player's win rate
GAME_SHARES = ("ended_by_card", "ended_by_marker", "ended_by_pile")
# games per comparison (object engine, batch engine): the object engine is the slow side
SIZES = {"random": (2000, 8000), "greedy": (600, 4000), "heuristic": (300, 3000)}
RULE_SETS = {
    "default": {},
    "expert": {"expert": True},
    # two points of the default report's sweeps: the marker values, and the explore analysis's rules
    "steep markers": {"marker_points": (6, 5, 4, 3, 2, 1, 1)},
    "cheap money actions": {"money_action_cost": 1, "majority_points": 2, "coins_per_point": 3},
}
BROKEN = {"target_values": (4, 4, 5, 6, 7, 8)}


def compare(before: pd.DataFrame, after: pd.DataFrame) -> pd.DataFrame:
    """Every quantity of two simulate tables: object (before) and batch (after) means, p-value, Holm p-value."""
    rows = []

    def means(name: str, x: pd.Series, y: pd.Series) -> None:
        x, y = x.to_numpy(float), y.to_numpy(float)
        if x.std() == 0 and y.std() == 0:
            p = 1.0 if x.mean() == y.mean() else 0.0  # both constant: equal or plainly not
        else:
            p = scipy_stats.ttest_ind(x, y, equal_var=True).pvalue
        rows.append((name, x.mean(), y.mean(), p))

    for (policy, seat), group in before.groupby(["policy", "seat"]):
        other = after[(after["policy"] == policy) & (after["seat"] == seat)]
        for q in SEAT_QUANTITIES:
            means(f"{q} ({policy}, seat {seat})", group[q], other[q])
    first, first_after = before[before["seat"] == 0], after[after["seat"] == 0]
    for q in GAME_MEANS:
        means(q, first[q], first_after[q])
    for q in GAME_SHARES:
        _, _, _, p = stats.compare_proportions(first_after[q].sum(), len(first_after), first[q].sum(), len(first))
        rows.append((q, first[q].mean(), first_after[q].mean(), float(p)))
    table = pd.DataFrame(rows, columns=["quantity", "object", "batch", "p"])
    table["p_holm"] = stats.holm(table["p"])
    return table


def play_both(overrides: dict, texts: tuple[str, str], seed: int, batch_overrides: dict | None = None):
    rules = Rules.from_overrides(overrides)
    policies = [SPEC.make_policy(t) for t in texts]
    n_object, n_batch = SIZES[texts[0]]
    before = object_games(SPEC.make_game(rules, 2), list(texts), policies, 0, n_object, np.random.default_rng(seed))
    batch_rules = rules if batch_overrides is None else rules.replace(batch_overrides)
    after = batch_games(batch_rules, list(texts), [batch_policy(p) for p in policies], 0, n_batch,
                        np.random.default_rng(seed + 1))
    return before, after


def report(table: pd.DataFrame) -> str:
    return table.sort_values("p").head(6).to_string(index=False)


@pytest.mark.parametrize("rule_set", list(RULE_SETS))
@pytest.mark.parametrize("policy", ["random", pytest.param("greedy", marks=pytest.mark.slow),
                                    pytest.param("heuristic", marks=pytest.mark.slow)])
def test_the_engines_play_the_same_game(policy, rule_set):
    overrides = RULE_SETS[rule_set]
    before, after = play_both(overrides, (policy, policy), 20261201)
    table = compare(before, after)
    assert table["p_holm"].min() >= LEVEL, report(table)
    if rule_set == "default":  # the same comparison rejects an engine with one rule broken
        _, broken = play_both(overrides, (policy, policy), 20261201, BROKEN)
        table = compare(before, broken)
        assert table["p_holm"].min() < LEVEL, report(table)


@pytest.mark.slow
def test_the_engines_agree_on_a_mixed_pairing():
    """Seats rotate between two different policies in both engines alike."""
    before, after = play_both({}, ("heuristic", "greedy"), 7)
    table = compare(before, after)
    assert table["p_holm"].min() >= LEVEL, report(table)
    assert set(after["policy"]) == {"heuristic", "greedy"}
