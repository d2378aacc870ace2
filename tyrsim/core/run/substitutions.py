"""Substitutions: where a run plays something other than what it was asked for, and why.

A substitution is decided in the main process, from a sweep point's rules and arguments
(`Analysis.substitutions`) and the run's own options, before any task is sent: the
workers, the Dask backend and the report's scenarios running side by side need to know
nothing of it, and every task of the point plays what the note says. The command prints
each substitution once, on one line; the report's manifest lists them and its page says
so under "How this was run".

The ruling on engines (docs/scenarios.md): `engine = "auto"`, and every study that
names no engine, means "the fastest engine for this task". A task too small for the
faster engine to pay is played by the object engine as that choice, not as a
substitution; a task the faster engine cannot play (a rule value it refuses, a policy
it has no form of) is a substitution, and the run says which engine played and why.
"""

from __future__ import annotations

from dataclasses import dataclass

AUTO = "auto"  # the engine argument's value asking for the fastest engine


@dataclass(frozen=True)
class Substitution:
    """What was asked, what the run does instead, and why, each in the user's words."""

    asked: str  # "engine 'auto'", "8 worker processes"
    played: str  # "the object engine plays these games"
    reason: str  # "the compiled engine has no form of policy 'mcts'"

    def line(self, game: str) -> str:
        return f"{game}: {self.played}; {self.reason} (asked: {self.asked})"


@dataclass(frozen=True)
class Noted:
    """A substitution of a run and the sweep points it holds at (empty: every point of the run)."""

    substitution: Substitution
    points: tuple[str, ...] = ()

    def line(self, game: str) -> str:
        where = f" at sweep points {'; '.join(self.points)}" if self.points else ""
        return self.substitution.line(game) + where

    def record(self, game: str) -> dict[str, object]:
        """The manifest's entry."""
        s = self.substitution
        return {"asked": s.asked, "played": s.played, "reason": s.reason, "points": list(self.points),
                "line": self.line(game)}


def engine_refused(engine: str, refusal: str | None,
                   played: str = "the object engine plays these games") -> Substitution | None:
    """The substitution of a run asking for `engine` whose games the game's faster engine cannot play,
    `refusal` saying why (None: it can play them). Only 'auto' substitutes: an engine asked by name
    plays, or the run is refused before it starts."""
    if engine != AUTO or refusal is None:
        return None
    return Substitution(f"engine {AUTO!r}", played, refusal)


def no_form_of(engine: str, texts: list[str]) -> str:
    """The reason an engine cannot play the policies `texts` (those it has no form of), e.g.
    "the compiled engine has no form of policy 'mcts'"."""
    names = list(dict.fromkeys(texts))
    return f"the {engine} engine has no form of polic{'y' if len(names) == 1 else 'ies'} {', '.join(map(repr, names))}"
