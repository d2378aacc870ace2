"""The `game` analysis of Tyranno Ex: its extra tables and figures on a few games."""

from __future__ import annotations

import numpy as np

from tyrsim.games.tyranno_ex import SPEC
from tyrsim.games.tyranno_ex.rules import Rules


def test_game_analysis_tables_and_figures():
    analysis = SPEC.analyses["game"]
    args = analysis.check_args({"policies": ["greedy", "random", "builder", "aggressive"], "games": 8})
    rules = Rules()
    raw = analysis.run(rules, args, 0, 8, np.random.default_rng(2))
    tables = analysis.tables(raw, rules, args)
    for name in ("points_by_source", "card_worth", "survival_by_row", "survival_by_symbols", "fights", "cascades",
                 "game_length", "five_marker"):  # fmt: skip
        assert name in tables and len(tables[name])
    points = tables["points_by_source"].pivot(index="policy", columns="source", values="mean")
    assert np.allclose(points[["rows", "empty", "special", "five"]].sum(axis=1), points["total"])
    worth = tables["card_worth"]
    assert (worth["cards"] > 0).all() and (worth["ci_low"] <= worth["mean_points"]).all()
    survival = tables["survival_by_row"].dropna()
    assert survival["survived"].between(0, 1).all()
    length = tables["game_length"]
    assert length[length["rounds"] != "mean"]["share"].sum() == 1.0
    figures = analysis.figures(tables, rules, args)
    assert set(figures) == {"points_by_source", "survival_by_row"}


def test_spec_keeps_every_analysis():
    assert {"combat", "game", "survival"} <= set(SPEC.analyses)
    assert SPEC.make_game is not None and SPEC.players == (2, 3, 4)


def test_simulate_gives_one_row_per_game_and_seat_with_the_counters():
    from tyrsim.core.engine.runner import simulate

    table = simulate(SPEC, Rules(), ["random", "greedy", "random"], 6, seed=3)
    assert len(table) == 18 and set(table["seat"]) == {0, 1, 2}
    parts = table[["points_rows", "points_empty", "points_special", "points_five"]].sum(axis=1)
    assert np.allclose(parts, table["score"])
    again = simulate(SPEC, Rules(), ["random", "greedy", "random"], 6, seed=3)
    assert table.equals(again)
