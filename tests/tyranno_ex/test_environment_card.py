"""The environment card on its own, and the vectorized survival kernel checked against it and exactly."""

from __future__ import annotations

import numpy as np
import pytest

from tyrsim.games.tyranno_ex.analysis import PATTERNS, SURVIVAL, lay_chips, pattern_outcomes
from tyrsim.games.tyranno_ex.environment import Bag, Environment
from tyrsim.games.tyranno_ex.rules import Rules

SUN, WATER, LEAF, BONE = range(4)


def test_bag_draws_without_replacement_and_runs_out():
    bag = Bag([1, 0, 2, 0])
    rng = np.random.default_rng(0)
    drawn = bag.draw(5, rng)
    assert drawn == [1, 0, 2, 0] and bag.total() == 0
    assert bag.draw(2, rng) == [0, 0, 0, 0]


def test_present_and_chips_per_symbol():
    env = Environment([SUN, SUN, LEAF, BONE], [2, 1, 3, 1])
    assert env.present() == 0b1101
    assert env.chips_of() == [3, 0, 3, 1]


def test_resolve_stops_at_a_tie_for_the_chooser():
    env = Environment([SUN, WATER, LEAF, BONE])
    bag = Bag([0, 0, 0, 0])
    env.potential[0] = [0, 1, 1, 0]
    changes, ties, tied = env.resolve(0, "chooser", bag, np.random.default_rng(0))
    assert (changes, ties, tied) == (0, 1, [WATER, LEAF])
    assert env.current[0] == SUN and bag.chips == [0, 0, 0, 0]  # nothing moves before the choice


@pytest.mark.parametrize(("majority", "expected"), [("most", (1, SUN, 3)), ("over_half", (0, BONE, 2))])
def test_resolve_takes_the_most_chips_or_only_more_than_half(majority, expected):
    env = Environment([BONE, WATER, LEAF, BONE], [2, 1, 1, 1])
    env.potential[0] = [3, 2, 1, 0]  # 6 revealed: sun has the most (3), but not more than half
    changes, ties, tied = env.resolve(0, "no_change", Bag([0, 0, 0, 0]), np.random.default_rng(0), majority)
    assert (changes, env.current[0], env.current_count[0]) == expected and (ties, tied) == (0, None)


@pytest.mark.parametrize("tie", ["no_change", "empty"])
@pytest.mark.parametrize("majority", ["most", "over_half"])
def test_kernel_matches_the_environment_card_chip_by_chip(majority, tie):
    rng = np.random.default_rng(5)
    trials, steps = 200, 30
    opening = rng.integers(4, size=(trials, 4))
    spaces = rng.integers(4, size=(trials, steps))
    symbols = rng.integers(4, size=(trials, steps))
    rules = Rules(majority=majority, majority_tie=tie)  # deterministic: both sides must agree exactly
    out = lay_chips(opening, spaces, symbols, rules, rng, {10, steps})
    for t in range(trials):
        env = Environment(list(opening[t]))
        bag = Bag([100] * 4)
        for j in range(steps):
            env.set_chip(int(spaces[t, j]), int(symbols[t, j]))
            env.resolve(int(spaces[t, j]), tie, bag, rng, majority)
            if j + 1 == 10:
                assert list(out[10][t]) == env.chips_of()
        assert list(out[steps][t]) == env.chips_of()


@pytest.mark.parametrize(("pattern", "exact"), [("aaa", 1 - 0.75**4), ("aab", 1 - 0.5**4), ("abc", 1 - 0.25**4)])
def test_kernel_survival_at_set_up_matches_the_exact_chance(pattern, exact):
    """With 4 uniform opening chips, a card dies only if none of its k symbols was drawn: (1 - k/4)^4."""
    rng = np.random.default_rng(11)
    n = 40_000
    chips = lay_chips(rng.integers(4, size=(n, 4)), np.zeros((n, 0), int), np.zeros((n, 0), int),
                      Rules(), rng, {0})[0]  # fmt: skip
    survive, dice = pattern_outcomes(chips, pattern)
    se = np.sqrt(exact * (1 - exact) / n)
    assert abs(survive.mean() - exact) < 5 * se + 1e-9
    assert np.allclose(dice, 3.0)  # 4 chips, 3 printed symbols: 3 dice on average over symbol choices


def test_survival_analysis_tables_have_intervals():
    args = SURVIVAL.check_args({"chips": [0, 6], "trials": 2000})
    rules = Rules()
    raw = SURVIVAL.run(rules, args, 0, 2000, np.random.default_rng(1))
    table = SURVIVAL.tables(raw, rules, args)["survival"]
    assert set(table["pattern"]) == set(PATTERNS) and set(table["chips"]) == {0, 6}
    assert (table["survival_low"] <= table["survival"]).all() and (table["survival"] <= table["survival_high"]).all()
    ordered = table[table["chips"] == 6].set_index("pattern")["survival"]
    assert ordered["aaa"] < ordered["aab"] < ordered["abc"]  # more distinct symbols, better odds


def test_survival_in_play_from_a_policy_mix():
    args = SURVIVAL.check_args({"source": "games", "policies": ["greedy", "random"], "trials": 6})
    rules = Rules()
    raw = SURVIVAL.run(rules, args, 0, 6, np.random.default_rng(3))
    table = SURVIVAL.tables(raw, rules, args)["survival_in_play"]
    assert set(table["policy"]) == {"greedy", "random"} and set(table["pattern"]) == set(PATTERNS)
    checked = table[table["checked"] > 0]
    assert (checked["survived"] <= checked["checked"]).all()
    assert checked["survival"].between(checked["survival_low"], checked["survival_high"]).all()
    metric = SURVIVAL.metrics["survival_in_play"].estimate(raw, rules, args)
    assert len(metric) == len(table) and SURVIVAL.metrics["survival"].estimate(raw, rules, args).empty
