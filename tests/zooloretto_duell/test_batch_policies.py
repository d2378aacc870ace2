"""The batch policies choose as the object-engine policies do, in positions of object-engine games.

Positions at every kind of decision (a turn, placing a drawn card, a square's donation) are
collected from object-engine games, copied into the batch engine (`ZooBatch.from_states`),
and each batch policy's answer is compared with its object-engine counterpart's there:
- heuristic: the very same action (default and tuned weights);
- greedy: the same set of best actions (both then pick one of them at random);
- random: the same set of legal actions (both pick uniformly among them).
"""

from __future__ import annotations

import numpy as np
import pytest
from test_batch_engine import place_code, turn_code

from tyrsim.core.game import RandomPolicy
from tyrsim.games.zooloretto_duell import SPEC
from tyrsim.games.zooloretto_duell.batch import ZooBatch, card_kind
from tyrsim.games.zooloretto_duell.batch_policies import BatchGreedy, BatchHeuristic, BatchRandom, batch_policy
from tyrsim.games.zooloretto_duell.evaluation import score_now
from tyrsim.games.zooloretto_duell.game import DONATION, PLACE, TURN, Draw, ZooGame
from tyrsim.games.zooloretto_duell.policies import GreedyPolicy, HeuristicPolicy
from tyrsim.games.zooloretto_duell.rules import Rules


def positions(rules: Rules, games: int, seed: int) -> list:
    """Every position with more than one legal action along object games of mixed policies."""
    game, rng, out = ZooGame(rules), np.random.default_rng(seed), []
    seatings = [("random", "heuristic"), ("heuristic", "greedy"), ("greedy", "random")]
    for g in range(games):
        policies = [RandomPolicy() if n == "random" else SPEC.make_policy(n) for n in seatings[g % 3]]
        state = game.new_state(rng)
        while not state.is_terminal():
            if len(state.legal_actions()) > 1:
                out.append(state.clone())
            state.apply(policies[state.current_player()].choose(state, rng))
    return out


def code_of(batch: ZooBatch, j: int, state, action) -> int:
    """The batch engine's code of an object-engine action in game j."""
    if state.phase == TURN:
        return turn_code(batch, j, action)
    if state.phase == PLACE:
        return place_code(batch, action)
    return card_kind(action.card)


def by_phase(states: list):
    """(phase, columns, the batch policy's method name) for the positions in each phase."""
    for phase, method in ((TURN, "turn"), (PLACE, "place"), (DONATION, "donate")):
        cols = np.array([j for j, s in enumerate(states) if s.phase == phase], dtype=np.intp)
        if len(cols):
            yield phase, cols, method


RULES = [
    {},
    {"expert": True},
    {"steal_triggers_symbols": False, "one_square_per_turn": True},
    {"symbol_before_scoring": True, "starting_coins": 4, "money_action_cost": 1},
    {"symbols_file": "bundled:symbols_two_each.toml", "stands_file": "bundled:stands_by_colour.toml",
     "markers_file": "bundled:markers_threes.toml"},
    {"truck_places": (1, 2, 3), "expert": True, "expert_discard_cost": 0, "coins_per_point": 3},
    {"symbol_once": True, "dispose_without_minus": True, "money_action_cost": 1, "discard_pile_open": True},
]
IDS = [",".join(f"{k}={v}" for k, v in o.items()) or "-" for o in RULES]


@pytest.mark.parametrize("overrides", RULES, ids=IDS)
def test_heuristic_chooses_the_object_heuristics_action(overrides):
    states = positions(Rules.from_overrides(overrides), 5, 11)
    batch = ZooBatch.from_states(states)
    for text in ("heuristic", "heuristic:weights=bundled:heuristic_tuned.toml"):
        policy = SPEC.make_policy(text)
        fast = batch_policy(policy)
        checked = 0
        for _, cols, method in by_phase(states):
            got = getattr(fast, method)(batch, cols)
            for j, code in zip(cols, got, strict=True):
                want = code_of(batch, j, states[j], policy.choose(states[j], np.random.default_rng(0)))
                assert code == want, f"{text} in\n{states[j]!r}\nphase {states[j].phase}: batch {code}, object {want}"
                checked += 1
        assert checked == len(states) > 300


def greedy_best(state) -> set:
    """The actions GreedyPolicy chooses among in `state`."""
    p = state.current_player()
    now = score_now(state, p)
    values = {}
    for a in state.legal_actions():
        if isinstance(a, Draw):
            values[a] = now
        else:
            after = state.clone()
            after.apply(a)
            values[a] = score_now(after, p)
    best = max(values.values())
    return {a for a, v in values.items() if v == best}


@pytest.mark.parametrize("overrides", RULES[:4] + RULES[-1:], ids=IDS[:4] + IDS[-1:])
def test_greedy_chooses_among_the_object_greedys_best_actions(overrides):
    states = positions(Rules.from_overrides(overrides), 4, 12)
    batch = ZooBatch.from_states(states)
    fast = BatchGreedy()
    for _, cols, method in by_phase(states):
        options, code, value = getattr(fast, f"{method}_values")(batch, cols)
        best = options.best(value)
        for at, j in enumerate(cols):
            mine = options.game == at
            got = set(code[mine & (value == best[at])].tolist())
            want = {code_of(batch, j, states[j], a) for a in greedy_best(states[j])}
            assert got == want, f"{states[j]!r}\nphase {states[j].phase}: batch {got}, object {want}"


@pytest.mark.parametrize("overrides", RULES, ids=IDS)
def test_random_chooses_among_the_object_engines_legal_actions(overrides):
    states = positions(Rules.from_overrides(overrides), 4, 13)
    batch = ZooBatch.from_states(states)
    masks = {"turn": batch.turn_mask, "place": batch.place_mask, "donate": batch.donation_mask}
    for _, cols, method in by_phase(states):
        mask = masks[method](cols)
        for at, j in enumerate(cols):
            got = set(np.flatnonzero(mask[:, at]).tolist())
            want = {code_of(batch, j, states[j], a) for a in states[j].legal_actions()}
            assert got == want and len(want) == len(states[j].legal_actions()), f"{states[j]!r}: {got} {want}"
        # and the random policy picks one of them
        picks = getattr(BatchRandom(), method)(batch, cols)
        assert mask[picks, np.arange(len(cols))].all()


def test_batch_policy_maps_the_policies_that_have_a_batch_form():
    assert isinstance(batch_policy(RandomPolicy()), BatchRandom)
    assert isinstance(batch_policy(GreedyPolicy()), BatchGreedy)
    tuned = batch_policy(HeuristicPolicy(take_threshold=2.5))
    assert isinstance(tuned, BatchHeuristic) and tuned.policy.take_threshold == 2.5
    assert batch_policy(SPEC.make_policy("mcts")) is None and batch_policy(SPEC.make_policy("ismcts")) is None
