"""Tyros policies in compiled code, and whole games played with them (`play_chunk`).

Each makes, in every position, the decision its object counterpart makes, drawing the same
chance from the same generator, so the same seed plays the same games:
- `random` (`tyrsim.core.game.RandomPolicy`): action floor(u * n), u the next of the uniform
  doubles that `tyrsim.core.rng.uniform` draws 128 at a time and hands out from the end of the
  block (one block per generator, kept across the games of a chunk as the object engine keeps it).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from numba import njit

from tyrsim.core.game import RandomPolicy
from tyrsim.core.rng import UNIFORM_BLOCK
from tyrsim.games.tyros.board import TYROS
from tyrsim.games.tyros.compiled import (
    CITY_POINTS,
    COUNTERS,
    EMPIRE_COUNT,
    FIRST_BONUS,
    LARGEST_POINTS,
    MAX_STEPS,
    MOST_BONUS,
    P_OVER,
    SHIP_POINTS,
    TOTAL,
    apply_action,
    current_player,
    empire_sizes,
    legal_actions,
    new_position,
    new_workspace,
    rule_tables,
    score_game,
    set_up,
    supported,
)
from tyrsim.games.tyros.components import COLOUR_NAMES, EMPIRES
from tyrsim.games.tyros.rules import Rules

RANDOM = 0


def compiled_form(policy) -> int | None:
    """The policy kind of an object policy's compiled form, or None where there is none."""
    if type(policy) is RandomPolicy:
        return RANDOM
    return None


@njit(cache=True)
def uniform(rng, work) -> float:
    """`tyrsim.core.rng.uniform`: the next double of the block, a new block of 128 when it is used up."""
    if work.uniforms_left == 0:
        work.uniforms[:] = rng.random(UNIFORM_BLOCK)
        work.uniforms_left = UNIFORM_BLOCK
    work.uniforms_left -= 1
    return work.uniforms[work.uniforms_left]


@njit(cache=True)
def choose_random(pos, rules, rng, work) -> int:
    """`RandomPolicy`: action floor(u * n) of the n legal actions."""
    return int(uniform(rng, work) * legal_actions(pos, rules, work))


@njit(cache=True)
def choose(kind, game, tables, rng, workspace) -> int:
    """The index, into the legal actions written to workspace[0].actions, of the action policy `kind` chooses."""
    return decide(kind, game[0], tables[0], rng, workspace[0])


@njit(cache=True)
def decide(kind, pos, rules, rng, work) -> int:
    return choose_random(pos, rules, rng, work)


# per seat: the columns of `play_games`' seat records
SEAT_COLUMNS = ("score", "largest_points", "city_points", "ship_points", "bonus_points", "cities", "ships",
                *COUNTERS)
GAME_COLUMNS = ("actions", "rounds", "tiles_left", "tyros_joined", "size_orange", "size_yellow", "size_green",
                "size_violet")


@njit(cache=True)
def play_games(tables, kinds, n, first, count, rng, game, blank, workspace, seats, games) -> None:
    """Games first .. first+count-1 to their end, policy kinds[(seat + game) % n] in each seat
    (`runner.rotation`); their records into seats[game, seat, SEAT_COLUMNS] and games[game, GAME_COLUMNS]."""
    pos, rules, work = game[0], tables[0], workspace[0]
    sizes = np.zeros(EMPIRE_COUNT, np.int64)
    for g in range(count):
        game_id = first + g
        game[0] = blank[0]
        set_up(pos, rules, work, n, rng)
        while pos.phase != P_OVER:
            p = current_player(pos)
            which = (p + game_id) % n
            i = decide(kinds[which], pos, rules, rng, work)
            apply_action(pos, rules, work, rng, i)
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
            row[5], row[6] = cities, pos.ships[p].sum()
            for c in range(pos.counts.shape[1]):
                row[7 + c] = pos.counts[p, c]
        empire_sizes(pos, rules, sizes)
        tiles_left = pos.tile_count
        for p in range(n):
            tiles_left += pos.tile_hand_size[p]
        out = games[g]
        out[0], out[1], out[2], out[3] = pos.actions, pos.round_number, tiles_left, pos.chips[TYROS] >= 0
        for e in range(EMPIRE_COUNT):
            out[4 + e] = sizes[e]


def compiled_forms(policy_texts: list[str]) -> list[int] | None:
    """The compiled form of each seat's policy (made with the game's POLICIES and `make_policy`, so weights files
    and parameters apply), or None if any has none."""
    from tyrsim.games.tyros import SPEC  # the package imports the analyses, which may import us

    forms = [compiled_form(SPEC.make_policy(text)) for text in policy_texts]
    return None if any(form is None for form in forms) else forms


def play_chunk(rules: Rules, policy_texts: list[str], first: int, count: int,
               rng: np.random.Generator) -> pd.DataFrame:
    """Games first .. first+count-1 with rotated seats: the table `runner.play_chunk` makes (one row per game
    and seat, the same columns and, for the same generator, the same values). ValueError naming the rule or
    policy the compiled engine cannot play."""
    n = len(policy_texts)
    if n not in (3, 4):
        raise ValueError(f"Tyros is played by 3 or 4 players, not {n}")
    problem = supported(rules)
    if problem is not None:
        raise ValueError(problem)
    forms = compiled_forms(policy_texts)
    if forms is None:
        raise ValueError(f"policies {policy_texts!r}: the compiled engine plays only the random policy "
                         "(the object engine plays every policy)")
    tables = rule_tables(rules)
    seats = np.zeros((count, n, len(SEAT_COLUMNS)), dtype=np.int64)
    games = np.zeros((count, len(GAME_COLUMNS)), dtype=np.int64)
    play_games(tables, np.array(forms, dtype=np.int64), n, first, count, rng, new_position(), new_position(),
               new_workspace(), seats, games)
    return table(seats, games, first, policy_texts)


def table(seats: np.ndarray, games: np.ndarray, first: int, names: list[str]) -> pd.DataFrame:
    """The runner's rows (game by game, seat by seat) from `play_games`' records."""
    count, n = seats.shape[0], seats.shape[1]
    score, largest = seats[:, :, 0], seats[:, :, 1]
    # the winners: the highest total, then the most points in the largest empire; a tie in both is shared
    key = score * 10_000 + largest
    won = key == key.max(axis=1, keepdims=True)
    winners = won.sum(axis=1, keepdims=True)
    better = ((score[:, None, :] > score[:, :, None]) & ~won[:, None, :]).sum(axis=2)
    rank = np.where(won, 1, 1 + winners + better)
    game_id = np.repeat(np.arange(first, first + count), n)
    seat = np.tile(np.arange(n), count)
    columns = {
        "game_id": game_id,
        "seat": seat,
        "policy": np.array(names, dtype=object)[(seat + game_id) % n],
        "score": score.ravel().astype(np.float64),
        "rank": rank.ravel(),
        "won": won.ravel(),
        "win_share": (won / winners).ravel(),
        "actions": np.repeat(games[:, 0], n),
        "rounds": np.repeat(games[:, 1], n),
        "tiles_left": np.repeat(games[:, 2], n),
        "tyros_joined": np.repeat(games[:, 3].astype(np.float64), n),
    }
    for e in EMPIRES:
        columns[f"size_{COLOUR_NAMES[e]}"] = np.repeat(games[:, 4 + e], n)
    for c, name in enumerate(SEAT_COLUMNS[2:], start=2):
        columns[name] = seats[:, :, c].ravel()
    return pd.DataFrame(columns)
