"""numba's cache follows every file of a compiled engine (`tyrsim.core.compiled.numba_cache`)."""

import os
import subprocess
import sys
import textwrap

RULES = """
from numba import njit
{keep}

@njit(cache=True)
def points():
    return {points}
"""
POLICIES = """
from numba import njit
{keep}
from engine.rules import points

@njit(cache=True)
def play():
    return points() * 10
"""
KEEP = "from tyrsim.core.compiled.numba_cache import keep_fresh\nkeep_fresh(__file__)"


def play(tmp_path, points: int, keep: bool) -> str:
    """Write the two-file engine with `points` in its rules and play it in a fresh process on one cache folder."""
    package = tmp_path / "engine"
    package.mkdir(exist_ok=True)
    (package / "__init__.py").write_text("")
    line = KEEP if keep else ""
    (package / "rules.py").write_text(textwrap.dedent(RULES.format(keep=line, points=points)))
    (package / "policies.py").write_text(textwrap.dedent(POLICIES.format(keep=line)))
    env = os.environ | {"NUMBA_CACHE_DIR": str(tmp_path / "cache"), "PYTHONPATH": str(tmp_path)}
    done = subprocess.run([sys.executable, "-c", "from engine.policies import play; print(play(), "
                           "sum(play.stats.cache_hits.values()))"], env=env, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout.split()


def test_a_change_to_the_rules_file_reaches_the_policies_cached_against_the_old_one(tmp_path):
    assert play(tmp_path, 1, keep=True) == ["10", "0"]
    assert play(tmp_path, 1, keep=True) == ["10", "1"]  # loaded from the cache
    assert play(tmp_path, 2, keep=True) == ["20", "0"]  # compiled afresh, not the old rules


def test_without_it_numba_would_play_the_old_rules(tmp_path):
    """What `keep_fresh` is for: numba alone stamps `play` with its own file, and loads it stale."""
    assert play(tmp_path, 1, keep=False) == ["10", "0"]
    assert play(tmp_path, 2, keep=False) == ["10", "1"]


def test_a_compiled_engine_starts_without_scipy():
    """A process that plays compiled games loads no scipy.stats (half a second of a cached start): the
    statistics modules import scipy where a function needs it."""
    games = ("zooloretto_duell", "tyranno_ex", "tyros", "tiny_epic_dinosaurs")
    script = "import sys\n" + "".join(f"import tyrsim.games.{g}.compiled_policies\n" for g in games) + \
        "print(sorted(m for m in sys.modules if m.startswith('scipy.')))"
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "scipy.stats" not in done.stdout, done.stdout
