"""The compiled Zooloretto Duell engine plays the object engine's games, move for move.

Both engines draw the same chance from the same seed (set-up's permutations, the random
policy's uniform doubles), so the same seed must give the same game. Checked two ways on
every rule set (the default, every ruling's alternative, the expert variant and a few
designer variants): whole games through both engines' `play_chunk`, whose tables (every
score, point source, counter, round and action count) must be equal; and game by game,
where after every action the two positions, the lists of legal actions and the random
policy's choice must be equal.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from compiled_checks import check_cache_loads, check_pure_python, rule_set_params

from tyrsim.core.compiled.chance import shuffle
from tyrsim.core.engine.protocols import RandomPolicy
from tyrsim.core.engine.runner import play_chunk as object_chunk
from tyrsim.games.zooloretto_duell import SPEC
from tyrsim.games.zooloretto_duell import compiled as C
from tyrsim.games.zooloretto_duell.compiled_policies import RANDOM, choose, compiled_form, new_workspace
from tyrsim.games.zooloretto_duell.game import ZooGame
from tyrsim.games.zooloretto_duell.rules import Rules

# the default, every ruling's alternative, and variants a designer sweeps
RULE_SETS = {
    "default": {},
    **{f"{name}={alt}": {name: alt} for name, alts in Rules.rulings().items() for alt in alts},
    "expert": {"expert": True},
    "expert, free discards": {"expert": True, "expert_discard_cost": 0},
    "four trucks": {"truck_places": (3, 1, 2, 2)},
    "two big trucks": {"truck_places": (5, 4)},
    "cheap money actions": {"money_action_cost": 1, "majority_points": 2, "coins_per_point": 3},
    "final-round card at the bottom": {"final_round_card_depth": 0},
    "final-round card on top": {"final_round_card_depth": 55},
    "steep markers": {"marker_points": (6, 5, 4, 3, 2, 1, 1)},
    "low targets": {"target_values": (1, 2, 2, 3, 3, 4), "starting_coins": 6},
}
WHOLE_GAMES = 200  # random games per rule set through both play_chunks (2,000 in the exhaustive run)
STEPPED_GAMES = 10  # games per rule set compared position by position (2,000 in the exhaustive run)
MANY = 2000


def rules_of(name: str) -> Rules:
    return Rules.from_overrides(RULE_SETS[name])


def object_table(rules: Rules, policies: list[str], count: int, seed: int) -> pd.DataFrame:
    return object_chunk(SPEC.make_game(rules, 2), policies, [SPEC.make_policy(p) for p in policies], 0, count,
                        np.random.default_rng(seed))


@pytest.mark.parametrize("name", rule_set_params(RULE_SETS))
def test_whole_games_are_the_object_engines(name):
    rules = rules_of(name)
    compiled = SPEC.compiled.play_chunk(rules, ["random", "random"], 0, WHOLE_GAMES, np.random.default_rng(11))
    pd.testing.assert_frame_equal(compiled, object_table(rules, ["random", "random"], WHOLE_GAMES, 11))


@pytest.mark.exhaustive
@pytest.mark.parametrize("name", RULE_SETS)
def test_many_whole_games(name):
    rules = rules_of(name)
    compiled = SPEC.compiled.play_chunk(rules, ["random", "random"], 0, MANY, np.random.default_rng(12))
    pd.testing.assert_frame_equal(compiled, object_table(rules, ["random", "random"], MANY, 12))


def test_the_shuffle_draws_numpys_permutation():
    """`chance.shuffle` stands in for the object engine's rng.permutation: the same order, and the
    generator left in the same state (its buffered 32-bit half included), for the deck and every run of
    markers."""
    for seed in range(300):
        for n in (C.DECK, C.MARKERS, 5, 2, 1):
            ours, numpys = np.random.default_rng(seed), np.random.default_rng(seed)
            for _ in range(2):
                cards = np.arange(n, dtype=np.int8)
                shuffle(ours.bit_generator, cards, np.int64(n))
                assert cards.tolist() == numpys.permutation(n).tolist(), (seed, n)
            assert ours.bit_generator.state == numpys.bit_generator.state


def step_through(rules: Rules, seeds: range) -> int:
    """Play random games on both engines side by side, comparing after every action; returns the positions
    compared."""
    game, tables = ZooGame(rules), C.rule_tables(rules).view(np.ndarray)
    policy = RandomPolicy()
    weights = compiled_form(policy)[1].view(np.ndarray)
    actions = np.zeros((C.MAX_ACTIONS, 3), dtype=np.int64)
    compared = 0
    for seed in seeds:
        object_rng, compiled_rng = np.random.default_rng(seed), np.random.default_rng(seed)
        state = game.new_state(object_rng)
        position = C.new_position().view(np.ndarray)
        C.set_up(position, tables, compiled_rng.bit_generator)
        work = new_workspace().view(np.ndarray)  # the uniform doubles of this game's generator
        while True:
            differ = C.differences(C.position_of(state), position)
            assert not differ, f"seed {seed}, after {compared} actions: the positions differ in {differ}"
            compared += 1
            if state.is_terminal():
                break
            legal = state.legal_actions()
            n = C.list_actions(position, tables, actions)
            assert [C.action_of(state, a) for a in legal] == [C.action_row(position, tables, r) for r in actions[:n]]
            i = choose(RANDOM, weights, position, tables, compiled_rng.bit_generator, work)
            assert (work[0]["actions"][:n] == actions[:n]).all()
            action = policy.choose(state, object_rng)
            assert legal.index(action) == i, f"seed {seed}: the random policies chose differently"
            state.apply(action)
            C.play_action(position, tables, actions[i])
        pos = position[0]
        assert pos["phase"] == C.OVER
        assert [C.final_score(position.view(np.recarray)[0], tables.view(np.recarray)[0], p) for p in range(2)] \
            == state.scores()
    return compared


@pytest.mark.parametrize("name", rule_set_params(RULE_SETS))
def test_every_position_is_the_object_engines(name):
    assert step_through(rules_of(name), range(STEPPED_GAMES)) > STEPPED_GAMES * 5


@pytest.mark.exhaustive
@pytest.mark.parametrize("name", RULE_SETS)
def test_every_position_of_many_games(name):
    assert step_through(rules_of(name), range(1000, 1000 + MANY)) > MANY * 5


def test_a_broken_rule_is_caught():
    """The comparison fails when one rule differs: the gorilla's target 4 against the object engine's 3."""
    rules = Rules()
    compiled = SPEC.compiled.play_chunk(rules.replace({"target_values": (4, 4, 5, 6, 7, 8)}), ["random", "random"],
                                        0, 200, np.random.default_rng(3))
    with pytest.raises(AssertionError):
        pd.testing.assert_frame_equal(compiled, object_table(rules, ["random", "random"], 200, 3))


def test_positions_that_differ_are_named():
    rules = Rules()
    game, tables = ZooGame(rules), C.rule_tables(rules)
    state = game.new_state(np.random.default_rng(5))
    position = C.position_of(state)
    assert C.differences(position, C.position_of(state)) == []
    position[0].coins[1] += 1
    position[0].pile[0] = C.FINAL_CARD if position[0].pile[0] != C.FINAL_CARD else 0
    assert C.differences(position, C.position_of(state)) == ["pile", "coins"]
    assert tables[0].trucks == 3


def test_supported_names_the_rule_it_cannot_play(monkeypatch):
    assert C.supported(Rules()) is None
    many = Rules(truck_places=(1,) * (C.MAX_TRUCKS + 1))
    assert "'truck_places'" in C.supported(many)
    with pytest.raises(ValueError, match="truck_places"):
        SPEC.compiled.play_chunk(many, ["random", "random"], 0, 1, np.random.default_rng(0))
    assert "'marker_points'" in C.supported(Rules(marker_points=(C.MAX_POINTS + 1, 3, 3, 2, 2, 1, 1)))
    # a rule added to Rules that this engine has not learnt yet
    monkeypatch.setattr(C, "PLAYED", tuple(n for n in C.PLAYED if n != "symbol_once"))
    assert C.supported(Rules()).startswith("rule 'symbol_once'")


def test_only_policies_with_a_compiled_form():
    """Refused in the words of the other games' compiled engines, naming the policy and the ones it plays."""
    with pytest.raises(ValueError) as refused:
        SPEC.compiled.play_chunk(Rules(), ["random", "mcts"], 0, 1, np.random.default_rng(0))
    assert str(refused.value) == ("policy 'mcts': the compiled engine plays only the random, greedy and heuristic "
                                  "policies (the object engine plays every policy)")


# the checks of every compiled engine (tests/compiled_checks.py): the expert variant, random and heuristic games
PURE_PYTHON_GAMES = [(["random", "random"], 3), (["heuristic", "greedy"], 2)]
CACHED_GAMES = [(["random", "random"], 1), (["heuristic", "greedy"], 1)]


@pytest.mark.slow
def test_the_pure_python_path_plays_the_same_games():
    """With NUMBA_DISABLE_JIT=1 the module runs as plain Python: the same games, debuggable."""
    check_pure_python("zooloretto_duell", {"expert": True}, PURE_PYTHON_GAMES)


@pytest.mark.slow
def test_the_cache_works_where_the_package_folder_is_not_writable(numba_cache):
    """NUMBA_CACHE_DIR (where numba caches when the package folder is read-only): a first process caches into it
    (the run's own folder: it compiles only what no test compiled before it), a later one loads the turn loop
    (`play_games`, every rule and policy linked in) from it and compiles nothing."""
    check_cache_loads(numba_cache, "zooloretto_duell", {"expert": True}, CACHED_GAMES)
