"""The Dice game's actions: roll the die, or pass. Each is a small frozen record that prints as a play-by-play
line ("P0: roll")."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Roll:
    """Roll the die and add it to your points."""

    def __repr__(self) -> str:
        return "roll"


@dataclass(frozen=True, slots=True)
class Pass:
    """Pass (and score the rule `bonus`)."""

    def __repr__(self) -> str:
        return "pass"


Action = Roll | Pass
ROLL, PASS = Roll(), Pass()
