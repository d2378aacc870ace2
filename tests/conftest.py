"""Shared fixtures: the toy dice game registered as a game for the machinery's tests, one numba cache for the
run, one headless browser."""

import os
import sys
import tempfile
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))


def pytest_configure(config):
    """Every process of the run caches its compiled engines in one folder (NUMBA_CACHE_DIR), unless one is given:
    the test processes, the worker processes they start and the fresh processes of the cache checks
    (tests/compiled_checks.py). An engine or search is then compiled once a run, by whichever check needs it first,
    and loaded by the rest. The folder is kept between runs in pytest's cache (a temporary one without it). Set
    here, before any test module imports numba (numba reads it once), and inherited by xdist's workers."""
    if "NUMBA_CACHE_DIR" not in os.environ:
        cache = config.cache.mkdir("numba") if getattr(config, "cache", None) else tempfile.mkdtemp(prefix="numba")
        os.environ["NUMBA_CACHE_DIR"] = str(cache)


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
