"""Feedback on long work: how much is done, how fast, and how long is left.

On a terminal a progress bar (tqdm's) is redrawn in place, with the steps done, the trials per
second and the time left. Anywhere else (a batch job's log, a pipe) a plain line is printed at
most every `LOG_INTERVAL` seconds, starting only once the work has run that long, so short work
prints nothing and a long job's log shows it is alive, e.g.

      tasks 12/40, 3,100 games/s, about 01:20 left
"""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Callable
from typing import TextIO

LOG_INTERVAL = 30.0  # seconds between plain progress lines when stderr is not a terminal


def rate_text(per_second: float) -> str:
    """A rate as a person reads it: whole numbers from 10 on, two significant digits below (a search's few games
    a second read 0.4, not 0)."""
    return f"{per_second:,.0f}" if per_second >= 10 or per_second == 0 else f"{per_second:.2g}"


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
        self.bar = None
        if self.live:
            from tqdm import tqdm

            self.bar = tqdm(total=total, unit=what.rstrip("s") or what, file=self.stream, dynamic_ncols=True,
                            leave=True, mininterval=0.2, smoothing=0, bar_format="  {l_bar}{bar}| {n_fmt}/{total_fmt} "
                            "[{elapsed}<{remaining}{postfix}]")

    def grow(self, steps: int) -> None:
        self.total += steps
        if self.bar is not None:
            self.bar.total = self.total
            self.bar.refresh()

    def skip(self, steps: int) -> None:
        """Count steps that needed no work (results read back), so they do not shorten the time left."""
        self.skipped += steps
        if self.bar is not None:
            self.bar.initial += steps  # the bar's rate and time left count only steps that were worked
        self.update(steps, 0)

    def update(self, steps: int, trials: int) -> None:
        self.done += steps
        self.trials += trials
        if not self.enabled:
            return
        now = self.clock()
        if self.bar is not None:
            # the bar's own rate counts steps; the trials a second are what the user asked for
            self.bar.set_postfix_str(f"{rate_text(self.trials / max(now - self.start, 1e-9))} {self.unit}/s",
                                     refresh=False)
            self.bar.update(steps)
            return
        if now - self.last_line >= LOG_INTERVAL:
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
                f"{rate_text(self.trials / elapsed)} {self.unit}/s, about {clock_text(left)} left")

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
