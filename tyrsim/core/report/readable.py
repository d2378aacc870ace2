"""Tables as a person reads them on a report page.

The CSV beside a page keeps every column at full precision; the page shows the same rows
readably:
- an estimate and its interval in one cell ("58.0% [53.1, 62.7]"), where the table has an
  `X_low` / `X_high` pair right after the estimate it belongs to;
- numbers by kind: counts as integers, shares and probabilities as percentages, p-values
  like "3e-12", other numbers with digits by their size, never "-0.00"; yes/no for flags;
  lists as text ("hunter vs contractor");
- headers in words ("win rate", "p (Holm)"), and the key columns (what a row is about)
  before the measures.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from tyrsim.core.report import words

if TYPE_CHECKING:
    import pandas as pd

# headers that are not just the column name with spaces
HEADERS = {
    "p_value": "p-value",
    "p_holm": "p (Holm)",
    "n": "trials",
    "n_fights": "fights",
    "sd_score": "sd of score",
    "ci": "95% interval",
}
P_VALUE_COLUMNS = ("p_value", "p_holm", "seat_advantage_p")


def header(column: str) -> str:
    """A column's name in words: "p_attacker_2_0" reads "P(attacker 2:0)"."""
    if column in HEADERS:
        return HEADERS[column]
    text = re.sub(r"(\d)_(\d)", r"\1:\2", column)
    if text.startswith("p_"):
        return f"P({text[2:].replace('_', ' ')})"
    return text.replace("_", " ")


def _is_share(column: str, values: pd.Series) -> bool:
    """A probability or a share: named so, and every value in [0, 1]."""
    named = (column.startswith(("p_", "share", "win_rate")) or column.endswith(("_rate", "_share", "_prob"))
             or "_p_" in column)
    finite = values[np.isfinite(values)]
    return named and column not in P_VALUE_COLUMNS and len(finite) > 0 and finite.between(-1, 1).all()


def _is_count(column: str) -> bool:
    return column in ("n", "games", "trials", "matchups", "comparisons") or column.startswith("n_")


def _interval_pairs(columns: Sequence[str], headline: str | None = None) -> dict[str, tuple[str, str]]:
    """{estimate column: (low column, high column)} for each `P_low, P_high` right after its estimate.

    A plain `ci_low, ci_high` pair after a count (`n_fights`) is the interval of the table's headline
    measure, when the table has it."""
    pairs = {}
    for i in range(1, len(columns) - 1):
        low, high = columns[i], columns[i + 1]
        if not (low.endswith("_low") and high == low[:-4] + "_high"):
            continue
        prefix, estimate = low[:-4], columns[i - 1]
        if prefix == "ci" and _is_count(estimate):
            if headline in columns:
                pairs[headline] = (low, high)
        elif prefix == "ci" or prefix in estimate.split("_") or estimate.startswith(prefix):
            pairs[estimate] = (low, high)
    return pairs


def _number(value: float) -> str:
    """A number with digits by its size (a column of whole numbers is shown as counts before this)."""
    if not math.isfinite(value):
        return "-"
    size = abs(value)
    digits = 4 if size < 0.01 else 3 if size < 1 else 2 if size < 100 else 1 if size < 10_000 else 0
    return words.fixed(value, digits)


def _count(value: float) -> str:
    return f"{int(value):,}" if math.isfinite(value) else "-"


def _formatter(column: str, values: pd.Series):
    """How to show one column's cells."""
    import pandas as pd

    if pd.api.types.is_bool_dtype(values):
        return lambda v: "yes" if v else "no"
    if pd.api.types.is_integer_dtype(values):
        return lambda v: f"{int(v):,}"
    if pd.api.types.is_float_dtype(values):
        if column in P_VALUE_COLUMNS or column.endswith("_p"):
            return lambda v: words.p_value(v) if math.isfinite(v) else "-"
        if _is_share(column, values):
            return lambda v: words.percent(v) if math.isfinite(v) else "-"
        finite = values[np.isfinite(values)]
        if len(finite) and (finite == finite.round()).all() and finite.abs().max() < 1e15:
            return _count
        return _number
    return cell_text


def _missing(value) -> bool:
    import pandas as pd

    return value is None or value is pd.NA or (isinstance(value, float | np.floating) and math.isnan(value))


def cell_text(value) -> str:
    """A text, flag or list cell as the page shows it ("-" for a missing value, lists as "a vs b")."""
    if _missing(value):
        return "-"
    if isinstance(value, list | tuple):
        return " vs ".join(map(str, value))
    text = str(value)
    if text.startswith("[") and text.endswith("]") and "'" in text:  # a list as a swept value shows it
        return " vs ".join(part.strip(" '\"") for part in text[1:-1].split(","))
    return text


def key_columns(table: pd.DataFrame) -> list[str]:
    """What a row is about: the columns left of the first measure (a float column)."""
    import pandas as pd

    keys = []
    for column in table.columns:
        if pd.api.types.is_float_dtype(table[column]):
            break
        keys.append(column)
    return keys


def readable(table: pd.DataFrame, first: Sequence[str] = (), headline: str | None = None) -> pd.DataFrame:
    """The table as the page shows it: text cells, intervals joined, headers in words, keys (and `first`) first.

    `headline`: the analysis's headline measure, which a lone `ci_low, ci_high` pair belongs to."""
    import pandas as pd

    columns = list(table.columns)
    pairs = _interval_pairs(columns, headline)
    inside = {c for pair in pairs.values() for c in pair}
    order = [c for c in dict.fromkeys([*key_columns(table), *(c for c in first if c in columns), *columns])
             if c not in inside]
    shown = {}
    for column in order:
        show = _formatter(column, table[column])
        cells = [cell_text(v) if _missing(v) else show(v) for v in table[column]]
        if column in pairs:  # the estimate and its interval in one cell, the interval's digits for both
            low, high = pairs[column]
            share = _is_share(column, table[column])
            for i, values in enumerate(zip(table[column], table[low], table[high], strict=True)):
                v, lo, hi = (math.nan if _missing(x) else float(x) for x in values)
                if share:
                    cells[i] = words.percent(v, lo, hi) if math.isfinite(v) else "-"
                elif math.isfinite(v):
                    cells[i] = words.number(v, lo, hi)
        shown[header(column)] = cells
    return pd.DataFrame(shown, index=table.index)
