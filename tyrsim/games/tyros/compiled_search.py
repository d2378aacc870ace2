"""Tyros's information-set search in compiled code: `policies.IsmctsPolicy`, decision for decision.

The search itself is `tyrsim.core.compiled.search.ismcts`; this module gives it Tyros's functions, each the
compiled form of what the Python search does through the object engine:

- `determinize`: `TyrosState.determinize`. The cards the observer has not seen (the full deck less their own
  hand, the discard pile and an open offer's cards, which stay with the players who show them) are listed by
  kind and dealt by `rng.permutation`'s swaps to the other players by their hand sizes, the rest making the
  draw pile; the tiles with no chip on their space and not in the observer's hand, in the board's order, are
  dealt the same way, each other player's sorted, the rest making the tile pile in the shuffled order. Only
  hand and pile sizes and what the observer sees are read, never a hidden card or tile. The world then draws
  its chance (deals, bank swaps) from the search's generator, as the object engine's determinization does.
- `legal_actions`, `apply_action`: the compiled engine's, whose action rows are the object engine's actions
  one for one; `action_key` packs a row into one number (`key_of`), so equal actions have equal keys.
- `final_values`: win shares of the object engine's winners (highest total, then points in the largest
  empire, else shared).
- `evaluate`: every player's planner value (the search's planner, `policies.PLANNER`, with the tuned weights
  `weights.TUNED_PLANNER`; each with their own, sampled, hand) as win shares by a softmax with `temperature` points.
- `rollout`: the random, greedy or planner policy (`compiled_policies.decide`; the planner the search's).

The search's "rules" are a tuple (rule tables, the search's planner's weights, the policy's options), the work
record the compiled engine's (`compiled.WORKSPACE`: the action list, the policies' scratch position and the
uniform block). `choose` is the search as `IsmctsPolicy` calls it.
"""

from __future__ import annotations

import functools
import sys

import numpy as np
from numba import njit

from tyrsim.core.compiled.chance import shuffle, uniform_block
from tyrsim.core.compiled.forms import weights_of
from tyrsim.core.compiled.numba_cache import keep_fresh
from tyrsim.core.compiled.search import ismcts, room
from tyrsim.games.tyros.compiled import (
    BUY,
    KEEP_CARDS,
    LARGEST_POINTS,
    MAX_ACTIONS,
    P_OFFER,
    P_OVER,
    P_PARTNER,
    SHIP,
    SWAP,
    TOTAL,
    current_player,
    new_position,
    new_workspace,
    position_of,
    rule_tables,
    score_game,
    supported,
)
from tyrsim.games.tyros.compiled import apply_action as play
from tyrsim.games.tyros.compiled import legal_actions as list_actions
from tyrsim.games.tyros.compiled_policies import POLICY_KINDS, decide, prospects
from tyrsim.games.tyros.components import CARD_KINDS, WILD
from tyrsim.games.tyros.rules import Rules
from tyrsim.games.tyros.weights import TUNED_PLANNER, PlannerWeights

keep_fresh(__file__)
# the search names its functions through the module: numba caches a function handed functions of its own module
# only so (named as plain globals, they count as dynamic globals and the search compiles afresh every process)
this = sys.modules[__name__]

OPTIONS = np.dtype([("rollout", np.int64), ("temperature", np.float64)])  # the policy's options the search reads
SMALL_FIELD, PACKED_FIELD = 8, 12  # `key_of`: the bits of a field of an action row, and where a packed multiset starts


def choose(policy, state, rng: np.random.Generator):
    """The decision of `policy` (an `IsmctsPolicy`) at the object engine's `state` made by the compiled search,
    drawing what the Python search draws from `rng`; None where the compiled engine does not play the rules."""
    if plays(state.rules, state.n) is not None:
        return None
    tables, weights = rules_of(state.rules), planner_weights()
    options = options_of(policy.rollout, policy.temperature)
    work = search_work()
    tree, path, values, untried = room(policy.iterations, MAX_ACTIONS)
    real = position_of(state)
    with uniform_block(rng, work[0]):
        key = search(real, new_position(), tables, weights, options, np.int64(policy.iterations),
                     policy.exploration, np.int64(policy.rollout_depth), rng.bit_generator, work, tree, path,
                     values, untried)
    return state.legal_actions()[chosen_index(real, tables, work, key)]


@functools.lru_cache(maxsize=16)
def plays(rules: Rules, players: int) -> str | None:
    """`compiled.supported`, once a process for each rule set and number of players."""
    return supported(rules, players)


@functools.lru_cache(maxsize=8)
def rules_of(rules: Rules) -> np.recarray:
    """The rule tables of one rule set, made once a process."""
    return rule_tables(rules)


@functools.lru_cache(maxsize=1)
def planner_weights() -> np.recarray:
    """The search's planner's weights (`weights.TUNED_PLANNER`: the leaf evaluation's and the planner
    rollouts')."""
    return weights_of(TUNED_PLANNER, PlannerWeights)


@functools.lru_cache(maxsize=8)
def options_of(rollout: str, temperature: float) -> np.recarray:
    options = np.zeros(1, OPTIONS).view(np.recarray)
    options[0].rollout, options[0].temperature = POLICY_KINDS[rollout], temperature
    return options


@functools.lru_cache(maxsize=1)
def search_work() -> np.recarray:
    """The search's work record, made once a process (a search leaves in it only its action list, scratch
    positions and the uniform block, which each search begins afresh)."""
    return new_workspace()


@njit(cache=True)
def search(real, world, tables, weights, options, iterations, exploration, rollout_depth, bits, work, tree, path,
           values, untried) -> np.int64:
    """The search's decision at the one-position array `real`: the key (`action_key`) of the action chosen.
    `world` is a scratch one-position array; `tables`, `weights`, `options` and `work` one-element arrays (a
    record passed from Python would be a copy, its uniform block lost), the rest as `ismcts` asks."""
    setting = (tables[0], weights[0], options[0])
    return ismcts(real, world, setting, np.int64(real[0].n), iterations, exploration, rollout_depth, bits, work[0],
                  tree, path, values, untried, this.determinize, this.legal_actions, this.action_key,
                  this.apply_action, this.is_over, this.to_move, this.final_values, this.evaluate, this.rollout)


@njit(cache=True)
def chosen_index(real, tables, work, key) -> np.int64:
    """Where the action of `key` stands in the legal actions of `real` (the object engine's order)."""
    for i in range(list_actions(real[0], tables[0], work[0])):
        if key_of(work[0].actions[i]) == key:
            return np.int64(i)
    return np.int64(-1)


@njit(cache=True)
def determinize(real, world, setting, observer, bits) -> None:
    """`TyrosState.determinize` of `real` for `observer` into `world`: the unseen cards and tiles dealt afresh,
    everything public copied as it is (the board, the open offer, the trades made this round)."""
    world[0] = real[0]
    pos, rules = world[0], setting[0]
    deal_unseen_cards(pos, rules, observer, bits)
    deal_unseen_tiles(pos, rules, observer, bits)


@njit(cache=True)
def deal_unseen_cards(pos, rules, observer, bits) -> None:
    """The cards `observer` has not seen, by kind, shuffled and dealt to the other players by their hand sizes
    (an open offer's cards stay with the players showing them), the rest the draw pile."""
    unseen = np.empty(CARD_KINDS, np.int64)
    for k in range(CARD_KINDS):
        unseen[k] = (rules.wild_cards if k == WILD else rules.cards_per_colour) - pos.discard[k]
    known = np.zeros((pos.n, CARD_KINDS), np.int64)  # what the observer knows of each hand
    known[observer] = pos.hands[observer]
    if pos.phase == P_OFFER or pos.phase == P_PARTNER:  # the offer's cards are on the table
        if pos.actor != observer:
            known[pos.actor, pos.offer_give_kind] += pos.offer_give
        for i in range(pos.accepted_count):
            if pos.accepted[i] != observer:
                known[pos.accepted[i], pos.offer_get_kind] += pos.offer_get
    for p in range(pos.n):
        for k in range(CARD_KINDS):
            unseen[k] -= known[p, k]
    pool = np.empty(unseen.sum(), np.int64)  # in the canonical order: by kind
    size = 0
    for k in range(CARD_KINDS):
        for _ in range(unseen[k]):
            pool[size] = k
            size += 1
    shuffle(bits, pool, np.int64(size))  # rng.permutation's swaps, made on the cards
    dealt = 0
    for p in range(pos.n):
        if p == observer:
            continue
        held = 0
        for k in range(CARD_KINDS):
            held += pos.hands[p, k]
        for k in range(CARD_KINDS):
            pos.hands[p, k] = known[p, k]
            held -= known[p, k]
        for i in range(dealt, dealt + held):
            pos.hands[p, pool[i]] += 1
        dealt += held
    for k in range(CARD_KINDS):
        pos.deck[k] = 0
    for i in range(dealt, size):
        pos.deck[pool[i]] += 1


@njit(cache=True)
def deal_unseen_tiles(pos, rules, observer, bits) -> None:
    """The tiles with no chip on their space and not in `observer`'s hand, in the board's order, shuffled and
    dealt to the other players by their tile counts (each hand sorted), the rest the tile pile, its top first."""
    pool = np.empty(rules.tile_total, np.int64)
    size = 0
    for i in range(rules.tile_total):
        tile = rules.tiles[i]
        if pos.chips[tile] < 0 and not in_hand(pos, observer, tile):
            pool[size] = tile
            size += 1
    shuffle(bits, pool, np.int64(size))
    dealt = 0
    for p in range(pos.n):
        if p == observer:
            continue
        held = pos.tile_hand_size[p]
        pos.tile_hands[p, :held] = np.sort(pool[dealt:dealt + held])
        dealt += held
    pos.tile_head, pos.tile_count = 0, size - dealt
    for i in range(size - dealt):
        pos.tile_pile[i] = pool[dealt + i]


@njit(cache=True)
def in_hand(pos, p, tile) -> bool:
    for i in range(pos.tile_hand_size[p]):
        if pos.tile_hands[p, i] == tile:
            return True
    return False


@njit(cache=True)
def legal_actions(world, setting, work) -> np.int64:
    return np.int64(list_actions(world[0], setting[0], work))


@njit(cache=True)
def key_of(row) -> np.int64:
    """An action row (type, a, b, c, d) as one number: the type in the low 4 bits, then the fields a, b, c, d of
    SMALL_FIELD bits each (plus one: a move's toll is -1 for none); a packed multiset of cards (field a of a swap,
    a buy and a keep, b of a ship: up to 40 bits) from bit PACKED_FIELD, the one small field before it."""
    kind = row[0]
    if kind == SHIP:  # space, cards of free choice
        return np.int64(kind | (row[1] << 4) | (row[2] << PACKED_FIELD))
    if kind == SWAP or kind == BUY or kind == KEEP_CARDS:  # (given, how many), (given, kind taken), (kept)
        return np.int64(kind | (row[2] << 4) | (row[1] << PACKED_FIELD))
    key = np.int64(kind)
    for f in range(1, 5):
        key |= (row[f] + 1) << (4 + SMALL_FIELD * (f - 1))
    return key


@njit(cache=True)
def action_key(work, i) -> np.int64:
    return key_of(work.actions[i])


@njit(cache=True)
def apply_action(world, setting, work, i, bits) -> None:
    play(world[0], setting[0], work, bits, i)


@njit(cache=True)
def is_over(world) -> bool:
    return world[0].phase == P_OVER


@njit(cache=True)
def to_move(world) -> np.int64:
    return np.int64(current_player(world[0]))


@njit(cache=True)
def final_values(world, setting, work, out) -> None:
    """Win shares of a finished game: the highest total wins, on a tie the most points in the largest empire,
    still tied: shared."""
    pos = world[0]
    score_game(pos, setting[0], work)
    scores = work.scores
    best_total, best_largest = np.int64(-1), np.int64(-1)
    for p in range(pos.n):
        total, largest = scores[p, TOTAL], scores[p, LARGEST_POINTS]
        if total > best_total or (total == best_total and largest > best_largest):
            best_total, best_largest = total, largest
    winners = 0
    for p in range(pos.n):
        winners += scores[p, TOTAL] == best_total and scores[p, LARGEST_POINTS] == best_largest
    for p in range(pos.n):
        out[p] = 1.0 / winners if scores[p, TOTAL] == best_total and scores[p, LARGEST_POINTS] == best_largest else 0.0


@njit(cache=True)
def evaluate(world, setting, work, out) -> None:
    """`IsmctsPolicy.evaluate`: every player's planner value (`PlannerPolicy.values`) as win shares, a softmax with
    `temperature` points."""
    pos, rules, weights, options = world[0], setting[0], setting[1], setting[2]
    score_game(pos, rules, work)
    top = -np.inf
    for p in range(pos.n):
        out[p] = work.scores[p, TOTAL] + prospects(weights, pos, rules, work, p)
        top = max(top, out[p])
    total = 0.0
    for p in range(pos.n):
        out[p] = np.exp((out[p] - top) / options.temperature)
        total += out[p]
    for p in range(pos.n):
        out[p] /= total


@njit(cache=True)
def rollout(world, setting, bits, work, n) -> np.int64:
    """The rollout policy's choice (`compiled_policies.decide`, which lists the actions again, as the object
    policies do)."""
    return np.int64(decide(setting[2].rollout, setting[1], world[0], setting[0], bits, work))
