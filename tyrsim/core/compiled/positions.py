"""A compiled position as the differential tests compare it with the object engine's: the fields in which two
positions differ, once each game has put both in its canonical form (its `tidy`: the parts the rules leave in no
order sorted, what no rule reads cleared)."""

from __future__ import annotations

import numpy as np


def differing_fields(a: np.ndarray, b: np.ndarray) -> list[str]:
    """The fields of the position record in which the tidied positions `a` and `b` differ (empty: the same game
    position)."""
    if a.tobytes() == b.tobytes():
        return []
    return [name for name in a.dtype.names if not np.array_equal(a[name], b[name])]
