"""The compiled Tyranno Ex engine plays the object engine's games, move for move.

Both engines draw the same chance from the same seed (set-up's permutation, the bag, the dice of
every fight and tie fight, random ties, the random policy's uniform doubles), so the same seed
must give the same game. Checked two ways on every rule set (the default at 2, 3 and 4 players,
every ruling's alternative, and a few designer variants): whole games through both engines'
`play_chunk`, whose tables (every score, point source, counter and action count) must be equal;
and game by game, where after every action the two positions, the lists of legal actions and the
random policy's choice must be equal, and at the end the scores.

The quick suite plays fewer games per rule set than the slow tests (2,000 whole games per rule set, 10
stepped position by position): the object engine's 2,000 four-player games take about 5 s a rule set, and
stepping compares about 170 positions a game in Python, for 38 rule sets. The whole-game tables compare
every game's final scores, points by source and every counter.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from compiled_checks import check_cache_loads, check_pure_python, rule_set_params

from tyrsim.core.compiled.chance import shuffle
from tyrsim.core.engine.protocols import RandomPolicy
from tyrsim.core.engine.rng import task_rng, trial_rng
from tyrsim.core.engine.runner import play_chunk as object_chunk
from tyrsim.games.tyranno_ex import SPEC
from tyrsim.games.tyranno_ex import compiled as C
from tyrsim.games.tyranno_ex.compiled_policies import RANDOM, choose, compiled_form, new_workspace, policy_tables
from tyrsim.games.tyranno_ex.game import make_game
from tyrsim.games.tyranno_ex.heuristics import chance_table
from tyrsim.games.tyranno_ex.rules import Rules

TWO_PLAYER_RULES = ("two_player_battles", "two_player_columns")
THREE_PLAYER_RULES = ("unused_column_empty",)
# (overrides, players): the default at every player count, every ruling's alternative, designer variants
RULE_SETS = {
    "default": ({}, 4),
    "3 players": ({}, 3),
    "2 players": ({}, 2),
    **{f"{name}={alt}": ({name: alt}, 2 if name in TWO_PLAYER_RULES else 3 if name in THREE_PLAYER_RULES else 4)
       for name, alts in Rules.rulings().items() for alt in alts},
    "ties to the attacker, 3 rounds": ({"tie_rule": "attacker", "rounds_to_win": 3}, 4),
    "ties to the defender, d8": ({"tie_rule": "defender", "die_faces": 8, "max_strength": 8}, 3),
    "bigger moves": ({"set_limit": 3, "five_chips": 3, "trade_limit": 5, "trade_rounds": 6, "die_rounds": 6}, 4),
    "small bag, no 5 marker": ({"chips_per_symbol": 8, "chips_per_player": 6, "five_marker": False}, 4),
    "four special spaces, no double shift": ({"special_spaces": (20, 13, 10, 7), "double_shift": False}, 3),
    "few dice": ({"max_dice": 3, "new_die": 3, "empty_space_bonus": 2}, 4),
    "two fights each": ({"fights_per_player": 2}, 2),
}
# random games per rule set through both play_chunks: the default's at each player count, and each other rule
# set's, in the quick suite; 2,000 per rule set in the slow test
WHOLE_GAMES, WHOLE_GAMES_ALTERNATIVE = 200, 30
# games per rule set compared position by position: the quick suite's (default, other), the slow test's
STEPPED_GAMES, STEPPED_GAMES_ALTERNATIVE, MANY_STEPPED_GAMES = 4, 1, 10
DEFAULTS = ("default", "3 players", "2 players")


def rules_of(name: str) -> tuple[Rules, int]:
    overrides, players = RULE_SETS[name]
    return Rules.from_overrides(overrides), players


def object_table(rules: Rules, policies: list[str], count: int, seed: int) -> pd.DataFrame:
    return object_chunk(make_game(rules, len(policies)), policies, [SPEC.make_policy(p) for p in policies], 0,
                        count, np.random.default_rng(seed))


def whole_games(name: str, count: int, seed: int) -> None:
    rules, players = rules_of(name)
    policies = ["random"] * players
    compiled = SPEC.compiled.play_chunk(rules, policies, 0, count, np.random.default_rng(seed))
    pd.testing.assert_frame_equal(compiled, object_table(rules, policies, count, seed))


@pytest.mark.parametrize("name", rule_set_params(RULE_SETS))
def test_whole_games_are_the_object_engines(name):
    whole_games(name, WHOLE_GAMES if name in DEFAULTS else WHOLE_GAMES_ALTERNATIVE, 11)


@pytest.mark.exhaustive
@pytest.mark.parametrize("name", RULE_SETS)
def test_many_whole_games_are_the_object_engines(name):
    whole_games(name, 2000, 12)


def step_through(rules: Rules, players: int, seeds: range) -> int:
    """Play random games on both engines side by side, comparing after every action; returns the positions
    compared."""
    game, tables = make_game(rules, players), C.rule_tables(rules).view(np.ndarray)
    ptables, chances = policy_tables(rules).view(np.ndarray), np.ascontiguousarray(chance_table(rules))
    policy = RandomPolicy()
    weights = compiled_form(policy)[1].view(np.ndarray)
    actions = np.zeros((C.MAX_ACTIONS, 3), dtype=np.int64)
    compared = 0
    for seed in seeds:
        object_rng, compiled_rng = np.random.default_rng(seed), np.random.default_rng(seed)
        state = game.new_state(object_rng)
        position = C.new_position().view(np.ndarray)
        C.layout(position, rules, players)
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
            assert [C.action_of(state, a) for a in legal] == [C.action_row(tables, r) for r in actions[:n]]
            i = choose(RANDOM, weights, position, tables, ptables, chances, compiled_rng, work)
            action = policy.choose(state, object_rng)
            assert legal.index(action) == i, f"seed {seed}: the random policies chose differently"
            state.apply(action)
            C.play_action(position, tables, actions[i], compiled_rng)
        assert position[0]["phase"] == C.OVER
        assert [C.final_score(position.view(np.recarray)[0], p) for p in range(players)] == state.scores()
    return compared


@pytest.mark.parametrize("name", rule_set_params(RULE_SETS))
def test_every_position_is_the_object_engines(name):
    games = STEPPED_GAMES if name in DEFAULTS else STEPPED_GAMES_ALTERNATIVE
    assert step_through(*rules_of(name), range(games)) > games * 20


@pytest.mark.exhaustive
@pytest.mark.parametrize("name", RULE_SETS)
def test_every_position_of_many_games(name):
    assert step_through(*rules_of(name), range(1000, 1000 + MANY_STEPPED_GAMES)) > MANY_STEPPED_GAMES * 20


def test_paired_games_are_the_object_engines():
    """Paired games (game g from its own generator, as the rulings studies play them): the object engine's."""
    rules, task = Rules(), task_rng(8, 0, 0)
    policies = ["random", "greedy", "random"]
    compiled = SPEC.compiled.play_chunk(rules, policies, 3, 12, task, game_rng=lambda g: trial_rng(task, g))
    reference = object_chunk(make_game(rules, 3), policies, [SPEC.make_policy(p) for p in policies], 3, 12, task,
                             game_rng=lambda g: trial_rng(task, g))
    pd.testing.assert_frame_equal(compiled, reference)


def test_chunks_one_after_another_from_one_generator():
    """Chunks from one generator (as a task plays several blocks) draw on where the last chunk left off,
    compiled or not: the random policy's uniform block is handed on from chunk to chunk."""
    rules, policies = Rules(), ["random"] * 4
    ours, theirs = np.random.default_rng(9), np.random.default_rng(9)
    for first, engines in ((0, "cc"), (7, "co"), (14, "oc")):
        for k, engine in enumerate(engines):
            start = first + 3 * k
            if engine == "c":
                table = SPEC.compiled.play_chunk(rules, policies, start, 3, ours)
            else:
                table = object_chunk(make_game(rules, 4), policies, [SPEC.make_policy(p) for p in policies], start, 3,
                                     ours)
            reference = object_chunk(make_game(rules, 4), policies, [SPEC.make_policy(p) for p in policies], start,
                                     3, theirs)
            pd.testing.assert_frame_equal(table, reference)


def test_a_broken_rule_is_caught():
    """The comparison fails when one rule differs: an empty space worth 2 against the object engine's 1."""
    rules = Rules()
    compiled = SPEC.compiled.play_chunk(rules.replace({"empty_space_bonus": 2}), ["random"] * 4, 0, 20,
                                        np.random.default_rng(3))
    with pytest.raises(AssertionError):
        pd.testing.assert_frame_equal(compiled, object_table(rules, ["random"] * 4, 20, 3))


def test_the_shuffle_draws_numpys_permutation():
    """`chance.shuffle` stands in for the object engine's rng.permutation: the same order, and the
    generator left in the same state."""
    for seed in range(200):
        for n in (28, 8, 64):
            ours, numpys = np.random.default_rng(seed), np.random.default_rng(seed)
            cards = np.arange(n)
            shuffle(ours.bit_generator, cards, n)
            assert cards.tolist() == numpys.permutation(n).tolist()
            assert ours.bit_generator.state == numpys.bit_generator.state


def test_positions_that_differ_are_named():
    rules = Rules()
    state = make_game(rules, 4).new_state(np.random.default_rng(5))
    position = C.position_of(state)
    assert C.differences(position, C.position_of(state)) == []
    position[0].hands[1, 2] += 1
    position[0].bag[0] -= 1
    assert C.differences(position, C.position_of(state)) == ["bag", "hands"]


def test_supported_names_the_rule_it_cannot_play(monkeypatch):
    assert C.supported(Rules()) is None
    many = Rules(set_limit=4)
    assert "'set_limit'" in C.supported(many)
    with pytest.raises(ValueError, match="set_limit"):
        SPEC.compiled.play_chunk(many, ["random"] * 4, 0, 1, np.random.default_rng(0))
    assert "'special_spaces'" in C.supported(Rules(special_spaces=(1,) * (C.MAX_SPECIALS + 1)))
    # a rule added to Rules that this engine has not learnt yet
    monkeypatch.setattr(C, "PLAYED", tuple(n for n in C.PLAYED if n != "double_shift"))
    assert C.supported(Rules()).startswith("rule 'double_shift'")


def test_only_policies_with_a_compiled_form():
    with pytest.raises(ValueError, match="policy 'ismcts'"):
        SPEC.compiled.play_chunk(Rules(), ["random", "ismcts"], 0, 1, np.random.default_rng(0))


# the rules and games of the two checks in a fresh process: random games, and each of the greedy family
CHECKED_RULES = {"majority_tie": "chooser"}
RANDOM_AND_GREEDY = ["random"] * 4, ["greedy", "builder", "aggressive"]


@pytest.mark.slow
def test_the_pure_python_path_plays_the_same_games():
    """With NUMBA_DISABLE_JIT=1 the module runs as plain Python: the same games, debuggable."""
    check_pure_python("tyranno_ex", CHECKED_RULES, list(zip(RANDOM_AND_GREEDY, (3, 2), strict=True)))


@pytest.mark.exhaustive
def test_the_cache_works_where_the_package_folder_is_not_writable(numba_cache):
    """NUMBA_CACHE_DIR (where numba caches when the package folder is read-only): a first process caches into it
    (the run's own folder: it compiles only what no test compiled before it), a later one loads the turn loop
    (`play_games`, every rule and policy linked in) from it and compiles nothing."""
    check_cache_loads(numba_cache, "tyranno_ex", CHECKED_RULES, list(zip(RANDOM_AND_GREEDY, (1, 1), strict=True)))
