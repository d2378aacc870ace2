"""Tyranno Ex's named weights: what the greedy valuation (greedy and its variants aggressive and builder) weighs,
each weight with greedy's default and the range `tyrsim tune` may move it in, and the weights the tuner found, which
the search plays as its guide. The object policies (`policies.py`) and their compiled forms (`compiled_policies.py`,
`compiled_search.py`) both read them here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar

from tyrsim.core.engine.weights import tuned_weights
from tyrsim.games.tyranno_ex.game import TyrannoExGame


@dataclass(frozen=True)
class GreedyWeights:
    """The greedy valuation's weights (greedy's defaults; aggressive and builder, `policies.py`, have their own)."""

    # the weights a tuner may change, with their ranges (every variant's defaults lie inside)
    tunable: ClassVar[Mapping[str, tuple[float, float]]] = {
        "attack_weight": (0.0, 1.5),
        "fight_margin": (-6.0, 8.0),
        "dice_weight": (0.0, 0.3),
        "invest_weight": (0.0, 1.0),
        "die_bonus": (0.0, 10.0),
    }
    attack_weight: float = 0.5  # how much an opponent's point counts against one's own
    fight_margin: float = 0.0  # smallest expected point gain for which a fight is picked
    dice_weight: float = 0.05  # value of one combat die, as a share of the card's worth
    invest_weight: float = 0.25  # share of a possible later change that a face-down chip is worth
    die_bonus: float = 3.0  # points an earned or raised strength die is worth


# greedy with the weights `tyrsim tune` found, the strongest policy that does not search: the search's guide, which
# ranks its candidate actions (`policies.GUIDE`; docs/performance.md, "The compiled search")
GUIDE_FILE = "bundled:greedy_tuned.toml"
TUNED_GREEDY = tuned_weights(GUIDE_FILE, TyrannoExGame.name, "greedy", GreedyWeights)
