"""The hunt (exact), herd-growth (vectorized kernel) and game analyses."""

import math

import numpy as np
import pandas as pd
import pytest

import tyrsim.games
from tyrsim.core.engine.analysis import ArgumentError
from tyrsim.games.tiny_epic_dinosaurs import SPEC
from tyrsim.games.tiny_epic_dinosaurs.analysis import herd_growth, herd_growth_reference
from tyrsim.games.tiny_epic_dinosaurs.rules import Rules


def test_hunt_die_exact_values():
    odds = Rules().hunt_odds()
    assert odds["dinosaurs"] == pytest.approx(7 / 6)
    assert odds["p_injury"] == pytest.approx(1 / 3) and odds["p_egg"] == pytest.approx(1 / 6)
    assert odds["sd"] == pytest.approx(math.sqrt(5 / 36))
    assert Rules(egg_dinosaurs=3).hunt_odds()["dinosaurs"] == pytest.approx(4 / 3)


def test_hunt_analysis_is_exact_and_compares_with_buying():
    analysis = SPEC.analyses["hunt"]
    assert analysis.trials is None
    raw = analysis.run(Rules(), analysis.check_args({}), 0, 1, np.random.default_rng(0))
    tables = analysis.tables(raw, Rules(), {})
    spaces = tables["spaces"].set_index("action")
    assert spaces.loc["hunt allosaurus", "points"] == pytest.approx(7 / 6 * 3)
    assert spaces.loc["buy herbivore", "cost"] == "1 leaf"
    value = tables["hunt_value"].set_index("quantity")["value"]
    assert value["resources a hunt saves against buying"] == pytest.approx(7 / 6)


@pytest.mark.parametrize(
    ("kind", "start", "enclosures", "capacity", "income"),
    [
        ("stegosaurus", 2, 2, 6, 5),
        ("allosaurus", 4, 1, 12, 3),
        ("brachiosaurus", 6, 3, 2, 8),
        ("raptor", 5, 2, 3, 2),
    ],
)
def test_kernel_matches_the_plain_loop_without_hunts(kind, start, enclosures, capacity, income):
    rules = Rules()
    result = herd_growth(rules, kind, 10, start, enclosures, capacity, income, 0, np.random.default_rng(0))
    expected = herd_growth_reference(rules, kind, start, enclosures, capacity, income, 0, np.random.default_rng(0))
    for r, (herd, unfed, escapes, fences) in enumerate(expected):
        assert set(result["herd"][r]) == {herd}
        assert set(result["unfed"][r]) == {unfed}
        assert set(result["escapes"][r]) == {escapes}
        assert set(result["fences"][r]) == {fences}
    assert any(e for _, _, e, _ in expected) or kind == "stegosaurus"  # the cases exercise escapes


def test_kernel_with_hunts_matches_the_plain_loop_in_distribution():
    rules = Rules()
    args = ("allosaurus", 1, 2, 4, 6, 1)
    n = 4000
    kernel = herd_growth(rules, args[0], n, *args[1:], np.random.default_rng(1))["herd"][-1]
    rng = np.random.default_rng(2)
    loop = np.array([herd_growth_reference(rules, *args, rng)[-1][0] for _ in range(n)])
    se = np.sqrt(kernel.var() / n + loop.var() / n)
    assert abs(kernel.mean() - loop.mean()) < 5 * se + 1e-9


def test_kernel_hunts_match_the_exact_hunt_die():
    rules = Rules(rounds=1, extra_rancher_round=0)
    n = 100_000
    result = herd_growth(rules, "stegosaurus", n, 0, 1, 12, 13, 1, np.random.default_rng(5))
    # one hunt: 1 stegosaurus (5/6), or an egg of 2 that breed a third (1/6)
    values = result["herd"][0]
    exact_mean = 5 / 6 * 1 + 1 / 6 * 3
    exact_sd = math.sqrt(5 / 6 * 1 + 1 / 6 * 9 - exact_mean**2)
    assert abs(values.mean() - exact_mean) < 5 * exact_sd / math.sqrt(n)
    assert set(np.unique(values)) == {1, 3}


def test_herd_growth_analysis_tables_and_bad_kind():
    analysis = SPEC.analyses["herd-growth"]
    args = analysis.check_args({"ranches": 2000, "hunts": 1})
    raw = analysis.run(Rules(), args, 0, 1000, np.random.default_rng(1))
    raw = pd.concat([raw, analysis.run(Rules(), args, 1000, 1000, np.random.default_rng(2))], ignore_index=True)
    table = analysis.tables(raw, Rules(), args)["by_round"]
    assert list(table["round"]) == [1, 2, 3, 4, 5, 6] and set(table["ranches"]) == {2000}
    assert (table["herd_low"] <= table["herd_mean"]).all() and (table["herd_mean"] <= table["herd_high"]).all()
    assert (table["p_shortfall_low"] <= table["p_shortfall"]).all()
    final = analysis.metrics["final_herd"].estimate(raw, Rules(), args)
    assert final["n"].iloc[0] == 2000
    with pytest.raises(ArgumentError, match="kind"):
        analysis.run(Rules(), analysis.check_args({"kind": "dodo"}), 0, 10, np.random.default_rng(0))


def test_game_analysis_extra_tables(monkeypatch):
    monkeypatch.setitem(tyrsim.games.REGISTRY, "tiny-epic-dinosaurs", "tyrsim.games.tiny_epic_dinosaurs")
    analysis = SPEC.analyses["game"]
    args = analysis.check_args({"policies": ["random", "greedy"], "games": 6})
    raw = analysis.run(Rules(), args, 0, 6, np.random.default_rng(0))
    tables = analysis.tables(raw, Rules(), args)
    assert {"by_policy", "points_by_source", "activity", "first_player", "bumping"} <= set(tables)
    points = tables["points_by_source"].groupby("policy")["mean"].sum()
    scores = tables["by_policy"].set_index("policy")["mean_score"]
    assert points.to_dict() == pytest.approx(scores.to_dict())  # the sources add up to the score
    assert tables["first_player"]["games"].sum() == 12
    figures = analysis.figures(tables, Rules(), args)
    assert "points_by_source" in figures
