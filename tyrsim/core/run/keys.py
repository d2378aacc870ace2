"""Store keys of a scenario's tasks: a hash of everything that determines a task's result, the digests of
every data file it reads included, so that a rerun reuses what is stored and a changed file recomputes
only the tasks it changed.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from importlib import resources
from pathlib import Path
from typing import Any

import tyrsim
from tyrsim.core.engine import weights
from tyrsim.core.engine.datafile import is_bundled
from tyrsim.core.engine.spec import GameSpec
from tyrsim.core.run.scenario import Point, Scenario
from tyrsim.core.run.store import STORE_FORMAT


def _jsonable(value: Any) -> Any:
    if isinstance(value, tuple | list):
        return [_jsonable(v) for v in value]
    return value


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def file_digest(path: str | Path) -> str | None:
    """The sha256 of a file's bytes; None when it cannot be read (the key then changes when it can)."""
    try:
        return _sha256(Path(path).read_bytes())
    except OSError:
        return None


def bundled_data_digest(game: GameSpec) -> str:
    """SHA-256 over the names and bytes of every file in the game package's bundled `data/` folder."""
    if game.package is None:  # a spec no package holds has no data folder
        return _sha256(b"")
    try:
        folder = resources.files(game.package) / "data"
    except TypeError:  # a game module that is not a package has no data folder
        return _sha256(b"")
    digest = hashlib.sha256()
    pending = [("", folder)] if folder.is_dir() else []
    while pending:
        prefix, here = pending.pop()
        for item in sorted(here.iterdir(), key=lambda i: i.name):
            if item.is_dir():
                pending.append((f"{prefix}{item.name}/", item))
            else:
                data = item.read_bytes()
                digest.update(f"{prefix}{item.name} {len(data)}\n".encode())
                digest.update(data)
    return digest.hexdigest()


def data_digests(scenario: Scenario) -> dict[int, dict[str, str | None]]:
    """Per point: the SHA-256 of the game's bundled data ("bundled"), of each file a data-file rule names
    and of each weights file a policy names ("weights:PATH").

    A file that cannot be read counts as None; the task itself then reports the file.
    """
    bundled = bundled_data_digest(scenario.game)
    files: dict[str, str | None] = {}

    def digest(path: str) -> str | None:
        if path not in files:
            files[path] = file_digest(path)
        return files[path]

    digests = {}
    for point in scenario.points:
        entry: dict[str, str | None] = {"bundled": bundled}
        for name in point.rules.data_file_rules():
            path = getattr(point.rules, name)
            if not is_bundled(path):  # a bundled file is in the "bundled" digest
                entry[name] = digest(path)
        for path in weights.named_files(point.args):
            entry[f"{weights.WEIGHTS}:{path}"] = digest(path)
        digests[point.index] = entry
    return digests


def task_key(scenario: Scenario, point: Point, chunk: int, first: int, count: int,
             data: Mapping[str, str | None], summary: bool = False) -> str:
    """A hash of everything that determines a task's result; `data` is the point's `data_digests` entry,
    `summary` whether the result is the task's summary rather than its rows."""
    trials_arg = scenario.analysis.trials
    payload = {
        "store": STORE_FORMAT,
        "tyrsim": tyrsim.__version__,
        "game": scenario.game.name,
        "analysis": scenario.analysis.name,
        "seed": scenario.seed,
        "point": point.index,
        "chunk": chunk,
        "first": first,
        "count": count,
        "rules": {k: _jsonable(v) for k, v in point.rules.as_dict().items()},
        "args": {k: _jsonable(v) for k, v in point.args.items() if k != trials_arg},
        "data": dict(data),
    }
    if summary:  # a summary is another result of the same games (a rows entry keeps its key of before)
        payload["result"] = "summary"
    text = json.dumps(payload, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:32]
