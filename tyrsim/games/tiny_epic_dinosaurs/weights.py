"""Tiny Epic Dinosaurs' named weights: what the greedy policies (greedy and its archetypes hunter, breeder and
contractor) value, each weight with greedy's default and the range `tyrsim tune` may move it in, and the weights
the tuner found for hunter, which the search plays as its guide. The object policies (`policies.py`) and their
compiled forms (`compiled.py`, `compiled_policies.py`, `compiled_search.py`) both read them here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar

from tyrsim.core.engine.weights import tuned_weights
from tyrsim.games.tiny_epic_dinosaurs.game import TinyEpicDinosaursGame


@dataclass(frozen=True)
class GreedyWeights:
    """The greedy policies' weights: how much each part of an action's immediate value counts (greedy's
    defaults; each archetype, a `policies.GreedyPolicy`, has its own)."""

    # the weights `tyrsim tune` may change and their ranges; each range holds the defaults of greedy and
    # of every archetype
    tunable: ClassVar[Mapping[str, tuple[float, float]]] = {
        "dinosaur_weight": (0.5, 3.0),
        "food_cost": (0.0, 1.5),
        "hunt_weight": (0.5, 3.0),
        "breed_bonus": (0.0, 3.0),
        "contract_weight": (0.5, 3.0),
        "contract_match": (0.0, 2.0),
        "research_weight": (0.2, 2.0),
        "draw_value": (0.0, 5.0),
        "fence_weight": (0.2, 3.0),
        "resource_weight": (0.1, 1.5),
        "first_player_value": (0.0, 2.0),
        "owner_cost": (0.0, 2.0),
        "rancher_cost": (0.0, 1.0),
    }
    dinosaur_weight: float = 1.0  # value per point a new dinosaur would score
    food_cost: float = 0.4  # value lost per unit of food a dinosaur eats each round
    hunt_weight: float = 1.0  # multiplies the value of a hunt
    breed_bonus: float = 0.0  # extra value of a dinosaur of a kind already on the ranch (it pairs)
    contract_weight: float = 1.0  # multiplies a contract's points
    contract_match: float = 0.0  # extra value of a dinosaur a visible contract asks for
    research_weight: float = 1.0  # multiplies a research card's value
    draw_value: float = 2.0  # value of three cards from the deck, unseen
    fence_weight: float = 1.0  # multiplies the value of a fence
    resource_weight: float = 0.4  # value of one resource
    first_player_value: float = 0.5
    owner_cost: float = 0.6  # value of keeping the ranch owner home
    rancher_cost: float = 0.3  # value of each rancher sent


# hunter with the weights `tyrsim tune` found, the strongest policy that does not search: the search's guide
# (`policies.GUIDE`; docs/performance.md, "The compiled search"; docs/tiny_epic_dinosaurs.md, "Search")
GUIDE_FILE = "bundled:hunter_tuned.toml"
TUNED_HUNTER = tuned_weights(GUIDE_FILE, TinyEpicDinosaursGame.name, "hunter", GreedyWeights)
