"""Tiny Epic Dinosaurs policies in compiled code, and whole games played with them (`play_chunk`).

Each makes, in every position, the decision its object counterpart in `policies.py` makes,
drawing the same chance from the same generator, so the same seed plays the same games:
- `random` (`RandomPolicy`): action floor(u * n), u the next of the uniform doubles that
  `tyrsim.core.engine.rng.uniform` draws 128 at a time and hands out from the end of the block (one
  block per generator, shared with the hunt die and kept across the games of a chunk, as the
  object engine shares and keeps it);
- `greedy`, `hunter`, `breeder`, `contractor` (`GreedyPolicy` and its archetypes): one heuristic
  with the same named weights (a record, `WEIGHT_RECORD`; policy parameters and a weights file of
  `tyrsim tune` apply unchanged), each action valued as `GreedyPolicy.value` values it, in its
  order of floating-point operations, so equal values stay equal; the best (within 1e-9) are
  the ties, one taken by `rng.integers(ties)` as there (numpy's bounded draw on the bit generator).

A greedy policy reads only what its player may see, as `state.view(me)` shows it: its own
ranch, Holding, food and cards, the public contracts and its own private one, the face-up
research cards (the drawn ones only while it chooses among them), the supplies, the first-player
marker and the round; never the decks or another player's private contract.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd
from numba import njit

from tyrsim.core.compiled.chance import integers, uniform
from tyrsim.core.compiled.chunks import ChunkPlayer, play_records, runner_columns
from tyrsim.core.compiled.forms import Form, form_of, seat_forms
from tyrsim.core.compiled.numba_cache import keep_fresh
from tyrsim.games.tiny_epic_dinosaurs.compiled import (
    BUY,
    CONTRACT,
    E_CHEAPER,
    E_EXTRA_FENCES,
    E_FEED_LESS,
    E_INCOME,
    E_POINTS_PER,
    EITHER,
    EMPTY,
    ENCLOSE,
    ESCAPE_AS,
    FEED_PLAN,
    FIRST_PLAYER,
    GAIN,
    HERBIVORE,
    HUNT,
    LEAF,
    LOSE_DINOSAUR,
    LOSE_FENCE,
    MAX_DECISIONS,
    MAX_PLAYERS,
    MEAT,
    MOVE_FENCE,
    NONE,
    PICK,
    PLACE,
    PLACE_FENCE,
    PLACE_NOW,
    RESEARCH_REMOVE,
    advance,
    compiled_only,
    deal,
    diet,
    enclosures,
    flood_fill,
    is_over,
    new_position,
    new_workspace,
    popcount,
    rule_tables,
    score_parts,
    tie_first,
)
from tyrsim.games.tiny_epic_dinosaurs.player import COUNTERS
from tyrsim.games.tiny_epic_dinosaurs.rules import Rules
from tyrsim.games.tiny_epic_dinosaurs.weights import GreedyWeights

keep_fresh(__file__)

RANDOM, GREEDY = 0, 1
# the policies with a compiled form, by name (`compiled_form`): greedy and its archetypes differ only in their weights
POLICY_KINDS = {"random": RANDOM, "greedy": GREEDY, "hunter": GREEDY, "breeder": GREEDY, "contractor": GREEDY}
# per game and seat: score, the four point sources, the counters, dinosaurs and fences on the ranch
SOURCES = ("contracts", "dinosaurs", "unique", "research")
SEAT_COLUMNS = ("score", *(f"points_{s}" for s in SOURCES), *COUNTERS, "dinosaurs", "fences")
GAME_COLUMNS = ("rounds", "actions", "tie_first")  # tie_first: the seat the tie-break's turn order starts with


def compiled_form(policy) -> Form | None:
    """(kind, weights: a one-element recarray of `compiled.WEIGHT_RECORD`) of an object policy's compiled form, or
    None where there is none (the search)."""
    return form_of(policy, POLICY_KINDS, GreedyWeights)


# --- the greedy policies (policies.GreedyPolicy, value for value) ------------------------------------------------


@njit(cache=True)
def choose(kind, weights, pos, rules, bits, work) -> int:
    """The index of the listed action the policy of this kind takes."""
    if kind == RANDOM:
        return choose_random(bits, work)
    return choose_greedy(weights, pos, rules, bits, work)


@njit(cache=True, inline="always")  # one caller in the turn loop: compiled there, not again on its own
def choose_greedy(weights, pos, rules, bits, work) -> int:
    """The best valued action (`greedy_values`), ties (within 1e-9) broken by rng.integers(ties)."""
    n = work.count
    greedy_values(weights, pos, rules, work, n)
    values = work.values
    best = values[0]
    for i in range(1, n):
        best = max(best, values[i])
    ties = 0
    for i in range(n):
        if values[i] >= best - 1e-9:
            ties += 1
    # the k-th of the best actions, as rng.integers(len(ties)) in GreedyPolicy.choose: numpy's bounded draw on 32
    # bits, none for a single best action
    k = integers(bits, ties)
    for i in range(n):
        if values[i] >= best - 1e-9:
            if k == 0:
                return i
            k -= 1
    return n - 1


@compiled_only
def diet_units(pos, rules, p, kind) -> int:
    return diet(pos, rules, p, kind, LEAF) + diet(pos, rules, p, kind, MEAT) + diet(pos, rules, p, kind, EITHER)


@compiled_only
def dinosaur_value(w, pos, rules, p, herd, kind) -> float:
    """`GreedyPolicy.dinosaur_value`: its points less its food, a pairing bonus, a contract bonus."""
    value = rules.points[kind] * w.dinosaur_weight - w.food_cost * diet_units(pos, rules, p, kind)
    if herd[kind] % 2 == 1:
        value += w.breed_bonus
    if w.contract_match and kind < rules.basic:
        wanted = False
        for i in range(pos.public_size):
            if rules.need[pos.public[i], kind]:
                wanted = True
        if pos.private[p] != NONE and rules.need[pos.private[p], kind]:
            wanted = True
        if wanted:
            value += w.contract_match
    return value


@compiled_only
def new_dinosaurs_value(w, pos, rules, p, herd, room, kinds, held, enclosures, kind, n, whole) -> float:
    """`GreedyPolicy.new_dinosaurs_value`: n new dinosaurs (`whole` of them for the food) worth their value, or
    -1 each when one more would find no room in Phase 4 (`room_for`) or the food in stock would not feed the
    herd with them (`fed_with`)."""
    kinds_after = kinds + (0 if herd[kind] else 1)
    if room - held > 0 and kinds_after <= enclosures:
        leaf, meat, either = 0, 0, 0
        for k in range(rules.kinds):
            count = herd[k] + (whole if k == kind else 0)
            if count:
                leaf += diet(pos, rules, p, k, LEAF) * count
                meat += diet(pos, rules, p, k, MEAT) * count
                either += diet(pos, rules, p, k, EITHER) * count
        have_leaf, have_meat = pos.resources[p, 0], pos.resources[p, 1]
        fed = leaf <= have_leaf and meat <= have_meat and either <= have_leaf - leaf + have_meat - meat
        if fed:
            return n * dinosaur_value(w, pos, rules, p, herd, kind)
    return -1.0 * n


@compiled_only
def card_value(w, pos, rules, p, herd, card) -> float:
    """`GreedyPolicy.card_value`: its points, less a unique dinosaur's food, plus its ability over the rounds
    left."""
    rounds_left = rules.rounds - pos.round_number + 1
    value = float(rules.card_points[card])
    if rules.card_kind[card] != NONE:
        value -= w.food_cost * diet_units(pos, rules, p, rules.card_kind[card]) * rounds_left / 2
    effect, amount = rules.effect[card], rules.effect_amount[card]
    if effect == E_INCOME:
        value += amount * rounds_left * w.resource_weight
    elif effect == E_CHEAPER:
        value += amount * w.resource_weight * rounds_left / 2
    elif effect == E_POINTS_PER:
        value += amount * (herd[rules.effect_kind[card]] + 1)
    elif effect == E_FEED_LESS:
        value += amount * w.food_cost * herd[rules.effect_kind[card]] * rounds_left
    elif effect == E_EXTRA_FENCES:
        value += amount * w.fence_weight
    return value * w.research_weight


@compiled_only
def sort_in(values, n, value) -> None:
    """Put `value` into values[:n + 1], which holds n values largest first."""
    j = n
    while j > 0 and values[j - 1] < value:
        values[j] = values[j - 1]
        j -= 1
    values[j] = value


@compiled_only
def ranch_quality(w, rules, work, herd, fences) -> float:
    """`GreedyPolicy.ranch_quality`: `fence_set_quality` with 0.5 + breed_bonus / 2 per breeding group."""
    return fence_set_quality(0.5 + w.breed_bonus / 2, rules, work, herd, fences)


@compiled_only
def fence_set_quality(pair_value, rules, work, herd, fences) -> float:
    """`heuristics.ranch_quality` of the enclosures of this fence set for the herd's basic kinds (most numerous
    matched to largest), with `pair_value` per breeding group and 0.1 per enclosure."""
    flood_fill(rules, work, fences)
    count = work.enclosure_count
    sizes, counts = work.sizes_desc, work.counts_desc
    for e in range(count):
        sort_in(sizes, e, popcount(work.enclosures[e]))
    m = np.int64(0)
    for k in range(rules.basic):
        if herd[k]:
            sort_in(counts, m, herd[k])
            m += 1
    held, pairs = 0, 0
    for i in range(min(count, m)):
        h = min(sizes[i], counts[i])
        held += h
        pairs += h // rules.breed_group
    return held + pair_value * pairs + 0.1 * count


@njit(cache=True, inline="always")  # one caller, `choose_greedy` (3.2 s of a fresh compilation on its own)
def greedy_values(w, pos, rules, work, n) -> None:
    """The value of each listed action of the player to move (`GreedyPolicy.values`) into work.values. Long
    because it follows `GreedyPolicy.values` branch for branch, in its order of floating-point operations, so
    that equal values stay equal; split, the order would be hidden across functions."""
    p = pos.prompt_player
    # my dinosaurs on the ranch and in Holding, by kind; the enclosures now: their number and spaces
    herd = work.herd_all
    herd[:] = 0
    for c in range(rules.cell_count):
        if pos.cells[p, c] != EMPTY:
            herd[pos.cells[p, c]] += 1
    for i in range(pos.holding_size[p]):
        herd[pos.holding[p, i]] += 1
    count = enclosures(pos, rules, work, p)
    room = np.int64(0)
    for e in range(count):
        room += popcount(work.enclosures[e])
    kinds, held = np.int64(0), np.int64(0)
    for k in range(rules.basic):
        if herd[k]:
            kinds += 1
            held += herd[k]
    research = -np.inf  # the best research card to take (worked out once)
    now = -np.inf  # the ranch's quality with its fences as they are (worked out once)
    for i in range(n):
        row = work.actions[i]
        kind, a, b = row[0], row[1], row[2]
        if kind == PLACE:
            value = -w.rancher_cost * b - (w.owner_cost if row[3] else 0.0)
            action, choice = rules.action[a], row[4]
            if action == HUNT:
                value = value + w.hunt_weight * new_dinosaurs_value(
                    w, pos, rules, p, herd, room, kinds, held, count, rules.hunted[a], rules.hunt_mean,
                    rules.hunt_rounded)
            elif action == BUY:
                value = value + new_dinosaurs_value(w, pos, rules, p, herd, room, kinds, held, count, choice,
                                                    1.0, np.int64(1)) - w.resource_weight
            elif action == PLACE_NOW:
                value = value + 0.2 - w.resource_weight
            elif action == GAIN:
                if rules.gain_fences[a] and pos.fence_supply:
                    short = kinds + 1 > count
                    value += rules.gain_fences[a] * (w.fence_weight * (1.5 if short else 0.4))
                resources = rules.gain[a, 0] + rules.gain[a, 1] + rules.gain[a, 2] \
                    - (rules.cost[a, 0] + rules.cost[a, 1] + rules.cost[a, 2])
                value = value + resources * w.resource_weight
            elif action == FIRST_PLAYER:
                value = value + (0.0 if pos.first_player == p else w.first_player_value)
            elif action == CONTRACT:
                paid = (rules.cost[a, 0] + rules.cost[a, 1] + rules.cost[a, 2]) * w.resource_weight
                gained = contract_gain(w, pos, rules, p, herd, choice)
                if row[5]:
                    gained += contract_gain(w, pos, rules, p, herd, pos.private[p])
                value = value + gained - paid
            else:  # RESEARCH, RESEARCH_REMOVE
                if research == -np.inf:  # max(the face-up cards' values, draw_value)
                    research = w.draw_value
                    for j in range(pos.display_size):
                        research = max(research, card_value(w, pos, rules, p, herd, pos.display[j]))
                paid = (rules.cost[a, 0] + rules.cost[a, 1] + rules.cost[a, 2]) * w.resource_weight
                if action == RESEARCH_REMOVE:
                    paid = max(0.0, dinosaur_value(w, pos, rules, p, herd, choice))
                value = value + research - paid
        elif kind == PICK:
            if a == NONE:
                value = w.draw_value
            else:
                value = card_value(w, pos, rules, p, herd, a)
        elif kind == MOVE_FENCE or kind == PLACE_FENCE or kind == LOSE_FENCE:
            fences = pos.fences[p]
            if kind == MOVE_FENCE:
                if a != NONE:
                    fences &= ~(np.int64(1) << a)
                fences |= np.int64(1) << b
                if now == -np.inf:
                    now = ranch_quality(w, rules, work, herd, pos.fences[p])
                # a move must improve on leaving the fences as they are (StopRearranging is worth 0)
                value = ranch_quality(w, rules, work, herd, fences) - now - 0.01
            else:
                if kind == PLACE_FENCE:
                    fences |= np.int64(1) << a
                else:
                    fences &= ~(np.int64(1) << a)
                value = ranch_quality(w, rules, work, herd, fences)
        elif kind == ENCLOSE:
            enclosures(pos, rules, work, p)
            size = popcount(work.enclosures[a])
            placed = min(pos.unplaced[b], size)
            value = placed * rules.points[b] - 0.05 * (size - placed)
        elif kind == FEED_PLAN:
            points = 0
            for j in range(work.herd_size):
                points += rules.points[work.herd_order[j]] * work.plans[a, j]
            value = float(points)
        elif kind == LOSE_DINOSAUR:
            value = -dinosaur_value(w, pos, rules, p, herd, a)
        elif kind == ESCAPE_AS:
            if a == HERBIVORE:
                value = -w.fence_weight * (1.0 if pos.fences[p] else 0.0)
            else:
                lowest = 0
                first = True
                for c in range(rules.cell_count):
                    k = pos.cells[p, c]
                    if k != EMPTY and (first or rules.points[k] < lowest):
                        lowest = rules.points[k]
                        first = False
                value = float(-lowest)
        else:  # STOP_REARRANGING: the baseline a fence move must beat
            value = 0.0
        work.values[i] = value


@njit(cache=True)
def action_values(w, pos, rules, work, n) -> None:
    """`greedy_values` as a function of its own (a search's root pruning, from another module)."""
    greedy_values(w, pos, rules, work, n)


@compiled_only
def contract_gain(w, pos, rules, p, herd, contract) -> float:
    """`GreedyPolicy._contract_gain`: its points less what its dinosaurs are worth on the ranch."""
    given = 0.0
    for k in range(rules.basic):
        if rules.need[contract, k]:
            given += rules.need[contract, k] * max(0.0, dinosaur_value(w, pos, rules, p, herd, k) - w.contract_match)
    return rules.contract_points[contract] * w.contract_weight - given


@njit(cache=True)
def choose_random(bits, work) -> int:
    """`RandomPolicy`: the action floor(u * n) of the n listed."""
    return int(uniform(bits, work) * work.count)


# nogil: the turn loop touches only the arrays and the generator it is handed, so two chunk players (the studio's
# variant and rulebook) play their chunks on two threads at once
@njit(cache=True, nogil=True)
def play_games(tables, kinds, weights, first, count, bits, game, blank, workspace, seats, games) -> None:
    """Games first .. first+count-1 to their end, policy kinds[(seat + game) % players] in each seat
    (`runner.rotation`); their records into seats[game, seat, SEAT_COLUMNS] and games[game, GAME_COLUMNS],
    drawing from the bit generator `bits` (`rng.bit_generator`)."""
    pos, rules, work = game[0], tables[0], workspace[0]
    n = rules.players
    for g in range(count):
        game_id = first + g
        game[0] = blank[0]
        deal(pos, rules, bits)
        answer = NONE  # nothing is asked before round 1 begins
        while True:
            advance(pos, rules, bits, work, answer)  # the one call: `advance` is compiled into this loop
            if is_over(pos):
                break
            which = (pos.prompt_player + game_id) % n
            if kinds[which] == RANDOM:  # here, not through `choose`: the extra call costs a random game time
                answer = choose_random(bits, work)
            else:
                answer = choose_greedy(weights[which], pos, rules, bits, work)
            pos.actions += 1
            if pos.actions > MAX_DECISIONS:
                raise RuntimeError("tiny-epic-dinosaurs compiled engine: a game did not end")
        for p in range(n):
            row = seats[g, p]
            row[0] = score_parts(pos, rules, p, work.parts)
            for s in range(4):
                row[1 + s] = work.parts[s]
            for c in range(pos.counts.shape[1]):
                row[5 + c] = pos.counts[p, c]
            dinosaurs = 0
            for c in range(rules.cell_count):
                if pos.cells[p, c] >= 0:
                    dinosaurs += 1
            row[5 + pos.counts.shape[1]] = dinosaurs
            row[6 + pos.counts.shape[1]] = popcount(pos.fences[p])
        games[g, 0], games[g, 1], games[g, 2] = pos.round_number, pos.actions, tie_first(pos, rules)


def chunk_player(rules: Rules, forms: list[Form], names: list[str]) -> ChunkPlayer:
    """Games of the policies' compiled `forms` (`compiled_form`) named `names`, with rotated seats, under
    `rules`: a `ChunkPlayer`, whose call (first, count, rng, game_rng) gives the table `runner.play_chunk` makes
    of games first .. first+count-1, drawing one after another from `rng` or game g from `game_rng(g)`
    (`CompiledEngine.chunk_player`); the rules' tables are made once, for every chunk it plays. ValueError
    naming the player count the compiled engine cannot play (`compiled.supported` names a rule)."""
    players = len(forms)
    if not 2 <= players <= MAX_PLAYERS:
        raise ValueError(f"Tiny Epic Dinosaurs is for 2 to 4 players, not {players}")
    tables = rule_tables(rules, players)
    kinds, weights = seat_forms(forms)
    game, blank, workspace = new_position(), new_position(), new_workspace()

    def play(start, n, bits, seats, games) -> None:
        play_games(tables, kinds, weights, start, n, bits, game, blank, workspace, seats, games)

    def play_chunk(first: int, count: int, rng: np.random.Generator,
                   game_rng: Callable[[int], np.random.Generator] | None = None) -> pd.DataFrame:
        seats, games = play_records(play, first, count, rng, game_rng, workspace, players, SEAT_COLUMNS, GAME_COLUMNS)
        return table(seats, games, first, names)

    return play_chunk


def table(seats: np.ndarray, games: np.ndarray, first: int, names: list[str]) -> pd.DataFrame:
    """The runner's rows (game by game, seat by seat) from `play_games`' records: the winner is the highest
    score, a tie going to the tied player earliest in turn order (rule `tie_break`: from the seat in games[:, 2])."""
    players = seats.shape[1]
    score = seats[:, :, 0]
    best = score.max(axis=1, keepdims=True)
    # each seat's place in turn order from the first player; the winner is the best score earliest in it
    turn_place = (np.arange(players)[None, :] - games[:, 2:3]) % players
    winner = np.where(score == best, turn_place, players).argmin(axis=1)
    columns = runner_columns(first, names, score, np.arange(players)[None, :] == winner[:, None])
    columns["actions"] = np.repeat(games[:, 1], players)
    columns["rounds"] = np.repeat(games[:, 0], players)
    for c, name in enumerate(SEAT_COLUMNS[1:], start=1):
        columns[name] = seats[:, :, c].ravel()
    return pd.DataFrame(columns)
