"""Figure conventions every report figure follows, and the figure of a variant comparison.

- A legend sits outside the axes, to their right, so it never covers data (`legend_outside`);
  reports save figures with a tight bounding box, so it is never cut off either.
- A line joins points only when there are enough of them to be a curve (`line_style`).
- A sweep's variants are overlaid in one figure with their intervals (`comparison_figure`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    import pandas as pd

MIN_CURVE_POINTS = 3  # fewer points are drawn as markers, not joined as a curve
MAX_ITEMS = 25  # rows of a comparison figure: the items with the largest changes


def legend_outside(ax, **kwargs) -> None:
    """The axes' legend to the right of the plot, where it cannot cover data."""
    ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0.0, fontsize=8, **kwargs)


def line_style(n_points: int) -> str:
    """ "o-" for a curve, "o" for points too few to be one."""
    return "o-" if n_points >= MIN_CURVE_POINTS else "o"


def _item_label(row: pd.Series, keys: list[str]) -> str:
    """An item's key values, "1 / 2 / 1 / 3" (the axis label names the keys); whole numbers without ".0"."""
    values = [int(v) if isinstance(v, float) and v.is_integer() else v for v in (row[k] for k in keys)]
    return " / ".join(map(str, values)) or "all"


def comparison_figure(comparison: pd.DataFrame, metric: str, kind: str, what: str, keys: tuple[str, ...],
                      labels: Mapping[str, str]):
    """Each variant's change against the baseline, item by item, with its 95% interval, in one figure; `labels`:
    {variant: its label in words}.

    Shares are drawn in percentage points; significant changes (after Holm) are filled markers,
    the others hollow. With many items, those with the largest changes are shown."""
    import matplotlib.pyplot as plt

    part = comparison[comparison["metric"] == metric].copy()
    keys = [k for k in keys if k in part.columns]
    part["item"] = [_item_label(row, keys) for _, row in part.iterrows()]
    scale = 100 if kind == "proportion" else 1
    size = part.groupby("item")["difference"].apply(lambda d: d.abs().max())
    items = size.sort_values(ascending=False, na_position="last").index[:MAX_ITEMS].tolist()[::-1]
    variants = list(dict.fromkeys(part["variant"]))
    fig, ax = plt.subplots(figsize=(7, 0.3 * len(items) * max(1, len(variants) / 2) + 1.8))
    offsets = np.linspace(-0.3, 0.3, len(variants)) if len(variants) > 1 else [0.0]
    for offset, variant, colour in zip(offsets, variants, plt.rcParams["axes.prop_cycle"].by_key()["color"] * 9,
                                       strict=False):
        rows = part[part["variant"] == variant].set_index("item").reindex(items)
        y = np.arange(len(items)) + offset
        d = scale * rows["difference"].to_numpy(dtype=float)
        low, high = scale * rows["diff_low"].to_numpy(dtype=float), scale * rows["diff_high"].to_numpy(dtype=float)
        err = np.vstack([np.nan_to_num(d - low), np.nan_to_num(high - d)])
        ax.errorbar(d, y, xerr=err, fmt="none", ecolor=colour, capsize=2, linewidth=1)
        significant = rows["significant"].fillna(False).astype(bool).to_numpy()
        ax.scatter(d[significant], y[significant], color=colour, zorder=3, label=labels.get(variant, variant))
        ax.scatter(d[~significant], y[~significant], facecolors="white", edgecolors=colour, zorder=3)
    ax.axvline(0, color="grey", linewidth=0.8)
    ax.set_yticks(np.arange(len(items)), items, fontsize=8)
    ax.set_ylabel(" / ".join(k.replace("_", " ") for k in keys) or "")
    unit = " (percentage points)" if kind == "proportion" else ""
    ax.set_xlabel(f"change against the baseline{unit}, 95% interval")
    shown = "" if len(items) == part["item"].nunique() else f"; the {len(items)} largest changes"
    ax.set_title(f"{what}: each variant against the baseline{shown}", fontsize=10)
    ax.scatter([], [], facecolors="white", edgecolors="grey",
               label="hollow: not significant\nafter the Holm correction")
    legend_outside(ax, title="variant")
    fig.tight_layout()
    return fig


def comparison_figures(comparison: pd.DataFrame, metrics: Mapping[str, object],
                       labels: Mapping[str, str]) -> dict[str, object]:
    """{"comparison_<metric>": figure} for every metric a scenario compares; `labels`: {variant: its label in words}
    (`rule_words.label`)."""
    if comparison is None or not len(comparison):
        return {}
    return {f"comparison_{name}": comparison_figure(comparison, name, metrics[name].kind,
                                                    metrics[name].doc or name, tuple(metrics[name].keys), labels)
            for name in dict.fromkeys(comparison["metric"])}
