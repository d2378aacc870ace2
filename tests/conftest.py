"""Shared fixtures: the toy dice game registered as a game for the machinery's tests, one numba cache for the
run, one headless browser."""

import os
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))


def pytest_configure(config):
    """Every process of the run caches its compiled engines in one folder (NUMBA_CACHE_DIR), unless one is given:
    the test processes, the worker processes they start and the fresh processes of the cache checks
    (tests/compiled_checks.py). An engine or search is then compiled once a run (before the tests on a run of the
    whole suite, see pytest_sessionstart) and loaded by every check after. The folder is kept between runs in
    pytest's cache (a temporary one without it). Set here, before any test module imports numba (numba reads it
    once), and inherited by xdist's workers."""
    if "NUMBA_CACHE_DIR" not in os.environ:
        cache = config.cache.mkdir("numba") if getattr(config, "cache", None) else tempfile.mkdtemp(prefix="numba")
        os.environ["NUMBA_CACHE_DIR"] = str(cache)


COMPILE_GAME = ("import sys; from tyrsim.core.compiled.engines import compile_ahead; "
                "from tyrsim.games import get_game; compile_ahead(get_game(sys.argv[1]))")


@pytest.hookimpl(tryfirst=True)
def pytest_sessionstart(session):
    """A run of the whole suite first compiles every game's compiled engine and search into the run's numba cache
    (or loads them from it), the games side by side in fresh processes (the longest compile first,
    `compile_order`), before xdist starts its workers: the checks that need one then load it, instead of the
    first check on each worker compiling the same engine at the same time as the other. A run of chosen files
    compiles what its tests need as they need it."""
    config = session.config
    whole = config.args_source == pytest.Config.ArgsSource.TESTPATHS or \
        [Path(a).resolve() for a in config.args] == [Path(__file__).parent]
    if hasattr(config, "workerinput") or not whole or config.getoption("collectonly"):
        return
    from tyrsim.core.compiled.engines import compile_order
    from tyrsim.games import game_names, get_game

    names = [spec.name for spec in compile_order(get_game(name) for name in game_names())]
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        reporter.write_line(f"compiling the compiled engines and searches of {len(names)} games into "
                            f"{os.environ['NUMBA_CACHE_DIR']} (seconds once it holds them)")

    def compile_game(name: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-c", COMPILE_GAME, name], capture_output=True, text=True)

    with ThreadPoolExecutor(os.cpu_count() or 1) as pool:
        for name, done in zip(names, pool.map(compile_game, names), strict=True):
            if done.returncode != 0 and reporter is not None:  # the tests of that game say what is wrong
                reporter.write_line(f"{name} did not compile: {done.stderr.strip()[-300:]}")


def pytest_collection_modifyitems(config, items):
    """An exhaustive check is a slow one too: `pytest -m "not slow"` replaces the default run's
    `-m 'not exhaustive'`, and must leave the exhaustive checks out as well."""
    for item in items:
        if item.get_closest_marker("exhaustive") is not None:
            item.add_marker(pytest.mark.slow)


@pytest.fixture(scope="session")
def numba_cache() -> Path:
    """The run's numba cache folder (see pytest_configure)."""
    return Path(os.environ["NUMBA_CACHE_DIR"])


@pytest.fixture
def dice_game(monkeypatch):
    """Register the toy dice game as "dice" (in this process only: run its analyses with one job)."""
    import toy_game

    import tyrsim.games

    monkeypatch.setitem(tyrsim.games.REGISTRY, "dice", "toy_game")
    return toy_game.SPEC


@pytest.fixture(scope="session")
def browser():
    """One headless chromium for the session's browser tests (see tests/browser.py)."""
    from browser import open_browser

    driver = open_browser()
    yield driver
    driver.quit()
