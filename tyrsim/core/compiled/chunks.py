"""A chunk of games played by a game's compiled turn loop, as the runner's table: the plain Python every game's
compiled engine wraps around its own compiled functions (it calls them and compiles nothing, so each game's
functions stay in numba's cache as they are).

- `play_records`: the records a chunk's games leave, per game and seat and per game, filled by the game's turn
  loop one `chance.turn_loop_calls` call after another;
- `runner_columns`: the columns every table begins with, as `tyrsim.core.engine.runner.play_chunk` writes them
  (game, seat, policy, score, rank, won, win share), from each seat's score and who won.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import numpy as np

from tyrsim.core.compiled.chance import turn_loop_calls

if TYPE_CHECKING:
    import pandas as pd

# the game's turn loop over games first .. first+count-1: (first, count, bit generator, seat records, game records)
TurnLoop = Callable[[int, int, object, np.ndarray, np.ndarray], None]
# a game's compiled games of one seating under one set of rules, made once (`compiled_policies.chunk_player`):
# (first, count, rng, game_rng) -> the runner's table of games first .. first+count-1 (`runner.play_chunk`'s)
ChunkPlayer = Callable[..., "pd.DataFrame"]


def play_records(play: TurnLoop, first: int, count: int, rng: np.random.Generator,
                 game_rng: Callable[[int], np.random.Generator] | None, workspace: np.ndarray, players: int,
                 seat_columns: Sequence[str], game_columns: Sequence[str],
                 seat_type: type = np.int64) -> tuple[np.ndarray, np.ndarray]:
    """The records (seats[game, seat, seat_columns] of `seat_type`, games[game, game_columns] of int64) of games
    first .. first+count-1, played by `play` drawing one after another from `rng`, or game g from `game_rng(g)`,
    with the uniform block of `workspace` (a one-element work record array), as `chance.turn_loop_calls` says."""
    seats = np.zeros((count, players, len(seat_columns)), dtype=seat_type)
    games = np.zeros((count, len(game_columns)), dtype=np.int64)
    for start, n, bits, rows in turn_loop_calls(first, count, rng, game_rng, workspace):
        play(start, n, bits, seats[rows], games[rows])
    return seats, games


def runner_columns(first: int, names: Sequence[str], score: np.ndarray, won: np.ndarray) -> dict[str, np.ndarray]:
    """The runner's first columns (game by game, seat by seat) of games first.. with these `score`s and winners
    `won` (both [game, seat]; a tie the rules leave standing has several winners): the winners rank 1, the others
    from 1 + the number of winners on, one more for each other loser scoring more; a win is shared equally among
    the winners; the policy in each seat is `names` rotated as `runner.rotation` seats them."""
    count, players = score.shape
    winners = won.sum(axis=1, keepdims=True)
    better = ((score[:, None, :] > score[:, :, None]) & ~won[:, None, :]).sum(axis=2)
    game_id = np.repeat(np.arange(first, first + count), players)
    seat = np.tile(np.arange(players), count)
    return {
        "game_id": game_id,
        "seat": seat,
        "policy": np.array(names, dtype=object)[(seat + game_id) % players],
        "score": score.ravel().astype(np.float64),
        "rank": np.where(won, 1, 1 + winners + better).ravel(),
        "won": won.ravel(),
        "win_share": (won / winners).ravel(),
    }
