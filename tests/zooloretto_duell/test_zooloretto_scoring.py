"""Final scoring, the tie-break and the rulebook's scoring example."""

from __future__ import annotations

from tyrsim.games.zooloretto_duell.cards import SPECIES, Marker


def test_rulebook_scoring_example(state, pick):
    """3 points for the species, 1 for the coins, 9 for interim scorings, -2 minus points: 11."""
    for name in ("gorilla", "bison", "bear"):  # seat 0 has the most of 3 species
        state.pens[0][SPECIES.index(name)] = [pick(name)]
    state.pens[0][SPECIES.index("hyena")] = [pick("hyena")]
    state.pens[1][SPECIES.index("hyena")] = [pick("hyena")]  # a tie: no plus point
    state.pens[1][SPECIES.index("tiger")] = [pick("tiger")]
    state.won[0] = [Marker(4), Marker(3, coin=True), Marker(2, coin=True)]
    state.coins[0] = 3  # 2 coins give 1 plus point; the odd one gives nothing
    state.minus[0] = 2
    parts = state.score_parts(0)
    assert parts == {"marker_points": 9, "majority_points": 3, "coin_points": 1, "minus_points": 2, "score": 11}
    assert state.scores()[0] == 11.0


def test_no_final_scoring_for_vending_stands(state, pick):
    state.stands[0] = [pick("red", "drink")]
    assert state.score_parts(0)["score"] == 0


def test_tie_break_by_coins(state):
    state.won[0], state.won[1] = [Marker(3)], [Marker(2)]
    state.coins = [0, 2]  # 3 + 0 against 2 + 1: tied on points
    assert state.scores() == [3.0, 3.0]
    assert state.winners() == [1]


def test_shared_victory(state):
    state.coins = [3, 3]
    assert state.winners() == [0, 1]


def test_stats_score_is_the_sum_of_its_parts(state, pick):
    state.pens[1][0] = [pick("gorilla")]
    state.won[1] = [Marker(4)]
    state.minus[1] = 1
    stats = state.stats()
    assert (
        state.scores()[1]
        == stats["marker_points_p1"] + stats["majority_points_p1"] + stats["coin_points_p1"] - stats["minus_points_p1"]
        == 4
    )
    assert stats["margin_p1"] == 4 and stats["margin_p0"] == -4
