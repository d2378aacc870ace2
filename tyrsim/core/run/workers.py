"""Where a scenario's tasks run: joblib's loky processes, a Dask cluster (local, or at a scheduler whose
address is checked first), or worker processes shared by scenarios running at the same time.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
from collections.abc import Iterator
from concurrent.futures import FIRST_COMPLETED, Executor, ProcessPoolExecutor, wait
from typing import Any

import pandas as pd

from tyrsim.core.engine.limits import MAX_JOBS

BACKENDS = ("loky", "dask")
SCHEDULER_TIMEOUT = 10  # seconds a Dask scheduler has to answer before --scheduler is blamed
SCHEDULER_SCHEMES = ("tcp", "tls", "ws", "wss")


def default_jobs() -> int:
    """The worker processes a run uses where none are asked for: the cores this process may use, at most
    MAX_JOBS."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return min(cores or 1, MAX_JOBS)


class SchedulerError(Exception):
    """A Dask scheduler address that is malformed, or where no scheduler answers."""


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
