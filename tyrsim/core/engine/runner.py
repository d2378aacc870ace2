"""Play full games with policies: one game as a record, many as a tidy DataFrame.

`simulate` splits the games into fixed-size chunks; chunk c draws from the
stream (seed, point, c), so the table is identical whatever `n_jobs`. Seats are
rotated: game g seats policy (s + g) mod n in seat s, so seat effects and
policy effects can be told apart.

Games are played under `game_collector`: the engines allocate many small
short-lived objects, and Python's cyclic garbage collector, left at its
defaults, keeps walking the objects of the imported libraries
(benchmarks/bench_tiny_epic_dinosaurs.py times games both ways).
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from tyrsim.core.engine.protocols import Game, Policy
from tyrsim.core.engine.rng import task_rng
from tyrsim.core.engine.spec import GameSpec

if TYPE_CHECKING:
    import pandas as pd

GAMES_PER_CHUNK = 50
# objects allocated between two collections of the youngest generation while games are played
# (Python's default is 700): most of a game's objects are freed by reference counting first
YOUNG_COLLECTION_THRESHOLD = 10_000
_collector = {"users": 0, "threshold": gc.get_threshold()}  # who is inside `game_collector`, what to restore
_collector_lock = threading.Lock()


@contextmanager
def game_collector() -> Iterator[None]:
    """Set the cyclic garbage collector for playing games, and restore it when the last user leaves.

    What is alive on entry (imported modules, the engines' memos) is frozen out of
    its reach (`gc.freeze`), and the youngest generation is collected less often.
    Memory stays bounded: cycles are still collected, and whatever was frozen is
    handed back on exit. Nested and concurrent uses (threads of a Dask worker) share
    one setting.
    """
    with _collector_lock:
        if _collector["users"] == 0:
            _collector["threshold"] = threshold = gc.get_threshold()
            gc.freeze()
            gc.set_threshold(YOUNG_COLLECTION_THRESHOLD, *threshold[1:])
        _collector["users"] += 1
    try:
        yield
    finally:
        with _collector_lock:
            _collector["users"] -= 1
            if _collector["users"] == 0:
                gc.set_threshold(*_collector["threshold"])
                gc.unfreeze()


class GameTooLong(RuntimeError):
    """A game did not end within the safety limit of actions: an engine bug, never a result."""


@dataclass
class GameRecord:
    scores: list[float]
    winners: list[int]
    stats: dict[str, float]
    actions: int
    log: list[str] = field(default_factory=list)


def play(
    game: Game,
    policies: Sequence[Policy],
    rng: np.random.Generator,
    *,
    log: Callable[[str], None] | None = None,
    max_actions: int = 200_000,
) -> GameRecord:
    """Play one game to its end; `log`, if given, receives one line per action.

    A play log reads like a play-by-play where the state offers it (see `Narrated` in
    `tyrsim.core.engine.protocols`): each action in the state's own words, then what it caused, indented."""
    if len(policies) != game.num_players:
        raise ValueError(f"{game.name} with {game.num_players} players needs as many policies, got {len(policies)}")
    state = game.new_state(rng)
    narrated = log is not None and hasattr(state, "narration")
    if narrated:
        state.narration = []
    actions = 0
    while True:
        player = state.current_player()  # -1 when the game is over
        if player < 0:
            break
        action = policies[player].choose(state, rng)
        if log is not None:
            log(f"P{player}: {state.describe(action) if hasattr(state, 'describe') else action}")
        state.apply(action)
        if narrated:
            for line in state.narration:
                log(f"    {line}")
            state.narration.clear()
        actions += 1
        if actions > max_actions:
            raise GameTooLong(f"{game.name}: no end after {max_actions} actions")
    return GameRecord(state.scores(), state.winners(), state.stats(), actions)


def rotation(game_id: int, seat: int, num_players: int) -> int:
    """Index of the policy sitting in `seat` in game `game_id`."""
    return (seat + game_id) % num_players


def play_chunk(
    game: Game,
    policy_names: Sequence[str],
    policies: Sequence[Policy],
    first_game: int,
    n_games: int,
    rng: np.random.Generator,
    *,
    game_rng: Callable[[int], np.random.Generator] | None = None,
) -> pd.DataFrame:
    """Games first_game .. first_game+n_games-1 with rotated seats, one row per game and seat.

    The games draw one after another from `rng`, or, if `game_rng` is given, game g from its
    own generator `game_rng(g)` (common random numbers: see `rng.trial_rng`)."""
    import pandas as pd

    n = game.num_players
    rows = []
    with game_collector():
        for game_id in range(first_game, first_game + n_games):
            order = [rotation(game_id, seat, n) for seat in range(n)]
            record = play(game, [policies[i] for i in order], rng if game_rng is None else game_rng(game_id))
            scores = np.asarray(record.scores, dtype=float)
            won = set(record.winners)
            for seat in range(n):
                # rank 1 is the winner after tie-breaks; the rest rank by score
                better = sum(1 for other in range(n) if other not in won and scores[other] > scores[seat])
                rank = 1 if seat in won else 1 + len(won) + better
                row = {
                    "game_id": game_id,
                    "seat": seat,
                    "policy": policy_names[order[seat]],
                    "score": float(scores[seat]),
                    "rank": rank,
                    "won": seat in won,
                    "win_share": 1.0 / len(won) if seat in won else 0.0,
                    "actions": record.actions,
                }
                for key, value in record.stats.items():
                    # per-seat counters are written `name_p<seat>`; the rest are per game
                    base, sep, suffix = key.rpartition("_p")
                    if sep and suffix.isdigit():
                        if int(suffix) == seat:
                            row[base] = value
                    else:
                        row[key] = value
                rows.append(row)
    return pd.DataFrame(rows)


def chunks(n_games: int, size: int = GAMES_PER_CHUNK) -> list[tuple[int, int, int]]:
    """(chunk index, first game, number of games) covering n_games."""
    return [(c, start, min(size, n_games - start)) for c, start in enumerate(range(0, n_games, size))]


def simulate(
    spec: GameSpec,
    rules,
    policy_texts: Sequence[str],
    n_games: int,
    seed: int,
    *,
    n_jobs: int = 1,
    point: int = 0,
    progress: Callable[[int], None] | None = None,
) -> pd.DataFrame:
    """Play `n_games` games in parallel; one row per game and seat.

    One policy per seat (their number is the player count). Same seed, same
    table, whatever `n_jobs`.
    """
    import pandas as pd
    from joblib import Parallel, delayed

    if spec.make_game is None:
        raise ValueError(f"{spec.name} has no full game engine")
    num_players = len(policy_texts)
    game = spec.make_game(rules, num_players)
    policies = [spec.make_policy(text) for text in policy_texts]

    def task(chunk: int, first: int, count: int) -> pd.DataFrame:
        return play_chunk(game, policy_texts, policies, first, count, task_rng(seed, point, chunk))

    parts = []
    runner = Parallel(n_jobs=n_jobs, return_as="generator")
    for part in runner(delayed(task)(c, first, count) for c, first, count in chunks(n_games)):
        parts.append(part)
        if progress is not None:
            progress(len(part) // num_players)
    return pd.concat(parts, ignore_index=True)
