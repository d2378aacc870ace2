"""Timing for the benchmark scripts: CPU time of this process, so other work on the machine does not count."""

from __future__ import annotations

import time
from collections.abc import Callable


def best_of(repeats: int, fn: Callable[[], object]) -> float:
    """The shortest CPU time, in seconds, of `repeats` calls of `fn`."""
    times = []
    for _ in range(repeats):
        start = time.process_time()
        fn()
        times.append(time.process_time() - start)
    return min(times)
