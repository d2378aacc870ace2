"""Intervals and tests by resampling whole trials: any statistic of trials played under common random numbers.

Where a quantity is not a mean of per-trial values (a seat gap is the spread of several seats' win rates,
a distance from targets is a sum of shortfalls), the t interval and the paired t test do not apply. Here the
trials are resampled with replacement (scipy.stats.bootstrap's percentile method, seeded), and, for a
comparison, the *same* resampled trials enter both sides: trial g of two variants shares its deals and dice,
so resampling it as a pair keeps the common random numbers' gain. The statistic is handed how many times each
trial was drawn (a resample's weights: the trials as played weigh 1 each), so a mean over trials is one matrix
product, `weights @ values / trials`, rather than a gather of every resample's rows.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from tyrsim.core.stats.intervals import CONFIDENCE

RESAMPLES = 2000  # bootstrap resamples: the p-value's resolution is 1/RESAMPLES, far below a 5% level
BATCH = 250  # resamples drawn at a time (BATCH x trials trial numbers, and as many weights)


@dataclass(frozen=True)
class Resampled:
    """A statistic of trials: its value on the trials as played, a percentile interval, and the two-sided
    percentile p-value of "the statistic is 0" (for a difference: no difference)."""

    value: float
    low: float
    high: float
    p_value: float
    trials: int


def resample_trials(statistic: Callable[[np.ndarray], np.ndarray], trials: int, seed: int | np.random.SeedSequence,
                    confidence: float = CONFIDENCE, resamples: int = RESAMPLES) -> Resampled:
    """`statistic(weights)` of `trials` trials, with a bootstrap interval and p-value.

    `statistic` takes an array of shape (..., trials) holding how many times each trial is in a resample (the
    trials as played: ones) and returns the statistic of each row, shape (...). The resamples are
    scipy.stats.bootstrap's, seeded. The p-value is twice the smaller share of resamples on either side of 0
    (at most 1); where every resample gives exactly 0 (two variants that played every trial alike) it is 1 and
    the interval is 0. Fewer than 2 trials: NaN throughout.
    """
    from scipy import stats

    if trials < 2:
        return Resampled(math.nan, math.nan, math.nan, math.nan, trials)

    def weighed(numbers: np.ndarray, axis: int = -1) -> np.ndarray:
        rows = numbers.reshape(-1, trials)
        offsets = (np.arange(len(rows)) * trials)[:, None]
        counts = np.bincount((rows + offsets).ravel(), minlength=rows.size).reshape(rows.shape)
        return statistic(counts.reshape(numbers.shape).astype(float))

    value = float(statistic(np.ones(trials)))
    result = stats.bootstrap((np.arange(trials),), weighed, n_resamples=resamples, batch=BATCH, vectorized=True,
                             method="percentile", confidence_level=confidence, rng=np.random.default_rng(seed))
    spread = result.bootstrap_distribution
    p_value = min(1.0, 2 * min(float(np.mean(spread <= 0)), float(np.mean(spread >= 0))))
    low, high = (float(x) for x in result.confidence_interval)
    return Resampled(value, low, high, p_value, trials)
