"""Zooloretto Duell policies in compiled code, and whole games played with them (`play_chunk`).

Each makes, in every position, the decision its object counterpart in `policies.py` makes,
drawing the same chance from the same generator, so the same seed plays the same games:
- `random` (`RandomPolicy`): action floor(u * n), u the next of the uniform doubles that
  `tyrsim.core.engine.rng.uniform` draws 128 at a time and hands out from the end of the block (one
  block per generator, kept across the games of a chunk as the object engine keeps it);
- `greedy` (`GreedyPolicy`): the action that most raises its own score now, a tie broken by
  `rng.integers(ties)` (numpy's bounded draw from the bit generator);
- `heuristic` (`HeuristicPolicy`): its rules of thumb with the same named weights (a weights
  file of `tyrsim tune` applies unchanged). Its values are computed in the order of
  floating-point operations of `evaluation.margin`, so equal values stay equal, and ties go,
  as there, to the first action in the list.

Look-aheads apply an action, or place a truck's cards, on a scratch copy of the position (one
record copy); the heuristic's placement of a drawn card places the truck's cards once and then
the drawn card on the same scratch copy, rather than starting again.

What a chunk of games works in is one record of the dtype `WORKSPACE` (`new_workspace`): the
list of legal actions, the scratch position, the look-ahead's values and the uniform doubles
drawn ahead. Compiled code passes records as plain pointers, but counts the references to every
numpy array it passes on (two atomic operations a call and array, which took a third of a random
game's time when these were arrays); the policy weights are a record too (`WEIGHT_RECORD`). Chance comes
from the generator's bit generator (`rng.bit_generator`, here `bits`), drawn as numpy draws
(`tyrsim.core.compiled.chance`).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd
from numba import njit

from tyrsim.core.compiled.chance import UNIFORM_FIELDS, integers, uniform
from tyrsim.core.compiled.chunks import ChunkPlayer, play_records, runner_columns
from tyrsim.core.compiled.forms import Form, form_of, seat_forms, weight_record
from tyrsim.core.compiled.numba_cache import keep_fresh
from tyrsim.games.zooloretto_duell.cards import SPECIES
from tyrsim.games.zooloretto_duell.compiled import (
    CONNECT,
    DISCARD_DRAWN,
    DISPOSE,
    DRAW,
    MAX_ACTIONS,
    MAX_STEPS,
    MAX_TRUCKS,
    NOT_DONATED,
    NOT_TAKEN,
    POSITION,
    STEAL,
    TAKE,
    apply_action,
    check_pending,
    final_score,
    legal_actions,
    majorities,
    new_position,
    place_card,
    rule_tables,
    set_up,
    stand_colours,
)
from tyrsim.games.zooloretto_duell.game import COUNTERS, DONATION, END_TRIGGERS, OVER, PLACE
from tyrsim.games.zooloretto_duell.rules import Rules
from tyrsim.games.zooloretto_duell.weights import HeuristicWeights

keep_fresh(__file__)

RANDOM, GREEDY, HEURISTIC = 0, 1, 2
# the policies with a compiled form, by name (`compiled_form`)
POLICY_KINDS = {"random": RANDOM, "greedy": GREEDY, "heuristic": HEURISTIC}
# the heuristic's weights by their names (`weights.HeuristicWeights`; a record: `weights.take_threshold`)
WEIGHT_RECORD = weight_record(HeuristicWeights)
NONE = -np.inf  # the value of no truck
DISCARDED = np.int64(-1)  # `board`'s truck for a drawn card discarded (an int64, as compiled.UNUSED)

WORKSPACE = np.dtype([
    ("actions", np.int64, (MAX_ACTIONS, 3)),  # the legal actions, rows of `compiled.legal_actions`
    ("scratch", POSITION, (1,)),  # the look-ahead's copy of the position
    ("values", np.float64, (MAX_ACTIONS,)),  # the greedy policy's value of each action
    # the heuristic's placement of a drawn card (`heuristic_connect`): per player and truck
    ("gains", np.float64, (2, MAX_TRUCKS)), ("with_card", np.float64, (2, MAX_TRUCKS)),
    ("wanted", np.int8, (MAX_TRUCKS,)),
    # the uniform doubles `tyrsim.core.engine.rng.uniform` would hold for the chunk's generator (`chance.uniform`:
    # one block per generator, kept across the games of a chunk)
    *UNIFORM_FIELDS,
    # the search's (`compiled_search`): the legal actions' numbers, the leaf evaluation's copy of the position, the
    # heuristic's default weights (the evaluation's and the heuristic rollout's) and the search policy's options
    ("keys", np.int64, (MAX_ACTIONS,)), ("finish", POSITION, (1,)), ("weights", WEIGHT_RECORD),
    ("rollout", np.int64), ("finish_round", np.int64), ("scale", np.float64),
])


def new_workspace() -> np.recarray:
    """A chunk's work space (a one-element recarray of WORKSPACE: compiled code takes `work[0]`)."""
    return np.zeros(1, WORKSPACE).view(np.recarray)


def compiled_form(policy) -> Form | None:
    """(kind, weights: a one-element recarray of WEIGHT_RECORD) of an object policy's compiled form, or None
    where there is none (the searches)."""
    return form_of(policy, POLICY_KINDS, HeuristicWeights)


# --- evaluation (evaluation.py, operation for operation) -----------------------------------------------------


@njit(cache=True)
def score_now(pos, rules, p) -> float:
    """`evaluation.score_now`: player p's final score if the game ended now, coins counted fractionally."""
    return (pos.won_points[p] + rules.majority_points * majorities(pos, p)) + pos.coins[p] / rules.coins_per_point \
        - pos.minus[p]


@njit(cache=True)
def marker_prospect(pos, rules) -> float:
    """`evaluation.marker_prospect`: mean worth of the scoring markers left (a coin at its share of a point)."""
    coin = 1.0 / rules.coins_per_point
    total, count = 0.0, 0
    for j in range(pos.marker_top, len(pos.marker_points)):
        if not pos.marker_final[j]:
            total += pos.marker_points[j] + coin * pos.marker_coin[j]
            count += 1
    return total / count if count else 0.0


@njit(cache=True)
def margin(pos, rules, p) -> float:
    """`evaluation.margin`: player p's worth minus the opponent's, each open interim scoring's marker weighted
    by the race edge (`RULES.race_edges`: the floats `evaluation.race_edge` gives)."""
    o = 1 - p
    prospect = marker_prospect(pos, rules)
    value = score_now(pos, rules, p) - score_now(pos, rules, o)
    for s in range(len(SPECIES)):
        if not pos.scored[s]:
            a, b = pos.pen_size[p, s], pos.pen_size[o, s]
            value += prospect * rules.race_edges[s, a, b]
    if not pos.vending_scored:
        a, b = stand_colours(pos, p), stand_colours(pos, o)
        value += prospect * rules.race_edges[len(SPECIES), a, b]
    return value


# --- the policies --------------------------------------------------------------------------------------------

# `inline="always"`: a thin layer (a dispatch, a look-ahead's copy) is compiled into each caller's code instead
# of as a function of its own. A compiled function's machine code holds everything it calls, so every layer of
# calls compiles all below it again (`decide` cost 1.2 s CPU, `choose_heuristic` 0.7 s, `after` 0.5 s); these
# take only records, numbers and the bit generator, so inlining them adds no reference counts (see the module's
# docstring), and the games are as fast.


@njit(cache=True)
def choose(kind, weights, game, tables, bits, work) -> int:
    """`decide` in the one-position array `game` under the rules' `tables` with the policy's `weights` (from
    `compiled_form`) in the work space `work` (`new_workspace`), drawing from the bit generator `bits`
    (`rng.bit_generator`), called from Python."""
    return decide(kind, weights[0], game[0], tables[0], bits, work[0])


@njit(cache=True, inline="always")
def decide(kind, weights, pos, rules, bits, work) -> int:
    """The index, into the legal actions written to `work.actions`, of the action policy `kind` (with the
    record `weights`) chooses in position `pos`."""
    if kind == RANDOM:
        return choose_random(pos, rules, bits, work)
    n = legal_actions(pos, rules, work.actions)
    if n == 1:
        return 0
    if kind == GREEDY:
        return choose_greedy(pos, rules, bits, work, n)
    return choose_heuristic(weights, pos, rules, work, n)


@njit(cache=True)
def choose_random(pos, rules, bits, work) -> int:
    """`RandomPolicy`: action floor(u * n) of the n legal actions."""
    return int(uniform(bits, work) * legal_actions(pos, rules, work.actions))


@njit(cache=True, inline="always")
def after(pos, rules, work, i):
    """The position after the i-th legal action, on the scratch copy."""
    scratch = work.scratch
    scratch[0] = pos
    new = scratch[0]
    apply_action(new, rules, work.actions[i, 0], work.actions[i, 1], work.actions[i, 2])
    return new


@njit(cache=True)
def choose_greedy(pos, rules, bits, work, n) -> int:
    """`GreedyPolicy`: the action that most raises its own score now (a draw: no change); ties at random."""
    p = pos.to_move
    now = score_now(pos, rules, p)
    values = work.values[:n]
    best = NONE  # values.max(), without compiling numpy's max
    for i in range(n):
        values[i] = now if work.actions[i, 0] == DRAW else score_now(after(pos, rules, work, i), rules, p)
        best = max(best, values[i])
    ties = 0
    for i in range(n):
        ties += values[i] == best
    # the pick-th of the best actions, as ties[rng.integers(len(ties))]: numpy's bounded draw on 32 bits, none
    # for a single best action
    pick = integers(bits, ties)
    for i in range(n):
        if values[i] == best:
            if pick == 0:
                return i
            pick -= 1
    return -1  # not reached: some action is the best


@njit(cache=True, inline="always")
def choose_heuristic(weights, pos, rules, work, n) -> int:
    p = pos.to_move
    if pos.phase == PLACE:
        return heuristic_connect(weights, pos, rules, work, n)
    if pos.phase == DONATION:  # the donation that leaves the best margin
        best, best_value = 0, NONE
        for i in range(n):
            value = margin(after(pos, rules, work, i), rules, p)
            if value > best_value:
                best, best_value = i, value
        return best
    return heuristic_turn(weights, pos, rules, work, n)


@njit(cache=True)
def heuristic_choice(weights, pos, rules, work, n) -> int:
    """`choose_heuristic` as a function of its own, for callers in other modules (the search's rollouts and leaf
    evaluation): a function inlined from another module keeps its caller out of numba's cache."""
    return choose_heuristic(weights, pos, rules, work, n)


@njit(cache=True)
def heuristic_turn(weights, pos, rules, work, n) -> int:
    """`HeuristicPolicy._turn`: steal when it gains enough and more than the best truck; dispose of minus points
    once there are enough; take the best truck when it gains enough (more once the opponent has quit); else
    draw."""
    p = pos.to_move
    base = margin(pos, rules, p)
    take, take_gain, steal, steal_gain, dispose, draw = -1, NONE, -1, NONE, -1, -1
    for i in range(n):
        kind = work.actions[i, 0]
        if kind == TAKE or kind == STEAL:
            new = after(pos, rules, work, i)
            gain = margin(new, rules, p) - base + weights.square_value * (new.phase == DONATION)
            if kind == TAKE and (take < 0 or gain > take_gain):
                take, take_gain = i, gain
            elif kind == STEAL and (steal < 0 or gain > steal_gain):
                steal, steal_gain = i, gain
        elif kind == DISPOSE and dispose < 0:
            dispose = i
        elif kind == DRAW and draw < 0:
            draw = i
    if steal >= 0 and steal_gain >= weights.steal_threshold and (take < 0 or steal_gain > take_gain):
        return steal
    if dispose >= 0 and pos.minus[p] >= weights.dispose_at:
        return dispose
    alone = pos.taken[1 - p] != NOT_TAKEN
    threshold = weights.alone_take_threshold if alone else weights.take_threshold
    if take >= 0 and (draw < 0 or take_gain >= threshold):
        return take
    if draw >= 0:
        return draw
    return 0  # nothing to draw or take: quit empty-handed


@njit(cache=True)
def heuristic_connect(weights, pos, rules, work, n) -> int:
    """`HeuristicPolicy._connect`: the truck where the drawn card helps the trucks we may take more than the truck
    the opponent would take (weighted by `opponent_weight`); in the expert variant, pay to discard a card that
    would help the opponent.

    work.gains[q, t]: what truck t is worth to player q as it stands (`NONE` if empty), work.with_card[q, t]:
    with the drawn card on it; both from one scratch copy per player and truck (the truck's cards placed,
    valued, then the drawn card placed after them)."""
    p = pos.to_move
    o = 1 - p
    both = pos.taken[o] == NOT_TAKEN  # the opponent may still take a truck
    actions, gains, with_card, wanted = work.actions, work.gains, work.with_card, work.wanted
    gains[:] = NONE
    with_card[:] = NONE
    wanted[:] = 0  # 1 for the trucks the card may go on
    for i in range(n):
        if actions[i, 0] == CONNECT:
            wanted[actions[i, 1]] = 1
    scratch = work.scratch
    for k in range(2 if both else 1):
        q = p if k == 0 else o
        base = margin(pos, rules, q)
        for t in range(rules.trucks):
            size = pos.truck_size[t]
            if size == 0 and not wanted[t]:
                continue
            scratch[0] = pos
            new = scratch[0]
            due = 0
            for j in range(size):
                if place_card(new, rules, q, np.int64(pos.trucks[t, j]), NOT_DONATED):
                    due += 1
                    check_pending(new, rules)  # as if the donation had added nothing
            if size:
                gains[q, t] = margin(new, rules, q) - base + weights.square_value * due
            if wanted[t]:
                if place_card(new, rules, q, pos.drawn, NOT_DONATED):
                    due += 1
                    check_pending(new, rules)
                with_card[q, t] = margin(new, rules, q) - base + weights.square_value * due
    best, best_value, discard = -1, NONE, -1
    for i in range(n):
        if actions[i, 0] == DISCARD_DRAWN:
            discard = i
            continue
        value = connect_value(weights, work, p, o, both, actions[i, 1])
        if best < 0 or value > best_value:
            best, best_value = i, value
    if discard >= 0:
        price = rules.expert_discard_cost / rules.coins_per_point
        if connect_value(weights, work, p, o, both, DISCARDED) - price >= best_value + weights.discard_threshold:
            return discard
    return best


@njit(cache=True)
def board(work, q, truck) -> float:
    """Player q's best truck if the card goes on `truck` (DISCARDED: on none); 0 if no truck has cards."""
    best = NONE
    for t in range(MAX_TRUCKS):  # past the rules' trucks, gains and with_card hold NONE
        gain = work.with_card[q, t] if t == truck else work.gains[q, t]
        if gain > best:
            best = gain
    return 0.0 if best == NONE else best


@njit(cache=True)
def connect_value(weights, work, p, o, both, truck) -> float:
    mine = board(work, p, truck)
    return mine - weights.opponent_weight * board(work, o, truck) if both else mine


# --- whole games ---------------------------------------------------------------------------------------------

# per seat: the columns of `play_games`' seat records
SEAT_COLUMNS = ("score", "coins", "marker_points", "majority_points", "coin_points", "minus_points", *COUNTERS)
GAME_COLUMNS = ("rounds", "actions", "interim_scorings", "end_trigger")


# nogil: the turn loop touches only the arrays and the generator it is handed, so two chunk players (the studio's
# variant and rulebook) play their chunks on two threads at once
@njit(cache=True, nogil=True)
def play_games(tables, kinds, weights, first, count, bits, game, blank, workspace, seats, games) -> None:
    """Games first .. first+count-1 to their end, policy kinds[(seat + game) % 2] with the record weights[same]
    in each seat (`runner.rotation`); their records into seats[game, seat, SEAT_COLUMNS] and games[game,
    GAME_COLUMNS], drawing from the bit generator `bits` (`rng.bit_generator`). `game` and `blank` are
    one-position arrays (`blank` all zeros), `workspace` a one-element WORKSPACE array (`new_workspace`)."""
    pos, rules, work = game[0], tables[0], workspace[0]
    actions = work.actions
    for g in range(count):
        game_id = first + g
        game[0] = blank[0]
        set_up(game, tables, bits)
        while pos.phase != OVER:
            which = (pos.to_move + game_id) % 2
            if kinds[which] == RANDOM:  # here, not through `decide`: that call costs 15% of a random game
                i = choose_random(pos, rules, bits, work)
            else:
                i = decide(kinds[which], weights[which], pos, rules, bits, work)
            apply_action(pos, rules, actions[i, 0], actions[i, 1], actions[i, 2])
            if pos.actions > MAX_STEPS:
                raise RuntimeError("zooloretto-duell compiled engine: a game did not end within 10,000 actions")
        for p in range(2):
            coin_points = pos.coins[p] // rules.coins_per_point
            row = seats[g, p]
            row[0], row[1], row[2] = final_score(pos, rules, p), pos.coins[p], pos.won_points[p]
            row[3], row[4], row[5] = rules.majority_points * majorities(pos, p), coin_points, pos.minus[p]
            for c in range(pos.counts.shape[1]):
                row[6 + c] = pos.counts[p, c]
        games[g, 0], games[g, 1], games[g, 3] = pos.rounds, pos.actions, pos.end_trigger
        games[g, 2] = pos.vending_scored  # interim scorings
        for s in range(len(SPECIES)):
            games[g, 2] += pos.scored[s]


def chunk_player(rules: Rules, forms: list[Form], names: list[str]) -> ChunkPlayer:
    """Games of the policies' compiled `forms` (`compiled_form`) named `names`, with rotated seats, under
    `rules`: a `ChunkPlayer`, whose call (first, count, rng, game_rng) gives the table `runner.play_chunk` makes
    of games first .. first+count-1, drawing one after another from `rng` or game g from `game_rng(g)`
    (`CompiledEngine.chunk_player`); the rules' tables are made once, for every chunk it plays. ValueError
    naming the rule the compiled engine cannot play."""
    if len(forms) != 2:
        raise ValueError(f"Zooloretto Duell is for 2 players, not {len(forms)}")
    tables = rule_tables(rules)  # ValueError naming a rule it does not play (`compiled.supported`)
    kinds, weights = seat_forms(forms)
    game, blank, workspace = new_position(), new_position(), new_workspace()

    def play(start, n, bits, seats, games) -> None:
        play_games(tables, kinds, weights, start, n, bits, game, blank, workspace, seats, games)

    def play_chunk(first: int, count: int, rng: np.random.Generator,
                   game_rng: Callable[[int], np.random.Generator] | None = None) -> pd.DataFrame:
        seats, games = play_records(play, first, count, rng, game_rng, workspace, 2, SEAT_COLUMNS, GAME_COLUMNS)
        return table(seats, games, first, names)

    return play_chunk


def table(seats: np.ndarray, games: np.ndarray, first: int, names: list[str]) -> pd.DataFrame:
    """The runner's rows (game by game, seat by seat) from `play_games`' records."""
    score, coins = seats[:, :, 0], seats[:, :, 1]
    other = score[:, ::-1]
    won = (score > other) | ((score == other) & (coins >= coins[:, ::-1]))  # a tie in both: shared
    columns = runner_columns(first, names, score, won)
    columns["actions"] = np.repeat(games[:, 1], 2)
    columns["rounds"] = np.repeat(games[:, 0], 2)
    columns["interim_scorings"] = np.repeat(games[:, 2], 2)
    for t, name in enumerate(END_TRIGGERS):
        columns[f"ended_by_{name}"] = np.repeat((games[:, 3] == t + 1).astype(np.float64), 2)
    for name in ("marker_points", "majority_points", "coin_points", "minus_points"):
        columns[name] = seats[:, :, SEAT_COLUMNS.index(name)].ravel()
    columns["margin"] = (score - other).ravel()
    columns["coins"] = coins.ravel()
    for name in COUNTERS:
        columns[name] = seats[:, :, SEAT_COLUMNS.index(name)].ravel()
    return pd.DataFrame(columns)
