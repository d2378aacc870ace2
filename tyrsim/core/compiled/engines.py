"""A game's compiled engine beside its object engine: the `engine` argument and what it decides.

A game with a compiled engine (docs/performance.md, "The compiled-engine pattern") names it by a
`CompiledEngine`: its object policies (the game's name and its table of policies, which make a seat's policy
from its text), its compiled module, which offers `supported(rules, players) -> str | None` (None, or a line
naming the first rule it cannot play), and its compiled policies' module, which offers
`compiled_form(policy) -> Form | None` (`tyrsim.core.compiled.forms`: None for a policy without one) and
`chunk_player(rules, forms, names)`, the rules' tables made once and a function of (first, count, rng,
game_rng=None) giving the object engine's table of the same games (`game_rng(g)`: game g's own generator, for
paired games). `CompiledEngine.chunk_player` makes the seats' policies from their texts and their compiled forms;
a study that plays many chunks of one seating and rules (the studio, a balance search) holds the player, so that
neither the forms nor the rules' tables are made again for every chunk. Both engines play the same games from the same
generator, so the choice changes speed, never a table.

`with_engine(analysis)` gives the game's `game` analysis an `engine` argument:
- `object`: the readable reference engine, every policy;
- `compiled`: refused, before anything runs, for a policy without a compiled form (an
  ArgumentError) or a rule it does not play (a RuleError raised in the main process while the
  run decides its substitutions, before any task is sent);
- `auto` (the default, and what a study with no engine argument plays): compiled wherever
  it can play the point, else the object engine, and the run says so once
  (`tyrsim.core.run.substitutions`).
A compiled task holds `games_per_task` games; the main process compiles the engine (or loads
numba's cache) before a point's tasks go out (`Analysis.prepare`), so workers load the cache
rather than each compiling. The modules are imported when first needed, so a command of
another game does not pay numba's import.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from tyrsim.core.engine.analysis import Analysis, ArgumentError, Param
from tyrsim.core.engine.protocols import make_policy
from tyrsim.core.engine.rng import game_streams
from tyrsim.core.engine.rules import RuleError
from tyrsim.core.run.substitutions import AUTO, Substitution, engine_refused, no_form_of

if TYPE_CHECKING:
    import pandas as pd

    from tyrsim.core.compiled.chunks import ChunkPlayer
    from tyrsim.core.compiled.forms import Form

COMPILED, OBJECT = "compiled", "object"
ENGINES = (AUTO, COMPILED, OBJECT)


@dataclass(frozen=True)
class CompiledEngine:
    """A game's compiled engine: its modules (by import path), the policies that have a compiled form, and the
    game's object policies, whose compiled forms it plays."""

    rules_module: str  # offers supported(rules, players)
    policies_module: str  # offers compiled_form(policy) and play_chunk(rules, forms, names, first, count, rng, ...)
    policies: str  # the policies with a compiled form, for messages: "the random, greedy and heuristic policies"
    # the game's compiled search: (the policy whose decisions it makes, its module, which offers
    # `choose(policy, state, rng)`), registered by the game's GameSpec (`tyrsim.core.compiled.accelerators`)
    search: tuple[str, str] | None = None
    # games per compiled task: large enough that a task's fixed costs (its table, the worker's round trip) stay
    # small beside its games, small enough that a million games still spread over the workers
    games_per_task: int = 20_000
    # the game's name and its object policies (`GameSpec.policies`), which make a seat's policy from its text
    game: str = field(kw_only=True)
    policy_table: Mapping[str, type] = field(kw_only=True)

    def source_size(self) -> int:
        """The bytes of the compiled modules' source (rules, policies, search), read without importing them."""
        modules = [self.rules_module, self.policies_module, *([self.search[1]] if self.search else [])]
        return sum(Path(importlib.util.find_spec(m).origin).stat().st_size for m in modules)

    def _policies(self):
        return importlib.import_module(self.policies_module)

    def form(self, text: str) -> Form | None:
        """The compiled form of the policy `text` (its parameters and weights file applied), or None."""
        return self._policies().compiled_form(make_policy(self.policy_table, self.game, text))

    def missing_forms(self, texts) -> list[str]:
        """The policy texts among `texts` that have no compiled form."""
        return [t for t in texts if self.form(t) is None]

    def chunk_player(self, rules: Any, texts: list[str]) -> ChunkPlayer:
        """The compiled engine's games of the policies `texts` with rotated seats under `rules`, made ready once
        (each seat's compiled form, the rules' tables): a function of (first, count, rng, game_rng) giving the
        table `runner.play_chunk` makes of games first .. first+count-1 (one row per game and seat, the same
        columns and, for the same generator, the same values), drawing one after another from `rng`, or game g
        from `game_rng(g)`. A study that plays many chunks of one seating and rules holds one. ValueError naming
        the policy, the rule or the player count the compiled engine cannot play."""
        forms = [self.form(text) for text in texts]
        if missing := [text for text, form in zip(texts, forms, strict=True) if form is None]:
            raise ValueError(f"policy {missing[0]!r}: the compiled engine plays only {self.policies} (the object "
                             "engine plays every policy)")
        return self._policies().chunk_player(rules, forms, list(texts))

    def play_chunk(self, rules: Any, texts: list[str], first: int, count: int, rng: np.random.Generator,
                   game_rng: Callable[[int], np.random.Generator] | None = None) -> pd.DataFrame:
        """One chunk of `chunk_player(rules, texts)`'s games: games first .. first+count-1."""
        return self.chunk_player(rules, texts)(first, count, rng, game_rng)

    def object_play(self, missing: list[str], games: str = "these games") -> str:
        """What plays `games` that the compiled engine cannot play because the policies `missing` have no compiled
        form: the object engine, and where they are all the game's search, the compiled search choosing their
        moves ("the object engine plays the moves of these games; the compiled search chooses them")."""
        if missing and self.search is not None and all(text.split(":", 1)[0] == self.search[0] for text in missing):
            return f"the object engine plays the moves of {games}; the compiled search chooses them"
        return f"the object engine plays {games}"

    def refusal(self, rules: Any, texts) -> str | None:
        """Why the compiled engine cannot play games of the policies `texts` under `rules`, or None."""
        if missing := self.missing_forms(texts):
            return no_form_of(COMPILED, missing)
        return importlib.import_module(self.rules_module).supported(rules, len(texts))

    def param(self) -> Param:
        return Param(
            "engine", AUTO,
            f"which engine plays the games: '{COMPILED}' (numba; {self.policies}), '{OBJECT}' (every policy; the "
            f"readable reference that writes play logs) or '{AUTO}' (compiled wherever every seat's policy has a "
            "compiled form and the rules are ones it plays, else the object engine, and the run says so); both "
            "play the same games from the same seed, move for move",
            choices=ENGINES,
        )

    def engine_for(self, rules: Any, args: Mapping[str, Any]) -> str:
        """The engine that plays a point's games ('auto', and a study with no engine argument: compiled
        wherever it can)."""
        engine = args.get("engine", AUTO)
        if engine == OBJECT or (engine == AUTO and self.refusal(rules, args["policies"]) is not None):
            return OBJECT
        return COMPILED

    def check(self, args: Mapping[str, Any]) -> None:
        """`Analysis.validate`: `engine = "compiled"` needs a compiled form of every seat's policy."""
        if args["engine"] == COMPILED and (missing := self.missing_forms(args["policies"])):
            raise ArgumentError("engine", f"'{COMPILED}' plays only {self.policies}: "
                                f"{no_form_of(COMPILED, missing)} (use '{OBJECT}' or '{AUTO}')")

    def substitutions(self, rules: Any, args: Mapping[str, Any]) -> tuple[Substitution, ...]:
        """`Analysis.substitutions`: 'auto' where a policy or a rule keeps the compiled engine out; 'compiled'
        asked by name with rules it cannot play is refused here, before any task is sent."""
        reason = self.refusal(rules, args["policies"])
        if args.get("engine", AUTO) == COMPILED and reason is not None:
            raise RuleError(f"--engine {COMPILED}: {reason}; use --engine {OBJECT} or {AUTO}")
        note = engine_refused(args.get("engine", AUTO), reason, self.object_play(self.missing_forms(args["policies"])))
        return () if note is None else (note,)

    def prepare(self, rules: Any, args: Mapping[str, Any]) -> None:
        """`Analysis.prepare`: compile the engine (or load numba's cache) where it plays the point, by playing
        no games."""
        if self.engine_for(rules, args) == COMPILED:
            self.play_chunk(rules, list(args["policies"]), 0, 0, np.random.default_rng(0))

    def with_engine(self, analysis: Analysis) -> Analysis:
        """The game analysis `analysis` (whose `run` plays the object engine) with the `engine` argument."""
        object_run, object_games, validate = analysis.run, analysis.chunk_size, analysis.validate

        def run(rules: Any, args: Mapping[str, Any], first: int, count: int,
                rng: np.random.Generator) -> pd.DataFrame:
            if self.engine_for(rules, args) == OBJECT:
                return object_run(rules, args, first, count, rng)
            return self.play_chunk(rules, list(args["policies"]), first, count, rng,
                                   game_streams(rng, args["paired"]))

        def check(args: Mapping[str, Any]) -> None:
            if validate is not None:
                validate(args)
            self.check(args)

        def task_size(rules: Any, args: Mapping[str, Any]) -> int:
            # the object engine's tasks stay small, so that its slower games still spread over the workers
            return self.games_per_task if self.engine_for(rules, args) == COMPILED else object_games

        return replace(analysis, params=(*analysis.params, self.param()), run=run, validate=check,
                       substitutions=self.substitutions, prepare=self.prepare, task_size=task_size)


def compile_search(spec: Any, rules: Any, players: int) -> None:
    """Compile the game `spec`'s compiled search (`ismcts`), or load it from numba's cache, by one decision of
    one iteration (a game whose search has no compiled form for these rules compiles nothing)."""
    state = spec.make_game(rules, players).new_state(np.random.default_rng(0))
    spec.make_policy("ismcts:iterations=1").compiled_choice(state, np.random.default_rng(0))


def compile_order(specs: Iterable[Any]) -> list[Any]:
    """The games `specs` in the order to compile them side by side: the most compiled code first (a game's compile
    time grows with its compiled modules' source; on 2 cores Tiny Epic Dinosaurs' takes as long as two other games'),
    so that the last compile to start is a short one and no worker waits long for the others."""
    return sorted(specs, key=lambda spec: -spec.compiled.source_size())


def compile_engine(spec: Any) -> None:
    """Compile the game `spec`'s compiled engine (its turn loop, for every rule set, player count and policy with
    a compiled form: they are data to it), or load it from numba's cache."""
    spec.compiled.prepare(spec.rules(), {"policies": ("random",) * spec.default_players})


def compile_ahead(spec: Any) -> None:
    """Compile the game `spec`'s compiled engine and its compiled search, or load them from numba's cache: what
    the default report runs in its worker processes, one game each, before the first scenario, so that the
    first run after an install compiles the games side by side instead of one after another in the main
    process (a study's `prepare`)."""
    compile_engine(spec)
    if "ismcts" in spec.policies:
        compile_search(spec, spec.rules(), spec.default_players)
