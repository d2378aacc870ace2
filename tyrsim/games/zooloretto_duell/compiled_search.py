"""Zooloretto Duell's information-set search in compiled code: `policies.IsmctsPolicy`, decision for decision.

The search itself is `tyrsim.core.compiled.search.ismcts`; this module gives it the duel's functions, each the
compiled form of what the Python search does through the object engine:

- `determinize`: `ZooState.determinize`. The unseen cards (the draw pile but the final-round card, and the
  discard pile below its top card unless the observer may look through it) are counted out by kind, in the
  canonical order (`cards.card_kind`), and dealt by `rng.permutation`'s swaps to the same places: the discard
  pile's hidden places first, then the draw pile around the final-round card's known depth. Only the kinds
  and the sizes of the hidden places are read, never their order.
- `legal_actions`, `apply_action`: the compiled engine's; `action_number` numbers an action as `actions.py`
  tells actions apart (by kinds of cards, not by the cards: interchangeable cards make one action), so the
  same action has the same number in every determinization, and the Python search's tree, keyed by actions,
  grows as this one.
- `final_values`: win shares of the object engine's winners (highest score, then most coins, else shared).
- `evaluate`: with `finish_round`, the heuristic (default weights) plays both seats to the end of the round
  on the work record's `finish` copy; then a finished game's win shares, else seat 0's
  0.5 + 0.5 tanh(margin / scale) and the rest to seat 1.
- `rollout`: the random, greedy or heuristic policy (as `compiled_policies.decide`, default weights).

What a search works in is one record of the compiled policies' work space (`compiled_policies.WORKSPACE`): the
action list and their numbers (`keys`), the look-ahead's scratch position, the uniform block, the `finish`
position, the heuristic's default `weights`, and the policy's options (`rollout`: a policy kind of
`compiled_policies`, `finish_round`, `scale`). `choose` is the search as `IsmctsPolicy` calls it.
"""

from __future__ import annotations

import functools
import sys

import numpy as np
from numba import njit

from tyrsim.core.compiled.chance import shuffle, uniform, uniform_block
from tyrsim.core.compiled.forms import weights_of
from tyrsim.core.compiled.numba_cache import keep_fresh
from tyrsim.core.compiled.search import ismcts, room
from tyrsim.games.zooloretto_duell.cards import FINAL_CARD
from tyrsim.games.zooloretto_duell.compiled import (
    CONNECT,
    DECK,
    DISCARD_DRAWN,
    DONATION,
    MAX_ACTIONS,
    MAX_PLACES,
    OVER,
    TAKE,
    final_score,
    new_position,
    position_of,
    rule_tables,
    supported,
)
from tyrsim.games.zooloretto_duell.compiled import apply_action as play
from tyrsim.games.zooloretto_duell.compiled import legal_actions as list_actions
from tyrsim.games.zooloretto_duell.compiled_policies import (
    GREEDY,
    POLICY_KINDS,
    RANDOM,
    WORKSPACE,
    choose_greedy,
    heuristic_choice,
    margin,
)
from tyrsim.games.zooloretto_duell.rules import Rules
from tyrsim.games.zooloretto_duell.weights import HeuristicWeights

keep_fresh(__file__)
# the search names its functions through the module: numba caches a function handed functions of its own module
# only so (named as plain globals, they count as dynamic globals and the search compiles afresh every process)
this = sys.modules[__name__]

KINDS = FINAL_CARD + 1  # card kinds, the final-round card the last
ACTION_ARGUMENTS = 64  # more than an action's first argument can be: a truck (up to 8) or a card kind (up to 36)
TRUCK_ORDERS = (MAX_PLACES + 1) * KINDS**MAX_PLACES  # more than `action_number` gives a truck's cards


def choose(policy, state, rng: np.random.Generator):
    """The decision of `policy` (an `IsmctsPolicy`) at the object engine's `state` made by the compiled search,
    drawing what the Python search draws from `rng`; None where the compiled engine does not play the rules."""
    if supported(state.rules) is not None:
        return None
    tables = rules_of(state.rules)
    work = search_work(policy.rollout, policy.finish_round, policy.scale)
    tree, path, values, untried = room(policy.iterations, MAX_ACTIONS)
    real = position_of(state)
    with uniform_block(rng, work[0]):
        key = search(real, new_position(), tables, np.int64(policy.iterations), policy.exploration,
                     np.int64(policy.rollout_depth), rng.bit_generator, work, tree, path, values, untried)
    return state.legal_actions()[chosen_index(real, tables, work, key)]


@functools.lru_cache(maxsize=8)
def rules_of(rules: Rules) -> np.recarray:
    """The rule tables of one rule set, made once a process."""
    return rule_tables(rules)


@functools.lru_cache(maxsize=8)
def search_work(rollout: str, finish_round: bool, scale: float) -> np.recarray:
    """The work record of a policy's options, made once a process (a search leaves in it only its action
    list, scratch positions and the uniform block, which each search begins afresh)."""
    work = np.zeros(1, WORKSPACE).view(np.recarray)
    # the rollout policy's kind by its name, and the heuristic's default weights (the evaluation's and a heuristic
    # rollout's)
    work[0].rollout, work[0].finish_round, work[0].scale = POLICY_KINDS[rollout], int(finish_round), scale
    work[0].weights = weights_of(HeuristicWeights(), HeuristicWeights)[0]
    return work


@njit(cache=True)
def search(real, world, rules, iterations, exploration, rollout_depth, bits, work, tree, path, values,
           untried) -> np.int64:
    """The search's decision at the one-position array `real` under the rule tables `rules` (`rule_tables`): the
    key (`action_key`) of the action chosen. `world` is a scratch one-position array, `work` a one-element
    WORKSPACE array (a record passed from Python would be a copy, its uniform block lost), the rest as
    `ismcts` asks."""
    return ismcts(real, world, rules[0], np.int64(2), iterations, exploration, rollout_depth, bits, work[0], tree,
                  path, values, untried, this.determinize, this.legal_actions, this.action_key, this.apply_action,
                  this.is_over, this.to_move, this.final_values, this.evaluate, this.rollout)


@njit(cache=True)
def chosen_index(real, tables, work, key) -> np.int64:
    """Where the action numbered `key` stands in the legal actions of `real` (the object engine's order)."""
    for i in range(legal_actions(real, tables[0], work[0])):
        if action_key(work[0], i) == key:
            return np.int64(i)
    return np.int64(-1)


@njit(cache=True)
def determinize(real, world, rules, observer, bits) -> None:
    """`ZooState.determinize` of `real` for `observer` into `world`."""
    world[0] = real[0]
    pos = world[0]
    # rule `discard_pile_memory` 'remember': every card was seen going onto the pile (`_remembers_discard_pile`)
    looks = rules.discard_pile_open or rules.discard_pile_memory or (pos.phase == DONATION and pos.to_move == observer)
    hidden = 0 if looks else max(pos.discard_size - 1, 0)  # the discard pile's places below its top card
    count = np.zeros(KINDS, np.int64)  # the unseen cards of each kind
    final_place = -1  # the final-round card's place in the draw pile, known to both
    for i in range(pos.pile_size):
        if pos.pile[i] == FINAL_CARD:
            final_place = i
        else:
            count[pos.pile[i]] += 1
    for i in range(hidden):
        count[pos.discard[i]] += 1
    unseen = np.empty(DECK + 4, np.int8)  # in the canonical order: by kind
    size = 0
    for kind in range(KINDS):
        for _ in range(count[kind]):
            unseen[size] = kind
            size += 1
    shuffle(bits, unseen[:size], np.int64(size))  # rng.permutation(size)'s swaps, made on the cards
    for i in range(hidden):
        pos.discard[i] = unseen[i]
    place = 0
    for i in range(hidden, size):
        if place == final_place:
            place += 1  # the final-round card keeps its depth
        pos.pile[place] = unseen[i]
        place += 1


@njit(cache=True)
def legal_actions(world, rules, work) -> np.int64:
    """The legal actions as rows (type, a, b) into `work.actions`, and each one's number into `work.keys`."""
    pos = world[0]
    n = list_actions(pos, rules, work.actions)
    for i in range(n):
        work.keys[i] = action_number(pos, rules, work.actions[i])
    return np.int64(n)


@njit(cache=True)
def action_number(pos, rules, row) -> np.int64:
    """An action as one number, as `actions.py` tells actions apart: by type, truck or kind of card, the kind
    of the card drawn for placing it, and for taking a truck the kinds of its cards in the order placed (orders
    of interchangeable cards are one action)."""
    kind, a, b = row[0], row[1], row[2]
    cards = np.int64(0)
    if kind == CONNECT or kind == DISCARD_DRAWN:
        cards = pos.drawn  # the card drawn, seen by both: the same action in every determinization is the same card
    elif kind == TAKE:
        size = pos.truck_size[a]
        cards = size
        for k in range(size):
            cards = cards * KINDS + pos.trucks[a, rules.orders[size, b, k]]
    return (kind * ACTION_ARGUMENTS + a) * TRUCK_ORDERS + cards


@njit(cache=True)
def action_key(work, i) -> np.int64:
    return work.keys[i]


@njit(cache=True)
def apply_action(world, rules, work, i, bits) -> None:
    row = work.actions[i]
    play(world[0], rules, row[0], row[1], row[2])


@njit(cache=True)
def is_over(world) -> bool:
    return world[0].phase == OVER


@njit(cache=True)
def to_move(world) -> np.int64:
    return np.int64(world[0].to_move)


@njit(cache=True)
def final_values(world, rules, work, out) -> None:
    """Win shares of a finished game: the higher score wins, on a tie the more coins, still tied: shared."""
    share_out(world[0], rules, out)


@njit(cache=True)
def share_out(pos, rules, out) -> None:
    first, second = final_score(pos, rules, 0), final_score(pos, rules, 1)
    if first == second:
        first, second = pos.coins[0], pos.coins[1]
    if first == second:
        out[0] = out[1] = 0.5
    else:
        out[0] = 1.0 if first > second else 0.0
        out[1] = 1.0 - out[0]


@njit(cache=True)
def evaluate(world, rules, work, out) -> None:
    """`IsmctsPolicy.evaluate`: with `finish_round` the heuristic ends the round on the `finish` copy; a finished
    game's win shares, else 0.5 + 0.5 tanh(margin / scale) for seat 0 and the rest for seat 1."""
    pos = world[0]
    if work.finish_round:
        work.finish[0] = pos
        pos = work.finish[0]
        rounds = pos.rounds
        while pos.phase != OVER and pos.rounds == rounds:
            n = list_actions(pos, rules, work.actions)  # the heuristic draws no chance: no generator here
            i = 0 if n == 1 else heuristic_choice(work.weights, pos, rules, work, n)
            play(pos, rules, work.actions[i, 0], work.actions[i, 1], work.actions[i, 2])
        if pos.phase == OVER:
            share_out(pos, rules, out)
            return
    out[0] = 0.5 + 0.5 * np.tanh(margin(pos, rules, 0) / work.scale)
    out[1] = 1.0 - out[0]


@njit(cache=True)
def rollout(world, rules, bits, work, n) -> np.int64:
    """The rollout policy's choice among the n listed actions (as `compiled_policies.decide` chooses; the
    heuristic with its default weights)."""
    pos = world[0]
    if work.rollout == RANDOM:
        return np.int64(uniform(bits, work) * n)
    if n == 1:
        return np.int64(0)
    if work.rollout == GREEDY:
        return np.int64(choose_greedy(pos, rules, bits, work, n))
    return np.int64(heuristic_choice(work.weights, pos, rules, work, n))
