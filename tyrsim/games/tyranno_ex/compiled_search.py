"""Tyranno Ex's information-set search in compiled code: `policies.IsmctsPolicy`, decision for decision.

The search itself is `tyrsim.core.compiled.search.ismcts`; this module gives it the game's functions, each the
compiled form of what the Python search does through the object engine. The `rules` they take is the triple (rule
tables, the greedy policy's tables, the combat odds): the one-element arrays of `compiled.rule_tables` and
`compiled_policies.policy_tables`, and `heuristics.chance_table`.

- `determinize`: `TyrannoExState.determinize`, draw for draw. The cards nobody has seen (the deck less the cards on
  the board, out of the game and face up on the piles), in the deck's order, shuffled by `rng.permutation`'s swaps,
  go to the cards a 3-player game sets aside, then under the face-up cards pile by pile; then the chips the
  observer has not seen (its tray, the current chips, the face-down chips everyone saw or it laid) become the bag
  and are drawn from it into the hidden places: per space the chips each other player laid since the space was
  last turned face up, then the other trays. Only how many chips and cards each hidden place holds is read.
- `legal_actions`: the compiled engine's, cut to the candidates (`IsmctsPolicy.candidates`): where a decision
  offers more than `width` actions, passing, not fighting or keeping the "5" marker, the guide's trade, and the
  guide's best chip settings or challenges by its values (`compiled_policies.setting_values`, `challenge_value`),
  ties to the first listed; in the game's order. `action_number` numbers an action as the object engine's actions
  compare (frozen records of their fields: a card placement by its pile, spot and card; a tie's pick by its space
  and symbol).
- `final_values`: the win shares (each of the tied leaders the same share), `evaluate`: `IsmctsPolicy.evaluate`,
  the players' `standing` through a softmax of `temperature`; `rollout`: the random, greedy or builder policy
  (`compiled_policies.decision`), over every legal action, as `_OnGame` plays the determinization itself.

`choose` is the search as `IsmctsPolicy.compiled_choice` calls it; it returns None (the Python search then
decides) where the compiled engine does not play the rules (`compiled.supported`). Every option of
`IsmctsPolicy` and every player count (2 to 4) is played.
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
from tyrsim.games.tyranno_ex.board import PILES
from tyrsim.games.tyranno_ex.compiled import (
    CHALLENGE,
    CHOOSE_SYMBOL,
    KEEP,
    MAX_DECK,
    NO_CARD,
    NO_CHALLENGE,
    OVER,
    PASS_TURN,
    PLACE_CARD,
    SET_CHIPS,
    SOURCES,
    TRADE,
    USE_FIVE,
    carry_out,
    draw_chips,
    new_position,
    position_of,
    rule_tables,
    supported,
)
from tyrsim.games.tyranno_ex.compiled import legal_actions as game_actions
from tyrsim.games.tyranno_ex.compiled_policies import (
    ACTION_ROWS,
    challenge_value,
    compiled_form,
    decision,
    greedy_trade,
    new_workspace,
    policy_tables,
    setting_values,
)
from tyrsim.games.tyranno_ex.environment import NUM_SYMBOLS, SPACES
from tyrsim.games.tyranno_ex.heuristics import chance_table
from tyrsim.games.tyranno_ex.weights import TUNED_GREEDY, GreedyWeights

keep_fresh(__file__)
# the search names its functions through the module: numba caches a function handed functions of its own module
# only so (named as plain globals, they count as dynamic globals and the search compiles afresh every process)
this = sys.modules[__name__]

# an action's number: its kind times KIND, plus what it holds (each part below 256, a setting's or trade's index
# below KIND)
KIND = np.int64(1) << 32


def choose(policy, state, rng: np.random.Generator):
    """The decision of `policy` (an `IsmctsPolicy`) at the object engine's `state` made by the compiled search,
    drawing what the Python search (`IsmctsPolicy.reference_choice`) draws from `rng`; None where the compiled
    engine does not play the rules."""
    if supported(state.rules) is not None:
        return None
    tables, ptables, chances = rule_tables(state.rules), policy_tables(state.rules), chance_table(state.rules)
    work = search_work(type(policy), policy.rollout, policy.width, policy.temperature)
    real = position_of(state).view(np.recarray)
    tree, path, values, untried = room(policy.iterations, ACTION_ROWS)
    with uniform_block(rng, work[0]):
        key = search(real, new_position(), tables, ptables, chances, np.int64(policy.iterations),
                     policy.exploration, np.int64(policy.rollout_depth), rng.bit_generator, work, tree, path,
                     values, untried)
    return state.legal_actions()[chosen_index(real, tables, work, key)]


@functools.lru_cache(maxsize=8)
def search_work(search_policy: type, rollout: str, width: int, temperature: float) -> np.recarray:
    """The work record of the options of a policy of the class `search_policy`, made once a process (a search
    leaves in it only its action lists, scratch space and the uniform block, which each search sets afresh): the
    compiled form of its rollout policy (one of its `rollouts`, each playing the determinization itself) and the
    guide's weights (`weights.TUNED_GREEDY`)."""
    work = new_workspace()
    record = work[0]
    kind, weights = compiled_form(search_policy.rollouts[rollout]().policy)
    record.rollout, record.rollout_weights = kind, weights[0]
    record.guide_weights = weights_of(TUNED_GREEDY, GreedyWeights)[0]
    record.width, record.temperature = width, temperature
    return work


@njit(cache=True)
def search(real, world, tables, ptables, chances, iterations, exploration, rollout_depth, bits, work, tree, path,
           values, untried) -> np.int64:
    """The search's decision at the one-position array `real` under the rule tables `tables` (`rule_tables`), the
    greedy policy's `ptables` (`policy_tables`) and the combat odds `chances` (`chance_table`): the number
    (`action_number`) of the action chosen. `world` is a scratch one-position array, `work` a one-element
    WORKSPACE array (a record passed from Python would be a copy, its uniform block lost), the rest as `ismcts`
    asks."""
    return ismcts(real, world, (tables, ptables, chances), np.int64(real[0].num_players), iterations, exploration,
                  rollout_depth, bits, work[0], tree, path, values, untried, this.determinize, this.legal_actions,
                  this.action_key, this.apply_action, this.is_over, this.to_move, this.final_values, this.evaluate,
                  this.rollout)


@njit(cache=True)
def chosen_index(real, tables, work, key) -> np.int64:
    """Where the action numbered `key` stands in every legal action of `real` (the object engine's order)."""
    pos, record = real[0], work[0]
    for i in range(game_actions(pos, tables[0], record.actions)):
        if action_number(pos, record, i) == key:
            return np.int64(i)
    return np.int64(-1)


# --- determinization ---------------------------------------------------------------------------------------------


@njit(cache=True)
def determinize(real, world, rules, observer, bits) -> None:
    """`TyrannoExState.determinize` of `real` for `observer` into `world`: a copy, the cards nobody has seen
    dealt anew, then the chips `observer` has not seen drawn anew, from the bit generator `bits`."""
    world[0] = real[0]
    pos, tables = world[0], rules[0][0]
    deal_unseen_cards(pos, tables, bits)
    draw_unseen_chips(pos, tables, observer, bits)


@njit(cache=True)
def deal_unseen_cards(pos, rules, bits) -> None:
    """`_deal_unseen_cards`: the cards nobody has seen (the deck less the cards on the board, out of the game
    and face up on the piles), in the deck's order, shuffled, go to the set-aside cards, then under the
    face-up cards pile by pile."""
    seen = np.zeros(MAX_DECK, np.bool_)
    for spot in range(rules.spot_count):
        if pos.spots[spot] != NO_CARD:
            seen[pos.spots[spot]] = True
    for k in range(pos.out_count):
        seen[pos.out[k]] = True
    for i in range(PILES):
        if pos.pile_size[i]:
            seen[pos.piles[i, pos.pile_size[i] - 1]] = True
    unseen = np.empty(MAX_DECK, np.int64)
    hidden = 0
    for c in range(rules.cards):
        if not seen[c]:
            unseen[hidden] = c
            hidden += 1
    shuffle(bits, unseen, np.int64(hidden))  # rng.permutation's swaps, made on the cards
    for k in range(pos.set_aside_count):
        pos.set_aside[k] = unseen[k]
    dealt = pos.set_aside_count
    for i in range(PILES):
        for k in range(pos.pile_size[i] - 1):
            pos.piles[i, k] = unseen[dealt]
            dealt += 1


@njit(cache=True)
def draw_unseen_chips(pos, rules, observer, bits) -> None:
    """`_draw_unseen_chips`: the chips `observer` has not seen, counted per symbol, become the bag, and are
    drawn from it into the hidden places: per space the chips each other player laid since the last reveal
    (then any of no recorded player), then the other hands; what is left is the bag."""
    for s in range(NUM_SYMBOLS):
        pos.bag[s] = rules.chips_per_symbol - pos.hands[observer, s]
    for space in range(SPACES):
        pos.bag[pos.current[space]] -= pos.current_count[space]
        for s in range(NUM_SYMBOLS):
            pos.bag[s] -= pos.known[space, s] + pos.laid[observer, space, s]
    for space in range(SPACES):
        unseen_here = 0
        for s in range(NUM_SYMBOLS):
            unseen_here += pos.potential[space, s] - pos.known[space, s] - pos.laid[observer, space, s]
        if not unseen_here:
            continue
        for s in range(NUM_SYMBOLS):
            pos.potential[space, s] = pos.known[space, s] + pos.laid[observer, space, s]
        for q in range(pos.num_players):
            if q == observer:
                continue
            laid = 0
            for s in range(NUM_SYMBOLS):
                laid += pos.laid[q, space, s]
                pos.laid[q, space, s] = 0
            if laid:
                draw_chips(pos, bits, np.int64(laid), pos.laid[q, space])
                for s in range(NUM_SYMBOLS):
                    pos.potential[space, s] += pos.laid[q, space, s]
                unseen_here -= laid
        if unseen_here:  # face-down chips of no recorded player (scripted positions)
            draw_chips(pos, bits, np.int64(unseen_here), pos.potential[space])
    for q in range(pos.num_players):
        if q == observer:
            continue
        held = 0
        for s in range(NUM_SYMBOLS):
            held += pos.hands[q, s]
            pos.hands[q, s] = 0
        draw_chips(pos, bits, np.int64(held), pos.hands[q])


# --- the actions -------------------------------------------------------------------------------------------------


@njit(cache=True)
def legal_actions(world, rules, work) -> np.int64:
    """The candidate actions as rows into `work.actions` (`candidates`), and each one's number into `work.keys`."""
    pos = world[0]
    n = candidates(pos, rules, work)
    for i in range(n):
        work.keys[i] = action_number(pos, work, i)
    return np.int64(n)


@njit(cache=True)
def candidates(pos, rules, work) -> np.int64:
    """`IsmctsPolicy.candidates`: every legal action where there are at most `width`, else passing (with the
    guide's trade) or keeping the "5" marker and the guide's best settings, or not fighting and its best
    challenges; kept in the game's order."""
    tables, ptables, chances = rules
    r = tables[0]
    n = game_actions(pos, r, work.actions)
    width = work.width
    first = work.actions[0, 0]
    if n <= width or not (first == NO_CHALLENGE or first == PASS_TURN or first == KEEP):
        return np.int64(n)
    kept = work.kept
    for i in range(n):
        kept[i] = 0
    kept[0] = 1
    left = width - 1
    if first == NO_CHALLENGE:
        for i in range(1, n):
            work.values[i] = challenge_value(work.guide_weights, pos, r, ptables[0], chances, work.actions[i, 1],
                                             work.actions[i, 2])
        keep_best(work, n, left, CHALLENGE, CHALLENGE)
    else:
        if first == PASS_TURN and width > 2:
            trade = greedy_trade(pos, r, work, n)
            if trade:  # not passing
                kept[trade] = 1
                left -= 1
        setting_values(work.guide_weights, pos, r, ptables[0], work, n)
        keep_best(work, n, left, SET_CHIPS, USE_FIVE)
    m = 0
    for i in range(n):
        if kept[i]:
            for c in range(3):
                work.actions[m, c] = work.actions[i, c]
            m += 1
    return np.int64(m)


@njit(cache=True)
def keep_best(work, n, count, kind, other_kind) -> None:
    """Keep the `count` actions of `kind` or `other_kind` of highest `work.values` among the n listed (a tie to the
    first listed, as a stable sort by value ranks them)."""
    for _ in range(count):
        best = -1
        for i in range(n):
            k = work.actions[i, 0]
            if (k == kind or k == other_kind) and not work.kept[i] and (best < 0 or work.values[i] > work.values[best]):
                best = i
        if best < 0:
            return
        work.kept[best] = 1


@njit(cache=True)
def action_number(pos, work, i) -> np.int64:
    """The i-th listed action as one number, equal exactly where the object engine's actions are equal: a
    placement by its pile, spot and the pile's face-up card, a trade or setting by its index (one per list of
    chips), a tie's pick by the space and symbol, a challenge by its two spots."""
    kind, a, b = work.actions[i, 0], work.actions[i, 1], work.actions[i, 2]
    if kind == PLACE_CARD:
        return kind * KIND + (a * 256 + b) * 256 + pos.piles[a, pos.pile_size[a] - 1]
    if kind == TRADE or kind == SET_CHIPS or kind == USE_FIVE:
        return kind * KIND + a
    if kind == CHOOSE_SYMBOL:
        return kind * KIND + pos.tie_space * 256 + a
    if kind == CHALLENGE:
        return kind * KIND + a * 256 + b
    return kind * KIND  # passing, keeping the "5" marker, not fighting


@njit(cache=True)
def action_key(work, i) -> np.int64:
    return work.keys[i]


@njit(cache=True)
def apply_action(world, rules, work, i, bits) -> None:
    carry_out(world[0], rules[0][0], work.actions[i, 0], work.actions[i, 1], work.actions[i, 2], bits)


@njit(cache=True)
def is_over(world) -> bool:
    return world[0].phase == OVER


@njit(cache=True)
def to_move(world) -> np.int64:
    return np.int64(world[0].player)


@njit(cache=True)
def final_values(world, rules, work, out) -> None:
    """The win shares: the players with the most points share the win (the rulebook has no tie-break)."""
    pos = world[0]
    best, winners = np.int64(-1), 0
    for p in range(pos.num_players):
        score = points(pos, p)
        if score > best:
            best, winners = score, 1
        elif score == best:
            winners += 1
    for p in range(pos.num_players):
        if points(pos, p) == best:
            out[p] = 1.0 / winners


@njit(cache=True)
def points(pos, player) -> np.int64:
    """A player's points so far, over every source."""
    total = np.int64(0)
    for source in range(len(SOURCES)):
        total += pos.points[source, player]
    return total


@njit(cache=True)
def rollout(world, rules, bits, work, n) -> np.int64:
    """The rollout policy's choice among every legal action (the determinization itself, as `_OnGame` plays it:
    `compiled_policies.decision` lists them anew)."""
    tables, ptables, chances = rules
    return np.int64(decision(work.rollout, work.rollout_weights, world[0], tables[0], ptables[0], chances, bits,
                             work))


# --- the leaf evaluation -----------------------------------------------------------------------------------------


@njit(cache=True)
def evaluate(world, rules, work, out) -> None:
    """`IsmctsPolicy.evaluate`: each player's `standing` through a softmax, a lead of `temperature` points e times
    the share."""
    tables, ptables, chances = rules
    pos = world[0]
    n = pos.num_players
    values = work.standings
    top = -np.inf
    for p in range(n):
        values[p] = standing(pos, tables[0], ptables[0], p)
        top = max(top, values[p])
    total = 0.0
    for p in range(n):
        out[p] = np.exp((values[p] - top) / work.temperature)
        total += out[p]
    for p in range(n):
        out[p] /= total


@njit(cache=True)
def standing(pos, rules, ptables, player) -> float:
    """`policies.standing`: the player's points so far plus, for each of its cards on the board, the points of its
    next scoring and half those it may score after (a third of that if none of its symbols is among the current
    conditions) and a point per pip of its strength die, plus an unused "5" marker's points."""
    present = 0
    for space in range(SPACES):
        if pos.current_count[space]:  # an emptied space shows no condition
            present |= 1 << pos.current[space]
    value = float(points(pos, player))
    for spot in range(rules.spot_count):
        card = pos.spots[spot]
        if card == NO_CARD or pos.owner[card] != player:
            continue
        now = ptables.next_score[spot]
        worth = now + 0.5 * (ptables.future_points[spot] - now)
        if not rules.mask[card] & present:
            worth /= 3
        value += worth + pos.die[card]
    if pos.five[player]:
        value += rules.five_points
    return value
