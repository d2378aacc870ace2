"""Tables as text: a terminal's fixed-width table, Markdown, JSON records and CSV (what `--format` and a report's
files hold)."""

from __future__ import annotations

import json
import math
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    import pandas as pd


def _cell(value, digits: int) -> str:
    import pandas as pd

    if isinstance(value, bool | np.bool_):
        return "yes" if value else "no"
    if isinstance(value, float | np.floating):
        if math.isnan(value):
            return "-"
        if math.isinf(value):
            return "inf"
        if float(value).is_integer() and abs(value) >= 1000:
            return f"{value:.0f}"
        return f"{value:.{digits}f}"
    if value is pd.NA or value is None:
        return "-"
    return str(value)


def text_cells(table: pd.DataFrame, digits: int = 4) -> list[list[str]]:
    return [[_cell(v, digits) for v in row] for row in table.itertuples(index=False)]


def terminal_table(table: pd.DataFrame, digits: int = 4) -> str:
    """A readable fixed-width table: right-aligned numbers, '-' for not-a-number."""
    header = [str(c) for c in table.columns]
    rows = text_cells(table, digits)
    widths = [max([len(h)] + [len(r[i]) for r in rows]) for i, h in enumerate(header)]
    lines = ["  ".join(h.rjust(w) for h, w in zip(header, widths, strict=True))]
    lines.append("  ".join("-" * w for w in widths))
    lines += ["  ".join(c.rjust(w) for c, w in zip(r, widths, strict=True)) for r in rows]
    return "\n".join(lines)


def markdown_table(table: pd.DataFrame, digits: int = 4) -> str:
    """A GitHub-flavoured Markdown table."""
    header = [str(c) for c in table.columns]
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---:" for _ in header) + "|"]
    lines += ["| " + " | ".join(r) + " |" for r in text_cells(table, digits)]
    return "\n".join(lines)


def json_records(table: pd.DataFrame) -> str:
    """JSON list of row objects; not-a-number and infinity become null (JSON has neither)."""
    records = []
    for row in table.to_dict(orient="records"):
        clean = {}
        for key, value in row.items():
            if isinstance(value, np.generic):
                value = value.item()
            if isinstance(value, float) and not math.isfinite(value):
                value = None
            clean[key] = value
        records.append(clean)
    return json.dumps(records, indent=1)


def csv_text(table: pd.DataFrame) -> str:
    return table.to_csv(index=False, lineterminator="\n")
