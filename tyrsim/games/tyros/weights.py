"""Tyros's named weights: what the planner hopes for beyond the score if the game ended now, each weight with its
default and the range `tyrsim tune` may move it in, and the weights the tuner found, which the search's planner
plays. The object policies (`policies.py`) and their compiled forms (`compiled_policies.py`,
`compiled_search.py`) both read them here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar

from tyrsim.core.engine.weights import tuned_weights
from tyrsim.games.tyros.game import NAME


@dataclass(frozen=True)
class PlannerWeights:
    """The planner's weights, in points: hoped-for cities, ships in Tyros, cards by their use, the bonus."""

    # the weights a tuner may change, each with its range (`tyrsim tune`)
    tunable: ClassVar[Mapping[str, tuple[float, float]]] = {
        "city_hope": (0.0, 1.5), "tyros_ship": (0.0, 4.0), "needed_card": (0.2, 3.0), "spare_card": (0.0, 1.5),
        "bonus_hope": (0.0, 1.5),
    }
    city_hope: float = 0.6
    tyros_ship: float = 1.5
    needed_card: float = 1.0
    spare_card: float = 0.3
    bonus_hope: float = 0.5


# the planner with the weights `tyrsim tune` found, the strongest policy that does not search: the search's
# planner, its leaf evaluation and its planner rollouts (`policies.PLANNER`; docs/performance.md, "The compiled
# search")
SEARCH_FILE = "bundled:planner_tuned.toml"
TUNED_PLANNER = tuned_weights(SEARCH_FILE, NAME, "planner", PlannerWeights)
