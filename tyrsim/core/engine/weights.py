"""Named weights and weights files: the numbers a policy's evaluation weighs by name, as `tyrsim tune` writes them.

A game declares each policy's named weights in its `weights.py`: a frozen dataclass of the
weights, each with its default, and a class attribute `tunable` ({field name: (low, high)})
giving the ranges a tuner may move them in. The object policy derives from it and the
compiled form reads the same names (`weight_names`), so neither side imports the other.
A weights file is TOML:

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


def weight_names(cls: type) -> tuple[str, ...]:
    """The named weights of the weights class `cls` (a game's `weights.py`), in their order."""
    return tuple(f.name for f in dataclasses.fields(cls))


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


def tuned_weights(path: str, game: str, policy: str, cls: type) -> Any:
    """The weights class `cls` holding the weights file `path` of `policy` of `game`: weights that a game's code
    plays (a search's guide, say), so the file names every one of them and no policy's own defaults fill a gap;
    DataFileError when it does not."""
    weights = read_weights(path, game, policy, cls)
    if missing := [name for name in weight_names(cls) if name not in weights]:
        raise DataFileError(f"{path}: names no {', '.join(missing)}; weights a game plays name every weight")
    return cls(**weights)


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
