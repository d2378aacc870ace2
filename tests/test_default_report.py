"""The default report's scheduling (`tyrsim.core.run.default_report`): its order, and a failing scenario stops
the rest."""

import re
import threading
import time

import pytest

from tyrsim.core.run import default_report
from tyrsim.core.run.default_report import report_scenarios, run_report
from tyrsim.core.run.scenario import DEFAULT_SECTION, bundled_scenarios, load_scenario
from tyrsim.games import get_game


def bundled():
    return [load_scenario(path, games=get_game) for path in bundled_scenarios()]


def test_the_games_own_analyses_come_first_then_by_game_in_file_order():
    everything = bundled()
    ordered = report_scenarios(everything)
    assert {s.name for s in ordered} == {s.name for s in everything if s.default_report}
    assert ordered[0].section == DEFAULT_SECTION and ordered[-1].section != DEFAULT_SECTION
    sections = list(dict.fromkeys(s.section for s in ordered))
    keys = [(sections.index(s.section), s.game.title) for s in ordered]
    assert keys == sorted(keys)
    for section in sections:  # within a game, as given
        for game in {s.game.title for s in ordered}:
            names = [s.name for s in ordered if (s.section, s.game.title) == (section, game)]
            assert names == [s.name for s in everything if s.default_report and (s.section, s.game.title) ==
                             (section, game)]


def test_the_games_whose_studies_compile_are_compiled_first_side_by_side(tmp_path, monkeypatch):
    monkeypatch.setattr(default_report, "compile_ahead", id)
    scenarios = report_scenarios(bundled())
    said = []
    run_report(scenarios[:3] + scenarios[-8:], tmp_path, 1, lambda *args, **kwargs: None, said.append, quick=True)
    studies = {s.game.name for s in scenarios[:3] + scenarios[-8:] if s.analysis.prepare is not None}
    assert len(studies) >= 2
    # a log shows at once what the first minutes after an install are spent on, then when it is done
    assert said[0].startswith(f"compiling the compiled engines and searches of {len(studies)} games side by side")
    assert re.fullmatch(rf"the compiled engines and searches of {len(studies)} games ready in \d+\.\d s", said[1])
    assert not any(line.startswith(("the compiled", "compiling")) for line in said[2:])


def watch_the_pool(monkeypatch) -> tuple[threading.Event, threading.Event]:
    """Two events on the report's worker pool: `queued`, set once eight `time.sleep` tasks are handed to it;
    `stopped`, set when the report shuts it down (after cancelling the scenarios still to come)."""
    queued, stopped, real = threading.Event(), threading.Event(), default_report.shared_pool

    def watched(jobs):
        pool = real(jobs)
        submit, shutdown, sleeps = pool.submit, pool.shutdown, []

        def counted(function, *args, **kwargs):
            future = submit(function, *args, **kwargs)
            if function is time.sleep:
                sleeps.append(future)
                if len(sleeps) == 8:
                    queued.set()
            return future

        def stop(*args, **kwargs):
            stopped.set()
            return shutdown(*args, **kwargs)

        pool.submit, pool.shutdown = counted, stop
        return pool

    monkeypatch.setattr(default_report, "shared_pool", watched)
    return queued, stopped


def test_a_scenario_that_fails_stops_the_scenarios_still_to_come(tmp_path, monkeypatch):
    monkeypatch.setattr(default_report, "compile_ahead", id)
    _, stopped = watch_the_pool(monkeypatch)
    scenarios = bundled()[:5]
    started, said, lock = [], [], threading.Lock()

    def run(scenario, out, *, pool, label, page_lock):
        with lock:
            started.append(scenario.name)
        if scenario is scenarios[0]:
            raise ValueError("broken")
        # the others are still under way when the first fails, until the report has stopped
        assert stopped.wait(60), "the report did not stop after the first scenario failed"

    with pytest.raises(ValueError, match="broken"):
        run_report(scenarios, tmp_path, 1, run, said.append, quick=True)
    # the failed one's lane may take the third before the failure is seen; none after it starts
    assert set(started) <= {s.name for s in scenarios[:3]} and scenarios[3].name not in started
    assert f"[1/5] {scenarios[0].name}: {scenarios[0].title}" in said
    assert not any(line.startswith(("[4/5]", "[5/5]")) for line in said)
    assert not (tmp_path / "index.html").exists()


def test_a_failure_while_another_scenario_waits_on_the_workers_is_raised_not_waited_on_forever(tmp_path, monkeypatch):
    """The failing scenario's lane shuts the shared pool down while the other lane waits on tasks queued in it:
    the pool drops those without the notice a plain wait listens for, and the report used to hang there."""
    from joblib import delayed

    from tyrsim.core.run.workers import Workers

    scenarios = bundled()[:3]
    monkeypatch.setattr(default_report, "compile_ahead", id)  # (compiling is not what is tested here)
    queued, _ = watch_the_pool(monkeypatch)

    def run(scenario, out, *, pool, label, page_lock):
        if scenario is scenarios[0]:
            assert queued.wait(60), "the other lane handed no tasks to the workers"
            raise ValueError("broken")
        for _ in Workers("loky", None, 1, pool=pool).map([delayed(time.sleep)(1)] * 8):
            pass

    began = time.perf_counter()
    with pytest.raises(ValueError, match="broken"):
        run_report(scenarios, tmp_path, 1, run, lambda line: None, quick=True)
    assert time.perf_counter() - began < 30  # the queued sleeps alone would take 8 s; a hang never ends
