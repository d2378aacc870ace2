"""Tiny Epic Dinosaurs' information-set search in compiled code: `policies.IsmctsPolicy`, decision for decision.

The search itself is `tyrsim.core.compiled.search.ismcts`; this module gives it the game's functions, each the
compiled form of what the Python search does through the object engine:

- `determinize`: `TinyEpicDinosaursState.determinize`. The contracts not seen (not public, not fulfilled, not the
  observer's private one) and the research cards not seen (not face up, not discarded, not held, not drawn by the
  observer) are listed in their data files' order and dealt by `rng.permutation`'s swaps to the same places: the
  other players' private contracts (in seat order, each the last of the deal) and the contract deck; the cards
  another player is choosing among, then the research deck. Only which cards are seen and how many each place
  holds are read, never the hidden ones. The chance of play after it (hunt dice, reshuffles) comes from the
  search's own generator, as the object engine's determinization draws it (the ruling in `game.py`).
- `legal_actions`, `apply_action`: the compiled engine's (`compiled.options`, `compiled.answer`); at the root
  decision (the position of `root_actions` decisions) with root pruning only the actions `offered`, the guide's best
  `candidates` (`IsmctsPolicy.offered`; the guide is `policies.GUIDE`, hunter with the tuned weights
  `weights.TUNED_HUNTER`, in the work record's `hunter_weights`), as `search.RootCandidates` offers them.
  `action_number` numbers an action as the object engine's actions compare: they are named tuples, equal when what
  they hold is equal, whatever their type (`PlaceFence(e)` equals `LoseFence(e)`, `PickResearch(x)` equals
  `LoseDinosaur(x)` for a unique dinosaur's card), so names are numbered by one sorted list of every name (RULES'
  `*_name`); an enclosure is its first space and size, a feeding plan its (kind, number fed) pairs, numbered as met
  (`feed_number`).
- `final_values`: the winner (highest score, a tie to the tied player earliest in turn order) takes 1.
- `evaluate`: `IsmctsPolicy.evaluate`, each player's prospect (`forecast`, the rest of the round played out on
  the work record's scratch position `ahead` as `forecast.py` plays it) against the best other one's, logistic.
- `rollout`: the random, greedy or hunter policy (`compiled_policies.choose`, the object policy's weights: the
  `hunter` rollout is `policies.GUIDE`'s, the tuned weights).

`choose` is the search as `IsmctsPolicy.compiled_choice` calls it; it returns None (the Python search then
decides) where the compiled engine does not play the rules (`compiled.supported`) or the player count. Every
option of `IsmctsPolicy` is played.
"""

from __future__ import annotations

import functools
import sys

import numpy as np
from numba import njit

from tyrsim.core.compiled.chance import shuffle, uniform_block
from tyrsim.core.compiled.forms import weights_of
from tyrsim.core.compiled.numba_cache import keep_fresh
from tyrsim.core.compiled.search import MAX_PLAYERS as SEARCH_PLAYERS
from tyrsim.core.compiled.search import ismcts, room
from tyrsim.games.tiny_epic_dinosaurs.compiled import (
    ARRANGE,
    BREED,
    E_POINTS_PER,
    EITHER,
    EMPTY,
    ENCLOSE,
    ENCLOSE_PROMPT,
    END_ROUND,
    ESCAPE_AS,
    FEED,
    FEED_PLAN,
    FEED_PROMPT,
    HERBIVORE,
    LEAF,
    LOSE_DINOSAUR,
    LOSE_FENCE,
    MAX_ACTIONS,
    MAX_CELLS,
    MAX_CONTRACTS,
    MAX_FEEDS,
    MAX_PLAYERS,
    MAX_RESEARCH,
    MEAT,
    MOVE_FENCE,
    NO_PROMPT,
    NONE,
    PICK,
    PICK_RESEARCH,
    PLACE,
    PLACE_FENCE,
    PLACE_FENCE_PROMPT,
    answer,
    contents,
    diet,
    eat,
    enclosure_choices,
    enclosures,
    escaped_clear,
    feedings,
    herd_on_ranch,
    house_newborns,
    lay_out,
    lowest,
    new_position,
    new_workspace,
    newborns_at_home,
    options,
    popcount,
    position_of,
    remove,
    rule_tables,
    score_parts,
    supported,
    tie_first,
    to_lay_out,
)
from tyrsim.games.tiny_epic_dinosaurs.compiled import is_over as game_over
from tyrsim.games.tiny_epic_dinosaurs.compiled_policies import action_values, compiled_form, fence_set_quality
from tyrsim.games.tiny_epic_dinosaurs.compiled_policies import choose as policy_choice
from tyrsim.games.tiny_epic_dinosaurs.rules import Rules
from tyrsim.games.tiny_epic_dinosaurs.weights import TUNED_HUNTER, GreedyWeights

keep_fresh(__file__)
# the search names its functions through the module: numba caches a function handed functions of its own module
# only so (named as plain globals, they count as dynamic globals and the search compiles afresh every process)
this = sys.modules[__name__]

# an action's number: its shape (what its named tuple holds) times SHAPE, plus what it holds
SHAPE = np.int64(1) << 44
NOTHING, ONE_NAME, TWO_NAMES, ENCLOSURE, PLACEMENT, FEEDING = (np.int64(k) * SHAPE for k in range(6))
GROUP_SIZES = 64  # more than a placement's ranchers can be


def choose(policy, state, rng: np.random.Generator):
    """The decision of `policy` (an `IsmctsPolicy`) at the object engine's `state` made by the compiled search,
    drawing what the Python search (`IsmctsPolicy.reference_choice`) draws from `rng`; None where the compiled
    engine does not play the rules or the player count."""
    players = len(state.players)
    if players > min(MAX_PLAYERS, SEARCH_PLAYERS) or supported(state.rules, players) is not None:
        return None
    tables = rules_of(state.rules, players)
    work = search_work(type(policy), policy.rollout, policy.resource_value, policy.rancher_value,
                       policy.breed_value, policy.scale)
    real = position_of(state).view(np.recarray)
    record = work[0]
    record.pruning, record.root_actions = 0, real[0]["actions"]
    n = hunter_values(real, tables, work)
    if policy.prunes(n):
        offered = policy.offered(record.values[:n])
        if len(offered) == 1:
            return state.legal_actions()[offered[0]]
        record.offered[:n] = 0
        record.offered[offered] = 1
        record.pruning = 1
    tree, path, values, untried = room(policy.iterations, MAX_ACTIONS)
    with uniform_block(rng, record):
        key = search(real, new_position(), tables, np.int64(policy.iterations), policy.exploration,
                     np.int64(policy.rollout_depth), rng.bit_generator, work, tree, path, values, untried)
    record.pruning = 0  # the chosen action's place among all the legal actions
    return state.legal_actions()[chosen_index(real, tables, work, key)]


@functools.lru_cache(maxsize=8)
def rules_of(rules: Rules, players: int) -> np.recarray:
    """The rule tables of one rule set and player count, made once a process."""
    return rule_tables(rules, players)


@functools.lru_cache(maxsize=8)
def search_work(search_policy: type, rollout: str, resource_value: float, rancher_value: float, breed_value: float,
                scale: float) -> np.recarray:
    """The work record of the options of a policy of the class `search_policy`, made once a process (a search
    leaves in it only its action list, scratch space, root offer and the uniform block, which each search sets
    afresh): the compiled form of its rollout policy (one of its `rollouts`) and the guide's weights."""
    work = new_workspace()
    record = work[0]
    kind, weights = compiled_form(search_policy.rollouts[rollout]())
    record.rollout, record.rollout_weights = kind, weights[0]
    # the guide: hunter with the tuned weights (the ruling)
    record.hunter_weights = weights_of(TUNED_HUNTER, GreedyWeights)[0]
    record.resource_value, record.rancher_value, record.breed_value = resource_value, rancher_value, breed_value
    record.scale = scale
    return work


@njit(cache=True)
def hunter_values(real, tables, work) -> np.int64:
    """The legal actions of the one-position array `real` listed in `work` with the guide's value of each
    (`work.values`, as `GUIDE.values`: hunter with the tuned weights); how many."""
    n = legal_actions(real, tables[0], work[0])
    action_values(work[0].hunter_weights, real[0], tables[0], work[0], n)
    return n


@njit(cache=True)
def search(real, world, tables, iterations, exploration, rollout_depth, bits, work, tree, path, values,
           untried) -> np.int64:
    """The search's decision at the one-position array `real` under the rule tables `tables` (`rule_tables`): the
    key (`action_key`) of the action chosen. `world` is a scratch one-position array, `work` a one-element
    WORKSPACE array (a record passed from Python would be a copy, its uniform block lost), the rest as `ismcts`
    asks. The feeding plans are numbered afresh."""
    work[0].feed_count = 0
    return ismcts(real, world, tables[0], np.int64(tables[0].players), iterations, exploration, rollout_depth, bits,
                  work[0], tree, path, values, untried, this.determinize, this.legal_actions, this.action_key,
                  this.apply_action, this.is_over, this.to_move, this.final_values, this.evaluate, this.rollout)


@njit(cache=True)
def chosen_index(real, tables, work, key) -> np.int64:
    """Where the action numbered `key` stands in the legal actions of `real` (the object engine's order)."""
    for i in range(legal_actions(real, tables[0], work[0])):
        if action_key(work[0], i) == key:
            return np.int64(i)
    return np.int64(-1)


# --- determinization ---------------------------------------------------------------------------------------------


@njit(cache=True)
def determinize(real, world, rules, observer, bits) -> None:
    """`TinyEpicDinosaursState.determinize` of `real` for `observer` into `world`."""
    world[0] = real[0]
    pos = world[0]
    deal_unseen_contracts(pos, rules, observer, bits)
    deal_unseen_research(pos, rules, observer, bits)


@njit(cache=True)
def deal_unseen_contracts(pos, rules, observer, bits) -> None:
    """The contracts the observer has not seen (in the data's order, dealt by `rng.permutation`'s swaps): the other
    players' private contracts (seat by seat, each the last of the deal), the rest the contract deck."""
    seen = np.zeros(MAX_CONTRACTS, np.bool_)
    for i in range(pos.public_size):
        seen[pos.public[i]] = True
    for p in range(rules.players):
        for i in range(pos.taken_size[p]):
            seen[pos.taken[p, i]] = True
    if pos.private[observer] != NONE:
        seen[pos.private[observer]] = True
    unseen = np.empty(MAX_CONTRACTS, np.int64)
    n = np.int64(0)
    for c in range(rules.contracts):
        if not seen[c]:
            unseen[n] = c
            n += 1
    shuffle(bits, unseen, n)
    for p in range(rules.players):
        if p != observer and pos.private[p] != NONE:
            n -= 1
            pos.private[p] = unseen[n]
    for i in range(n):
        pos.contract_deck[i] = unseen[i]
    pos.contract_deck_size = n


@njit(cache=True)
def deal_unseen_research(pos, rules, observer, bits) -> None:
    """The research cards the observer has not seen (in the data's order, dealt by `rng.permutation`'s swaps):
    the cards another player is choosing among (each the last of the deal), the rest the research deck."""
    seen = np.zeros(MAX_RESEARCH, np.bool_)
    for i in range(pos.display_size):
        seen[pos.display[i]] = True
    for i in range(pos.discard_size):
        seen[pos.discard[i]] = True
    for p in range(rules.players):
        for i in range(pos.research_size[p]):
            seen[pos.research[p, i]] = True
    drawn_by_other = pos.prompt == PICK_RESEARCH and pos.prompt_player != observer
    if pos.prompt == PICK_RESEARCH and not drawn_by_other:
        for i in range(pos.drawn_size):
            seen[pos.drawn[i]] = True
    unseen = np.empty(MAX_RESEARCH, np.int64)
    n = np.int64(0)
    for c in range(rules.cards):
        if not seen[c]:
            unseen[n] = c
            n += 1
    shuffle(bits, unseen, n)
    if drawn_by_other:
        for i in range(pos.drawn_size):
            n -= 1
            pos.drawn[i] = unseen[n]
    for i in range(n):
        pos.research_deck[i] = unseen[i]
    pos.research_deck_size = n


# --- the actions -------------------------------------------------------------------------------------------------


@njit(cache=True)
def legal_actions(world, rules, work) -> np.int64:
    """The legal actions as rows into `work.actions` (at the pruned root only those offered), and each one's
    number into `work.keys`."""
    pos = world[0]
    n = options(pos, rules, work)
    if work.pruning and pos.actions == work.root_actions:
        m = 0
        for i in range(n):
            if work.offered[i]:
                for c in range(6):
                    work.actions[m, c] = work.actions[i, c]
                m += 1
        n = m
        work.count = m
    for i in range(n):
        work.keys[i] = action_number(pos, rules, work, i)
    return np.int64(n)


@njit(cache=True)
def action_number(pos, rules, work, i) -> np.int64:
    """The i-th listed action as one number, equal for actions the object engine's named tuples find equal: by
    shape and what they hold (names by their place in the sorted list of names)."""
    row = work.actions[i]
    kind, a, b = row[0], row[1], row[2]
    if kind == PLACE:  # (space, action, ranchers, owner, choice, extra): the space gives the action
        return PLACEMENT + (((a * GROUP_SIZES + b) * 2 + row[3]) * (MAX_CONTRACTS + 1) + row[4] + 1) * 2 + row[5]
    if kind == PICK:
        return ONE_NAME + (rules.draw_name if a == NONE else rules.card_name[a])
    if kind == PLACE_FENCE or kind == LOSE_FENCE:
        return ONE_NAME + rules.edge_name[a]
    if kind == LOSE_DINOSAUR:
        return ONE_NAME + rules.kind_name[a]
    if kind == ESCAPE_AS:
        return ONE_NAME + (rules.herbivore_name if a == HERBIVORE else rules.carnivore_name)
    if kind == MOVE_FENCE:
        source = rules.holding_name if a == NONE else rules.edge_name[a]
        return TWO_NAMES + source * rules.names + rules.edge_name[b]
    if kind == ENCLOSE:  # (its first space, its size, the kind)
        cells = work.enclosures[a]
        return ENCLOSURE + (lowest(cells) * (MAX_CELLS + 1) + popcount(cells)) * rules.names + rules.kind_name[b]
    if kind == FEED_PLAN:
        return FEEDING + feed_number(work, a)
    return NOTHING  # StopRearranging, the empty tuple


@njit(cache=True)
def feed_number(work, plan) -> np.int64:
    """The number of feeding plan `plan` (of work.plans, over the herd work.herd_order), as (kind, number fed)
    pairs for the kinds fed in the herd's order: the first plan met with these pairs in this search."""
    new = work.feed_count
    if new == MAX_FEEDS:
        raise RuntimeError("tiny-epic-dinosaurs compiled search: more feeding plans than it numbers")
    pairs = 0
    for j in range(work.herd_size):
        if work.plans[plan, j]:
            work.feeds[new, pairs, 0], work.feeds[new, pairs, 1] = work.herd_order[j], work.plans[plan, j]
            pairs += 1
    for f in range(new):
        if work.feed_pairs[f] == pairs:
            same = True
            for j in range(pairs):
                if work.feeds[f, j, 0] != work.feeds[new, j, 0] or work.feeds[f, j, 1] != work.feeds[new, j, 1]:
                    same = False
                    break
            if same:
                return np.int64(f)
    work.feed_pairs[new] = pairs
    work.feed_count = new + 1
    return np.int64(new)


@njit(cache=True)
def action_key(work, i) -> np.int64:
    return work.keys[i]


@njit(cache=True)
def apply_action(world, rules, work, i, bits) -> None:
    answer(world[0], rules, bits, work, i)


@njit(cache=True)
def is_over(world) -> bool:
    return game_over(world[0])


@njit(cache=True)
def to_move(world) -> np.int64:
    return np.int64(world[0].prompt_player)


@njit(cache=True)
def final_values(world, rules, work, out) -> None:
    """The winner takes 1: the highest score, a tie to the tied player earliest in turn order (rule `tie_break`)."""
    pos = world[0]
    n = rules.players
    first = tie_first(pos, rules)
    best, winner = np.int64(-1), first
    for i in range(n):
        p = (first + i) % n
        score = score_parts(pos, rules, p, work.parts)
        if score > best:
            best, winner = score, p
    out[winner] = 1.0


@njit(cache=True)
def rollout(world, rules, bits, work, n) -> np.int64:
    """The rollout policy's choice among the n listed actions (`compiled_policies.choose`)."""
    return np.int64(policy_choice(work.rollout, work.rollout_weights, world[0], rules, bits, work))


# --- the leaf evaluation -----------------------------------------------------------------------------------------


@njit(cache=True)
def evaluate(world, rules, work, out) -> None:
    """`IsmctsPolicy.evaluate`: each player's win chance from their prospect against the best other one's,
    1 / (1 + exp(-2 (own - best other) / scale))."""
    pos = world[0]
    n = rules.players
    work.ahead[0] = pos
    for seat in range(n):
        work.prospects[seat] = prospect(pos, work.ahead[0], rules, work, seat)
    for seat in range(n):
        best_other = -np.inf
        for other in range(n):
            if other != seat:
                best_other = max(best_other, work.prospects[other])
        out[seat] = 1.0 / (1.0 + np.exp(-2.0 * (work.prospects[seat] - best_other) / work.scale))


@njit(cache=True)
def prospect(pos, ahead, rules, work, seat) -> float:
    """`IsmctsPolicy.prospect`: the points at the end of this round (`forecast`), plus `resource_value` per resource
    after feeding, `rancher_value` per rancher still to place this round, `breed_value` per breeding pair for each
    round still to come."""
    points, food, supply, pairs = forecast(pos, ahead, rules, work, seat)
    value = points + work.resource_value * (food + supply)
    value += work.rancher_value * (pos.ranchers_left[seat] + pos.owner_left[seat])
    return value + work.breed_value * pairs * (rules.rounds - pos.round_number)


@njit(cache=True)
def steps_left(pos, seat):
    """`TinyEpicDinosaursState.steps_left`: whether `seat` has still to arrange, feed and breed this round."""
    end, arrange, feed, breed = False, False, False, False
    for i in range(pos.steps_size):
        step, who = pos.steps[i, 0], pos.steps[i, 1]
        end = end or step == END_ROUND
        if who == seat:
            arrange = arrange or step == ARRANGE
            feed = feed or step == FEED
            breed = breed or step == BREED
    if not end:
        return True, True, True
    mine = pos.prompt != NO_PROMPT and pos.prompt_player == seat
    arrange = arrange or (mine and (pos.prompt == PLACE_FENCE_PROMPT or pos.prompt == ENCLOSE_PROMPT))
    feed = feed or (mine and pos.prompt == FEED_PROMPT)
    return arrange, feed, breed


@njit(cache=True)
def forecast(pos, ahead, rules, work, seat):
    """`forecast.forecast` of `seat` in `pos`, played out on `ahead` (a copy of `pos`; only the seat's ranch, food
    and the layout's prompt data change): (points, food left, supply, breeding groups)."""
    arrange, feed, breed = steps_left(pos, seat)
    for k in range(rules.kinds):
        work.gone[k] = 0
    if arrange:
        if pos.holding_fences[seat]:
            to_lay_out(ahead, rules, seat)
            ahead.fences[seat] = fenced(rules, work, pos.fences[seat], pos.holding_fences[seat], ahead.herd)
        lay_out_as_hunter(ahead, rules, work, seat)
    if feed:
        feed_as_hunter(ahead, rules, work, seat)
    if not pos.paid_carnivore[seat]:
        carnivore_penalty(ahead, rules, work, seat)
    if breed:
        breed_in_forecast(ahead, pos, rules, work, seat)
    pairs = np.int64(0)
    for e in range(enclosures(ahead, rules, work, seat)):
        kind, count = contents(ahead, rules, seat, work.enclosures[e])
        if kind != NONE and not rules.unique[kind]:
            pairs += count // rules.breed_group
    return (forecast_points(ahead, pos, rules, work, seat), max(ahead.resources[seat, 0], 0)
            + max(ahead.resources[seat, 1], 0), pos.resources[seat, 2], pairs)


@njit(cache=True)
def fenced(rules, work, bits, fences, herd) -> np.int64:
    """`forecast._fenced`: the fence set after `fences` fences from Holding, each on the free slot (the first of the
    best) where the enclosures would hold the most of the herd (`herd`: basic kinds' counts), as hunter values it
    with no breeding bonus (`fence_set_quality`, 0.5 a breeding group, whatever the guide's `breed_bonus`)."""
    for _ in range(fences):
        best, best_bits = -np.inf, np.int64(-1)
        for i in range(rules.slot_count):
            edge = rules.slots[i]
            if not (bits >> edge) & 1:
                fenced_in = bits | (np.int64(1) << edge)
                quality = fence_set_quality(0.5, rules, work, herd, fenced_in)
                if quality > best:
                    best, best_bits = quality, fenced_in
        if best_bits < 0:
            break
        bits = best_bits
    return bits


@njit(cache=True)
def lay_out_as_hunter(pos, rules, work, seat) -> None:
    """`forecast._lay_out`: the enclosures given out as hunter gives them (`give_out_as_hunter`); then the layout;
    the kinds that escape into work.gone."""
    to_lay_out(pos, rules, seat)
    give_out_as_hunter(pos, rules, work, seat)
    pos.holding_size[seat] = 0
    lay_out(pos, rules, work, seat)
    for i in range(work.escaped_size):
        work.gone[work.escaped_order[i]] = 1
    escaped_clear(work)


@njit(cache=True)
def give_out_as_hunter(pos, rules, work, seat) -> None:
    """`forecast._give_out`: each free enclosure (pos.assignment NONE) in turn to the choice (`enclosure_choices`)
    putting the most points in it (the first of the best), while dinosaurs (pos.unplaced) lack room."""
    count = enclosures(pos, rules, work, seat)
    while True:
        wanting, free = False, False
        for i in range(pos.herd_kinds_size):
            if pos.unplaced[pos.herd_kinds[i]]:
                wanting = True
        for e in range(count):
            if pos.assignment[e] == NONE:
                free = True
        if not (wanting and free):
            break
        best, best_value = 0, -np.inf
        for i in range(enclosure_choices(pos, rules, work, seat)):
            e, kind = work.choices[i, 0], work.choices[i, 1]
            size = popcount(work.enclosures[e])
            placed = min(pos.unplaced[kind], size)
            value = placed * rules.points[kind] - 0.05 * (size - placed)
            if value > best_value:
                best, best_value = i, value
        e, kind = work.choices[best, 0], work.choices[best, 1]
        pos.assignment[e] = kind
        pos.assigned[pos.assigned_size] = e
        pos.assigned_size += 1
        pos.unplaced[kind] = max(0, pos.unplaced[kind] - popcount(work.enclosures[e]))


@njit(cache=True)
def feed_as_hunter(pos, rules, work, seat) -> None:
    """The forecast's Phase 5: the herd eats; with too little food, the plan feeding the most points (the first of
    the best) and the unfed leave the ranch (into work.gone)."""
    size = herd_on_ranch(pos, rules, work, seat)
    leaf, meat, either = np.int64(0), np.int64(0), np.int64(0)
    for j in range(size):
        kind, n = work.herd_order[j], work.on_ranch[work.herd_order[j]]
        leaf += diet(pos, rules, seat, kind, LEAF) * n
        meat += diet(pos, rules, seat, kind, MEAT) * n
        either += diet(pos, rules, seat, kind, EITHER) * n
    have_leaf, have_meat = pos.resources[seat, 0], pos.resources[seat, 1]
    if not (leaf <= have_leaf and meat <= have_meat and either <= have_leaf - leaf + have_meat - meat):
        best, best_points = 0, np.int64(-1)
        for i in range(feedings(pos, rules, work, seat)):
            points = np.int64(0)
            for j in range(work.herd_size):
                points += rules.points[work.herd_order[j]] * work.plans[i, j]
            if points > best_points:
                best, best_points = i, points
        leaf, meat, either = np.int64(0), np.int64(0), np.int64(0)
        for j in range(work.herd_size):
            kind, fed = work.herd_order[j], np.int64(work.plans[best, j])
            leaf += diet(pos, rules, seat, kind, LEAF) * fed
            meat += diet(pos, rules, seat, kind, MEAT) * fed
            either += diet(pos, rules, seat, kind, EITHER) * fed
            if work.on_ranch[kind] > fed:
                remove(pos, rules, work, seat, kind, work.on_ranch[kind] - fed)
                work.gone[kind] = 1
    eat(pos, rules, seat, leaf, meat, either)


@njit(cache=True)
def carnivore_penalty(pos, rules, work, seat) -> None:
    """The forecast's carnivore penalty, when a carnivore (or omnivore) escaped and it is not paid this round: the
    dinosaur worth the fewest points leaves (by name among equals)."""
    due = False
    for k in range(rules.kinds):
        if work.gone[k] and rules.group[k] != HERBIVORE:
            due = True
    if not due:
        return
    cheapest = NONE
    for c in range(rules.cell_count):
        k = pos.cells[seat, c]
        if k != EMPTY and (cheapest == NONE or rules.points[k] < rules.points[cheapest]
                           or (rules.points[k] == rules.points[cheapest]
                               and rules.kind_name[k] < rules.kind_name[cheapest])):
            cheapest = k
    if cheapest != NONE:
        remove(pos, rules, work, seat, cheapest, np.int64(1))


@njit(cache=True)
def breed_in_forecast(ahead, pos, rules, work, seat) -> None:
    """`forecast._breed`: each kind's newborns (`Ranch.breeding`), as many as the supply holds, into their kind's
    enclosures, then into the empty ones as hunter gives them out; those without room are not counted."""
    born, order = work.born, work.born_order
    born[:] = 0
    kinds = 0
    for e in range(enclosures(ahead, rules, work, seat)):
        kind, held = contents(ahead, rules, seat, work.enclosures[e])
        if kind != NONE and not rules.unique[kind] and held // rules.breed_group:
            if born[kind] == 0:
                order[kinds] = kind
                kinds += 1
            born[kind] += held // rules.breed_group
    ahead.unplaced[:] = 0
    for i in range(kinds):
        ahead.herd_kinds[i] = order[i]
        ahead.unplaced[order[i]] = min(born[order[i]], pos.supply[order[i]])
    ahead.herd_kinds_size = kinds
    newborns_at_home(ahead, rules, work, seat)
    give_out_as_hunter(ahead, rules, work, seat)
    house_newborns(ahead, rules, work, seat)


@njit(cache=True)
def forecast_points(ahead, pos, rules, work, seat) -> np.int64:
    """The forecast's points: contracts, the dinosaurs on the ranch, the research cards (but the cards of escaped
    unique dinosaurs, which leave with their abilities)."""
    points = np.int64(0)
    for i in range(pos.taken_size[seat]):
        points += rules.contract_points[pos.taken[seat, i]]
    herd_on_ranch(ahead, rules, work, seat)
    for k in range(rules.kinds):
        points += rules.points[k] * work.on_ranch[k]
    for i in range(pos.research_size[seat]):
        card = pos.research[seat, i]
        escaped = False
        for k in range(rules.kinds):
            if work.gone[k] and rules.kind_name[k] == rules.card_name[card]:
                escaped = True
        if escaped:
            continue
        if rules.card_kind[card] == NONE:
            points += rules.card_points[card]
        if rules.effect[card] == E_POINTS_PER:
            points += rules.effect_amount[card] * work.on_ranch[rules.effect_kind[card]]
    return points
