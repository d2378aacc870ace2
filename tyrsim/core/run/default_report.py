"""The default report (`tyrsim report`): every bundled scenario marked `default_report`, run two at a time.

First the games' compiled engines and searches are compiled (or loaded from numba's cache) in the
worker processes, a game each, side by side. Then two scenarios are under way at once (`LANES`),
handing their tasks to one shared pool of worker processes: while one waits on its last tasks or
writes its page, the next one's tasks keep the workers busy. Tables, figures and pages are made one
scenario at a time (matplotlib's pyplot keeps global state). What a scenario plays is the same as
when it runs alone: the same seeded tables.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from concurrent.futures import FIRST_EXCEPTION, ThreadPoolExecutor, wait
from pathlib import Path
from typing import Any, Protocol

from tyrsim.core.compiled.engines import compile_ahead, compile_order
from tyrsim.core.report.pages import IndexEntry, index_entry, write_index
from tyrsim.core.report.words import count
from tyrsim.core.run.scenario import DEFAULT_SECTION, Scenario
from tyrsim.core.run.workers import shared_pool

LANES = 2  # scenarios of the report under way at once


class RunScenario(Protocol):
    def __call__(self, scenario: Scenario, out: Path, *, pool: Any, label: str, page_lock: Any) -> Any:
        """Run `scenario` into the folder `out` with the shared worker processes `pool` and write its report,
        `label` starting its progress lines, `page_lock` held while its tables, figures and page are made."""


def report_scenarios(scenarios: list[Scenario]) -> list[Scenario]:
    """The scenarios of the default report, in its order: the games' own analyses first, then the designer's
    dashboard (the sections in order of first appearance); within a section by game, then as given (file name)."""
    scenarios = [s for s in scenarios if s.default_report]
    sections = list(dict.fromkeys([DEFAULT_SECTION, *(s.section for s in scenarios)]))
    return sorted(scenarios, key=lambda s: (sections.index(s.section), s.game.title))


def run_report(scenarios: list[Scenario], out: Path, jobs: int, run: RunScenario, say: Callable[[str], None], *,
               quick: bool) -> float:
    """Run `scenarios`, each into OUT/<its name> by `run`, LANES at a time sharing `jobs` worker processes,
    then write OUT/index.html and index.md linking them; the seconds it all took.

    Each scenario is numbered k/N by `say` when it starts and when it finishes (with its time). A
    scenario's error or an interruption cancels the scenarios still to come and the tasks not yet started,
    and is raised once the workers have finished the tasks they hold; each scenario's finished tasks stay
    in its folder's store.
    """
    page_lock = threading.Lock()

    def run_one(k: int, scenario: Scenario, pool: Any) -> IndexEntry:
        step = f"[{k}/{len(scenarios)}] {scenario.name}"
        say(f"{step}: {scenario.title}")
        began = time.perf_counter()
        run(scenario, out / scenario.name, pool=pool, label=step, page_lock=page_lock)
        seconds = time.perf_counter() - began
        say(f"{step} ... {seconds:.1f} s")
        return index_entry(scenario, out / scenario.name, seconds)

    start = time.perf_counter()
    with shared_pool(jobs) as pool, ThreadPoolExecutor(LANES) as lanes:
        # the games whose studies compile (they `prepare`), compiled side by side in the workers, one game each:
        # the first run after an install; later runs load numba's cache
        games = compile_order({s.game.name: s.game for s in scenarios
                               if s.game.compiled is not None and s.analysis.prepare is not None}.values())
        if games:
            say(f"compiling the compiled engines and searches of {count(len(games), 'game')} side by side (about "
                "two minutes after an install; a few seconds once numba's cache holds them)")
        for compiled in [pool.submit(compile_ahead, game) for game in games]:
            compiled.result()
        if games:
            say(f"the compiled engines and searches of {count(len(games), 'game')} ready in "
                f"{time.perf_counter() - start:.1f} s")
        running = [lanes.submit(run_one, k, scenario, pool) for k, scenario in enumerate(scenarios, 1)]
        try:
            # the first scenario to fail stops the report, whichever lane it ran in and however long the
            # scenarios before it still have to go
            wait(running, return_when=FIRST_EXCEPTION)
            for future in running:
                if future.done():
                    future.result()  # raises the error of the first failed scenario in the report's order
            entries = [future.result() for future in running]
        except BaseException:  # a scenario's error or an interruption stops the scenarios still to come
            for future in running:
                future.cancel()
            pool.shutdown(wait=False, cancel_futures=True)
            raise
    took = time.perf_counter() - start
    write_index(entries, out, quick=quick, seconds=took, at_once=LANES)
    return took
