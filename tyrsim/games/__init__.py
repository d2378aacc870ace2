"""The game registry: command-line name -> game package exposing `SPEC` (a GameSpec).

This is the only place `tyrsim.core` learns about games.
"""

from __future__ import annotations

import importlib

from tyrsim.core.game import GameSpec

REGISTRY = {
    "tyranno-ex": "tyrsim.games.tyranno_ex",
    "tyros": "tyrsim.games.tyros",
    "tiny-epic-dinosaurs": "tyrsim.games.tiny_epic_dinosaurs",
    "zooloretto-duell": "tyrsim.games.zooloretto_duell",
}


class UnknownGame(ValueError):
    """A game name that is not registered."""


def game_names() -> list[str]:
    return list(REGISTRY)


def get_game(name: str) -> GameSpec:
    """The registered game called `name`."""
    if name not in REGISTRY:
        raise UnknownGame(f"unknown game {name!r}; the games are: {', '.join(REGISTRY)}")
    return importlib.import_module(REGISTRY[name]).SPEC
