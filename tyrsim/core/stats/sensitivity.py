"""Rule sensitivity: which rules move a metric, by variance-based (Sobol') indices and by regression.

Variance-based indices (Sobol'): with the rules drawn independently and uniformly
over their ranges, the metric's variance splits into parts due to each rule alone
and to rules acting together.

- first-order index S_i: the share of the variance explained by rule i alone
  (Var E[Y | x_i] / Var Y);
- total index ST_i: the share that involves rule i at all, alone or with others
  (1 - Var E[Y | all rules but i] / Var Y). ST_i - S_i is rule i's part in
  interactions; a rule with ST_i near 0 can be fixed anywhere in its range.

They are estimated from a Saltelli design: two N x d matrices A and B from one
scrambled Sobol' sequence of 2d dimensions (scipy.stats.qmc), and for each rule
i the matrix AB_i, A with column i taken from B, N(d+2) points in all, with
scipy.stats.sobol_indices's estimators (Saltelli 2010 first-order, Jansen total)
and seeded BCa bootstrap intervals over the N rows (scipy.stats.bootstrap's
resamples and interval). Every estimator is a ratio of means over the rows, so a
resample is summed through its rows' counts and the BCa jackknife is the sum
less one row: time and memory grow linearly in N, not with a copy of every
resample and leave-one-out sample. Integer rules map a uniform u to
low + floor(u (high - low + 1)), so each value is equally likely.

A simulated metric is measured with noise at each point (a finite number of
games): Y = f(rules) + e, with e of variance s^2 (from the games within the
point). The noise is a part of Var Y of its own, the noise share mean(s^2) /
Var Y, reported beside the indices. It does not bias the first-order numerator
(the noise of B is independent of A's and AB's), but the Jansen total numerator
mean((y_A - y_AB)^2) / 2 carries (s_A^2 + s_AB^2) / 2 of it, which would give
every rule, even one that does nothing, a total index of about the noise share;
that part is subtracted. So the indices are shares of the observed variance:
first-order indices, interactions and the noise share add up to 1, and dividing
an index by 1 - noise share gives its share of the noise-free metric's variance
(not done here: with much noise that division amplifies the noise). A large
noise share means the indices are small and uncertain: play more games per
point.

Standardised regression coefficients (SRC) of the metric on the standardised
rules, with t intervals and the fit's R^2, are fitted on the 2N points of A and
B (independent uniform points). They are signed and exact for a linear
response; when R^2 is low the response is curved or driven by interactions, and
the SRC ranking can be wrong where the total index is not.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import numpy as np

from tyrsim.core.report.figures import legend_outside

if TYPE_CHECKING:
    import pandas as pd

BOOTSTRAP = 999
LOW_R2 = 0.7  # below this the linear fit misses much of the response: SRCs are not to be trusted
HIGH_NOISE = 0.3  # above this share of the observed variation from playout noise, the indices are uncertain
MOSTLY_NOISE = 0.8  # from here on the variation between rule points is hardly more than noise
FEW_SAMPLES = 8  # with this many base samples or fewer, bootstrap intervals over them are rough
RESAMPLED_ROWS = 2 ** 22  # rows of bootstrap resamples drawn at a time: about 32 MB of row numbers, whatever N


def _unit_design(d: int, n: int, seed: int) -> np.ndarray:
    """The N(d+2) x d points of a Saltelli design in the unit cube: A, B, then AB_1 .. AB_d."""
    from scipy.stats import qmc  # here, not at the top: see tyrsim.core.stats.intervals

    if n < 2 or n & (n - 1):
        raise ValueError(f"the number of base samples must be a power of two, at least 2; got {n}")
    both = qmc.Sobol(d=2 * d, scramble=True, rng=np.random.default_rng(seed)).random(n)
    a, b = both[:, :d], both[:, d:]
    blocks = [a, b]
    for i in range(d):
        ab = a.copy()
        ab[:, i] = b[:, i]
        blocks.append(ab)
    return np.vstack(blocks)


def design_blocks(names: Sequence[str], n: int) -> list[str]:
    """The block of each point of a Saltelli design: "A", "B", then "AB:<rule>" for each rule."""
    return ["A"] * n + ["B"] * n + [f"AB:{name}" for name in names for _ in range(n)]


def sobol_design(ranges: dict[str, tuple[float, float, type]], n: int, seed: int) -> pd.DataFrame:
    """The rule points of a Sobol' study with `n` base samples: a `block` column and one column per rule."""
    import pandas as pd

    unit = _unit_design(len(ranges), n, seed)
    columns = {"block": design_blocks(list(ranges), n)}
    for k, (name, (low, high, kind)) in enumerate(ranges.items()):
        if kind is int:
            columns[name] = np.minimum(np.floor(low + unit[:, k] * (high - low + 1)), high).astype(int)
        else:
            columns[name] = low + unit[:, k] * (high - low)
    return pd.DataFrame(columns)


def _row_terms(y: np.ndarray, noise: np.ndarray) -> np.ndarray:
    """For each row j of the design, the terms whose means over the rows give the indices (see `_indices`).

    `y` and `noise` are (d + 2, N): the responses at A, B, AB_1 .. AB_d and their
    Monte Carlo variances. Returns (N, 3 + 3d): y_A + y_B, y_A^2 + y_B^2,
    v_A + v_B, then for each rule y_B (y_AB_i - y_A), then y_AB_i - y_A, then
    (y_A - y_AB_i)^2 - v_A - v_AB_i. The responses are first centred on the mean
    of A and B: the indices do not change under a shift, and the centred sums of
    squares lose no precision to a large mean.
    """
    y = y - y[:2].mean()
    a, b, ab = y[0], y[1], y[2:]
    step = ab - a
    return np.column_stack([a + b, a ** 2 + b ** 2, noise[0] + noise[1], (b * step).T, step.T,
                            (step ** 2 - noise[0] - noise[2:]).T])


def _indices(means: np.ndarray, d: int) -> np.ndarray:
    """First-order and total indices with the noise taken out of their numerators, and the noise share.

    `means` (..., 3 + 3d) are means over a set of design rows of `_row_terms`
    (leading axes: bootstrap or jackknife resamples). Every estimator is a ratio
    of such means, so a resample needs only its rows' counts, not a copy of its
    rows. The estimators are scipy.stats.sobol_indices's (Saltelli 2010 first
    order, Jansen total, both on responses centred on the mean c of A and B;
    tests check the two agree), with Var Y the variance of A and B together:
    first_i = mean((y_B - c)(y_AB_i - y_A)) / Var Y, expanded as
    (mean(y_B (y_AB_i - y_A)) - c mean(y_AB_i - y_A)) / Var Y, and
    total_i = mean((y_A - y_AB_i)^2 - v_A - v_AB_i) / (2 Var Y). Returns
    (..., 2d + 1): first-order, total, noise share. All are shares of the
    observed variance; where it is 0 they are NaN.
    """
    centre = means[..., 0] / 2
    with np.errstate(divide="ignore", invalid="ignore"):
        variance = means[..., 1] / 2 - centre ** 2
        variance = np.where(variance > 0, variance, np.nan)
        first = (means[..., 3:3 + d] - centre[..., None] * means[..., 3 + d:3 + 2 * d]) / variance[..., None]
        # the squared difference of two noisy points carries both points' noise: the terms take it out
        total = 0.5 * means[..., 3 + 2 * d:] / variance[..., None]
        share = means[..., 2] / 2 / variance
    return np.concatenate([first, total, share[..., None]], axis=-1)


def _bootstrap_indices(terms: np.ndarray, d: int, point: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The indices of BOOTSTRAP resamples of the design's rows: (BOOTSTRAP, 2d + 1).

    The resamples are scipy.stats.bootstrap's (the same draws from `rng`), drawn
    RESAMPLED_ROWS rows at a time, and each is summed through its rows' counts,
    so the memory is linear in N. A resample that takes every row once is the
    design itself: its indices are `point` exactly, not up to rounding, so that
    the BCa bias correction counts it as a tie (it is common when N is small: 9%
    of the resamples at N = 4).
    """
    n = len(terms)
    per_block = max(1, RESAMPLED_ROWS // n)
    blocks = []
    for start in range(0, BOOTSTRAP, per_block):
        rows = rng.integers(0, n, (min(per_block, BOOTSTRAP - start), n))
        counts = np.bincount((rows + n * np.arange(len(rows))[:, None]).ravel(), minlength=rows.size)
        counts = counts.reshape(rows.shape)
        block = _indices(counts @ terms / n, d)
        block[(counts == 1).all(axis=1)] = point
        blocks.append(block)
    return np.concatenate(blocks)


def _bca_interval(point: np.ndarray, resampled: np.ndarray, jackknife: np.ndarray,
                  confidence: float) -> tuple[np.ndarray, np.ndarray]:
    """The BCa interval of each statistic, as scipy.stats.bootstrap computes it (Efron and Tibshirani 1993, 14.3).

    `point` (k,) are the estimates on all rows, `resampled` (B, k) on the
    bootstrap resamples, `jackknife` (N, k) on the rows less one each. The bias
    correction is the share of resamples below the estimate (ties count half),
    the acceleration the skewness of the jackknife estimates. NaN where the
    bootstrap distribution is degenerate.
    """
    from scipy import special, stats

    below = ((resampled < point).sum(axis=0) + (resampled <= point).sum(axis=0)) / (2 * len(resampled))
    bias = special.ndtri(below)
    spread = jackknife.mean(axis=0) - jackknife
    with np.errstate(divide="ignore", invalid="ignore"):
        acceleration = (spread ** 3).sum(axis=0) / (6 * (spread ** 2).sum(axis=0) ** 1.5)
        z = special.ndtri((1 - confidence) / 2)
        levels = [special.ndtr(bias + (bias + q) / (1 - acceleration * (bias + q))) for q in (z, -z)]
    ends = stats.quantile(resampled.T, np.stack(levels, axis=-1), axis=-1)
    return ends[:, 0], ends[:, 1]


def indices_table(y, noise, n: int, names: Sequence[str], seed: int = 0,
                  confidence: float = 0.95) -> pd.DataFrame:
    """Sobol' indices with BCa bootstrap intervals from responses at the points of a Saltelli design.

    `y` and `noise` (each point's Monte Carlo variance; zeros for an exact
    response) are in design order (A, B, AB_1 .. AB_d, `n` points each). The
    bootstrap resamples the design's rows (row j of A, B and every AB_i
    together; scipy.stats.bootstrap's resamples and BCa interval, seeded), with
    the jackknife of the BCa acceleration from leave-one-out sums in closed form:
    time and memory grow linearly in n. Returns one row per rule: parameter,
    first_order, first_low, first_high, total, total_low, total_high,
    noise_share (the same on every row).
    """
    import pandas as pd

    d = len(names)
    y, noise = (np.asarray(x, dtype=float).reshape(d + 2, n) for x in (y, noise))
    terms = _row_terms(y, noise)
    total = terms.sum(axis=0)
    point = _indices(total / n, d)
    low = high = np.full(point.shape, np.nan)
    if not np.isnan(point).any():
        resampled = _bootstrap_indices(terms, d, point, np.random.default_rng(seed))
        jackknife = _indices((total - terms) / (n - 1), d)
        low, high = _bca_interval(point, resampled, jackknife, confidence)
    return pd.DataFrame({
        "parameter": list(names),
        "first_order": point[:d], "first_low": low[:d], "first_high": high[:d],
        "total": point[d:2 * d], "total_low": low[d:2 * d], "total_high": high[d:2 * d],
        "noise_share": point[-1],
    })


def variance_indices(func: Callable[[np.ndarray], np.ndarray], bounds: Sequence[tuple[float, float]], n: int,
                     seed: int = 0, names: Sequence[str] | None = None) -> pd.DataFrame:
    """First-order and total Sobol' indices of `func` with 95% bootstrap intervals.

    `func` maps an (m, d) array of points to m responses; the parameters are
    independent and uniform within `bounds` (one (low, high) per parameter).
    `n` base samples (a power of two) cost n(d + 2) evaluations. Returns one row
    per parameter: parameter, first_order, first_low, first_high, total,
    total_low, total_high.
    """
    bounds = np.asarray(bounds, dtype=float)
    d = len(bounds)
    names = list(names) if names is not None else [f"x{i + 1}" for i in range(d)]
    if len(names) != d:
        raise ValueError(f"{len(names)} names for {d} parameters")
    points = bounds[:, 0] + _unit_design(d, n, seed) * (bounds[:, 1] - bounds[:, 0])
    y = np.asarray(func(points), dtype=float).reshape(-1)
    if y.shape != (len(points),):
        raise ValueError(f"func returned {y.size} responses for {len(points)} points")
    return indices_table(y, np.zeros_like(y), n, names, seed).drop(columns="noise_share")


def rank_parameters(design: pd.DataFrame, params: list[str], metric: str) -> pd.DataFrame:
    """SRC of each parameter on `metric` with a 95% t interval and p-value, strongest first."""
    import pandas as pd
    from scipy import stats

    x = design[params].to_numpy(dtype=float)
    y = design[metric].to_numpy(dtype=float)
    ok = ~np.isnan(y)
    x, y = x[ok], y[ok]
    n = len(y)
    sx = x.std(axis=0, ddof=1) if n > 1 else np.zeros(len(params))
    sy = y.std(ddof=1) if n > 1 else 0.0
    varied = sx > 0
    rows = []
    d = int(varied.sum())
    if n > d + 1 and sy > 0 and d:
        z = (x[:, varied] - x[:, varied].mean(axis=0)) / sx[varied]
        zy = (y - y.mean()) / sy
        design_matrix = np.column_stack([np.ones(n), z])
        coef, *_ = np.linalg.lstsq(design_matrix, zy, rcond=None)
        resid = zy - design_matrix @ coef
        dof = n - d - 1
        sigma2 = resid @ resid / dof
        cov = sigma2 * np.linalg.pinv(design_matrix.T @ design_matrix)
        se = np.sqrt(np.diag(cov))[1:]
        t = stats.t.ppf(0.975, dof)
        r2 = 1 - (resid @ resid) / (zy @ zy)
        for name, b, s in zip(np.array(params)[varied], coef[1:], se, strict=True):
            p = 2 * stats.t.sf(abs(b / s), dof) if s > 0 else 0.0
            rows.append({"metric": metric, "parameter": name, "src": b, "ci_low": b - t * s, "ci_high": b + t * s,
                         "p_value": p, "r2": r2})
    done = {row["parameter"] for row in rows}
    for name in params:
        if name not in done:
            rows.append({"metric": metric, "parameter": name, "src": np.nan, "ci_low": np.nan, "ci_high": np.nan,
                         "p_value": np.nan, "r2": np.nan})
    table = pd.DataFrame(rows, columns=["metric", "parameter", "src", "ci_low", "ci_high", "p_value", "r2"])
    table["rank"] = table["src"].abs().rank(ascending=False, method="min")
    return table.sort_values("rank", ignore_index=True, na_position="last")


def rank_rules(design: pd.DataFrame, params: list[str], metric: str, noise, seed: int = 0) -> pd.DataFrame:
    """One metric measured at the points of `sobol_design`: rules ranked by total index, with SRC beside it.

    `design` holds the `block` column, the rules and the metric; `noise` each
    point's Monte Carlo variance of the metric. SRCs are fitted on the A and B
    points only. Columns: metric, parameter, rank, total (with total_low,
    total_high), first_order (first_low, first_high), src (src_low, src_high),
    r2, noise_share.
    """
    n = int((design["block"] == "A").sum())
    sobol = indices_table(design[metric], noise, n, params, seed)
    src = rank_parameters(design[design["block"].isin(["A", "B"])], params, metric)
    src = src.rename(columns={"ci_low": "src_low", "ci_high": "src_high"})[
        ["parameter", "src", "src_low", "src_high", "r2"]]
    table = sobol.merge(src, on="parameter")
    table.insert(0, "metric", metric)
    table.insert(2, "rank", table["total"].rank(ascending=False, method="min"))
    columns = ["metric", "parameter", "rank", "total", "total_low", "total_high", "first_order", "first_low",
               "first_high", "src", "src_low", "src_high", "r2", "noise_share"]
    return table[columns].sort_values("rank", ignore_index=True, na_position="last")


def reading(ranking: pd.DataFrame, games: int, samples: int) -> str:
    """A plain reading of one metric's ranking (`rank_rules`) from `samples` base samples of `games` games a point:
    which rule ranks first, whether SRC can be trusted, whether the noise is large."""
    r2 = ranking["r2"].dropna()
    noise = ranking["noise_share"].dropna()
    if ranking["total"].isna().all():
        why = (f"playout noise is {noise.iloc[0]:.0%} of the variation between rule points"
               if len(noise) and noise.iloc[0] >= 1 else "the metric did not vary or was not measured")
        return f"WARNING: no ranking: {why}"
    parts = [f"{ranking['parameter'].iloc[0]} ranks first by total index"]
    if not len(r2):
        parts.append("no linear fit")
    elif r2.iloc[0] < LOW_R2:
        parts.append(f"WARNING: R² = {r2.iloc[0]:.2f} < {LOW_R2}: a linear fit misses much of the variation "
                     "(curvature, interactions or playout noise); rank by the total index, not by SRC")
    else:
        parts.append(f"R² = {r2.iloc[0]:.2f}: a linear fit explains most of the variation, so SRC gives the "
                     "direction of each effect")
    share = noise.iloc[0]
    if share >= MOSTLY_NOISE:
        parts.append(f"WARNING: the variation between rule points is mostly playout noise (noise share {share:.2f}, "
                     f"{games} games each): the ranking means little; play more games per point")
    elif share > HIGH_NOISE:
        parts.append(f"WARNING: playout noise is {share:.0%} of the variation between rule points ({games} games "
                     "each): the indices are small and uncertain; play more games per point")
    else:
        parts.append(f"playout noise is {share:.0%} of the variation between rule points")
    if samples <= FEW_SAMPLES:
        parts.append(f"WARNING: only {samples} base samples: the bootstrap intervals over them are rough; "
                     "take more points")
    return "; ".join(parts)


def sensitivity_figure(table: pd.DataFrame, metric: str):
    """Total and first-order indices with intervals for one metric, largest total on top."""
    import matplotlib.pyplot as plt

    part = table[table["metric"] == metric].sort_values("total", na_position="first")
    fig, ax = plt.subplots(figsize=(6.5, 0.55 * len(part) + 1.8))
    y = np.arange(len(part))
    total, first = part["total"].to_numpy(dtype=float), part["first_order"].to_numpy(dtype=float)
    ax.barh(y, np.nan_to_num(total), color="#3b75af", alpha=0.75, label="total index")
    ax.errorbar(total, y, xerr=[total - part["total_low"], part["total_high"] - total], fmt="none",
                ecolor="black", capsize=3)
    ax.errorbar(first, y + 0.2, xerr=[first - part["first_low"], part["first_high"] - first], fmt="o",
                color="#c0504d", capsize=3, label="first-order index")
    ax.set_yticks(y, part["parameter"])
    ax.axvline(0, color="grey", linewidth=0.8)
    r2, noise = part["r2"].dropna(), part["noise_share"].dropna()
    title = f"{metric}: share of its observed variance due to each rule"
    if len(r2) or len(noise):
        title += "\n(" + ", ".join(([f"R² of the linear fit {r2.iloc[0]:.2f}"] if len(r2) else [])
                                   + ([f"noise share {noise.iloc[0]:.0%}"] if len(noise) else [])) + ")"
    ax.set_title(title, fontsize=10)
    ax.set_xlabel("Sobol' index (95% bootstrap interval)")
    legend_outside(ax)
    fig.tight_layout()
    return fig
