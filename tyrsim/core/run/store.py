"""The result store: one finished task's result per file, in a data-only format that proves what it holds.

A task's result is its table of rows, or its summary: a few named tables (parts)
that add up over tasks (`tyrsim.core.engine.analysis.TaskSummary`).

An entry is a numpy `.npz` file (a zip of `.npy` arrays), read with
`allow_pickle=False`: reading it can only ever produce numbers and text, never
run code, whoever wrote the file. It holds one array per column (a text column
is three arrays: its UTF-8 bytes, where each value ends, which values are
missing) and a JSON header: the format version, the task key, the number of
rows, each column's name, kind and dtype (for a summary: per part its name,
rows and columns, the part's arrays named after its place), and a SHA-256
checksum over the header and every array's dtype, shape and bytes.

`ResultStore.get(key)` returns a table only when the file is a readable entry
of this format whose header names that very key and whose checksum matches its
content; anything else (a damaged file, an entry copied over another's name, an
older format, a pickle) reads as "not stored" and the task is computed again.
Whether the columns are what the analysis produces is checked by the sweep,
which compares them with the other chunks of the same point (and a summary's
parts with those the analysis declares).

The folder is created at the first entry written, so a run that fails before
finishing any task leaves no empty store behind.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import zipfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

STORE_FORMAT = 2  # 1 was pickled DataFrames, never read since
SUFFIX = ".npz"
NUMERIC_KINDS = {"i": "int", "u": "int", "f": "float", "b": "bool"}


class UnsupportedColumn(TypeError):
    """A table column the store cannot keep exactly (an analysis should return int, float, bool or str)."""


def _text_dtype(dtype: Any) -> str | None:
    """How a text column's dtype is written down ("object" or "string:<storage>:<nan|NA>"), None if not text."""
    if isinstance(dtype, np.dtype) and dtype.kind == "O":
        return "object"
    if isinstance(dtype, pd.StringDtype):
        na = "nan" if dtype.na_value is np.nan else "NA"
        return f"string:{dtype.storage}:{na}"
    return None


def _text_restore(values: list, dtype: str) -> pd.Series:
    if dtype == "object":
        array = np.empty(len(values), dtype=object)
        array[:] = values
        return pd.Series(array, dtype=object)  # as it was: pandas would otherwise infer a string dtype
    _, storage, na = dtype.split(":")
    kind = pd.StringDtype(storage) if na == "NA" else pd.StringDtype(storage, na_value=np.nan)
    return pd.Series(pd.array(values, dtype=kind))


def _encode(table: pd.DataFrame, prefix: str = "") -> tuple[list[list[str]], dict[str, np.ndarray]]:
    """([name, kind, dtype] per column, {array name: array}, each name starting `prefix`); UnsupportedColumn
    for anything else."""
    names = list(table.columns)
    if any(not isinstance(n, str) for n in names) or len(set(names)) != len(names):
        raise UnsupportedColumn(f"the result store keeps tables with unique text column names, not {names!r}")
    columns: list[list[str]] = []
    arrays: dict[str, np.ndarray] = {}
    for i, name in enumerate(names):
        column = table[name]
        if isinstance(column.dtype, np.dtype) and column.dtype.kind in NUMERIC_KINDS:
            values = column.to_numpy()
            columns.append([name, NUMERIC_KINDS[values.dtype.kind], values.dtype.str])
            arrays[f"{prefix}c{i}"] = values
            continue
        text = _text_dtype(column.dtype)
        values = column.to_numpy(dtype=object)
        missing = np.asarray(pd.isna(values), dtype=bool)
        if (text is None or any(not isinstance(v, str) for v in values[~missing])
                or (text == "object" and missing.any())):
            raise UnsupportedColumn(
                f"the result store cannot keep column {name!r} of dtype {column.dtype}; "
                "an analysis's raw rows are int, float, bool or str columns"
            )
        encoded = [b"" if m else v.encode("utf-8", "surrogatepass") for v, m in zip(values, missing, strict=True)]
        columns.append([name, "str", text])
        arrays[f"{prefix}c{i}.utf8"] = np.frombuffer(b"".join(encoded), dtype=np.uint8)
        arrays[f"{prefix}c{i}.ends"] = np.cumsum([len(b) for b in encoded], dtype=np.int64)
        arrays[f"{prefix}c{i}.missing"] = missing
    return columns, arrays


def _decode(columns: list[list[str]], arrays: dict[str, np.ndarray], rows: int, prefix: str = "") -> pd.DataFrame:
    if not isinstance(rows, int) or rows < 0:
        raise ValueError("the row count is not a count")
    data: dict[str, Any] = {}
    for i, (name, kind, dtype) in enumerate(columns):
        if kind != "str":
            values = arrays[f"{prefix}c{i}"]
            if values.dtype.str != dtype or NUMERIC_KINDS.get(values.dtype.kind) != kind or values.shape != (rows,):
                raise ValueError(f"column {name!r} does not match its header")
            data[name] = values
            continue
        raw, ends, missing = (arrays[f"{prefix}c{i}.{part}"] for part in ("utf8", "ends", "missing"))
        if (raw.dtype != np.uint8 or ends.dtype != np.int64 or missing.dtype != bool
                or ends.shape != (rows,) or missing.shape != (rows,)):
            raise ValueError(f"column {name!r} does not match its header")
        blob = raw.tobytes()
        starts = np.concatenate([[0], ends[:-1]]) if rows else ends
        data[name] = _text_restore(
            [None if m else blob[s:e].decode("utf-8", "surrogatepass") for s, e, m in zip(starts, ends, missing,
                                                                                           strict=True)],
            dtype,
        )
    return pd.DataFrame(data, index=pd.RangeIndex(rows))


def _checksum(header: dict[str, Any], arrays: dict[str, np.ndarray]) -> str:
    """SHA-256 of the header (without its checksum) and of every array's name, dtype, shape and bytes."""
    digest = hashlib.sha256(json.dumps({k: v for k, v in header.items() if k != "sha256"}, sort_keys=True).encode())
    for name in sorted(arrays):
        array = np.ascontiguousarray(arrays[name])
        digest.update(f"\n{name} {array.dtype.str} {array.shape}\n".encode())
        digest.update(array.tobytes())
    return digest.hexdigest()


class ResultStore:
    """Finished task results in a folder, one verified file per task, written atomically."""

    def __init__(self, folder: Path | None, *, read: bool = True):
        self.folder = folder
        self.read = read  # False: compute everything afresh (results are still stored)

    def path(self, key: str) -> Path:
        assert self.folder is not None
        return self.folder / f"{key}{SUFFIX}"

    def get(self, key: str) -> pd.DataFrame | dict[str, pd.DataFrame] | None:
        """The table (or the summary's {part: table}) stored under `key`, or None when there is none this store
        can vouch for."""
        if self.folder is None or not self.read:
            return None
        try:
            with np.load(self.path(key), allow_pickle=False) as entry:
                arrays = {name: entry[name] for name in entry.files}
        except (OSError, ValueError, EOFError, zipfile.BadZipFile, AttributeError, TypeError):
            return None  # missing, not an npz archive, damaged, or holding pickled objects
        try:
            header = json.loads(arrays.pop("header").tobytes().decode("utf-8"))
            if (header.get("format") != STORE_FORMAT or header.get("key") != key
                    or header.get("sha256") != _checksum(header, arrays)):
                return None
            if "parts" in header:
                parts = header["parts"]
                names = [name for j, (_, _, columns) in enumerate(parts) for name in _array_names(columns, f"p{j}.")]
                if set(arrays) != set(names) or len({name for name, _, _ in parts}) != len(parts):
                    return None
                return {name: _decode(columns, arrays, rows, f"p{j}.") for j, (name, rows, columns) in enumerate(parts)}
            columns, rows = header["columns"], header["rows"]
            if set(arrays) != set(_array_names(columns)):
                return None
            return _decode(columns, arrays, rows)
        except (KeyError, ValueError, TypeError, AttributeError, UnicodeDecodeError):
            return None  # a header or column this format does not write

    def put(self, key: str, table: pd.DataFrame | Mapping[str, pd.DataFrame]) -> None:
        """Store `table` (or a summary's {part: table}) under `key` (atomically: a reader sees the old entry or
        the whole new one)."""
        if self.folder is None:
            return
        header: dict[str, Any] = {"format": STORE_FORMAT, "key": key}
        if isinstance(table, pd.DataFrame):
            header["rows"] = len(table)
            header["columns"], arrays = _encode(table)
        else:
            header["parts"], arrays = [], {}
            for j, (name, part) in enumerate(table.items()):
                columns, encoded = _encode(part, f"p{j}.")
                header["parts"].append([name, len(part), columns])
                arrays.update(encoded)
        header["sha256"] = _checksum(header, arrays)
        self.folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=self.folder, prefix=".tmp-", suffix=SUFFIX)
        try:
            with os.fdopen(fd, "wb") as file:
                np.savez(file, header=np.frombuffer(json.dumps(header).encode("utf-8"), dtype=np.uint8), **arrays)
            os.replace(tmp, self.path(key))
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise


def _array_names(columns: list[list[str]], prefix: str = "") -> list[str]:
    names = []
    for i, (_, kind, _) in enumerate(columns):
        text = kind == "str"
        names += [f"{prefix}c{i}.{part}" for part in ("utf8", "ends", "missing")] if text else [f"{prefix}c{i}"]
    return names
