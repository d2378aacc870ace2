"""Games played in blocks, as the studies that play games play them (`rate`, `explore`, `rulings`, `ladder`,
`trace`, and `tune`'s games): a block is a seating of policies at one rule point, played by the compiled
engine wherever it plays the block's rules and policies, its games numbered across the blocks. Also what the
ladder and the trace share: their task size, their costliest blocks first, and the check of a policy
argument.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from tyrsim.core.compiled.engines import COMPILED, compile_search
from tyrsim.core.engine.analysis import ArgumentError
from tyrsim.core.engine.protocols import PolicyError
from tyrsim.core.engine.rng import game_streams
from tyrsim.core.engine.runner import play_chunk
from tyrsim.core.engine.search import IsmctsPolicy
from tyrsim.core.engine.spec import GameSpec
from tyrsim.core.run.substitutions import AUTO, Substitution, engine_refused, no_form_of

if TYPE_CHECKING:
    import pandas as pd

BLOCK_TASK_MOST = 20_000  # games per task at most where the compiled engine plays a study's blocks


def play_blocks(spec: GameSpec, rules: Any, seatings: list[tuple[str, ...]], per_block: int, first: int, count: int,
                rng: np.random.Generator, block_column: str, *, paired: bool = False) -> pd.DataFrame:
    """Games first..first+count-1 of a study in blocks of `per_block` games: block b = game // per_block is
    played with seatings[b] (or the only one) under rules[b] (or `rules`), numbered from 0 within its block.

    `paired`: game g of every block draws from its own stream `trial_rng(rng, g)`, so all blocks play
    the same games (common random numbers) until their rules make them differ; otherwise the chunk's
    games draw one after another from `rng`. The game's compiled engine (`GameSpec.compiled`) plays a
    block where it can, else the object engine: the same games from the same draws either way
    (`block_substitutions` says where the object engine plays).
    """
    import pandas as pd

    parts = []
    trial = first
    while trial < first + count:
        block, offset = divmod(trial, per_block)
        n = min(per_block - offset, first + count - trial)
        seats = seatings[block] if len(seatings) > 1 else seatings[0]
        table = play_games(spec, rules[block] if isinstance(rules, list) else rules, seats, offset, n, rng,
                           paired=paired)
        table.insert(0, block_column, block)
        parts.append(table)
        trial += n
    return pd.concat(parts, ignore_index=True)


def games_player(spec: GameSpec, rules: Any, seats: tuple[str, ...], rng: np.random.Generator, *,
                 paired: bool = False, compiled: bool = True) -> Callable[[int, int], pd.DataFrame]:
    """One seating's games under `rules`, made ready once for many chunks: a function of (first, count) giving
    games first..first+count-1, one row per game and seat (`runner.play_chunk`'s table), played by the game's
    compiled engine where it can play them (its `chunk_player`, the rules' tables made once) and `compiled` is
    true, else by the object engine, the same games from the same draws. `paired`: game g draws from its own
    stream `trial_rng(rng, g)`, else the games draw one after another from `rng`."""
    game_rng = game_streams(rng, paired)
    if compiled and spec.compiled is not None and spec.compiled.refusal(rules, seats) is None:
        compiled = spec.compiled.chunk_player(rules, list(seats))
        return lambda first, count: compiled(first, count, rng, game_rng)
    game, policies = spec.make_game(rules, len(seats)), [spec.make_policy(s) for s in seats]
    return lambda first, count: play_chunk(game, list(seats), policies, first, count, rng, game_rng=game_rng)


def play_games(spec: GameSpec, rules: Any, seats: tuple[str, ...], first: int, count: int, rng: np.random.Generator,
               *, paired: bool = False) -> pd.DataFrame:
    """Games first..first+count-1 of one seating under `rules` (`games_player`'s, for one chunk)."""
    return games_player(spec, rules, seats, rng, paired=paired)(first, count)


def block_substitutions(spec: GameSpec, blocks: list[tuple[Any, tuple[str, ...]]], unit: str) -> list[Substitution]:
    """Where the object engine plays a study's blocks, each (rules, seating), because the game's compiled engine
    cannot, by reason: "the object engine plays these games" where it plays them all, else "the games of k of n
    `unit`" (rule points, readings, pairings). The blocks its policies have no compiled form of share one line."""
    if spec.compiled is None:
        return []
    missing: dict[str, None] = {}  # the policies without a compiled form, in order
    without_forms = 0  # the blocks they keep from the compiled engine
    refused: dict[str, int] = {}  # a rule the compiled engine does not play -> its blocks
    for block_rules, seats in blocks:
        if gone := spec.compiled.missing_forms(seats):
            missing.update(dict.fromkeys(gone))
            without_forms += 1
        elif (reason := spec.compiled.refusal(block_rules, seats)) is not None:
            refused[reason] = refused.get(reason, 0) + 1
    unformed = list(missing)
    if without_forms:
        refused = {no_form_of(COMPILED, unformed): without_forms, **refused}

    def played(reason: str, k: int) -> str:
        games = "these games" if k == len(blocks) else f"the games of {k} of {len(blocks)} {unit}"
        if without_forms and reason == no_form_of(COMPILED, unformed):
            return spec.compiled.object_play(unformed, games)  # a search's moves are still chosen in compiled code
        return f"the object engine plays {games}"

    return [engine_refused(AUTO, reason, played(reason, k)) for reason, k in refused.items()]


def block_task_size(spec: GameSpec, blocks: list[tuple[Any, tuple[str, ...]]], per_block: int,
                    object_games: int) -> int:
    """Games per task of a study whose games are numbered block by block: a block's games in one task (at most
    BLOCK_TASK_MOST) where the compiled engine plays every block, else the object engine's `object_games`, so
    that its slower games still spread over the workers."""
    compiled = spec.compiled is not None and all(spec.compiled.refusal(r, seats) is None for r, seats in blocks)
    return min(per_block, BLOCK_TASK_MOST) if compiled else object_games


def prepare_blocks(spec: GameSpec, blocks: list[tuple[Any, tuple[str, ...]]]) -> None:
    """`Analysis.prepare` of a study: compile the game's engine (or load numba's cache) in the main process
    if it plays any of the blocks, and its compiled search if a block seats it, so that the workers load the
    cache rather than each compiling."""
    if spec.compiled is None:
        return
    for block_rules, seats in blocks:
        if spec.compiled.refusal(block_rules, seats) is None:
            spec.compiled.prepare(block_rules, {"policies": seats})
            break
    for block_rules, seats in blocks:
        if any(isinstance(spec.make_policy(s), IsmctsPolicy) for s in seats):
            compile_search(spec, block_rules, len(seats))
            return


# games per task: a search game takes seconds, so small tasks keep every core busy to the end
SEARCH_GAMES_PER_TASK = 2


def costliest_first(spec: GameSpec, rules: Any, seatings: list[tuple[str, ...]], per_block: int, first: int, count: int,
                    rng: np.random.Generator, block_column: str) -> pd.DataFrame:
    """`play_blocks` with the blocks played in reverse order, still numbered as in `seatings`.

    The ladder and the trace list their seatings cheapest first (the rungs from random up, the multiples
    from 2x up), and tasks start in game order: played in reverse, the longest games start first and the
    short ones fill the workers at the end, instead of one long task running alone while the others idle.
    """
    last = len(seatings) - 1
    raw = play_blocks(spec, rules, seatings[::-1], per_block, first, count, rng, block_column)
    raw[block_column] = last - raw[block_column]
    return raw


def policy_check(spec: GameSpec, argument: str):
    """A check of argument `argument`: a policy text of `spec`'s game, else ArgumentError naming the argument."""
    def check(text: str) -> None:
        try:
            spec.make_policy(text)
        except PolicyError as exc:
            raise ArgumentError(argument, str(exc)) from None

    return check
