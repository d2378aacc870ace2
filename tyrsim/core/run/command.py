"""A command line's run: one analysis of one game, made into a scenario from the command's options, run, and built
into its report (what `tyrsim simulate`, `rate`, `explore` and `rulings` do).

The command is a scenario like any file's (named "the command line" in its errors), so its options are checked by
the same code, and a `ScenarioError` says which argument was wrong (`key`, `detail`) for the command to name its
own option.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from tyrsim.core.engine.spec import GameLookup, GameSpec
from tyrsim.core.report.pages import Report, build_report
from tyrsim.core.run.scenario import Scenario, scenario_from_data
from tyrsim.core.run.substitutions import Noted
from tyrsim.core.run.sweep import PointResult, run_scenario, run_substitutions
from tyrsim.core.run.workers import default_jobs

SOURCE = "the command line"  # how a command's scenario is named in its errors


@dataclass
class CommandRun:
    """What a command's run made: its scenario, what it played in place of what was asked, its results and the
    report built from them."""

    scenario: Scenario
    notes: list[Noted]
    results: list[PointResult]
    report: Report


def run_command(spec: GameSpec, analysis: str, args: Mapping[str, Any], rules: Mapping[str, str], seed: int, *,
                games: GameLookup, jobs: int | None, keep_rows: bool = False,
                ready: Callable[[Scenario, list[Noted]], None] | None = None) -> CommandRun:
    """Run the analysis `analysis` of `spec` with the arguments `args` under the rules changed by `rules`
    ({name: value as typed}) and the run seed `seed` on `jobs` worker processes (None: as many as there are
    cores, and nothing to say about them); ScenarioError for bad input,
    before anything runs. `ready(scenario, notes)` is called once the input is checked and the substitutions are
    decided, before the first task (for the command to say what it runs). `keep_rows`: the results keep every
    trial's row (to write them out); else tasks hand back summaries where the analysis has them."""
    scenario = scenario_from_data({"name": f"{analysis}_{spec.name}", "game": spec.name, "analysis": analysis,
                                   "seed": seed, "rules": dict(rules), "args": dict(args)}, SOURCE, games=games)
    notes = run_substitutions(scenario, jobs=jobs)
    if ready is not None:
        ready(scenario, notes)
    start = time.perf_counter()
    results = run_scenario(scenario, n_jobs=jobs or default_jobs(), summaries=not keep_rows)
    return CommandRun(scenario, notes, results, build_report(scenario, results, time.perf_counter() - start, notes))
