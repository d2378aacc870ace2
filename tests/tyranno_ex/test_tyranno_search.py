"""Tyranno Ex search: the copy, who knows which face-down chips, the determinization and the ismcts policy."""

from __future__ import annotations

import functools

import numpy as np
import pytest

from tyrsim.core.engine.protocols import PolicyError, RandomPolicy
from tyrsim.games.tyranno_ex import SPEC
from tyrsim.games.tyranno_ex.actions import SetChips
from tyrsim.games.tyranno_ex.environment import NUM_SYMBOLS, SPACES, Bag, Environment
from tyrsim.games.tyranno_ex.game import TyrannoExState, make_game
from tyrsim.games.tyranno_ex.policies import BuilderPolicy, IsmctsPolicy
from tyrsim.games.tyranno_ex.rules import Rules

SUN, WATER, LEAF, BONE = range(4)


def snapshot(state: TyrannoExState) -> tuple:
    """Everything a move may change, as plain values."""
    env = state.env
    return (
        repr(state), state.stats(), state.scores(), list(state.hands), list(state.bag.chips),
        [list(p) for p in state.piles], list(state.out), list(state.queue), list(state.five),
        [repr(bc) if bc else None for bc in state.spots], [bc.points if bc else None for bc in state.spots],
        env.current, env.current_count, env.potential, env.known, env.laid,
        state.legal_actions() if not state.terminal else [],
    )  # fmt: skip


def positions(players: int = 4, games: int = 3, every: int = 23) -> list[TyrannoExState]:
    """Positions of builder games with a choice to make, every `every` decisions (fresh copies)."""
    return [state.clone() for state in _positions(players, games, every)]


@functools.cache
def _positions(players: int, games: int, every: int) -> tuple[TyrannoExState, ...]:
    out = []
    policy = BuilderPolicy()
    for g in range(games):
        rng = np.random.default_rng(40 + g)
        state = make_game(Rules(), players).new_state(rng)
        step = 0
        while not state.is_terminal():
            step += 1
            if step % every == 0 and len(state.legal_actions()) > 1:
                out.append(state.clone())
            state.apply(policy.choose(state, rng))
    return tuple(out)


def reshuffle_hidden(state: TyrannoExState, player: int, seed: int) -> TyrannoExState:
    """A copy that differs from `state` only in what `player` cannot see, made from the true hidden values:
    the other hands, the bag and the others' unrevealed chips dealt anew, the cards under the face-up
    ones and the set-aside cards reordered, and a chance generator seeded afresh."""
    rng = np.random.default_rng(seed)
    new = state.clone()
    new.rng = np.random.default_rng(seed + 1)
    others = [q for q in range(state.num_players) if q != player]
    env = new.env
    chips = [0] * NUM_SYMBOLS
    for s in range(NUM_SYMBOLS):
        chips[s] = state.bag.chips[s] + sum(state.hands[q][s] for q in others)
        for space in range(SPACES):
            chips[s] += env.potential[space][s] - env.known[space][s] - env.laid[player][space][s]
    pool = Bag(chips)
    for space in range(SPACES):
        unseen = env.unseen(space, player)
        env.potential[space] = [k + m for k, m in zip(env.known[space], env.laid[player][space], strict=True)]
        for q in others:
            drawn = pool.draw(sum(env.laid[q][space]), rng)
            env.laid[q][space] = drawn
            unseen -= sum(drawn)
            env.potential[space] = [p + d for p, d in zip(env.potential[space], drawn, strict=True)]
        rest = pool.draw(unseen, rng)
        env.potential[space] = [p + d for p, d in zip(env.potential[space], rest, strict=True)]
    for q in others:
        new.hands[q] = pool.draw(sum(state.hands[q]), rng)
    new.bag = pool
    under = [card for pile in new.piles for card in pile[:-1]] + new.set_aside
    order = rng.permutation(len(under))
    under = [under[i] for i in order]
    new.set_aside, under = under[: len(new.set_aside)], under[len(new.set_aside):]
    for pile in new.piles:
        if pile:
            pile[:-1], under = under[: len(pile) - 1], under[len(pile) - 1:]
    return new


def check_knowledge(state: TyrannoExState) -> None:
    """Every face-down chip is either seen by all or known to the one player who laid it (or to nobody)."""
    env = state.env
    for space in range(SPACES):
        for s in range(NUM_SYMBOLS):
            accounted = env.known[space][s] + sum(laid[space][s] for laid in env.laid)
            assert accounted == env.potential[space][s]


# --- clone ------------------------------------------------------------------------------------------------


def test_playing_a_clone_leaves_the_original_as_it_was():
    for state in positions(games=2):
        before = snapshot(state)
        copy = state.clone()
        rng = np.random.default_rng(1)
        while not copy.is_terminal():
            copy.apply(RandomPolicy().choose(copy, rng))
        assert snapshot(state) == before


def test_a_clone_plays_the_same_future_as_its_original():
    """The clone copies the chance generator too: the same actions bring the same draws and dice."""
    for state in positions(games=1):
        copy = state.clone()
        finals = []
        for s in (state, copy):
            rng = np.random.default_rng(2)
            while not s.is_terminal():
                s.apply(RandomPolicy().choose(s, rng))
            finals.append(snapshot(s))
        assert finals[0] == finals[1]


# --- who knows which face-down chips -------------------------------------------------------------------------


def test_a_chip_is_known_to_its_layer_until_the_chips_outnumber_the_current_ones():
    env = Environment([SUN, WATER, LEAF, BONE], [2, 1, 1, 1], players=3)
    env.set_chip(0, WATER, 1)
    env.set_chip(0, LEAF, 2)
    assert env.laid[1][0] == [0, 1, 0, 0] and env.laid[2][0] == [0, 0, 1, 0] and env.known[0] == [0] * 4
    assert env.resolve(0, "no_change", Bag([5] * 4), np.random.default_rng(0)) == (0, 0, None)
    assert env.unseen(0, 0) == 2 and env.unseen(0, 1) == 1  # 2 chips do not outnumber 2: still face down
    env.set_chip(0, WATER, 0)
    env.resolve(0, "no_change", Bag([5] * 4), np.random.default_rng(0))
    # 3 chips outnumber 2: turned face up, water (2) becomes current, the leaf chip lies face down, seen by all
    assert (env.current[0], env.current_count[0]) == (WATER, 2)
    assert env.known[0] == [0, 0, 1, 0] and all(laid[0] == [0] * 4 for laid in env.laid)
    assert [env.unseen(0, p) for p in range(3)] == [0, 0, 0]


def test_a_tie_without_change_is_seen_by_everyone():
    env = Environment([SUN, WATER, LEAF, BONE], players=2)
    env.set_chip(0, WATER, 0)
    env.set_chip(0, LEAF, 1)
    env.resolve(0, "no_change", Bag([5] * 4), np.random.default_rng(0))
    assert env.current[0] == SUN and env.known[0] == [0, 1, 1, 0] and env.unseen(0, 0) == 0


@pytest.mark.parametrize("majority_tie", ["empty", "no_change", "chooser", "random"])
def test_every_face_down_chip_is_accounted_for_in_whole_games(majority_tie):
    rng = np.random.default_rng(3)
    state = make_game(Rules(majority_tie=majority_tie), 3).new_state(rng)
    while not state.is_terminal():
        check_knowledge(state)
        state.apply(RandomPolicy().choose(state, rng))


# --- determinization -------------------------------------------------------------------------------------------


def seen_by(state: TyrannoExState, player: int) -> tuple:
    """What `player` has seen of a state, as plain values."""
    env = state.env
    return (
        [repr(bc) if bc else None for bc in state.spots], list(state.out), [p[-1] if p else None for p in state.piles],
        [len(p) for p in state.piles], len(state.set_aside), state.hands[player], [sum(h) for h in state.hands],
        state.bag.total(), env.current, env.current_count, env.known, env.laid[player],
        [[sum(laid[space]) for space in range(SPACES)] for laid in env.laid],
        [sum(p) for p in env.potential], state.phase, state.player, state.scores(), state.legal_actions(),
    )  # fmt: skip


@pytest.mark.parametrize("players", [3, 4])
def test_a_determinization_keeps_what_the_player_saw_and_conserves_everything(players):
    states = positions(players, games=1, every=11)
    for state in states:
        player = state.current_player()
        world = state.determinize(player, np.random.default_rng(5))
        assert seen_by(world, player) == seen_by(state, player)
        chips = world.bag.total() + sum(sum(h) for h in world.hands) + world.env.chips_on_card()
        chips_each = [world.bag.chips[s] + sum(h[s] for h in world.hands) + sum(p[s] for p in world.env.potential)
                      for s in range(NUM_SYMBOLS)]  # fmt: skip
        for sym, n in zip(world.env.current, world.env.current_count, strict=True):
            chips_each[sym] += n
        assert chips == 4 * world.rules.chips_per_symbol and chips_each == [world.rules.chips_per_symbol] * 4
        cards = [bc.card for bc in world.spots if bc] + world.out + world.set_aside
        cards += [card for pile in world.piles for card in pile]
        assert sorted(c.name for c in cards) == sorted(c.name for c in world.deck)
        check_knowledge(world)
        assert world.rng is not state.rng


def test_a_determinization_resamples_what_the_player_cannot_see():
    state = positions(games=1)[2]
    player = state.current_player()
    worlds = [state.determinize(player, np.random.default_rng(seed)) for seed in range(10)]
    others = [q for q in range(4) if q != player]
    assert any([w.hands[q] for q in others] != [state.hands[q] for q in others] for w in worlds)
    assert any(w.piles != state.piles for w in worlds)
    assert len({repr(w.piles) for w in worlds}) > 1


# --- the search never peeks ----------------------------------------------------------------------------------------


def hidden_twins() -> list[tuple[TyrannoExState, TyrannoExState]]:
    """Positions of real games, each with a twin that differs only in what the player to move cannot see."""
    states = positions(games=2, every=17)
    twins = [(s, reshuffle_hidden(s, s.current_player(), 100 + i)) for i, s in enumerate(states)]
    # the twins really differ where the player cannot see, face-down chips of others included somewhere
    assert all(a.piles != b.piles or a.hands != b.hands for a, b in twins)
    assert any(a.piles != b.piles for a, b in twins)
    assert any(a.env.unseen(sp, a.current_player()) for a, _ in twins for sp in range(SPACES))
    return twins


def test_the_determinization_never_reads_what_the_player_cannot_see():
    for state, twin in hidden_twins():
        player = state.current_player()
        worlds = [s.determinize(player, np.random.default_rng(9)) for s in (state, twin)]
        assert snapshot(worlds[0]) == snapshot(worlds[1])
        assert worlds[0].hands == worlds[1].hands and worlds[0].set_aside == worlds[1].set_aside
        assert worlds[0].rng.random() == worlds[1].rng.random()


def test_the_search_chooses_alike_whatever_the_player_cannot_see(monkeypatch):
    """The Python search (the compiled one's reference; `test_tyranno_compiled_search` checks the compiled one)."""
    choose = IsmctsPolicy(iterations=30).reference_choice
    twins = hidden_twins()
    for state, twin in twins:
        assert choose(state, np.random.default_rng(3)) == choose(twin, np.random.default_rng(3))
    # the check can fail: a determinization that peeks (a plain copy of the true state) chooses differently
    monkeypatch.setattr(TyrannoExState, "determinize", lambda self, player, rng: self._copy(rng))
    assert any(
        choose(state, np.random.default_rng(3)) != choose(twin, np.random.default_rng(3))
        for state, twin in twins
    )


# --- the policy -----------------------------------------------------------------------------------------------------


def test_the_leaf_evaluation_is_a_win_share_that_favours_the_leader():
    for state in positions(games=1):
        values = IsmctsPolicy().evaluate(state)
        assert all(0.0 <= v <= 1.0 for v in values) and sum(values) == pytest.approx(1.0)
    state = positions(games=1)[-1]
    totals = [sum(state.points[k][p] for k in state.points) for p in range(state.num_players)]
    state.points["rows"][1] += max(totals) - totals[1] + 100  # 100 points ahead of everyone
    values = IsmctsPolicy().evaluate(state)
    assert values[1] == max(values) and values[1] > 0.9


def test_candidates_keep_passing_and_the_guides_best_settings():
    state = positions(games=1, every=5)[1]
    assert state.phase == "environment"
    actions = state.legal_actions()
    policy = IsmctsPolicy(width=4)
    candidates = policy.candidates(state)
    assert len(actions) > 4 and len(candidates) == 4 and candidates[0] == actions[0]
    assert all(a in actions for a in candidates) and any(isinstance(a, SetChips) for a in candidates)
    guide = SPEC.make_policy("greedy:weights=bundled:greedy_tuned.toml")  # the search's guide
    assert guide.choose(state, np.random.default_rng(0)) in candidates


def test_ismcts_plays_whole_games_reproducibly():
    policies = [IsmctsPolicy(iterations=5), *[SPEC.make_policy("builder")] * 2]
    records = []
    for _ in range(2):
        rng = np.random.default_rng(8)
        state = make_game(Rules(), 3).new_state(rng)
        actions = []
        while not state.is_terminal():
            action = policies[state.current_player()].choose(state, rng)
            assert action in state.legal_actions()
            actions.append(action)
            state.apply(action)
        records.append((actions, state.scores()))
    assert records[0] == records[1]


def test_every_determinization_has_the_searched_decisions_own_candidates():
    """The guide ranks afresh in each determinization, and reads only what the player to move sees: at the
    decision searched, every determinization weighs the same actions."""
    policy = IsmctsPolicy()
    checked = 0
    for k, state in enumerate(positions()):
        if len(state.legal_actions()) <= policy.width or state.phase not in ("environment", "five", "combat"):
            continue
        player, own = state.current_player(), policy.candidates(state)
        for seed in range(3):
            assert policy.candidates(state.determinize(player, np.random.default_rng(seed))) == own, k
        checked += 1
    assert checked > 5


def test_candidates_are_listed_in_the_games_order():
    policy = IsmctsPolicy()
    for state in positions():
        actions = list(state.legal_actions())
        places = [actions.index(a) for a in policy.candidates(state)]
        assert places == sorted(places) and len(places) == min(len(actions), policy.width)


@pytest.mark.parametrize("rollout", ["random", "greedy", "builder"])
def test_rollouts_play_the_game_past_the_tree(rollout):
    state = positions(games=1, every=5)[1]
    policy = SPEC.make_policy(f"ismcts:iterations=8,rollout={rollout},rollout_depth=6")
    assert policy.choose(state, np.random.default_rng(0)) in state.legal_actions()


@pytest.mark.parametrize(("text", "message"), [
    ("ismcts:width=1", "width must be at least 2"),
    ("ismcts:temperature=0", "temperature must be above 0"),
    ("ismcts:rollout=smart", "rollout 'smart' is not allowed"),
])  # fmt: skip
def test_bad_search_parameters_are_named(text, message):
    with pytest.raises(PolicyError, match=message):
        SPEC.make_policy(text)


def test_the_narrowest_search_weighs_passing_and_the_best_setting():
    state = positions(games=1, every=5)[1]
    candidates = IsmctsPolicy(width=2).candidates(state)
    assert len(candidates) == 2 and candidates[0] == state.legal_actions()[0] and isinstance(candidates[1], SetChips)
