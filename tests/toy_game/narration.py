"""Plain words for the Dice game's play log: the decisions (`describe`) and what they cause.

`tyrsim play` asks the state's `describe(action)` for the action about to be taken; while
`state.narration` is a list the engine (`game.py`) appends the sentences made here. The
functions read the state and never change it.
"""

from __future__ import annotations

from typing import Any

from toy_game.actions import Pass
from tyrsim.core.report.words import count


def describe(state: Any, action: Any) -> str:
    """The current player's action in plain words (asked before it is applied)."""
    if isinstance(action, Pass) and state.rules.bonus:
        return f"pass for {count(state.rules.bonus, 'point')}"
    return repr(action)


def six_again(p: int, roll: int) -> str:
    """Rule `six_again`: P`p` rolled a six and rolls again."""
    return f"P{p} rolled a six and rolls again: {roll}"
