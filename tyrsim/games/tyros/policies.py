"""Tyros policies: greedy (best immediate score change) and a planner.

Both read only what their player may see (`state.view(player)`): the board,
the piles' sizes, the discard pile and their own hand. They evaluate an
action on a `Position`, a light copy of the public board changed by that
action, scored with the rulebook's scoring procedure as if the game ended now.
The search (`IsmctsPolicy`) weighs the planner's choices. `POLICIES` is the table of
every policy by its name on the command line (random, greedy, planner, ismcts).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import ClassVar

import numpy as np

from tyrsim.core.engine import search
from tyrsim.core.engine.protocols import Policy, RandomPolicy
from tyrsim.games.tyros.actions import (
    Accept,
    BankBuy,
    BankSwap,
    Blocked,
    BuildCity,
    BuildShip,
    MoveShip,
    Offer,
    Pass,
    PlayTile,
    Refuse,
    TradeWith,
)
from tyrsim.games.tyros.board import TYROS
from tyrsim.games.tyros.components import CARD_KINDS, WILD, Cards, colour_payment, full_deck
from tyrsim.games.tyros.game import ACTIONS, EXPAND, KEEP, OFFER, PARTNER, TyrosState, place_chip
from tyrsim.games.tyros.scoring import empire_sizes, score_game, size_ranks
from tyrsim.games.tyros.weights import TUNED_PLANNER, PlannerWeights


@dataclass
class Position:
    """The public board plus one player's hand, as an action would leave them."""

    chips: list[int]
    cities: list[int]
    ships: list[list[int]]  # space of each ship, per player
    all_empires_first: int
    first_cities: list[int]
    hand: list[int]
    city_colours: set[int] = field(default_factory=set)

    @classmethod
    def of(cls, state: TyrosState, player: int) -> Position:
        view = state.view(player)
        return cls(list(view.chips), list(view.cities), [list(s) for s in view.ship_spaces],
                   view.all_empires_first, list(view.first_cities), list(view.hand), set(view.city_colours))

    def copy(self) -> Position:
        return Position(list(self.chips), list(self.cities), [list(s) for s in self.ships], self.all_empires_first,
                        list(self.first_cities), list(self.hand), set(self.city_colours))

    def score(self, state: TyrosState, player: int) -> int:
        scores = score_game(state.rules, state.n, self.chips, self.cities, self.ships, self.all_empires_first,
                            self.first_cities)
        return scores[player].total

    def ranks(self, state: TyrosState) -> list[int]:
        return size_ranks(empire_sizes(self.chips, state.rules))

    def ship_controller(self, space: int) -> int:
        """The player whose ships score `space` at the end (scoring steps 1 and 2: the only player
        with ships there, where no city stands), or -1."""
        if self.cities[space] >= 0:
            return -1
        owners = [p for p, ships in enumerate(self.ships) if space in ships]
        return owners[0] if len(owners) == 1 else -1


def moved_score(state: TyrosState, player: int, move: MoveShip, now: Position, moved: Position, score_now: int,
                ranks: list[int]) -> int:
    """`moved.score(state, player)` for `moved` = `now` after the ship `move`, from the score before it.

    A move changes no chip, city or bonus, so the empires keep their ranks and only the ship
    control of the space it leaves and the space it enters can change: those two are scored
    again instead of the whole board (the planner and greedy weigh every move this way; a test
    checks it against the full scoring).
    """
    coasts, ids = state.board.coasts, state.game.coast_ids
    change = 0
    for space in {coasts[ids[move.start]].space, coasts[ids[move.end]].space}:
        colour = now.chips[space]
        if colour >= 0:
            held = (moved.ship_controller(space) == player) - (now.ship_controller(space) == player)
            change += held * state.rules.ship_points[ranks[colour]]
    return score_now + change


def after(state: TyrosState, player: int, action, now: Position) -> Position:
    """The position `now` after `action` (chance-free actions; trades leave the board as it is)."""
    pos = now.copy()
    board, kind = state.board, type(action)
    if kind is PlayTile:
        place_chip(board, state.rules, pos.chips, action.space, action.empire)
    elif kind is MoveShip:
        start = board.coasts[state.game.coast_ids[action.start]].space
        end_coast = state.game.coast_ids[action.end]
        end = board.coasts[end_coast].space
        pos.ships[player].remove(start)
        pos.ships[player].append(end)
        cost = colour_payment(pos.hand, pos.chips[end], state.distances(state.game.coast_ids[action.start])[end_coast])
        spend(pos.hand, cost)
        if action.toll is not None:
            pos.hand[action.toll] -= 1  # the toll the player chose

    elif kind is BuildCity:
        ships_there = pos.ships[player].count(action.space)
        cost = state.rules.city_cost_two_ships if ships_there >= 2 else state.rules.city_cost
        spend(pos.hand, colour_payment(pos.hand, pos.chips[action.space], cost))
        pos.cities[action.space] = player
        pos.ships[player].remove(action.space)
        pos.city_colours.add(pos.chips[action.space])
        if len(pos.city_colours) == 4 and pos.all_empires_first < 0:
            pos.all_empires_first = player
        if pos.first_cities[pos.chips[action.space]] < 0:
            pos.first_cities[pos.chips[action.space]] = player
    elif kind is BuildShip:
        spend(pos.hand, state.ship_payment(pos.hand, action))
        pos.ships[player].append(action.space)
    elif kind in (BankSwap, BankBuy):
        spend(pos.hand, action.give)
        if kind is BankBuy:
            pos.hand[action.take] += 1
    return pos


def spend(hand: list[int], cards) -> None:
    for k in cards:
        hand[k] -= 1


def chosen_cards(action) -> tuple[object, Cards]:
    """A board action without the cards of the player's free choice (a toll, a ship's cards of any
    colour), and those cards. Actions that differ only in them change the board alike: the policies
    look at the board once for all of them (a test checks the values against each action's own)."""
    kind = type(action)
    if kind is MoveShip and action.toll is not None:
        return MoveShip(action.start, action.end), (action.toll,)
    if kind is BuildShip and action.extra:
        return BuildShip(action.space), action.extra
    return action, ()


def trade_partner(state: TyrosState, rng: np.random.Generator) -> TradeWith:
    """Of the players who accepted an offer, the one with the lowest score if the game ended now (public),
    so the cards given help the player least placed to win; equal scores at random."""
    pos = Position.of(state, state.current_player())
    scores = score_game(state.rules, state.n, pos.chips, pos.cities, pos.ships, pos.all_empires_first,
                        pos.first_cities)
    return best([(-scores[p].total, TradeWith(p)) for p in state.offer.accepted], rng)


def best(scored: list[tuple[float, object]], rng: np.random.Generator):
    """The action with the highest value; equal values are chosen at random."""
    top = max(value for value, _ in scored)
    options = [action for value, action in scored if value >= top - 1e-9]
    return options[int(rng.integers(len(options)))]


BOARD_ACTIONS = (PlayTile, MoveShip, BuildCity, BuildShip)


@dataclass(frozen=True)
class TilePolicy:
    """Plays tiles by one of the expansion kernel's rules ("random", "largest", "smallest") and passes otherwise.

    The full engine with this policy is the reference the vectorized kernel is tested and timed against.
    """

    name: ClassVar[str] = "tiles"
    rule: str = "random"

    def choose(self, state: TyrosState, rng: np.random.Generator):
        actions = state.legal_actions()
        plays = [a for a in actions if isinstance(a, PlayTile)]
        if not plays or self.rule == "random":
            if state.phase == ACTIONS:
                return Pass()
            return actions[int(rng.integers(len(actions)))]
        sizes = state.empire_sizes()
        sign = -1 if self.rule == "largest" else 1
        target = min({a.empire for a in plays}, key=lambda e: (sign * sizes[e], e))
        plays = [a for a in plays if a.empire == target]
        return plays[int(rng.integers(len(plays)))]


@dataclass(frozen=True)
class GreedyPolicy:
    """Takes the action with the best immediate change of its own score as if the game ended now.

    Trades change no score, so greedy never starts one; it accepts an offer that
    gives it more cards than it gives away, and keeps its most plentiful colours.
    Actions that differ only in cards of free choice score alike, and one is taken at random.
    """

    name: ClassVar[str] = "greedy"

    def choose(self, state: TyrosState, rng: np.random.Generator):
        actions = state.legal_actions()
        player = state.current_player()
        if state.phase == OFFER:
            offer = state.offer
            return Accept() if Accept() in actions and len(offer.give) > len(offer.get) else Refuse()
        if state.phase == PARTNER:
            return trade_partner(state, rng)
        if state.phase == KEEP:
            hand = state.view(player).hand
            return max(actions, key=lambda a: sum(hand[k] for k in a.cards))
        if state.phase == EXPAND and isinstance(actions[0], Blocked):
            return actions[int(rng.integers(len(actions)))]
        position = Position.of(state, player)
        now = position.score(state, player)
        ranks = position.ranks(state)

        board_scores: dict = {}

        def score(action) -> int:
            # the score does not depend on the hand: cards of free choice change nothing
            action = chosen_cards(action)[0]
            if action not in board_scores:
                moved = after(state, player, action, position)
                board_scores[action] = (moved_score(state, player, action, position, moved, now, ranks)
                                        if type(action) is MoveShip else moved.score(state, player))
            return board_scores[action]

        scored = [(score(a) - now, a) for a in actions if isinstance(a, BOARD_ACTIONS)]
        if state.phase == ACTIONS:
            scored.append((0.0, Pass()))
            scored = [(v, a) for v, a in scored if v > 0 or isinstance(a, Pass)]
        return best(scored, rng)


@dataclass(frozen=True)
class PlannerPolicy(PlannerWeights):
    """Plans for cities in large empires, lone ships, the all-four-empires bonus and useful cards.

    It values a position as its score if the game ended now, plus a share
    (`city_hope`) of the gain a city would bring on each of its lone ships, a
    value per ship still in Tyros, progress towards the all-four-empires bonus,
    and its cards: a card matching a colour it needs is worth `needed_card`, any
    other `spare_card` (a wild counts as needed). Bank trades and offers are
    valued with the card values (a drawn card at the average of the full deck,
    since what is left in the draw pile is hidden). Where several players accept
    its offer it trades with the one placed worst.
    """

    name: ClassVar[str] = "planner"

    def needs(self, pos: Position, player: int) -> set[int]:
        """Colours of the spaces where it has a ship and could build a city."""
        return {pos.chips[s] for s in pos.ships[player] if pos.chips[s] >= 0 and pos.cities[s] < 0}

    def card_value(self, needs: set[int], kind: int) -> float:
        return self.needed_card if kind == WILD or kind in needs else self.spare_card

    def value(self, state: TyrosState, pos: Position, player: int) -> float:
        return pos.score(state, player) + self.prospects(state, pos, player, pos.ranks(state))

    def prospects(self, state: TyrosState, pos: Position, player: int, ranks: list[int]) -> float:
        """The value beyond the score: hoped-for cities, ships in Tyros, bonus progress and cards."""
        rules = state.rules
        total = 0.0
        others = {s for p, ships in enumerate(pos.ships) if p != player for s in ships}
        for s in set(pos.ships[player]):
            colour = pos.chips[s]
            if s == TYROS and (colour < 0 or pos.cities[TYROS] >= 0):
                total += self.tyros_ship * pos.ships[player].count(s)
            elif colour >= 0 and pos.cities[s] < 0 and s not in others:
                total += self.city_hope * (rules.city_points[ranks[colour]] - rules.ship_points[ranks[colour]])
        if rules.first_city_bonus == "all-four" and pos.all_empires_first < 0:
            # progress towards the bonus; with 'each-empire' a first city's bonus is in the score at once
            total += self.bonus_hope * rules.all_empires_bonus * len(pos.city_colours) / 4
        needs = self.needs(pos, player)
        total += sum(pos.hand[k] * self.card_value(needs, k) for k in range(CARD_KINDS))
        return total

    def values(self, state: TyrosState) -> list[float]:
        """Every player's `value` of `state`, each with their own hand: a search's leaf evaluation.

        It reads every hand, so it is for determinizations (whose hidden hands are sampled), not real states.
        """
        pos = Position.of(state, 0)
        scores = score_game(state.rules, state.n, pos.chips, pos.cities, pos.ships, pos.all_empires_first,
                            pos.first_cities)
        ranks = pos.ranks(state)
        out = []
        for player in range(state.n):
            pos.hand, pos.city_colours = state.hands[player], state.city_colours[player]
            out.append(scores[player].total + self.prospects(state, pos, player, ranks))
        return out

    def draw_value(self, state: TyrosState, needs: set[int]) -> float:
        deck = full_deck(state.rules.cards_per_colour, state.rules.wild_cards)  # not the hidden draw pile
        return sum(n * self.card_value(needs, k) for k, n in enumerate(deck)) / sum(deck)

    def choose(self, state: TyrosState, rng: np.random.Generator):
        actions = state.legal_actions()
        player = state.current_player()
        pos = Position.of(state, player)
        needs = self.needs(pos, player)
        if state.phase == OFFER:
            offer = state.offer
            gain = (sum(self.card_value(needs, k) for k in offer.give)
                    - sum(self.card_value(needs, k) for k in offer.get))
            return Accept() if Accept() in actions and gain > 0 else Refuse()
        if state.phase == PARTNER:
            return trade_partner(state, rng)
        if state.phase == KEEP:
            return max(actions, key=lambda a: sum(self.card_value(needs, k) for k in a.cards))
        if state.phase == EXPAND and isinstance(actions[0], Blocked):
            return actions[int(rng.integers(len(actions)))]  # no tile can be played: any one goes
        scored = self.scored(state, player, actions, pos)
        if state.phase == ACTIONS:
            scored.append((0.0, Pass()))
            scored = [(v, a) for v, a in scored if v > 1e-9 or isinstance(a, Pass)]
        return best(scored, rng)

    def scored(self, state: TyrosState, player: int, actions: list, pos: Position) -> list[tuple[float, object]]:
        """The change of `value` each action brings (trades by card values), for the actions it weighs.

        Board actions that differ only in cards of free choice (`chosen_cards`) share one look at the
        board: the value is the score plus prospects that are linear in the hand, so each such action's
        value is the shared one less its chosen cards' values (in the needs of the position after it).
        """
        needs = self.needs(pos, player)
        score, ranks = pos.score(state, player), pos.ranks(state)
        now = score + self.prospects(state, pos, player, ranks)
        board_values: dict = {}
        scored = []
        for action in actions:
            kind = type(action)
            if kind in BOARD_ACTIONS:
                shared, chosen = chosen_cards(action)
                if shared not in board_values:
                    moved = after(state, player, shared, pos)
                    if kind is MoveShip:  # a move keeps the empires' ranks
                        value = moved_score(state, player, shared, pos, moved, score, ranks) + self.prospects(
                            state, moved, player, ranks)
                    else:
                        value = self.value(state, moved, player)
                    board_values[shared] = (value, self.needs(moved, player))
                value, needs_after = board_values[shared]
                for k in chosen:
                    value -= self.card_value(needs_after, k)
                scored.append((value - now, action))
            elif kind is BankSwap:
                lost = sum(self.card_value(needs, k) for k in action.give)
                scored.append((len(action.give) * self.draw_value(state, needs) - lost - 0.05, action))
            elif kind is BankBuy:
                lost = sum(self.card_value(needs, k) for k in action.give)
                scored.append((self.card_value(needs, action.take) - lost, action))
            elif kind is Offer and len(action.give) == 1:
                gain = sum(self.card_value(needs, k) for k in action.get) - self.card_value(needs, action.give[0])
                scored.append((gain - 0.05, action))
        return scored


@dataclass(frozen=True)
class IsmctsPolicy(search.IsmctsPolicy):
    """Information-set MCTS (`tyrsim.core.engine.search`) with the planner's values as the leaf evaluation.

    The search's planner (`PLANNER`, the leaf evaluation and the planner rollouts) plays with the tuned
    weights (`weights.TUNED_PLANNER`). A cut-off position is valued by every player's `PlannerPolicy.values`
    (score if the game ended now, hoped-for cities, ships in Tyros, bonus progress, cards), turned into win shares by a
    softmax with `temperature` points: a player `temperature` points ahead of another is e times
    as likely to win.
    """

    iterations: int = 1000  # compiled, a median 7 ms a decision (docs/performance.md, "The compiled search")
    rollout: str = "planner"
    rollout_depth: int = 0  # the leaf evaluation straight after the new node (docs/tyros.md: "Search")
    temperature: float = 4.0
    rollouts: ClassVar[Mapping[str, Callable[[], Policy]]] = {
        "random": RandomPolicy, "greedy": GreedyPolicy, "planner": lambda: PLANNER,
    }

    def __post_init__(self) -> None:
        super().__post_init__()
        if not self.temperature > 0:
            raise ValueError(f"temperature must be above 0, got {self.temperature}")

    def evaluate(self, state: TyrosState) -> list[float]:
        values = PLANNER.values(state)
        top = max(values)
        weights = [math.exp((v - top) / self.temperature) for v in values]
        total = sum(weights)
        return [w / total for w in weights]


# the search's planner (its leaf evaluation and its planner rollouts): the planner with the weights `tyrsim tune` found
PLANNER = PlannerPolicy(**dataclasses.asdict(TUNED_PLANNER))

POLICIES = {"random": RandomPolicy, "greedy": GreedyPolicy, "planner": PlannerPolicy, "ismcts": IsmctsPolicy}
