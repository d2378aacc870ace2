"""The Dice game's policies and the `POLICIES` table the SPEC offers: a roller, a cautious player with tunable
weights, and the shared search with the game's leaf evaluation. Every player's points are public: a policy may
read them all."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from toy_game.actions import PASS, ROLL, Action
from toy_game.game import DiceState
from tyrsim.core.engine.protocols import RandomPolicy
from tyrsim.core.engine.search import IsmctsPolicy


@dataclass(frozen=True)
class Roller:
    """Rolls with probability `eagerness`."""

    eagerness: float = 1.0
    name: ClassVar[str] = "roller"

    def choose(self, state: DiceState, rng: np.random.Generator) -> Action:
        return ROLL if rng.random() < self.eagerness else PASS


@dataclass(frozen=True)
class Cautious:
    """Rolls with probability `eagerness` while ahead or level and `behind` while behind (0.3 unless tuned);
    with the default rules rolling always is best."""

    eagerness: float = 0.3
    behind: float = 0.3
    name: ClassVar[str] = "cautious"
    # the weights `tyrsim tune` may change, with their ranges
    tunable: ClassVar[dict[str, tuple[float, float]]] = {"eagerness": (0.0, 1.0), "behind": (0.0, 1.0)}

    def choose(self, state: DiceState, rng: np.random.Generator) -> Action:
        me = state.current_player()
        chance = self.behind if state.points[me] < max(state.points) else self.eagerness
        return ROLL if rng.random() < chance else PASS


@dataclass(frozen=True)
class DiceSearch(IsmctsPolicy):
    """Search with a leaf evaluation of the points so far (the leader's share grows with the lead)."""

    iterations: int = 8
    rollout_depth: int = 0

    def evaluate(self, state: DiceState) -> list[float]:
        lead = np.array(state.points, dtype=float)
        weights = np.exp((lead - lead.max()) / 4.0)
        return list(weights / weights.sum())


POLICIES = {"random": RandomPolicy, "roller": Roller, "cautious": Cautious, "ismcts": DiceSearch}
