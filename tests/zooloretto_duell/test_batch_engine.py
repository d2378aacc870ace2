"""The batch engine against the object engine, turn by turn.

Positions of object-engine games (random and policy play, every ruling's alternative, the
expert variant, designers' trucks and rules) are copied into the batch engine
(`ZooBatch.from_states`), the object engine's actions of one turn are replayed there by a
scripted batch policy, and the position after the turn is compared, field by field, with
the object engine's own (copied the same way): the turn's rules are the same in both.
"""

from __future__ import annotations

import numpy as np
import pytest

from tyrsim.core.game import RandomPolicy
from tyrsim.games.zooloretto_duell import SPEC
from tyrsim.games.zooloretto_duell.batch import (
    KINDS,
    ZooBatch,
    card_kind,
    tables,
)
from tyrsim.games.zooloretto_duell.game import (
    TURN,
    DiscardDrawn,
    DisposeMinus,
    Draw,
    QuitEmptyHanded,
    Steal,
    TakeTruck,
    ZooGame,
)
from tyrsim.games.zooloretto_duell.rules import Rules


def turn_code(batch: ZooBatch, j: int, action) -> int:
    """The batch engine's code of the object engine's turn action in game j of `batch`."""
    if isinstance(action, Draw):
        return 0
    if isinstance(action, QuitEmptyHanded):
        return batch.quit_code
    if isinstance(action, DisposeMinus):
        return batch.dispose_code
    if isinstance(action, Steal):
        return batch.steal_code + card_kind(action.card)
    assert isinstance(action, TakeTruck), action
    tb = batch.tables
    pattern = batch.tpat[action.truck, j]
    wanted = [card_kind(c) for c in action.cards]
    for o in range(tb.order_counts[pattern]):
        cards = batch.truck_order(np.array([action.truck]), np.array([o]), np.array([j]))[:, 0]
        if list(cards[: len(wanted)]) == wanted:
            return 1 + action.truck * tb.most_orders + o
    raise AssertionError(f"no order of truck {action.truck} gives {action}")


def place_code(batch: ZooBatch, action) -> int:
    return batch.tables.trucks if isinstance(action, DiscardDrawn) else action.truck


class Scripted:
    """A batch policy replaying given object-engine actions: per game, its turn's actions in order."""

    def __init__(self, script: list[list]) -> None:
        self.script = [list(actions) for actions in script]

    def _next(self, columns: np.ndarray, code) -> np.ndarray:
        return np.array([code(j, self.script[j].pop(0)) for j in columns], dtype=np.int32)

    def turn(self, batch, i):
        return self._next(batch.columns(i), lambda j, a: turn_code(batch, j, a))

    def place(self, batch, i):
        return self._next(batch.columns(i), lambda j, a: place_code(batch, a))

    def donate(self, batch, i):
        return self._next(batch.columns(i), lambda j, a: card_kind(a.card))


def snapshot(batch: ZooBatch, j: int) -> dict:
    """Everything about game j of `batch` that the rules look at, by seat, in a comparable form."""
    seat = int(batch.seat[j])
    rows = [seat, 1 - seat]  # row of seat 0, seat 1
    out = {"mover": seat, "over": bool(batch.over[j])}
    for s in range(2):
        out[f"b8_{s}"] = batch.b8[rows.index(s), :, j].tolist()
        out[f"b16_{s}"] = batch.b16[rows.index(s), :, j].tolist()
        out[f"pens_{s}"] = [batch.pseq[s, sp, : batch.b8[rows.index(s), 24 + sp, j], j].tolist() for sp in range(6)]
    left = int(batch.left[j])
    out["pile"] = batch.pile[:left, j].tolist()
    out["final_card"] = (int(batch.depth[j]) if batch.depth[j] < left or not batch.aside[j] else -1,
                         bool(batch.aside[j]))
    out["discard"] = batch.dseq[: batch.dlen[j], j].tolist()
    out["discard_counts"] = batch.dcnt[:, j].tolist()
    out["trucks"] = [batch.tk[t, : batch.tl[t, j], j].tolist() for t in range(batch.tables.trucks)]
    out["gone"] = batch.gone[:, j].tolist()
    for name in ("young", "scored", "reached"):
        out[name] = getattr(batch, name)[:, j].tolist()
    for name in ("vend", "final", "trigger", "sqf", "pending", "rounds", "last_taker"):
        out[name] = getattr(batch, name)[j].item()
    k, m = int(batch.k[j]), batch.markers
    out["markers_left"] = [(int(m.points[i, j]), bool(m.coin[i, j])) for i in range(k, 7)]
    out["final_marker_aside"] = bool(k >= m.final_at[j])
    out["final_marker_at"] = int(m.final_at[j]) - k if k < m.final_at[j] else None
    out["prospect"] = float(m.prospect[k, j])
    return out


def object_games(rules: Rules, seats: tuple[str, str], games: int, seed: int):
    """(state before each turn, the turn's actions) along object-engine games."""
    game = ZooGame(rules)
    policies = [RandomPolicy() if name == "random" else SPEC.make_policy(name) for name in seats]
    rng = np.random.default_rng(seed)
    for _ in range(games):
        state = game.new_state(rng)
        while not state.is_terminal():
            start, actions = state.clone(), []
            while True:
                action = policies[state.current_player()].choose(state, rng)
                actions.append(action)
                state.apply(action)
                if state.phase == TURN or state.is_terminal():  # the turn is over
                    break
            yield start, actions, state.clone()


def replay(rules: Rules, seats: tuple[str, str], games: int, seed: int) -> int:
    """Replay every turn of object-engine games in the batch engine; return the number of turns checked."""
    turns = list(object_games(rules, seats, games, seed))
    batch = ZooBatch.from_states([before for before, _, _ in turns])
    batch.step([Scripted([actions for _, actions, _ in turns])])
    after = ZooBatch.from_states([a for _, _, a in turns])
    for j, (before, actions, state) in enumerate(turns):
        got, want = snapshot(batch, j), snapshot(after, j)
        assert got == want, (f"turn {actions} from\n{before!r}\n" +
                             "\n".join(f"{k}: batch {got[k]} object {want[k]}" for k in want if got[k] != want[k]))
        if state.is_terminal():
            record = batch._record(np.array([j]))
            stats = state.stats()
            for p in range(2):
                assert record["score"][p, 0] == state.scores()[p]
                assert record["margin"][p, 0] == stats[f"margin_p{p}"]
    return len(turns)


def test_every_kind_has_a_card():
    kinds = {card_kind(c) for c in ZooGame(Rules()).cards if c.species >= -1}
    assert kinds <= set(range(KINDS))
    assert len(tables(Rules()).deck) == 57


RULES = [
    {},
    {"expert": True},
    {"steal_triggers_symbols": False},
    {"one_square_per_turn": True},
    {"symbol_before_scoring": True},
    {"symbols_file": "bundled:symbols_two_each.toml"},
    {"stands_file": "bundled:stands_by_colour.toml"},
    {"markers_file": "bundled:markers_threes.toml", "marker_order": "printed"},
    {"dispose_without_minus": True},
    {"symbol_once": True},
    # cheap steals break many pairs, which under `symbol_once` may not trigger again
    {"symbol_once": True, "dispose_without_minus": True, "money_action_cost": 1, "starting_coins": 4},
    {"truck_places": (1, 2, 3), "expert": True, "expert_discard_cost": 0},
    {"truck_places": (2, 4, 5), "one_square_per_turn": True, "symbol_before_scoring": True},
    {"final_round_card_depth": 0, "expert": True, "money_action_cost": 1, "starting_coins": 4},
    {"final_round_card_depth": 55, "target_values": (1, 2, 20, 6, 3, 8), "coins_per_point": 3,
     "majority_points": 2, "marker_points": (9, 0, 0, 5, 1, 2, 3)},
]


@pytest.mark.parametrize("overrides", RULES, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "-")
def test_turns_match_the_object_engine(overrides):
    rules = Rules.from_overrides(overrides)
    checked = replay(rules, ("random", "random"), 6, 1) + replay(rules, ("heuristic", "greedy"), 4, 2)
    assert checked > 40


def check_invariants(batch: ZooBatch) -> None:
    """What holds in every unfinished game between turns: every card somewhere, counts consistent."""
    live = ~batch.over
    pens, tots = batch.b8[:, :24].astype(int), batch.b8[:, 24:30].astype(int)
    stands = batch.b8[:, 30:33].astype(int).sum(axis=1)
    cards = (batch.left + batch.dlen + batch.tl.sum(axis=0) + pens.sum(axis=(0, 1)) + stands.sum(axis=0))
    born = 3 - batch.young.sum(axis=0)
    assert (cards == len(batch.tables.deck) + born)[live].all(), "a card was lost or made"
    assert (tots == pens.reshape(2, 6, 4, -1).sum(axis=2)).all(), "species totals disagree with kinds"
    assert (batch.b8[:, 39] == (pens > 0).sum(axis=1)).all(), "kinds held miscounted"
    assert (batch.b8[:, 37] == (batch.b8[:, 33:37] > 0).sum(axis=1)).all(), "colours held miscounted"
    assert (batch.dcnt.sum(axis=0) == batch.dlen).all()
    for kind in range(KINDS):
        on_pile = ((batch.dseq == kind) & (np.arange(batch.dseq.shape[0])[:, None] < batch.dlen)).sum(axis=0)
        assert (on_pile == batch.dcnt[kind]).all(), "discard order disagrees with its counts"
    rows = np.array([[0], [1]]) ^ batch.seat  # the row of each seat
    places = np.arange(batch.tables.pen_length)[:, None]
    for seat in range(2):
        side = pens[rows[seat], :, np.arange(batch.n)].T  # [kind, game]
        for species in range(6):
            seq = batch.pseq[seat, species]
            length = tots[rows[seat], species, np.arange(batch.n)]
            for symbol in range(4):
                counted = ((seq == symbol) & (places < length)).sum(axis=0)
                assert (counted == side[species * 4 + symbol]).all(), "enclosure order disagrees with counts"
    assert (batch.b16[:, 1] >= 0).all() and (batch.b16[:, 2] >= 0).all()


@pytest.mark.parametrize("overrides", [{}, {"expert": True, "steal_triggers_symbols": False}])
def test_invariants_hold_through_whole_batches(overrides):
    """Every turn of 600 random games, finished games dropped from the arrays as they end."""
    from tyrsim.games.zooloretto_duell.batch_policies import BatchRandom

    batch = ZooBatch(Rules.from_overrides(overrides), 600, np.random.default_rng(5))
    compactions = 0
    while batch.n:
        batch.step([BatchRandom()])
        check_invariants(batch)
        done = int(batch.over.sum())
        if done and (done * 4 >= batch.n or done == batch.n):
            batch.compact()
            compactions += 1
    assert compactions >= 3
    assert len(batch.results["score"][0]) == 600


def test_the_order_records_are_kept_for_the_heuristic_only():
    """Only the heuristic breaks ties by the order of the cards in the enclosures and on the discard pile."""
    from tyrsim.games.zooloretto_duell.batch_policies import BatchGreedy, BatchHeuristic, BatchRandom

    for policies, ordered in (([BatchRandom()], False), ([BatchGreedy(), BatchRandom()], False),
                              ([BatchHeuristic(), BatchRandom()], True)):
        batch = ZooBatch(Rules(), 20, np.random.default_rng(3),
                         np.array([[0] * 20, [len(policies) - 1] * 20], dtype=np.int8))
        batch.run(policies)
        assert batch.ordered is ordered
