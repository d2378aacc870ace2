"""A tiny dice game for testing the shared machinery: each turn a player rolls a die or passes."""

import copy
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from tyrsim.core.designer import explore_analysis, rating_analysis
from tyrsim.core.game import GameSpec, RandomPolicy
from tyrsim.core.playouts import game_analysis
from tyrsim.core.rules import RuleSet, rule
from tyrsim.core.rulings import rulings_analysis
from tyrsim.core.search import IsmctsPolicy
from tyrsim.core.skill import ladder_analysis, trace_analysis


@dataclass(frozen=True)
class Rules(RuleSet):
    """The dice game's rules; three of them are rulings for the `rulings` analysis's tests."""

    turns: int = rule(3, "turns per player", low=1, high=10)
    six_again: bool = rule(False, "a six is rolled again and added (each roll is worth 4.2 on average, not 3.5)",
                           ruling=True)
    bonus: int = rule(0, "points for passing", low=0, high=6, ruling=(1, 2))
    idle: str = rule("a", "a reading the game never reads", choices=("a", "b"), ruling=True)
    tally: str = rule("sixes", "the rolls the 'tally' counter counts (it scores nothing)", choices=("sixes", "high"),
                      ruling=True)


class DiceState:
    """Each turn a player either rolls a die (adds it) or passes; most points after `turns` turns wins."""

    def __init__(self, rules: Rules, players: int, rng: np.random.Generator):
        self.rules, self.rng = rules, rng
        self.points = [0] * players
        self.turn = 0
        self.tally = 0

    def current_player(self) -> int:
        return -1 if self.is_terminal() else self.turn % len(self.points)

    def legal_actions(self) -> list[str]:
        return ["roll", "pass"]

    def apply(self, action: str) -> None:
        if action == "roll":
            roll = int(self.rng.integers(1, 7))
            self.tally += roll == 6 or (roll == 5 and self.rules.tally == "high")
            self.points[self.current_player()] += roll
            while roll == 6 and self.rules.six_again:
                roll = int(self.rng.integers(1, 7))
                self.points[self.current_player()] += roll
        else:
            self.points[self.current_player()] += self.rules.bonus
        self.turn += 1

    def is_terminal(self) -> bool:
        return self.turn >= self.rules.turns * len(self.points)

    def scores(self) -> list[float]:
        return [float(p) for p in self.points]

    def winners(self) -> list[int]:
        best = max(self.points)
        return [i for i, p in enumerate(self.points) if p == best]

    def stats(self) -> dict[str, float]:
        return {"turns": self.turn, "tally": self.tally, **{f"points_p{i}": p for i, p in enumerate(self.points)}}

    def clone(self):
        other = copy.copy(self)
        other.points = list(self.points)
        return other

    def determinize(self, player: int, rng: np.random.Generator) -> "DiceState":
        """Nothing is hidden but the future dice: a clone with a chance generator of its own."""
        other = self.clone()
        other.rng = np.random.default_rng(int(rng.integers(2**63)))
        return other


@dataclass(frozen=True)
class DiceGame:
    rules: Rules
    num_players: int
    name: str = "dice"

    def new_state(self, rng: np.random.Generator) -> DiceState:
        return DiceState(self.rules, self.num_players, rng)


@dataclass(frozen=True)
class Roller:
    """Rolls with probability `eagerness`."""

    eagerness: float = 1.0
    name = "roller"

    def choose(self, state, rng):
        return "roll" if rng.random() < self.eagerness else "pass"


@dataclass(frozen=True)
class Cautious:
    """Rolls with probability `eagerness` while ahead or level and `behind` while behind (0.3 unless tuned);
    with the default rules rolling always is best."""

    eagerness: float = 0.3
    behind: float = 0.3
    name = "cautious"
    tunable: ClassVar[dict[str, tuple[float, float]]] = {"eagerness": (0.0, 1.0), "behind": (0.0, 1.0)}

    def choose(self, state, rng):
        me = state.current_player()
        chance = self.behind if state.points[me] < max(state.points) else self.eagerness
        return "roll" if rng.random() < chance else "pass"


@dataclass(frozen=True)
class DiceSearch(IsmctsPolicy):
    """Search with a leaf evaluation of the points so far (the leader's share grows with the lead)."""

    iterations: int = 8
    rollout_depth: int = 0

    def evaluate(self, state):
        lead = np.array(state.points, dtype=float)
        weights = np.exp((lead - lead.max()) / 4.0)
        return list(weights / weights.sum())


SPEC = GameSpec(
    name="dice", title="Dice", rules=Rules, players=(2, 3), make_game=DiceGame,
    policies={"random": RandomPolicy, "roller": Roller, "cautious": Cautious, "ismcts": DiceSearch},
    analyses={
        "game": game_analysis(("roller", "random")),
        "rate": rating_analysis(("roller", "random", "roller:eagerness=0.5"), 2),
        "explore": explore_analysis(("roller:eagerness=0.6", "random"), ("turns=1:8",)),
        "rulings": rulings_analysis(("roller", "roller:eagerness=0.5")),
        "ladder": ladder_analysis(("random", "cautious", "ismcts", "roller"), 2),
        "trace": trace_analysis("ismcts", 2),
    },
    package=__name__,
)
