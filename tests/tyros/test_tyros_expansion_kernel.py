"""The vectorized expansion kernel against the full engine playing tiles only."""

import numpy as np
import pytest
from scipy import stats

from tyrsim.core.engine.runner import play
from tyrsim.games.tyros.board import load_board
from tyrsim.games.tyros.expansion import select_bit, simulate_expansion
from tyrsim.games.tyros.game import TyrosGame
from tyrsim.games.tyros.policies import TilePolicy
from tyrsim.games.tyros.rules import Rules

COLUMNS = ["size_orange", "size_yellow", "size_green", "size_violet", "rounds"]


def engine_games(rules, players, games, rule, seed):
    game = TyrosGame(rules, players, tiles_only=True)
    rng = np.random.default_rng(seed)
    rows = []
    for _ in range(games):
        record = play(game, [TilePolicy(rule)] * players, rng)
        rows.append([record.stats[c] for c in COLUMNS] + [record.stats["tyros_joined"]])
    return np.array(rows)


def same_distribution(a, b) -> float:
    """Chi-square two-sample test on the values, pooling rare values into their neighbours."""
    values = np.union1d(a, b)
    table = np.array([[np.sum(a == v) for v in values], [np.sum(b == v) for v in values]])
    # pool columns until each expected count is at least 5
    pooled, current = [], np.zeros(2)
    for column in table.T:
        current = current + column
        if current.sum() * min(len(a), len(b)) / (len(a) + len(b)) >= 5:
            pooled.append(current)
            current = np.zeros(2)
    if current.sum():
        pooled[-1] = pooled[-1] + current
    return stats.chi2_contingency(np.array(pooled).T)[1]


@pytest.mark.parametrize(
    "overrides, players, rule, games",
    [
        ({"setup": "variable"}, 4, "random", 1500),
        ({"setup": "first-game"}, 3, "largest", 1500),
        # few chips: empires run out, and games whose tiles can never be played end
        ({"setup": "variable", "chips_per_empire": 6, "tyros_counts_for_size": False}, 4, "smallest", 800),
        # a later empire reaching 31 or 32 takes Tyros (in about a fifth of games)
        ({"setup": "variable", "tyros_chip": "latest-replaces"}, 4, "largest", 800),
    ],
)
def test_kernel_and_engine_give_the_same_distribution(overrides, players, rule, games):
    rules = Rules.from_overrides(overrides)
    engine = engine_games(rules, players, games, rule, seed=11)
    kernel = simulate_expansion(rules, players, 30_000, np.random.default_rng(12), policy=rule)
    # five tests at once: each must pass at the 0.1% level (a family-wise error near 0.5%)
    for i, column in enumerate(COLUMNS):
        assert same_distribution(engine[:, i], kernel[column].to_numpy()) > 0.001, column
    joined = (kernel["tyros_colour"] >= 0).to_numpy()
    table = [[engine[:, -1].sum(), len(engine) - engine[:, -1].sum()], [joined.sum(), (~joined).sum()]]
    assert stats.fisher_exact(table)[1] > 0.001


def test_the_two_sample_test_can_tell_policies_apart():
    rules = Rules(setup="variable")
    engine = engine_games(rules, 4, 600, "random", seed=13)
    kernel = simulate_expansion(rules, 4, 20_000, np.random.default_rng(14), policy="largest")
    sizes = kernel[["size_orange", "size_yellow", "size_green", "size_violet"]].to_numpy()
    engine_largest = engine[:, :4].max(axis=1)
    assert same_distribution(engine_largest, sizes.max(axis=1)) < 1e-6


def test_kernel_conserves_tiles_and_ranks_by_colour_order():
    board = load_board()
    for setup in ("first-game", "variable"):
        raw = simulate_expansion(Rules(setup=setup), 4, 5000, np.random.default_rng(2))
        sizes = raw[["size_orange", "size_yellow", "size_green", "size_violet"]].to_numpy()
        tyros = (raw["tyros_colour"] >= 0).to_numpy()
        # four starting chips, then every tile is either played (a chip) or left; Tyros's chip is extra
        assert np.all(sizes.sum(axis=1) - tyros + raw["tiles_left"] == len(board.tiles))
        ranks = raw[["rank_orange", "rank_yellow", "rank_green", "rank_violet"]].to_numpy()
        assert np.all(np.sort(ranks, axis=1) == [1, 2, 3, 4])
        for row in range(200):
            order = sorted(range(4), key=lambda e: (-sizes[row, e], e))
            assert [order.index(e) + 1 for e in range(4)] == list(ranks[row])


def test_kernel_is_reproducible_and_rejects_unknown_policies():
    a = simulate_expansion(Rules(), 3, 500, np.random.default_rng(5), policy="smallest")
    b = simulate_expansion(Rules(), 3, 500, np.random.default_rng(5), policy="smallest")
    assert a.equals(b)
    with pytest.raises(ValueError, match="unknown tile policy"):
        simulate_expansion(Rules(), 3, 10, np.random.default_rng(5), policy="biggest")


def test_select_bit_finds_the_jth_set_bit():
    masks = np.array([0b1011, 1 << 40 | 1 << 3, (1 << 63) | 1], dtype=np.uint64)
    assert list(select_bit(masks, np.array([2, 1, 1]))) == [3, 40, 63]
    assert list(select_bit(masks, np.array([0, 0, 0]))) == [0, 3, 0]


def test_one_expansion_pass_for_three_players_makes_games_longer():
    base = simulate_expansion(Rules(setup="first-game"), 3, 5000, np.random.default_rng(6))
    variant = simulate_expansion(Rules(setup="first-game", later_passes_3p=1), 3, 5000, np.random.default_rng(6))
    assert variant["rounds"].mean() > base["rounds"].mean() + 1
