"""Sweeps: same tables whatever --jobs or backend, resume after a kill, precision targets, comparisons."""

import os
import signal
import subprocess
import sys
import time
from concurrent.futures.process import BrokenProcessPool

import numpy as np
import pytest
from click.testing import CliRunner
from combat_runs import SCENARIO as COMBAT
from combat_runs import run_cli, tables
from combat_runs import write as write_scenario

from tyrsim.cli import main
from tyrsim.core.run.scenario import load_scenario
from tyrsim.core.run.sweep import run_scenario
from tyrsim.core.run.workers import shared_pool
from tyrsim.core.stats.comparisons import comparison_table
from tyrsim.games import get_game

SCENARIO = COMBAT + """[compare]
baseline = { tie_rule = "reroll" }
metrics = ["p_attacker_wins", "p_round_tie"]
"""


def write(tmp_path, text=SCENARIO, name="small.toml"):
    return write_scenario(tmp_path, text, name)


@pytest.mark.slow
def test_same_tables_for_one_two_jobs_and_dask(tmp_path):
    path = write(tmp_path)
    run_cli("run", path, "--out", tmp_path / "j1", "--jobs", 1)
    run_cli("run", path, "--out", tmp_path / "j2", "--jobs", 2)
    run_cli("run", path, "--out", tmp_path / "dask", "--jobs", 2, "--backend", "dask")
    one = tables(tmp_path / "j1")
    assert set(one) == {"odds.csv", "summary.csv", "comparison.csv"}
    assert one == tables(tmp_path / "j2") == tables(tmp_path / "dask")


def test_rerun_reuses_the_store_and_a_change_recomputes_only_what_changed(tmp_path):
    scenario = load_scenario(write(tmp_path), games=get_game)
    store = tmp_path / "store"
    first = run_scenario(scenario, store_folder=store)
    files = {p.name: p.stat().st_mtime_ns for p in store.iterdir()}
    assert len(files) == 2 * 3  # 2 points x 3 chunks of 100,000 fights
    again = run_scenario(scenario, store_folder=store)
    assert {p.name: p.stat().st_mtime_ns for p in store.iterdir()} == files
    for a, b in zip(first, again, strict=True):
        assert a.raw.equals(b.raw)
    # one more sweep value: only its three tasks are new
    more = SCENARIO.replace('"defender"]', '"defender", "attacker"]')
    changed = load_scenario(write(tmp_path, more, "b.toml"), games=get_game)
    run_scenario(changed, store_folder=store)
    assert len(list(store.iterdir())) == 3 * 3
    # --fresh recomputes (same numbers) instead of reading
    fresh = run_scenario(scenario, store_folder=store, fresh=True)
    assert fresh[0].raw.equals(first[0].raw)


def test_each_point_has_the_task_size_its_analysis_asks_for(tmp_path):
    """An analysis may size tasks by point (an engine playing many games at once as arrays wants large
    tasks): the store holds that many tasks per point, and the tables are the same whatever --jobs."""
    from dataclasses import replace

    scenario = load_scenario(write(tmp_path), games=get_game)
    sizes = {"reroll": 50_000, "defender": 250_000}
    sized = replace(scenario, analysis=replace(scenario.analysis, task_size=lambda rules, args: sizes[rules.tie_rule]))
    store = tmp_path / "store"
    one = run_scenario(sized, store_folder=store)
    assert len(list(store.iterdir())) == 5 + 1  # 250,000 fights: 5 tasks at the first point, 1 at the second
    two = run_scenario(sized, n_jobs=2)
    for a, b in zip(one, two, strict=True):
        assert a.trials == b.trials == 250_000
        assert a.raw.equals(b.raw)


@pytest.mark.slow
def test_killed_run_resumes_to_identical_tables(tmp_path):
    text = SCENARIO.replace("fights = 250000", "fights = 10000000")
    path = write(tmp_path, text)
    uninterrupted = tmp_path / "whole"
    run_cli("run", path, "--out", uninterrupted, "--jobs", 1)

    out = tmp_path / "killed"
    proc = subprocess.Popen([sys.executable, "-m", "tyrsim.cli", "run", str(path), "--out", str(out), "--jobs", "1"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    store = out / ".store"
    deadline = time.time() + 120
    while time.time() < deadline and len(list(store.glob("*.npz"))) < 3:
        time.sleep(0.05)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    finished = {p.name: p.stat().st_mtime_ns for p in store.glob("*.npz")}
    assert 3 <= len(finished) < 2 * 100  # part of the work, not all of it
    assert not (out / "index.html").exists()  # no half report

    run_cli("run", path, "--out", out, "--jobs", 2)
    for name, stamp in finished.items():
        assert (store / name).stat().st_mtime_ns == stamp  # finished tasks were not recomputed
    assert tables(out) == tables(uninterrupted)


PRECISION = """
game = "tyranno-ex"
analysis = "combat"
seed = 5
[args]
attacker_strength = [3]
attacker_dice = [2, 6]
defender_strength = [1]
method = "mc"
[sweep.args]
defender_dice = [[7], [3]]
[precision]
half_width = 0.002
max_trials = 3000000
"""


def test_precision_target_stops_at_the_same_point_for_any_jobs(tmp_path):
    scenario = load_scenario(write(tmp_path, PRECISION, "p.toml"), games=get_game)
    one = run_scenario(scenario, n_jobs=1)
    two = run_scenario(scenario, n_jobs=2)
    assert [r.trials for r in one] == [r.trials for r in two]
    assert all(r.met for r in one) and all(r.half_width <= 0.002 for r in one)
    assert one[0].trials > scenario.analysis.chunk_size  # it had to add chunks
    for a, b in zip(one, two, strict=True):
        assert a.raw.equals(b.raw)


def test_a_precision_target_plays_at_least_its_minimum_even_when_met_sooner(tmp_path):
    loose = PRECISION.replace("half_width = 0.002", "half_width = 0.05")
    scenario = load_scenario(write(tmp_path, loose, "p.toml"), games=get_game)
    size = scenario.analysis.trials_per_task(scenario.points[0].rules, scenario.points[0].args)
    assert {r.trials for r in run_scenario(scenario)} == {size}  # met at once: one task
    floor = loose.replace("[precision]\n", f"[precision]\nmin_trials = {2 * size + 1}\n")
    at_least = load_scenario(write(tmp_path, floor, "q.toml"), games=get_game)
    results = run_scenario(at_least, n_jobs=2)
    assert all(r.met and r.trials == 3 * size for r in results)  # the tasks that hold the minimum
    assert at_least.with_trials(size).precision.min_trials == size  # --quick caps the minimum too


@pytest.mark.slow
def test_precision_maximum_is_reported_when_not_met(tmp_path):
    text = PRECISION.replace("half_width = 0.002", "half_width = 0.0001").replace("3000000", "200000")
    result = run_cli("run", write(tmp_path, text, "p.toml"), "--out", tmp_path / "r", "--jobs", 1)
    assert "index.html" in result.output
    page = (tmp_path / "r" / "index.md").read_text()
    assert "NOT met (maximum reached)" in page
    assert "precision.csv" in page


def test_a_point_whose_metric_has_no_interval_never_meets_a_precision_target(tmp_path):
    # a fight that can never end has no probability of winning: nothing to be precise about
    text = COMBAT.replace("[2, 4]", "[1]").replace("attacker_dice = [3]", "attacker_dice = [0]").replace(
        "[1, 3]", "[1]").replace("defender_dice = [4]", "defender_dice = [0]").replace("fights = 250000\n", "")
    text += "[precision]\nhalf_width = 0.01\nmax_trials = 200000\n"
    rerolled, won_by_defender = run_scenario(load_scenario(write(tmp_path, text, "never.toml"), games=get_game))
    assert not rerolled.met and np.isnan(rerolled.half_width)  # ties rerolled: the fight never ends
    assert won_by_defender.met  # ties go to the defender: every fight ends at once, a sure defeat


def test_comparison_detects_a_real_difference(tmp_path):
    scenario = load_scenario(write(tmp_path), games=get_game)
    table = comparison_table(scenario, run_scenario(scenario))
    wins = table[table["metric"] == "p_attacker_wins"]
    assert len(wins) == 4 and wins["significant"].all() and (wins["difference"] < 0).all()
    ties = table[table["metric"] == "p_round_tie"]
    assert not ties["significant"].any()  # the tie rule does not change how often hits are equal


@pytest.mark.slow
def test_identical_rules_under_different_seeds_are_flagged_at_the_stated_rate(tmp_path):
    text = """
game = "tyranno-ex"
analysis = "combat"
seed = {seed}
[args]
attacker_strength = [3]
attacker_dice = [2]
defender_strength = [1]
defender_dice = [7]
method = "mc"
fights = 2000
[sweep.rules]
max_dice = [30, 31]
[compare]
baseline = {{ max_dice = 30 }}
"""
    p_values = []
    for seed in range(200):
        scenario = load_scenario(write(tmp_path, text.format(seed=seed), "n.toml"), games=get_game)
        p_values.append(comparison_table(scenario, run_scenario(scenario))["p_value"].iloc[0])
    rejected = np.mean(np.array(p_values) < 0.05)
    assert rejected <= 0.05 + 4 * np.sqrt(0.05 * 0.95 / 200)
    assert np.mean(np.array(p_values) < 0.5) == pytest.approx(0.5, abs=0.15)  # roughly uniform


FEW = SCENARIO.replace("fights = 250000", "fights = 1000")  # 2 sweep points x 1 chunk: 2 tasks


def test_loky_workers_are_capped_at_the_number_of_tasks(tmp_path, monkeypatch):
    import joblib

    asked = []

    class Spy(joblib.Parallel):
        def __init__(self, *args, **kwargs):
            asked.append(kwargs.get("n_jobs", args[0] if args else None))
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(joblib, "Parallel", Spy)
    run_scenario(load_scenario(write(tmp_path, FEW), games=get_game), n_jobs=16)
    assert asked == [2]


def test_a_local_dask_cluster_has_no_more_workers_than_tasks(tmp_path, monkeypatch):
    import dask.distributed

    sizes = []

    class Started(Exception):
        pass

    def cluster(*args, n_workers=None, **kwargs):
        sizes.append(n_workers)
        raise Started

    monkeypatch.setattr(dask.distributed, "LocalCluster", cluster)
    with pytest.raises(Started):
        run_scenario(load_scenario(write(tmp_path, FEW), games=get_game), n_jobs=16, backend_name="dask")
    assert sizes == [2]


def test_jobs_has_an_upper_limit(tmp_path):
    result = CliRunner().invoke(main, ["run", str(write(tmp_path, FEW)), "--jobs", "257", "--out", str(tmp_path / "o")])
    assert result.exit_code == 2 and "--jobs" in result.output and "256" in result.output
    assert not (tmp_path / "o").exists()


def test_a_malformed_scheduler_is_refused_at_once(tmp_path, monkeypatch):
    import dask.distributed

    def connect(*args, **kwargs):
        raise AssertionError("tried to connect")

    monkeypatch.setattr(dask.distributed, "Client", connect)
    for address in ("nonsense:::x", "tcp://127.0.0.1", "http://127.0.0.1:8786", "tcp://host:99999"):
        result = CliRunner().invoke(main, ["run", str(write(tmp_path, FEW)), "--backend", "dask", "--scheduler",
                                           address, "--out", str(tmp_path / "o")])
        assert result.exit_code == 2, result.output
        assert "--scheduler" in result.stderr and "Traceback" not in result.output
        assert result.stderr.strip().splitlines()[-1].startswith("Error: Invalid value for --scheduler:")
        assert not (tmp_path / "o").exists()


def test_an_unreachable_scheduler_is_one_line_after_the_timeout_and_leaves_no_store(tmp_path, monkeypatch):
    import socket

    from tyrsim.core.run import workers

    with socket.socket() as s:  # a port nothing listens on once the socket is closed
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    monkeypatch.setattr(workers, "SCHEDULER_TIMEOUT", 1)
    out = tmp_path / "o"
    start = time.monotonic()
    result = CliRunner().invoke(main, ["run", str(write(tmp_path, FEW)), "--backend", "dask", "--scheduler",
                                       f"tcp://127.0.0.1:{port}", "--out", str(out)])
    assert time.monotonic() - start < 15
    assert result.exit_code == 2, result.output
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith("Error: Invalid value for --scheduler:") and f"127.0.0.1:{port} within 1 s" in last
    assert not out.exists()  # no empty store, no folder


def test_the_scheduler_help_states_the_timeout():
    from tyrsim.core.run.workers import SCHEDULER_TIMEOUT

    result = CliRunner().invoke(main, ["run", "--help"])
    assert f"after {SCHEDULER_TIMEOUT} s" in " ".join(result.output.split())


def test_a_shared_worker_ends_at_once_and_quietly_on_ctrl_c(capfd):
    """The report's workers get Ctrl-C with it; they end without a traceback each (the report says what is kept)."""
    with shared_pool(1) as pool:
        assert pool.submit(abs, -3).result() == 3
        interrupted = pool.submit(signal.raise_signal, signal.SIGINT)
        with pytest.raises(BrokenProcessPool):
            interrupted.result(timeout=60)
    err = capfd.readouterr().err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err
