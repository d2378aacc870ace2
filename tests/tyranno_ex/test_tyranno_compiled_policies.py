"""The compiled greedy family (greedy, aggressive, builder, tuned weights) makes the object policies'
decisions, reads only what its player may see, and plays the object engine's games."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from tyrsim.core.engine.protocols import RandomPolicy
from tyrsim.core.engine.runner import play_chunk as object_chunk
from tyrsim.games.tyranno_ex import SPEC
from tyrsim.games.tyranno_ex import compiled as C
from tyrsim.games.tyranno_ex.compiled_policies import GREEDY, choose, compiled_form, new_workspace, policy_tables
from tyrsim.games.tyranno_ex.game import make_game
from tyrsim.games.tyranno_ex.heuristics import chance_table
from tyrsim.games.tyranno_ex.rules import Rules

POLICIES = ("greedy", "aggressive", "builder")
TUNED = "greedy:weights=bundled:greedy_tuned.toml"


def positions(rules: Rules, players: int, seeds: range):
    """(object state, compiled position) after every action of random games; the state is the live one, to be
    read before the next position is asked for."""
    game = make_game(rules, players)
    policy = RandomPolicy()
    for seed in seeds:
        rng = np.random.default_rng(seed)
        state = game.new_state(rng)
        while not state.is_terminal():
            if len(state.legal_actions()) > 1:
                yield state, C.position_of(state).view(np.ndarray)
            state.apply(policy.choose(state, rng))


def same_decisions(rules: Rules, players: int, texts: tuple[str, ...], seeds: range) -> dict[str, int]:
    """Every decision of each policy on the positions of random games, object against compiled; returns the
    decisions compared by phase."""
    tables = C.rule_tables(rules).view(np.ndarray)
    ptables, chances = policy_tables(rules).view(np.ndarray), np.ascontiguousarray(chance_table(rules))
    objects = [SPEC.make_policy(t) for t in texts]
    forms = [compiled_form(p) for p in objects]
    work = new_workspace().view(np.ndarray)
    rng = np.random.default_rng(0)  # the greedy family draws nothing
    counts: dict[str, int] = {}
    for state, position in positions(rules, players, seeds):
        legal = state.legal_actions()
        for text, policy, (kind, weights) in zip(texts, objects, forms, strict=True):
            i = choose(kind, weights.view(np.ndarray), position, tables, ptables, chances, rng, work)
            expected = legal.index(policy.choose(state, rng))
            assert i == expected, f"{text} in phase {state.phase}: {legal[i]!r}, the object policy {legal[expected]!r}"
        counts[state.phase] = counts.get(state.phase, 0) + 1
    return counts


def test_the_greedy_family_decides_as_the_object_policies():
    counts = same_decisions(Rules(), 4, (*POLICIES, TUNED), range(40))
    assert sum(counts.values()) >= 2500 and counts["combat"] >= 200 and counts["five"] >= 50, counts


@pytest.mark.exhaustive
def test_the_greedy_family_decides_as_the_object_policies_on_many_positions():
    counts = same_decisions(Rules(), 4, (*POLICIES, TUNED), range(100, 260))
    assert sum(counts.values()) >= 10_000, counts


@pytest.mark.parametrize("overrides, players", [
    ({"majority_tie": "chooser"}, 4),
    ({"five_timing": "own_turn", "five_count": "up_to"}, 3),
    ({"set_limit": 3, "five_chips": 3, "trade_limit": 4, "die_gain": "any_change"}, 2),
])
def test_the_greedy_family_decides_as_the_object_policies_under_rulings(overrides, players):
    counts = same_decisions(Rules.from_overrides(overrides), players, POLICIES, range(6))
    assert sum(counts.values()) >= 300, counts
    if "majority_tie" in overrides:
        assert counts.get("tie", 0) >= 5, counts


@pytest.mark.parametrize("texts", [POLICIES, ("greedy", "random", "builder", "aggressive"), (TUNED, "builder")])
def test_whole_games_of_the_greedy_family_are_the_object_engines(texts):
    rules = Rules()
    compiled = SPEC.compiled.play_chunk(rules, list(texts), 0, 12, np.random.default_rng(4))
    reference = object_chunk(make_game(rules, len(texts)), list(texts), [SPEC.make_policy(t) for t in texts], 0,
                             12, np.random.default_rng(4))
    pd.testing.assert_frame_equal(compiled, reference)


def test_decisions_do_not_read_what_the_player_cannot_see():
    """Another player's chips, the bag's symbols, the face-down chips' symbols (their count per space kept) and
    the cards under the face-up ones, changed, leave every decision as it was."""
    rules = Rules()
    tables = C.rule_tables(rules).view(np.ndarray)
    ptables, chances = policy_tables(rules).view(np.ndarray), np.ascontiguousarray(chance_table(rules))
    work = new_workspace().view(np.ndarray)
    rng, shuffler = np.random.default_rng(0), np.random.default_rng(1)
    weights = [compiled_form(SPEC.make_policy(t))[1].view(np.ndarray) for t in POLICIES]
    compared = changed = 0
    for _state, position in positions(rules, 4, range(12)):
        pos = position[0]
        if pos["phase"] == C.TIE:  # the chips on the tied space lie face up
            continue
        before = [choose(GREEDY, w, position, tables, ptables, chances, rng, work) for w in weights]
        other = position.copy()
        o = other[0]
        me = int(pos["player"])
        for p in range(4):  # another player's tray and the bag trade chips, the totals kept
            if p != me:
                pool = o["hands"][p] + o["bag"]
                hand = shuffler.multivariate_hypergeometric(pool, int(o["hands"][p].sum()))
                o["hands"][p], o["bag"] = hand, pool - hand
        for space in range(C.SPACES):  # the face-down chips take other symbols, as many per space
            laid = int(o["potential"][space].sum())
            pool = o["potential"][space] + o["bag"]
            chips = shuffler.multivariate_hypergeometric(pool, laid)
            o["potential"][space], o["bag"] = chips, pool - chips
        for i in range(4):  # the cards under the face-up ones in another order
            size = int(o["pile_size"][i])
            if size > 2:
                o["piles"][i, : size - 1] = shuffler.permutation(o["piles"][i, : size - 1])
        changed += C.differences(position, other) != []
        after = [choose(GREEDY, w, other, tables, ptables, chances, rng, work) for w in weights]
        assert after == before
        compared += 1
    assert compared > 1000 and changed > compared // 2


def test_every_policy_but_the_search_has_a_compiled_form():
    texts = ["random", "greedy", "aggressive", "builder", TUNED, "greedy:attack_weight=0.9"]
    assert SPEC.compiled.missing_forms(texts) == []
    assert SPEC.compiled.missing_forms(["greedy", "ismcts"]) == ["ismcts"]
    kind, weights = compiled_form(SPEC.make_policy("builder"))
    assert kind == GREEDY and weights[0].attack_weight == 0.2 and weights[0].fight_margin == 3.0
