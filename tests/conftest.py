"""Shared fixtures: the toy dice game registered as a game for the machinery's tests."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))


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
