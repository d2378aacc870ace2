"""Zooloretto Duell policies: greedy, a hand-written heuristic, determinized flat Monte Carlo and ISMCTS.

Every policy sees only what its player may see: the zoos, trucks, markers, coins,
the size of the draw pile and the discard pile's top card and size; the whole
discard pile only while choosing a square's donation, or always under the agreed
variant (rule `discard_pile_open`). None reads the order of the draw pile nor a
hidden card of the discard pile: the greedy and heuristic policies never look
ahead through a draw and value a square's donation not yet chosen at a fixed
worth (`square_value`), and the searches re-deal the unseen cards for every
playout or descent (`ZooState.determinize`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from tyrsim.core.engine import search
from tyrsim.core.engine.protocols import RandomPolicy
from tyrsim.games.zooloretto_duell.actions import DiscardDrawn, DisposeMinus, Draw, Steal, TakeTruck
from tyrsim.games.zooloretto_duell.evaluation import margin, score_now
from tyrsim.games.zooloretto_duell.game import DONATION, PLACE, ZooState
from tyrsim.games.zooloretto_duell.weights import HeuristicWeights


def _after(state: ZooState, action) -> ZooState:
    new = state.clone()
    new.apply(action)
    return new


@dataclass(frozen=True)
class GreedyPolicy:
    """Plays the action that most raises its own score now (markers, majorities, coins, minus points,
    symbol effects); a draw counts as no change, ties are broken at random."""

    name: ClassVar[str] = "greedy"

    def choose(self, state: ZooState, rng: np.random.Generator):
        actions = state.legal_actions()
        if len(actions) == 1:
            return actions[0]
        p = state.current_player()
        now = score_now(state, p)
        values = [now if isinstance(a, Draw) else score_now(_after(state, a), p) for a in actions]
        best = max(values)
        ties = [a for a, v in zip(actions, values, strict=True) if v == best]
        return ties[int(rng.integers(len(ties)))]


@dataclass(frozen=True)
class HeuristicPolicy(HeuristicWeights):
    """A good player's rules of thumb, valued by `evaluation.margin` (own worth minus the opponent's), with the
    named weights of `weights.HeuristicWeights`.

    Take the best truck when it gains enough; steal when that gains enough after its price; dispose of
    minus points once there are enough of them; connect a drawn card where it helps the trucks we may
    take more than the truck the opponent would take; in the expert variant, pay to discard a card that
    would help the opponent.
    """

    name: ClassVar[str] = "heuristic"

    def choose(self, state: ZooState, rng: np.random.Generator):
        actions = state.legal_actions()
        if len(actions) == 1:
            return actions[0]
        if state.phase == PLACE:
            return self._connect(state, actions)
        if state.phase == DONATION:
            p = state.current_player()
            return max(actions, key=lambda a: margin(_after(state, a), p))
        return self._turn(state, actions)

    def _gain(self, state: ZooState, p: int, action, base: float) -> float:
        after = _after(state, action)
        return margin(after, p) - base + self.square_value * (after.phase == DONATION)

    def _turn(self, state: ZooState, actions: list):
        p = state.current_player()
        base = margin(state, p)
        takes = [(self._gain(state, p, a, base), a) for a in actions if isinstance(a, TakeTruck)]
        steals = [(self._gain(state, p, a, base), a) for a in actions if isinstance(a, Steal)]
        best_take = max(takes, key=lambda t: t[0], default=None)
        best_steal = max(steals, key=lambda t: t[0], default=None)
        if best_steal and best_steal[0] >= self.steal_threshold and (not best_take or best_steal[0] > best_take[0]):
            return best_steal[1]
        dispose = next((a for a in actions if isinstance(a, DisposeMinus)), None)
        if dispose and state.minus[p] >= self.dispose_at:
            return dispose
        draw = next((a for a in actions if isinstance(a, Draw)), None)
        alone = state.taken[1 - p] is not None
        threshold = self.alone_take_threshold if alone else self.take_threshold
        if best_take and (draw is None or best_take[0] >= threshold):
            return best_take[1]
        if draw is not None:
            return draw
        return actions[0]  # nothing to draw or take: quit empty-handed

    def _truck_gain(self, state: ZooState, q: int, base: float, cards: list) -> float:
        if not cards:
            return -math.inf
        after, due = state.with_cards(q, cards)
        return margin(after, q) - base + self.square_value * due

    def _connect(self, state: ZooState, actions: list):
        p, o = state.current_player(), 1 - state.current_player()
        card = state.drawn
        players = [p] if state.taken[o] is not None else [p, o]
        bases = {q: margin(state, q) for q in players}
        now = {q: [self._truck_gain(state, q, bases[q], t) for t in state.trucks] for q in players}

        def board(q: int, truck: int | None) -> float:
            """q's best truck if the card goes on `truck` (None: it is discarded)."""
            gains = list(now[q])
            if truck is not None:
                gains[truck] = self._truck_gain(state, q, bases[q], state.trucks[truck] + [card])
            best = max(gains)
            return 0.0 if best == -math.inf else best

        def value(truck: int | None) -> float:
            mine = board(p, truck)
            return mine - self.opponent_weight * board(o, truck) if o in players else mine

        scored = [(value(a.truck), a) for a in actions if not isinstance(a, DiscardDrawn)]
        best_value, best = max(scored, key=lambda t: t[0])
        discard = next((a for a in actions if isinstance(a, DiscardDrawn)), None)
        if discard is not None:
            price = state.rules.expert_discard_cost / state.rules.coins_per_point
            if value(None) - price >= best_value + self.discard_threshold:
                return discard
        return best


def win_share(state: ZooState, p: int, scale: float) -> float:
    """Player p's value of an unfinished position on the win-share scale: 0.5 + 0.5 tanh(margin / scale)."""
    return 0.5 + 0.5 * math.tanh(margin(state, p) / scale)


ROLLOUTS = {"random": RandomPolicy, "greedy": GreedyPolicy, "heuristic": HeuristicPolicy}


@dataclass(frozen=True)
class MctsPolicy:
    """Determinized flat Monte Carlo search with UCB1 over the legal actions.

    Each playout re-shuffles the unseen draw pile (never the real order), plays the
    action, then lets `rollout` play both seats until `horizon` rounds have ended,
    counting the round of the decision (0: to the end of the game). A finished game
    scores 1 / 0.5 / 0 for a win / shared victory / loss; a cut-off scores
    0.5 + 0.5 tanh(margin / scale).
    """

    name: ClassVar[str] = "mcts"
    playouts: int = 30  # playouts per decision, shared among the legal actions
    horizon: int = 1  # rounds to finish (the current one counts) before evaluating; 0: to the end
    rollout: str = "heuristic"  # policy playing both seats in a playout: random, greedy or heuristic
    exploration: float = 0.5  # UCB1 exploration constant
    scale: float = 3.0  # margin that counts as a near-certain win at a cut-off

    def __post_init__(self) -> None:
        if self.rollout not in ROLLOUTS:
            raise ValueError(f"rollout {self.rollout!r} is not allowed; expected one of {', '.join(ROLLOUTS)}")
        if self.playouts < 1 or self.horizon < 0 or self.scale <= 0:
            raise ValueError("playouts must be >= 1, horizon >= 0 and scale > 0")

    def choose(self, state: ZooState, rng: np.random.Generator):
        actions = state.legal_actions()
        if len(actions) == 1:
            return actions[0]
        p = state.current_player()
        rollout = ROLLOUTS[self.rollout]()
        # the horizon counts from the round of the decision, before the candidate is played: a candidate that
        # ends the round must not push its own cut-off a round further than the other candidates'
        stop = state.rounds + self.horizon if self.horizon else math.inf
        k = len(actions)
        visits, totals = [0] * k, [0.0] * k
        for i in range(max(self.playouts, k)):
            if i < k:
                j = i
            else:
                log_i = math.log(i)
                j = max(range(k), key=lambda a: totals[a] / visits[a] + self.exploration * math.sqrt(log_i / visits[a]))
            world = state.determinize(p, rng)
            world.apply(actions[j])
            visits[j] += 1
            totals[j] += self._playout(world, p, rollout, stop, rng)
        return actions[max(range(k), key=lambda a: (totals[a] / visits[a], visits[a]))]

    def _playout(self, world: ZooState, p: int, rollout, stop: float, rng: np.random.Generator) -> float:
        """Play `world` on with `rollout` until it ends or reaches round `stop`; p's value of the result."""
        while not world.is_terminal() and world.rounds < stop:
            world.apply(rollout.choose(world, rng))
        if world.is_terminal():
            winners = world.winners()
            return 0.0 if p not in winners else 1.0 / len(winners)
        return win_share(world, p, self.scale)


# the heuristic draws nothing from its generator (a test checks it), so finishing a round needs no chance
_FINISHER, _NO_CHANCE = HeuristicPolicy(), np.random.default_rng(0)


@dataclass(frozen=True)
class IsmctsPolicy(search.IsmctsPolicy):
    """Information-set MCTS (`tyrsim.core.engine.search`) over both players' decisions; each descent re-shuffles the
    unseen draw pile. After the new node, `rollout` plays `rollout_depth` decisions; then, with `finish_round`,
    the heuristic plays both seats to the end of that round (a position in mid-round hides what the trucks
    on the table are worth to whoever takes them), and the position is valued 0.5 + 0.5 tanh(margin / `scale`)
    for seat 0, the rest for seat 1."""

    # the budget and exploration measured to beat the strongest other policy, `mcts`, within 20 ms a decision on
    # the compiled search (docs/performance.md, "The compiled search")
    iterations: int = 2000
    exploration: float = 0.4
    rollout: str = "heuristic"
    rollout_depth: int = 0
    scale: float = 3.0  # margin that counts as a near-certain win at a cut-off
    finish_round: bool = True  # the heuristic ends the round before the evaluation
    rollouts: ClassVar = ROLLOUTS

    def __post_init__(self) -> None:
        super().__post_init__()
        if not self.scale > 0:
            raise ValueError(f"scale must be above 0, got {self.scale}")

    def evaluate(self, state: ZooState) -> list[float]:
        if self.finish_round:
            state = state.clone()
            rounds = state.rounds
            while not state.is_terminal() and state.rounds == rounds:
                state.apply(_FINISHER.choose(state, _NO_CHANCE))
            if state.is_terminal():
                return search.terminal_values(state, 2)
        mine = win_share(state, 0, self.scale)
        return [mine, 1.0 - mine]


POLICIES = {
    "random": RandomPolicy,
    "greedy": GreedyPolicy,
    "heuristic": HeuristicPolicy,
    "mcts": MctsPolicy,
    "ismcts": IsmctsPolicy,
}
