"""Run a scenario: sweep points x chunks of trials as tasks, in parallel, with a result store.

Each task is (sweep point, chunk of trials). Its random stream comes from
(scenario seed, point index, chunk index) and its trial counts from the
point's task size (`Analysis.trials_per_task`: fixed by the point's rules and
arguments), so a point's results are the same whatever
`--jobs`, the backend, or the order tasks finish in.

Each finished task is written at once, atomically, to the result store
(`tyrsim.core.run.store`: data-only files that carry their own key and checksum),
keyed by a hash of everything that determines the task's result, the content
of every data file it reads included. A rerun reuses what is there, so a
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

import contextlib
import functools
import hashlib
import json
import math
import multiprocessing
import os
import signal
import sys
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import FIRST_COMPLETED, Executor, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

import numpy as np
import pandas as pd

import tyrsim
from tyrsim.core.engine import weights
from tyrsim.core.engine.analysis import SummaryError, Totals
from tyrsim.core.engine.datafile import is_bundled
from tyrsim.core.engine.rng import task_rng
from tyrsim.core.engine.rules import RuleSet
from tyrsim.core.engine.spec import GameSpec
from tyrsim.core.run.progress import Progress
from tyrsim.core.run.scenario import Point, Scenario
from tyrsim.core.run.store import STORE_FORMAT, ResultStore
from tyrsim.core.run.substitutions import Noted, Substitution
from tyrsim.core.stats import intervals as stats

BACKENDS = ("loky", "dask")
SCHEDULER_TIMEOUT = 10  # seconds a Dask scheduler has to answer before --scheduler is blamed
SCHEDULER_SCHEMES = ("tcp", "tls", "ws", "wss")

T = TypeVar("T")


class SchedulerError(Exception):
    """A Dask scheduler address that is malformed, or where no scheduler answers."""


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


def _jsonable(value: Any) -> Any:
    if isinstance(value, tuple | list):
        return [_jsonable(v) for v in value]
    return value


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


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
            try:
                files[path] = _sha256(Path(path).read_bytes())
            except OSError:
                files[path] = None
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


def check_scheduler(address: str) -> str:
    """`address` if it reads as a Dask scheduler address ([tcp://]HOST:PORT), else SchedulerError."""
    scheme, sep, location = address.partition("://")
    if not sep:
        scheme, location = "tcp", address
    host, _, port = location.rpartition(":")
    if host.startswith("[") and host.endswith("]"):  # an IPv6 address is written in brackets
        host = host[1:-1]
    elif ":" in host:
        host = ""
    if (scheme not in SCHEDULER_SCHEMES or not host or any(c.isspace() or c in "/[]@" for c in host)
            or not port.isdigit() or not 1 <= int(port) <= 65535):
        raise SchedulerError(f"{address!r} is not a scheduler address; write tcp://HOST:PORT, "
                             "e.g. tcp://127.0.0.1:8786")
    return address


class Workers:
    """Where tasks run: joblib's loky processes, or a Dask cluster (at `scheduler`, else a local one).

    Nothing starts before the first task that has to be computed, so a run answered from the
    store starts no cluster and connects to no scheduler, and no more workers start than there
    are tasks: loky gets min(n_jobs, tasks) processes per batch, a local Dask cluster
    min(n_jobs, `most_tasks`) (default: the first batch's size).
    """

    def __init__(self, backend_name: str, scheduler: str | None, n_jobs: int, most_tasks: int | None = None,
                 pool: Executor | None = None):
        if backend_name not in BACKENDS:
            raise ValueError(f"unknown backend {backend_name!r}; the backends are: {', '.join(BACKENDS)}")
        if scheduler is not None:
            check_scheduler(scheduler)
        self.backend_name = backend_name
        self.scheduler = scheduler
        self.n_jobs = max(1, n_jobs)
        self.most_tasks = most_tasks
        self.pool = pool  # worker processes shared with other scenarios running at the same time (the report's)
        self._stack = contextlib.ExitStack()
        self._dask = False

    def __enter__(self) -> Workers:
        return self

    def __exit__(self, *exc: object) -> None:
        self._stack.close()

    def map(self, calls: list) -> Iterator[tuple[int, int, pd.DataFrame]]:
        """The results of `calls` (joblib delayed run_task calls), in the order they finish.

        Each task goes to a worker alone (`batch_size=1`): an analysis already sizes its tasks, and
        joblib's automatic batching, grown on a study's quick first tasks, handed the slow last ones
        out in pairs, one worker playing both while the others idled.
        """
        import joblib

        if self.pool is not None:
            yield from _pool_map(self.pool, calls)
            return
        if self.backend_name == "loky":
            parallel = joblib.Parallel(n_jobs=min(self.n_jobs, len(calls)), backend="loky",
                                       return_as="generator_unordered", batch_size=1)
        else:
            self._start_dask(len(calls))
            parallel = joblib.Parallel(n_jobs=-1, return_as="generator", batch_size=1)
        yield from parallel(calls)

    def _start_dask(self, tasks: int) -> None:
        if self._dask:
            return
        try:
            from dask.distributed import Client, LocalCluster
        except ImportError:
            raise RuntimeError("the dask backend needs the dask extra: pip install 'tyrsim[dask]'") from None
        import joblib

        if self.scheduler:
            try:
                client = Client(self.scheduler, timeout=f"{SCHEDULER_TIMEOUT}s")
            except (OSError, TimeoutError):
                raise SchedulerError(f"no Dask scheduler answered at {self.scheduler} within {SCHEDULER_TIMEOUT} s; "
                                     "is `dask scheduler` running there?") from None
            except ValueError as exc:
                raise SchedulerError(f"{self.scheduler!r} is not a scheduler address ({exc})") from None
        else:
            workers = min(self.n_jobs, self.most_tasks or tasks)
            cluster = self._stack.enter_context(LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                                             dashboard_address=None))
            client = Client(cluster)
        self._stack.enter_context(client)
        self._stack.enter_context(joblib.parallel_config(backend="dask"))
        self._dask = True


# seconds between looks at a shared pool's futures for ones cancelled under the caller (see _pool_map)
POOL_LOOK = 0.5


def _pool_map(pool: Executor, calls: list) -> Iterator[Any]:
    """The results of joblib delayed `calls` run in `pool`, in the order they finish; the calls not yet
    started are cancelled if the caller stops early (an error, an interruption).

    A call cancelled by the pool's shutdown (another scenario of the report failed) raises CancelledError
    here. Such a future never wakes `as_completed` or `wait` (the pool drops it without the notice they
    wait for), so the futures are looked at every POOL_LOOK seconds as well.
    """
    futures = [pool.submit(function, *args, **kwargs) for function, args, kwargs in calls]
    pending = set(futures)
    try:
        while pending:
            wait(pending, timeout=POOL_LOOK, return_when=FIRST_COMPLETED)
            for future in [f for f in futures if f in pending and f.done()]:
                pending.discard(future)
                yield future.result()
    finally:
        for future in futures:
            future.cancel()


def shared_pool(n_jobs: int) -> Executor:
    """`n_jobs` worker processes for scenarios that run at the same time and hand their tasks to one queue.

    Started with 'spawn': the scenarios hand in tasks from threads, and forking a process
    with threads is not safe. On Ctrl-C a worker ends at once and without a traceback; the
    command that started it says what is kept.
    """
    return ProcessPoolExecutor(max_workers=max(1, n_jobs), mp_context=multiprocessing.get_context("spawn"),
                               initializer=_end_quietly_on_interrupt)


def _end_quietly_on_interrupt() -> None:
    signal.signal(signal.SIGINT, lambda signum, frame: os._exit(128 + signum))


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
