"""Run a scenario: sweep points x chunks of trials as tasks, in parallel, with a result store.

Each task is (sweep point, chunk of trials). Its random stream comes from
(scenario seed, point index, chunk index) and its trial counts from the
point's task size (`Analysis.trials_per_task`: fixed by the point's rules and
arguments), so a point's results are the same whatever
`--jobs`, the backend, or the order tasks finish in.

Each finished task is written at once, atomically, to the result store
(`tyrsim.core.run.store`: data-only files that carry their own key and checksum),
keyed by a hash of everything that determines the task's result, the content
of every data file it reads included (`tyrsim.core.run.keys`). Tasks run in the
worker processes or Dask cluster of `tyrsim.core.run.workers`. A rerun reuses what is there, so a
killed run resumes where it stopped, and a changed scenario or data file
recomputes only the tasks it changed. A stored table is used only if its
columns agree with its point's other chunks; tables the analysis cannot build
from stored results are computed again from scratch, never trusted.

A task hands back its rows, or, where the run asks for summaries
(`summaries=True`) and the analysis has a summary form (`Analysis.summarises`),
the summary of its rows, made in the worker: small tables that the main process
adds up per point (`TaskSummary.add_up`), so that it never holds the trials'
rows (docs/scenarios.md, "What a task returns").

A precision target replaces the fixed trial count: every point starts with the
chunks that hold `min_trials` (one chunk without it); after each round the points
whose headline interval is still too wide double their chunks, in index order, up
to `max_trials`. The schedule depends
only on the results, never on `--jobs`.
"""

from __future__ import annotations

import functools
import math
import sys
from collections.abc import Callable, Mapping
from concurrent.futures import Executor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import numpy as np
import pandas as pd

from tyrsim.core.engine.analysis import SummaryError, Totals
from tyrsim.core.engine.rng import task_rng
from tyrsim.core.engine.rules import RuleSet
from tyrsim.core.engine.spec import GameSpec
from tyrsim.core.run.keys import data_digests, task_key
from tyrsim.core.run.progress import Progress
from tyrsim.core.run.scenario import Point, Scenario
from tyrsim.core.run.store import ResultStore
from tyrsim.core.run.substitutions import Noted, Substitution
from tyrsim.core.run.workers import Workers

T = TypeVar("T")


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
    raw: pd.DataFrame | Totals  # every task's rows, or their summaries added up (`summarised`)
    trials: int
    half_width: float | None = None  # achieved, when a precision target was set
    met: bool | None = None  # whether the precision target was met
    stored: int = 0  # chunks read from the result store rather than computed in this run
    data_files: dict[str, str | None] = field(default_factory=dict)  # SHA-256 of each data file the point read
    summarised: bool = False  # True: the tasks handed back summaries, and `raw` is their Totals

    @property
    def task_results(self) -> str:
        """What the point's tasks handed back, in the manifest's words: "rows" or "summaries"."""
        return "summaries" if self.summarised else "rows"


def chunk_plan(trials: int, chunk_size: int, chunks: int | None = None) -> list[tuple[int, int, int]]:
    """(chunk, first trial, count) for a point; an exact analysis (0 trials) is one empty chunk."""
    if trials == 0:
        return [(0, 0, 0)]
    n = math.ceil(trials / chunk_size) if chunks is None else chunks
    return [(c, c * chunk_size, min(chunk_size, trials - c * chunk_size)) for c in range(n)]


def planned_tasks(scenario: Scenario) -> int:
    """The most tasks the run can hand out: every chunk of every point (with a precision target, of its
    `max_trials`), before the result store answers any of them."""
    most = 0
    for p in scenario.points:
        trials = scenario.trials(p) if scenario.precision is None else scenario.precision.max_trials
        most += len(chunk_plan(trials, scenario.analysis.trials_per_task(p.rules, p.args)))
    return most


def run_substitutions(scenario: Scenario, *, jobs: int | None = None) -> list[Noted]:
    """Everything the run plays in place of what was asked, decided here, in the main process, before any task
    is sent (see `tyrsim.core.run.substitutions`): each point's (`Analysis.point_substitutions`), one note per
    substitution naming the sweep points it holds at unless it holds at all of them; and `jobs` (worker
    processes asked for; None: not asked, or the run's workers are not its own) beyond the run's tasks."""
    points: dict[Substitution, list[str]] = {}
    for p in scenario.points:
        for substitution in scenario.analysis.point_substitutions(p.rules, p.args):
            points.setdefault(substitution, []).append(p.title())
    notes = [Noted(s, () if len(where) == len(scenario.points) else tuple(where)) for s, where in points.items()]
    if jobs is not None and jobs > (tasks := planned_tasks(scenario)):
        many = "es" if tasks > 1 else ""
        notes.append(Noted(Substitution(
            f"{jobs} worker processes", f"at most {tasks} worker process{many} start{'' if many else 's'}",
            f"the run has {tasks} task{'s' if many else ''} and a worker plays one task at a time")))
    return notes


def run_task(game: GameSpec, analysis: str, rules: RuleSet, args: dict, seed: int, point: int, chunk: int,
             first: int, count: int, summarise: bool = False
             ) -> tuple[int, int, pd.DataFrame | dict[str, pd.DataFrame]]:
    """Compute one task (in a worker process): `game`'s analysis named `analysis` (the spec travels as a reference
    to its package, see `GameSpec`; a worker reads the analysis there rather than receiving its functions).
    `summarise`: hand back the summary of the task's rows (`Analysis.task_summary`) rather than the rows."""
    study = game.analyses[analysis]
    result = study.run(rules, args, first, count, task_rng(seed, point, chunk))
    if summarise:
        result = study.task_summary.summarize(result, rules, args)
        study.task_summary.check(result)
    return point, chunk, result


def _schema(result: pd.DataFrame | Mapping[str, pd.DataFrame]) -> tuple:
    """Column names and dtypes of a task's rows, or of each part of its summary."""
    if isinstance(result, pd.DataFrame):
        return tuple((str(name), str(dtype)) for name, dtype in result.dtypes.items())
    return tuple((name, _schema(part)) for name, part in sorted(result.items()))


def _stored_kind(scenario: Scenario, result: Any, summarise: bool) -> bool:
    """Whether a stored result is of the kind the run keeps: rows, or a summary with the declared parts."""
    if not summarise:
        return isinstance(result, pd.DataFrame)
    try:
        scenario.analysis.task_summary.check(result)
    except SummaryError:
        return False
    return True


def _execute(scenario: Scenario, tasks: list[Task], store: ResultStore, workers: Workers, progress: Progress,
             done: dict[tuple[int, int], Any], stored: set[tuple[int, int]], summarise: bool = False) -> None:
    """Add the results of `tasks` to `done`: from the store where trusted (their ids go to `stored`), else computed.
    `summarise`: the results are the tasks' summaries, not their rows.

    A stored result is trusted only if it is of that kind (a summary: with the parts, key columns
    and numeric sums the analysis declares), and its columns (names and dtypes; a summary's, part by
    part) are those of a chunk of the same point computed in this run, or, where every chunk of a point
    comes from the store, if all of them agree; the others are computed again.
    """
    from joblib import delayed

    points = {p.index: p for p in scenario.points}

    def compute(todo: list[Task]) -> dict[Task, pd.DataFrame]:
        by_id = {(t.point, t.chunk): t for t in todo}
        if scenario.analysis.prepare is not None:
            for index in dict.fromkeys(t.point for t in todo):
                scenario.analysis.prepare(points[index].rules, points[index].args)
        calls = [delayed(run_task)(scenario.game, scenario.analysis.name, points[t.point].rules,
                                   points[t.point].args, scenario.seed, t.point, t.chunk, t.first, t.count,
                                   summarise)
                 for t in todo]
        fresh = {}
        for point, chunk, result in (workers.map(calls) if calls else ()):
            task = by_id[(point, chunk)]
            store.put(task.key, result)
            fresh[task] = result
            progress.update(1, task.count)
        return fresh

    found: dict[Task, Any] = {}
    for task in tasks:
        table = store.get(task.key)
        if table is not None and _stored_kind(scenario, table, summarise):
            found[task] = table
            progress.skip(1)
    fresh = compute([t for t in tasks if t not in found])

    produced: dict[int, set] = {}  # point -> column schemas the analysis produced in this run
    for (point, _), table in done.items():
        produced.setdefault(point, set()).add(_schema(table))
    for task, table in fresh.items():
        produced.setdefault(task.point, set()).add(_schema(table))
    by_point: dict[int, list[Task]] = {}
    for task in found:
        by_point.setdefault(task.point, []).append(task)
    suspect = []
    for point, items in by_point.items():
        schemas = {_schema(found[t]) for t in items}
        reference = produced.get(point, schemas if len(schemas) == 1 else set())
        suspect += [t for t in items if _schema(found[t]) not in reference]
    progress.grow(len(suspect))
    fresh.update(compute(suspect))
    for task in tasks:
        done[(task.point, task.chunk)] = fresh.get(task, found.get(task))
        if task not in fresh:
            stored.add((task.point, task.chunk))


def _combine(scenario: Scenario, parts: list, summarise: bool) -> pd.DataFrame | Totals:
    """The point's tasks' rows one after another, or their summaries added up."""
    if summarise:
        return scenario.analysis.task_summary.add_up(parts)
    return pd.concat(parts, ignore_index=True) if len(parts) > 1 else parts[0].reset_index(drop=True)


def headline_half_width(scenario: Scenario, point: Point, raw: pd.DataFrame | Totals, metric: str) -> float:
    """The widest interval half-width of `metric` over the point's items (items without an interval ignored);
    NaN when no item has one, so such a point never counts as having met a precision target."""
    table = scenario.analysis.metrics[metric].estimate(raw, point.rules, point.args)
    widths = table["half_width"].to_numpy(dtype=float)
    widths = widths[~np.isnan(widths)]
    return float(widths.max()) if len(widths) else float("nan")


class _StoredResultsUnusable(Exception):
    """Tables could not be made from results that came (at least partly) from the store."""


def _recompute_note(store_folder: Path | None, exc: BaseException) -> None:
    cause = exc.__cause__ if isinstance(exc, _StoredResultsUnusable) and exc.__cause__ else exc
    sys.stderr.write(f"note: the results stored in {store_folder} could not be made into tables "
                     f"({type(cause).__name__}: {cause}); computing them again\n")


def run_scenario(
    scenario: Scenario,
    *,
    store_folder: Path | None = None,
    fresh: bool = False,
    n_jobs: int = 1,
    backend_name: str = "loky",
    scheduler: str | None = None,
    progress: bool | None = None,
    pool: Executor | None = None,
    label: str | None = None,
    summaries: bool = False,
) -> list[PointResult]:
    """Run every sweep point; one PointResult per point, in point order.

    `progress=False` silences the progress line (see `tyrsim.core.run.progress`); `label` starts each of
    its lines. `pool`: worker processes shared with scenarios running at the same time (`shared_pool`),
    in place of the backend's own. `summaries=True`: where the analysis has a summary form, its tasks hand
    back summaries and each result's `raw` is their Totals (the tables are the rows' to rounding); else, and
    for a caller that wants the per-trial rows, every task hands back its rows.
    """
    most = None
    if scenario.precision is not None:
        most = sum(math.ceil(scenario.precision.max_trials / scenario.analysis.trials_per_task(p.rules, p.args))
                   for p in scenario.points)
    meter = functools.partial(Progress, unit=scenario.analysis.trial_unit, enabled=progress is not False, label=label)
    summarise = summaries and scenario.analysis.summarises()
    with Workers(backend_name, scheduler, n_jobs, most, pool) as workers:
        store = ResultStore(store_folder, read=not fresh)
        try:
            return _run(scenario, store, workers, meter, summarise)
        except _StoredResultsUnusable as exc:
            _recompute_note(store_folder, exc)
            return _run(scenario, ResultStore(store_folder, read=False), workers, meter, summarise)


def run_and_build(scenario: Scenario, build: Callable[[list[PointResult]], T], **options: Any) -> T:
    """`build(run_scenario(scenario, **options))`; if building fails on results read from the store,
    they are not trusted: the run is made again without reading the store, and built from that."""
    results = run_scenario(scenario, **options)
    try:
        return build(results)
    except Exception as exc:
        if not any(r.stored for r in results):
            raise
        _recompute_note(options.get("store_folder"), exc)
    return build(run_scenario(scenario, **{**options, "fresh": True}))


def _run(scenario: Scenario, store: ResultStore, workers: Workers, meter: Callable[[int], Progress],
         summarise: bool) -> list[PointResult]:
    """Every point's result; `meter(total)` makes the progress meter of a number of tasks; `summarise`: the
    tasks hand back their summaries."""
    analysis = scenario.analysis
    size = {p.index: analysis.trials_per_task(p.rules, p.args) for p in scenario.points}
    digests = data_digests(scenario)
    done: dict[tuple[int, int], Any] = {}
    stored: set[tuple[int, int]] = set()

    def tasks_for(point: Point, trials: int, chunks: int | None = None) -> list[Task]:
        return [Task(point.index, c, first, count,
                     task_key(scenario, point, c, first, count, digests[point.index], summarise))
                for c, first, count in chunk_plan(trials, size[point.index], chunks)]

    def result(point: Point, chunks: int, trials: int, **extra: Any) -> PointResult:
        return PointResult(point, _combine(scenario, [done[(point.index, c)] for c in range(chunks)], summarise),
                           trials, stored=sum((point.index, c) in stored for c in range(chunks)),
                           data_files=digests[point.index], summarised=summarise, **extra)

    if scenario.precision is None:
        plan = {p.index: tasks_for(p, scenario.trials(p)) for p in scenario.points}
        shown = meter(sum(len(t) for t in plan.values()))
        _execute(scenario, [t for ts in plan.values() for t in ts], store, workers, shown, done, stored, summarise)
        shown.close()
        return [result(p, len(plan[p.index]), sum(t.count for t in plan[p.index])) for p in scenario.points]

    target = scenario.precision
    max_chunks = {p.index: math.ceil(target.max_trials / size[p.index]) for p in scenario.points}
    chunks = {p.index: min(max_chunks[p.index], math.ceil((target.min_trials or 1) / size[p.index]))
              for p in scenario.points}
    finished: dict[int, PointResult] = {}
    shown = meter(0)
    while len(finished) < len(scenario.points):
        active = [p for p in scenario.points if p.index not in finished]
        wanted = [t for p in active for t in tasks_for(p, target.max_trials, chunks[p.index])
                  if (t.point, t.chunk) not in done]
        shown.grow(len(wanted))
        _execute(scenario, wanted, store, workers, shown, done, stored, summarise)
        for p in active:
            trials = sum(count for _, _, count in chunk_plan(target.max_trials, size[p.index], chunks[p.index]))
            outcome = result(p, chunks[p.index], trials)
            try:
                width = headline_half_width(scenario, p, outcome.raw, target.metric)
            except Exception as exc:
                if outcome.stored:
                    raise _StoredResultsUnusable() from exc
                raise
            if width <= target.half_width or chunks[p.index] >= max_chunks[p.index]:
                outcome.half_width, outcome.met = width, width <= target.half_width
                finished[p.index] = outcome
            else:
                chunks[p.index] = min(2 * chunks[p.index], max_chunks[p.index])
    shown.close()
    return [finished[p.index] for p in scenario.points]
