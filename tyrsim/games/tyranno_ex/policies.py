"""Tyranno Ex policies: random, greedy, its aggressive and builder variants, and ismcts (search).

The greedy family looks only at what its player can see (`state.view`): the
board, the current conditions, how many chips lie face down on each space (not
their symbols), the face-up cards and its own chips. It values the board in
points: a card is worth the points it can still score (the rows above it and
the special spaces), counted while it survives, plus a little per combat die;
opponents' cards count against it with `attack_weight`.

- Placement: the face-up card that survives the current conditions with the
  most dice (and fits the chips in hand).
- Environment: each chip setting is valued by the conditions it is likely to
  bring: a change the player's chips alone decide is certain; where unknown
  face-down chips lie, the player's symbol wins with the share of chips it
  holds, otherwise the conditions are taken as unchanged. Chips that do not yet
  force a change are an investment worth `invest_weight` of their possible gain.
  Passes when nothing gains; trades symbols none of its cards show (rounds 1-3).
- "5" marker: used when its best extra setting is worth more than the marker's
  end-of-game points (at the end of placement, or on its own turn before the
  turn's action, by the `five_timing` ruling).
- Combat: the challenge with the best expected point swing, by the exact
  combat odds, if it beats `fight_margin`.

`ismcts` is the core information-set search (`tyrsim.core.engine.search`) over the
greedy valuation's best few actions at each decision, its leaves valued by
each player's `standing` (points so far and what the board promises).
"""

from __future__ import annotations

import dataclasses
import functools
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from tyrsim.core.engine import search
from tyrsim.core.engine.protocols import Policy, RandomPolicy
from tyrsim.games.tyranno_ex.actions import (
    KEEP_FIVE,
    NO_FIGHT,
    PASS,
    Challenge,
    ChooseSymbol,
    NoFight,
    PlaceCard,
    SetChips,
    Trade,
    UseFive,
)
from tyrsim.games.tyranno_ex.combat import strength
from tyrsim.games.tyranno_ex.environment import NUM_SYMBOLS
from tyrsim.games.tyranno_ex.game import PlayerView, TyrannoExState
from tyrsim.games.tyranno_ex.heuristics import chance_table, future_points, next_score
from tyrsim.games.tyranno_ex.rules import Rules
from tyrsim.games.tyranno_ex.weights import TUNED_GREEDY, GreedyWeights


@dataclass(frozen=True)
class GreedyPolicy(GreedyWeights):
    """Values chip settings, cards and fights in points by the visible board, with the named weights of
    `weights.GreedyWeights`."""

    name: str = "greedy"

    def choose(self, state: TyrannoExState, rng: np.random.Generator):
        view = state.view(state.current_player())
        actions = state.legal_actions()
        first = actions[0]
        if isinstance(first, PlaceCard):
            return self._place(view, actions)
        if isinstance(first, NoFight):
            return self._challenge(view, actions)
        if isinstance(first, ChooseSymbol):
            return self._tie(view, actions)
        return self._setting(view, actions)

    # --- values -----------------------------------------------------------------------

    def _cards(self, view: PlayerView) -> list[tuple[tuple[int, ...], float]]:
        """(symbols, weight) of every card on the board; opponents' weights are negative."""
        rules = view.rules
        out = []
        for spot, bc in enumerate(view.spots):
            if bc is None:
                continue
            worth = 1.0 + future_points(spot, rules)
            weight = worth if bc.owner == view.player else -self.attack_weight * worth
            out.append((bc.card.symbols, weight))
        return out

    def _board_value(
        self, cards: list[tuple[tuple[int, ...], float]], chips: list[int], before: list[int] | None = None,
        die_gain: bool = False,
    ) -> float:
        """The board's worth under current chips `chips` (per symbol).

        With `die_gain`, an own card whose symbols the change from `before` to
        `chips` completes is worth `die_bonus` more (a new or raised strength die).
        """
        total = 0.0
        dw = self.dice_weight
        for (a, b, c), weight in cards:  # every card shows 3 symbols
            ca, cb, cc = chips[a], chips[b], chips[c]
            if ca or cb or cc:  # the card survives
                dice = ca + cb + cc
                total += weight * (1.0 + dw * (dice if dice < 10 else 10))
                if die_gain and weight > 0 and ca and cb and cc and not (before[a] and before[b] and before[c]):
                    total += self.die_bonus
        return total

    # --- decisions ----------------------------------------------------------------------

    def _place(self, view: PlayerView, actions: list[PlaceCard]) -> PlaceCard:
        chips = view.current_chips()
        hand = view.hand

        def worth(action: PlaceCard) -> float:
            card = action.card
            dice = sum(chips[s] for s in card.symbols)
            fits = sum(hand[s] for s in set(card.symbols))
            return (1.0 if dice else 0.3) + self.dice_weight * dice + 0.02 * fits + 0.01 * action.row

        return max(actions, key=worth)

    def _tie(self, view: PlayerView, actions: list[ChooseSymbol]) -> ChooseSymbol:
        cards = self._cards(view)
        space = actions[0].space
        symbol, count = view.env_current[space]
        revealed = view.revealed(space)
        chips = view.current_chips()
        best, best_value = actions[0], -np.inf
        for action in actions:
            after = list(chips)
            after[symbol] -= count
            after[action.symbol] += revealed[action.symbol]
            value = self._board_value(cards, after)
            if value > best_value:
                best, best_value = action, value
        return best

    def _setting(self, view: PlayerView, actions: list):
        """The "5" marker setting worth most if it is worth more than the marker's points, else the chip
        setting worth most if it gains anything, else keep the marker, trade or pass.

        A "5" marker setting comes first: on the player's own turn (`five_timing = "own_turn"`) the turn's
        own action still follows it, so the marker is used on the same terms as at the end of placement.
        """
        bars = {SetChips: 0.0, UseFive: float(view.rules.five_points)}  # what a setting must be worth
        best = {SetChips: (None, bars[SetChips]), UseFive: (None, bars[UseFive])}
        for action, value in self.setting_values(view, actions):
            kind = type(action)
            if value > best[kind][1] + 1e-9:
                best[kind] = (action, value)
        for kind in (UseFive, SetChips):
            if best[kind][0] is not None:
                return best[kind][0]
        if KEEP_FIVE in actions:
            return KEEP_FIVE
        return self.trade(view, actions)

    def setting_values(self, view: PlayerView, actions: list) -> list[tuple[SetChips | UseFive, float]]:
        """(setting, expected gain in points) of every chip setting (SetChips or UseFive) among `actions`."""
        cards = self._cards(view)
        chips = view.current_chips()
        die_gain = view.strength_dice_open()
        now = self._board_value(cards, chips)
        current = view.env_current
        hidden_chips = [view.potential_count(space) for space in range(len(current))]
        cache: dict[tuple[int, tuple[int, ...]], float] = {}
        values: dict[tuple[int, ...], float] = {}  # board value by current chips per symbol

        def space_gain(space: int, laid: tuple[int, ...]) -> float:
            """Expected gain of laying chips `laid` (symbols) on one space."""
            key = (space, laid)
            if key in cache:
                return cache[key]
            symbol, count = current[space]
            hidden = hidden_chips[space]
            gain = 0.0
            for s in set(laid):
                mine = laid.count(s)
                after = list(chips)
                after[symbol] -= count
                after[s] += mine
                after_key = tuple(after)
                if after_key not in values:
                    values[after_key] = self._board_value(cards, after, chips, die_gain)
                change = values[after_key] - now
                if hidden + len(laid) > count:  # the space changes now
                    share = mine / (mine + hidden) if hidden else mine / len(laid)
                else:  # the chips wait face down for a later change
                    share = self.invest_weight * mine / (count + 1)
                gain += share * change
            cache[key] = gain
            return gain

        out = []
        for action in actions:
            kind = type(action)
            if kind is not SetChips and kind is not UseFive:
                continue
            value = 0.0
            for key in action.by_space:
                gain = cache.get(key)
                value += space_gain(*key) if gain is None else gain
            out.append((action, value))
        return out

    def trade(self, view: PlayerView, actions: list):
        """Trade away up to the limit of chips whose symbol none of the player's cards shows, else pass (the
        search's guide offers this trade among its candidates)."""
        wanted = 0
        for bc in view.spots:
            if bc is not None and bc.owner == view.player:
                wanted |= bc.card.mask
        useless = []
        for s in range(NUM_SYMBOLS):
            if not wanted >> s & 1:
                useless.extend([s] * view.hand[s])
        trades = {a.returned: a for a in actions if isinstance(a, Trade)}
        for k in range(min(len(useless), view.rules.trade_limit), 0, -1):
            key = tuple(sorted(useless[:k]))
            if key in trades:
                return trades[key]
        return PASS

    def _challenge(self, view: PlayerView, actions: list):
        best, best_value = NO_FIGHT, self.fight_margin
        for action, value in self.challenge_values(view, actions):
            if value > best_value:
                best, best_value = action, value
        return best

    def challenge_values(self, view: PlayerView, actions: list) -> list[tuple[Challenge, float]]:
        """(challenge, expected point swing) of every challenge among `actions`, by the exact combat odds."""
        rules = view.rules
        chips = view.current_chips()
        spots = view.spots
        table = chance_table(rules)
        out = []
        for action in actions:
            if not isinstance(action, Challenge):
                continue
            a, d = spots[action.attacker], spots[action.defender]
            a_clean, a_close, d_close, d_clean = table[
                strength(a.die), view.dice(a.card, chips), strength(d.die), view.dice(d.card, chips)
            ]
            a_worth = 1.0 + future_points(action.attacker, rules)
            d_worth = 1.0 + future_points(action.defender, rules)
            a_now, d_now = next_score(action.attacker, rules), next_score(action.defender, rules)
            value = (
                self.attack_weight * (a_clean * d_worth + a_close * d_now)
                - d_clean * a_worth
                - d_close * a_now
            )
            out.append((action, float(value)))
        return out


@dataclass(frozen=True)
class AggressivePolicy(GreedyPolicy):
    """Greedy that fights first: opponents' points count fully and it fights even at slight expected loss."""

    attack_weight: float = 1.0
    fight_margin: float = -2.0
    name: str = "aggressive"


@dataclass(frozen=True)
class BuilderPolicy(GreedyPolicy):
    """Greedy that protects first: opponents matter little and it fights only at a clear expected gain."""

    attack_weight: float = 0.2
    fight_margin: float = 3.0
    name: str = "builder"




def standing(state: TyrannoExState, player: int, rules: Rules) -> float:
    """A player's points so far plus what its position is likely to bring, in points (for the leaf evaluation).

    A card on the board counts the points of its next scoring and half those it may score after, if one
    of its symbols is among the current conditions (else a third of that: the conditions may still turn),
    plus a point per pip of its strength die; an unused "5" marker counts its end-of-game points.
    """
    present = state.env.present()
    value = float(sum(state.points[k][player] for k in state.points))
    for spot, bc in enumerate(state.spots):
        if bc is None or bc.owner != player:
            continue
        now = next_score(spot, rules)
        worth = now + 0.5 * (future_points(spot, rules) - now)
        if not bc.card.mask & present:
            worth /= 3
        value += worth + (bc.die or 0)
    if state.five[player]:
        value += rules.five_points
    return value


class _Candidates:
    """A determinization as the search sees it: the same game, with only the policy's candidate actions legal,
    ranked afresh at every decision in the position the determinization reached (the guide reads only what the
    player to move sees there, so every determinization has the searched decision's own candidates)."""

    __slots__ = ("state", "policy")

    def __init__(self, state: TyrannoExState, policy: IsmctsPolicy) -> None:
        self.state = state
        self.policy = policy

    def current_player(self) -> int:
        return self.state.current_player()

    def legal_actions(self) -> list:
        return self.policy.candidates(self.state)

    def apply(self, action) -> None:
        self.state.apply(action)

    def is_terminal(self) -> bool:
        return self.state.terminal

    def winners(self) -> list[int]:
        return self.state.winners()

    def scores(self) -> list[float]:
        return self.state.scores()

    def determinize(self, player: int, rng: np.random.Generator) -> _Candidates:
        return _Candidates(self.state.determinize(player, rng), self.policy)


@dataclass(frozen=True)
class _OnGame:
    """A rollout policy that plays the determinization itself, every legal action open, not the candidates."""

    policy: Policy

    def choose(self, state: _Candidates, rng: np.random.Generator):
        return self.policy.choose(state.state, rng)


# the search's guide, which ranks the candidate actions: greedy with the weights `tyrsim tune` found (a ruling, as
# Tyros's planner)
GUIDE = GreedyPolicy(**dataclasses.asdict(TUNED_GREEDY))


@dataclass(frozen=True)
class IsmctsPolicy(search.IsmctsPolicy):
    """Information-set MCTS over the guide's best few actions at each decision, valued by `standing`."""

    iterations: int = 1000  # compiled, a median 9.0 ms a decision; the strength runs in docs/tyranno_ex.md
    rollout: str = "random"
    rollout_depth: int = 0
    width: int = 6  # actions the search considers at a decision: the guide's best, passing and not fighting
    temperature: float = 10.0  # the leaf evaluation's softmax scale: a lead of this many points is e times the share
    rollouts: ClassVar[Mapping[str, Callable[[], Policy]]] = {
        name: functools.partial(_OnGame, policy()) for name, policy in
        (("random", RandomPolicy), ("greedy", GreedyPolicy), ("builder", BuilderPolicy))
    }  # fmt: skip

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.width < 2:
            raise ValueError(f"width must be at least 2 (passing and one more action), got {self.width}")
        if not self.temperature > 0:
            raise ValueError(f"temperature must be above 0, got {self.temperature}")

    def search(self, state: TyrannoExState, rng: np.random.Generator) -> search.Node:
        return super().search(_Candidates(state, self), rng)

    def evaluate(self, state) -> list[float]:
        game = state.state if isinstance(state, _Candidates) else state
        values = [standing(game, p, game.rules) for p in range(game.num_players)]
        top = max(values)
        weights = [math.exp((v - top) / self.temperature) for v in values]
        total = sum(weights)
        return [w / total for w in weights]

    def candidates(self, state: TyrannoExState) -> list:
        """The actions the search weighs, in the order the game lists them: all of them when few, else the
        guide's `width` best by its values (ties to the first listed) with passing, not fighting or keeping
        the "5" marker, and the guide's trade."""
        actions = state.legal_actions()
        width = self.width
        if len(actions) <= width:
            return actions
        first = actions[0]
        view = state.view(state.current_player())
        if first is NO_FIGHT:
            ranked = GUIDE.challenge_values(view, actions)
            kept = [NO_FIGHT]
        elif first is PASS or first is KEEP_FIVE:
            ranked = GUIDE.setting_values(view, actions)
            kept = [first]
            if first is PASS and width > 2:
                trade = GUIDE.trade(view, actions)
                if trade is not PASS:
                    kept.append(trade)
        else:
            return actions
        ranked.sort(key=lambda pair: -pair[1])
        kept += [action for action, _ in ranked[: width - len(kept)]]
        chosen = set(kept)
        return [action for action in actions if action in chosen]


POLICIES = {
    "random": RandomPolicy,
    "greedy": GreedyPolicy,
    "aggressive": AggressivePolicy,
    "builder": BuilderPolicy,
    "ismcts": IsmctsPolicy,
}
