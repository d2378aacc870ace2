"""Weights files: the named weights of a policy's evaluation, as `tyrsim tune` writes them.

A policy with weights a tuner may change declares them and their ranges in a class
attribute `tunable` ({field name: (low, high)}). A weights file is TOML:

    game = "zooloretto-duell"
    policy = "heuristic"

    [weights]
    take_threshold = 1.83
    steal_threshold = 0.61

    [tuning]            # how the weights were found; informational, never read back
    seed = 0
    ...

and is used as `--policy NAME:weights=FILE`: the file's weights replace the
policy's defaults, and a weight also given as key=value (before or after it)
takes that value. `FILE` may be `bundled:NAME.toml`, a file in the game's bundled
data folder (tuned weights that ship with tyrsim). The result store hashes a named file's bytes into every task
key, so an edited file is never answered with results of the old weights.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from tyrsim.core.engine.datafile import DataFileError, is_bundled, load_data

WEIGHTS = "weights"


def tunable(cls: type) -> Mapping[str, tuple[float, float]]:
    """The weights `cls` lets a tuner change, with their ranges; empty for a policy without any."""
    return getattr(cls, "tunable", {}) or {}


def defaults(cls: type) -> dict[str, float]:
    """The default value of each tunable weight of the policy class `cls`."""
    fields = {f.name: f.default for f in dataclasses.fields(cls)}
    return {name: fields[name] for name in tunable(cls)}


def read_weights(path: str, game: str, policy: str, cls: type) -> dict[str, float]:
    """The weights in the file `path` (or `bundled:NAME`) for `policy` of `game`; DataFileError when wrong."""
    package = cls.__module__.rpartition(".")[0]
    if not path:
        raise DataFileError(f"weights=: name a weights file written by `tyrsim tune {game}`")
    shown, data = load_data(path, package, "")
    if data.get("game") != game or data.get("policy") != policy:
        raise DataFileError(f"{shown}: holds weights for policy {data.get('policy')!r} of {data.get('game')!r}, "
                            f"not for {policy!r} of {game!r}")
    weights = data.get(WEIGHTS)
    ranges = tunable(cls)
    if not isinstance(weights, dict) or not weights:
        raise DataFileError(f"{shown}: needs a [weights] table naming some of: {', '.join(ranges)}")
    types = {f.name: f.type for f in dataclasses.fields(cls)}
    out = {}
    for name, value in weights.items():
        if name not in ranges:
            raise DataFileError(f"{shown}: {name!r} is not a weight of {policy!r}; its weights are: "
                                + ", ".join(ranges))
        if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
            raise DataFileError(f"{shown}: weight {name} = {value!r} is not a finite number")
        if types[name] in (int, "int"):
            if value != int(value):
                raise DataFileError(f"{shown}: weight {name} = {value!r} must be a whole number")
            value = int(value)
        out[name] = value
    return out


def write_weights(path: Path, game: str, policy: str, weights: Mapping[str, float],
                  tuning: Mapping[str, Any]) -> None:
    """Write a weights file (`tuning`: numbers and text describing how the weights were found)."""

    def value(v: Any) -> str:
        if isinstance(v, str):
            return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
        if isinstance(v, float):
            return repr(v) if math.isfinite(v) else "nan"
        if isinstance(v, list | tuple):
            return "[" + ", ".join(value(x) for x in v) + "]"
        return str(v)

    lines = [f"game = {value(game)}", f"policy = {value(policy)}", "", f"[{WEIGHTS}]"]
    lines += [f"{name} = {value(w)}" for name, w in weights.items()]
    lines += ["", "[tuning]"] + [f"{k} = {value(v)}" for k, v in tuning.items()]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def named_files(args: Mapping[str, Any]) -> list[str]:
    """The user's weights files named by the policies among an analysis's arguments (bundled ones left out)."""

    def texts(value: Any) -> Iterable[str]:
        if isinstance(value, str):
            yield value
        elif isinstance(value, list | tuple):
            for item in value:
                yield from texts(item)

    files = []
    for value in args.values():
        for text in texts(value):
            _, _, params = text.partition(":")
            for item in params.split(","):
                key, sep, path = item.partition("=")
                if sep and key.strip() == WEIGHTS and not is_bundled(path.strip()):
                    files.append(path.strip())
    return sorted(set(files))
