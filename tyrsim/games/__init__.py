"""The game registry: command-line name -> game package exposing `SPEC` (a GameSpec).

`tyrsim.core` never imports it: the entry points (the command line, a notebook, a test) hand `get_game` to
what reads game names (`tyrsim.core.run.scenario.load_scenario(path, games=get_game)`), and everything else is
handed the GameSpec itself.
"""

from __future__ import annotations

import importlib

from tyrsim.core.engine.spec import GameSpec, UnknownGame

REGISTRY = {
    "tyranno-ex": "tyrsim.games.tyranno_ex",
    "tyros": "tyrsim.games.tyros",
    "tiny-epic-dinosaurs": "tyrsim.games.tiny_epic_dinosaurs",
    "zooloretto-duell": "tyrsim.games.zooloretto_duell",
}


def game_names() -> list[str]:
    """The registered games' command-line names."""
    return list(REGISTRY)


def get_game(name: str) -> GameSpec:
    """The registered game called `name` (a `GameLookup`)."""
    if name not in REGISTRY:
        raise UnknownGame(f"unknown game {name!r}; the games are: {', '.join(REGISTRY)}")
    return importlib.import_module(REGISTRY[name]).SPEC


__all__ = ["REGISTRY", "UnknownGame", "game_names", "get_game"]
