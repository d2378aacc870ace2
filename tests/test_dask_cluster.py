"""A real Dask cluster: `dask scheduler` and `dask worker` processes on this machine give the same tables."""

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from combat_runs import tables

from tyrsim.cli import main

ROOT = Path(__file__).parent.parent
DASK = Path(sys.executable).parent / "dask"  # the console script installed with distributed, beside python

SCENARIO = """
name = "cluster"
game = "tyranno-ex"
analysis = "combat"
seed = 11
[args]
attacker_strength = [2, 4]
attacker_dice = [3]
defender_strength = [1]
defender_dice = [4]
method = "mc"
fights = 150000
[sweep.rules]
tie_rule = ["reroll", "defender"]
[compare]
baseline = { tie_rule = "reroll" }
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_port(port: int, procs: list[subprocess.Popen], seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        for proc in procs:
            if proc.poll() is not None:
                raise RuntimeError(f"{proc.args[:2]} exited with {proc.returncode}: {proc.stderr.read()[-2000:]}")
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise RuntimeError(f"the scheduler did not listen on port {port} within {seconds} s")


@pytest.fixture
def cluster(tmp_path):
    """tcp://127.0.0.1:PORT of a scheduler with two one-thread worker processes; all stopped afterwards.

    Each command runs in a session of its own, so stopping it stops the processes it started too.
    """
    if not DASK.exists():
        pytest.skip("the dask command line is not installed")
    port = free_port()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    address = f"tcp://127.0.0.1:{port}"
    procs: list[subprocess.Popen] = []
    try:
        procs.append(subprocess.Popen([str(DASK), "scheduler", "--host", "127.0.0.1", "--port", str(port),
                                       "--no-dashboard"], cwd=tmp_path, env=env, stdout=subprocess.DEVNULL,
                                      stderr=subprocess.PIPE, text=True, start_new_session=True))
        wait_for_port(port, procs, 30)
        procs.append(subprocess.Popen([str(DASK), "worker", address, "--nthreads", "1", "--nworkers", "2",
                                       "--no-dashboard", "--local-directory", str(tmp_path / "worker")],
                                      cwd=tmp_path, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                      text=True, start_new_session=True))
        from dask.distributed import Client

        with Client(address, timeout="30s") as client:
            client.wait_for_workers(2, timeout=30)
        yield address
    finally:
        for proc in reversed(procs):
            os.killpg(proc.pid, signal.SIGTERM)  # the group of the process started here, whose id it has
        for proc in reversed(procs):
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()


@pytest.mark.slow
def test_a_real_cluster_gives_the_tables_of_one_job(tmp_path, cluster):
    path = tmp_path / "cluster.toml"
    path.write_text(SCENARIO)
    runner = CliRunner()
    one = runner.invoke(main, ["run", str(path), "--out", str(tmp_path / "one"), "--jobs", "1"])
    assert one.exit_code == 0, one.output
    remote = runner.invoke(main, ["run", str(path), "--out", str(tmp_path / "remote"), "--backend", "dask",
                                  "--scheduler", cluster])
    assert remote.exit_code == 0, remote.output
    from dask.distributed import Client

    with Client(cluster, timeout="30s") as client:  # the tasks went to this cluster
        prefixes = client.run_on_scheduler(lambda dask_scheduler: list(dask_scheduler.task_prefixes))
    assert any("run_task" in p for p in prefixes), prefixes
    assert len(list((tmp_path / "remote" / ".store").glob("*.npz"))) == 2 * 2  # 2 points x 2 chunks
    assert set(tables(tmp_path / "one")) == {"odds.csv", "summary.csv", "comparison.csv"}
    assert tables(tmp_path / "remote") == tables(tmp_path / "one")
