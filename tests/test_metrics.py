"""Balance measures on hand-built tables with known answers, and their intervals' coverage."""

import numpy as np
import pandas as pd
import pytest

from tyrsim.core import metrics


def table(winners, scores, rounds=None):
    """Rows for games where `winners[g]` lists the winning seats and `scores[g]` the seats' scores."""
    rows = []
    for g, (won, score) in enumerate(zip(winners, scores, strict=True)):
        for seat, s in enumerate(score):
            rows.append({"game_id": g, "seat": seat, "policy": "p", "score": float(s), "won": seat in won,
                         "win_share": 1 / len(won) if seat in won else 0.0, "rank": 1, "actions": 10,
                         **({"rounds": rounds[g]} if rounds else {})})
    return pd.DataFrame(rows)


def by_name(frame):
    return frame.set_index("metric")


def test_known_answers():
    raw = table(
        winners=[[0], [0], [1], [0, 1]],
        scores=[[10, 7], [9, 9], [3, 8], [5, 5]],
        rounds=[4, 6, 5, 5],
    )
    seat = metrics.seat_advantage(raw)
    assert seat["win_rate"].tolist() == [0.625, 0.375]  # the shared victory splits its win
    assert seat["excess"].tolist() == [0.125, -0.125]
    m = by_name(metrics.balance_metrics(raw))
    assert m.loc["largest_seat_gap", "value"] == pytest.approx(0.25)
    assert m.loc["balance", "value"] == pytest.approx(0.75)
    assert m.loc["mean_rounds", "value"] == 5.0
    assert m.loc["mean_margin", "value"] == pytest.approx((3 + 0 + 5 + 0) / 4)
    assert m.loc["share_decided_by_tiebreak", "value"] == 0.25  # game 1: 9-9, one winner
    assert m.loc["share_shared_victory", "value"] == 0.25
    assert "mean_lead_changes" not in m.index  # not recorded by this "engine"


def test_perfect_balance_and_lead_changes():
    raw = table(winners=[[0], [1]] * 5, scores=[[2, 1], [1, 2]] * 5)
    raw["lead_changes"] = raw["game_id"] % 3
    m = by_name(metrics.balance_metrics(raw))
    assert m.loc["balance", "value"] == 1.0 and m.loc["largest_seat_gap", "value"] == 0.0
    assert m.loc["mean_actions", "value"] == 10.0  # no rounds column: actions measure duration
    assert m.loc["mean_lead_changes", "value"] == pytest.approx(np.mean([0, 1, 2, 0, 1, 2, 0, 1, 2, 0]))


def test_seat_win_rate_interval_covers_at_its_level():
    rng = np.random.default_rng(8)
    true, games, reps, covered = 0.6, 150, 400, 0
    for _ in range(reps):
        first_wins = rng.random(games) < true
        raw = table([[0] if w else [1] for w in first_wins], [[1, 0] if w else [0, 1] for w in first_wins])
        row = metrics.seat_advantage(raw).iloc[0]
        covered += row["ci_low"] <= true <= row["ci_high"]
    assert abs(covered / reps - 0.95) < 4 * np.sqrt(0.05 * 0.95 / reps)


def test_margin_interval_covers_at_its_level():
    rng = np.random.default_rng(9)
    reps, covered = 300, 0
    for _ in range(reps):
        a, b = rng.integers(0, 10, 60), rng.integers(0, 10, 60)
        raw = table([[0] if x >= y else [1] for x, y in zip(a, b, strict=True)], list(zip(a, b, strict=True)))
        row = by_name(metrics.balance_metrics(raw, intervals=False)).loc["mean_margin"]
        covered += row["ci_low"] <= 3.3 <= row["ci_high"]  # E|X - Y| for X, Y uniform on 0..9
    assert abs(covered / reps - 0.95) < 4 * np.sqrt(0.05 * 0.95 / reps)


def test_skill_gap():
    strong = table(winners=[[0]] * 8 + [[1]] * 2, scores=[[1, 0]] * 8 + [[0, 1]] * 2)
    strong["policy"] = np.where(strong["seat"] == 0, "smart", "random")
    gap = by_name(metrics.skill_gap(strong, "smart", self_play=table([[0], [1]], [[1, 0], [0, 1]])))
    assert gap.loc["skill_gap_vs_random", "value"] == pytest.approx(0.3)
    assert gap.loc["self_play_seat_gap", "value"] == 0.0
