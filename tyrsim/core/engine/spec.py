"""`GameSpec`: what a game package registers (its rules, player counts, policies, analyses and compiled
engine), and how an entry point hands the registry of games to what reads game names.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from tyrsim.core.compiled.accelerators import register_search
from tyrsim.core.engine.analysis import Analysis, ArgumentError, ForGame
from tyrsim.core.engine.protocols import Game, Policy, PolicyError, make_policy
from tyrsim.core.engine.rules import RuleSet

if TYPE_CHECKING:
    from tyrsim.core.compiled.engines import CompiledEngine


@dataclass(frozen=True)
class GameSpec:
    """What a game package registers in `tyrsim.games`: its `SPEC`.

    `analyses` may hold `ForGame` entries (the studies every game gets, `tyrsim.core.studies`: `game`, `rate`,
    `explore`, `rulings`, `ladder`, `trace`): they are built here, handed this spec, so that no analysis looks
    its game up.
    A spec set as its package's `SPEC` (`package=__name__`) pickles as a reference to that package, so a
    task sent to a worker process carries the game's name and not its tables and functions.
    """

    name: str  # the command-line name, e.g. "zooloretto-duell"
    title: str  # the game's printed title
    rules: type[RuleSet]
    players: tuple[int, ...]  # allowed player counts
    make_game: Callable[[Any, int], Game] | None = None  # (rules, num_players) -> Game; None: no full engine
    policies: Mapping[str, type] = field(default_factory=dict)  # name -> Policy dataclass
    analyses: Mapping[str, Analysis | ForGame] = field(default_factory=dict)
    package: str | None = None  # the package whose SPEC this is (its bundled data/ folder); None: none
    # the game's compiled engine (`tyrsim.core.compiled.engines.CompiledEngine`), which the studies that play games
    # (`tyrsim.core.studies.blocks.play_blocks`) use wherever it plays their games; None: the object engine only
    compiled: CompiledEngine | None = None

    def __post_init__(self) -> None:
        bound = {name: a.build(self) if isinstance(a, ForGame) else a for name, a in self.analyses.items()}
        object.__setattr__(self, "analyses", bound)
        if self.compiled is not None and self.compiled.search is not None:
            policy, module = self.compiled.search
            register_search(self.policies[policy], module)

    def __reduce_ex__(self, protocol: Any) -> Any:
        if self.package is not None and getattr(sys.modules.get(self.package), "SPEC", None) is self:
            return registered_spec, (self.package,)
        return super().__reduce_ex__(protocol)  # a spec no package holds travels whole

    @property
    def default_players(self) -> int:
        return max(self.players)

    def make_policy(self, text: str) -> Policy:
        """A policy of this game from its text (see `make_policy`)."""
        return make_policy(self.policies, self.name, text)

    def player_counts(self) -> str:
        return ", ".join(map(str, self.players))

    def check_seats(self, texts: tuple[str, ...] | list[str]) -> None:
        """One policy per seat: as many as the game has players, each a policy of the game; ArgumentError
        ("policies") naming what is wrong."""
        if len(texts) not in self.players:
            raise ArgumentError("policies", f"{len(texts)} given, one per seat; {self.title} is for "
                                f"{self.player_counts()} players")
        for text in texts:
            try:
                self.make_policy(text)
            except PolicyError as exc:
                raise ArgumentError("policies", str(exc)) from None

    def seat_policies(self, policies: tuple[str, ...] | list[str], players: int | None,
                      analysis: str = "game") -> list[str]:
        """One policy per seat: `policies` as given, or, where none are, the default table of `analysis` (the one
        `tyrsim games` lists) cycled round `players` seats (all of them without a count); ArgumentError
        ("policies" or "players") naming what is wrong."""
        if not policies:
            if players is not None and players not in self.players:  # before a seat list that long is made
                raise ArgumentError("players", f"{self.title} is for {self.player_counts()} players")
            default = self.analyses[analysis].param("policies").default
            policies = tuple(default[i % len(default)] for i in range(players or len(default)))
        if players is not None and players != len(policies):
            raise ArgumentError("players", f"{players} players but {len(policies)} policies; give one per seat")
        self.check_seats(policies)
        return list(policies)


class UnknownGame(ValueError):
    """A game name no game is registered under."""


# name -> GameSpec, raising UnknownGame (its message lists the games): how an entry point hands the registry
# (`tyrsim.games.get_game`) to what reads game names, such as scenario files
GameLookup = Callable[[str], GameSpec]


def registered_spec(package: str) -> GameSpec:
    """The `SPEC` of the game package `package` (how a pickled GameSpec is read back)."""
    return importlib.import_module(package).SPEC
