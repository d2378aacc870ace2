"""The comparison of a scenario's variants: each sweep point against the baseline point, per metric and
item, with the difference, its interval and a Holm-adjusted p-value.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from tyrsim.core.stats import intervals as stats

if TYPE_CHECKING:  # the run's records, read here; statistics never import the run
    from tyrsim.core.run.scenario import Scenario
    from tyrsim.core.run.sweep import PointResult


def comparison_table(scenario: Scenario, results: list[PointResult]) -> pd.DataFrame:
    """Each variant against the baseline point, per metric and item: difference, interval, p-value.

    Sampled points: proportions by the two-proportion z test (the 2x2 chi-square
    without continuity correction) with a Newcombe interval; means by Welch's t.
    Rows no such test fits say so in `test` (stats.proportion_tests and
    stats.mean_tests): with no trials, or one trial of a mean, on a side there
    is no test and the p-value is NaN.

    Exact points (no trials: the analysis computed its values exactly) have no
    sampling error: two exact points compare by their difference alone, a
    zero-width interval and no p-value (`test` = "exact (no sampling error)").
    An exact point's value of a metric is the column of the metric's name in the
    analysis's own tables, in the table that has the metric's key columns, one
    row per item; a metric no table holds has no exact value (NaN). An exact
    point against a sampled one is not tested either (NaN).

    p-values are Holm-adjusted across every tested row of the scenario (rows
    without a p-value are not counted); `significant` is True where the adjusted
    p-value is below 0.05, and False where it is not or where there is none.
    """
    if scenario.baseline is None:
        return pd.DataFrame()
    exact_test = "exact (no sampling error)"

    def estimates(metric, name: str, result: PointResult) -> pd.DataFrame:
        table = metric.estimate(result.raw, result.point.rules, result.point.args)
        if result.trials > 0:
            return table
        keys = list(metric.keys)
        table = table[keys].assign(estimate=np.nan)
        computed = scenario.analysis.tables(result.raw, result.point.rules, result.point.args)
        for candidate in computed.values():
            if {name, *keys} <= set(candidate.columns) and not candidate.duplicated(keys).any():
                exact = candidate[[*keys, name]].rename(columns={name: "estimate"})
                return table.drop(columns="estimate").merge(exact, on=keys, how="left")
        return table

    base = results[scenario.baseline]
    rows = []
    for name in scenario.metrics:
        metric = scenario.analysis.metrics[name]
        base_table = estimates(metric, name, base)
        for result in results:
            if result.point.index == scenario.baseline:
                continue
            table = estimates(metric, name, result)
            merged = table.merge(base_table, on=list(metric.keys), suffixes=("", "_base"))
            if result.trials == 0 or base.trials == 0:
                diff = (merged["estimate"] - merged["estimate_base"]).to_numpy()
                both_exact = result.trials == 0 and base.trials == 0
                low = high = diff if both_exact else np.full(len(merged), np.nan)
                p = np.full(len(merged), np.nan)
                test = np.where(np.isnan(diff), "none (no exact value of this metric)",
                                exact_test if both_exact else "none (one side exact, one sampled)")
            elif metric.kind == "proportion":
                diff, low, high, p = stats.compare_proportions(
                    merged["successes"], merged["n"], merged["successes_base"], merged["n_base"])
                test = stats.proportion_tests(merged["successes"], merged["n"], merged["successes_base"],
                                              merged["n_base"])
            else:
                diff, low, high, p = stats.compare_means(
                    merged["mean"], merged["sd"], merged["n"], merged["mean_base"], merged["sd_base"],
                    merged["n_base"])
                test = stats.mean_tests(merged["sd"], merged["n"], merged["sd_base"], merged["n_base"])
            for i in range(len(merged)):
                row = {"variant": result.point.title(), "metric": name}
                row.update({k: merged[k].iloc[i] for k in metric.keys})
                row.update({
                    "baseline": merged["estimate_base"].iloc[i], "value": merged["estimate"].iloc[i],
                    "difference": diff[i], "diff_low": low[i], "diff_high": high[i], "p_value": p[i],
                    "test": str(test[i]),
                })
                rows.append(row)
    table = pd.DataFrame(rows)
    if len(table):
        table["p_holm"] = stats.holm(table["p_value"])
        table["significant"] = table["p_holm"] < 0.05  # False where there is no p-value (NaN)
    return table
