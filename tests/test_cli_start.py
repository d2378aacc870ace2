"""A command line that answers quickly: what `tyrsim --help`, `tyrsim games` and a printed `simulate` import.

Each command runs in a fresh process (as a user types it) that reports, after the command, which of the
libraries that take most of a start-up it loaded: pandas (a quarter of a second), scipy.stats (near a second)
and matplotlib's pyplot (a quarter). The speeds themselves are figures in benchmarks/bench_cli.py.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

HEAVY = ("pandas", "scipy.stats", "matplotlib", "matplotlib.pyplot")

# run the command line as `tyrsim ARGS` would, then name the heavy modules the process holds
SCRIPT = """
import runpy, sys
sys.argv = ["tyrsim", *sys.argv[1:]]
try:
    runpy.run_module("tyrsim.cli", run_name="__main__")
except SystemExit as exc:
    assert not exc.code, exc.code
finally:
    print("loaded:", *(m for m in {heavy!r} if m in sys.modules), file=sys.stderr)
"""


def loaded(*args: str) -> list[str]:
    """The heavy modules a process running `tyrsim ARGS` loaded."""
    done = subprocess.run([sys.executable, "-c", SCRIPT.format(heavy=HEAVY), *args], capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    line = next(line for line in done.stderr.splitlines() if line.startswith("loaded:"))
    return line.split()[1:]


@pytest.mark.parametrize("args", [("--help",), ("games",), ("games", "zooloretto-duell")])
def test_help_and_the_games_list_import_no_tables_statistics_or_plots(args):
    assert loaded(*args) == []


def test_a_simulate_that_prints_its_tables_draws_no_figures_and_loads_no_scipy_stats():
    """Its tables need pandas; their intervals take scipy.special's quantiles, and no figure is drawn when
    nothing is written."""
    assert loaded("simulate", "zooloretto-duell", "--games", "20", "--policy", "random", "--policy", "random",
                  "--jobs", "1") == ["pandas"]
