"""Intervals, comparisons and sample sizes in tyrsim.core.stats.intervals."""

import numpy as np
import pytest

from tyrsim.core.stats import intervals as stats


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
    for bad in (float("nan"), float("inf")):  # not finite: refused, not a traceback from deeper down
        with pytest.raises(ValueError):
            stats.trials_for_proportion(bad)
        with pytest.raises(ValueError):
            stats.trials_for_mean(bad, 1.0)
        with pytest.raises(ValueError):
            stats.trials_for_mean(0.1, bad)
    with pytest.raises(OverflowError):  # beyond a float, never a division by zero
        stats.trials_for_proportion(1e-300)


def test_comparisons_without_a_test_have_no_p_value():
    # a side without trials: nothing to compare
    diff, low, high, p = stats.compare_proportions(3, 10, 0, 0)
    assert np.isnan(p) and np.isnan(diff) and np.isnan(low)
    assert stats.proportion_tests(3, 10, 0, 0) == stats.NO_TRIALS
    # one trial of a mean: its spread is unknown
    diff, low, high, p = stats.compare_means(7.0, np.nan, 1, 11.0, 2.0, 50)
    assert diff == -4.0 and np.isnan(p) and np.isnan(low) and np.isnan(high)
    assert stats.mean_tests(np.nan, 1, 2.0, 50) == stats.TOO_FEW_TRIALS
    # a spread given for a single trial is still not a spread
    assert np.isnan(stats.compare_means(7.0, 0.0, 1, 11.0, 0.0, 1)[3])


def test_samples_without_variation():
    # every trial a success on both sides: the difference is 0 and Fisher's exact test gives 1
    diff, low, high, p = stats.compare_proportions(20, 20, 30, 30)
    assert diff == 0 and p == 1.0 and low < 0 < high
    assert stats.proportion_tests(20, 20, 30, 30) == stats.FISHER_NO_VARIATION
    # five 3s against five 2s: one labelling of 252 is as extreme; two-sided, twice that
    diff, low, high, p = stats.compare_means(3.0, 0.0, 5, 2.0, 0.0, 5)
    assert diff == 1.0 and p == pytest.approx(2 / 252) and low == high == 1.0
    assert stats.mean_tests(0.0, 5, 0.0, 5) == stats.PERMUTATION_NO_SPREAD
    assert stats.compare_means(3.0, 0.0, 4, 2.0, 0.0, 6)[3] == pytest.approx(2 / 210)
    # two against two: the test can never reject, so no shift is ruled out
    diff, low, high, p = stats.compare_means(3.0, 0.0, 2, 2.0, 0.0, 2)
    assert p == pytest.approx(2 / 6) and low == -np.inf and high == np.inf
    # equal constants: no difference at all
    assert stats.compare_means(2.0, 0.0, 5, 2.0, 0.0, 5)[3] == 1.0
    # one side without spread: Welch's t still applies (the other side's spread)
    diff, low, high, p = stats.compare_means(3.0, 0.0, 5, 2.0, 1.0, 5)
    assert stats.mean_tests(0.0, 5, 1.0, 5) == stats.WELCH and 0 < p < 1 and low < 1 < high


def test_permutation_p_value_matches_scipy():
    from scipy import stats as sps

    a, b = np.full(4, 3.0), np.full(3, 1.0)
    exact = sps.permutation_test((a, b), lambda x, y: np.mean(x) - np.mean(y), permutation_type="independent",
                                 alternative="two-sided", n_resamples=np.inf)
    assert stats.compare_means(3.0, 0.0, 4, 1.0, 0.0, 3)[3] == pytest.approx(exact.pvalue)


def test_paired_comparison_tests():
    from itertools import product

    from scipy import stats as scipy_stats

    from tyrsim.core.stats.intervals import NO_PAIR_DIFFERS, PAIRED_T, SIGN_FLIP, TOO_FEW_TRIALS, compare_paired

    nothing = compare_paired(np.zeros(50))
    assert (nothing.difference, nothing.low, nothing.high, nothing.p_value, nothing.test) == (0, 0, 0, 1,
                                                                                            NO_PAIR_DIFFERS)
    one = compare_paired([2.0])
    assert one.test == TOO_FEW_TRIALS and np.isnan(one.p_value) and np.isnan(one.low)
    # a few differing pairs: the exact sign-flip p, by brute force over the 2^m signs
    d = np.array([0, 0, 3.0, -1.0, 2.0, 0, 2.5, 0, 1.0])
    nz = d[d != 0]
    sums = [abs(sum(s * x for s, x in zip(signs, nz, strict=True))) for signs in product((1, -1), repeat=len(nz))]
    few = compare_paired(d)
    assert few.test == SIGN_FLIP and few.differing == 5
    assert few.p_value == pytest.approx(np.mean(np.array(sums) >= abs(nz.sum()) - 1e-12))
    # many differing pairs: scipy's paired t test, and the t interval of the mean difference
    rng = np.random.default_rng(3)
    a, b = rng.normal(size=200), rng.normal(size=200) + 0.3
    many = compare_paired(b - a)
    assert many.test == PAIRED_T and many.p_value == pytest.approx(scipy_stats.ttest_rel(b, a).pvalue)
    mean, low, high = stats.mean_interval(b - a)
    assert (many.difference, many.low, many.high) == pytest.approx((mean, low, high))


def test_share_interval_stays_within_zero_and_one():
    from tyrsim.core.stats.intervals import mean_interval, share_interval

    values = [1.0, 0.0]
    assert mean_interval(values)[1] < 0 and mean_interval(values)[2] > 1
    assert share_interval(values) == (0.5, 0.0, 1.0)
    mean, low, high = share_interval([0.5, 0.75, 0.25, 1.0, 0.5, 0.5, 0.75, 0.25])
    assert (mean, low, high) == pytest.approx(mean_interval([0.5, 0.75, 0.25, 1.0, 0.5, 0.5, 0.75, 0.25]))
