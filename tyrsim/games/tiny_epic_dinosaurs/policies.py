"""Policies for Tiny Epic Dinosaurs: greedy, the archetypes hunter, breeder and contractor, and ismcts.

The first four are one heuristic (`GreedyPolicy`) with different weights: each legal
action gets an immediate value from what the player can see (`state.view(me)`:
the public table, their own private contract and their own decision, never the
decks or another player's private contract) and the best one is taken, ties
broken at random. `IsmctsPolicy` searches (`tyrsim.core.engine.search`) over
determinizations of what its player cannot see (`TinyEpicDinosaursState.determinize`),
valuing a cut-off position by a forecast of the round's end (`forecast.py`), guided by hunter with
the weights `tyrsim tune` found (`GUIDE`, `weights.TUNED_HUNTER`).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from tyrsim.core.engine import search
from tyrsim.core.engine.protocols import RandomPolicy
from tyrsim.games.tiny_epic_dinosaurs.actions import (
    Enclose,
    EscapeAs,
    Feed,
    LoseDinosaur,
    LoseFence,
    MoveFence,
    PickResearch,
    Place,
    PlaceFence,
)
from tyrsim.games.tiny_epic_dinosaurs.components import ResearchCard
from tyrsim.games.tiny_epic_dinosaurs.feeding import fits, food_needed
from tyrsim.games.tiny_epic_dinosaurs.forecast import forecast
from tyrsim.games.tiny_epic_dinosaurs.heuristics import enclosure_value, fed_points, ranch_quality
from tyrsim.games.tiny_epic_dinosaurs.prompts import DrawnResearch
from tyrsim.games.tiny_epic_dinosaurs.weights import TUNED_HUNTER, GreedyWeights


@dataclass(frozen=True)
class GreedyPolicy(GreedyWeights):
    """Takes the action with the best immediate value; the weights (`weights.GreedyWeights`) say what it values."""

    name: ClassVar[str] = "greedy"

    def choose(self, state: Any, rng: np.random.Generator) -> Any:
        actions = state.legal_actions()
        values = self.values(state)
        best = np.flatnonzero(values >= values.max() - 1e-9)
        return actions[int(best[rng.integers(len(best))])]

    def values(self, state: Any) -> np.ndarray:
        """The value of each legal action of the player to move, in the order of `legal_actions()`."""
        view = state.view(state.current_player())
        me = view.players[view.me]
        view.herd = me.ranch.herd()  # my dinosaurs on the ranch and in Holding, by kind
        for kind in me.holding:
            view.herd[kind] = view.herd.get(kind, 0) + 1
        view.enclosures = me.ranch.enclosures()
        view.hunt_dinosaurs = view.rules.hunt_odds()["dinosaurs"]
        view.memo = {}  # values that many actions of one decision share
        return np.array([self.value(view, action) for action in state.legal_actions()], dtype=float)

    # --- values of the decisions ---

    def value(self, view: Any, action: Any) -> float:
        if isinstance(action, Place):
            return self.place_value(view, action)
        if isinstance(action, PickResearch):
            if action.card == "draw":
                return self.draw_value
            cards = view.decision.drawn if isinstance(view.decision, DrawnResearch) else view.research_display
            return self.card_value(view, next(c for c in cards if c.name == action.card))
        if isinstance(action, MoveFence | PlaceFence | LoseFence):
            return self.fence_value(view, action)
        if isinstance(action, Enclose):
            return self.enclose_value(view, action)
        if isinstance(action, Feed):
            return fed_points(action.fed, view.dinosaurs)
        if isinstance(action, LoseDinosaur):
            return -self.dinosaur_value(view, action.kind)
        if isinstance(action, EscapeAs):
            me = view.players[view.me]
            if action.group == "herbivore":
                return -self.fence_weight * (1.0 if me.ranch.fences else 0.0)
            points = [view.dinosaurs[k].points for k in me.ranch.cells if k is not None]
            return -min(points, default=0)
        return 0.0  # StopRearranging: the baseline a fence move must beat

    def dinosaur_value(self, view: Any, kind: str) -> float:
        dino = view.dinosaurs[kind]
        value = dino.points * self.dinosaur_weight - self.food_cost * sum(view.diet(kind))
        if view.herd.get(kind, 0) % 2 == 1:
            value += self.breed_bonus
        if self.contract_match:
            wanted = [c for c in (*view.public_contracts, view.private) if c is not None]
            if any(kind == k for c in wanted for k, _ in c.dinosaurs):
                value += self.contract_match
        return value

    def room_for(self, view: Any, kind: str) -> bool:
        """Whether one more dinosaur of `kind` would find a space in Phase 4."""
        herd, enclosures = view.herd, view.enclosures
        kinds = len({k for k in herd if not view.dinosaurs[k].unique} | {kind})
        free = sum(r.capacity for r in enclosures) - sum(n for k, n in herd.items() if not view.dinosaurs[k].unique)
        return free > 0 and kinds <= len(enclosures)

    def fed_with(self, view: Any, kind: str, n: int) -> bool:
        """Whether my food in stock would still feed the herd (Phase 5 of this round) with `n` more `kind`."""
        herd = dict(view.herd)
        herd[kind] = herd.get(kind, 0) + n
        return fits(food_needed(herd.items(), view.diet), view.players[view.me].resources)

    def new_dinosaurs_value(self, view: Any, kind: str, n: float) -> float:
        key = ("new", kind, n)
        if key not in view.memo:
            if not self.room_for(view, kind) or not self.fed_with(view, kind, round(n)):
                view.memo[key] = -1.0 * n  # it would escape, with a penalty
            else:
                view.memo[key] = n * self.dinosaur_value(view, kind)
        return view.memo[key]

    def card_value(self, view: Any, card: ResearchCard) -> float:
        rounds_left = view.rules.rounds - view.round + 1
        effect = card.effect
        herd = view.herd
        value = float(card.points)
        if card.dinosaur is not None:
            value -= self.food_cost * sum(view.diet(card.name)) * rounds_left / 2
        if effect.type == "income":
            value += effect.amount * rounds_left * self.resource_weight
        elif effect.type == "cheaper":
            value += effect.amount * self.resource_weight * rounds_left / 2
        elif effect.type == "points_per":
            value += effect.amount * (herd.get(effect.dinosaur, 0) + 1)
        elif effect.type == "feed_less":
            value += effect.amount * self.food_cost * herd.get(effect.dinosaur, 0) * rounds_left
        elif effect.type == "extra_fences":
            value += effect.amount * self.fence_weight
        return value * self.research_weight

    def fences_wanted(self, view: Any) -> float:
        """Value of one more fence: high when the herd has more kinds than the ranch has enclosures."""
        kinds = len([k for k in view.herd if not view.dinosaurs[k].unique])
        short = kinds + 1 > len(view.enclosures)
        return self.fence_weight * (1.5 if short else 0.4)

    def place_value(self, view: Any, action: Place) -> float:
        value = -self.rancher_cost * action.ranchers - (self.owner_cost if action.owner else 0.0)
        space = view.spaces[action.space]
        kind = action.action
        if kind == "hunt":
            return value + self.hunt_weight * self.new_dinosaurs_value(view, space.dinosaur, view.hunt_dinosaurs)
        if kind == "buy":
            return value + self.new_dinosaurs_value(view, action.choice, 1) - self.resource_weight
        if kind == "place_now":
            return value + 0.2 - self.resource_weight
        if kind == "gain":
            if space.fences and view.fence_supply:
                value += space.fences * self.fences_wanted(view)
            resources = sum(space.gain) - sum(space.cost)
            return value + resources * self.resource_weight
        if kind == "first_player":
            return value + (0.0 if view.first_player == view.me else self.first_player_value)
        if kind in ("research", "research_remove"):
            if "research" not in view.memo:
                shown = [self.card_value(view, card) for card in view.research_display]
                view.memo["research"] = max([*shown, self.draw_value])
            gain = view.memo["research"]
            paid = sum(space.cost) * self.resource_weight
            if kind == "research_remove":
                paid = max(0.0, self.dinosaur_value(view, action.choice))
            return value + gain - paid
        # contract
        contract = next(c for c in view.public_contracts if c.name == action.choice)
        paid = sum(space.cost) * self.resource_weight
        gain = self._contract_gain(view, contract)
        if action.extra == "private":
            gain += self._contract_gain(view, view.private)
        return value + gain - paid

    def _contract_gain(self, view: Any, contract: Any) -> float:
        given = sum(
            n * max(0.0, self.dinosaur_value(view, kind) - self.contract_match) for kind, n in contract.dinosaurs
        )
        return contract.points * self.contract_weight - given

    # --- the ranch ---

    def ranch_quality(self, view: Any, fences: int) -> float:
        """How many of my dinosaurs the enclosures of this fence set (`fence_bits`) could hold (kinds matched
        to sizes), with credit for the pairs that could breed and for spare enclosures."""
        capacities = view.players[view.me].ranch.board.capacities(fences)
        key = ("ranch", capacities)  # many fence sets give the same sizes
        if key not in view.memo:
            counts = sorted((n for k, n in view.herd.items() if not view.dinosaurs[k].unique), reverse=True)
            pair_value = 0.5 + self.breed_bonus / 2
            view.memo[key] = ranch_quality(capacities, counts, view.rules.breed_group, pair_value)
        return view.memo[key]

    def fence_value(self, view: Any, action: Any) -> float:
        ranch = view.players[view.me].ranch
        edge_id = ranch.layout.edge_id
        now = fences = ranch.fence_bits
        if isinstance(action, MoveFence):
            if action.source != "holding":
                fences &= ~(1 << edge_id(action.source))
            fences |= 1 << edge_id(action.target)
        elif isinstance(action, PlaceFence):
            fences |= 1 << edge_id(action.edge)
        else:
            fences &= ~(1 << edge_id(action.edge))
        # a move must improve on leaving the fences as they are (StopRearranging is worth 0)
        if isinstance(action, MoveFence):
            return self.ranch_quality(view, fences) - self.ranch_quality(view, now) - 0.01
        return self.ranch_quality(view, fences)

    def enclose_value(self, view: Any, action: Enclose) -> float:
        return enclosure_value(view.decision.unplaced[action.kind], action.size, view.dinosaurs[action.kind].points)


@dataclass(frozen=True)
class HunterPolicy(GreedyPolicy):
    """Fills the ranch from the hunt spaces and values dinosaurs highly."""

    name: ClassVar[str] = "hunter"
    hunt_weight: float = 2.0
    dinosaur_weight: float = 1.5
    research_weight: float = 0.6


@dataclass(frozen=True)
class BreederPolicy(GreedyPolicy):
    """Builds enclosures and pairs dinosaurs of one kind so the herd grows by breeding."""

    name: ClassVar[str] = "breeder"
    breed_bonus: float = 1.5
    dinosaur_weight: float = 1.2
    resource_weight: float = 0.6
    research_weight: float = 0.6


@dataclass(frozen=True)
class ContractorPolicy(GreedyPolicy):
    """Collects the dinosaurs the visible contracts ask for and trades them in."""

    name: ClassVar[str] = "contractor"
    contract_weight: float = 1.8
    contract_match: float = 1.0
    research_weight: float = 0.6


@dataclass(frozen=True)
class IsmctsPolicy(search.IsmctsPolicy):
    """Information-set MCTS over hunter's best few actions; a cut-off position is valued by each player's points
    at the end of this round, forecast by playing the round out on a scratch ranch, and what is left for later.

    Ruling (the search's hunter): the hunter that picks the root's candidates (`offered`) and plays the `hunter`
    rollout is `GUIDE`, hunter with the tuned weights (`weights.TUNED_HUNTER`), in the Python search and the
    compiled one alike; the forecast's own hunter-like choices (`forecast.py`) take no weights and stay as they are.
    """

    iterations: int = 400  # compiled, a median 5.7 ms a decision (docs/tiny_epic_dinosaurs.md: "Budget")
    rollout: str = "hunter"
    rollout_depth: int = 4
    rollouts: ClassVar[Mapping[str, Any]] = {
        "random": RandomPolicy,
        "greedy": GreedyPolicy,
        "hunter": lambda: GUIDE,
    }
    candidates: int = 5  # the decision weighs only the actions hunter values most, this many (0: every action)
    resource_value: float = 0.3  # points one leaf, meat or supply left after feeding is worth at a cut-off
    rancher_value: float = 0.8  # points a rancher (or the owner) not yet placed this round is worth
    breed_value: float = 0.5  # points a breeding pair is worth for each round after this one
    scale: float = 6.0  # a lead of this many points, in prospect, is worth about 0.88 of a win

    def prunes(self, actions: int) -> bool:
        """Whether a decision of this many legal actions weighs only the guide's best few (`candidates`)."""
        return 0 < self.candidates < actions

    def offered(self, values: np.ndarray) -> list[int]:
        """The places (in the decision's order) of the `candidates` actions the guide values most (`values`, of
        the legal actions; among equal values the earlier listed)."""
        return sorted(int(i) for i in np.argsort(-values, kind="stable")[: self.candidates])

    def reference_choice(self, state: Any, rng: np.random.Generator) -> Any:
        """The Python search, over the guide's best few actions where the decision offers more (heuristic pruning
        at the root: the guide's values come from what the player sees, `view`)."""
        actions = state.legal_actions()
        if self.prunes(len(actions)):
            offered = self.offered(GUIDE.values(state))
            if len(offered) == 1:
                return actions[offered[0]]
            state = search.RootCandidates(state, [actions[i] for i in offered])
        return super().reference_choice(state, rng)

    def prospect(self, state: Any, seat: int) -> float:
        """The points `seat` will have at the end of this round (`forecast`: the rest of the round played out on a
        scratch ranch by the engine's rules), plus what is left for later rounds: `resource_value` per resource
        after feeding, `rancher_value` per rancher still to place this round, `breed_value` per breeding pair
        for each round still to come."""
        ahead = forecast(state, seat)
        player = state.players[seat]
        points = ahead.points + self.resource_value * (ahead.food + ahead.supply)
        points += self.rancher_value * (player.ranchers_left + player.owner_left)
        return points + self.breed_value * ahead.pairs * (state.rules.rounds - state.round)

    def evaluate(self, state: Any) -> list[float]:
        """Each player's win chance from their prospect against the best other one's (a logistic curve);
        for two players the two values add up to 1."""
        prospects = [self.prospect(state, seat) for seat in range(len(state.players))]
        values = []
        for seat, own in enumerate(prospects):
            best_other = max(p for other, p in enumerate(prospects) if other != seat)
            values.append(1.0 / (1.0 + math.exp(-2.0 * (own - best_other) / self.scale)))
        return values


# the search's guide (its root candidates and its hunter rollouts): hunter with the weights `tyrsim tune` found
GUIDE = HunterPolicy(**dataclasses.asdict(TUNED_HUNTER))

POLICIES = {
    "random": RandomPolicy,
    "ismcts": IsmctsPolicy,
    "greedy": GreedyPolicy,
    "hunter": HunterPolicy,
    "breeder": BreederPolicy,
    "contractor": ContractorPolicy,
}
