"""The zoo-ev and rate (tournament) analyses: their tables carry intervals that hold their estimates."""

from __future__ import annotations

import numpy as np
import pytest

import tyrsim.games
from tyrsim.core.engine.rng import task_rng
from tyrsim.games.zooloretto_duell import SPEC
from tyrsim.games.zooloretto_duell.rules import Rules


@pytest.fixture(autouse=True)
def registered(monkeypatch):
    monkeypatch.setitem(tyrsim.games.REGISTRY, "zooloretto-duell", "tyrsim.games.zooloretto_duell")


def run(name: str, **given):
    analysis = SPEC.analyses[name]
    args = analysis.check_args(given)
    raw = analysis.run(Rules(), args, 0, analysis.trial_count(args), task_rng(5, 0, 0))
    return raw, analysis.tables(raw, Rules(), args), analysis


def test_zoo_ev_tables():
    raw, tables, analysis = run("zoo-ev", games=40, policies=("heuristic", "greedy"))
    assert len(raw) == 80
    sources = tables["points_by_source"]
    assert set(sources["source"]) == {"marker_points", "majority_points", "coin_points", "minus_points", "score"}
    for _, part in sources.groupby("policy"):
        means = part.set_index("source")["mean"]
        total = means["marker_points"] + means["majority_points"] + means["coin_points"] - means["minus_points"]
        assert total == pytest.approx(means["score"])
    for name in ("points_by_source", "symbols", "margin_summary", "game_length"):
        table = tables[name]
        assert (table["ci_low"] <= table["mean"]).all() and (table["mean"] <= table["ci_high"]).all()
    assert tables["end_triggers"]["games"].sum() == 40
    seated = tables["by_policy_and_seat"]
    assert len(seated) == 4 and (seated["games"] == 20).all()
    assert ((seated["score_low"] <= seated["mean_score"]) & (seated["mean_score"] <= seated["score_high"])).all()
    assert tables["rounds_distribution"]["share"].sum() == pytest.approx(1.0)
    first = tables["first_player"].iloc[0]
    assert first["win_low"] <= first["first_player_win_rate"] <= first["win_high"]
    leaders = tables["leader_wins"].set_index("source")
    assert leaders.loc["marker_points", "leader_win_rate"] > 0.5  # more interim points usually wins
    assert (
        (leaders["ci_low"] <= leaders["leader_win_rate"]) & (leaders["leader_win_rate"] <= leaders["ci_high"])
    ).all()
    metric = analysis.metrics["marker_leader_win_rate"].estimate(raw, Rules(), {})
    assert metric["n"].sum() == leaders.loc["marker_points", "games_with_a_leader"]
    figures = analysis.figures(tables, Rules(), analysis.check_args({}))
    assert set(figures) == {"points_by_source", "margin_distribution"}


def test_rate_covers_every_pair_in_both_seat_orders():
    raw, tables, _ = run("rate", games=6, policies=("random", "greedy", "heuristic"))
    assert len(raw) == 6 * 6 * 2  # six ordered pairings, two seats each
    pairs = tables["pairwise"]
    assert len(pairs) == 6 and (pairs["games"] == 12).all()
    strong = pairs[(pairs["policy"] == "heuristic") & (pairs["opponent"] == "random")].iloc[0]
    assert strong["ci_low"] <= strong["win_rate"] <= strong["ci_high"] and strong["win_rate"] > 0.5
    mirrored = pairs.set_index(["policy", "opponent"])["win_rate"]
    assert np.isclose(mirrored[("greedy", "random")] + mirrored[("random", "greedy")], 1.0)
    orders = tables["seat_orders"]
    # three tables (pairs) of two policies; in 12 games a policy sits first in 6
    assert len(orders) == 6 and (orders["games_first"] == 6).all() and (orders["games_later"] == 6).all()
    assert tables["ratings"]["policy"].iloc[0] == "heuristic"
