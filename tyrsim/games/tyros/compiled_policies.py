"""Tyros policies in compiled code, and whole games played with them (`play_chunk`).

Each makes, in every position, the decision its object counterpart makes, drawing the same
chance from the same generator, so the same seed plays the same games:
- `random` (`tyrsim.core.engine.protocols.RandomPolicy`): action floor(u * n), u the next of the uniform
  doubles that `tyrsim.core.engine.rng.uniform` draws 128 at a time and hands out from the end of the
  block (one block per generator, kept across the games of a chunk as the object engine keeps it);
- `planner` (`PlannerPolicy`): the change of its value (the score if the game ended now, hoped-for cities
  on lone ships, ships in Tyros, progress to the all-four-empires bonus, its cards by their use) each
  action brings, with the same named weights (a weights file of `tyrsim tune` applies unchanged);
- `greedy` (`GreedyPolicy`): the change of its score each board action brings.
Both look at a board action on a scratch copy of the position changed by the real rule functions (the
action without the cards of free choice: a toll, a ship's cards of any colour, whose values are taken off
afterwards, as the object policies do), and break ties as the object policies do: the options in the
object policy's order (the actions weighed in list order, a pass last) and `rng.integers(ties)`. They
read only what their player may see: the board, the discard pile and their own hand (the look-ahead's
rules move the tile pile's next tile into the hand, which no value reads). Compiled code draws from the
generator's bit generator (`bits`: `rng.bit_generator`).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd
from numba import njit

from tyrsim.core.compiled.chance import integers, uniform
from tyrsim.core.compiled.chunks import ChunkPlayer, play_records, runner_columns
from tyrsim.core.compiled.forms import Form, form_of, seat_forms, weight_record
from tyrsim.core.compiled.numba_cache import keep_fresh
from tyrsim.games.tyros.board import TYROS
from tyrsim.games.tyros.compiled import (
    ACCEPT,
    BLOCK,
    BUY,
    CARD_KINDS,
    CITY,
    CITY_POINTS,
    COUNTERS,
    EMPIRE_COUNT,
    FIRST_BONUS,
    LARGEST_POINTS,
    MAX_STEPS,
    MOST_BONUS,
    MOVE,
    NO_CARDS,
    NO_TOLL,
    OFFER_CARDS,
    P_ACTIONS,
    P_KEEP,
    P_OFFER,
    P_OVER,
    P_PARTNER,
    PACK_BITS,
    PLAY_TILE,
    SHIP,
    SHIP_POINTS,
    SWAP,
    TOTAL,
    apply_action,
    build_city,
    build_ship,
    current_player,
    empire_size,
    legal_actions,
    move_ship,
    new_position,
    new_workspace,
    place_chip,
    rule_tables,
    score_game,
    set_up,
    ships_afloat,
    ships_at,
    supported,
    unpacked,
)
from tyrsim.games.tyros.components import COLOUR_NAMES, EMPIRES, WILD
from tyrsim.games.tyros.rules import Rules
from tyrsim.games.tyros.weights import PlannerWeights

keep_fresh(__file__)

RANDOM, PLANNER, GREEDY = 0, 1, 2
# the policies with a compiled form, by name (`compiled_form`; the search's rollouts, `compiled_search.py`)
POLICY_KINDS = {"random": RANDOM, "planner": PLANNER, "greedy": GREEDY}
# the planner's weights by their names (`weights.PlannerWeights`; a record: `weights.city_hope`)
WEIGHT_RECORD = weight_record(PlannerWeights)
TIE = 1e-9  # the object policies' tolerance: values this close to the best are ties, and a gain must exceed it


def compiled_form(policy) -> Form | None:
    """(kind, weights: a one-element recarray of WEIGHT_RECORD) of an object policy's compiled form, or None
    where there is none (the search, the tile policy)."""
    return form_of(policy, POLICY_KINDS, PlannerWeights)


@njit(cache=True, inline="always")
def choose_random(pos, rules, bits, work) -> int:
    """`RandomPolicy`: action floor(u * n) of the n legal actions."""
    return int(uniform(bits, work) * legal_actions(pos, rules, work))


@njit(cache=True)
def choose(kind, weights, game, tables, bits, workspace) -> int:
    """The index, into the legal actions written to workspace[0].actions, of the action policy `kind` (with the
    record weights[0]) chooses in the one-position array `game`, drawing from the bit generator `bits`; called
    from Python."""
    return decide(kind, weights[0], game[0], tables[0], bits, workspace[0])


@njit(cache=True)
def decide(kind, weights, pos, rules, bits, work) -> int:
    if kind == RANDOM:
        return choose_random(pos, rules, bits, work)
    n = legal_actions(pos, rules, work)
    p = current_player(pos)
    actions = work.actions
    if pos.phase == P_OFFER:  # accept what gains (greedy: more cards than it gives), if it can pay
        if actions[0, 0] == ACCEPT:
            if kind == GREEDY:
                gains = pos.offer_give > pos.offer_get
            else:
                needs = needs_of(pos, rules, p)
                gains = (cards_value(weights, needs, pos.offer_give_kind, pos.offer_give)
                         - cards_value(weights, needs, pos.offer_get_kind, pos.offer_get)) > 0
            if gains:
                return 0
        return n - 1  # refuse
    if pos.phase == P_PARTNER:
        return trade_partner(pos, rules, bits, work, n)
    if pos.phase == P_KEEP:
        return keep_choice(kind, weights, pos, rules, work, p, n)
    if actions[0, 0] == BLOCK:  # no tile can be played: any one goes
        return integers(bits, n)
    if kind == GREEDY:
        greedy_values(pos, rules, work, p, n)
    else:
        planner_values(weights, pos, rules, work, p, n)
    return best(pos, bits, work, n)


@njit(cache=True)
def best(pos, bits, work, n) -> int:
    """`policies.best` over the actions weighed (work.values, NaN where not weighed): the options in the object
    policy's order (in card actions the gains above TIE in list order, then the pass, which is action 0) and
    values within TIE of the best a tie, chosen by `rng.integers(ties)`."""
    values = work.values
    actions = pos.phase == P_ACTIONS
    if actions:
        values[0] = 0.0
    top = -np.inf
    for i in range(n):
        if values[i] == values[i] and (not actions or i == 0 or values[i] > TIE) and values[i] > top:
            top = values[i]
    ties = np.int64(0)  # an int64 from the start (compiled.NO_TOLL says why)
    for j in range(n):
        i = (j + 1) % n if actions else j  # the pass last
        if values[i] == values[i] and (not actions or i == 0 or values[i] > TIE) and values[i] >= top - TIE:
            ties += 1
    pick = integers(bits, ties)
    for j in range(n):
        i = (j + 1) % n if actions else j
        if values[i] == values[i] and (not actions or i == 0 or values[i] > TIE) and values[i] >= top - TIE:
            if pick == 0:
                return i
            pick -= 1
    return -1  # not reached: some option is the best


@njit(cache=True)
def trade_partner(pos, rules, bits, work, n) -> int:
    """`policies.trade_partner`: of the players who accepted, the one with the lowest score if the game ended now
    (public); equal scores at random."""
    score_game(pos, rules, work)
    for i in range(n):
        work.values[i] = -float(work.scores[work.actions[i, 1], TOTAL])
    return best(pos, bits, work, n)


@njit(cache=True)
def keep_choice(kind, weights, pos, rules, work, p, n) -> int:
    """The cards kept: greedy the most plentiful kinds (each card counted as the number of its kind in the hand),
    the planner the most useful (card values); the first best, as Python's max."""
    needs = needs_of(pos, rules, p)
    chosen, chosen_value = 0, -np.inf
    for i in range(n):
        kept = work.actions[i, 1]
        value = 0.0
        for k in range(CARD_KINDS):
            for _ in range(unpacked(kept, k)):
                value += pos.hands[p, k] if kind == GREEDY else card_value(weights, needs, k)
        if value > chosen_value:
            chosen, chosen_value = i, value
    return chosen


@njit(cache=True, inline="always")
def card_value(weights, needs, kind) -> float:
    """A wild or a card of a colour it needs (`needs`: a bit per colour) is worth `needed_card`, any other
    `spare_card`."""
    return weights.needed_card if kind == WILD or (needs >> kind) & 1 else weights.spare_card


@njit(cache=True, inline="always")
def cards_value(weights, needs, kind, count) -> float:
    value = 0.0
    for _ in range(count):
        value += card_value(weights, needs, kind)
    return value


@njit(cache=True)
def packed_value(weights, needs, packed) -> float:
    """The value of a packed multiset of cards, added card by card in the order of kinds."""
    value = 0.0
    for k in range(CARD_KINDS):
        for _ in range(unpacked(packed, k)):
            value += card_value(weights, needs, k)
    return value


@njit(cache=True)
def needs_of(pos, rules, p) -> int:
    """`PlannerPolicy.needs`: the colours (a bit each) of the spaces where p has a ship and could build a city."""
    needs = 0
    for s in range(rules.spaces):
        if pos.chips[s] >= 0 and pos.cities[s] < 0 and ships_at(pos, rules, p, s):
            needs |= 1 << pos.chips[s]
    return needs


@njit(cache=True)
def prospects(weights, pos, rules, work, p) -> float:
    """`PlannerPolicy.prospects`: hoped-for cities on lone ships, ships in Tyros, progress to the all-four-empires
    bonus and the cards by their use (the ranks of work.ranks, which `score_game` filled)."""
    total = 0.0
    for s in range(rules.spaces):
        mine = ships_at(pos, rules, p, s)
        if mine == 0:
            continue
        colour = pos.chips[s]
        if s == TYROS and (colour < 0 or pos.cities[TYROS] >= 0):
            total += weights.tyros_ship * mine
        elif colour >= 0 and pos.cities[s] < 0 and ships_at(pos, rules, -1, s) == mine:
            rank = work.ranks[colour]
            total += weights.city_hope * (rules.city_points[rank] - rules.ship_points[rank])
    if rules.first_city_all_four and pos.all_empires_first < 0:
        colours = 0
        for e in range(EMPIRE_COUNT):
            colours += (pos.city_colours[p] >> e) & 1
        total += weights.bonus_hope * rules.all_empires_bonus * colours / 4
    needs = needs_of(pos, rules, p)
    cards = 0.0
    for k in range(CARD_KINDS):
        cards += pos.hands[p, k] * card_value(weights, needs, k)
    return total + cards


@njit(cache=True, inline="always")
def planner_value(weights, pos, rules, work, p) -> float:
    """`PlannerPolicy.value`: the score if the game ended now plus the prospects."""
    score_game(pos, rules, work)
    return work.scores[p, TOTAL] + prospects(weights, pos, rules, work, p)


@njit(cache=True, inline="always")
def shared_action(work, i) -> bool:
    """Whether the i-th action is the (i-1)-th without its cards of free choice changed: the same move with
    another toll card, the same ship build with other cards of any colour (they lie next to each other)."""
    if i == 0:
        return False
    a, b = work.actions[i], work.actions[i - 1]
    if a[0] == MOVE and b[0] == MOVE:
        return a[1] == b[1] and a[2] == b[2]
    return a[0] == SHIP and b[0] == SHIP and a[1] == b[1]


@njit(cache=True)
def look_ahead(pos, rules, work, i):
    """The position after the i-th action without its cards of free choice, on the scratch copy (board actions
    draw no chance)."""
    scratch = work.scratch
    scratch[0] = pos
    new = scratch[0]
    row = work.actions[i]
    kind, a, b = row[0], row[1], row[2]
    p = current_player(pos)
    if kind == PLAY_TILE:
        place_chip(new, rules, a, b)
    elif kind == MOVE:
        move_ship(new, rules, work, p, a, b, NO_TOLL, row[4])
    elif kind == CITY:
        build_city(new, rules, work, p, a)
    else:
        build_ship(new, rules, work, p, a, NO_CARDS)
    return new


@njit(cache=True, inline="always")
def chosen_cards(work, i) -> int:
    """The i-th action's cards of free choice, packed: a toll card, a ship's cards of any colour."""
    row = work.actions[i]
    if row[0] == MOVE:
        return 0 if row[3] < 0 else 1 << (PACK_BITS * row[3])
    if row[0] == SHIP:
        return row[2]
    return 0


@njit(cache=True)
def planner_values(weights, pos, rules, work, p, n) -> None:
    """`PlannerPolicy.scored` into work.values (NaN for the actions it does not weigh)."""
    values = work.values
    now = planner_value(weights, pos, rules, work, p)
    needs = needs_of(pos, rules, p)
    deck_value = 0.0
    for k in range(CARD_KINDS):
        deck_value += (rules.wild_cards if k == WILD else rules.cards_per_colour) * card_value(weights, needs, k)
    draw_value = deck_value / (4 * rules.cards_per_colour + rules.wild_cards)  # not the hidden draw pile
    shared, needs_after = 0.0, 0
    for i in range(n):
        row = work.actions[i]
        kind = row[0]
        values[i] = np.nan
        if kind == PLAY_TILE or kind == MOVE or kind == CITY or kind == SHIP:
            if not shared_action(work, i):
                new = look_ahead(pos, rules, work, i)
                shared = planner_value(weights, new, rules, work, p)
                needs_after = needs_of(new, rules, p)
            value = shared
            chosen = chosen_cards(work, i)
            for k in range(CARD_KINDS):
                for _ in range(unpacked(chosen, k)):
                    value -= card_value(weights, needs_after, k)
            values[i] = value - now
        elif kind == SWAP:
            values[i] = row[2] * draw_value - packed_value(weights, needs, row[1]) - 0.05
        elif kind == BUY:
            values[i] = card_value(weights, needs, row[2]) - packed_value(weights, needs, row[1])
        elif kind == OFFER_CARDS and row[2] == 1:
            values[i] = cards_value(weights, needs, row[3], row[4]) - card_value(weights, needs, row[1]) - 0.05


@njit(cache=True)
def greedy_values(pos, rules, work, p, n) -> None:
    """`GreedyPolicy`: the change of its score each board action brings (NaN for the others)."""
    values = work.values
    score_game(pos, rules, work)
    now = work.scores[p, TOTAL]
    shared = 0
    for i in range(n):
        kind = work.actions[i, 0]
        values[i] = np.nan
        if kind == PLAY_TILE or kind == MOVE or kind == CITY or kind == SHIP:
            if not shared_action(work, i):
                score_game(look_ahead(pos, rules, work, i), rules, work)
                shared = work.scores[p, TOTAL]
            values[i] = shared - now


# per seat: the columns of `play_games`' seat records
SEAT_COLUMNS = ("score", "largest_points", "city_points", "ship_points", "bonus_points", "cities", "ships",
                *COUNTERS)
GAME_COLUMNS = ("actions", "rounds", "tiles_left", "tyros_joined", "size_orange", "size_yellow", "size_green",
                "size_violet")


# nogil: the turn loop touches only the arrays and the generator it is handed, so two chunk players (the studio's
# variant and rulebook) play their chunks on two threads at once
@njit(cache=True, nogil=True)
def play_games(tables, kinds, weights, n, first, count, bits, game, blank, workspace, seats, games) -> None:
    """Games first .. first+count-1 to their end, policy kinds[(seat + game) % n] with the record weights[same]
    in each seat (`runner.rotation`); their records into seats[game, seat, SEAT_COLUMNS] and games[game,
    GAME_COLUMNS]."""
    pos, rules, work = game[0], tables[0], workspace[0]
    for g in range(count):
        game_id = first + g
        game[0] = blank[0]
        set_up(pos, rules, work, n, bits)
        while pos.phase != P_OVER:
            p = current_player(pos)
            which = (p + game_id) % n
            if kinds[which] == RANDOM:  # here, not through `decide`: the extra call costs a random game's time
                i = choose_random(pos, rules, bits, work)
            else:
                i = decide(kinds[which], weights[which], pos, rules, bits, work)
            apply_action(pos, rules, work, bits, i)
            if pos.actions > MAX_STEPS:
                raise RuntimeError("tyros compiled engine: a game did not end within 200,000 actions")
        score_game(pos, rules, work)
        for p in range(n):
            row, score = seats[g, p], work.scores[p]
            row[0], row[1], row[2], row[3] = score[TOTAL], score[LARGEST_POINTS], score[CITY_POINTS], score[SHIP_POINTS]
            row[4] = score[FIRST_BONUS] + score[MOST_BONUS]
            cities = 0
            for s in range(rules.spaces):
                cities += pos.cities[s] == p
            row[5], row[6] = cities, ships_afloat(pos, p)
            for c in range(pos.counts.shape[1]):
                row[7 + c] = pos.counts[p, c]
        tiles_left = pos.tile_count
        for p in range(n):
            tiles_left += pos.tile_hand_size[p]
        out = games[g]
        out[0], out[1], out[2], out[3] = pos.actions, pos.round_number, tiles_left, pos.chips[TYROS] >= 0
        for e in range(EMPIRE_COUNT):
            out[4 + e] = empire_size(pos, rules, e)


def chunk_player(rules: Rules, forms: list[Form], names: list[str]) -> ChunkPlayer:
    """Games of the policies' compiled `forms` (`compiled_form`) named `names`, with rotated seats, under
    `rules`: a `ChunkPlayer`, whose call (first, count, rng, game_rng) gives the table `runner.play_chunk` makes
    of games first .. first+count-1, drawing one after another from `rng` or game g from `game_rng(g)`
    (`CompiledEngine.chunk_player`); the rules' tables are made once, for every chunk it plays. ValueError
    naming the rule or the player count the compiled engine cannot play."""
    n = len(forms)
    if n not in (3, 4):
        raise ValueError(f"Tyros is played by 3 or 4 players, not {n}")
    problem = supported(rules, n)
    if problem is not None:
        raise ValueError(problem)
    tables = rule_tables(rules)
    kinds, weights = seat_forms(forms)
    game, blank, workspace = new_position(), new_position(), new_workspace()

    def play(start, games_now, bits, seats, games) -> None:
        play_games(tables, kinds, weights, n, start, games_now, bits, game, blank, workspace, seats, games)

    def play_chunk(first: int, count: int, rng: np.random.Generator,
                   game_rng: Callable[[int], np.random.Generator] | None = None) -> pd.DataFrame:
        seats, games = play_records(play, first, count, rng, game_rng, workspace, n, SEAT_COLUMNS, GAME_COLUMNS)
        return table(seats, games, first, names)

    return play_chunk


def table(seats: np.ndarray, games: np.ndarray, first: int, names: list[str]) -> pd.DataFrame:
    """The runner's rows (game by game, seat by seat) from `play_games`' records."""
    n = seats.shape[1]
    score, largest = seats[:, :, 0], seats[:, :, 1]
    # the winners: the highest total, then the most points in the largest empire; a tie in both is shared
    key = score * 10_000 + largest
    columns = runner_columns(first, names, score, key == key.max(axis=1, keepdims=True))
    columns["actions"] = np.repeat(games[:, 0], n)
    columns["rounds"] = np.repeat(games[:, 1], n)
    columns["tiles_left"] = np.repeat(games[:, 2], n)
    columns["tyros_joined"] = np.repeat(games[:, 3].astype(np.float64), n)
    for e in EMPIRES:
        columns[f"size_{COLOUR_NAMES[e]}"] = np.repeat(games[:, 4 + e], n)
    for c, name in enumerate(SEAT_COLUMNS[2:], start=2):
        columns[name] = seats[:, :, c].ravel()
    return pd.DataFrame(columns)
