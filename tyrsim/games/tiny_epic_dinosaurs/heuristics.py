"""The values hunter (and every greedy policy) gives a ranch's enclosures and a feeding plan.

The greedy policies (`policies.py`) value their fence, layout and feeding choices by these;
the forecast of the round's end (`forecast.py`) makes the same choices as hunter makes them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any


def ranch_quality(capacities: Sequence[int], counts: Sequence[int], breed_group: int, pair_value: float) -> float:
    """How many dinosaurs of a herd whose basic kinds number `counts` (most numerous first) enclosures of
    these `capacities` (largest first) could hold, kinds matched to sizes in that order; plus `pair_value`
    per breeding group they would hold and 0.1 per enclosure (a spare one is worth a little)."""
    held = [min(c, n) for c, n in zip(capacities, counts, strict=False)]
    pairs = sum(h // breed_group for h in held)
    return sum(held) + pair_value * pairs + 0.1 * len(capacities)


def enclosure_value(unplaced: int, size: int, points: int) -> float:
    """An enclosure of `size` spaces given to a kind worth `points` each with `unplaced` dinosaurs still
    without room: the points it houses, less a little for each space it leaves empty."""
    placed = min(unplaced, size)
    return placed * points - 0.05 * (size - placed)


def fed_points(fed: Iterable[tuple[str, int]], dinosaurs: Mapping[str, Any]) -> int:
    """The points of the dinosaurs a feeding plan feeds ((kind, n) pairs)."""
    return sum(dinosaurs[kind].points * n for kind, n in fed)
