"""Anytime-valid intervals (tyrsim.core.stats.anytime), tested as a live page uses them: simulated sessions that
look after every chunk of games. Each sequence must keep the truth inside at every look in at least 95% of
sessions; a fixed-n Wilson interval recomputed at each look must fail the same check (so the check can fail)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tyrsim.core.stats.anytime import (
    ALPHA,
    BoundedMean,
    normal_mixture_radius,
    proportion_interval,
    running_sums,
    unbounded_mean_interval,
)
from tyrsim.core.stats.intervals import wilson_interval

SESSIONS = 1000
LOOKS = 100
CHUNK = 50  # games between looks
# the share of sessions missing at some look may exceed alpha by at most three standard errors of that share
ALLOWED = ALPHA + 3 * math.sqrt(ALPHA * (1 - ALPHA) / SESSIONS)


def _looks(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(games, running mean) at each look of each session (rows: sessions, columns: looks)."""
    games = CHUNK * np.arange(1, LOOKS + 1)
    totals = np.cumsum(values, axis=1)[:, games - 1]
    return games, totals / games


def _missed(low: np.ndarray, high: np.ndarray, truth: float) -> float:
    """The share of sessions whose interval left out the truth at some look."""
    return float(((low > truth) | (high < truth)).any(axis=1).mean())


@pytest.mark.parametrize("share", [0.5, 0.3, 0.04])
def test_a_win_rates_sequence_keeps_the_truth_at_every_look(share):
    wins = np.random.default_rng(2024).random((SESSIONS, CHUNK * LOOKS)) < share
    games, rate = _looks(wins)
    low, high = proportion_interval(games, rate)
    assert _missed(low, high, share) <= ALLOWED


def test_wilson_recomputed_at_every_look_misses_far_more_often():
    wins = np.random.default_rng(2024).random((SESSIONS, CHUNK * LOOKS)) < 0.5
    games, rate = _looks(wins)
    low, high = wilson_interval(rate * games, games)
    assert _missed(low, high, 0.5) > ALLOWED + 0.05
    low, high = proportion_interval(games, rate)  # the same sessions, read through the sequence
    assert _missed(low, high, 0.5) <= ALLOWED


@pytest.mark.parametrize(("chances", "label"), [((0.04, 0.90, 0.06), "common random numbers: most games the same"),
                                                ((0.3, 0.3, 0.4), "independent-looking games")])
def test_a_paired_differences_sequence_keeps_the_truth_at_every_look(chances, label):
    rng = np.random.default_rng(7)
    truth = chances[2] - chances[0]
    sequence = BoundedMean(-1.0, 1.0, shape=(SESSIONS,))
    missed = np.zeros(SESSIONS, dtype=bool)
    for _ in range(LOOKS):
        sequence.add(rng.choice([-1.0, 0.0, 1.0], p=chances, size=(SESSIONS, CHUNK)))
        low, high = sequence.interval()
        missed |= (low > truth) | (high < truth)
    assert missed.mean() <= ALLOWED, label


def test_a_bounded_mean_near_its_bound_keeps_the_truth():
    rng = np.random.default_rng(11)
    sequence = BoundedMean(shape=(SESSIONS,))
    missed = np.zeros(SESSIONS, dtype=bool)
    for _ in range(LOOKS):
        sequence.add(rng.random((SESSIONS, CHUNK)) < 0.02)
        low, high = sequence.interval()
        missed |= (low > 0.02) | (high < 0.02)
    assert missed.mean() <= ALLOWED


def test_a_mean_without_bounds_keeps_the_truth_from_a_hundred_games_on():
    # asymptotic: the running standard deviation stands in for the true one
    scores = np.random.default_rng(5).normal(40.0, 9.0, size=(SESSIONS, CHUNK * LOOKS))
    games, mean = _looks(scores)
    sd = np.sqrt(_looks(scores**2)[1] - mean**2)
    keep = games >= 100
    low, high = unbounded_mean_interval(games[keep], mean[:, keep], sd[:, keep])
    assert _missed(low, high, 40.0) <= ALLOWED


def test_the_difference_under_common_random_numbers_narrows_faster_than_the_range_allows():
    # most games the same under both rules: the sequence is far narrower than Hoeffding's range bound would give
    rng = np.random.default_rng(3)
    sequence = BoundedMean(-1.0, 1.0)
    sequence.add(rng.choice([-1.0, 0.0, 1.0], p=(0.02, 0.96, 0.02), size=20_000))
    low, high = sequence.interval()
    hoeffding = 2 * float(normal_mixture_radius(20_000, 1000.0)) / 20_000
    assert high - low < hoeffding / 2
    assert low < 0 < high and not sequence.excludes(0.0)


def test_a_difference_is_stated_only_once_the_interval_excludes_zero():
    rng = np.random.default_rng(8)
    sequence = BoundedMean(-1.0, 1.0)
    sequence.add(rng.choice([-1.0, 0.0, 1.0], p=(0.01, 0.89, 0.10), size=200))
    first = sequence.excludes(0.0)
    sequence.add(rng.choice([-1.0, 0.0, 1.0], p=(0.01, 0.89, 0.10), size=20_000))
    assert not first and sequence.excludes(0.0)
    low, high = sequence.interval()
    assert low > 0 and low < 0.09 < high


def test_the_intervals_narrow_and_only_narrow():
    rng = np.random.default_rng(9)
    sequence = BoundedMean()
    widths = []
    for _ in range(20):
        sequence.add(rng.random(500) < 0.5)
        low, high = sequence.interval()
        widths.append(high - low)
    assert all(b <= a for a, b in zip(widths, widths[1:], strict=False)) and widths[-1] < widths[0] / 3


def test_an_observation_outside_the_bounds_is_refused():
    sequence = BoundedMean(-1.0, 1.0)
    with pytest.raises(ValueError, match="outside"):
        sequence.add([0.0, 1.5])
    with pytest.raises(ValueError, match="shape"):
        BoundedMean(shape=(3,)).add(np.zeros((2, 4)))
    assert np.isnan(sequence.estimate()) and sequence.interval() == (-1.0, 1.0)


def test_a_sequence_fed_in_any_batches_gives_the_same_floats():
    # the studio's chunks are sized by the clock: its answer after n games must not depend on them to the last bit
    x = np.random.default_rng(3).integers(-1, 2, size=(3, 1000)) / 3
    whole, batched = BoundedMean(-1.0, 1.0, shape=(3,)), BoundedMean(-1.0, 1.0, shape=(3,))
    whole.add(x)
    for start, end in zip([0, 7, 100, 101, 640], [7, 100, 101, 640, 1000], strict=True):
        batched.add(x[:, start:end])
    assert all(np.array_equal(a, b) for a, b in zip(whole.interval(), batched.interval(), strict=True))
    assert np.array_equal(whole.estimate(), batched.estimate())
    first = running_sums(0.0, x[:, :7])[..., -1]
    assert np.array_equal(running_sums(0.0, x)[..., -1], running_sums(first, x[:, 7:])[..., -1])
