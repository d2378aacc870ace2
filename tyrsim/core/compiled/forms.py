"""An object policy's compiled form: the kind a game's compiled policies switch on, and the policy's named weights
as one record (the names of the game's `weights.py`). Both are read from the policy object itself, by its name and
its weights, so a game's compiled code never imports its object policies; `seat_forms` lays a table's forms out as
the arrays a compiled turn loop reads.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from tyrsim.core.engine.weights import weight_names

# (kind, weights: a one-element recarray of `weight_record(schema)`)
Form = tuple[int, np.recarray]


def weight_record(schema: type) -> np.dtype:
    """The record of the named weights of the weights class `schema` (float64, in its order): compiled code reads
    `weights.take_threshold`."""
    return np.dtype([(name, np.float64) for name in weight_names(schema)])


def weights_of(weights: Any, schema: type) -> np.recarray:
    """A one-element recarray of `weight_record(schema)` holding the named weights of `weights` (an instance of
    `schema`: a policy with those weights, or the weights themselves)."""
    record = np.zeros(1, weight_record(schema)).view(np.recarray)
    for name in weight_names(schema):
        record[0][name] = float(getattr(weights, name))
    return record


def form_of(policy: Any, kinds: Mapping[str, int], schema: type) -> Form | None:
    """The compiled form of the object policy `policy`: its kind, by its name among `kinds` (the game's policies
    that have a compiled form; None for any other), and its weights where it has the named weights `schema`
    (else zeros, which its kind does not read)."""
    kind = kinds.get(getattr(policy, "name", None))
    if kind is None:
        return None
    if isinstance(policy, schema):
        return kind, weights_of(policy, schema)
    return kind, np.zeros(1, weight_record(schema)).view(np.recarray)


def seat_forms(forms: Sequence[Form]) -> tuple[np.ndarray, np.recarray]:
    """The kinds (int64) and the weight records of the seats' policies, in seat order, as a turn loop reads them
    (`kinds[which]`, `weights[which]`)."""
    kinds = np.array([kind for kind, _ in forms], dtype=np.int64)
    return kinds, np.concatenate([weights for _, weights in forms]).view(np.recarray)
