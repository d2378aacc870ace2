"""Zooloretto Duell policies for the batch engine: random, greedy and heuristic as array computations.

Each makes, in every position, the choice its object-engine counterpart in
`policies.py` makes there (`batch_policy` maps one to the other):
- `random`: uniform among the legal actions, like `RandomPolicy` (the same in
  distribution: the batch draws its uniform numbers in another order);
- `greedy`: the action that most raises its own score now, ties broken uniformly
  at random, like `GreedyPolicy` (the same set of tied actions; the pick among
  them the same in distribution);
- `heuristic`: exactly `HeuristicPolicy`'s action, its weights included; ties go,
  as there, to the first action in the object engine's order.

A policy answers for the games in columns `i` of the batch (an index array or
every column): `turn` gives an action code (`ZooBatch.turn_mask`), `place` a truck
(or the expert discard, `ZooBatch.place_mask`), `donate` a kind from the discard pile.
"""

from __future__ import annotations

import numpy as np

from tyrsim.games.zooloretto_duell.batch import MINUS, NKIND, ZooBatch


def choose_legal(mask: np.ndarray, u: np.ndarray) -> np.ndarray:
    """Per column of `mask` [action, game], the action floor(u * n) among its n legal ones, in row order:
    uniform among them for u uniform on [0, 1); -1 where none is legal."""
    count = mask.sum(axis=0, dtype=np.int16)
    return nth_legal(mask, (u * count).astype(np.int16))


def nth_legal(mask: np.ndarray, n: np.ndarray) -> np.ndarray:
    """Per column of `mask` [action, game], the row of its legal action number n (from 0); -1 if none."""
    choice = np.full(mask.shape[1], -1, dtype=np.int32)
    seen = np.zeros(mask.shape[1], dtype=np.int16)
    for a in range(mask.shape[0]):
        row = mask[a]
        choice[row & (seen == n)] = a
        seen += row
    return choice


class BatchRandom:
    """Uniform among the legal actions.

    A turn is drawn by kind of action, in the object engine's order (draw, each truck's orders,
    quit empty-handed, steals, dispose), from counts kept by the engine, so that only the games
    that steal look at which animals they could steal.
    """

    name = "random"

    def turn(self, batch: ZooBatch, i) -> np.ndarray:
        tb = batch.tables
        draw = batch.can_draw(i)
        orders = batch.take_orders(i)
        pay = batch.can_pay(i)
        steals = batch.b8[1, NKIND, i] * pay
        dispose = pay & (batch.b16[0, MINUS, i] > 0)
        takes = orders.sum(axis=0)
        quit_ = ~draw & (takes == 0)
        total = draw + takes + quit_ + steals + dispose
        rest = (batch.rng.random(len(total)) * total).astype(np.int16)  # the chosen one among `total`
        code = np.where(rest < draw, 0, -1).astype(np.int32)
        rest -= draw
        for t in range(tb.trucks):
            here = (code < 0) & (rest < orders[t])
            code[here] = batch.take_code + t * tb.most_orders + rest[here]
            rest -= orders[t]
        code[(code < 0) & (rest < quit_)] = batch.quit_code
        rest -= quit_
        stealing = np.flatnonzero((code < 0) & (rest < steals))
        if len(stealing):
            cols = batch.columns(i)[stealing]
            code[stealing] = batch.steal_code + nth_legal(batch.steal_kinds(cols), rest[stealing])
        code[code < 0] = batch.dispose_code
        return code

    def place(self, batch: ZooBatch, i) -> np.ndarray:
        return choose_legal(batch.place_mask(i), batch.rng.random(len(batch.left[i])))

    def donate(self, batch: ZooBatch, i) -> np.ndarray:
        return choose_legal(batch.donation_mask(i), batch.rng.random(len(batch.left[i])))
