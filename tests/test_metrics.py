"""Balance measures on hand-built tables with known answers, and their intervals' coverage."""

import numpy as np
import pandas as pd
import pytest
from scipy.stats import chi2

from tyrsim.core.stats import intervals as stats
from tyrsim.core.stats import metrics


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
    seats = metrics.seat_balance(metrics.win_shares(raw).to_numpy())
    assert seats.gap_plugin == pytest.approx(0.25) and seats.rates.tolist() == [0.625, 0.375]
    m = by_name(metrics.balance_metrics(raw))
    assert "observed 0.25" in m.loc["largest_seat_gap", "how"] and "observed 0.75" in m.loc["balance", "how"]
    # four games cannot show a seat advantage: the gap's interval reaches 0, the balance's 1
    assert m.loc["largest_seat_gap", "ci_low"] == 0 and m.loc["balance", "ci_high"] == 1
    assert m.loc["seat_advantage_p", "how"].startswith("no evidence of a seat advantage")
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
    assert m.loc["seat_advantage_p", "value"] == 1.0
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
    assert gap.loc["self_play_seat_gap", "value"] == 0.0 and gap.loc["self_play_seat_gap", "ci_low"] == 0.0


# --- seat balance on synthetic games with known seat win probabilities -----------------------


def synthetic_shares(rng, probs, games: int, runs: int, shared: float = 0.0) -> np.ndarray:
    """runs x games x seats win shares: one winner drawn from `probs`; in a `shared` part of the games the
    winner splits the win evenly with another seat drawn at random (see `expected_rates`)."""
    k = len(probs)
    winner = rng.choice(k, size=(runs, games), p=probs)
    shares = np.eye(k)[winner]
    other = rng.integers(0, k, (runs, games))
    split = (rng.random((runs, games)) < shared) & (other != winner)
    shares[split] *= 0.5
    r, g = np.nonzero(split)
    shares[r, g, other[split]] += 0.5
    return shares


def expected_rates(probs, shared: float) -> np.ndarray:
    """The seats' true win rates under `synthetic_shares`: a split hands half a win to a uniformly drawn other seat."""
    p, k = np.asarray(probs, dtype=float), len(probs)
    return p * (1 - 0.5 * shared * (k - 1) / k) + 0.5 * shared * (1 - p) / k


def synthetic_table(shares: np.ndarray) -> pd.DataFrame:
    """A simulate table for one run of `synthetic_shares`."""
    games, k = shares.shape
    return pd.DataFrame({
        "game_id": np.repeat(np.arange(games), k), "seat": np.tile(np.arange(k), games), "policy": "p",
        "win_share": shares.ravel(), "won": shares.ravel() > 0, "score": shares.ravel(), "rank": 1,
        "rounds": 10, "actions": 40,
    })


@pytest.mark.parametrize("seats,shared", [(2, 0.0), (4, 0.3)])
def test_balanced_games_are_called_balanced_at_the_nominal_rate(seats, shared):
    # before: a percentile bootstrap interval of the largest gap never reached 0, whatever the test said
    rng = np.random.default_rng(20 + seats)
    runs = 400
    claims = sum(metrics.seat_balance(s, intervals=False).advantage
                 for s in synthetic_shares(rng, [1 / seats] * seats, 300, runs, shared))
    assert claims / runs <= 0.08  # nominal 5%; shared victories only make the test more cautious


def test_two_seat_interval_is_wilsons_and_the_table_says_balanced():
    rng = np.random.default_rng(5)
    shares = synthetic_shares(rng, [0.5, 0.5], 200, 1)[0]
    seats = metrics.seat_balance(shares)
    low, high = stats.wilson_interval(shares[:, 0].sum(), 200)
    assert seats.gap_high == pytest.approx(max(abs(2 * low - 1), abs(2 * high - 1)), abs=1e-6)
    rows = by_name(metrics.balance_metrics(synthetic_table(shares)))
    if seats.p_value >= 0.05:  # the draw is balanced; with this seed the test does not reject
        assert rows.loc["largest_seat_gap", "ci_low"] == 0 and rows.loc["balance", "ci_high"] == 1
        assert rows.loc["seat_advantage_p", "how"].startswith("no evidence of a seat advantage (chi-square p = ")
    assert seats.p_value >= 0.05


@pytest.mark.parametrize("probs,runs", [([0.56, 0.44], 200), ([0.42, 0.3, 0.28], 60)])
def test_gap_and_balance_intervals_cover_the_truth(probs, runs):
    rng = np.random.default_rng(7)
    rates = expected_rates(probs, 0.2)
    true_gap, true_balance = np.ptp(rates), 1 - 0.5 * np.abs(rates - 1 / len(rates)).sum() / (1 - 1 / len(rates))
    gap_covered = balance_covered = 0
    for shares in synthetic_shares(rng, probs, 300, runs, shared=0.2):
        seats = metrics.seat_balance(shares)
        gap_covered += seats.gap_low <= true_gap <= seats.gap_high
        balance_covered += seats.balance_low <= true_balance <= seats.balance_high
    # two seats: exactly the Wilson interval (about 95%); more seats: a projection of a 95% set, at least 95%
    for covered in (gap_covered, balance_covered):
        assert covered / runs >= 0.95 - 3 * np.sqrt(0.05 * 0.95 / runs)


def test_an_unbalanced_game_is_detected_and_named():
    rng = np.random.default_rng(9)
    results = [metrics.seat_balance(s, intervals=False) for s in synthetic_shares(rng, [0.62, 0.38], 300, 200)]
    assert np.mean([r.advantage for r in results]) >= 0.95  # power: z is about 4 at this size
    table = by_name(metrics.balance_metrics(synthetic_table(synthetic_shares(rng, [0.62, 0.38], 300, 1)[0])))
    assert table.loc["seat_advantage_p", "how"].startswith("seat 0 wins more often than fair: ")
    assert table.loc["largest_seat_gap", "ci_low"] > 0


def test_bias_correction_shrinks_the_noise_gap_of_fair_games():
    rng = np.random.default_rng(11)
    results = [metrics.seat_balance(s, intervals=False) for s in synthetic_shares(rng, [0.25] * 4, 200, 200)]
    plugin, corrected = np.mean([r.gap_plugin for r in results]), np.mean([r.gap for r in results])
    assert plugin > 0.06  # four fair seats over 200 games: the observed gap is mostly noise
    assert abs(corrected) < 0.6 * plugin
    # an unbalanced game keeps its gap (0.2) within a few standard errors
    results = [metrics.seat_balance(s, intervals=False) for s in synthetic_shares(rng, [0.4, 0.2, 0.2, 0.2], 400, 200)]
    gaps = np.array([r.gap for r in results])
    assert abs(gaps.mean() - 0.2) < 4 * gaps.std(ddof=1) / np.sqrt(len(gaps)) + 0.01


@pytest.mark.parametrize("rates,games", [([0.5, 0.3, 0.2], 150), ([0.45, 0.35, 0.2, 0.0], 80),
                                         ([0.36, 0.33, 0.31], 300), ([0.7, 0.2, 0.1], 500)])
def test_gap_and_balance_intervals_match_a_brute_force_search(rates, games):
    # the slow, obvious reference: many probability vectors on the simplex, keep those the chi-square test
    # does not reject, and take the smallest and largest gap (balance) among them
    rates = np.asarray(rates)
    k = len(rates)
    rng = np.random.default_rng(13)
    near = rng.dirichlet(np.maximum(rates, 0.01) * 400, 400_000)
    on_face = np.where(rates > 0, near, 0.0)  # the extremes can lie where a seat that never won has p = 0
    candidates = np.vstack([rng.dirichlet(np.ones(k), 400_000), near, on_face / on_face.sum(axis=1, keepdims=True),
                            np.full((1, k), 1 / k)])
    with np.errstate(divide="ignore", invalid="ignore"):
        statistic = games * (np.sum(np.where(rates > 0, rates**2 / candidates, 0.0), axis=1) - 1)
    kept = candidates[statistic <= chi2.ppf(0.95, k - 1)]
    gaps = np.ptp(kept, axis=1)
    balances = 1 - 0.5 * np.abs(kept - 1 / k).sum(axis=1) / (1 - 1 / k)
    shares = np.repeat(np.eye(k), np.round(rates * games).astype(int), axis=0)  # games whose rates are `rates`
    seats = metrics.seat_balance(shares)
    # the solver's interval holds every value found by search, and the search comes close to its ends
    assert seats.gap_low - 1e-9 <= gaps.min() and gaps.max() <= seats.gap_high + 1e-9
    assert seats.balance_low - 1e-9 <= balances.min() and balances.max() <= seats.balance_high + 1e-9
    for found, solved in ((gaps.min(), seats.gap_low), (gaps.max(), seats.gap_high),
                          (balances.min(), seats.balance_low), (balances.max(), seats.balance_high)):
        assert found == pytest.approx(solved, abs=0.01)


def test_seat_grid_holds_the_values_pandas_pivot_gives_in_any_row_order():
    """The task summaries place scores and win shares game by seat with numpy: the same array as pandas' pivot,
    rows in any order, NaN where a game lacks a seat (a three-seat table with one game at two seats)."""
    raw = table(winners=[[0], [2], [1, 2], [0]], scores=[[4, 1, 2], [0, 3, 9], [2, 5, 5], [7, 6, 1]])
    raw = raw[~((raw["game_id"] == 3) & (raw["seat"] == 1))].sample(frac=1, random_state=1)
    for column in ("score", "win_share"):
        seats, grid = metrics.seat_grid(raw, column)
        pivot = raw.pivot(index="game_id", columns="seat", values=column).sort_index()
        assert seats.tolist() == [0, 1, 2]
        np.testing.assert_array_equal(grid, pivot.to_numpy())
        assert np.isnan(grid[3, 1])
    full = raw[raw["game_id"] < 3]
    assert metrics.seat_grid(full, "won")[1].dtype == bool  # every cell filled: the column's own type
