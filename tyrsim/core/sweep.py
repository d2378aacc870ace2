"""Run a scenario: sweep points x chunks of trials as tasks, in parallel, with a result store.

Each task is (sweep point, chunk of trials). Its random stream comes from
(scenario seed, point index, chunk index) and its trial counts from the
analysis's fixed chunk size, so a point's results are the same whatever
`--jobs`, the backend, or the order tasks finish in.

Each finished task is written at once, atomically, to the result store (a
folder of pickled DataFrames keyed by a hash of everything that determines the
task's result). A rerun reuses what is there, so a killed run resumes where it
stopped, and a changed scenario recomputes only the tasks it changed.

A precision target replaces the fixed trial count: every point starts with one
chunk; after each round the points whose headline interval is still too wide
double their chunks, in index order, up to `max_trials`. The schedule depends
only on the results, never on `--jobs`.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import math
import os
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

import tyrsim
from tyrsim.core import stats
from tyrsim.core.rng import task_rng
from tyrsim.core.scenario import Point, Scenario

BACKENDS = ("loky", "dask")
STORE_FORMAT = 1


@dataclass(frozen=True)
class Task:
    point: int
    chunk: int
    first: int  # index of the chunk's first trial within its point
    count: int  # trials in the chunk (0 for an exact analysis)
    key: str  # content hash naming the result in the store


@dataclass
class PointResult:
    point: Point
    raw: pd.DataFrame
    trials: int
    half_width: float | None = None  # achieved, when a precision target was set
    met: bool | None = None  # whether the precision target was met


class ResultStore:
    """Finished task results in a folder, one file per task, written atomically."""

    def __init__(self, folder: Path | None, *, read: bool = True):
        self.folder = folder
        self.read = read  # False: compute everything afresh (results are still stored)
        if folder is not None:
            folder.mkdir(parents=True, exist_ok=True)

    def _path(self, key: str) -> Path:
        assert self.folder is not None
        return self.folder / f"{key}.pkl"

    def get(self, key: str) -> pd.DataFrame | None:
        if self.folder is None or not self.read or not self._path(key).exists():
            return None
        try:
            return pd.read_pickle(self._path(key))
        except Exception:  # a damaged file is recomputed, never trusted
            return None

    def put(self, key: str, result: pd.DataFrame) -> None:
        if self.folder is None:
            return
        fd, tmp = tempfile.mkstemp(dir=self.folder, prefix=".tmp-")
        os.close(fd)
        result.to_pickle(tmp)
        os.replace(tmp, self._path(key))


def _jsonable(value: Any) -> Any:
    if isinstance(value, tuple | list):
        return [_jsonable(v) for v in value]
    return value


def task_key(scenario: Scenario, point: Point, chunk: int, first: int, count: int) -> str:
    """A hash of everything that determines a task's result."""
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
    }
    text = json.dumps(payload, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def chunk_plan(trials: int, chunk_size: int, chunks: int | None = None) -> list[tuple[int, int, int]]:
    """(chunk, first trial, count) for a point; an exact analysis (0 trials) is one empty chunk."""
    if trials == 0:
        return [(0, 0, 0)]
    n = math.ceil(trials / chunk_size) if chunks is None else chunks
    return [(c, c * chunk_size, min(chunk_size, trials - c * chunk_size)) for c in range(n)]


def run_task(game: str, analysis: str, rules, args: dict, seed: int, point: int, chunk: int, first: int,
             count: int) -> tuple[int, int, pd.DataFrame]:
    """Compute one task (in a worker process); the analysis is looked up by name."""
    from tyrsim.games import get_game

    spec = get_game(game)
    result = spec.analyses[analysis].run(rules, args, first, count, task_rng(seed, point, chunk))
    return point, chunk, result


class Progress:
    """Tasks done, trials per second and time left, on a terminal only."""

    def __init__(self, total_tasks: int, unit: str, enabled: bool | None = None):
        self.total = total_tasks
        self.done = 0
        self.trials = 0
        self.unit = unit
        self.start = time.perf_counter()
        self.enabled = sys.stderr.isatty() if enabled is None else enabled

    def grow(self, tasks: int) -> None:
        self.total += tasks

    def update(self, tasks: int, trials: int) -> None:
        self.done += tasks
        self.trials += trials
        if not self.enabled:
            return
        elapsed = max(time.perf_counter() - self.start, 1e-9)
        rate = self.trials / elapsed
        left = elapsed / self.done * (self.total - self.done) if self.done else float("nan")
        eta = "--:--" if math.isnan(left) else f"{int(left // 60):02d}:{int(left % 60):02d}"
        sys.stderr.write(f"\r  tasks {self.done}/{self.total}  {rate:,.0f} {self.unit}/s  left {eta}   ")
        sys.stderr.flush()

    def close(self) -> None:
        if self.enabled:
            sys.stderr.write("\n")


@contextlib.contextmanager
def backend(name: str, scheduler: str | None, n_jobs: int) -> Iterator[None]:
    """joblib's loky processes, or a dask.distributed cluster (at `scheduler`, else a local one)."""
    import joblib

    if name == "loky":
        with joblib.parallel_config(backend="loky", n_jobs=n_jobs):
            yield
        return
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        raise RuntimeError("the dask backend needs the dask extra: pip install 'tyrsim[dask]'") from None
    if scheduler:
        client = Client(scheduler, timeout="20s")
        cluster = None
    else:
        cluster = LocalCluster(n_workers=max(1, n_jobs), threads_per_worker=1, processes=True,
                               dashboard_address=None)
        client = Client(cluster)
    try:
        with joblib.parallel_config(backend="dask"):
            yield
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def _execute(scenario: Scenario, tasks: list[Task], store: ResultStore, n_jobs: int, backend_name: str,
             progress: Progress) -> dict[tuple[int, int], pd.DataFrame]:
    """Results of `tasks`, from the store where finished before, else computed and stored."""
    from joblib import Parallel, delayed

    results: dict[tuple[int, int], pd.DataFrame] = {}
    todo = []
    for task in tasks:
        cached = store.get(task.key)
        if cached is not None:
            results[(task.point, task.chunk)] = cached
            progress.update(1, 0)
        else:
            todo.append(task)
    if not todo:
        return results
    points = {p.index: p for p in scenario.points}
    by_id = {(t.point, t.chunk): t for t in todo}
    calls = (
        delayed(run_task)(scenario.game.name, scenario.analysis.name, points[t.point].rules, points[t.point].args,
                          scenario.seed, t.point, t.chunk, t.first, t.count)
        for t in todo
    )
    order = "generator_unordered" if backend_name == "loky" else "generator"
    for point, chunk, result in Parallel(n_jobs=n_jobs if backend_name == "loky" else -1, return_as=order)(calls):
        task = by_id[(point, chunk)]
        store.put(task.key, result)
        results[(point, chunk)] = result
        progress.update(1, task.count)
    return results


def _combine(parts: list[pd.DataFrame]) -> pd.DataFrame:
    return pd.concat(parts, ignore_index=True) if len(parts) > 1 else parts[0].reset_index(drop=True)


def headline_half_width(scenario: Scenario, point: Point, raw: pd.DataFrame, metric: str) -> float:
    """The widest interval half-width of `metric` over the point's items (items without trials ignored)."""
    table = scenario.analysis.metrics[metric].estimate(raw, point.rules, point.args)
    widths = table["half_width"].to_numpy(dtype=float)
    widths = widths[~np.isnan(widths)]
    return float(widths.max()) if len(widths) else 0.0


def run_scenario(
    scenario: Scenario,
    *,
    store_folder: Path | None = None,
    fresh: bool = False,
    n_jobs: int = 1,
    backend_name: str = "loky",
    scheduler: str | None = None,
    progress: bool | None = None,
) -> list[PointResult]:
    """Run every sweep point; one PointResult per point, in point order."""
    if backend_name not in BACKENDS:
        raise ValueError(f"unknown backend {backend_name!r}; the backends are: {', '.join(BACKENDS)}")
    store = ResultStore(store_folder, read=not fresh)
    analysis = scenario.analysis
    size = analysis.chunk_size

    def tasks_for(point: Point, trials: int, chunks: int | None = None) -> list[Task]:
        return [Task(point.index, c, first, count, task_key(scenario, point, c, first, count))
                for c, first, count in chunk_plan(trials, size, chunks)]

    with backend(backend_name, scheduler, n_jobs):
        if scenario.precision is None:
            plan = {p.index: tasks_for(p, scenario.trials(p)) for p in scenario.points}
            meter = Progress(sum(len(t) for t in plan.values()), analysis.trial_unit, progress)
            done = _execute(scenario, [t for ts in plan.values() for t in ts], store, n_jobs, backend_name, meter)
            meter.close()
            return [
                PointResult(p, _combine([done[(p.index, t.chunk)] for t in plan[p.index]]),
                            sum(t.count for t in plan[p.index]))
                for p in scenario.points
            ]

        target = scenario.precision
        max_chunks = math.ceil(target.max_trials / size)
        chunks = {p.index: 1 for p in scenario.points}
        finished: dict[int, PointResult] = {}
        done: dict[tuple[int, int], pd.DataFrame] = {}
        meter = Progress(0, analysis.trial_unit, progress)
        while len(finished) < len(scenario.points):
            active = [p for p in scenario.points if p.index not in finished]
            wanted = [t for p in active for t in tasks_for(p, target.max_trials, chunks[p.index])
                      if (t.point, t.chunk) not in done]
            meter.grow(len(wanted))
            done.update(_execute(scenario, wanted, store, n_jobs, backend_name, meter))
            for p in active:
                parts = [done[(p.index, c)] for c in range(chunks[p.index])]
                raw = _combine(parts)
                trials = sum(count for _, _, count in chunk_plan(target.max_trials, size, chunks[p.index]))
                width = headline_half_width(scenario, p, raw, target.metric)
                if width <= target.half_width or chunks[p.index] >= max_chunks:
                    finished[p.index] = PointResult(p, raw, trials, width, width <= target.half_width)
                else:
                    chunks[p.index] = min(2 * chunks[p.index], max_chunks)
        meter.close()
        return [finished[p.index] for p in scenario.points]


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
