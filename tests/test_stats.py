"""Intervals, comparisons and sample sizes in tyrsim.core.stats."""

import numpy as np
import pytest

from tyrsim.core import stats


def test_wilson_interval_known_values():
    low, high = stats.wilson_interval(10, 100)
    assert low == pytest.approx(0.05523, abs=1e-4) and high == pytest.approx(0.17437, abs=1e-4)
    low, high = stats.wilson_interval(0, 20)
    assert low == 0.0 and high == pytest.approx(0.16113, abs=1e-4)
    low, high = stats.wilson_interval(5, 0)
    assert np.isnan(low) and np.isnan(high)


def test_wilson_interval_covers_at_its_level():
    rng = np.random.default_rng(3)
    p, n, reps = 0.3, 200, 4000
    k = rng.binomial(n, p, reps)
    low, high = stats.wilson_interval(k, n)
    coverage = np.mean((low <= p) & (p <= high))
    assert abs(coverage - 0.95) < 5 * np.sqrt(0.95 * 0.05 / reps)


def test_t_interval_covers_at_its_level():
    rng = np.random.default_rng(4)
    samples = rng.exponential(2.0, (3000, 40))
    low, high = stats.t_interval(samples.mean(axis=1), samples.std(axis=1, ddof=1), 40)
    coverage = np.mean((low <= 2.0) & (2.0 <= high))
    assert 0.91 < coverage < 0.97  # skewed data: t is close to, a little under, its level


def test_mean_interval():
    mean, low, high = stats.mean_interval([1.0, 2.0, 3.0, 4.0])
    assert mean == 2.5 and low == pytest.approx(2.5 - 3.182446 * np.std([1, 2, 3, 4], ddof=1) / 2)


def test_compare_proportions_detects_and_does_not_overflag():
    diff, low, high, p = stats.compare_proportions(600, 1000, 500, 1000)
    assert diff == pytest.approx(0.1) and low < 0.1 < high and p < 1e-4
    rng = np.random.default_rng(9)
    k1, k0 = rng.binomial(1000, 0.4, 2000), rng.binomial(1000, 0.4, 2000)
    _, _, _, p = stats.compare_proportions(k1, 1000, k0, 1000)
    assert abs(np.mean(p < 0.05) - 0.05) < 5 * np.sqrt(0.05 * 0.95 / 2000)


def test_compare_means_matches_scipy_welch():
    from scipy import stats as sps

    rng = np.random.default_rng(1)
    a, b = rng.normal(1.0, 2.0, 50), rng.normal(0.0, 1.0, 80)
    diff, low, high, p = stats.compare_means(a.mean(), a.std(ddof=1), 50, b.mean(), b.std(ddof=1), 80)
    assert p == pytest.approx(sps.ttest_ind(a, b, equal_var=False).pvalue)
    assert low < diff < high


def test_holm():
    adjusted = stats.holm([0.01, 0.04, 0.03, np.nan])
    assert adjusted[:3] == pytest.approx([0.03, 0.06, 0.06]) and np.isnan(adjusted[3])


def test_sample_sizes():
    assert stats.trials_for_proportion(0.01) == 9604
    assert stats.trials_for_mean(0.1, 2.0) == 1537
    with pytest.raises(ValueError):
        stats.trials_for_proportion(0)
