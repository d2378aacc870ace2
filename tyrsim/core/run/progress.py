"""Feedback on long work: how much is done, how fast, and how long is left.

On a terminal the line is redrawn in place after every step. Anywhere else (a
batch job's log, a pipe) a plain line is printed at most every `LOG_INTERVAL`
seconds, starting only once the work has run that long, so short work prints
nothing and a long job's log shows it is alive, e.g.

      tasks 12/40, 3,100 games/s, about 01:20 left
"""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Callable
from typing import TextIO

LOG_INTERVAL = 30.0  # seconds between plain progress lines when stderr is not a terminal


def clock_text(seconds: float) -> str:
    """A duration as MM:SS, or H:MM:SS from an hour on; '--:--' when not known."""
    if not math.isfinite(seconds):
        return "--:--"
    whole = int(seconds)
    hours, rest = divmod(whole, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"{rest // 60:02d}:{rest % 60:02d}"


class Progress:
    """Steps done out of a total, trials per second and time left, written to `stream` (stderr)."""

    def __init__(self, total: int, unit: str, *, what: str = "tasks", enabled: bool = True,
                 stream: TextIO | None = None, clock: Callable[[], float] = time.monotonic, label: str | None = None):
        self.total = total
        self.done = 0
        self.skipped = 0  # steps done without work (read from the result store): left out of the time left
        self.trials = 0
        self.unit = unit  # what a trial is ("fights", "games"): the rate's unit
        self.what = what  # what a step is ("tasks", "fights")
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = enabled
        # `label` starts every line; labelled meters may share the stream, so their lines are never redrawn in place
        self.label = label
        self.live = enabled and label is None and self.stream.isatty()
        self.clock = clock
        self.start = clock()
        self.last_line = self.start  # when the last plain line was written

    def grow(self, steps: int) -> None:
        self.total += steps

    def skip(self, steps: int) -> None:
        """Count steps that needed no work (results read back), so they do not shorten the time left."""
        self.skipped += steps
        self.update(steps, 0)

    def update(self, steps: int, trials: int) -> None:
        self.done += steps
        self.trials += trials
        if not self.enabled:
            return
        now = self.clock()
        if self.live:
            self.stream.write(f"\r{self.line(now)}   ")
        elif now - self.last_line >= LOG_INTERVAL:
            self.last_line = now
            self.stream.write(self.line(now) + "\n")
        else:
            return
        self.stream.flush()

    def line(self, now: float) -> str:
        elapsed = max(now - self.start, 1e-9)
        worked = self.done - self.skipped
        left = elapsed / worked * (self.total - self.done) if worked else float("nan")
        return (f"  {self.label + ': ' if self.label else ''}{self.what} {self.done:,}/{self.total:,}, "
                f"{self.trials / elapsed:,.0f} {self.unit}/s, about {clock_text(left)} left")

    def close(self) -> None:
        if self.live:
            self.stream.write("\n")
