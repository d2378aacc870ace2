"""Zooloretto Duell for many games at once: every game a column of numpy arrays, all advanced in lockstep.

The same game as `game.py`, rule for rule, for N games at a time. One step plays one
turn of every unfinished game: the turn's action (draw, take a truck, steal, dispose
of minus points, quit empty-handed), the placement of a drawn card, the cards of a
taken truck one by one and any square's donation on the way. Every decision is made
by a batch policy (`batch_policies.py`) from legal-action masks; a game that ends
waits, untouched, until the finished games are copied out and the arrays shrink.

How a position is held (axis -1 is always the game):
- cards are kinds: an animal is `species * 4 + symbol` (0: none, and the offspring;
  1 lightning, 2 heart, 3 square), a vending stand `24 + colour * 3 + symbol`; cards of
  one kind are interchangeable in play, as the object engine's actions treat them;
- each player's side (enclosure counts per kind and per species, stands per symbol and
  colour, marker points, coins, minus points, counters, "quit this round") is held for
  the player to move in row 0 and the other in row 1, so a turn reads its own side
  without indexing by seat; when the turn passes, the two rows swap (`seat` says whose
  row 0 is);
- the draw pile is the multiset of cards left, drawn uniformly at random when a card
  is drawn (a shuffle done lazily); the final-round card lies at a known depth;
- the scoring markers of each game are dealt at set-up (rule `marker_order`) into a
  table with the mean worth of the markers left after each award (`prospect`, what
  the heuristic weighs an open race with);
- the order of the cards in each enclosure and on the discard pile is kept, only so
  that a policy breaks ties between interchangeable options as the object engine's
  policies do (they take the first in the order the object engine lists them).

`place` puts one card into a player's zoo with every symbol effect and interim scoring.
It works on a `Zoo`: one side of many positions, either the real games or copies made
for a policy's look-ahead, so the engine and the policies' look-ahead share one copy
of the rules.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from itertools import permutations

import numpy as np
import pandas as pd

from tyrsim.core.rules import RuleError
from tyrsim.games.zooloretto_duell.cards import (
    COLOURS,
    FINAL_ROUND,
    OFFSPRING_SPECIES,
    SPECIES,
    SPECIES_CARDS,
    STAND,
    STAND_SYMBOLS,
    load_markers,
    load_stands,
    load_symbols,
)
from tyrsim.games.zooloretto_duell.evaluation import race_edge
from tyrsim.games.zooloretto_duell.game import (
    COUNTERS,
    DISPOSALS,
    DONATION,
    END_TRIGGERS,
    EXPERT_DISCARDS,
    HEART_FIRED,
    HEART_WASTED,
    INTERIM_MARKERS,
    LIGHTNING_FIRED,
    MINUS_DISPOSED,
    PLACE,
    SQUARE_FIRED,
    SQUARE_WASTED,
    STAND_COIN,
    STEALS,
    THIRD_SYMBOL,
    TURN,
    ZooState,
)
from tyrsim.games.zooloretto_duell.rules import Rules

ANIMALS = 24  # animal kinds: species * 4 + symbol
KINDS = ANIMALS + len(COLOURS) * len(STAND_SYMBOLS)  # and the 12 kinds of vending stand
CARD_TRIGGER, MARKER_TRIGGER, PILE_TRIGGER = 1, 2, 3  # `trigger`: index + 1 into END_TRIGGERS
NO_SPECIES = -1  # `pending`: no interim-scoring check waits for a donation
MAX_POINTS = 1000  # points of one scoring marker the batch engine's 16-bit integers hold with room to spare
MAX_STEPS = 10_000  # turns; a safety limit far above any game (about 90)
EDGE_WIDTH = 16  # more than the cards of one species (at most 10 and the offspring) or the stand colours

# rows of the int8 block of a side (see ZooBatch): enclosures per kind, per species, stands per symbol and
# colour, colours held, "quit this round", kinds of animal held; under the rule `symbol_once` only, a row per
# animal kind from FIRED on: its symbol has triggered
PEN, TOT, SSYM, SCOL, NCOL, QUIT, NKIND, FIRED = 0, 24, 30, 33, 37, 38, 39, 40
ROWS8 = 40
# rows of the int16 block of a side: marker points, coins, minus points, then the counters
WON, COINS, MINUS, CNT = 0, 1, 2, 3
ROWS16 = 3 + len(COUNTERS)


class BatchRuleError(RuleError):
    """A rule value the batch engine cannot play; the object engine still can (`--engine object`)."""


def flat_view(a: np.ndarray) -> np.ndarray:
    """`a` as one flat view on the same memory (an error, never a silent copy, if it is not contiguous)."""
    view = a.view()
    view.shape = (-1,)
    return view


@lru_cache(maxsize=16)
def positions(size: int) -> np.ndarray:
    """0 .. size-1, made once per size (the column of each position in flat indexing)."""
    out = np.arange(size)
    out.flags.writeable = False
    return out


def animal_kind(species: int, symbol: int) -> int:
    return species * 4 + symbol


def stand_kind(colour: int, symbol: int) -> int:
    return ANIMALS + colour * len(STAND_SYMBOLS) + symbol


def card_kind(card) -> int:
    """The kind of one of the object engine's cards (an offspring plays like a plain animal)."""
    if card.species == STAND:
        return stand_kind(card.colour, card.symbol)
    return animal_kind(card.species, 0 if card.offspring else card.symbol)


# what each kind is
KIND_SPECIES = np.array([k // 4 for k in range(ANIMALS)] + [0] * (KINDS - ANIMALS), dtype=np.intp)
KIND_SYMBOL = np.array([k % 4 for k in range(ANIMALS)] + [k % 3 for k in range(KINDS - ANIMALS)], dtype=np.intp)
KIND_COLOUR = np.array([0] * ANIMALS + [k // 3 for k in range(KINDS - ANIMALS)], dtype=np.intp)


@dataclass(frozen=True, eq=False)
class Tables:
    """Everything the batch engine reads from the rules and their data files, as small arrays."""

    rules: Rules
    deck: np.ndarray  # kinds of the 57 animals and stands shuffled into the draw pile
    caps: tuple[int, ...]  # places on each truck
    places: int  # the most places of any truck
    targets: np.ndarray  # target value of each species
    markers: tuple[tuple[int, bool, bool, str], ...]  # (points, coin, final round, letter) from the top
    pen_length: int  # the most cards one enclosure can hold
    orders: np.ndarray  # [pattern, order, place]: which card of a truck goes where in each distinct order
    order_counts: np.ndarray  # [pattern]: how many distinct orders
    most_orders: int
    # `evaluation.race_edge` of each species' race for its marker, by (mover's animals * EDGE_WIDTH + the
    # other's), and of the vending area's by (mover's colours * EDGE_WIDTH + the other's): the same floats
    edges: np.ndarray  # [species, 16 * 16]
    vending_edges: np.ndarray  # [16 * 16]

    @property
    def trucks(self) -> int:
        return len(self.caps)


def check_rules(rules: Rules) -> None:
    """Raise BatchRuleError naming a rule value the batch engine cannot play."""
    points = list(rules.marker_points) or [m.points for m in load_markers(rules.markers_file) if not m.final_round]
    if max(points) > MAX_POINTS:
        name = "marker_points" if rules.marker_points else "markers_file"
        raise BatchRuleError(f"rule {name!r}: the batch engine plays scoring markers of up to {MAX_POINTS:,} "
                             f"points, not {max(points):,} (the object engine can: --engine object)")


@lru_cache(maxsize=32)
def tables(rules: Rules) -> Tables:
    """The batch engine's tables for `rules` (BatchRuleError for a value it cannot play)."""
    check_rules(rules)
    symbols = load_symbols(rules.symbols_file)
    deck = []
    for s, count in enumerate(SPECIES_CARDS):
        marks = [1] * symbols[s][0] + [2] * symbols[s][1] + [3] * symbols[s][2]
        deck += [animal_kind(s, m) for m in marks + [0] * (count - len(marks))]
    deck += [stand_kind(colour, symbol) for colour, symbol in load_stands(rules.stands_file)]
    markers = load_markers(rules.markers_file)
    points = iter(rules.marker_points)
    rows = tuple(
        (0 if m.final_round else (next(points) if rules.marker_points else m.points), m.coin, m.final_round, m.letter)
        for m in markers
    )
    orders, counts = _truck_orders(max(rules.truck_places))
    width = range(EDGE_WIDTH)
    edges = np.array([[race_edge(a - b, max(0, target - a - b)) for a in width for b in width]
                      for target in rules.target_values])
    colours = range(len(COLOURS) + 1)  # the rest of the vending table is never read
    vending = np.array([race_edge(a - b, len(COLOURS) - max(a, b)) if a in colours and b in colours else 0.0
                        for a in width for b in width])
    return Tables(
        rules=rules,
        deck=np.array(deck, dtype=np.int8),
        caps=tuple(rules.truck_places),
        places=max(rules.truck_places),
        targets=np.array(rules.target_values, dtype=np.int8),
        markers=rows,
        pen_length=max(SPECIES_CARDS) + 1,
        orders=orders,
        order_counts=counts,
        most_orders=int(counts.max()),
        edges=edges,
        vending_edges=vending,
    )


def _truck_orders(places: int) -> tuple[np.ndarray, np.ndarray]:
    """The distinct orders of a truck's cards, as the object engine lists them (every permutation of the
    positions, the identity first, dropping orders that repeat an earlier order's kinds).

    A truck's pattern says which of its cards are alike: digit j (base places + 1) is 1 + the first
    position holding the same kind as position j, or 0 for an empty place.
    """
    base = places + 1
    n_patterns = base**places
    orders = np.zeros((n_patterns, math.factorial(places), places), dtype=np.intp)
    counts = np.zeros(n_patterns, dtype=np.intp)
    for n in range(1, places + 1):
        for first in _first_alike(n):
            pattern = sum((f + 1) * base**j for j, f in enumerate(first))
            seen, found = set(), []
            for order in permutations(range(n)):
                key = tuple(first[i] for i in order)
                if key not in seen:
                    seen.add(key)
                    found.append(order)
            counts[pattern] = len(found)
            for o, order in enumerate(found):
                orders[pattern, o, :n] = order
    return orders, counts


def _first_alike(n: int) -> list[tuple[int, ...]]:
    """Every way n cards can be alike or not, as 'the first position with the same kind' per position."""
    out: list[tuple[int, ...]] = [()]
    for j in range(n):
        grown = []
        for first in out:
            for f in sorted({first[i] for i in range(j)} | {j}):
                grown.append((*first, f))
        out = grown
    return out


# --- one side of many positions, and placing a card there -----------------------------------------------


class Zoo:
    """One player's side of many positions ("mine", the other player's "o..."), with what placing a card
    touches: arrays whose last axis is the position. `g` is each position's game (its column in the engine),
    for the tables dealt per game (markers). `cnt` / `ocnt` (the two sides' counters) are None in a
    look-ahead."""

    __slots__ = ("g", "pen", "tot", "otot", "ssym", "scol", "ncol", "oncol", "nkind", "fired", "won", "owon",
                 "coins", "ocoins", "minus", "ominus", "scored", "reached", "young", "vend", "k", "ndisc", "sqf",
                 "pending", "final", "trigger", "cnt", "ocnt")
    # the fields a look-ahead copies (the counters are left out)
    COPIED = ("g", "pen", "tot", "otot", "ssym", "scol", "ncol", "oncol", "nkind", "fired", "won", "owon", "coins",
              "ocoins", "minus", "ominus", "scored", "reached", "young", "vend", "k", "ndisc", "sqf", "pending",
              "final", "trigger")

    def take(self, i: np.ndarray, counters: bool = False) -> Zoo:
        """A copy of positions `i`; without `counters` (a look-ahead) the counters are not kept."""
        new = Zoo.__new__(Zoo)
        for name in Zoo.COPIED:
            setattr(new, name, np.take(getattr(self, name), i, axis=-1))
        new.cnt = np.take(self.cnt, i, axis=-1) if counters else None
        new.ocnt = np.take(self.ocnt, i, axis=-1) if counters else None
        return new

    @staticmethod
    def join(parts: list[Zoo]) -> Zoo:
        """The positions of several look-ahead copies, one after the other."""
        new = Zoo.__new__(Zoo)
        for name in Zoo.COPIED:
            setattr(new, name, np.concatenate([getattr(p, name) for p in parts], axis=-1))
        new.cnt = new.ocnt = None
        return new

    def put(self, i: np.ndarray, part: Zoo) -> None:
        """Write `part` (made by `take(i, counters=True)`) back at positions i."""
        for name in (*Zoo.COPIED[1:], "cnt", "ocnt"):
            getattr(self, name)[..., i] = getattr(part, name)


@dataclass
class Placed:
    """What `place` did, one flag per position, for the engine's records."""

    due: np.ndarray  # a square's donation became due
    kept: np.ndarray  # an animal went into the enclosure
    child: np.ndarray  # and the offspring after it
    discarded: np.ndarray  # a third card with one symbol went to the discard pile


class Markers:
    """The scoring markers dealt to each game: points and coin of the j-th marker awarded, how many markers
    lie above the final-round marker, and the mean worth of the markers left after j awards."""

    def __init__(self, points: np.ndarray, coin: np.ndarray, final_at: np.ndarray, coins_per_point: int) -> None:
        self.points = points  # int32 [7, games]
        self.coin = coin  # bool [7, games]
        self.final_at = final_at  # int8 [games]
        self.prospect = prospect_table(points, coin, coins_per_point)  # float64 [8, games]

    def take(self, keep: np.ndarray) -> Markers:
        new = Markers.__new__(Markers)
        new.points, new.coin = np.take(self.points, keep, axis=1), np.take(self.coin, keep, axis=1)
        new.final_at, new.prospect = self.final_at[keep], np.take(self.prospect, keep, axis=1)
        return new


def prospect_table(points: np.ndarray, coin: np.ndarray, coins_per_point: int) -> np.ndarray:
    """Per game and markers awarded j: `evaluation.marker_prospect`, the mean worth of the markers left
    (a coin at its share of a point), summed in stockpile order exactly as the object engine sums them."""
    n = points.shape[0]
    worth = points.astype(np.float64) + (1.0 / coins_per_point) * coin
    out = np.zeros((n + 1, points.shape[1]))
    for j in range(n):
        total = worth[j].copy()
        for i in range(j + 1, n):
            total += worth[i]
        out[j] = total / (n - j)
    return out


def place(z: Zoo, markers: Markers, tb: Tables, act: np.ndarray, kind: np.ndarray, donated) -> Placed:
    """Put one card of `kind` into the zoo of `z`'s player where `act`, with its symbol's effect and the
    interim scorings it causes: `ZooState._place`, for many positions at once.

    `donated` (a bool, or one per position): the card came from the discard pile by a square, so a
    further square goes to waste. The rulings are the object engine's (see `ZooState._place`). The
    common steps are done for every position at once, masked; the rare ones (a vending stand, an
    offspring, a donation, a marker) on the positions they concern.
    """
    rules = tb.rules
    size = len(act)
    kind = kind.astype(np.int8)
    animal = act & (kind < ANIMALS)
    stand = act ^ animal
    discarded = np.zeros(size, dtype=bool)
    if stand.any():
        at = np.flatnonzero(stand)
        discarded[_place_stands(z, markers, at, kind[at].astype(np.intp))] = True
    kind = kind * animal  # 0 where no animal is placed: a valid place to read (and write back unchanged)
    species, symbol = kind >> 2, kind & 3
    index = kind.astype(np.intp) * size + positions(size)  # where each position's kind is counted in `pen`
    pen = flat_view(z.pen)
    same = np.take(pen, index)
    third = animal & (symbol > 0) & (same >= 2)  # the third animal of the species with the same symbol
    kept = animal ^ third
    np.put(pen, index, same + kept)
    z.nkind += kept & (same == 0)
    one = [species == s for s in range(len(SPECIES))]  # the card's species, one-hot
    for s in range(len(SPECIES)):
        z.tot[s] += one[s] & kept
    if third.any():
        discarded |= third
        z.ndisc += third
        z.minus += third
        if z.cnt is not None:
            z.cnt[THIRD_SYMBOL] += third
    second = kept & (same == 1) & (symbol > 0)
    if rules.symbol_once:  # ruling: a player's pair of a species and symbol triggers only the first time
        fired = flat_view(z.fired)
        before = np.take(fired, index)
        second &= before == 0
        np.put(fired, index, before | second)
    check = animal.copy()  # every card's species is checked, the discarded third's too
    due = np.zeros(size, dtype=bool)
    child = np.zeros(size, dtype=bool)
    if second.any():
        lightning = second & (symbol == 1)
        z.minus += lightning
        if z.cnt is not None:
            z.cnt[LIGHTNING_FIRED] += lightning
        heart = np.flatnonzero(second & (symbol == 2))
        if len(heart):
            child = _offspring(z, markers, tb, heart, species[heart])
        square = np.flatnonzero(second & (symbol == 3))
        if len(square):
            waste = (z.ndisc[square] == 0) | (donated[square] if isinstance(donated, np.ndarray) else donated)
            if rules.one_square_per_turn:  # the other reading of the chain rule: one square a turn
                waste |= z.sqf[square]
            fired = square[~waste]
            if z.cnt is not None:
                z.cnt[SQUARE_WASTED, square[waste]] += 1
                z.cnt[SQUARE_FIRED, fired] += 1
            z.sqf[fired] = True
            due[fired] = True
            if rules.symbol_before_scoring:  # the other reading: the species is checked after the donation
                z.pending[fired] = species[fired]
                check[fired] = False
    _check(z, markers, tb, check, one)
    return Placed(due, kept, child, discarded)


def _offspring(z: Zoo, markers: Markers, tb: Tables, hi: np.ndarray, species: np.ndarray) -> np.ndarray:
    """A second heart at positions hi: the species' offspring joins the enclosure if still in the supply.
    Returns, per position, whether it did."""
    born = z.young[species, hi]
    if z.cnt is not None:
        z.cnt[HEART_WASTED, hi[~born]] += 1
    ci, cs = hi[born], species[born]
    child = np.zeros(len(z.k), dtype=bool)
    if len(ci):
        if not tb.rules.symbol_before_scoring:
            check_species(z, markers, tb, ci, cs)  # the scoring interrupts play before the offspring comes
        z.young[cs, ci] = False
        z.nkind[ci] += z.pen[cs * 4, ci] == 0
        z.pen[cs * 4, ci] += 1
        z.tot[cs, ci] += 1
        if z.cnt is not None:
            z.cnt[HEART_FIRED, ci] += 1
        child[ci] = True
    return child


def _place_stands(z: Zoo, markers: Markers, i: np.ndarray, kind: np.ndarray) -> np.ndarray:
    """Vending stands at positions i: the third with one symbol is discarded for a minus point, the second
    gives a coin, the first player with all four colours wins the vending area's marker. Returns the
    positions of the discarded ones."""
    symbol, colour = KIND_SYMBOL[kind], KIND_COLOUR[kind]
    same = z.ssym[symbol, i]
    third = same >= 2
    ti = i[third]
    z.ndisc[ti] += 1
    z.minus[ti] += 1
    if z.cnt is not None:
        z.cnt[THIRD_SYMBOL, ti] += 1
    keep = ~third
    ki, symbol, colour, same = i[keep], symbol[keep], colour[keep], same[keep]
    z.ssym[symbol, ki] += 1
    z.ncol[ki] += z.scol[colour, ki] == 0
    z.scol[colour, ki] += 1
    ci = ki[same == 1]
    z.coins[ci] += 1
    if z.cnt is not None:
        z.cnt[STAND_COIN, ci] += 1
    vi = ki[~z.vend[ki] & (z.ncol[ki] == len(COLOURS))]
    if len(vi):
        z.vend[vi] = True
        _award(z, markers, vi, np.ones(len(vi), dtype=bool))
    return ti


def _check(z: Zoo, markers: Markers, tb: Tables, m: np.ndarray, one: list[np.ndarray]) -> None:
    """Interim scoring, where `m`, of the species given one-hot by `one`: `ZooState._check_species`.

    Once the enclosures together hold the target value the species waits for one player to be
    strictly ahead (`reached`), and is then scored for good."""
    mine, theirs, target = (np.zeros(len(m), dtype=np.int8) for _ in range(3))
    scored, reached = np.zeros(len(m), dtype=bool), np.zeros(len(m), dtype=bool)
    for s, here in enumerate(one):
        mine += here * z.tot[s]
        theirs += here * z.otot[s]
        target += here * tb.targets[s]
        scored |= here & z.scored[s]
        reached |= here & z.reached[s]
    reach = m & ~scored & (reached | (mine + theirs >= target))
    for s, here in enumerate(one):
        z.reached[s] |= here & reach
    win = reach & (mine != theirs)
    if win.any():
        wi = np.flatnonzero(win)
        z.scored[_species_of(one, wi), wi] = True
        _award(z, markers, wi, mine[wi] > theirs[wi])


def _species_of(one: list[np.ndarray], i: np.ndarray) -> np.ndarray:
    """The species at positions i of a one-hot list."""
    out = np.zeros(len(i), dtype=np.intp)
    for s, here in enumerate(one):
        out += s * here[i]
    return out


def check_species(z: Zoo, markers: Markers, tb: Tables, i: np.ndarray, species: np.ndarray) -> None:
    """`_check` at positions i (distinct) of the given species, for the rare checks made on a few positions."""
    open_ = ~z.scored[species, i]
    i, species = i[open_], species[open_]
    mine, theirs = z.tot[species, i], z.otot[species, i]
    reached = z.reached[species, i] | (mine.astype(np.int16) + theirs >= tb.targets[species])
    z.reached[species, i] = reached
    win = reached & (mine != theirs)
    if win.any():
        wi = i[win]
        z.scored[species[win], wi] = True
        _award(z, markers, wi, mine[win] > theirs[win])


def _award(z: Zoo, markers: Markers, i: np.ndarray, to_mover: np.ndarray) -> None:
    """The top scoring marker (and its coin) at positions i: to the mover where `to_mover`, else to the other
    player; the round becomes the final one if the final-round marker had surfaced (`ZooState._award`)."""
    g, k = z.g[i], z.k[i]
    points, coin = markers.points[k, g], markers.coin[k, g]
    mi, oi = i[to_mover], i[~to_mover]
    z.won[mi] += points[to_mover]
    z.owon[oi] += points[~to_mover]
    z.coins[mi] += coin[to_mover]
    z.ocoins[oi] += coin[~to_mover]
    if z.cnt is not None:
        z.cnt[INTERIM_MARKERS, mi] += 1
        z.ocnt[INTERIM_MARKERS, oi] += 1
    # the final-round marker has surfaced once the markers above it are gone
    last = i[(k >= markers.final_at[g]) & ~z.final[i]]
    z.final[last] = True
    z.trigger[last] = MARKER_TRIGGER
    z.k[i] += 1


def check_pending(z: Zoo, markers: Markers, tb: Tables, i: np.ndarray) -> None:
    """The interim-scoring check that waited for a square's donation (rule `symbol_before_scoring`)."""
    if not tb.rules.symbol_before_scoring or not len(i):
        return
    waiting = z.pending[i] >= 0
    wi = i[waiting]
    if len(wi):
        species = z.pending[wi].astype(np.intp)
        z.pending[wi] = NO_SPECIES
        check_species(z, markers, tb, wi, species)


# --- the engine ----------------------------------------------------------------------------------------

EVERY = slice(None)  # a column selection: every game


class ZooBatch:
    """Many games of Zooloretto Duell in lockstep under one set of rules (see the module's docstring).

    `policy_of_seat[s, j]`: index into the policies given to `run` of the policy sitting in seat s of
    game j. Columns are games; finished games are copied out and dropped (`gid` maps a column to its game).
    Methods that take `i` work on the columns `i` (an index array, or EVERY).
    """

    def __init__(self, rules: Rules, games: int, rng: np.random.Generator, policy_of_seat: np.ndarray | None = None,
                 *, deal: bool = True) -> None:
        tb = tables(rules)
        self.tables, self.rules, self.rng = tb, rules, rng
        n = self.n = games
        T, P = tb.trucks, tb.places
        self.gid = np.arange(n)
        self.policy_of_seat = np.zeros((2, n), dtype=np.int8) if policy_of_seat is None else policy_of_seat
        # both sides: row 0 the player to move, row 1 the other (swapped when the turn passes)
        self.b8 = np.zeros((2, ROWS8 + ANIMALS * rules.symbol_once, n), dtype=np.int8)
        self.b16 = np.zeros((2, ROWS16, n), dtype=np.int16)
        self.b16[:, COINS] = rules.starting_coins
        self.seat = np.zeros(n, dtype=np.int8)  # the seat of row 0; seat 0 begins
        self.pseq = np.zeros((2, len(SPECIES), tb.pen_length, n), dtype=np.int8)  # by seat: symbols in order
        # the draw pile: the first `left` entries of `pile`, drawn at random (`shuffled`) or from the end
        self.pile = np.repeat(tb.deck[:, None], n, axis=1)
        self.left = np.full(n, len(tb.deck), dtype=np.int16)
        self.shuffled = True
        # keep the order of the cards in the enclosures and on the discard pile (`pseq`, `dseq`): only a policy
        # breaking ties as the object engine lists its actions needs it (`needs_order`); `run` decides
        self.ordered = True
        self.depth = np.zeros(n, dtype=np.int16)  # cards under the final-round card (-1: not in the pile)
        self.aside = np.zeros(n, dtype=bool)  # the final-round card has surfaced
        self.dseq = np.full((len(tb.deck) + 1, n), -1, dtype=np.int8)  # the discard pile in order
        self.dlen = np.zeros(n, dtype=np.int16)
        self.dcnt = np.zeros((KINDS, n), dtype=np.int8)
        self.tk = np.full((T, P, n), -1, dtype=np.int8)  # the cards on each truck in the order they came
        self.tl = np.zeros((T, n), dtype=np.int8)
        self.tpat = np.zeros((T, n), dtype=np.int16)  # which of a truck's cards are alike (`_truck_orders`)
        self.gone = np.zeros((T, n), dtype=bool)  # taken this round
        self.young = np.zeros((len(SPECIES), n), dtype=bool)  # offspring card still in the supply
        self.young[list(OFFSPRING_SPECIES)] = True
        self.scored = np.zeros((len(SPECIES), n), dtype=bool)
        self.reached = np.zeros((len(SPECIES), n), dtype=bool)
        self.vend = np.zeros(n, dtype=bool)
        self.k = np.zeros(n, dtype=np.int8)  # scoring markers awarded
        self.final = np.zeros(n, dtype=bool)
        self.trigger = np.zeros(n, dtype=np.int8)
        self.sqf = np.zeros(n, dtype=bool)  # a square's donation became due this turn
        self.pending = np.full(n, NO_SPECIES, dtype=np.int8)
        self.rounds = np.ones(n, dtype=np.int16)
        self.last_taker = np.zeros(n, dtype=np.int8)
        self.over = np.zeros(n, dtype=bool)
        self.actions = np.zeros(n, dtype=np.int32)
        # within a turn: the drawn card, a taken truck's cards still to place
        self.card = np.full(n, -1, dtype=np.int8)
        self.queue = np.full((P, n), -1, dtype=np.int8)
        self.qpos = np.zeros(n, dtype=np.int8)
        self.qlen = np.zeros(n, dtype=np.int8)
        self.donating = np.zeros(n, dtype=bool)
        self.markers = Markers(np.zeros((7, n), np.int32), np.zeros((7, n), bool), np.zeros(n, np.int8),
                               rules.coins_per_point)
        self.results: dict[str, np.ndarray] = {}
        self._zoo: Zoo | None = None
        if deal:
            self._set_up()

    # --- set-up ---------------------------------------------------------------------------------------

    def _set_up(self) -> None:
        """The top card onto the discard pile, the final-round card into the pile, the markers dealt."""
        every = np.arange(self.n)
        self._discard(every, self._draw_cards(every))
        self.depth[:] = min(self.rules.final_round_card_depth, len(self.tables.deck) - 1)
        self.aside[:] = self.left == self.depth  # a final-round card on top is put aside at once
        self.markers = self._deal_markers()

    def _deal_markers(self) -> Markers:
        """Each game's stockpile sorted by letter; markers sharing a letter shuffled among themselves
        (rule `marker_order`), as `_shuffle_within_letters` does."""
        rows, n = self.tables.markers, self.n
        order = np.repeat(np.arange(len(rows))[:, None], n, axis=1)
        if self.rules.marker_order == "shuffled":
            start = 0
            while start < len(rows):
                end = start + 1
                while end < len(rows) and rows[start][3] and rows[end][3] == rows[start][3]:
                    end += 1
                if end - start > 1:
                    order[start:end] = start + np.argsort(self.rng.random((end - start, n)), axis=0)
                start = end
        points = np.array([r[0] for r in rows], dtype=np.int32)[order]
        coin = np.array([r[1] for r in rows], dtype=bool)[order]
        final = np.array([r[2] for r in rows], dtype=bool)[order]
        return self._markers_from(points, coin, final)

    def _markers_from(self, points: np.ndarray, coin: np.ndarray, final: np.ndarray) -> Markers:
        """Markers from a stockpile [position, game] holding one final-round marker in each game."""
        n = points.shape[1]
        seen = np.zeros(n, dtype=bool)
        final_at = np.zeros(n, dtype=np.int8)
        out_points, out_coin = np.zeros((7, n), np.int32), np.zeros((7, n), bool)
        every = np.arange(n)
        for j in range(points.shape[0]):
            rank = j - seen  # scoring markers above this one
            scoring = ~final[j]
            out_points[rank[scoring], every[scoring]] = points[j, scoring]
            out_coin[rank[scoring], every[scoring]] = coin[j, scoring]
            seen |= final[j]
            final_at += ~seen
        return Markers(out_points, out_coin, final_at, self.rules.coins_per_point)

    # --- the position -----------------------------------------------------------------------------------

    def zoo(self) -> Zoo:
        """The side of the player to move in every game, on the engine's own arrays (changes write through)."""
        return self.side(0)

    def side(self, row: int) -> Zoo:
        """The side of the player to move (row 0) or of the other player (row 1), as a Zoo on the engine's
        own arrays (changes write through; a look-ahead copies it first with `Zoo.take`)."""
        if self._zoo is None:
            self._zoo = (self._side(0), self._side(1))
        return self._zoo[row]

    def _side(self, row: int) -> Zoo:
        z = Zoo.__new__(Zoo)
        b8, b16, other = self.b8, self.b16, 1 - row
        z.g = positions(self.n)
        z.pen, z.tot, z.otot = b8[row, PEN:TOT], b8[row, TOT:SSYM], b8[other, TOT:SSYM]
        z.ssym, z.scol = b8[row, SSYM:SCOL], b8[row, SCOL:NCOL]
        z.ncol, z.oncol, z.nkind = b8[row, NCOL], b8[other, NCOL], b8[row, NKIND]
        z.fired = b8[row, FIRED:]  # no rows unless the rule `symbol_once` is on
        z.won, z.owon = b16[row, WON], b16[other, WON]
        z.coins, z.ocoins = b16[row, COINS], b16[other, COINS]
        z.minus, z.ominus = b16[row, MINUS], b16[other, MINUS]
        z.cnt, z.ocnt = b16[row, CNT:], b16[other, CNT:]
        z.scored, z.reached, z.young, z.vend, z.k = self.scored, self.reached, self.young, self.vend, self.k
        z.ndisc, z.sqf, z.pending, z.final, z.trigger = self.dlen, self.sqf, self.pending, self.final, self.trigger
        return z

    def quit(self, row: int) -> np.ndarray:
        """Whether the player to move (row 0) or the other (row 1) has quit this round."""
        return self.b8[row, QUIT].view(bool)

    def columns(self, i) -> np.ndarray:
        """The column selection `i` as an index array."""
        return np.arange(self.n)[i] if isinstance(i, slice) else i

    # --- legal actions ----------------------------------------------------------------------------------

    @property
    def turn_actions(self) -> int:
        """Size of the turn's action space: draw, take (truck, order), quit empty-handed, steal a kind, dispose."""
        return 3 + self.tables.trucks * self.tables.most_orders + ANIMALS

    take_code = 1  # + truck * most_orders + order

    @property
    def quit_code(self) -> int:
        return 1 + self.tables.trucks * self.tables.most_orders

    @property
    def steal_code(self) -> int:
        return self.quit_code + 1  # + kind

    @property
    def dispose_code(self) -> int:
        return self.steal_code + ANIMALS

    def can_draw(self, i=EVERY) -> np.ndarray:
        """The pile has a card and some truck in the middle a free place."""
        free = np.zeros(self.left[i].shape, dtype=bool)
        for t, cap in enumerate(self.tables.caps):
            free |= ~self.gone[t, i] & (self.tl[t, i] < cap)
        return free & (self.left[i] > 0)

    def take_orders(self, i=EVERY) -> np.ndarray:
        """Per truck, in how many distinct orders it may be taken (0: it cannot be: empty or taken)."""
        return self.tables.order_counts[self.tpat[:, i]]

    def truck_order(self, t: np.ndarray, order: np.ndarray, i: np.ndarray) -> np.ndarray:
        """The cards [place, game] of truck t (one per game i) in its order number `order`; -1 past its cards."""
        positions = self.tables.orders[self.tpat[t, i], order]  # [games, places]
        cards = self.tk[t[:, None], positions, i[:, None]].T
        cards[np.arange(self.tables.places)[:, None] >= self.tl[t, i]] = -1
        return cards

    def can_pay(self, i=EVERY) -> np.ndarray:
        return self.b16[0, COINS, i] >= self.rules.money_action_cost

    def can_dispose(self, i=EVERY) -> np.ndarray:
        """Money action II: the player can pay and holds a minus point (or, by rule `dispose_without_minus`,
        need not)."""
        if self.rules.dispose_without_minus:
            return self.can_pay(i)
        return self.can_pay(i) & (self.b16[0, MINUS, i] > 0)

    def steal_kinds(self, i=EVERY) -> np.ndarray:
        """The kinds of animal in the other player's zoo [kind, game]."""
        return self.b8[1, PEN:TOT][:, i] > 0

    def turn_mask(self, i=EVERY) -> np.ndarray:
        """The legal actions of the turn [action, game] (codes: see `turn_actions`), in the object engine's order."""
        tb = self.tables
        mask = np.zeros((self.turn_actions, len(self.left[i])), dtype=bool)
        mask[0] = self.can_draw(i)
        orders = self.take_orders(i)
        for t in range(tb.trucks):
            for o in range(tb.most_orders):
                mask[self.take_code + t * tb.most_orders + o] = o < orders[t]
        mask[self.quit_code] = ~mask[: self.quit_code].any(axis=0)
        pay = self.can_pay(i)
        mask[self.steal_code: self.dispose_code] = pay & self.steal_kinds(i)
        mask[self.dispose_code] = self.can_dispose(i)
        return mask

    def place_mask(self, i=EVERY) -> np.ndarray:
        """Where the drawn card may go [truck, game], and, in the last row, the expert discard."""
        tb, rules = self.tables, self.rules
        mask = np.zeros((tb.trucks + 1, len(self.left[i])), dtype=bool)
        offered: dict[int, np.ndarray] = {}  # an empty truck is one choice per size: the first of its size
        for t, cap in enumerate(tb.caps):
            there = ~self.gone[t, i]
            empty = there & (self.tl[t, i] == 0)
            seen = offered.get(cap)
            mask[t] = (empty if seen is None else empty & ~seen) | (there & (self.tl[t, i] > 0) & (self.tl[t, i] < cap))
            offered[cap] = empty if seen is None else seen | empty
        if rules.expert:  # not in the final round (drawing the card that starts it counts)
            # a price above any coins a player can hold is clipped so that it fits the coins' integers
            mask[tb.trucks] = ~self.final[i] & (self.b16[0, COINS, i] >= min(rules.expert_discard_cost, MAX_POINTS))
        return mask

    def donation_mask(self, i=EVERY) -> np.ndarray:
        """The kinds on the discard pile [kind, game], any of which a square's donation may take."""
        return self.dcnt[:, i] > 0

    # --- playing ----------------------------------------------------------------------------------------

    def run(self, policies: list) -> dict[str, np.ndarray]:
        """Play every game to its end with the batch `policies`; the records of every game (see `_record`)."""
        self.ordered = any(getattr(p, "needs_order", False) for p in policies)
        steps = 0
        while self.n:
            self.step(policies)
            steps += 1
            if steps > MAX_STEPS:
                raise RuntimeError(f"zooloretto-duell batch: games still running after {MAX_STEPS} turns")
            done = int(self.over.sum())
            if done and (done * 4 >= self.n or done == self.n):
                self.compact()
        return self.results

    def _decide(self, policies: list, i, ask) -> np.ndarray:
        """Each policy's choices for the columns `i` where its player is to move: ask(policy, columns)."""
        if len(policies) == 1:
            return np.asarray(ask(policies[0], i))
        cols = self.columns(i)
        mover = self.policy_of_seat[self.seat[cols], cols]
        out = np.empty(len(cols), dtype=np.int32)
        for j, policy in enumerate(policies):
            at = np.flatnonzero(mover == j)
            if len(at):
                out[at] = ask(policy, cols[at])
        return out

    def step(self, policies: list) -> None:
        """One turn of every unfinished game."""
        live = ~self.over
        i = EVERY if live.all() else np.flatnonzero(live)
        code = np.full(self.n, -1, dtype=np.int32)
        code[i] = self._decide(policies, i, lambda p, c: p.turn(self, c))
        self.actions += live
        tb = self.tables
        # action A: draw, then place the card
        di = np.flatnonzero(code == 0)
        if len(di):
            self._draw(policies, di)
        # action B: take a truck
        take = (code >= self.take_code) & (code < self.quit_code)
        ti = np.flatnonzero(take)
        if len(ti):
            t, o = np.divmod(code[ti] - self.take_code, tb.most_orders)
            self.queue[:, ti] = self.truck_order(t, o, ti)
            self.qlen[ti] = self.tl[t, ti]
            self.qpos[ti] = 0
            self.tl[t, ti] = 0
            self.tpat[t, ti] = 0
            self.gone[t, ti] = True
            self.quit(0)[ti] = True
            self.last_taker[ti] = self.seat[ti]
        # quitting empty-handed
        self.quit(0)[code == self.quit_code] = True
        # action C II: dispose of minus points
        xi = np.flatnonzero(code == self.dispose_code)
        if len(xi):
            self.b16[0, COINS, xi] -= self.rules.money_action_cost
            self.b16[0, CNT + DISPOSALS, xi] += 1
            self.b16[0, CNT + MINUS_DISPOSED, xi] += self.b16[0, MINUS, xi]
            self.b16[0, MINUS, xi] = 0
        # action C I: steal an animal
        steal = (code >= self.steal_code) & (code < self.dispose_code)
        si = np.flatnonzero(steal)
        if len(si):
            self._steal(si, (code[si] - self.steal_code).astype(np.intp))
        if len(ti) or len(si) or self.donating.any():
            self._unload(policies, take | steal)
        self._end_turn(live)

    def _draw(self, policies: list, di: np.ndarray) -> None:
        """Action A: the top card, the final-round card and the end of the pile, then the player places it."""
        card = self._draw_cards(di)
        self.card[di] = card
        # the card after the final-round card makes the round the final one
        self._make_final(di[self.aside[di]], CARD_TRIGGER)
        self.aside[di[self.left[di] == self.depth[di]]] = True  # the final-round card surfaces
        # ruling: the round in which the last card is drawn is the last one
        self._make_final(di[self.left[di] == 0], PILE_TRIGGER)
        choice = self._decide(policies, di, lambda p, c: p.place(self, c))
        self.actions[di] += 1
        tb = self.tables
        on = choice < tb.trucks
        ci, t, kind = di[on], choice[on], card[on]
        at = self.tl[t, ci].astype(np.intp)
        self.tk[t, at, ci] = kind
        first = at.copy()  # the first place on the truck holding the same kind
        for j in range(tb.places - 1, -1, -1):
            first[(j < at) & (self.tk[t, j, ci] == kind)] = j
        self.tpat[t, ci] += (first + 1) * (tb.places + 1) ** at
        self.tl[t, ci] += 1
        xi = di[~on]  # expert variant: pay to put it on the discard pile
        if len(xi):
            self.b16[0, COINS, xi] -= self.rules.expert_discard_cost
            self.b16[0, CNT + EXPERT_DISCARDS, xi] += 1
            self._discard(xi, card[~on])

    def _draw_cards(self, i: np.ndarray) -> np.ndarray:
        """One card from each game's draw pile: a uniformly random one of those left (a lazy shuffle), or the
        top one of a pile held in order."""
        left = self.left[i].astype(np.intp)
        pile = flat_view(self.pile)
        last = (left - 1) * self.n + i
        if self.shuffled:
            at = (self.rng.random(len(i)) * left).astype(np.intp) * self.n + i
            card = pile[at]
            pile[at] = pile[last]
        else:
            card = pile[last]
        self.left[i] -= 1
        return card

    def _make_final(self, i: np.ndarray, trigger: int) -> None:
        first = i[~self.final[i]]
        self.final[first] = True
        self.trigger[first] = trigger

    def _discard(self, i: np.ndarray, kind: np.ndarray) -> None:
        """Cards onto the discard pile (one per game)."""
        if self.ordered:
            self.dseq[self.dlen[i], i] = kind
        self.dlen[i] += 1
        self.dcnt[kind, i] += 1

    def _steal(self, si: np.ndarray, kind: np.ndarray) -> None:
        """Action C I: pay and take the animal out of the other zoo; it is placed in one's own as the only
        card of a queue (`_unload`), or, by the other reading of the ruling, simply moved."""
        self.b16[0, COINS, si] -= self.rules.money_action_cost
        self.b16[0, CNT + STEALS, si] += 1
        species = KIND_SPECIES[kind]
        self.b8[1, PEN + kind, si] -= 1
        self.b8[1, NKIND, si] -= self.b8[1, PEN + kind, si] == 0
        self.b8[1, TOT + species, si] -= 1
        if self.ordered:
            self._unsequence(1 - self.seat[si], si, species, KIND_SYMBOL[kind])
        if self.rules.steal_triggers_symbols:  # ruling: stealing counts as placing, so its symbol triggers
            self.queue[0, si] = kind
            self.qlen[si], self.qpos[si] = 1, 0
        else:
            self.b8[0, NKIND, si] += self.b8[0, PEN + kind, si] == 0
            self.b8[0, PEN + kind, si] += 1
            self.b8[0, TOT + species, si] += 1
            if self.ordered:
                self._sequence(si, species, KIND_SYMBOL[kind], self.b8[0, TOT + species, si] - 1)
            check_species(self.zoo(), self.markers, self.tables, si, species)

    def _unload(self, policies: list, work: np.ndarray) -> None:
        """Place the queued cards (a taken truck's, a stolen one) in order where `work`, each square's donation
        before the next card: one card per game at a time, for every game at once."""
        z, n = self.zoo(), self.n
        queue = flat_view(self.queue)
        while True:
            donors = np.flatnonzero(self.donating)
            if len(donors):  # a few games: placed on a copy of their columns
                given = self._decide(policies, donors, lambda p, c: p.donate(self, c)).astype(np.intp)
                self.actions[donors] += 1
                self._take_from_discard(donors, given)
                part = z.take(donors, counters=True)
                placed = place(part, self.markers, self.tables, np.ones(len(donors), dtype=bool), given, True)
                check_pending(part, self.markers, self.tables, np.arange(len(donors)))  # a square's pending check
                z.put(donors, part)
                self._record_placed(placed, given, donors)
                self.donating[donors] = False  # a donated card's square goes to waste: no new donation
            act = work & (self.qpos < self.qlen)
            if not act.any():
                break
            kind = queue[np.minimum(self.qpos, self.tables.places - 1).astype(np.intp) * n + positions(n)]
            self.qpos += act
            placed = place(z, self.markers, self.tables, act, kind, False)
            self._record_placed(placed, kind, None)
            self.donating = placed.due

    def _record_placed(self, placed: Placed, kind: np.ndarray, at: np.ndarray | None) -> None:
        """Keep the enclosures' and the discard pile's order after `place` (on the columns `at`, or all)."""
        ki = np.flatnonzero(placed.kept) if self.ordered else ()
        if len(ki):
            kk = kind[ki].astype(np.intp)
            ci = np.flatnonzero(placed.child)
            cols, child_cols = (ki, ci) if at is None else (at[ki], at[ci])
            species = KIND_SPECIES[kk]
            at_place = self.b8[0, TOT + species, cols] - 1 - placed.child[ki]
            self._sequence(cols, species, KIND_SYMBOL[kk], at_place)
            if len(ci):
                cs = KIND_SPECIES[kind[ci].astype(np.intp)]
                self._sequence(child_cols, cs, np.zeros(len(ci), dtype=np.intp), self.b8[0, TOT + cs, child_cols] - 1)
        di = np.flatnonzero(placed.discarded)
        if len(di):  # `place` counted them in dlen already
            dk = kind[di].astype(np.intp)
            cols = di if at is None else at[di]
            if self.ordered:
                self.dseq[self.dlen[cols] - 1, cols] = dk
            self.dcnt[dk, cols] += 1

    def _sequence(self, i: np.ndarray, species: np.ndarray, symbol: np.ndarray, at: np.ndarray) -> None:
        """Note that the mover's enclosure of `species` holds a card with `symbol` at place `at`."""
        self.pseq[self.seat[i], species, at, i] = symbol

    def _unsequence(self, seat: np.ndarray, i: np.ndarray, species: np.ndarray, symbol: np.ndarray) -> None:
        """Take the first card with `symbol` out of the enclosure's order (stealing takes the first)."""
        places = np.arange(self.tables.pen_length)[:, None]
        rows = (seat, species)
        seq = self.pseq[rows[0], rows[1], :, i].T  # [place, game]
        self.pseq[rows[0], rows[1], :, i] = _drop_first(seq, symbol, places).T

    def _take_from_discard(self, i: np.ndarray, kind: np.ndarray) -> None:
        """The square's donation: the first card of `kind` leaves the discard pile (`_unload` places it)."""
        if self.ordered:
            self.dseq[:, i] = _drop_first(self.dseq[:, i], kind, np.arange(self.dseq.shape[0])[:, None])
        self.dlen[i] -= 1
        self.dcnt[kind, i] -= 1

    def _end_turn(self, m: np.ndarray) -> None:
        """The other player moves, unless they have quit the round; both quit: the round ends."""
        self.sqf[m] = False
        other_out, me_out = self.quit(1), self.quit(0)
        self._swap(m & ~other_out)
        end = m & other_out & me_out
        if end.any():
            self._end_round(end)

    def _swap(self, m: np.ndarray) -> None:
        """The other player takes row 0 where `m`."""
        if not m.any():
            return
        for block in (self.b8, self.b16):
            flip = (block[0] ^ block[1]) * m.astype(block.dtype)
            block[0] ^= flip
            block[1] ^= flip
        self.seat ^= m.astype(np.int8)

    def _end_round(self, e: np.ndarray) -> None:
        """Cards left on the trucks go to the discard pile; the game ends after the final round, else the
        next round begins with the player who took a truck last."""
        for t, cap in enumerate(self.tables.caps):
            for j in range(cap):
                left = np.flatnonzero(e & (self.tl[t] > j))
                if len(left):
                    self._discard(left, self.tk[t, j, left].astype(np.intp))
        self.tl[:, e] = 0
        self.tpat[:, e] = 0
        self.over |= e & self.final
        go = e & ~self.final
        self.rounds += go
        self.b8[:, QUIT] *= ~go
        self.gone[:, go] = False
        self._swap(go & (self.seat != self.last_taker))

    # --- records ----------------------------------------------------------------------------------------

    def compact(self) -> None:
        """Copy the finished games' records out and drop their columns."""
        done = np.flatnonzero(self.over)
        record = self._record(done)
        if not self.results:
            total = int(self.gid.max()) + 1 if len(self.gid) else 0
            self.results = {key: np.zeros(total if value.ndim == 1 else (2, total), dtype=value.dtype)
                            for key, value in record.items()}
        for key, value in record.items():
            self.results[key][..., self.gid[done]] = value
        keep = np.flatnonzero(~self.over)
        for name, value in list(vars(self).items()):
            if isinstance(value, np.ndarray) and value.shape[-1:] == (self.n,):
                setattr(self, name, np.take(value, keep, axis=-1))
        self.markers = self.markers.take(keep)
        self.n = len(keep)
        self._zoo = None

    def _record(self, i: np.ndarray) -> dict[str, np.ndarray]:
        """Scores and counters of games i by seat ([seat, game]) and per game, as `ZooState.stats` gives them."""
        rules = self.rules
        row = np.array([[0], [1]]) ^ self.seat[i]  # the row holding each seat
        b8, b16 = self.b8[row, :, i[None]], self.b16[row, :, i[None]]  # [seat, game, rows]
        tot = b8[..., TOT:SSYM]
        majority = rules.majority_points * (tot > tot[::-1]).sum(axis=2, dtype=np.int64)
        won, coins, minus = (b16[..., r].astype(np.int64) for r in (WON, COINS, MINUS))
        coin_points = coins // rules.coins_per_point
        score = won + majority + coin_points - minus
        out = {
            "score": score, "coins": coins, "marker_points": won, "majority_points": majority,
            "coin_points": coin_points, "minus_points": minus, "margin": score - score[::-1],
            "rounds": self.rounds[i].astype(np.int64), "actions": self.actions[i].astype(np.int64),
            "interim_scorings": self.scored[:, i].sum(axis=0) + self.vend[i],
        }
        for t, name in enumerate(END_TRIGGERS):
            out[f"ended_by_{name}"] = (self.trigger[i] == t + 1).astype(np.float64)
        for c, name in enumerate(COUNTERS):
            out[name] = b16[..., CNT + c].astype(np.int64)
        return out

    # --- positions of the object engine -----------------------------------------------------------------

    @classmethod
    def from_states(cls, states: list[ZooState]) -> ZooBatch:
        """The positions `states` (one rules object) as a batch, one game each, the draw pile held in order.

        A position in phase PLACE keeps its drawn card in `card`; in DONATION, the truck's cards still to
        place in `queue`. For tests: the batch's policies and turns against the object engine's.
        """
        rules = states[0].rules
        batch = cls(rules, len(states), np.random.default_rng(0), deal=False)
        batch.shuffled = False
        base = batch.tables.places + 1
        points = np.zeros((8, len(states)), np.int32)
        coin = np.zeros((8, len(states)), bool)
        final = np.zeros((8, len(states)), bool)
        k = np.zeros(len(states), np.int8)
        for j, s in enumerate(states):
            p = s.to_move
            batch.seat[j] = p
            for side, seat in ((0, p), (1, 1 - p)):
                b8, b16 = batch.b8[side, :, j], batch.b16[side, :, j]
                for species, pen in enumerate(s.pens[seat]):
                    for place_, c in enumerate(pen):
                        b8[PEN + card_kind(c)] += 1
                        batch.pseq[seat, species, place_, j] = 0 if c.offspring else c.symbol
                    b8[TOT + species] = len(pen)
                b8[NKIND] = (b8[PEN:TOT] > 0).sum()
                b8[FIRED + np.array(sorted(s.fired[seat]), dtype=np.intp)] = 1
                for c in s.stands[seat]:
                    b8[SSYM + c.symbol] += 1
                    b8[SCOL + c.colour] += 1
                b8[NCOL] = (b8[SCOL: SCOL + 4] > 0).sum()
                b8[QUIT] = s.taken[seat] is not None
                b16[WON] = sum(m.points for m in s.won[seat])
                b16[COINS], b16[MINUS] = s.coins[seat], s.minus[seat]
                b16[CNT:] = s.counts[seat]
            pile = [card_kind(c) for c in s.pile if c.species != FINAL_ROUND]
            batch.pile[:, j] = -1
            batch.pile[: len(pile), j] = pile
            batch.left[j] = len(pile)
            finals = [d for d, c in enumerate(s.pile) if c.species == FINAL_ROUND]
            batch.depth[j] = finals[0] if finals else -1
            batch.aside[j] = s.final_card_aside
            discard = [card_kind(c) for c in s.discard]
            batch.dseq[: len(discard), j] = discard
            batch.dlen[j] = len(discard)
            batch.dcnt[:, j] = np.bincount(discard, minlength=KINDS)
            for t, truck in enumerate(s.trucks):
                kinds = [card_kind(c) for c in truck]
                batch.tk[t, : len(kinds), j] = kinds
                batch.tl[t, j] = len(kinds)
                batch.tpat[t, j] = sum((kinds.index(c) + 1) * base**at for at, c in enumerate(kinds))
                batch.gone[t, j] = t in s.taken
            for species in range(len(SPECIES)):
                batch.young[species, j] = s.offspring.get(species) is not None
            batch.scored[:, j], batch.reached[:, j], batch.vend[j] = s.scored, s.target_reached, s.vending_scored
            k[j] = len(s.won[0]) + len(s.won[1])
            stock = [(0, False, False)] * k[j] + [(m.points, m.coin, m.final_round) for m in s.markers]
            if not any(m.final_round for m in s.markers):  # put aside already: above every marker
                stock = [(0, False, True)] + stock
            points[:, j], coin[:, j], final[:, j] = zip(*stock, strict=True)
            batch.final[j] = s.final_round
            batch.trigger[j] = END_TRIGGERS.index(s.end_trigger) + 1 if s.end_trigger else 0
            batch.sqf[j], batch.pending[j] = s.square_fired, s.pending_check
            batch.rounds[j], batch.last_taker[j] = s.rounds, s.last_taker
            if s.phase == PLACE:
                batch.card[j] = card_kind(s.drawn)
            if s.phase == DONATION:
                batch.queue[: len(s.queue), j] = [card_kind(c) for c in s.queue]
                batch.qlen[j], batch.donating[j] = len(s.queue), True
            if s.phase not in (TURN, PLACE, DONATION):
                batch.over[j] = True
        batch.markers = batch._markers_from(points, coin, final)
        batch.k[:] = k
        return batch


def _drop_first(seq: np.ndarray, value: np.ndarray, places: np.ndarray) -> np.ndarray:
    """Each column of `seq` [place, game] without its first entry equal to `value` (the rest move up; -1 fills
    the end)."""
    first = np.argmax(seq == value, axis=0)
    source = places + (places >= first)
    out = seq[np.minimum(source, len(seq) - 1), np.arange(seq.shape[1])]
    out[-1] = -1
    return out


# --- whole games as the runner's table -----------------------------------------------------------------

BATCH_GAMES = 20_000  # games in one batch: large enough that numpy's per-call cost is spread thin


def play_chunk(rules: Rules, names: list[str], policies: list, first_game: int, n_games: int,
               rng: np.random.Generator, batch_games: int = BATCH_GAMES) -> pd.DataFrame:
    """Games first_game .. first_game+n_games-1 with rotated seats: the table `runner.play_chunk` makes
    (one row per game and seat, the same columns), played by the batch `policies`, one per seat."""
    distinct = [] if names[0] == names[1] else [0, 1]  # one policy object when both seats play the same
    playing = [policies[0]] if not distinct else list(policies)
    parts = []
    for start in range(first_game, first_game + n_games, batch_games):
        game_id = np.arange(start, min(start + batch_games, first_game + n_games))
        # runner.rotation: game g seats policy (seat + g) mod 2 in seat s
        seat_policy = ((np.arange(2)[:, None] + game_id) % 2).astype(np.int8)
        batch = ZooBatch(rules, len(game_id), rng, seat_policy if distinct else None)
        parts.append(_table(batch.run(playing), game_id, seat_policy, names))
    return pd.concat(parts, ignore_index=True) if len(parts) > 1 else parts[0]


def _table(record: dict[str, np.ndarray], game_id: np.ndarray, seat_policy: np.ndarray,
           names: list[str]) -> pd.DataFrame:
    """The runner's rows (game by game, seat by seat) from the batch's records."""
    score, coins = record["score"], record["coins"]
    won = (score > score[::-1]) | ((score == score[::-1]) & (coins >= coins[::-1]))
    winners = won.sum(axis=0)

    def rows(value: np.ndarray) -> np.ndarray:
        return value.T.ravel() if value.ndim == 2 else np.repeat(value, 2)

    columns = {
        "game_id": np.repeat(game_id, 2),
        "seat": np.tile(np.arange(2), len(game_id)),
        "policy": np.array(names, dtype=object)[rows(seat_policy)],
        "score": rows(score).astype(np.float64),
        "rank": rows(np.where(won, 1, 2)),
        "won": rows(won),
        "win_share": rows(won / winners),
        "actions": rows(record["actions"]),
    }
    for key in ("rounds", "interim_scorings", *(f"ended_by_{t}" for t in END_TRIGGERS), "marker_points",
                "majority_points", "coin_points", "minus_points", "margin", "coins", *COUNTERS):
        columns[key] = rows(record[key])
    return pd.DataFrame(columns)
