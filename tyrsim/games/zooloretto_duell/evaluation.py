"""How good a Zooloretto Duell position is for a player, from what both players can see.

A player's worth is the final score if the game ended now (coins counted
fractionally) plus the interim scorings still open, each weighted by a rough
chance of winning its race. `margin` is one player's worth minus the other's:
what the heuristic and the search's cut-off evaluation maximise.
"""

from __future__ import annotations

from tyrsim.games.zooloretto_duell.cards import COLOURS
from tyrsim.games.zooloretto_duell.game import ZooState


def score_now(state: ZooState, p: int) -> float:
    """Player p's final score if the game ended now, coins counted fractionally."""
    parts = state.score_parts(p)
    return (
        parts["marker_points"]
        + parts["majority_points"]
        + state.coins[p] / state.rules.coins_per_point
        - parts["minus_points"]
    )


def marker_prospect(state: ZooState) -> float:
    """Mean worth of the scoring markers still in the stockpile (a coin counted at its share of a point)."""
    coin = 1.0 / state.rules.coins_per_point
    values = [m.points + coin * m.coin for m in state.markers if not m.final_round]
    return sum(values) / len(values) if values else 0.0


def race_edge(lead: int, needed: int) -> float:
    """Rough edge in a race for a marker, from -1 (sure loss) to 1 (sure win): ahead by `lead` with
    `needed` more cards until it is decided. The chance to win it is (1 + edge) / 2."""
    return max(-1.0, min(1.0, lead / (needed + 1)))


def margin(state: ZooState, p: int) -> float:
    """Player p's worth minus the opponent's, where a player's worth is the score if the game ended
    now (coins counted fractionally) plus each open interim scoring's marker times the chance to win it."""
    o = 1 - p
    prospect = marker_prospect(state)
    value = score_now(state, p) - score_now(state, o)
    mine, theirs, scored, targets = state.pens[p], state.pens[o], state.scored, state.targets
    for s in range(len(mine)):
        if not scored[s]:
            a, b = len(mine[s]), len(theirs[s])
            # the marker goes to one of the two: p's chance minus o's chance is the race edge
            value += prospect * race_edge(a - b, max(0, targets[s] - a - b))
    if not state.vending_scored:
        a, b = len({c.colour for c in state.stands[p]}), len({c.colour for c in state.stands[o]})
        value += prospect * race_edge(a - b, len(COLOURS) - max(a, b))
    return value
