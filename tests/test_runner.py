"""The shared runner on a tiny dice game: seats rotate, ranks and shares add up, results reproduce."""

import gc

import numpy as np
import pandas as pd
import pytest
from toy_game import SPEC
from toy_game.game import DiceGame, DiceState
from toy_game.policies import Roller
from toy_game.rules import Rules

from tyrsim.core.engine.protocols import PolicyError, RandomPolicy
from tyrsim.core.engine.runner import (
    YOUNG_COLLECTION_THRESHOLD,
    GameTooLong,
    chunks,
    game_collector,
    play,
    play_chunk,
    rotation,
    simulate,
)


def test_play_is_reproducible_and_complete():
    game = DiceGame(Rules(), 2)
    a = play(game, [Roller(), RandomPolicy()], np.random.default_rng(3))
    b = play(game, [Roller(), RandomPolicy()], np.random.default_rng(3))
    assert a.scores == b.scores and a.winners == b.winners and a.actions == 6
    with pytest.raises(ValueError, match="needs as many policies"):
        play(game, [Roller()], np.random.default_rng(3))


def test_log_receives_every_action():
    lines = []
    play(DiceGame(Rules(turns=2), 3), [Roller()] * 3, np.random.default_rng(0), log=lines.append)
    assert lines == ["P0: roll", "P1: roll", "P2: roll"] * 2


def test_endless_game_is_an_engine_error():
    class Endless(DiceGame):
        def new_state(self, rng):
            state = DiceState(self.rules, self.num_players, rng)
            state.is_terminal = lambda: False
            return state

    with pytest.raises(GameTooLong):
        play(Endless(Rules(), 2), [Roller(), Roller()], np.random.default_rng(0), max_actions=50)


def test_seats_rotate_and_rows_add_up():
    game = DiceGame(Rules(), 3)
    policies = [Roller(1.0), Roller(0.0), Roller(0.5)]
    table = play_chunk(game, ["always", "never", "half"], policies, 0, 30, np.random.default_rng(1))
    assert len(table) == 90 and set(table["seat"]) == {0, 1, 2}
    assert [rotation(g, 0, 3) for g in range(4)] == [0, 1, 2, 0]
    # every policy sits in every seat equally often
    assert (table.groupby(["policy", "seat"]).size() == 10).all()
    assert np.allclose(table.groupby("game_id")["win_share"].sum(), 1.0)
    # per-seat counters are unpacked; "never" never scores
    assert (table["points"] == table["score"]).all()
    assert (table.loc[table["policy"] == "never", "score"] == 0).all()
    assert (table.loc[table["policy"] == "always", "rank"] == 1).mean() > 0.9
    # a winner has rank 1; a loser ranks below every winner
    assert (table.loc[table["won"], "rank"] == 1).all() and (table.loc[~table["won"], "rank"] > 1).all()


def test_simulate_same_table_for_any_jobs():
    one = simulate(SPEC, Rules(), ["roller:eagerness=0.7", "random"], 230, seed=5, n_jobs=1)
    two = simulate(SPEC, Rules(), ["roller:eagerness=0.7", "random"], 230, seed=5, n_jobs=2)
    pd.testing.assert_frame_equal(one, two)
    assert sorted(one["game_id"].unique()) == list(range(230))
    other = simulate(SPEC, Rules(), ["roller:eagerness=0.7", "random"], 230, seed=6, n_jobs=1)
    assert not one["score"].equals(other["score"])


def test_chunks_cover_the_games():
    assert chunks(120, 50) == [(0, 0, 50), (1, 50, 50), (2, 100, 20)]


def test_policy_parameters_are_parsed_and_checked():
    assert SPEC.make_policy("roller:eagerness=0.25") == Roller(0.25)
    with pytest.raises(PolicyError, match="unknown policy 'sage'"):
        SPEC.make_policy("sage")
    with pytest.raises(PolicyError, match="key one of: eagerness"):
        SPEC.make_policy("roller:speed=2")
    with pytest.raises(PolicyError, match="eagerness"):
        SPEC.make_policy("roller:eagerness=lots")


def test_game_collector_is_restored_after_nested_use_and_errors():
    before, frozen = gc.get_threshold(), gc.get_freeze_count()
    with game_collector():
        assert gc.get_threshold()[0] == YOUNG_COLLECTION_THRESHOLD and gc.get_freeze_count() > frozen
        with game_collector():
            pass
        assert gc.get_threshold()[0] == YOUNG_COLLECTION_THRESHOLD  # the inner use leaves it set
    assert gc.get_threshold() == before and gc.get_freeze_count() == frozen
    with pytest.raises(RuntimeError), game_collector():
        raise RuntimeError("a failing game")
    assert gc.get_threshold() == before and gc.get_freeze_count() == frozen


def test_counter_intervals_count_games_not_seats_in_self_play():
    """A counter of the whole game repeated at both of a policy's seats must not halve its interval."""
    from tyrsim.core.stats import intervals as stats
    from tyrsim.core.studies.game import counter_means

    rounds = np.random.default_rng(3).integers(4, 9, size=50)
    raw = pd.DataFrame({"game_id": np.repeat(np.arange(50), 2), "seat": np.tile([0, 1], 50),
                        "policy": "same", "score": 0.0, "rounds": np.repeat(rounds, 2)})
    row = counter_means(raw).set_index("counter").loc["rounds"]
    mean, low, high = stats.mean_interval(pd.Series(rounds))
    assert row["mean"] == pytest.approx(mean)
    assert (row["ci_low"], row["ci_high"]) == pytest.approx((low, high))
