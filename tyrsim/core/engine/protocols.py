"""The Game / State / Policy protocols shared by every full game engine, how a policy is made from its text,
and the random policy every game offers.

A `Game` makes `State`s; a `State` is advanced by `apply(action)` and draws its
chance events from its own generator; a `Policy` chooses among the legal
actions of the state it is given. What a game package registers is its `GameSpec`
(`spec.py`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Hashable, Mapping, Sequence
from typing import Protocol

import numpy as np

from tyrsim.core.engine.rng import uniform
from tyrsim.core.engine.rules import RuleError, RuleSet, coerce_value
from tyrsim.core.engine.weights import WEIGHTS, read_weights, tunable

Action = Hashable


class State(Protocol):
    def current_player(self) -> int:
        """The player to act; -1 when the game is over."""

    def legal_actions(self) -> Sequence[Action]:
        """The actions the player to move may choose (a list, or a shared tuple that is never changed)."""

    def apply(self, action: Action) -> None:
        """Play `action`; chance events are drawn from the state's own generator."""

    def is_terminal(self) -> bool: ...

    def scores(self) -> list[float]: ...

    def winners(self) -> list[int]:
        """The winning seats after the game's tie-breaks (several on a shared victory)."""

    def stats(self) -> dict[str, float]:
        """Per-game counters for analysis (rounds, per-seat breakdowns as `name_p<seat>`)."""

    def clone(self) -> State: ...


class Narrated(Protocol):
    """What a state may add so that `tyrsim play` reads like a play-by-play (both optional).

    `describe(action)`: the current player's action in plain words, asked before it is applied.
    `narration`: None while nobody listens (simulation and search pay nothing); a play log sets
    it to a list, the state appends one plain sentence per event an action causes (a fight's
    rolls and outcome, a scoring, a round's end, the final scores), and the log prints and
    clears it after each action. A clone starts with None."""

    narration: list[str] | None

    def describe(self, action: Action) -> str: ...


class Game(Protocol):
    name: str
    rules: RuleSet
    num_players: int

    def new_state(self, rng: np.random.Generator) -> State: ...


class Policy(Protocol):
    name: str

    def choose(self, state: State, rng: np.random.Generator) -> Action: ...


class PolicyError(ValueError):
    """An unknown policy name or a bad policy parameter."""


def make_policy(policies: Mapping[str, type], game: str, text: str) -> Policy:
    """A policy of the table `policies` (name -> Policy dataclass) of the game called `game`, from `NAME` or
    `NAME:key=value,key=value` (fields of its dataclass, or `weights=FILE` for a policy with tunable weights:
    see `tyrsim.core.engine.weights`), each key at most once. A weight given as key=value wins over the same weight
    in the file, wherever it stands."""
    name, _, params = text.partition(":")
    name = name.strip()
    if name not in policies:
        raise PolicyError(f"unknown policy {name!r} for {game}; the policies are: " + ", ".join(sorted(policies)))
    cls = policies[name]
    fields = {f.name: f for f in dataclasses.fields(cls)} if dataclasses.is_dataclass(cls) else {}
    kwargs = {}
    given: set[str] = set()
    for item in filter(None, (p.strip() for p in params.split(","))):
        key, sep, value = item.partition("=")
        key = key.strip()
        if sep and key in given:  # else the last would silently replace the first
            raise PolicyError(f"policy {name!r}: parameter {key!r} is given twice; give each once")
        given.add(key)
        if sep and key == WEIGHTS and tunable(cls):
            try:
                kwargs = read_weights(value.strip(), game, name, cls) | kwargs  # key=value still wins
            except RuleError as exc:
                raise PolicyError(f"policy {name!r}: {exc}") from None
            continue
        if not sep or key not in fields or key == "name":
            allowed = ", ".join(k for k in fields if k != "name") or "none"
            if tunable(cls):
                allowed += f", or {WEIGHTS}=FILE (a weights file of `tyrsim tune`)"
            raise PolicyError(f"policy {name!r}: bad parameter {item!r}; write key=value with key one of: {allowed}")
        try:
            kwargs[key] = coerce_value(fields[key], value.strip())
        except RuleError as exc:
            raise PolicyError(f"policy {name!r}: {exc}") from None
    try:
        return cls(**kwargs)
    except (ValueError, TypeError) as exc:
        raise PolicyError(f"policy {name!r}: {exc}") from None


class RandomPolicy:
    """Chooses uniformly among the legal actions; every game offers it as `random`.

    One uniform double u in [0, 1) per decision (`tyrsim.core.engine.rng.uniform`, drawn from
    the generator in blocks) picks action floor(u * n): always below n, and no action's
    chance is off by more than n / 2**53.
    """

    name = "random"

    def choose(self, state: State, rng: np.random.Generator) -> Action:
        actions = state.legal_actions()
        return actions[int(uniform(rng) * len(actions))]
