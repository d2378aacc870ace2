"""Tyranno Ex policies in compiled code, and whole games played with them (`play_chunk`).

Each makes, in every position, the decision its object counterpart in `policies.py` makes, and
reads only what its player may see (the board, the current chips, how many chips lie face down
on each space, the face-up cards, its own tray, the bag's count):
- `random` (`RandomPolicy`): action floor(u * n), u the next of the uniform doubles that
  `tyrsim.core.engine.rng.uniform` draws 128 at a time and hands out from the end of the block (one
  block per generator: a chunk goes on with the block `uniform` holds for its generator and hands
  the rest back, `chance.turn_loop_calls`, as the object engine's chunks do);
- `greedy`, `aggressive`, `builder` (`GreedyPolicy` and its variants): the same valuation with
  the same named weights (`WEIGHTS`; a weights file of `tyrsim tune` applies unchanged), its
  values computed in the object policy's order of floating-point operations, ties going to the
  same action. The combat odds are `heuristics.chance_table(rules)`, built once per chunk and read
  as a table.

What a chunk of games works in is one record of the dtype `WORKSPACE` (`new_workspace`): the list
of legal actions, the uniform doubles drawn ahead, the greedy valuation's cards and cached
space gains, and what the compiled search keeps (`compiled_search.py`); the weights are a record too
(`WEIGHT_RECORD`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable

import numpy as np
import pandas as pd
from numba import njit

from tyrsim.core.compiled.chance import UNIFORM_FIELDS, uniform
from tyrsim.core.compiled.chunks import ChunkPlayer, play_records, runner_columns
from tyrsim.core.compiled.forms import Form, form_of, seat_forms, weight_record
from tyrsim.core.compiled.numba_cache import keep_fresh
from tyrsim.games.tyranno_ex.board import ROWS
from tyrsim.games.tyranno_ex.compiled import (
    CHALLENGE,
    ENVIRONMENT,
    KEEP,
    MAX_ACTIONS,
    MAX_CHALLENGES,
    MAX_PLAYERS,
    MAX_SPOTS,
    MAX_STEPS,
    NO_CARD,
    NO_CHALLENGE,
    NUM_SYMBOLS,
    OVER,
    PLACE,
    SET_CHIPS,
    SOURCES,
    SPACES,
    TIE,
    TRADE,
    USE_FIVE,
    apply_action,
    count_environment_actions,
    dice,
    environment_action,
    final_score,
    hand_class,
    layout,
    legal_actions,
    new_position,
    rule_tables,
    set_up,
    strength,
    strength_dice_open,
)
from tyrsim.games.tyranno_ex.game import GAME_COUNTERS, SEAT_COUNTERS
from tyrsim.games.tyranno_ex.heuristics import chance_table, future_points, next_score
from tyrsim.games.tyranno_ex.rules import Rules
from tyrsim.games.tyranno_ex.weights import GreedyWeights

keep_fresh(__file__)

RANDOM, GREEDY = 0, 1  # kinds of policy; the greedy family differs only in its weights
# the policies with a compiled form, by name (`compiled_form`)
POLICY_KINDS = {"random": RANDOM, "greedy": GREEDY, "aggressive": GREEDY, "builder": GREEDY}
# the greedy valuation's weights by their names (`weights.GreedyWeights`; a record: `weights.attack_weight`)
WEIGHT_RECORD = weight_record(GreedyWeights)
# `board_value`'s arguments for the board as it is (numpy scalars: a Python literal passed compiles a copy)
UNCHANGED, NO_DIE_GAIN = np.int64(0), np.False_
GAIN_KEYS = 4 ** 4  # chips laid on one space, as counts per symbol in base 4 (a setting lays at most 3)

ACTION_ROWS = max(MAX_ACTIONS, MAX_CHALLENGES + 1)  # the most actions a decision offers
WORKSPACE = np.dtype([
    ("actions", np.int64, (ACTION_ROWS, 3)),  # rows of `compiled.legal_actions`
    # the uniform doubles `tyrsim.core.engine.rng.uniform` would hold for the chunk's generator (`chance.uniform`:
    # one block per generator, carried on across the games of a chunk and from chunk to chunk)
    *UNIFORM_FIELDS,
    # the greedy valuation's cards (`GreedyPolicy._cards`): their symbols and weights, spot order
    ("card_symbols", np.int64, (MAX_SPOTS, 3)), ("card_weights", np.float64, (MAX_SPOTS,)), ("card_count", np.int64),
    # ... a bit per symbol each shows, and what each adds to the board's value now (if it survives)
    ("card_masks", np.int64, (MAX_SPOTS,)), ("card_terms", np.float64, (MAX_SPOTS,)),
    ("card_survives", np.int64, (MAX_SPOTS,)),
    # `setting_values`' gain of a space by the chips laid there (counts per symbol in base 4), each worked out
    # once a decision; the stamp of the decision, for the cache `after_value`
    ("gains", np.float64, (SPACES, GAIN_KEYS)), ("stamp", np.int64),
    ("values", np.float64, (MAX_ACTIONS,)),
    ("chips", np.int64, (NUM_SYMBOLS,)), ("after", np.int64, (NUM_SYMBOLS,)),  # chips per symbol: now, after
    # the board's value after a change (symbol leaving, symbol arriving, chips arriving), for `after_count`
    # chips leaving, valid where after_stamp == stamp
    ("after_value", np.float64, (NUM_SYMBOLS, NUM_SYMBOLS, 4)),
    ("after_count", np.int64, (NUM_SYMBOLS, NUM_SYMBOLS, 4)),
    ("after_stamp", np.int64, (NUM_SYMBOLS, NUM_SYMBOLS, 4)),
    # the compiled search's (`compiled_search.py`): the listed actions' numbers and which are candidates, how many
    # a decision weighs and the guide's weights that rank them, the rollout policy, the leaf evaluation's
    # temperature and each player's standing
    ("keys", np.int64, (ACTION_ROWS,)), ("kept", np.int64, (ACTION_ROWS,)), ("width", np.int64),
    ("guide_weights", WEIGHT_RECORD), ("rollout", np.int64), ("rollout_weights", WEIGHT_RECORD),
    ("temperature", np.float64), ("standings", np.float64, (MAX_PLAYERS,)),
])
# the combat odds of a chunk without a greedy player, which reads none (`chance_table` imports scipy.special)
NO_ODDS = np.zeros((0, 0, 0, 0, 4))
NO_ODDS.flags.writeable = False  # the type of the shared, read-only `chance_table`: one compilation
# the rules' tables a greedy policy reads: `heuristics.future_points` and `next_score` of every spot
POLICY_TABLES = np.dtype([("future_points", np.float64, (MAX_SPOTS,)), ("next_score", np.float64, (MAX_SPOTS,))])


def new_workspace() -> np.recarray:
    """A chunk's work space (a one-element recarray of WORKSPACE: compiled code takes `work[0]`)."""
    return np.zeros(1, WORKSPACE).view(np.recarray)


@functools.lru_cache(maxsize=16)
def policy_tables(rules: Rules) -> np.recarray:
    """The values a greedy policy reads per spot, by the object policy's own functions (the same floats); made
    once per rule set and shared."""
    out = np.zeros(1, POLICY_TABLES).view(np.recarray)
    for spot in range(rule_tables(rules)[0].spot_count):
        out[0].future_points[spot] = future_points(spot, rules)
        out[0].next_score[spot] = next_score(spot, rules)
    return out


def compiled_form(policy) -> Form | None:
    """(kind, weights: a one-element recarray of WEIGHT_RECORD) of an object policy's compiled form (greedy,
    aggressive, builder, or tuned weights: one kind), or None where there is none (the search)."""
    return form_of(policy, POLICY_KINDS, GreedyWeights)


# --- chance --------------------------------------------------------------------------------------------------


@njit(cache=True)
def choose_random(pos, rules, bits, work) -> int:
    """`RandomPolicy`: action floor(u * n) of the n legal actions. An environment turn writes only the action
    chosen, at its place in the list (`compiled.environment_action`)."""
    if pos.phase == ENVIRONMENT:
        n = count_environment_actions(pos, rules)
        if n > 0:
            i = int(uniform(bits, work) * n)
            environment_action(pos, rules, i, work.actions)
            return i
    return int(uniform(bits, work) * legal_actions(pos, rules, work.actions))


# --- the greedy family (GreedyPolicy, AggressivePolicy, BuilderPolicy) ----------------------------------------


@njit(cache=True, inline="always")
def current_chips(pos, chips) -> None:
    """Current chips per symbol over the 4 spaces (`Environment.chips_of`)."""
    for s in range(NUM_SYMBOLS):
        chips[s] = 0
    for space in range(SPACES):
        chips[pos.current[space]] += pos.current_count[space]


@njit(cache=True)
def value_cards(weights, pos, rules, ptables, work) -> None:
    """`GreedyPolicy._cards`: every card on the board with its weight, worth 1 + the points it can still score
    (an opponent's counts against with `attack_weight`), and what it adds to the board's value under the
    current chips (`work.chips`, already counted)."""
    n = 0
    dw = weights.dice_weight
    chips = work.chips
    for spot in range(rules.spot_count):
        card = pos.spots[spot]
        if card == NO_CARD:
            continue
        worth = 1.0 + ptables.future_points[spot]
        weight = worth if pos.owner[card] == pos.player else -weights.attack_weight * worth
        work.card_weights[n] = weight
        for k in range(3):
            work.card_symbols[n, k] = rules.symbols[card, k]
        work.card_masks[n] = rules.mask[card]
        a, b, c = rules.symbols[card, 0], rules.symbols[card, 1], rules.symbols[card, 2]
        count = chips[a] + chips[b] + chips[c]
        work.card_survives[n] = count > 0
        work.card_terms[n] = weight * (1.0 + dw * (count if count < 10 else 10))
        n += 1
    work.card_count = n


@njit(cache=True)
def board_value(weights, work, chips, changed, die_gain) -> float:
    """`GreedyPolicy._board_value`: the board's worth under current chips `chips`, which differ from the current
    ones (`work.chips`) only in the symbols of the bit mask `changed`; with `die_gain`, an own card whose
    symbols the change completes is worth `die_bonus` more. A card showing none of the changed symbols adds
    what it adds now (`value_cards`): the same terms in the same order, so the same sum to the last bit."""
    total = 0.0
    dw = weights.dice_weight
    before = work.chips
    for i in range(work.card_count):
        if not work.card_masks[i] & changed:
            if work.card_survives[i]:
                total += work.card_terms[i]
            continue
        a, b, c = work.card_symbols[i, 0], work.card_symbols[i, 1], work.card_symbols[i, 2]
        weight = work.card_weights[i]
        ca, cb, cc = chips[a], chips[b], chips[c]
        if ca or cb or cc:  # the card survives
            n = ca + cb + cc
            total += weight * (1.0 + dw * (n if n < 10 else 10))
            if die_gain and weight > 0 and ca and cb and cc and not (before[a] and before[b] and before[c]):
                total += weights.die_bonus
    return total


@njit(cache=True)
def greedy_place(weights, pos, rules, work, n) -> int:
    """`GreedyPolicy._place`: the face-up card that survives with the most dice and fits the chips in hand."""
    chips = work.chips
    current_chips(pos, chips)
    hand = pos.hands[pos.player]
    best, best_value = 0, -np.inf
    for i in range(n):
        pile, spot = work.actions[i, 1], work.actions[i, 2]
        card = pos.piles[pile, pos.pile_size[pile] - 1]
        count = 0  # its dice (uncapped, as the object policy counts them)
        for k in range(3):
            count += chips[rules.symbols[card, k]]
        fits = 0  # chips in hand of its symbols, each symbol once
        for s in range(NUM_SYMBOLS):
            if rules.mask[card] >> s & 1:
                fits += hand[s]
        value = ((1.0 if count else 0.3) + weights.dice_weight * count + 0.02 * fits) + 0.01 * ROWS[spot % 4]
        if value > best_value:  # the first best, as max() picks it
            best, best_value = i, value
    return best


@njit(cache=True)
def greedy_tie(weights, pos, rules, ptables, work, n) -> int:
    """`GreedyPolicy._tie`: the tied symbol whose chips leave the board worth most."""
    current_chips(pos, work.chips)
    value_cards(weights, pos, rules, ptables, work)
    space = pos.tie_space
    symbol, count = pos.current[space], pos.current_count[space]
    after = work.after
    best, best_value = 0, -np.inf
    for i in range(n):
        for s in range(NUM_SYMBOLS):
            after[s] = work.chips[s]
        after[symbol] -= count
        after[work.actions[i, 1]] += pos.potential[space, work.actions[i, 1]]  # the revealed chips
        value = board_value(weights, work, after, (1 << symbol) | (1 << work.actions[i, 1]), NO_DIE_GAIN)
        if value > best_value:
            best, best_value = i, value
    return best


@njit(cache=True)
def space_gain(weights, pos, work, now, die_gain, space, key) -> float:
    """`setting_values`' space_gain: the expected gain of laying the chips `key` (counts
    per symbol in base 4) on a space. A change the player's chips alone decide is certain; with unknown
    face-down chips the player's symbol wins with its share; chips that do not force a change are an
    investment (`invest_weight`)."""
    chips, after = work.chips, work.after
    symbol, count = pos.current[space], pos.current_count[space]
    hidden = pos.potential[space, 0] + pos.potential[space, 1] + pos.potential[space, 2] + pos.potential[space, 3]
    size = (key >> 6) + (key >> 4 & 3) + (key >> 2 & 3) + (key & 3)
    gain = 0.0
    for s in range(NUM_SYMBOLS):  # set(laid): small integers iterate in ascending order
        mine = key >> (6 - 2 * s) & 3
        if mine == 0:
            continue
        # the board's value after the change: the object policy's `values`, by the chips after it, which the
        # symbol and count leaving and the chips arriving decide
        if work.after_stamp[symbol, s, mine] == work.stamp and work.after_count[symbol, s, mine] == count:
            value = work.after_value[symbol, s, mine]
        else:
            for t in range(NUM_SYMBOLS):
                after[t] = chips[t]
            after[symbol] -= count
            after[s] += mine
            value = board_value(weights, work, after, (1 << symbol) | (1 << s), die_gain)
            work.after_value[symbol, s, mine], work.after_count[symbol, s, mine] = value, count
            work.after_stamp[symbol, s, mine] = work.stamp
        change = value - now
        if hidden + size > count:  # the space changes now
            share = mine / (mine + hidden) if hidden else mine / size
        else:  # the chips wait face down for a later change
            share = weights.invest_weight * mine / (count + 1)
        gain += share * change
    return gain


@njit(cache=True)
def setting_values(weights, pos, rules, ptables, work, n) -> None:
    """`GreedyPolicy.setting_values`: work.values[i] for every setting (SetChips, UseFive) among the actions,
    the sum of its spaces' gains in space order (each space's gain worked out once: `space_gain`)."""
    current_chips(pos, work.chips)
    value_cards(weights, pos, rules, ptables, work)
    die_gain = strength_dice_open(pos, rules)
    now = board_value(weights, work, work.chips, UNCHANGED, NO_DIE_GAIN)
    work.stamp += 1
    code = hand_class(rules, pos.hands[pos.player])
    for j in range(rules.class_slot_count[code]):  # the gain of every way the hand can lay chips on a space
        slot = rules.class_slots[code, j]
        work.gains[slot >> 8, slot & 255] = space_gain(weights, pos, work, now, die_gain, slot >> 8, slot & 255)
    for i in range(n):
        kind = work.actions[i, 0]
        if kind != SET_CHIPS and kind != USE_FIVE:
            continue
        packed = work.actions[i, 2]  # the spaces laid on, in order (`compiled.settings`)
        value = 0.0
        for j in range(packed & 3):
            slot = packed >> (2 + 10 * j) & 1023
            value += work.gains[slot >> 8, slot & 255]
        work.values[i] = value


@njit(cache=True)
def greedy_setting(weights, pos, rules, ptables, work, n) -> int:
    """`GreedyPolicy._setting`: the "5" marker setting worth most if worth more than the marker's points,
    else the chip setting worth most if it gains anything, else keep the marker, trade or pass."""
    setting_values(weights, pos, rules, ptables, work, n)
    best_set, bar_set = -1, 0.0
    best_five, bar_five = -1, float(rules.five_points)
    keep = -1
    for i in range(n):
        kind = work.actions[i, 0]
        if kind == SET_CHIPS:
            if work.values[i] > bar_set + 1e-9:
                best_set, bar_set = i, work.values[i]
        elif kind == USE_FIVE:
            if work.values[i] > bar_five + 1e-9:
                best_five, bar_five = i, work.values[i]
        elif kind == KEEP:
            keep = i
    if best_five >= 0:
        return best_five
    if best_set >= 0:
        return best_set
    if keep >= 0:
        return keep
    return greedy_trade(pos, rules, work, n)


@njit(cache=True)
def greedy_trade(pos, rules, work, n) -> int:
    """`GreedyPolicy.trade`: trade away up to the limit of chips whose symbol none of the player's cards shows
    (as many as a legal trade allows), else pass."""
    wanted = 0
    for spot in range(rules.spot_count):
        card = pos.spots[spot]
        if card != NO_CARD and pos.owner[card] == pos.player:
            wanted |= rules.mask[card]
    hand = pos.hands[pos.player]
    useless = np.zeros(NUM_SYMBOLS, np.int64)  # chips per symbol none of its cards shows
    total = 0
    for s in range(NUM_SYMBOLS):
        if not wanted >> s & 1:
            useless[s] = hand[s]
            total += hand[s]
    for k in range(min(total, rules.trade_limit), 0, -1):
        uses = np.zeros(NUM_SYMBOLS, np.int64)  # the first k useless chips, symbol by symbol
        left = k
        for s in range(NUM_SYMBOLS):
            uses[s] = min(useless[s], left)
            left -= uses[s]
        for i in range(n):
            if work.actions[i, 0] == TRADE:
                t = work.actions[i, 1]
                if rules.trade_size[t] == k and same_chips(rules.trade_uses[t], uses):
                    return i
    return 0  # pass: the first action of an environment turn


@njit(cache=True, inline="always")
def same_chips(a, b) -> bool:
    """Whether two counts of chips per symbol are equal."""
    return a[0] == b[0] and a[1] == b[1] and a[2] == b[2] and a[3] == b[3]


@njit(cache=True)
def greedy_challenge(weights, pos, rules, ptables, chances, work, n) -> int:
    """`GreedyPolicy._challenge`: the challenge with the best expected point swing by the exact combat odds
    (`chances`: `heuristics.chance_table`), if it beats `fight_margin`; else no fight."""
    best, best_value = 0, weights.fight_margin
    for i in range(n):
        if work.actions[i, 0] != CHALLENGE:
            continue
        attacker, defender = work.actions[i, 1], work.actions[i, 2]
        value = challenge_value(weights, pos, rules, ptables, chances, attacker, defender)
        if value > best_value:
            best, best_value = i, value
    return best


@njit(cache=True)
def challenge_value(weights, pos, rules, ptables, chances, attacker, defender) -> float:
    """`GreedyPolicy.challenge_values`' expected point swing of the challenge of the card on spot `defender` by
    the card on spot `attacker`."""
    a, d = pos.spots[attacker], pos.spots[defender]
    odds = chances[strength(pos.die[a]), dice(pos, rules, a), strength(pos.die[d]), dice(pos, rules, d)]
    a_clean, a_close, d_close, d_clean = odds[0], odds[1], odds[2], odds[3]
    a_worth = 1.0 + ptables.future_points[attacker]
    d_worth = 1.0 + ptables.future_points[defender]
    a_now, d_now = ptables.next_score[attacker], ptables.next_score[defender]
    return (weights.attack_weight * (a_clean * d_worth + a_close * d_now) - d_clean * a_worth) - d_close * a_now


@njit(cache=True, inline="always")
def choose_greedy(weights, pos, rules, ptables, chances, work, n) -> int:
    phase = pos.phase
    if phase == PLACE:
        return greedy_place(weights, pos, rules, work, n)
    if phase == TIE:
        return greedy_tie(weights, pos, rules, ptables, work, n)
    if work.actions[0, 0] == NO_CHALLENGE:
        return greedy_challenge(weights, pos, rules, ptables, chances, work, n)
    return greedy_setting(weights, pos, rules, ptables, work, n)


@njit(cache=True, inline="always")
def decide(kind, weights, pos, rules, ptables, chances, bits, work) -> int:
    """The index, into the legal actions written to `work.actions`, of the action policy `kind` (with the
    record `weights`) chooses in position `pos`."""
    if kind == RANDOM:
        return choose_random(pos, rules, bits, work)
    n = legal_actions(pos, rules, work.actions)
    if n == 1:
        return 0
    return choose_greedy(weights, pos, rules, ptables, chances, work, n)


@njit(cache=True)
def decision(kind, weights, pos, rules, ptables, chances, bits, work) -> int:
    """`decide`, as a function of its own: the compiled search's rollouts (`compiled_search.py`) call it."""
    return decide(kind, weights, pos, rules, ptables, chances, bits, work)


@njit(cache=True)
def choose(kind, weights, game, tables, ptables, chances, rng, work) -> int:
    """`decide` in the one-position array `game`, called from Python."""
    return decide(kind, weights[0], game[0], tables[0], ptables[0], chances, rng.bit_generator, work[0])


# --- whole games ---------------------------------------------------------------------------------------------

# per seat: the columns of `play_games`' seat records
SEAT_COLUMNS = ("score", *(f"points_{k}" for k in SOURCES), *SEAT_COUNTERS, "five_used", "five_round")
GAME_COLUMNS = ("actions", *GAME_COUNTERS)


# nogil: the turn loop touches only the arrays and the generator it is handed, so two chunk players (the studio's
# variant and rulebook) play their chunks on two threads at once
@njit(cache=True, nogil=True)
def play_games(tables, ptables, chances, kinds, weights, first, count, bits, game, blank, workspace, seats,
               games) -> None:
    """Games first .. first+count-1 to their end, policy kinds[(player + game) % n] with the record
    weights[same] for each player (`runner.rotation`); their records into seats[game, seat, SEAT_COLUMNS]
    and games[game, GAME_COLUMNS], every draw from the bit generator `bits`. `game` and `blank` are
    one-position arrays (`blank` laid out by `compiled.layout`, otherwise zeros), `workspace` a one-element
    WORKSPACE array (`new_workspace`)."""
    pos, rules, ptable, work = game[0], tables[0], ptables[0], workspace[0]
    actions = work.actions
    for g in range(count):
        game_id = first + g
        game[0] = blank[0]
        set_up(game, tables, bits)
        n = pos.num_players
        while pos.phase != OVER:
            which = (pos.player + game_id) % n
            if kinds[which] == RANDOM:  # here, not through `decide`: one call less per action
                i = choose_random(pos, rules, bits, work)
            else:
                i = decide(kinds[which], weights[which], pos, rules, ptable, chances, bits, work)
            apply_action(pos, rules, actions[i, 0], actions[i, 1], actions[i, 2], bits)
            if pos.actions > MAX_STEPS:
                raise RuntimeError("tyranno-ex compiled engine: a game did not end within 100,000 actions")
        for p in range(n):
            row = seats[g, p]
            row[0] = final_score(pos, p)
            for k in range(4):
                row[1 + k] = pos.points[k, p]
            for k in range(pos.seat_counters.shape[0]):
                row[5 + k] = pos.seat_counters[k, p]
            row[5 + pos.seat_counters.shape[0]] = rules.five_marker and not pos.five[p]
            row[6 + pos.seat_counters.shape[0]] = np.nan if pos.five_round[p] == 0 else pos.five_round[p]
        games[g, 0] = pos.actions
        for k in range(pos.counters.shape[0]):
            games[g, 1 + k] = pos.counters[k]


def chunk_player(rules: Rules, forms: list[Form], names: list[str]) -> ChunkPlayer:
    """Games of the policies' compiled `forms` (`compiled_form`) named `names`, with rotated seats, under
    `rules`: a `ChunkPlayer`, whose call (first, count, rng, game_rng) gives the table `runner.play_chunk` makes
    of games first .. first+count-1, drawing one after another from `rng` or game g from `game_rng(g)`
    (`CompiledEngine.chunk_player`); the rules' tables are made once, for every chunk it plays. ValueError
    naming the rule the compiled engine cannot play."""
    n = len(forms)
    tables = rule_tables(rules)
    blank = new_position()
    layout(blank, rules, n)
    kinds, weights = seat_forms(forms)
    chances = np.ascontiguousarray(chance_table(rules)) if GREEDY in kinds else NO_ODDS
    game, workspace, ptables = new_position(), new_workspace(), policy_tables(rules)

    def play(start, games_now, bits, seats, games) -> None:
        play_games(tables, ptables, chances, kinds, weights, start, games_now, bits, game, blank,
                   workspace, seats, games)

    def play_chunk(first: int, count: int, rng: np.random.Generator,
                   game_rng: Callable[[int], np.random.Generator] | None = None) -> pd.DataFrame:
        seats, games = play_records(play, first, count, rng, game_rng, workspace, n, SEAT_COLUMNS, GAME_COLUMNS,
                                    seat_type=np.float64)
        return table(seats, games, first, names)

    return play_chunk


def table(seats: np.ndarray, games: np.ndarray, first: int, names: list[str]) -> pd.DataFrame:
    """The runner's rows (game by game, seat by seat) from `play_games`' records."""
    n = seats.shape[1]
    score = seats[:, :, 0]
    won = score == score.max(axis=1, keepdims=True)  # a tie for the most points is a shared victory
    columns = runner_columns(first, names, score, won)
    columns["actions"] = np.repeat(games[:, 0], n)
    for k, name in enumerate(GAME_COUNTERS):
        columns[name] = np.repeat(games[:, 1 + k].astype(np.float64), n)
    for k, name in enumerate(SEAT_COLUMNS[1:], start=1):
        columns[name] = seats[:, :, k].ravel()
    return pd.DataFrame(columns)
