"""Zooloretto Duell policies for the batch engine: random, greedy and heuristic as array computations.

Each makes, in every position, the choice its object-engine counterpart in
`policies.py` makes there (`batch_policy` maps one to the other):
- `random`: uniform among the legal actions, like `RandomPolicy`; the same in
  distribution only: the batch draws its uniform numbers in another order;
- `greedy`: the action that most raises its own score now, ties broken uniformly
  at random, like `GreedyPolicy`: the same set of best actions, the pick among
  them the same in distribution;
- `heuristic`: exactly `HeuristicPolicy`'s action, its weights included. Its values
  are computed in the same order of floating-point operations as `evaluation.margin`,
  so equal values stay equal, and ties go, as there, to the first action in the
  object engine's order (for steals and donations, the order of the cards in the
  other zoo and on the discard pile, which the engine keeps for this).

A policy answers for the games in columns `i` of the batch (an index array or every
column), one answer per column: `turn` an action code (`ZooBatch.turn_mask`), `place`
a truck (or the expert discard, `ZooBatch.place_mask`), `donate` a kind from the
discard pile. Look-aheads place cards on copies of the deciding games' zoos
(`Zoo.take`) with the engine's own `place`.
"""

from __future__ import annotations

import numpy as np

from tyrsim.core.game import RandomPolicy
from tyrsim.games.zooloretto_duell.batch import (
    EDGE_WIDTH,
    KIND_SPECIES,
    KIND_SYMBOL,
    MINUS,
    NKIND,
    SPECIES,
    Markers,
    Tables,
    Zoo,
    ZooBatch,
    check_pending,
    check_species,
    place,
)
from tyrsim.games.zooloretto_duell.policies import GreedyPolicy, HeuristicPolicy

NONE = -np.inf  # the value of no option


# --- evaluation (evaluation.py, operation for operation) ---------------------------------------------------


def score_now(z: Zoo, tb: Tables, mine: bool = True) -> np.ndarray:
    """`evaluation.score_now` of z's player (or, `mine=False`, the other): the final score if the game ended
    now, coins counted fractionally."""
    rules = tb.rules
    tot, otot = (z.tot, z.otot) if mine else (z.otot, z.tot)
    won, coins, minus = (z.won, z.coins, z.minus) if mine else (z.owon, z.ocoins, z.ominus)
    majority = rules.majority_points * (tot > otot).sum(axis=0, dtype=np.int64)
    return (won + majority + coins / rules.coins_per_point) - minus


def margin(z: Zoo, markers: Markers, tb: Tables) -> np.ndarray:
    """`evaluation.margin` of z's player: worth minus the other player's, each open interim scoring's marker
    weighted by the race edge (the edges tabulated by `race_edge` itself, the terms added in the same order,
    so the floats are the object engine's)."""
    prospect = markers.prospect[z.k, z.g]
    value = score_now(z, tb) - score_now(z, tb, mine=False)
    for s in range(len(SPECIES)):
        edge = np.take(tb.edges[s], z.tot[s].astype(np.int16) * EDGE_WIDTH + z.otot[s])
        value = value + (prospect * edge) * ~z.scored[s]  # a scored species adds 0.0: the sum is unchanged
    edge = np.take(tb.vending_edges, z.ncol.astype(np.int16) * EDGE_WIDTH + z.oncol)
    return value + (prospect * edge) * ~z.vend


# --- look-aheads -------------------------------------------------------------------------------------------


def play(z: Zoo, markers: Markers, tb: Tables, cards: np.ndarray, until_due: bool) -> np.ndarray:
    """Place cards[j] (kinds [place, position]; -1: none) in order in the copy z.

    `until_due`: stop at the first square's donation, as taking a truck does (`ZooState._unload`); returns
    whether one is due. Otherwise go on as if the donation added nothing (`ZooState.with_cards`); returns
    how many became due."""
    due = np.zeros(cards.shape[1], dtype=bool if until_due else np.int64)
    for row in cards:
        act = row >= 0
        if until_due:
            act &= ~due
        if not act.any():
            continue
        placed = place(z, markers, tb, act, row, False)
        if until_due:
            due |= placed.due
        else:
            due += placed.due
            check_pending(z, markers, tb, np.flatnonzero(placed.due))
    return due


def lookahead(batch: ZooBatch, cols: np.ndarray, side: np.ndarray | int = 0) -> Zoo:
    """Copies of the zoos of games `cols` (repeats allowed), each seen from `side` (0: the player to move,
    1: the other; listed side by side: the other's after the mover's): one copy per look-ahead."""
    if isinstance(side, int):
        return batch.side(side).take(cols)
    split = np.searchsorted(side, 1)
    if split in (0, len(side)):
        return batch.side(int(side[0]) if len(side) else 0).take(cols)
    assert side[split - 1] == 0 and side[split:].all(), "look-aheads must be listed side by side"
    return Zoo.join([batch.side(0).take(cols[:split]), batch.side(1).take(cols[split:])])


def steal_into(batch: ZooBatch, z: Zoo, at: np.ndarray, kind: np.ndarray) -> np.ndarray:
    """Make copies `at` of z the mover's zoo after paying for and taking an animal of `kind` from the other
    zoo (`ZooState._steal`); returns the card to place next in each (-1: it went straight in, by the other
    reading of the ruling)."""
    species = KIND_SPECIES[kind]
    z.coins[at] -= batch.rules.money_action_cost
    z.otot[species, at] -= 1
    if batch.rules.steal_triggers_symbols:
        return kind
    z.pen[kind, at] += 1
    z.tot[species, at] += 1
    check_species(z, batch.markers, batch.tables, at, species)
    return np.full(len(at), -1)


def turn_lookahead(batch: ZooBatch, cols: np.ndarray) -> tuple:
    """Every take and steal of the games `cols` played out on copies of the mover's zoo, in one look-ahead:
    (takes, truck, order, steals, kind, zoo after each, whether a donation became due); the takes come
    first, then the steals."""
    takes, truck, order, cards = take_options(batch, cols)
    steals, kind = steal_options(batch, cols)
    z = lookahead(batch, cols[np.concatenate([takes.game, steals.game])])
    stolen = np.full((batch.tables.places, len(kind)), -1, dtype=np.int64)
    stolen[0] = steal_into(batch, z, len(truck) + np.arange(len(kind)), kind)
    due = play(z, batch.markers, batch.tables, np.concatenate([cards, stolen], axis=1), until_due=True)
    return takes, truck, order, steals, kind, z, due


def after_donation(batch: ZooBatch, cols: np.ndarray, kind: np.ndarray) -> Zoo:
    """The mover's zoo after taking `kind` from the discard pile in each of the games `cols` and placing the
    truck's cards still queued until the next donation (`ZooState.apply(Donate)`)."""
    tb = batch.tables
    z = batch.side(0).take(cols)
    z.ndisc -= 1
    place(z, batch.markers, tb, np.ones(len(cols), dtype=bool), kind, True)
    check_pending(z, batch.markers, tb, np.arange(len(cols)))
    rest = np.full((tb.places, len(cols)), -1, dtype=np.int64)  # the cards still queued, from the next one on
    for j in range(tb.places):
        source = batch.qpos[cols].astype(np.int64) + j
        queued = source < batch.qlen[cols]
        rest[j, queued] = batch.queue[source[queued], cols[queued]]
    play(z, batch.markers, tb, rest, until_due=True)
    return z


class Options:
    """Candidate actions of many games, listed game by game (`game`: the position among the deciding games,
    non-decreasing), each game's candidates in the object engine's order."""

    def __init__(self, game: np.ndarray, games: int) -> None:
        self.game, self.games = game, games

    def best(self, value: np.ndarray) -> np.ndarray:
        """Each game's highest value (NONE for a game without candidates)."""
        out = np.full(self.games, NONE)
        np.maximum.at(out, self.game, value)
        return out

    def first(self, mask: np.ndarray, key: np.ndarray | None = None) -> np.ndarray:
        """Each game's candidate with the lowest `key` (default: the first listed) among those in `mask`;
        -1 for a game with none."""
        index = np.arange(len(self.game))
        key = index if key is None else key
        big = np.iinfo(np.int64).max
        low = np.full(self.games, big)
        np.minimum.at(low, self.game[mask], key[mask])
        hit = np.flatnonzero(mask & (key == low[self.game]))
        games, first = np.unique(self.game[hit], return_index=True)  # the first listed among equal keys
        out = np.full(self.games, -1)
        out[games] = hit[first]
        return out

    def pick_tie(self, value: np.ndarray, best: np.ndarray, u: np.ndarray) -> np.ndarray:
        """Per game, one of its candidates with the best value, uniformly at random (u: one uniform per game)."""
        tie = value == best[self.game]
        count = np.bincount(self.game[tie], minlength=self.games)
        target = (u * count).astype(np.int64)
        before = np.concatenate(([0], np.cumsum(tie)))
        start = np.searchsorted(self.game, np.arange(self.games))
        rank = before[:-1] - before[start[self.game]]
        out = np.full(self.games, -1)
        chosen = tie & (rank == target[self.game])
        out[self.game[chosen]] = np.flatnonzero(chosen)
        return out


def take_options(batch: ZooBatch, cols: np.ndarray) -> tuple[Options, np.ndarray, np.ndarray, np.ndarray]:
    """Every legal take of the games `cols`: (options, truck, order, cards [place, option]), in the object
    engine's order (truck by truck, each truck's orders as `_take_options` lists them)."""
    tb = batch.tables
    orders = batch.take_orders(cols)  # [truck, game]
    legal = np.arange(tb.most_orders)[None, :, None] < orders[:, None, :]  # [truck, order, game]
    game, truck, order = np.nonzero(legal.transpose(2, 0, 1))
    cards = batch.truck_order(truck, order, cols[game])
    return Options(game, len(cols)), truck, order, cards


def steal_options(batch: ZooBatch, cols: np.ndarray) -> tuple[Options, np.ndarray]:
    """Every legal steal of the games `cols`: (options, kind), kind by kind."""
    legal = batch.steal_kinds(cols) & batch.can_pay(cols)
    game, kind = np.nonzero(legal.T)
    return Options(game, len(cols)), kind


def steal_order(batch: ZooBatch, cols: np.ndarray, kind: np.ndarray) -> np.ndarray:
    """Where each steal of an animal of `kind` comes in the object engine's list: species by species, and
    within a species in the order the kinds first appear in the other player's enclosure."""
    species, symbol = KIND_SPECIES[kind], KIND_SYMBOL[kind]
    seq = batch.pseq[1 - batch.seat[cols], species, :, cols]  # [option, place]
    first = np.argmax(seq == symbol[:, None], axis=1)
    return species * batch.tables.pen_length + first


def donation_options(batch: ZooBatch, cols: np.ndarray) -> tuple[Options, np.ndarray, np.ndarray]:
    """Every kind a square's donation may take in the games `cols`: (options, kind, where the kind first lies
    on the discard pile: the object engine lists the kinds in that order)."""
    game, kind = np.nonzero(batch.dcnt[:, cols].T > 0)
    seq = batch.dseq[:, cols[game]]  # [place, option]
    first = np.argmax(seq == kind, axis=0)
    return Options(game, len(cols)), kind, first


# --- policies ------------------------------------------------------------------------------------------


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
        dispose = batch.can_dispose(i)
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


class BatchGreedy:
    """`GreedyPolicy`: the action that most raises its own score now (a draw counts as no change), ties at
    random. `*_values` give every option with its value, for the choice and for tests."""

    name = "greedy"

    def turn(self, batch: ZooBatch, i) -> np.ndarray:
        return self._pick(batch, *self.turn_values(batch, batch.columns(i)))

    def place(self, batch: ZooBatch, i) -> np.ndarray:
        return self._pick(batch, *self.place_values(batch, batch.columns(i)))

    def donate(self, batch: ZooBatch, i) -> np.ndarray:
        return self._pick(batch, *self.donate_values(batch, batch.columns(i)))

    @staticmethod
    def _pick(batch: ZooBatch, options: Options, code: np.ndarray, value: np.ndarray) -> np.ndarray:
        return code[options.pick_tie(value, options.best(value), batch.rng.random(options.games))]

    def turn_values(self, batch: ZooBatch, cols: np.ndarray) -> tuple[Options, np.ndarray, np.ndarray]:
        tb, rules = batch.tables, batch.rules
        now = score_now(batch.side(0).take(cols), tb)
        takes, truck, order, steals, kind, z, _ = turn_lookahead(batch, cols)
        after = score_now(z, tb)
        take_value, steal_value = after[: len(truck)], after[len(truck):]
        dispose = batch.can_dispose(cols)
        z = batch.side(0).take(cols)
        z.coins -= rules.money_action_cost
        z.minus[:] = 0
        dispose_value = score_now(z, tb)
        draw = batch.can_draw(cols)
        quit_ = ~draw & (batch.take_orders(cols).sum(axis=0) == 0)
        # every option, game by game, in the object engine's order (a draw and quitting change no score)
        every = np.arange(len(cols))
        game = np.concatenate([every[draw], takes.game, every[quit_], steals.game, every[dispose]])
        code = np.concatenate([np.zeros(draw.sum(), np.int64), batch.take_code + truck * tb.most_orders + order,
                               np.full(quit_.sum(), batch.quit_code), batch.steal_code + kind,
                               np.full(dispose.sum(), batch.dispose_code)])
        value = np.concatenate([now[draw], take_value, now[quit_], steal_value, dispose_value[dispose]])
        kind_of = np.repeat(np.arange(5), [draw.sum(), len(truck), quit_.sum(), len(kind), dispose.sum()])
        ordered = np.lexsort((np.arange(len(game)), kind_of, game))
        return Options(game[ordered], len(cols)), code[ordered], value[ordered]

    def place_values(self, batch: ZooBatch, cols: np.ndarray) -> tuple[Options, np.ndarray, np.ndarray]:
        """Connecting changes no score; the expert discard costs its price."""
        mask = batch.place_mask(cols)
        z = batch.side(0).take(cols)
        now = score_now(z, batch.tables)
        z.coins -= batch.rules.expert_discard_cost
        game, code = np.nonzero(mask.T)
        value = np.where(code == batch.tables.trucks, score_now(z, batch.tables)[game], now[game])
        return Options(game, len(cols)), code, value

    def donate_values(self, batch: ZooBatch, cols: np.ndarray) -> tuple[Options, np.ndarray, np.ndarray]:
        options, kind, _ = donation_options(batch, cols)
        return options, kind, score_now(after_donation(batch, cols[options.game], kind), batch.tables)


class BatchHeuristic:
    """`HeuristicPolicy` with the same weights (see there for the rules of thumb)."""

    name = "heuristic"
    needs_order = True  # ties between steals and donations go as the object engine lists them

    def __init__(self, policy: HeuristicPolicy | None = None) -> None:
        self.policy = policy or HeuristicPolicy()

    def _gains(self, z: Zoo, batch: ZooBatch, base: np.ndarray, due: np.ndarray) -> np.ndarray:
        """`HeuristicPolicy._gain` / `_truck_gain`: margin after, less the margin before, plus the square's worth."""
        return margin(z, batch.markers, batch.tables) - base + self.policy.square_value * due

    def turn(self, batch: ZooBatch, i) -> np.ndarray:
        h, tb = self.policy, batch.tables
        cols = batch.columns(i)
        m = len(cols)
        base = margin(batch.side(0), batch.markers, tb)[cols]  # read only: no copy needed
        takes, truck, order, steals, kind, z, due = turn_lookahead(batch, cols)
        gain = self._gains(z, batch, base[np.concatenate([takes.game, steals.game])], due)
        take_gain, steal_gain = gain[: len(truck)], gain[len(truck):]
        best_take = takes.first(take_gain == takes.best(take_gain)[takes.game])
        has_take = best_take >= 0
        take_value = _value_at(take_gain, best_take)
        key = steal_order(batch, cols[steals.game], kind)
        best_steal = steals.first(steal_gain == steals.best(steal_gain)[steals.game], key)
        has_steal = best_steal >= 0
        steal_value = _value_at(steal_gain, best_steal)

        code = np.full(m, -1, dtype=np.int64)
        steal = has_steal & (steal_value >= h.steal_threshold) & (~has_take | (steal_value > take_value))
        code[steal] = batch.steal_code + kind[best_steal[steal]]
        dispose = (code < 0) & batch.can_dispose(cols) & (batch.b16[0, MINUS, cols] >= h.dispose_at)
        code[dispose] = batch.dispose_code
        draw = batch.can_draw(cols)
        alone = batch.quit(1)[cols]
        threshold = np.where(alone, h.alone_take_threshold, h.take_threshold)
        take = (code < 0) & has_take & (~draw | (take_value >= threshold))
        code[take] = batch.take_code + truck[best_take[take]] * tb.most_orders + order[best_take[take]]
        code[(code < 0) & draw] = 0
        code[code < 0] = batch.quit_code  # nothing to draw or take: quit empty-handed
        return code

    def place(self, batch: ZooBatch, i) -> np.ndarray:
        """`HeuristicPolicy._connect`: where the card helps our best truck most against the opponent's best."""
        h, tb = self.policy, batch.tables
        cols = batch.columns(i)
        m, trucks = len(cols), tb.trucks
        card = batch.card[cols].astype(np.int64)
        legal = batch.place_mask(cols)
        both = ~batch.quit(1)[cols]  # the opponent is still in the round: their trucks count too
        # every truck now and with the card on it, for the player to move (side 0) and, while in, the other;
        # the card on an empty truck is the card alone, whichever empty truck: worked out once
        who = np.stack([np.ones(m, dtype=bool), both])  # [side, game]
        length = batch.tl[:, cols]  # [truck, game]
        alone = np.zeros((trucks, m), dtype=bool)  # the first empty truck the card may go on
        for u in range(trucks):
            alone[u] = legal[u] & (length[u] == 0) & ~alone[:u].any(axis=0)
        now_wanted = who[:, None] & (length > 0)  # [side, truck, game]
        with_wanted = who[:, None] & legal[None, :trucks] & ((length > 0) | alone)
        # listed side by side, as `lookahead` takes them: [side, now/with, truck, game]
        side, grows, truck, game = np.nonzero(np.stack([now_wanted, with_wanted], axis=1))
        places = np.arange(tb.places)[:, None]
        cards = batch.tk[truck, :, cols[game]].T.astype(np.int64)  # [place, look-ahead]
        cards[places >= length[truck, game]] = -1
        grown = np.flatnonzero(grows)
        cards[length[truck[grown], game[grown]], grown] = card[game[grown]]
        base = np.concatenate([margin(batch.side(q), batch.markers, tb)[cols] for q in (0, 1)])  # read only
        z = lookahead(batch, cols[game], side)
        due = play(z, batch.markers, tb, cards, until_due=False)
        gain = self._gains(z, batch, base[side * m + game], due)
        now = np.full((2, trucks, m), NONE)  # [side, truck, game]
        with_card = np.full((2, trucks, m), NONE)
        now[side[grows == 0], truck[grows == 0], game[grows == 0]] = gain[grows == 0]
        with_card[side[grown], truck[grown], game[grown]] = gain[grown]
        first_alone = with_card[:, alone.argmax(axis=0), np.arange(m)]  # [side, game]
        for u in range(trucks):
            copy = legal[u] & (length[u] == 0) & ~alone[u]
            with_card[:, u, copy] = first_alone[:, copy]

        def board(q: int, u: int | None) -> np.ndarray:
            gains = now[q].copy()
            if u is not None:
                gains[u] = with_card[q, u]
            best = gains.max(axis=0)
            return np.where(best == NONE, 0.0, best)

        def value(u: int | None) -> np.ndarray:
            mine = board(0, u)
            return np.where(both, mine - h.opponent_weight * board(1, u), mine)

        best_value = np.full(m, NONE)
        choice = np.full(m, -1, dtype=np.int64)
        for u in range(trucks):
            v = value(u)
            better = legal[u] & (v > best_value)  # the first of equal values stays
            best_value[better], choice[better] = v[better], u
        if legal[trucks].any():
            price = batch.rules.expert_discard_cost / batch.rules.coins_per_point
            discard = legal[trucks] & (value(None) - price >= best_value + h.discard_threshold)
            choice[discard] = trucks
        return choice

    def donate(self, batch: ZooBatch, i) -> np.ndarray:
        cols = batch.columns(i)
        options, kind, first = donation_options(batch, cols)
        value = margin(after_donation(batch, cols[options.game], kind), batch.markers, batch.tables)
        return kind[options.first(value == options.best(value)[options.game], first)]


def _value_at(values: np.ndarray, index: np.ndarray) -> np.ndarray:
    """values[index], NONE where index is -1 (no option)."""
    out = np.full(len(index), NONE)
    out[index >= 0] = values[index[index >= 0]]
    return out


def batch_policy(policy) -> BatchRandom | BatchGreedy | BatchHeuristic | None:
    """The batch form of an object-engine policy, or None where there is none (the searches)."""
    if type(policy) is RandomPolicy:
        return BatchRandom()
    if type(policy) is GreedyPolicy:
        return BatchGreedy()
    if type(policy) is HeuristicPolicy:
        return BatchHeuristic(policy)
    return None

