"""Tyranno Ex combat: the rulebook fight, exact odds properties, Monte Carlo against exact."""

import math

import numpy as np
import pandas as pd
import pytest

from tyrsim.core.engine.rules import RuleError
from tyrsim.games.tyranno_ex import combat
from tyrsim.games.tyranno_ex.rules import Rules

# The rulebook's example fight: A has strength 3 and 2 dice, B no die (strength 1) and 7 dice.
RULEBOOK_ROLLS = [
    ((2, 5), (1, 2, 3, 3, 3, 5, 5)),
    ((1, 4), (2, 2, 3, 4, 4, 6, 6)),
    ((4, 5), (1, 1, 3, 4, 4, 6, 6)),
    ((3, 4), (1, 1, 3, 4, 5, 5, 5)),
]


def test_rulebook_example_fight_ends_2_1_for_b_round_by_round():
    fight = combat.resolve_fight(3, 2, combat.strength(None), 7, rolls=RULEBOOK_ROLLS)
    assert [(r.attacker_hits, r.defender_hits) for r in fight.rolls] == [(1, 1), (1, 0), (0, 2), (1, 2)]
    assert [r.winner for r in fight.rolls] == [None, "attacker", "defender", "defender"]
    assert fight.winner == "defender"
    assert (fight.attacker_rounds, fight.defender_rounds) == (1, 2)
    # B (no die, strength 1) was not stronger than A: it gains a die showing 2;
    # A lost 2:1: face down, its die falls from 3 to 2.
    effects = combat.fight_effects(winner_die=None, loser_die=3, loser_rounds=fight.loser_rounds)
    # B has no die to raise ("raise their strength die"; `winner_without_die`); A's die falls from 3 to 2
    assert effects == combat.Effects(winner_die=None, loser_die=2, loser_eliminated=False, loser_face_down=True)


def test_rolls_running_out_is_an_error():
    with pytest.raises(ValueError, match="ran out"):
        combat.resolve_fight(3, 2, 1, 7, rolls=RULEBOOK_ROLLS[:2])


def test_rolls_must_match_the_dice():
    with pytest.raises(ValueError, match="needs 2 attacker"):
        combat.resolve_fight(3, 2, 1, 7, rolls=[((1,), (1,) * 7)])


@pytest.mark.parametrize(
    "winner_die, loser_die, loser_rounds, expected",
    [
        (3, 5, 0, combat.Effects(4, 5, True, False)),  # weaker winner rises; 2:0 eliminates
        (5, 3, 1, combat.Effects(5, 2, False, True)),  # stronger winner stays; 2:1 loser falls
        (4, 4, 1, combat.Effects(5, 3, False, True)),  # equal strength counts as "not higher"
        (6, 6, 0, combat.Effects(6, 6, True, False)),  # capped at 6
        (None, None, 1, combat.Effects(None, None, False, True)),  # no die to raise, none to lower
        (2, 1, 1, combat.Effects(2, 1, False, True)),  # a die never falls below 1
    ],
)
def test_fight_effects(winner_die, loser_die, loser_rounds, expected):
    assert combat.fight_effects(winner_die, loser_die, loser_rounds) == expected


def test_a_winner_without_a_die_earns_one_under_the_other_reading():
    """`winner_without_die = "earns_die"`: strength 1 ("its rolls only hit on a 1") raised by 1 is a die
    showing 2; the loser's effects stay as they are."""
    rules = Rules(winner_without_die="earns_die")
    assert combat.fight_effects(None, 3, 1, rules) == combat.Effects(2, 2, False, True)
    assert combat.fight_effects(None, None, 1, rules) == combat.Effects(2, None, False, True)
    assert combat.fight_effects(6, 3, 1, rules) == combat.Effects(6, 2, False, True)  # stronger: stays
    assert combat.fight_effects(2, 3, 1) == combat.Effects(3, 2, False, True)  # by default a die still rises


def test_resolve_fight_with_rng_is_reproducible_and_valid():
    a = combat.resolve_fight(3, 4, 2, 5, rng=np.random.default_rng(5))
    b = combat.resolve_fight(3, 4, 2, 5, rng=np.random.default_rng(5))
    assert a == b
    assert a.winner in ("attacker", "defender")
    assert max(a.attacker_rounds, a.defender_rounds) == 2


@pytest.fixture(scope="module")
def full_table():
    return combat.odds(range(1, 7), range(31), range(1, 7), range(31))


def test_full_table_shape_and_columns(full_table):
    assert len(full_table) == 6 * 31 * 6 * 31 == 34_596
    assert list(full_table.columns) == [
        "attacker_strength", "attacker_dice", "defender_strength", "defender_dice", "method",
        "p_attacker_2_0", "p_attacker_2_1", "p_defender_2_1", "p_defender_2_0",
        "p_attacker_wins", "p_round_tie", "expected_rolls", "decisive",
    ]


def test_exact_probabilities_sum_to_one(full_table):
    decisive = full_table[full_table["decisive"]]
    total = decisive[["p_attacker_2_0", "p_attacker_2_1", "p_defender_2_1", "p_defender_2_0"]].sum(axis=1)
    assert np.allclose(total, 1.0, atol=1e-12)
    assert (decisive["p_round_tie"] < 1).all()
    assert decisive["p_attacker_wins"].between(0.0, 1.0).all()  # never 1 + a rounding error


def test_swapping_sides_mirrors_the_odds(full_table):
    swapped = combat.odds_table(
        full_table.rename(
            columns={
                "attacker_strength": "defender_strength", "defender_strength": "attacker_strength",
                "attacker_dice": "defender_dice", "defender_dice": "attacker_dice",
            }
        ),
        Rules(),
    )
    for mine, theirs in [("p_attacker_2_0", "p_defender_2_0"), ("p_attacker_2_1", "p_defender_2_1")]:
        assert np.allclose(full_table[mine], swapped[theirs], equal_nan=True, atol=1e-12)
    assert np.allclose(full_table["expected_rolls"], swapped["expected_rolls"], equal_nan=True)


@pytest.mark.parametrize("tie_rule", ["reroll", "attacker", "defender"])
def test_more_dice_or_strength_never_lowers_a_sides_chance(tie_rule):
    rules = Rules(tie_rule=tie_rule)
    table = combat.odds(range(1, 7), range(31), range(1, 7), range(0, 31, 3), rules)
    cube = table.set_index(combat.MATCHUP)["p_attacker_wins"].unstack(["defender_strength", "defender_dice"])
    for step in ("attacker_dice", "attacker_strength"):
        other = "attacker_strength" if step == "attacker_dice" else "attacker_dice"
        steps = cube.unstack(other).diff().to_numpy()  # rows: the quantity that grows
        assert (steps[~np.isnan(steps)] >= -1e-12).all(), step


def test_closed_cases_by_hand():
    row = combat.odds(6, 1, 1, 0).iloc[0]
    assert row["p_attacker_2_0"] == 1.0 and row["p_attacker_wins"] == 1.0
    assert row["expected_rolls"] == 2.0 and row["p_round_tie"] == 0.0
    # strength 1 with one die against no dice: each roll hits with 1/6, else a tie
    row = combat.odds(1, 1, 3, 0).iloc[0]
    assert row["p_attacker_2_0"] == pytest.approx(1.0)
    assert row["p_round_tie"] == pytest.approx(5 / 6)
    assert row["expected_rolls"] == pytest.approx(12.0)
    # one die each, both strength 3: symmetric, a roll is a tie with 1/2
    row = combat.odds(3, 1, 3, 1).iloc[0]
    assert row["p_attacker_wins"] == pytest.approx(0.5)
    assert row["p_attacker_2_0"] == pytest.approx(0.25)
    assert row["p_round_tie"] == pytest.approx(0.5)
    assert row["expected_rolls"] == pytest.approx(2.5 / 0.5)


@pytest.mark.parametrize("matchup", [(1, 0, 1, 0), (6, 4, 6, 4), (6, 0, 3, 0), (4, 0, 6, 0), (6, 3, 6, 3)])
def test_fights_that_can_never_end_are_not_decisive(matchup):
    row = combat.odds(*matchup).iloc[0]
    assert not row["decisive"]
    assert math.isnan(row["p_attacker_wins"]) and row["p_round_tie"] == 1.0
    assert math.isinf(row["expected_rolls"])
    mc = combat.simulate(*matchup, n_fights=1000, seed=1).iloc[0]
    assert not mc["decisive"] and mc["n_fights"] == 0 and math.isnan(mc["p_attacker_wins"])
    assert combat.resolve_fight(*matchup, rng=np.random.default_rng(0)).winner is None


def test_tie_rule_makes_a_sure_tie_decisive():
    row = combat.odds(6, 3, 6, 3, Rules(tie_rule="defender")).iloc[0]
    assert row["decisive"] and row["p_defender_2_0"] == 1.0 and row["expected_rolls"] == 2.0


def test_nearly_sure_ties_are_still_decisive_and_finite():
    row = combat.odds(1, 1, 1, 0).iloc[0]  # a hit only on a 1 with one die
    assert row["decisive"] and np.isfinite(row["expected_rolls"])


def _within(mc, exact, n, k=5.0):
    se = np.sqrt(np.maximum(exact * (1 - exact), 1e-12) / n)
    return np.abs(mc - exact) <= k * se + 1e-12


SPREAD = dict(
    attacker_strength=[1, 3, 6], attacker_dice=[1, 2, 5, 12], defender_strength=[1, 4], defender_dice=[0, 3, 7]
)


@pytest.mark.parametrize(
    "rules",
    [Rules(), Rules(tie_rule="attacker"), Rules(tie_rule="defender"), Rules(rounds_to_win=3), Rules(rounds_to_win=1)],
    ids=["reroll", "attacker", "defender", "rounds3", "rounds1"],
)
def test_monte_carlo_agrees_with_exact(rules):
    n = 20_000
    exact = combat.odds(*SPREAD.values(), rules=rules)
    mc = combat.simulate(*SPREAD.values(), n_fights=n, seed=2024, rules=rules)
    assert (mc[combat.MATCHUP].to_numpy() == exact[combat.MATCHUP].to_numpy()).all()
    decisive = exact["decisive"].to_numpy()
    assert (mc["decisive"].to_numpy() == decisive).all()
    for col in [*combat.outcome_columns(rules), "p_attacker_wins"]:
        assert _within(mc[col][decisive], exact[col][decisive], n).all(), col
    # the tie share is over rolls; expected rolls: the mean of n fights, its sd at most ~ the mean times 2
    rolls = mc["n_fights"] * mc["expected_rolls"]
    assert _within(mc["p_round_tie"][decisive], exact["p_round_tie"][decisive], rolls[decisive]).all()
    rel = np.abs(mc["expected_rolls"] / exact["expected_rolls"] - 1)[decisive]
    assert (rel < 5 * 2 / np.sqrt(n)).all()
    # the Wilson interval is reported and brackets the estimate
    assert ((mc["ci_low"] <= mc["p_attacker_wins"]) & (mc["p_attacker_wins"] <= mc["ci_high"]))[decisive].all()


def test_round_distribution_equals_rolling_dice():
    rng = np.random.default_rng(11)
    n = 200_000
    for matchup in [(3, 2, 1, 7), (5, 4, 2, 9), (1, 6, 6, 1)]:
        exact = np.array([p[0] for p in combat.round_probabilities(*matchup)])
        rolled = np.array(combat.round_check(*matchup, n, rng))
        assert _within(rolled, exact, n).all(), matchup


def test_same_seed_same_output_different_seed_different_output():
    args = (3, 2, [1, 2], [5, 7])
    a = combat.simulate(*args, n_fights=5000, seed=7)
    b = combat.simulate(*args, n_fights=5000, seed=7)
    c = combat.simulate(*args, n_fights=5000, seed=8)
    pd.testing.assert_frame_equal(a, b)
    assert not a["p_attacker_wins"].equals(c["p_attacker_wins"])


def test_counts_of_separate_runs_add_up():
    rules = Rules()
    table = combat.matchups(3, 2, 1, 7, rules)
    parts = [combat.simulate_counts(table, 1000, np.random.default_rng(s), rules) for s in (1, 2)]
    merged = combat.summarize_counts(pd.concat(parts), rules)
    assert merged["n_fights"].iloc[0] == 2000


def test_out_of_range_matchups_are_rejected():
    with pytest.raises(ValueError, match="attacker strength must be from 1 to 6"):
        combat.odds(7, 1, 1, 1)
    with pytest.raises(ValueError, match="defender dice must be from 0 to 30"):
        combat.odds(1, 1, 1, 31)
    with pytest.raises(ValueError, match="attacker dice"):
        combat.resolve_fight(1, -1, 1, 1, rng=np.random.default_rng(0))


def test_rules_are_validated():
    with pytest.raises(RuleError, match="tie_rule"):
        Rules.from_overrides({"tie_rule": "coin"})
    with pytest.raises(RuleError, match="max_strength"):
        Rules.from_overrides({"max_strength": "7"})
    with pytest.raises(RuleError, match="unknown rule"):
        Rules.from_overrides({"strength": 3})
    with pytest.raises(RuleError, match="rounds_to_win"):
        Rules.from_overrides({"rounds_to_win": "two"})
    assert Rules.from_overrides({"rounds_to_win": "3"}).rounds_to_win == 3


def test_larger_dice_variant_is_honoured():
    rules = Rules(die_faces=8, max_strength=8, max_dice=40)
    row = combat.odds(8, 40, 1, 0, rules).iloc[0]
    assert row["p_attacker_2_0"] == 1.0
    row = combat.odds(4, 1, 1, 0, rules).iloc[0]
    assert row["p_round_tie"] == pytest.approx(0.5)
