"""The compiled Tyros engine plays the object engine's games, move for move.

Both engines draw the same chance from the same seed (the set-up's two tile permutations, each
round's multivariate hypergeometric deal, a bank swap's draws, the random policy's uniform
doubles), so the same seed must give the same game. Checked two ways on every rule set (the
default and every ruling's alternative, with 3 and 4 players): whole games through both engines'
`play_chunk`, whose tables (every score, rank, point source, counter, round and action count) must
be equal; and game by game, where after every action the two positions, the lists of legal
actions and the random policy's choice must be equal, and at the end the scores.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd
import pytest
from compiled_checks import check_cache_loads, check_pure_python, rule_set_params

from tyrsim.core.compiled.chance import shuffle
from tyrsim.core.engine.protocols import RandomPolicy
from tyrsim.core.engine.runner import play_chunk as object_chunk
from tyrsim.games.tyros import SPEC
from tyrsim.games.tyros import compiled as C
from tyrsim.games.tyros.compiled_policies import choose, compiled_form
from tyrsim.games.tyros.game import ACTIONS, OFFER, TyrosGame, TyrosState
from tyrsim.games.tyros.rules import Rules

# the default and every ruling's alternative (a ruling declared later is covered at once)
RULE_SETS = {
    "default": {},
    **{f"{name}={alt}": {name: alt} for name, alts in Rules.rulings().items() for alt in alts},
    "first-game set-up": {"setup": "first-game"},
    "few chips, many tiles": {"chips_per_empire": 6, "tiles_per_player": 8, "cards_kept": 0},
    "cheap cities, rich deck": {"city_cost": 2, "city_cost_two_ships": 1, "cards_per_colour": 20, "wild_cards": 10,
                                "bank_swap_max": 5, "bank_buy_cost": 2, "cards_kept": 5},
}
QUICK_GAMES = {"default": 30}  # random games per rule set through both play_chunks in the quick suite
OTHER_QUICK_GAMES = 10
# the slow suite: 2,000 games of the default with 3 and with 4 players, 300 four-player games of every other
# rule set (2,000 of each would take the object engine about 11 minutes more on one core)
SLOW_CASES = [("default", 3), *((name, 4) for name in RULE_SETS)]
SLOW_GAMES = {"default": 2000}
OTHER_SLOW_GAMES = 300
STEPPED_GAMES = 2  # games per rule set and player count compared position by position (10 more in the exhaustive run)


def rules_of(name: str) -> Rules:
    return Rules.from_overrides(RULE_SETS[name])


def object_table(rules: Rules, policies: list[str], count: int, seed: int) -> pd.DataFrame:
    return object_chunk(SPEC.make_game(rules, len(policies)), policies, [SPEC.make_policy(p) for p in policies], 0,
                        count, np.random.default_rng(seed))


@pytest.mark.parametrize("players", (3, 4))
@pytest.mark.parametrize("name", rule_set_params(RULE_SETS))
def test_whole_games_are_the_object_engines(name, players):
    rules, policies = rules_of(name), ["random"] * players
    count = QUICK_GAMES.get(name, OTHER_QUICK_GAMES)
    compiled = SPEC.compiled.play_chunk(rules, policies, 0, count, np.random.default_rng(11))
    pd.testing.assert_frame_equal(compiled, object_table(rules, policies, count, 11))


@pytest.mark.exhaustive
@pytest.mark.parametrize(("name", "players"), SLOW_CASES)
def test_many_whole_games_are_the_object_engines(name, players):
    rules, policies, count = rules_of(name), ["random"] * players, SLOW_GAMES.get(name, OTHER_SLOW_GAMES)
    compiled = SPEC.compiled.play_chunk(rules, policies, 0, count, np.random.default_rng(12))
    pd.testing.assert_frame_equal(compiled, object_table(rules, policies, count, 12))

def test_the_shuffle_draws_numpys_permutation():
    """`chance.shuffle` stands in for the object engine's rng.permutation: the same order, and the
    generator left in the same state (its buffered 32-bit half included), for the board's tile piles."""
    for seed in range(300):
        for n in (29, 25, 5, 2, 1):
            ours, numpys = np.random.default_rng(seed), np.random.default_rng(seed)
            for _ in range(2):
                tiles = np.arange(10, 10 + n, dtype=np.int64)
                shuffle(ours.bit_generator, tiles, np.int64(n))
                assert tiles.tolist() == numpys.permutation(np.arange(10, 10 + n)).tolist(), (seed, n)
            assert ours.bit_generator.state == numpys.bit_generator.state


def test_the_deal_draws_numpys_multivariate_hypergeometric():
    """`compiled.deal_hand` stands in for rng.multivariate_hypergeometric (the marginals method): the same hands
    and the generator left in the same state, for decks and deals of every size the rules allow (both of
    numpy's hypergeometric methods: samples under 10, and the ratio-of-uniforms method above; log-factorials
    from the table and from Stirling's series)."""
    tables = C.rule_tables(Rules()).view(np.ndarray)
    out = np.zeros(C.CARD_KINDS, dtype=np.int64)
    sizes = np.random.default_rng(99)
    for seed in range(1500):
        deck = sizes.integers(0, 41 if seed % 5 else 4, C.CARD_KINDS).astype(np.int64)
        count = int(sizes.integers(0, deck.sum() + 1))
        ours, numpys = np.random.default_rng(seed), np.random.default_rng(seed)
        for _ in range(3):
            C.deal(ours.bit_generator, tables, deck, count, out)
            assert out.tolist() == numpys.multivariate_hypergeometric(deck, count).tolist(), (seed, deck, count)
        assert ours.bit_generator.state == numpys.bit_generator.state
    assert C.LOG_FACTORIALS[2] == np.log(2.0) and C.LOG_FACTORIALS[125] == pytest.approx(481.87297922988796)


def step_through(rules: Rules, players: int, seeds: range) -> int:
    """Play random games on both engines side by side, comparing after every action; returns the positions
    compared."""
    game, tables = TyrosGame(rules, players), C.rule_tables(rules).view(np.ndarray)
    policy = RandomPolicy()
    kind, weights = compiled_form(policy)
    weights = weights.view(np.ndarray)
    compared = 0
    for seed in seeds:
        object_rng, compiled_rng = np.random.default_rng(seed), np.random.default_rng(seed)
        bits = compiled_rng.bit_generator
        state = game.new_state(object_rng)
        position, work = C.new_position().view(np.ndarray), C.new_workspace().view(np.ndarray)
        C.start_game(position, tables, work, players, bits)
        while True:
            differ = C.differences(C.position_of(state), position)
            assert not differ, f"seed {seed}, after {compared} actions: the positions differ in {differ}"
            compared += 1
            if state.is_terminal():
                break
            legal = state.legal_actions()
            n = C.list_actions(position, tables, work)
            rows = [tuple(int(v) for v in row) for row in work[0]["actions"][:n]]
            assert [C.action_of(state, a) for a in legal] == rows, f"seed {seed}: the legal actions differ"
            i = choose(kind, weights, position, tables, bits, work)
            action = policy.choose(state, object_rng)
            assert legal.index(action) == i, f"seed {seed}: the random policies chose differently"
            state.apply(action)
            C.play_action(position, tables, work, bits, i)
        assert position[0]["phase"] == C.P_OVER
        C.scores_of(position, tables, work)
        assert work[0]["scores"][:players, C.TOTAL].tolist() == state.scores()
        largest = [s.largest_empire_points for s in state.final_scores()]
        assert work[0]["scores"][:players, C.LARGEST_POINTS].tolist() == largest
    return compared


@pytest.mark.parametrize("players", (3, 4))
@pytest.mark.parametrize("name", rule_set_params(RULE_SETS))
def test_every_position_is_the_object_engines(name, players):
    assert step_through(rules_of(name), players, range(STEPPED_GAMES)) > STEPPED_GAMES * 100


@pytest.mark.exhaustive
@pytest.mark.parametrize("players", (3, 4))
@pytest.mark.parametrize("name", RULE_SETS)
def test_every_position_of_more_games(name, players):
    assert step_through(rules_of(name), players, range(1000, 1010)) > 10 * 100


@pytest.mark.parametrize("players", (3, 4))
@pytest.mark.parametrize("name, binds, least", [
    ("trade_guard=1-a-round", lambda state: state.trades_used_up(state.actor), 10),
    ("trade_guard=no-repeat", lambda state: len(state.legal_actions()) < len(no_guard(state).legal_actions()), 10),
    ("default", lambda state: len(state.legal_actions()) < len(no_guard(state).legal_actions()), 1),
])
def test_the_trade_guards_bind_in_the_games_stepped_through(name, binds, least, players):
    """Under `trade_guard='1-a-round'` (an alternative, so one of RULE_SETS) random players often reach the cap;
    under 'no-repeat' and the default 'no-repeated-hands' an offer is cut, or a player may only refuse one, because
    it would repeat a trade or bring back earlier hands: the positions compared above include some where each guard
    binds (the default in about half of random games)."""
    game, policy = TyrosGame(rules_of(name), players), RandomPolicy()
    cut = 0
    for seed in range(STEPPED_GAMES):  # step_through's games
        rng = np.random.default_rng(seed)
        state = game.new_state(rng)
        while not state.is_terminal():
            cut += state.phase in (ACTIONS, OFFER) and binds(state)
            state.apply(policy.choose(state, rng))
    assert cut >= least


def no_guard(state: TyrosState) -> TyrosState:
    """A copy of `state` under rule `trade_guard` = 'none'."""
    other = state.clone()
    other.game = TyrosGame(dataclasses.replace(state.rules, trade_guard="none"), state.n)
    return other


def test_a_broken_rule_is_caught():
    """The comparison fails when one rule differs: cities at 4 cards against the object engine's 5."""
    policies = ["random"] * 4
    compiled = SPEC.compiled.play_chunk(Rules(city_cost=4), policies, 0, 40, np.random.default_rng(3))
    with pytest.raises(AssertionError):
        pd.testing.assert_frame_equal(compiled, object_table(Rules(), policies, 40, 3))


def test_positions_that_differ_are_named():
    rules = Rules()
    state = TyrosGame(rules, 4).new_state(np.random.default_rng(5))
    position = C.position_of(state)
    assert C.differences(position, C.position_of(state)) == []
    position[0].hands[1, 0] += 1
    position[0].tile_pile[0] += 1
    assert C.differences(position, C.position_of(state)) == ["tile_pile", "hands"]


def test_supported_names_the_rule_it_cannot_play(monkeypatch):
    assert C.supported(Rules()) is None
    # a rule added to Rules that this engine has not learnt yet
    monkeypatch.setattr(C, "PLAYED", tuple(n for n in C.PLAYED if n != "ship_limit_on_build"))
    assert C.supported(Rules()).startswith("rule 'ship_limit_on_build'")
    with pytest.raises(ValueError, match="ship_limit_on_build"):
        SPEC.compiled.play_chunk(Rules(), ["random"] * 4, 0, 1, np.random.default_rng(0))


def test_only_policies_with_a_compiled_form():
    with pytest.raises(ValueError, match="ismcts"):
        SPEC.compiled.play_chunk(Rules(), ["random", "random", "ismcts"], 0, 1, np.random.default_rng(0))


# the checks of every compiled engine (tests/compiled_checks.py), on a rule set with every chance draw the
# engine has: the widest offers and a crowded sea
CHECKED_RULES = {"trade_offers": "three-for-three", "ships_pass_crowded": False}
PURE_PYTHON_GAMES = [(["random"] * 4, 1), (["random"] * 3, 1), (["greedy"] * 3, 1)]


@pytest.mark.slow
def test_the_pure_python_path_plays_the_same_games():
    """With NUMBA_DISABLE_JIT=1 the module runs as plain Python: the same games, debuggable."""
    check_pure_python("tyros", CHECKED_RULES, PURE_PYTHON_GAMES)


@pytest.mark.exhaustive
def test_the_cache_works_where_the_package_folder_is_not_writable(numba_cache):
    """NUMBA_CACHE_DIR (where numba caches when the package folder is read-only): a first process caches into it
    (the run's own folder: it compiles only what no test compiled before it), a later one loads the turn loop
    (`play_games`, every rule and policy linked in) from it and compiles nothing."""
    check_cache_loads(numba_cache, "tyros", CHECKED_RULES, PURE_PYTHON_GAMES)
