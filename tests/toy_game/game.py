"""The Dice game's engine (the object engine: the readable reference, and the play logs).

Each turn the player to move rolls the die (adds the face to their points) or passes; after
`turns` turns each, the most points wins (a tie is a shared victory). The only chance is the die,
drawn from the state's own generator. Nothing is hidden but the future rolls. The action records
are in `actions.py`, the play log's words in `narration.py`.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from toy_game import narration as words
from toy_game.actions import PASS, ROLL, Action
from toy_game.die import load_faces
from toy_game.rules import Rules

NAME = "dice"  # the game's name on the command line and in the registry


@dataclass(frozen=True)
class DiceGame:
    """The Dice game under `rules`, for `num_players` players."""

    rules: Rules
    num_players: int
    name: ClassVar[str] = NAME

    def new_state(self, rng: np.random.Generator) -> DiceState:
        return DiceState(self.rules, self.num_players, rng)


class DiceState:
    """A position: each player's points, the turns played, and the `tally` counter.

    `narration` is None unless a play log listens (see `Narrated` in tyrsim.core.engine.protocols); then `apply`
    appends a sentence for a six rolled again (rule `six_again`)."""

    def __init__(self, rules: Rules, players: int, rng: np.random.Generator):
        self.rules, self.rng = rules, rng
        self.faces = load_faces(rules.die_file)
        self.points = [0] * players
        self.turn = 0
        self.tally = 0
        self.narration: list[str] | None = None

    def current_player(self) -> int:
        return -1 if self.is_terminal() else self.turn % len(self.points)

    def legal_actions(self) -> list[Action]:
        return [ROLL, PASS]

    def apply(self, action: Action) -> None:
        p = self.current_player()
        if action == ROLL:
            roll = self.roll()
            self.tally += roll == 6 or (roll == 5 and self.rules.tally == "high")
            self.points[p] += roll
            # rule `six_again`: a six is rolled again, and so on while sixes come
            while roll == 6 and self.rules.six_again:
                roll = self.roll()
                self.points[p] += roll
                if self.narration is not None:
                    self.narration.append(words.six_again(p, roll))
        else:
            self.points[p] += self.rules.bonus
        self.turn += 1

    def roll(self) -> int:
        """One roll of the die: a face drawn from the state's generator."""
        return self.faces[int(self.rng.integers(len(self.faces)))]

    def is_terminal(self) -> bool:
        return self.turn >= self.rules.turns * len(self.points)

    def scores(self) -> list[float]:
        return [float(p) for p in self.points]

    def winners(self) -> list[int]:
        best = max(self.points)
        return [i for i, p in enumerate(self.points) if p == best]

    def stats(self) -> dict[str, float]:
        return {"turns": self.turn, "tally": self.tally, **{f"points_p{i}": p for i, p in enumerate(self.points)}}

    def describe(self, action: Action) -> str:
        return words.describe(self, action)

    def clone(self) -> DiceState:
        other = copy.copy(self)
        other.points = list(self.points)
        other.narration = None
        return other

    def determinize(self, player: int, rng: np.random.Generator) -> DiceState:
        """Nothing is hidden but the future dice: a clone with a chance generator of its own."""
        other = self.clone()
        other.rng = np.random.default_rng(int(rng.integers(2**63)))
        return other
