"""Uncertainty for every Monte Carlo number: intervals, comparisons, sample sizes.

- proportions: Wilson score interval;
- means: Student t interval;
- a variant against a baseline: for a proportion, the difference with a Newcombe
  (Wilson-based) interval and a two-proportion z test (equivalently the 2x2
  chi-square test without continuity correction); for a mean, the difference
  with a Welch t interval and Welch's t test; Holm's correction across the
  variants compared in one study;
- sample size: trials needed for a target interval half-width.

All distributions come from scipy.
"""

from __future__ import annotations

import math

import numpy as np
from scipy import stats

CONFIDENCE = 0.95


def _z(confidence: float) -> float:
    return float(stats.norm.ppf(0.5 + confidence / 2))


def wilson_interval(successes, n, confidence: float = CONFIDENCE):
    """Wilson score interval for `successes` out of `n` (arrays broadcast).

    Where n is 0 the interval is (nan, nan).
    """
    k = np.asarray(successes, dtype=float)
    n = np.asarray(n, dtype=float)
    z = _z(confidence)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = k / n
        denom = 1 + z**2 / n
        centre = (p + z**2 / (2 * n)) / denom
        half = z * np.sqrt(p * (1 - p) / n + z**2 / (4 * n**2)) / denom
        # at k = 0 (k = n) the bound is exactly 0 (1); rounding must not move it
        low = np.where(n > 0, np.where(k == 0, 0.0, np.clip(centre - half, 0.0, 1.0)), np.nan)
        high = np.where(n > 0, np.where(k == n, 1.0, np.clip(centre + half, 0.0, 1.0)), np.nan)
    return low, high


def t_interval(mean, sd, n, confidence: float = CONFIDENCE):
    """Student t interval for a mean from its sample mean, sd and size (arrays broadcast)."""
    mean = np.asarray(mean, dtype=float)
    sd = np.asarray(sd, dtype=float)
    n = np.asarray(n, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        df = np.where(n > 1, n - 1, np.nan)
        half = stats.t.ppf(0.5 + confidence / 2, df) * sd / np.sqrt(n)
    return mean - half, mean + half


def mean_interval(values, confidence: float = CONFIDENCE) -> tuple[float, float, float]:
    """(mean, low, high) of a sample by the t interval."""
    values = np.asarray(values, dtype=float)
    n = values.size
    mean = float(values.mean()) if n else math.nan
    sd = float(values.std(ddof=1)) if n > 1 else math.nan
    low, high = t_interval(mean, sd, n, confidence)
    return mean, float(low), float(high)


def compare_proportions(k1, n1, k0, n0, confidence: float = CONFIDENCE):
    """Variant (k1/n1) against baseline (k0/n0).

    Returns (difference, low, high, p_value): the Newcombe hybrid score interval
    for the difference and the two-sided two-proportion z test with pooled
    variance, which is the 2x2 chi-square test without continuity correction.
    """
    k1, n1, k0, n0 = (np.asarray(x, dtype=float) for x in (k1, n1, k0, n0))
    with np.errstate(divide="ignore", invalid="ignore"):
        p1, p0 = k1 / n1, k0 / n0
        l1, h1 = wilson_interval(k1, n1, confidence)
        l0, h0 = wilson_interval(k0, n0, confidence)
        diff = p1 - p0
        low = diff - np.sqrt((p1 - l1) ** 2 + (h0 - p0) ** 2)
        high = diff + np.sqrt((h1 - p1) ** 2 + (p0 - l0) ** 2)
        pooled = (k1 + k0) / (n1 + n0)
        se = np.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n0))
        z = diff / se
        p_value = np.where(se > 0, 2 * stats.norm.sf(np.abs(z)), np.where(diff == 0, 1.0, 0.0))
    return diff, low, high, p_value


def compare_means(m1, s1, n1, m0, s0, n0, confidence: float = CONFIDENCE):
    """Variant mean against baseline mean from summary statistics.

    Returns (difference, low, high, p_value) by Welch's t (unequal variances,
    Welch-Satterthwaite degrees of freedom).
    """
    m1, s1, n1, m0, s0, n0 = (np.asarray(x, dtype=float) for x in (m1, s1, n1, m0, s0, n0))
    with np.errstate(divide="ignore", invalid="ignore"):
        v1, v0 = s1**2 / n1, s0**2 / n0
        se = np.sqrt(v1 + v0)
        df = (v1 + v0) ** 2 / (v1**2 / (n1 - 1) + v0**2 / (n0 - 1))
        diff = m1 - m0
        half = stats.t.ppf(0.5 + confidence / 2, df) * se
        t = diff / se
        p_value = np.where(se > 0, 2 * stats.t.sf(np.abs(t), df), np.where(diff == 0, 1.0, 0.0))
    return diff, diff - half, diff + half, p_value


def holm(p_values) -> np.ndarray:
    """Holm-adjusted p-values (family-wise error control), same order as given."""
    p = np.asarray(p_values, dtype=float)
    out = np.full(p.shape, np.nan)
    ok = ~np.isnan(p)
    if not ok.any():
        return out
    q = p[ok]
    order = np.argsort(q, kind="stable")
    m = q.size
    adjusted = np.maximum.accumulate((m - np.arange(m)) * q[order])
    result = np.empty(m)
    result[order] = np.minimum(adjusted, 1.0)
    out[ok] = result
    return out


def trials_for_proportion(half_width: float, p: float = 0.5, confidence: float = CONFIDENCE) -> int:
    """Trials for a proportion's interval half-width (normal approximation; p=0.5 is the worst case)."""
    if not 0 < half_width < 1:
        raise ValueError(f"half-width must be between 0 and 1, got {half_width}")
    if not 0 <= p <= 1:
        raise ValueError(f"p must be between 0 and 1, got {p}")
    return max(1, math.ceil(_z(confidence) ** 2 * p * (1 - p) / half_width**2))


def trials_for_mean(half_width: float, sd: float, confidence: float = CONFIDENCE) -> int:
    """Trials for a mean's interval half-width given the per-trial standard deviation."""
    if half_width <= 0 or sd < 0:
        raise ValueError("half-width must be positive and sd non-negative")
    return max(2, math.ceil((_z(confidence) * sd / half_width) ** 2))
