"""Zooloretto Duell in compiled code (numba): the same game as `game.py`, rule for rule, a game at a time.

`game.py` stays the readable reference and writes the play logs; this module plays the same
games, move for move, a few hundred times faster. The same seed gives the same game: set-up
draws the same permutations in the same order (`set_up`), and the compiled policies
(`compiled_policies.py`) draw their chance as the object policies do. Compiled code takes the
generator's bit generator (`rng.bit_generator`) and draws as numpy does
(`tyrsim.core.compiled.chance`).

How a position is held: one numpy record of the dtype `POSITION` (a one-element
`np.recarray`; a function reads and writes `game[0]` in place). Cards are kinds, as the object
engine's actions treat them (cards of one kind are interchangeable): an animal is
`species * 4 + symbol` (symbol 0: none, and every offspring; 1 lightning, 2 heart,
3 square), a vending stand `24 + colour * 3 + symbol`, the final-round card `FINAL_CARD`.
Ordered piles are arrays with a size, the bottom (first placed) at index 0:

- `pile`, `pile_size`: the draw pile, its top at `pile_size - 1`, the final-round card in it
  until it turns up; `discard`, `discard_size`: the discard pile, bottom first;
- `trucks[t]`, `truck_size[t]`: the cards connected to each truck in the order they came;
  `taken[p]`: the truck player p took this round (`NOT_TAKEN`, or `EMPTY_HANDED`);
- `pens[p, s]`, `pen_size[p, s]`: player p's enclosure of species s in the order placed (a
  steal takes the first card of its kind); `stands[p]`, `stand_size[p]`: the vending area;
- `queue[queue_next:queue_end]`: a taken truck's cards still to be placed;
- `markers[marker_top:]` (`marker_points`, `marker_coin`, `marker_final`): the stockpile,
  top first, as dealt at set-up; `won_points[p]`: points of the markers player p won;
- `offspring[s]`: 1 while species s's offspring card lies in the supply; `scored[s]`,
  `target_reached[s]`, `vending_scored`: the interim scorings; `symbol_fired[p, s, symbol]`:
  under the rule `symbol_once`, the symbol actions player p has had (game.py's `fired`);
- `to_move`, `phase` (`TURN`, `PLACE`, `DONATION`, `OVER` as in game.py), `drawn` (the card
  being placed in phase PLACE), `square_fired`, `pending_check`, `last_taker`, `rounds`,
  the final-round flags, `end_trigger` (0, or 1 + index into END_TRIGGERS);
- `coins[p]`, `minus[p]`, `counts[p]` (game.COUNTERS), `actions` (actions applied).

The rules and data files become one record of the dtype `RULES`, made once per rule set by
`rule_tables(rules)`: every number and switch, the draw pile's cards, the scoring markers in
file order with the runs sharing a letter, and the distinct orders a truck's cards can be
placed in. An action is a row of three integers (type, a, b): see `legal_actions`, which
lists them in the object engine's order, so that an index into one list is the same action
in the other.
"""

from __future__ import annotations

import dataclasses
from itertools import permutations

import numpy as np
from numba import njit

from tyrsim.core.compiled.chance import shuffle
from tyrsim.core.compiled.numba_cache import keep_fresh
from tyrsim.core.compiled.positions import differing_fields
from tyrsim.games.zooloretto_duell.cards import ANIMALS, COLOURS, FINAL_CARD, SPECIES, card_kind
from tyrsim.games.zooloretto_duell.evaluation import race_edge
from tyrsim.games.zooloretto_duell.game import (
    COUNTERS,
    DISPOSALS,
    DONATION,
    END_TRIGGERS,
    EXPERT_DISCARDS,
    HEART_FIRED,
    HEART_WASTED,
    INTERIM_MARKERS,
    LIGHTNING_FIRED,
    MINUS_DISPOSED,
    OVER,
    PLACE,
    SQUARE_FIRED,
    SQUARE_WASTED,
    STAND_COIN,
    STEALS,
    THIRD_SYMBOL,
    TURN,
    Connect,
    DiscardDrawn,
    DisposeMinus,
    Donate,
    Draw,
    QuitEmptyHanded,
    Steal,
    TakeTruck,
    ZooGame,
    ZooState,
)
from tyrsim.games.zooloretto_duell.rules import Rules

keep_fresh(__file__)

NO_SYMBOL, LIGHTNING, HEART, SQUARE = 0, 1, 2, 3
NO_CARD = -1
NOT_TAKEN, EMPTY_HANDED = -2, -1  # `taken[p]`: no truck yet this round; quit without one

# Every integer a compiled function is passed is an int64 (cards and counts read from the position's int8 and
# int32 fields are widened first, `np.int64(pos.queue[k])`), and a constant passed is a numpy scalar, not a
# Python int or bool: numba compiles a function once for every combination of argument types its callers
# pass, and a Python constant's type is a Literal of its value (`_add(actions, n, DRAW, 0, 0)` would compile
# `_add` once for each action type). One type per argument: each function compiles once.
CARD_TRIGGER, MARKER_TRIGGER, PILE_TRIGGER = np.int64(1), np.int64(2), np.int64(3)  # `end_trigger`: 1 + index
DONATED, NOT_DONATED = np.True_, np.False_  # `place_card`'s card is a square's donation, or not

# fixed shapes; `supported` names the rule a rule set would need more of
MAX_TRUCKS = 8
MAX_PLACES = 5  # places on one truck (the rules allow 1 to 5)
MAX_ORDERS = 120  # 5! orders of a full 5-place truck
DECK = 57  # 45 animals and 12 vending stands
PEN_LENGTH = 11  # the most cards of one species (10 hyenas) and an offspring
MARKERS = 8
MAX_POINTS = 1_000_000  # points of one scoring marker the 32-bit totals hold with room to spare
MAX_STEPS = 10_000  # actions; a safety limit far above any game (about 140)
EDGE_WIDTH = 16  # more than the cards of one enclosure (PEN_LENGTH) or the colours of stands

# action types: a row (type, a, b), a and b UNUSED (0) where the type takes none
DRAW = np.int64(0)  # action A: draw the top card
CONNECT = np.int64(1)  # a = truck
DISCARD_DRAWN = np.int64(2)  # expert variant: pay to discard the drawn card
TAKE = np.int64(3)  # action B: a = truck, b = index of the order of its cards in RULES.orders[truck size]
STEAL = np.int64(4)  # action C I: a = kind of animal
DISPOSE = np.int64(5)  # action C II
DONATE = np.int64(6)  # a square's donation: a = kind on the discard pile
QUIT_EMPTY = np.int64(7)  # nothing to draw or take: quit the round without a truck
UNUSED = np.int64(0)
MAX_ACTIONS = 1 + MAX_TRUCKS * MAX_ORDERS + 1 + ANIMALS + 1

POSITION = np.dtype([
    ("pile", np.int8, (DECK + 1,)), ("pile_size", np.int32),
    ("discard", np.int8, (DECK + 4,)), ("discard_size", np.int32),
    ("trucks", np.int8, (MAX_TRUCKS, MAX_PLACES)), ("truck_size", np.int32, (MAX_TRUCKS,)),
    ("taken", np.int32, (2,)), ("last_taker", np.int32), ("to_move", np.int64), ("phase", np.int32),
    ("drawn", np.int64), ("queue", np.int8, (MAX_PLACES,)), ("queue_next", np.int32), ("queue_end", np.int32),
    ("square_fired", np.int32), ("pending_check", np.int64),
    ("pens", np.int8, (2, len(SPECIES), PEN_LENGTH)), ("pen_size", np.int32, (2, len(SPECIES))),
    ("stands", np.int8, (2, 12)), ("stand_size", np.int32, (2,)),
    ("offspring", np.int8, (len(SPECIES),)),
    ("marker_points", np.int32, (MARKERS,)), ("marker_coin", np.int8, (MARKERS,)),
    ("marker_final", np.int8, (MARKERS,)), ("marker_top", np.int32), ("won_points", np.int32, (2,)),
    ("final_card_aside", np.int32), ("final_marker_aside", np.int32), ("final_round", np.int32),
    ("end_trigger", np.int32),
    ("scored", np.int8, (len(SPECIES),)), ("target_reached", np.int8, (len(SPECIES),)), ("vending_scored", np.int32),
    ("symbol_fired", np.int8, (2, len(SPECIES), 4)),
    ("coins", np.int32, (2,)), ("minus", np.int32, (2,)), ("rounds", np.int32),
    ("counts", np.int32, (2, len(COUNTERS))), ("actions", np.int32),
])

RULES = np.dtype([
    ("trucks", np.int64), ("truck_places", np.int64, (MAX_TRUCKS,)), ("targets", np.int64, (len(SPECIES),)),
    ("starting_coins", np.int64), ("final_round_card_depth", np.int64), ("money_action_cost", np.int64),
    ("steal_triggers_symbols", np.int64), ("one_square_per_turn", np.int64), ("symbol_before_scoring", np.int64),
    ("dispose_without_minus", np.int64), ("symbol_once", np.int64),
    ("expert", np.int64), ("expert_discard_cost", np.int64), ("majority_points", np.int64),
    ("coins_per_point", np.int64),
    # what the players may see and keep in mind, for the search's determinizations
    ("discard_pile_open", np.int64), ("discard_pile_memory", np.int64),  # memory: 1 'remember', 0 'forget'
    ("deck", np.int8, (DECK,)),  # the kinds of the animals and stands in the object engine's deck order
    # the scoring markers in the file's order (points replaced by the rule `marker_points`)
    ("marker_points", np.int64, (MARKERS,)), ("marker_coin", np.int8, (MARKERS,)),
    ("marker_final", np.int8, (MARKERS,)),
    # rule `marker_order` "shuffled": the runs of markers sharing a letter, each shuffled at set-up
    ("shuffled_runs", np.int64), ("run_start", np.int64, (MARKERS,)), ("run_length", np.int64, (MARKERS,)),
    # orders[n, i]: the i-th order (itertools.permutations of the places) of a truck holding n cards
    ("orders", np.int8, (MAX_PLACES + 1, MAX_ORDERS, MAX_PLACES)), ("order_count", np.int64, (MAX_PLACES + 1,)),
    # race_edges[s, a, b]: `evaluation.race_edge` of the race for species s's marker (s = 6: the vending
    # area's) with a and b animals (colours) on the two sides, tabulated by the function itself
    ("race_edges", np.float64, (len(SPECIES) + 1, EDGE_WIDTH, EDGE_WIDTH)),
])

# the rules this engine plays; `supported` names any other (a rule added to Rules and not yet here)
PLAYED = (
    "starting_coins", "final_round_card_depth", "truck_places", "target_values", "money_action_cost",
    "steal_triggers_symbols", "one_square_per_turn", "symbol_before_scoring", "expert", "expert_discard_cost",
    "majority_points", "coins_per_point", "symbols_file", "stands_file", "markers_file", "marker_order",
    "marker_points",
    "dispose_without_minus", "symbol_once",
    # change only what a search may know (`compiled_search.determinize`)
    "discard_pile_open", "discard_pile_memory",
)


def supported(rules: Rules, players: int = 2) -> str | None:
    """None if the compiled engine plays `rules`, else a one-line message naming the first rule it cannot (the duel
    has two players: `players` is there for `tyrsim.core.compiled.engines.CompiledEngine`, which asks every game so)."""
    for f in dataclasses.fields(rules):
        if f.name not in PLAYED:
            return f"rule {f.name!r}: the compiled engine does not play it yet (the object engine does)"
    if len(rules.truck_places) > MAX_TRUCKS:
        return (f"rule 'truck_places': the compiled engine plays up to {MAX_TRUCKS} trucks, "
                f"not {len(rules.truck_places)} (the object engine plays any number)")
    points = [m.points for m in ZooGame(rules).markers]
    if max(points) > MAX_POINTS:
        name = "marker_points" if rules.marker_points else "markers_file"
        return (f"rule {name!r}: the compiled engine plays scoring markers of up to {MAX_POINTS:,} points, "
                f"not {max(points):,} (the object engine plays any)")
    return None


def rule_tables(rules: Rules) -> np.recarray:
    """The rules and their data files as one `RULES` record (a one-element recarray); ValueError for rules
    the engine cannot play (`supported`)."""
    problem = supported(rules)
    if problem is not None:
        raise ValueError(problem)
    game = ZooGame(rules)  # the object engine reads the data files and applies `marker_points`: so do we
    out = np.zeros(1, RULES).view(np.recarray)
    r = out[0]
    r.trucks = len(rules.truck_places)
    r.truck_places[: r.trucks] = rules.truck_places
    r.targets[:] = rules.target_values
    for name in ("starting_coins", "final_round_card_depth", "money_action_cost", "steal_triggers_symbols",
                 "one_square_per_turn", "symbol_before_scoring", "expert", "expert_discard_cost",
                 "majority_points", "coins_per_point", "dispose_without_minus", "symbol_once", "discard_pile_open"):
        setattr(r, name, int(getattr(rules, name)))
    r.discard_pile_memory = rules.discard_pile_memory == "remember"
    r.deck[:] = [card_kind(c) for c in game.deck]
    for i, m in enumerate(game.markers):
        r.marker_points[i], r.marker_coin[i], r.marker_final[i] = m.points, m.coin, m.final_round
    if rules.marker_order == "shuffled":  # as game._shuffle_within_letters groups them
        letters = [m.letter for m in game.markers]
        start = 0
        while start < MARKERS:
            end = start + 1
            while end < MARKERS and letters[start] and letters[end] == letters[start]:
                end += 1
            if end - start > 1:
                r.run_start[r.shuffled_runs], r.run_length[r.shuffled_runs] = start, end - start
                r.shuffled_runs += 1
            start = end
    for s, target in enumerate(rules.target_values):
        for a in range(EDGE_WIDTH):
            for b in range(EDGE_WIDTH):
                r.race_edges[s, a, b] = race_edge(a - b, max(0, target - a - b))
    for a in range(len(COLOURS) + 1):
        for b in range(len(COLOURS) + 1):
            r.race_edges[len(SPECIES), a, b] = race_edge(a - b, len(COLOURS) - max(a, b))
    for n in range(MAX_PLACES + 1):
        orders = list(permutations(range(n)))  # the identity first, as game._take_options lists them
        r.order_count[n] = len(orders)
        for i, order in enumerate(orders):
            r.orders[n, i, :n] = order
    return out


def new_position() -> np.recarray:
    """An empty position (a one-element recarray of POSITION): fill it with `set_up`. Compiled code takes it
    or its plain ndarray view (`.view(np.ndarray)`, cheaper to pass from Python); without the JIT
    (NUMBA_DISABLE_JIT=1) the functions need the recarray, whose records have attributes."""
    return np.zeros(1, POSITION).view(np.recarray)


# --- set-up -------------------------------------------------------------------------------------------------


@njit(cache=True)
def set_up(game, tables, bits) -> None:
    """Set-up of a zeroed position, drawing from the bit generator `bits` (`rng.bit_generator`) what
    `ZooGame.new_state` draws from `rng`, in its order: shuffle the draw pile, turn its top card onto the
    discard pile, insert the final-round card, sort the scoring markers by letter. `game` is a one-position
    array, `tables` the rules' (`rule_tables`)."""
    pos, rules = game[0], tables[0]
    pos.phase = TURN
    # the object engine's pile is deck[rng.permutation(57)]: the deck shuffled by the same swaps. Copied
    # card by card, here and below: an array assigned to a slice compiles numba's message for a shape that
    # does not fit, a second or more of string formatting
    for i in range(DECK):
        pos.pile[i] = rules.deck[i]
    # a slice, not the record's field: the array type of the markers' shuffle below, so `shuffle` compiles once
    shuffle(bits, pos.pile[:DECK], np.int64(DECK))
    size = DECK
    # drawn after the pile (rule `marker_order`)
    for j in range(MARKERS):
        pos.marker_points[j], pos.marker_coin[j] = rules.marker_points[j], rules.marker_coin[j]
        pos.marker_final[j] = rules.marker_final[j]
    for run in range(rules.shuffled_runs):
        start, length = rules.run_start[run], rules.run_length[run]
        shuffled = np.empty(length, np.int8)  # rng.permutation(length)
        for j in range(length):
            shuffled[j] = j
        shuffle(bits, shuffled, length)
        for j in range(length):
            pos.marker_points[start + j] = rules.marker_points[start + shuffled[j]]
            pos.marker_coin[start + j] = rules.marker_coin[start + shuffled[j]]
            pos.marker_final[start + j] = rules.marker_final[start + shuffled[j]]
    pos.marker_top = 0
    size -= 1
    discard_card(pos, np.int64(pos.pile[size]))
    depth = min(rules.final_round_card_depth, size)
    for i in range(size, depth, -1):  # the final-round card goes in with `depth` cards under it
        pos.pile[i] = pos.pile[i - 1]
    pos.pile[depth] = FINAL_CARD
    pos.pile_size = size + 1
    pos.drawn = NO_CARD
    pos.pending_check = -1
    pos.taken[0] = pos.taken[1] = NOT_TAKEN
    for s in range(len(SPECIES)):
        pos.offspring[s] = 1 if s >= 3 else 0  # bear, tiger and hyena have an offspring card
    pos.coins[0] = pos.coins[1] = rules.starting_coins
    pos.rounds = 1
    surface_final_marker(pos)
    surface_final_card(pos)


@njit(cache=True)
def discard_card(pos, kind) -> None:
    pos.discard[pos.discard_size] = kind
    pos.discard_size += 1


@njit(cache=True)
def surface_final_card(pos) -> None:
    """When the final-round card turns up on top of the draw pile it is put aside."""
    if pos.pile_size and pos.pile[pos.pile_size - 1] == FINAL_CARD:
        pos.pile_size -= 1
        pos.final_card_aside = 1


@njit(cache=True)
def surface_final_marker(pos) -> None:
    """When the final-round marker turns up on top of the stockpile it is put aside."""
    if pos.marker_top < MARKERS and pos.marker_final[pos.marker_top]:
        pos.marker_top += 1
        pos.final_marker_aside = 1


@njit(cache=True)
def make_final_round(pos, trigger) -> None:
    if not pos.final_round:
        pos.final_round = 1
        pos.end_trigger = trigger


# --- legal actions ------------------------------------------------------------------------------------------


@njit(cache=True)
def is_taken(pos, t) -> bool:
    """A taken truck stands in front of its player until the round ends."""
    return pos.taken[0] == t or pos.taken[1] == t


@njit(cache=True)
def _add(actions, n, kind, a, b) -> int:
    actions[n, 0], actions[n, 1], actions[n, 2] = kind, a, b
    return n + 1


@njit(cache=True)
def take_orders(pos, rules, t, actions, n) -> int:
    """Taking truck t: "You may play these cards in any order": every order of its cards, the order they came
    first; orders that differ only in interchangeable cards are one action (game._take_options)."""
    size = pos.truck_size[t]
    first = n
    for i in range(rules.order_count[size]):
        seen = False
        for j in range(first, n):  # an earlier order with the same kinds in every place
            other = actions[j, 2]
            same = True
            for k in range(size):
                if pos.trucks[t, rules.orders[size, i, k]] != pos.trucks[t, rules.orders[size, other, k]]:
                    same = False
                    break
            if same:
                seen = True
                break
        if not seen:
            n = _add(actions, n, TAKE, t, i)
    return n


@njit(cache=True)
def legal_actions(pos, rules, actions) -> int:
    """Write the legal actions as rows (type, a, b) into `actions`, in the order `ZooState.legal_actions`
    lists them; returns how many."""
    n = np.int64(0)
    phase = pos.phase
    if phase == PLACE:
        return placements(pos, rules, actions)
    if phase == DONATION:  # one card of each kind on the discard pile, bottom first
        for i in range(pos.discard_size):
            kind = np.int64(pos.discard[i])
            fresh = True
            for j in range(n):
                if actions[j, 1] == kind:
                    fresh = False
                    break
            if fresh:
                n = _add(actions, n, DONATE, kind, UNUSED)
        return n
    if phase == OVER:
        return 0
    if pos.pile_size:
        n = _add(actions, n, DRAW, UNUSED, UNUSED)
    free_place = False
    for t in range(rules.trucks):
        if is_taken(pos, t):
            continue
        if pos.truck_size[t]:
            n = take_orders(pos, rules, t, actions, n)
            if pos.truck_size[t] < rules.truck_places[t]:
                free_place = True
        else:
            free_place = True
    if n and actions[0, 0] == DRAW and not free_place:  # all trucks occupied: action A is not allowed
        for j in range(1, n):  # number by number: a row assigned compiles a shape error's message
            actions[j - 1, 0], actions[j - 1, 1], actions[j - 1, 2] = actions[j, 0], actions[j, 1], actions[j, 2]
        n -= 1
    if n == 0:
        n = _add(actions, n, QUIT_EMPTY, UNUSED, UNUSED)
    p = pos.to_move
    if pos.coins[p] >= rules.money_action_cost:
        o = 1 - p
        first = n
        for s in range(len(SPECIES)):  # one animal of each kind in the opponent's zoo
            for i in range(pos.pen_size[o, s]):
                kind = np.int64(pos.pens[o, s, i])
                fresh = True
                for j in range(first, n):
                    if actions[j, 1] == kind:
                        fresh = False
                        break
                if fresh:
                    n = _add(actions, n, STEAL, kind, UNUSED)
        # ruling (rule `dispose_without_minus`, default true): offered with no minus point too, a paid pass
        if pos.minus[p] or rules.dispose_without_minus:
            n = _add(actions, n, DISPOSE, UNUSED, UNUSED)
    return n


@njit(cache=True)
def placements(pos, rules, actions) -> int:
    """Where the drawn card may go: each truck with a free place (empty trucks of one size are one choice),
    and in the expert variant, outside the final round, paying to discard it."""
    n = np.int64(0)
    for t in range(rules.trucks):
        if is_taken(pos, t):
            continue
        if pos.truck_size[t] == 0:
            offered = False
            for u in range(t):
                if (not is_taken(pos, u) and pos.truck_size[u] == 0
                        and rules.truck_places[u] == rules.truck_places[t]):
                    offered = True
                    break
            if not offered:
                n = _add(actions, n, CONNECT, t, UNUSED)
        elif pos.truck_size[t] < rules.truck_places[t]:
            n = _add(actions, n, CONNECT, t, UNUSED)
    if rules.expert and not pos.final_round and pos.coins[pos.to_move] >= rules.expert_discard_cost:
        n = _add(actions, n, DISCARD_DRAWN, UNUSED, UNUSED)
    return n


@njit(cache=True)
def list_actions(game, tables, actions) -> int:
    """`legal_actions` of a one-position array under the rules' `tables`, called from Python."""
    return legal_actions(game[0], tables[0], actions)


@njit(cache=True)
def play_action(game, tables, action) -> None:
    """`apply_action` of the row `action` on a one-position array under the rules' `tables`, called from
    Python."""
    apply_action(game[0], tables[0], action[0], action[1], action[2])


# --- the actions --------------------------------------------------------------------------------------------


@njit(cache=True)
def apply_action(pos, rules, kind, a, b) -> None:
    """The player to move carries out the action (kind, a, b) (a row of `legal_actions`)."""
    p = pos.to_move
    pos.actions += 1
    if kind == DRAW:
        draw_card(pos)
    elif kind == CONNECT:
        connect_card(pos, rules, p, a)
    elif kind == TAKE:
        take_truck(pos, rules, p, a, b)
    elif kind == DONATE:
        take_donation(pos, rules, p, a)
    elif kind == STEAL:
        steal_animal(pos, rules, p, a)
    elif kind == DISPOSE:
        dispose_of_minus_points(pos, rules, p)
    elif kind == DISCARD_DRAWN:
        discard_drawn(pos, rules, p)
    else:
        pos.taken[p] = EMPTY_HANDED  # ruling (game.QuitEmptyHanded): nothing to draw, nothing to take
        end_turn(pos, rules, p)


@njit(cache=True)
def draw_card(pos) -> None:
    """Action A, first step: pick the top card of the draw pile."""
    pos.pile_size -= 1
    pos.drawn = pos.pile[pos.pile_size]
    if pos.final_card_aside:  # the next card after the final-round card turned up
        make_final_round(pos, CARD_TRIGGER)
    surface_final_card(pos)
    if pos.pile_size == 0:  # ruling: the round in which the last card is drawn is the last one
        make_final_round(pos, PILE_TRIGGER)
    pos.phase = PLACE


@njit(cache=True)
def connect_card(pos, rules, p, t) -> None:
    """Action A, second step: connect the drawn card to truck t."""
    pos.trucks[t, pos.truck_size[t]] = pos.drawn
    pos.truck_size[t] += 1
    pos.drawn = NO_CARD
    pos.phase = TURN
    end_turn(pos, rules, p)


@njit(cache=True)
def discard_drawn(pos, rules, p) -> None:
    """Expert variant: pay to put the drawn card on the discard pile instead."""
    pos.coins[p] -= rules.expert_discard_cost
    pos.counts[p, EXPERT_DISCARDS] += 1
    discard_card(pos, pos.drawn)
    pos.drawn = NO_CARD
    pos.phase = TURN
    end_turn(pos, rules, p)


@njit(cache=True)
def take_truck(pos, rules, p, t, order) -> None:
    """Action B: take truck t and quit the round; its cards go into the zoo in the chosen order."""
    size = pos.truck_size[t]
    for k in range(size):
        pos.queue[k] = pos.trucks[t, rules.orders[size, order, k]]
    pos.queue_next, pos.queue_end = 0, size
    pos.truck_size[t] = 0
    pos.taken[p] = t
    pos.last_taker = p
    unload_truck(pos, rules, p)


@njit(cache=True)
def unload_truck(pos, rules, p) -> None:
    """Place the taken truck's remaining cards in order; pause for a square's donation."""
    while pos.queue_next < pos.queue_end:
        kind = np.int64(pos.queue[pos.queue_next])
        pos.queue_next += 1
        if place_card(pos, rules, p, kind, NOT_DONATED):
            pos.phase = DONATION
            return
    end_turn(pos, rules, p)


@njit(cache=True)
def take_donation(pos, rules, p, kind) -> None:
    """A square's donation: the first card of `kind` leaves the discard pile for the zoo; a square it
    triggers goes to waste. Then the truck's other cards follow."""
    remove_first(pos.discard[: pos.discard_size], kind)
    pos.discard_size -= 1
    pos.phase = TURN
    place_card(pos, rules, p, kind, DONATED)
    check_pending(pos, rules)
    unload_truck(pos, rules, p)


@njit(cache=True)
def remove_first(cards, kind) -> None:
    """Take the first card of `kind` out of the int8 array `cards` (a pile up to its size); the cards above it
    move down."""
    at = 0
    while cards[at] != kind:
        at += 1
    for i in range(at, len(cards) - 1):
        cards[i] = cards[i + 1]
    cards[len(cards) - 1] = NO_CARD


@njit(cache=True)
def steal_animal(pos, rules, p, kind) -> None:
    """Action C I: pay and take an animal of `kind` from the opponent's zoo into your own."""
    pos.coins[p] -= rules.money_action_cost
    pos.counts[p, STEALS] += 1
    s = kind >> 2
    o = 1 - p
    remove_first(pos.pens[o, s, : pos.pen_size[o, s]], kind)
    pos.pen_size[o, s] -= 1
    # ruling: stealing counts as placing the animal in your enclosure, so its symbol triggers
    if rules.steal_triggers_symbols:
        if place_card(pos, rules, p, kind, NOT_DONATED):
            pos.phase = DONATION
            return
    else:
        pos.pens[p, s, pos.pen_size[p, s]] = kind
        pos.pen_size[p, s] += 1
        check_interim_scoring(pos, rules, s)
    end_turn(pos, rules, p)


@njit(cache=True)
def dispose_of_minus_points(pos, rules, p) -> None:
    """Action C II: pay and return all minus points."""
    pos.coins[p] -= rules.money_action_cost
    pos.counts[p, DISPOSALS] += 1
    pos.counts[p, MINUS_DISPOSED] += pos.minus[p]
    pos.minus[p] = 0
    end_turn(pos, rules, p)


# --- placing a card, symbols, interim scoring ----------------------------------------------------------------


@njit(cache=True)
def place_card(pos, rules, p, kind, donated) -> bool:
    """Put a card into player p's zoo with its symbol's effect and the interim scorings it causes
    (`ZooState._place`, whose docstring gives the rulings); True if a square's donation is due."""
    if kind >= ANIMALS:
        place_stand(pos, rules, p, kind)
        return False
    return place_animal(pos, rules, p, kind, donated)


@njit(cache=True)
def place_stand(pos, rules, p, kind) -> None:
    """A vending stand: the third with one symbol goes to the discard pile for a minus point, the second gives
    a coin; the first player with stands of all four colours wins the vending area's marker."""
    symbol = (kind - ANIMALS) % 3
    same = 0
    for i in range(pos.stand_size[p]):
        if (pos.stands[p, i] - ANIMALS) % 3 == symbol:
            same += 1
    if same >= 2:
        discard_card(pos, kind)
        pos.minus[p] += 1
        pos.counts[p, THIRD_SYMBOL] += 1
        return
    pos.stands[p, pos.stand_size[p]] = kind
    pos.stand_size[p] += 1
    if same == 1:
        pos.coins[p] += 1
        pos.counts[p, STAND_COIN] += 1
    if not pos.vending_scored and stand_colours(pos, p) == len(COLOURS):
        pos.vending_scored = 1
        award_marker(pos, p)


@njit(cache=True)
def stand_colours(pos, p) -> int:
    """How many colours player p's vending area shows."""
    seen = 0  # a bit per colour
    for i in range(pos.stand_size[p]):
        seen |= 1 << ((pos.stands[p, i] - ANIMALS) // 3)
    count = 0
    while seen:
        count += seen & 1
        seen >>= 1
    return count


@njit(cache=True)
def place_animal(pos, rules, p, kind, donated) -> bool:
    """An animal: the third of its species with one symbol goes to the discard pile for a minus point; the
    second triggers the symbol (lightning, heart, square); then the species' interim scoring is checked."""
    s, symbol = kind >> 2, kind & 3
    due = False
    if symbol:
        same = 0
        for i in range(pos.pen_size[p, s]):
            if pos.pens[p, s, i] & 3 == symbol:
                same += 1
        if same >= 2:  # the third animal of the species with the same symbol
            discard_card(pos, kind)
            pos.minus[p] += 1
            pos.counts[p, THIRD_SYMBOL] += 1
            check_interim_scoring(pos, rules, s)  # a stolen card leaving the other zoo can still break a tie
            return False
        add_to_pen(pos, p, s, kind)
        second = same == 1
        if second and rules.symbol_once:
            # ruling (rule `symbol_once`): a player's pair of a species and symbol triggers only the first time
            second = not pos.symbol_fired[p, s, symbol]
            pos.symbol_fired[p, s, symbol] = 1
        if second:
            if symbol == LIGHTNING:
                pos.minus[p] += 1
                pos.counts[p, LIGHTNING_FIRED] += 1
            elif symbol == HEART:
                if pos.offspring[s]:
                    if not rules.symbol_before_scoring:
                        check_interim_scoring(pos, rules, s)  # ruling: the scoring interrupts play first
                    pos.offspring[s] = 0
                    add_to_pen(pos, p, s, s * 4)
                    pos.counts[p, HEART_FIRED] += 1
                else:
                    pos.counts[p, HEART_WASTED] += 1
            elif donated or pos.discard_size == 0 or (pos.square_fired and rules.one_square_per_turn):
                pos.counts[p, SQUARE_WASTED] += 1
            else:
                pos.counts[p, SQUARE_FIRED] += 1
                pos.square_fired = 1
                due = True
                if rules.symbol_before_scoring:  # the other reading: check after the donation
                    pos.pending_check = s
                    return True
    else:
        add_to_pen(pos, p, s, kind)
    check_interim_scoring(pos, rules, s)
    return due


@njit(cache=True)
def add_to_pen(pos, p, s, kind) -> None:
    pos.pens[p, s, pos.pen_size[p, s]] = kind
    pos.pen_size[p, s] += 1


@njit(cache=True)
def check_pending(pos, rules) -> None:
    """The interim-scoring check that waited for a square's donation (rule `symbol_before_scoring`)."""
    if pos.pending_check >= 0:
        s = pos.pending_check
        pos.pending_check = -1
        check_interim_scoring(pos, rules, s)


@njit(cache=True)
def check_interim_scoring(pos, rules, s) -> None:
    """Interim scoring: once the enclosures together have reached the target value, the first moment one
    player is strictly ahead (`ZooState._check_species`)."""
    if pos.scored[s]:
        return
    mine, theirs = pos.pen_size[0, s], pos.pen_size[1, s]
    if mine + theirs >= rules.targets[s]:
        pos.target_reached[s] = 1
    if pos.target_reached[s] and mine != theirs:
        pos.scored[s] = 1
        award_marker(pos, 0 if mine > theirs else 1)


@njit(cache=True)
def award_marker(pos, p) -> None:
    """Player p takes the top scoring marker (and a coin if it shows one); after the final-round marker has
    turned up, this makes the round the final one."""
    top = pos.marker_top
    pos.marker_top += 1
    pos.won_points[p] += pos.marker_points[top]
    pos.counts[p, INTERIM_MARKERS] += 1
    if pos.marker_coin[top]:
        pos.coins[p] += 1
    if pos.final_marker_aside:
        make_final_round(pos, MARKER_TRIGGER)
    surface_final_marker(pos)


# --- turns and rounds ----------------------------------------------------------------------------------------


@njit(cache=True)
def end_turn(pos, rules, p) -> None:
    """The other player moves, unless they have quit the round; both quit: the round ends."""
    o = 1 - p
    pos.square_fired = 0
    if pos.taken[o] == NOT_TAKEN:
        pos.to_move = o
    elif pos.taken[p] == NOT_TAKEN:
        pos.to_move = p
    else:
        end_round(pos, rules)


@njit(cache=True)
def end_round(pos, rules) -> None:
    """Cards left on the trucks go to the discard pile; after the final round the game is over, else the next
    round begins with the player who was the last to take a truck."""
    for t in range(rules.trucks):
        for k in range(pos.truck_size[t]):
            discard_card(pos, np.int64(pos.trucks[t, k]))
        pos.truck_size[t] = 0
    if pos.final_round:
        pos.phase = OVER
        return
    pos.rounds += 1
    pos.taken[0] = pos.taken[1] = NOT_TAKEN
    pos.to_move = pos.last_taker


# --- scoring -------------------------------------------------------------------------------------------------


@njit(cache=True)
def majorities(pos, p) -> int:
    """Species in which player p has more animals than the opponent."""
    count = 0
    for s in range(len(SPECIES)):
        if pos.pen_size[p, s] > pos.pen_size[1 - p, s]:
            count += 1
    return count


@njit(cache=True)
def final_score(pos, rules, p) -> int:
    """Final scoring of player p: scoring markers + plus points (majorities, coins) - minus points."""
    return (pos.won_points[p] + rules.majority_points * majorities(pos, p) + pos.coins[p] // rules.coins_per_point
            - pos.minus[p])


# --- the object engine's positions as records: every compiled search decision starts from `position_of`
# (compiled_search.choose); the differential tests compare records with `tidy` and `differences` --------------


def position_of(state: ZooState) -> np.recarray:
    """The compiled form of one of the object engine's positions: every compiled search decision starts from it
    (`compiled_search.choose`), and the differential tests compare it with the compiled engine's position
    (`actions` left 0: the object engine does not count them). Filled through a plain structured array: a
    recarray's attributes cost several times more."""
    out = np.zeros(1, POSITION)
    pos = out[0]
    kinds = [card_kind(c) for c in state.pile]
    pos["pile"][: len(kinds)], pos["pile_size"] = kinds, len(kinds)
    kinds = [card_kind(c) for c in state.discard]
    pos["discard"][: len(kinds)], pos["discard_size"] = kinds, len(kinds)
    trucks, truck_size = pos["trucks"], pos["truck_size"]
    for t, truck in enumerate(state.trucks):
        trucks[t, : len(truck)], truck_size[t] = [card_kind(c) for c in truck], len(truck)
    pens, pen_size, stands, stand_size = pos["pens"], pos["pen_size"], pos["stands"], pos["stand_size"]
    for p in range(2):
        pos["taken"][p] = NOT_TAKEN if state.taken[p] is None else state.taken[p]
        for s, pen in enumerate(state.pens[p]):
            if pen:
                pens[p, s, : len(pen)], pen_size[p, s] = [card_kind(c) for c in pen], len(pen)
        if state.stands[p]:
            stands[p, : len(state.stands[p])] = [card_kind(c) for c in state.stands[p]]
            stand_size[p] = len(state.stands[p])
        pos["won_points"][p] = sum(m.points for m in state.won[p])
        for key in state.fired[p]:  # rule `symbol_once`: species * 4 + symbol
            pos["symbol_fired"][p, key // 4, key % 4] = 1
    pos["coins"], pos["minus"], pos["counts"] = state.coins, state.minus, state.counts
    pos["last_taker"], pos["to_move"], pos["phase"] = state.last_taker, state.to_move, state.phase
    pos["drawn"] = NO_CARD if state.drawn is None else card_kind(state.drawn)
    if state.queue:
        pos["queue"][: len(state.queue)] = [card_kind(c) for c in state.queue]
    pos["queue_end"] = len(state.queue)
    pos["square_fired"], pos["pending_check"] = state.square_fired, state.pending_check
    pos["offspring"] = [state.offspring.get(s) is not None for s in range(len(SPECIES))]
    # the stockpile: the markers awarded and put aside lie above the ones left (tidy clears them)
    top = MARKERS - len(state.markers)
    pos["marker_top"] = top
    for j, m in enumerate(state.markers, start=top):
        pos["marker_points"][j], pos["marker_coin"][j], pos["marker_final"][j] = m.points, m.coin, m.final_round
    pos["final_card_aside"], pos["final_marker_aside"] = state.final_card_aside, state.final_marker_aside
    pos["final_round"] = state.final_round
    pos["end_trigger"] = END_TRIGGERS.index(state.end_trigger) + 1 if state.end_trigger else 0
    pos["scored"], pos["target_reached"] = state.scored, state.target_reached
    pos["vending_scored"], pos["rounds"] = state.vending_scored, state.rounds
    return out.view(np.recarray)


def tidy(game: np.recarray) -> np.recarray:
    """A copy of the position with what no rule reads cleared: the places past each pile's, truck's,
    enclosure's and the queue's size, the queue's cards already placed, the markers already taken, `actions`.
    Two positions are the same game position when their tidy copies are equal (`differences`)."""
    out = game.view(np.ndarray).copy()
    _tidy(out)
    return out


@njit(cache=True)
def _tidy(game) -> None:
    pos = game[0]
    pos.pile[pos.pile_size:] = 0
    pos.discard[pos.discard_size:] = 0
    for t in range(MAX_TRUCKS):
        pos.trucks[t, pos.truck_size[t]:] = 0
    left = pos.queue_end - pos.queue_next
    for k in range(left):
        pos.queue[k] = pos.queue[pos.queue_next + k]
    pos.queue[left:] = 0
    pos.queue_next, pos.queue_end = 0, left
    for p in range(2):
        for s in range(len(SPECIES)):
            pos.pens[p, s, pos.pen_size[p, s]:] = 0
        pos.stands[p, pos.stand_size[p]:] = 0
    pos.marker_points[: pos.marker_top] = 0
    pos.marker_coin[: pos.marker_top] = 0
    pos.marker_final[: pos.marker_top] = 0
    pos.actions = 0


def differences(game: np.recarray, other: np.recarray) -> list[str]:
    """The fields in which two positions differ, each held to `tidy` (empty: the same game position)."""
    return differing_fields(tidy(game), tidy(other))


def action_of(state: ZooState, action) -> tuple:
    """One of the object engine's actions as a comparable row (type, a, cards): a truck's cards in the order
    they are placed, a card as its kind."""
    kind = type(action)
    if kind is Draw:
        return (DRAW, 0, ())
    if kind is Connect:
        return (CONNECT, action.truck, ())
    if kind is DiscardDrawn:
        return (DISCARD_DRAWN, 0, ())
    if kind is TakeTruck:
        return (TAKE, action.truck, tuple(card_kind(c) for c in action.cards))
    if kind is Steal:
        return (STEAL, card_kind(action.card), ())
    if kind is DisposeMinus:
        return (DISPOSE, 0, ())
    if kind is Donate:
        return (DONATE, card_kind(action.card), ())
    if kind is QuitEmptyHanded:
        return (QUIT_EMPTY, 0, ())
    raise ValueError(f"not a Zooloretto Duell action: {action!r}")


def action_row(game: np.ndarray, tables: np.ndarray, row: np.ndarray) -> tuple:
    """A compiled action as the comparable row `action_of` makes."""
    kind, a, b = (int(v) for v in row)
    if kind == TAKE:
        pos, r = game[0], tables[0]
        size = pos["truck_size"][a]
        return (TAKE, a, tuple(int(pos["trucks"][a, r["orders"][size, b, k]]) for k in range(size)))
    return (kind, a, ())
