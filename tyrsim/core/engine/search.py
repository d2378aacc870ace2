"""Information-set Monte Carlo tree search (single-observer ISMCTS) over the Game/State protocol.

The searching player (the observer) cannot see everything: other players' hands, the
order of a pile, chips laid face down. Each iteration of the search therefore

1. samples a *determinization*, a full state consistent with everything the observer
   has seen (`state.determinize(observer, rng)`, the one hook a game must provide;
   it never reads the true hidden values and gives the sample its own chance generator,
   so the real future dice and draws stay unknown too);
2. descends one tree, whose nodes are the observer's information sets reached by
   sequences of actions from the decision, choosing at each node the action with the
   best upper confidence bound for the player to move there. Only actions legal in
   this determinization compete, and a child's bound counts how often it was
   *available* rather than how often its parent was visited (Cowling, Powley and
   Whitehouse 2012, "Information Set Monte Carlo Tree Search");
3. adds one new node, plays the rollout policy for at most `rollout_depth` decisions,
   and values the position: a finished game gives each winner 1 / (number of winners)
   and everyone else 0; a cut-off gives the game's leaf evaluation (`evaluate`), each
   player's value on the same win-share scale;
4. adds the values to every node on the path. Each node keeps one total per player,
   so every player chooses for itself (max-n), which serves games of any size.

Chance inside `apply` (dice, draws) is drawn by the determinization, so a node stands
for an action sequence and averages over its chance outcomes (open-loop search).

The decision is the root's most visited action. The search draws only from the
generator it is given: the same seed gives the same decisions, whatever the jobs.
Games subclass `IsmctsPolicy`, setting their defaults, their rollout policies and
`evaluate`. A game whose decisions offer many actions can let only a heuristic's best
few compete at the root: it searches `RootCandidates(state, actions)` instead of the
state, which needs the game's `offer_only`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar, Protocol

import numpy as np

from tyrsim.core.compiled.accelerators import compiled_search
from tyrsim.core.engine.protocols import Action, Policy, RandomPolicy, State
from tyrsim.core.engine.rng import uniform


class Determinizable(State, Protocol):
    def determinize(self, player: int, rng: np.random.Generator) -> State:
        """A full state consistent with everything `player` has seen, the unseen sampled from `rng`,
        with a chance generator of its own drawn from `rng`."""


class Prunable(Determinizable, Protocol):
    def offer_only(self, actions: list[Action]) -> None:
        """Let the current decision offer only these of its legal actions."""


class RootCandidates:
    """The decision as the search sees it when only some of its actions compete (root pruning): the real
    state's player and scores, these actions, and determinizations whose first decision offers only them
    (`offer_only`); deeper in the tree every legal action competes."""

    def __init__(self, state: Prunable, actions: list[Action]) -> None:
        self.state, self.actions = state, actions

    def current_player(self) -> int:
        return self.state.current_player()

    def legal_actions(self) -> list[Action]:
        return self.actions

    def scores(self) -> list[float]:
        return self.state.scores()

    def determinize(self, player: int, rng: np.random.Generator) -> State:
        world = self.state.determinize(player, rng)
        world.offer_only(self.actions)
        return world


class Node:
    """One information set of the tree: visits, how often it was available, value totals per player."""

    __slots__ = ("visits", "available", "totals", "children")

    def __init__(self, players: int) -> None:
        self.visits = 0
        self.available = 0
        self.totals = [0.0] * players
        self.children: dict[Action, Node] = {}

    def mean(self, player: int) -> float:
        return self.totals[player] / self.visits


def terminal_values(state: State, players: int) -> list[float]:
    """Win shares of a finished game: 1 / (number of winners) to each winner, 0 to the others."""
    winners = state.winners()
    share = 1.0 / len(winners) if winners else 0.0
    values = [0.0] * players
    for w in winners:
        values[w] = share
    return values


@dataclass(frozen=True)
class IsmctsPolicy:
    """Single-observer information-set MCTS; a game's subclass sets the defaults and `evaluate`."""

    name: ClassVar[str] = "ismcts"
    iterations: int = 200  # determinizations (tree descents) per decision
    exploration: float = 0.7  # UCT constant; values are win shares in [0, 1]
    rollout: str = "random"  # the policy that plays every seat after the tree: a key of `rollouts`
    rollout_depth: int = 8  # decisions of rollout before the leaf evaluation; -1: play to the end
    rollouts: ClassVar[Mapping[str, Callable[[], Policy]]] = {"random": RandomPolicy}

    def __post_init__(self) -> None:
        if self.rollout not in self.rollouts:
            raise ValueError(f"rollout {self.rollout!r} is not allowed; expected one of {', '.join(self.rollouts)}")
        if self.iterations < 1:
            raise ValueError(f"iterations must be at least 1, got {self.iterations}")
        if not self.exploration >= 0:
            raise ValueError(f"exploration must be at least 0, got {self.exploration}")
        if self.rollout_depth < -1:
            raise ValueError(f"rollout_depth must be -1 (to the end) or at least 0, got {self.rollout_depth}")

    def evaluate(self, state: State) -> Sequence[float]:
        """Each player's value of an unfinished position on the win-share scale [0, 1].

        This default knows nothing of the game and calls every position even; games override it.
        """
        players = len(state.scores())
        return [1.0 / players] * players

    def choose(self, state: Determinizable, rng: np.random.Generator) -> Action:
        actions = state.legal_actions()
        if len(actions) == 1:
            return actions[0]
        chosen = self.compiled_choice(state, rng)
        return self.reference_choice(state, rng) if chosen is None else chosen

    def compiled_choice(self, state: Determinizable, rng: np.random.Generator) -> Action | None:
        """The decision made by the game's compiled search (registered on its GameSpec:
        `tyrsim.core.compiled.accelerators`), drawing what `reference_choice` draws from `rng`, or None where the
        game has none for this state and these options."""
        choose = compiled_search(type(self))
        return None if choose is None else choose(self, state, rng)

    def reference_choice(self, state: Determinizable, rng: np.random.Generator) -> Action:
        """The decision of the search in Python: the readable reference the compiled search is tested against."""
        actions = state.legal_actions()
        root = self.search(state, rng)
        return max(actions, key=lambda a: _visits_then_mean(root.children.get(a), state.current_player()))

    def search(self, state: Determinizable, rng: np.random.Generator) -> Node:
        """The tree grown by `iterations` descents from `state`, which is the observer's decision."""
        observer = state.current_player()
        players = len(state.scores())
        rollout = self.rollouts[self.rollout]()
        root = Node(players)
        # What the observer may do depends only on what it has seen, so every determinization has the
        # decision's own legal actions (each game's tests check this): they are listed once.
        choices = state.legal_actions()
        for _ in range(self.iterations):
            world = state.determinize(observer, rng)
            path = self._descend(root, world, choices, players, rng)
            values = self._leaf_values(world, players, rollout, rng)
            for node in path:
                node.visits += 1
                totals = node.totals
                for p in range(players):
                    totals[p] += values[p]
        return root

    def _descend(self, root: Node, world: State, choices: list[Action], players: int,
                 rng: np.random.Generator) -> list[Node]:
        """Walk the tree in `world` (played on as it goes) down to one new node; the nodes passed.

        `choices` are the observer's legal actions at the root."""
        node, path = root, [root]
        while not world.is_terminal():
            actions = choices if node is root else world.legal_actions()
            mover = world.current_player()
            children = node.children
            untried = []
            for a in actions:
                child = children.get(a)
                if child is None:
                    untried.append(a)
                else:
                    child.available += 1
            if untried:
                action = untried[int(uniform(rng) * len(untried))]
                child = children[action] = Node(players)
                child.available = 1
                world.apply(action)
                path.append(child)
                return path
            action = max(actions, key=lambda a: self._bound(children[a], mover))
            node = children[action]
            world.apply(action)
            path.append(node)
        return path

    def _bound(self, child: Node, mover: int) -> float:
        return child.mean(mover) + self.exploration * math.sqrt(math.log(child.available) / child.visits)

    def _leaf_values(self, world: State, players: int, rollout: Policy, rng: np.random.Generator) -> Sequence[float]:
        depth = self.rollout_depth
        while not world.is_terminal() and depth != 0:
            world.apply(rollout.choose(world, rng))
            depth -= 1
        if world.is_terminal():
            return terminal_values(world, players)
        return self.evaluate(world)


def _visits_then_mean(child: Node | None, player: int) -> tuple[int, float]:
    """The root's order of preference: most visits, then best mean (an action never tried is last)."""
    if child is None or child.visits == 0:
        return (0, -math.inf)
    return (child.visits, child.mean(player))
