"""The compiled Tiny Epic Dinosaurs engine plays the object engine's games, move for move.

Both engines draw the same chance from the same seed (the decks' shuffles, the hunt die's and
the random policy's uniform doubles, a reshuffle of the research discard pile), so the same seed
must give the same game. Checked two ways on every rule set (the default, every ruling's
alternative, the variants and a few designer settings that reach the supply limits): whole games
through both engines' `play_chunk`, whose tables (every score, point source, counter, round and
action count) must be equal; and game by game, where after every action the two positions, the
lists of legal actions and the random policy's choice must be equal, and the final scores too.
"""

from __future__ import annotations

import ast
import dataclasses
import inspect

import numpy as np
import pandas as pd
import pytest
from compiled_checks import check_cache_loads, check_pure_python, rule_set_params

from tyrsim.core.compiled.chance import shuffle
from tyrsim.core.engine.protocols import RandomPolicy
from tyrsim.core.engine.rules import RuleError, rule
from tyrsim.core.engine.runner import play_chunk as object_chunk
from tyrsim.games.tiny_epic_dinosaurs import SPEC
from tyrsim.games.tiny_epic_dinosaurs import compiled as C
from tyrsim.games.tiny_epic_dinosaurs.compiled_policies import choose_random
from tyrsim.games.tiny_epic_dinosaurs.rules import Rules

# the default, every ruling's alternative, the two variants, and settings that run the supplies short
RULE_SETS = {
    "default": {},
    **{f"{name}={alt}": {name: alt} for name, alts in Rules.rulings().items() for alt in alts},
    # the choices the engine makes for every player alike (rule kind "choice")
    **{f"{name}={alt}": {name: alt} for name, alt in (("cover_order", "meat-leaf-supply"),
                                                      ("cover_order", "supply-meat-leaf"),
                                                      ("either_food", "leaf"), ("either_food", "meat"))},
    "penalties per phase": {"penalty_once_per": "phase"},
    "private contracts at the end of the round": {"private_contract_timing": "also_end_of_round"},
    "short supplies": {"dinosaurs_per_kind": 3, "fence_tokens": 4, "breed_group": 1},
    "no display, big draws, low cap": {"resource_cap": 3, "research_draw": 5, "research_display": 0},
    "strong owner, more rounds": {"owner_strength": 3, "rounds": 8, "extra_rancher_round": 2, "egg_dinosaurs": 3},
}
WHOLE_GAMES = 60  # random games per rule set through both play_chunks (2,000 in the exhaustive run)
STEPPED_GAMES = 4  # games per rule set compared position by position (2,000 in the exhaustive run)
MANY = 2000


def rules_of(name: str) -> Rules:
    return Rules.from_overrides(RULE_SETS[name])


def object_table(rules: Rules, policies: list[str], count: int, seed: int) -> pd.DataFrame:
    game = SPEC.make_game(rules, len(policies))
    return object_chunk(game, policies, [SPEC.make_policy(p) for p in policies], 0, count,
                        np.random.default_rng(seed))


def compare_whole_games(rules: Rules, players: int, count: int, seed: int) -> None:
    policies = ["random"] * players
    compiled = SPEC.compiled.play_chunk(rules, policies, 0, count, np.random.default_rng(seed))
    pd.testing.assert_frame_equal(compiled, object_table(rules, policies, count, seed))


@pytest.mark.parametrize("name", rule_set_params(RULE_SETS))
def test_whole_games_are_the_object_engines(name):
    compare_whole_games(rules_of(name), 2, WHOLE_GAMES, 11)


@pytest.mark.parametrize("players", [3, 4])
def test_whole_games_with_more_players(players):
    compare_whole_games(Rules(), players, 100, 12)


@pytest.mark.exhaustive
@pytest.mark.parametrize("name", RULE_SETS)
def test_many_whole_games(name):
    compare_whole_games(rules_of(name), 2, MANY, 13)


def test_the_shuffle_draws_numpys_shuffle():
    """`chance.shuffle` stands in for the object engine's rng.shuffle of a list: the same order, and the
    generator left in the same state (its buffered 32-bit half included), after uniform doubles too."""
    for seed in range(300):
        for n in (20, 22, 5, 2, 1):
            ours, numpys = np.random.default_rng(seed), np.random.default_rng(seed)
            for _ in range(2):
                items = np.arange(n, dtype=np.int8)
                shuffle(ours.bit_generator, items, np.int64(n))
                deck = list(range(n))
                numpys.shuffle(deck)
                assert items.tolist() == deck, (seed, n)
                ours.random(3), numpys.random(3)
            assert ours.bit_generator.state == numpys.bit_generator.state


def compiled_scores(position, tables, players: int) -> list[float]:
    parts = np.zeros(4, np.int64)
    scores = []
    for p in range(players):
        C.score_parts(position[0], tables[0], p, parts)
        scores.append(float(parts.sum()))
    return scores


def step_through(rules: Rules, seeds: range, players: int = 2) -> int:
    """Play random games on both engines side by side, comparing after every action; returns the positions
    compared."""
    game, tables = SPEC.make_game(rules, players), C.rule_tables(rules, players)
    policy = RandomPolicy()
    compared = 0
    for seed in seeds:
        object_rng, bits = np.random.default_rng(seed), np.random.default_rng(seed).bit_generator
        state = game.new_state(object_rng)
        position, workspace = C.new_position(), C.new_workspace()
        C.set_up(position, tables, bits, workspace)
        work = workspace[0]
        while True:
            differ = C.differences(C.position_of(state), position)
            assert not differ, f"seed {seed}, after {compared} actions: the positions differ in {differ}"
            compared += 1
            if state.is_terminal():
                assert C.is_over(position[0])
                break
            legal = state.legal_actions()
            listed = [C.action_row(position, tables, workspace, i) for i in range(work["count"])]
            assert [C.action_of(state, a) for a in legal] == listed, f"seed {seed}: {state.prompt}"
            i = choose_random(bits, work)
            action = policy.choose(state, object_rng)
            assert legal.index(action) == i, f"seed {seed}: the random policies chose differently"
            state.apply(action)
            C.play_action(position, tables, bits, workspace, i)
        assert compiled_scores(position, tables, players) == state.scores()
    return compared


@pytest.mark.parametrize("name", rule_set_params(RULE_SETS))
def test_every_position_is_the_object_engines(name):
    assert step_through(rules_of(name), range(STEPPED_GAMES)) > STEPPED_GAMES * 50


def test_every_position_with_four_players():
    assert step_through(Rules(), range(8), players=4) > 8 * 80


@pytest.mark.exhaustive
@pytest.mark.parametrize("name", RULE_SETS)
def test_every_position_of_many_games(name):
    assert step_through(rules_of(name), range(1000, 1000 + MANY)) > MANY * 50


def test_a_broken_rule_is_caught():
    """The comparison fails when one rule differs: breeding groups of 3 against the object engine's 2."""
    compiled = SPEC.compiled.play_chunk(Rules(breed_group=3), ["random", "random"], 0, 100, np.random.default_rng(3))
    with pytest.raises(AssertionError):
        pd.testing.assert_frame_equal(compiled, object_table(Rules(), ["random", "random"], 100, 3))


def test_positions_that_differ_are_named():
    game = SPEC.make_game(Rules(), 2)
    state = game.new_state(np.random.default_rng(5))
    position = C.position_of(state)
    assert C.differences(position, C.position_of(state)) == []
    position[0]["fences"][1] |= 1 << 3
    position[0]["supply"][0] -= 1
    assert C.differences(position, C.position_of(state)) == ["supply", "fences"]


def test_supported_names_the_rule_it_cannot_play(monkeypatch):
    assert C.supported(Rules()) is None
    too_many = Rules(dinosaurs_per_kind=40)
    assert "'dinosaurs_per_kind'" in C.supported(too_many)
    with pytest.raises(ValueError, match="dinosaurs_per_kind"):
        SPEC.compiled.play_chunk(too_many, ["random", "random"], 0, 1, np.random.default_rng(0))
    # a rule added to Rules that this engine has not learnt yet
    monkeypatch.setattr(C, "PLAYED", tuple(n for n in C.PLAYED if n != "either_food"))
    assert C.supported(Rules()).startswith("rule 'either_food'")


@dataclasses.dataclass(frozen=True)
class RulesWithANewRule(Rules):
    """The rules with one more, which only the object engine would know."""

    newborns_stay_in_holding: bool = rule(False, "a rule the compiled engine has not learnt")


def test_a_rule_the_compiled_engine_does_not_play_is_refused_and_the_object_engine_plays_it():
    rules = RulesWithANewRule()
    assert C.supported(rules) == ("rule 'newborns_stay_in_holding': the compiled engine does not play it yet "
                                  "(the object engine does)")
    with pytest.raises(ValueError, match="newborns_stay_in_holding"):
        C.rule_tables(rules, 2)
    engine = SPEC.compiled
    args = {"policies": ["random", "random"]}
    with pytest.raises(RuleError, match="--engine compiled: rule 'newborns_stay_in_holding'"):
        engine.substitutions(rules, {**args, "engine": "compiled"})  # the CLI's exit 2
    (note,) = engine.substitutions(rules, {**args, "engine": "auto"})
    assert "newborns_stay_in_holding" in str(note)
    assert engine.engine_for(rules, {**args, "engine": "auto"}) == "object"
    table = object_table(rules, ["random", "random"], 2, 0)  # the object engine plays it
    assert len(table) == 4


def test_the_rules_played_are_written_out_not_derived_from_rules():
    """`PLAYED` is a literal tuple of names in compiled.py (a tuple derived from `Rules` would hold every new rule,
    so `supported` could never refuse one), and it names every rule of `Rules` today."""
    tree = ast.parse(inspect.getsource(C))
    (value,) = [node.value for node in tree.body if isinstance(node, ast.Assign)
                and [getattr(t, "id", None) for t in node.targets] == ["PLAYED"]]
    assert isinstance(value, ast.Tuple) and all(isinstance(e, ast.Constant) for e in value.elts)
    assert C.PLAYED == tuple(e.value for e in value.elts)
    assert sorted(C.PLAYED) == sorted(f.name for f in dataclasses.fields(Rules))


def test_only_policies_with_a_compiled_form():
    with pytest.raises(ValueError, match="ismcts"):
        SPEC.compiled.play_chunk(Rules(), ["random", "ismcts"], 0, 1, np.random.default_rng(0))


# the checks of every compiled engine (tests/compiled_checks.py): the fenced border, random and greedy games
PURE_PYTHON_GAMES = [(["random", "random"], 3), (["greedy", "hunter"], 1)]
CACHED_GAMES = [(["random", "random"], 1), (["greedy", "hunter"], 1)]


@pytest.mark.slow
def test_the_pure_python_path_plays_the_same_games():
    """With NUMBA_DISABLE_JIT=1 the module runs as plain Python: the same games, debuggable."""
    check_pure_python("tiny_epic_dinosaurs", {"border": "fence"}, PURE_PYTHON_GAMES)


@pytest.mark.exhaustive
def test_the_cache_works_where_the_package_folder_is_not_writable(numba_cache):
    """NUMBA_CACHE_DIR (where numba caches when the package folder is read-only): a first process caches into it
    (the run's own folder: it compiles only what no test compiled before it), a later one loads the turn loop
    (`play_games`, every rule and policy linked in) from it and compiles nothing."""
    check_cache_loads(numba_cache, "tiny_epic_dinosaurs", {"border": "fence"}, CACHED_GAMES)
