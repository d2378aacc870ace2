"""Zooloretto Duell's named weights: the heuristic's rules of thumb as numbers, each with its default and the range
`tyrsim tune` may move it in. The object policy (`policies.HeuristicPolicy`) and its compiled form
(`compiled_policies.py`, and the search's evaluation and rollouts in `compiled_search.py`) both read them here.
The weights the tuner found ship as `data/heuristic_tuned.toml` (`heuristic:weights=bundled:heuristic_tuned.toml`);
no code of the game plays them unasked.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar


@dataclass(frozen=True)
class HeuristicWeights:
    """The heuristic's thresholds and worths, in points of margin (`evaluation.margin`)."""

    # the weights a tuner may change, with their ranges; dispose_at counts minus points, a whole number left out
    tunable: ClassVar[Mapping[str, tuple[float, float]]] = {
        "take_threshold": (0.0, 4.0),
        "alone_take_threshold": (0.0, 5.0),
        "steal_threshold": (0.0, 3.0),
        "opponent_weight": (0.0, 2.0),
        "discard_threshold": (0.0, 2.0),
        "square_value": (0.0, 2.0),
    }
    take_threshold: float = 1.5  # take a truck when it raises the margin by at least this
    alone_take_threshold: float = 2.5  # the same once the opponent has quit (more cards are coming to us)
    steal_threshold: float = 1.0  # steal when it raises the margin by at least this, price included
    dispose_at: int = 3  # dispose of minus points once holding at least this many
    opponent_weight: float = 1.0  # connecting a card: weight of the opponent's best truck against ours
    discard_threshold: float = 0.5  # expert: discard when the trucks are better by this without the card
    square_value: float = 0.7  # worth of a square's donation not yet chosen
