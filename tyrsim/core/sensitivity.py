"""Rule sensitivity: sample the rule space, then rank the rules by how much they move a metric.

Points are a Latin hypercube over the given ranges (scipy.stats.qmc), so every
parameter's range is covered evenly even with a few dozen points. The ranking
is regression-based: standardised regression coefficients (SRC) of the metric
on the standardised parameters, with t intervals from the least-squares fit,
and the fit's R^2. Why not Sobol first-order and total indices: they need
N(d+2) evaluations with N in the hundreds, where a designer can afford a few
dozen points of a few thousand games each; SRCs are exact for a linear
response, their intervals are honest about noise, and R^2 says how much of the
metric's variation a linear model explains (a low R^2 warns that interactions
or curvature matter and a finer study is needed).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats
from scipy.stats import qmc


def sample_points(ranges: dict[str, tuple[float, float, type]], n: int, seed: int) -> pd.DataFrame:
    """`n` Latin hypercube points; integer parameters take every value of their range equally often."""
    sampler = qmc.LatinHypercube(d=len(ranges), rng=np.random.default_rng(seed))
    unit = sampler.random(n)
    columns = {}
    for k, (name, (low, high, kind)) in enumerate(ranges.items()):
        if kind is int:
            columns[name] = np.minimum(np.floor(low + unit[:, k] * (high - low + 1)), high).astype(int)
        else:
            columns[name] = low + unit[:, k] * (high - low)
    return pd.DataFrame(columns)


def rank_parameters(design: pd.DataFrame, params: list[str], metric: str) -> pd.DataFrame:
    """SRC of each parameter on `metric` with a 95% t interval and p-value, strongest first."""
    x = design[params].to_numpy(dtype=float)
    y = design[metric].to_numpy(dtype=float)
    ok = ~np.isnan(y)
    x, y = x[ok], y[ok]
    sx, sy = x.std(axis=0, ddof=1), y.std(ddof=1)
    varied = sx > 0
    rows = []
    n, d = len(y), int(varied.sum())
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
    for name in np.array(params)[~varied]:
        rows.append({"metric": metric, "parameter": name, "src": np.nan, "ci_low": np.nan, "ci_high": np.nan,
                     "p_value": np.nan, "r2": np.nan})
    table = pd.DataFrame(rows, columns=["metric", "parameter", "src", "ci_low", "ci_high", "p_value", "r2"])
    table["rank"] = table["src"].abs().rank(ascending=False, method="min")
    return table.sort_values("rank", ignore_index=True, na_position="last")


def sensitivity_figure(table: pd.DataFrame, metric: str):
    """Standardised regression coefficients with intervals for one metric."""
    import matplotlib.pyplot as plt

    part = table[table["metric"] == metric].sort_values("src", key=np.abs)
    fig, ax = plt.subplots(figsize=(6.5, 0.5 * len(part) + 1.6))
    y = np.arange(len(part))
    ax.barh(y, part["src"], color=np.where(part["src"] >= 0, "#3b75af", "#c0504d"))
    ax.errorbar(part["src"], y, xerr=[part["src"] - part["ci_low"], part["ci_high"] - part["src"]], fmt="none",
                ecolor="black", capsize=3)
    ax.set_yticks(y, part["parameter"])
    ax.axvline(0, color="grey", linewidth=0.8)
    r2 = part["r2"].dropna()
    ax.set_title(f"{metric}: standardised effect of each rule" + (f" (R² = {r2.iloc[0]:.2f})" if len(r2) else ""))
    ax.set_xlabel("standardised regression coefficient (95% interval)")
    fig.tight_layout()
    return fig
