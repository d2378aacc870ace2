"""Tyros in compiled code (numba): the same game as `game.py`, rule for rule, a game at a time.

`game.py` stays the readable reference and writes the play logs; this module plays the same
games, move for move. The same seed gives the same game: the set-up draws the same two tile
permutations, each round's deal the same multivariate hypergeometric draws (`deal_hand`, numpy's
own algorithm on the same bit generator), a bank swap the same `integers` draws, and the
compiled policies (`compiled_policies.py`) draw their chance as the object policies do. Compiled
code takes the generator's bit generator (`bits`: `rng.bit_generator`) and draws as numpy does
(`tyrsim.core.compiled.chance`, and `hypergeometric` here).

How a position is held: one numpy record of the dtype `POSITION` (a one-element `np.recarray`;
a function reads and writes `game[0]` in place). Spaces are numbered as on the board (Tyros 0),
ships stand on coasts (`Board.coasts`), a card is its kind (orange, yellow, green, violet, wild):

- `chips[s]`: the empire colour on space s, -1 none; `chip_count[e]`: chips of colour e placed;
- `cities[s]`: the player with a city on s, -1 none; `city_colours[p]`: a bit per empire colour
  of player p's cities; `all_empires_first`, `first_cities[e]` (as in game.py, -1: nobody);
- `tile_pile[(tile_head + i) % MAX_TILES]` for i < `tile_count`: the tile pile, its top first;
  `tile_hands[p, :tile_hand_size[p]]`: player p's tiles in the object engine's list order
  (sorted when dealt, a new tile appended), which is the order of the tile actions;
- `deck[k]`, `discard[k]`, `hands[p, k]`: commerce cards of kind k in the draw pile (drawn at
  random, so it is counts), the discard pile and each hand;
- `ships[p, c]`: player p's ships on coast c; `space_ships[p, s]`, `space_total[s]`: player p's and everybody's
  ships in space s (on any of its coasts), kept with them;
- `round_number`, `start_player`, `phase` (EXPAND, ACTIONS, OFFER, PARTNER, KEEP, OVER as in game.py),
  `expansion_pass`, `turn`, `actor`, `passes_in_row`, `offered` (as in game.py);
- `trades_this_round[p]`: the trades player p made as the offering player since the round's card actions
  began (game.py's `trades_this_round`); `traded[a, b, trade_index(...)]`: 1 where players a and b traded this
  round, a giving the first cards and b the second (game.py's `trades_made`, from both sides);
  `changes_seen[:seen_count]`: game.py's `changes_seen` (rule `trade_guard`), what each player's hand
  gained of each kind since the last card action other than a trade, before and after each trade since;
- the open offer: `offer_give` cards of kind `offer_give_kind` for `offer_get` of `offer_get_kind`,
  `offer_answers` players already asked (the next is `(actor + 1 + offer_answers) % n`), those who
  accepted in `accepted[:accepted_count]`;
- `keepers[keeper_next:keeper_count]`: the players still to choose the cards they keep;
- `counts[p, i]`: the engine's counters (COUNTERS, game.py's `counters`); `actions`: decisions made.

The rules and the board file become one record of the dtype `RULES`, made once per rule set by
`rule_tables(rules)`: every number and switch, the land and sea of the board, the sea distances
of every coast in the order the object engine lists them, the set-up's conflicts. An action is a
row of five integers (type, a, b, c, d); `legal_actions` lists them in the object engine's order,
so that an index into one list is the same action in the other.
"""

from __future__ import annotations

import dataclasses
from decimal import Decimal, getcontext

import numpy as np
from numba import njit
from numba.np.random.generator_core import next_double  # the bit generator's own doubles
from numba.np.random.random_methods import random_interval  # numpy's own draw, compiled

from tyrsim.core.compiled.chance import UNIFORM_FIELDS, integers, shuffle
from tyrsim.core.compiled.numba_cache import keep_fresh
from tyrsim.core.compiled.positions import differing_fields
from tyrsim.games.tyros.actions import (
    Accept,
    BankBuy,
    BankSwap,
    Blocked,
    BuildCity,
    BuildShip,
    Keep,
    MoveShip,
    Offer,
    Pass,
    PlayTile,
    Refuse,
    TradeWith,
)
from tyrsim.games.tyros.board import TYROS, conflicting
from tyrsim.games.tyros.components import CARD_KINDS, WILD
from tyrsim.games.tyros.game import ACTIONS, EXPAND, KEEP, OFFER, OVER, PARTNER, TyrosGame, TyrosState
from tyrsim.games.tyros.rules import TRADE_OFFERS, TRADES_IN_A_ROW, Rules

keep_fresh(__file__)

PHASES = (EXPAND, ACTIONS, OFFER, PARTNER, KEEP, OVER)
P_EXPAND, P_ACTIONS, P_OFFER, P_PARTNER, P_KEEP, P_OVER = range(len(PHASES))
COUNTERS = ("tiles", "blocked", "moves", "cities_built", "ships_built", "bank_trades", "offers", "trades",
            "tolls_paid", "passes")
TILES, BLOCKED, MOVES, CITIES_BUILT, SHIPS_BUILT, BANK_TRADES, OFFERS, TRADES, TOLLS_PAID, PASSES = range(10)
EMPIRE_COUNT = 4

# fixed shapes; `supported` names the rule or board that would need more
MAX_PLAYERS = 4
MAX_SPACES = 40
MAX_COASTS = 40
MAX_SEA = 8  # sea connections of one coast
MAX_TILES = 40
MAX_HAND_TILES = 8  # a hand never grows: a tile played or put under the pile is replaced
MAX_ACTIONS = 20_000
MAX_STEPS = 200_000  # decisions; the runner's safety limit
ACTION_WIDTH = 5
MAX_OFFERED = 3  # the most cards of a kind given or asked for in an offer (rules.TRADE_OFFERS)
TRADE_INDEXES = CARD_KINDS * MAX_OFFERED * CARD_KINDS * MAX_OFFERED  # `trade_index`

# action types: a row (type, a, b, c, d)
PLAY_TILE = 0  # a = space, b = empire
BLOCK = 1  # a = tile put under the pile
PASS = 2
MOVE = 3  # a = start coast, b = end coast, c = toll kind (-1 none), d = moves (cards paid)
CITY = 4  # a = space
SHIP = 5  # a = space, b = the cards of free choice, packed (`pack`)
SWAP = 6  # a = cards given, packed; b = how many
BUY = 7  # a = cards given, packed; b = the kind taken from the discard pile
OFFER_CARDS = 8  # a = kind given, b = how many, c = kind asked for, d = how many
ACCEPT = 9
REFUSE = 10
TRADE = 11  # a = partner
KEEP_CARDS = 12  # a = cards kept, packed
PACK_BITS = 8  # a packed multiset: count of kind k in bits 8k..8k+7
# numbers passed to compiled functions, as numpy scalars: numba compiles a function again for every
# Python literal it is passed (and a count passed on starts as np.int64(0): numba types a call first
# with the type a variable has when it is set, a literal 0, then again with int64)
NO_TOLL = np.int64(-1)  # a move that pays no toll
NO_CARDS = np.int64(0)  # an empty packed multiset
MATCHING_CARD = np.int64(1)  # a ship's card of its space's colour
FIRST_ROUND = np.int64(1)

POSITION = np.dtype([
    ("n", np.int64),
    ("chips", np.int64, (MAX_SPACES,)), ("chip_count", np.int64, (EMPIRE_COUNT,)),
    ("cities", np.int64, (MAX_SPACES,)), ("city_colours", np.int64, (MAX_PLAYERS,)),
    ("all_empires_first", np.int64), ("first_cities", np.int64, (EMPIRE_COUNT,)),
    ("tile_pile", np.int64, (MAX_TILES,)), ("tile_head", np.int64), ("tile_count", np.int64),
    ("tile_hands", np.int64, (MAX_PLAYERS, MAX_HAND_TILES)), ("tile_hand_size", np.int64, (MAX_PLAYERS,)),
    ("deck", np.int64, (CARD_KINDS,)), ("discard", np.int64, (CARD_KINDS,)),
    ("hands", np.int64, (MAX_PLAYERS, CARD_KINDS)),
    ("ships", np.int64, (MAX_PLAYERS, MAX_COASTS)),
    ("space_ships", np.int64, (MAX_PLAYERS, MAX_SPACES)), ("space_total", np.int64, (MAX_SPACES,)),
    ("round_number", np.int64), ("start_player", np.int64), ("phase", np.int64), ("expansion_pass", np.int64),
    ("turn", np.int64), ("actor", np.int64), ("passes_in_row", np.int64), ("offered", np.int64),
    ("trades_this_round", np.int64, (MAX_PLAYERS,)),
    ("traded", np.uint8, (MAX_PLAYERS, MAX_PLAYERS, TRADE_INDEXES)),
    ("changes_seen", np.int8, (TRADES_IN_A_ROW + 1, MAX_PLAYERS, CARD_KINDS)), ("seen_count", np.int64),
    ("offer_give_kind", np.int64), ("offer_give", np.int64), ("offer_get_kind", np.int64), ("offer_get", np.int64),
    ("offer_answers", np.int64), ("accepted", np.int64, (MAX_PLAYERS,)), ("accepted_count", np.int64),
    ("keepers", np.int64, (MAX_PLAYERS,)), ("keeper_next", np.int64), ("keeper_count", np.int64),
    ("counts", np.int64, (MAX_PLAYERS, len(COUNTERS))), ("actions", np.int64),
])

RULES = np.dtype([
    ("spaces", np.int64), ("coasts", np.int64),
    ("land", np.int64, (MAX_SPACES, MAX_SPACES)),  # 1 where two spaces are grid neighbours
    ("coast_space", np.int64, (MAX_COASTS,)),
    ("space_coasts", np.int64, (MAX_SPACES, 2)), ("space_coast_count", np.int64, (MAX_SPACES,)),
    # the sea connections of each coast in the order the object engine's breadth-first search visits them
    ("sea", np.int64, (MAX_COASTS, MAX_SEA)), ("sea_count", np.int64, (MAX_COASTS,)),
    # `TyrosGame.open_distances`: every coast reachable from coast c, in the dict's order, and its moves
    ("open_coast", np.int64, (MAX_COASTS, MAX_COASTS)), ("open_moves", np.int64, (MAX_COASTS, MAX_COASTS)),
    ("open_count", np.int64, (MAX_COASTS,)),
    ("tiles", np.int64, (MAX_TILES,)), ("tile_total", np.int64), ("first_game", np.int64, (EMPIRE_COUNT,)),
    ("conflict", np.int64, (MAX_SPACES, MAX_SPACES)),  # `board.conflicting` for the variable set-up
    ("variable_setup", np.int64), ("tiles_per_player", np.int64), ("chips_per_empire", np.int64),
    ("starting_ships", np.int64), ("ships_per_player", np.int64), ("cities_per_player", np.int64),
    ("cards_per_colour", np.int64), ("wild_cards", np.int64), ("cards_dealt_3p", np.int64),
    ("cards_dealt_4p", np.int64), ("cards_kept", np.int64), ("first_round_passes", np.int64),
    ("later_passes_3p", np.int64), ("later_passes_4p", np.int64), ("ships_per_space", np.int64),
    ("tyros_ships_per_player", np.int64), ("city_cost", np.int64), ("city_cost_two_ships", np.int64),
    ("bank_swap_max", np.int64), ("bank_buy_cost", np.int64),
    ("city_points", np.int64, (EMPIRE_COUNT,)), ("ship_points", np.int64, (EMPIRE_COUNT,)),
    ("all_empires_bonus", np.int64), ("most_cities_bonus", np.int64),
    ("first_city_all_four", np.int64), ("ships_pass_unclaimed", np.int64), ("ships_change_coast", np.int64),
    ("tyros_extends_empire", np.int64), ("tyros_counts_for_size", np.int64), ("ships_pass_crowded", np.int64),
    ("most_given", np.int64), ("most_asked", np.int64), ("ship_limit_on_build", np.int64),
    ("trade_cap", np.int64), ("no_repeat_trades", np.int64), ("no_repeated_hands", np.int64),  # rule `trade_guard`
    ("tyros_chip_replaced", np.int64),  # rule `tyros_chip` = 'latest-replaces'
    ("log_factorial", np.float64, (126,)),  # log(k!) to the last bit, as numpy's hypergeometric reads it
])

# what a chunk of games works in (`new_workspace`): one record, so compiled code passes no arrays
WORKSPACE = np.dtype([
    ("actions", np.int64, (MAX_ACTIONS, ACTION_WIDTH)),  # the legal actions
    ("cards", np.int64, (CARD_KINDS,)), ("left", np.int64, (CARD_KINDS,)),  # a multiset and what it is taken from
    ("route_coast", np.int64, (MAX_COASTS,)), ("route_moves", np.int64, (MAX_COASTS,)),  # a search of the sea
    ("crowded", np.int64, (MAX_SPACES,)), ("dealt", np.int64, (CARD_KINDS,)),
    ("scores", np.int64, (MAX_PLAYERS, 6)), ("per_empire", np.int64, (MAX_PLAYERS, EMPIRE_COUNT)),
    ("city_counts", np.int64, (EMPIRE_COUNT, MAX_PLAYERS)), ("ranks", np.int64, (EMPIRE_COUNT,)),
    ("controller", np.int64, (MAX_SPACES,)),
    ("scratch", POSITION, (1,)),  # a policy's look-ahead copy of the position
    ("values", np.float64, (MAX_ACTIONS,)),  # a policy's value of each action
    *UNIFORM_FIELDS,  # `tyrsim.core.engine.rng.uniform`'s block (`chance.uniform`)
])
# work.scores columns
CITY_POINTS, SHIP_POINTS, FIRST_BONUS, MOST_BONUS, LARGEST_POINTS, TOTAL = range(6)

# the rules this engine plays, declared here by name (never read from `Rules`): `supported` refuses any other
# field of a rule set (a rule added to Rules and not yet here), and `rule_tables` reads each one below
PLAYED = (
    "setup", "board", "tiles_per_player", "chips_per_empire", "starting_ships", "ships_per_player",
    "cities_per_player", "cards_per_colour", "wild_cards", "cards_dealt_3p", "cards_dealt_4p", "cards_kept",
    "first_round_passes", "later_passes_3p", "later_passes_4p", "ships_per_space", "tyros_ships_per_player",
    "city_cost", "city_cost_two_ships", "bank_swap_max", "bank_buy_cost", "city_points", "ship_points",
    "all_empires_bonus", "most_cities_bonus", "start_both_beside_tyros", "first_city_bonus", "ships_pass_unclaimed",
    "ships_change_coast", "tyros_extends_empire", "tyros_counts_for_size", "ships_pass_crowded", "trade_offers",
    "ship_limit_on_build", "trade_guard", "tyros_chip",
)


def log_factorials() -> list[float]:
    """log(k!) for k < 126, each the double nearest the exact value (numpy's hypergeometric holds this table)."""
    getcontext().prec = 50
    out, total = [], Decimal(0)
    for k in range(126):
        if k > 1:
            total += Decimal(k).ln()
        out.append(float(total))
    return out


LOG_FACTORIALS = log_factorials()


def supported(rules: Rules, players: int = 4) -> str | None:
    """None if the compiled engine plays `rules` for `players` players, else a one-line message naming the first
    rule it cannot."""
    for f in dataclasses.fields(rules):
        if f.name not in PLAYED:
            return f"rule {f.name!r}: the compiled engine does not play it yet (the object engine does)"
    board = TyrosGame(rules, players).board
    if board.size > MAX_SPACES or len(board.coasts) > MAX_COASTS or len(board.tiles) > MAX_TILES:
        return (f"rule 'board': {board.source}: the compiled engine plays boards of up to {MAX_SPACES} spaces, "
                f"{MAX_COASTS} coasts and {MAX_TILES} tiles (the object engine plays any)")
    if rules.tiles_per_player > MAX_HAND_TILES:
        return f"rule 'tiles_per_player': the compiled engine plays up to {MAX_HAND_TILES} (the object engine any)"
    if max(len(sea) for sea in board.sea) > MAX_SEA or max(len(c) for c in board.space_coasts) > 2:
        return (f"rule 'board': {board.source}: the compiled engine plays coasts with up to {MAX_SEA} sea "
                "connections and spaces with up to 2 coasts (the object engine plays any)")
    return None


def rule_tables(rules: Rules) -> np.recarray:
    """The rules and their board file as one `RULES` record (a one-element recarray); ValueError for rules the
    engine cannot play (`supported`)."""
    problem = supported(rules)
    if problem is not None:
        raise ValueError(problem)
    game = TyrosGame(rules, 4)  # the object engine reads and checks the board file: so do we
    board = game.board
    out = np.zeros(1, RULES)
    r = out[0]
    r["spaces"], r["coasts"] = board.size, len(board.coasts)
    for s in board.spaces:
        for t in board.land[s]:
            r["land"][s, t] = 1
        r["space_coast_count"][s] = len(board.space_coasts[s])
        r["space_coasts"][s, : len(board.space_coasts[s])] = board.space_coasts[s]
        for t in board.spaces:
            r["conflict"][s, t] = conflicting(board, s, t, rules.start_both_beside_tyros)
    for c, coast in enumerate(board.coasts):
        r["coast_space"][c] = coast.space
        sea = list(board.sea[c])  # the frozenset's own order, as `Board.sea_distances` visits it
        r["sea_count"][c], r["sea"][c, : len(sea)] = len(sea), sea
        reach = game.open_distances[c]
        r["open_count"][c] = len(reach)
        r["open_coast"][c, : len(reach)] = list(reach)
        r["open_moves"][c, : len(reach)] = list(reach.values())
    r["tile_total"] = len(board.tiles)
    r["tiles"][: len(board.tiles)] = board.tiles
    r["first_game"][:] = board.first_game
    r["variable_setup"] = rules.setup == "variable"
    for name in ("tiles_per_player", "chips_per_empire", "starting_ships", "ships_per_player", "cities_per_player",
                 "cards_per_colour", "wild_cards", "cards_dealt_3p", "cards_dealt_4p", "cards_kept",
                 "first_round_passes", "later_passes_3p", "later_passes_4p", "ships_per_space",
                 "tyros_ships_per_player", "city_cost", "city_cost_two_ships", "bank_swap_max", "bank_buy_cost",
                 "all_empires_bonus", "most_cities_bonus", "ships_pass_unclaimed", "ships_change_coast",
                 "tyros_extends_empire", "tyros_counts_for_size", "ships_pass_crowded", "ship_limit_on_build"):
        r[name] = int(getattr(rules, name))
    r["city_points"], r["ship_points"] = rules.city_points, rules.ship_points
    r["first_city_all_four"] = rules.first_city_bonus == "all-four"
    r["most_given"], r["most_asked"] = TRADE_OFFERS[rules.trade_offers]
    r["trade_cap"], r["no_repeat_trades"] = rules.trade_cap(), rules.trade_guard == "no-repeat"
    r["no_repeated_hands"] = rules.trade_guard == "no-repeated-hands"
    r["tyros_chip_replaced"] = rules.tyros_chip == "latest-replaces"
    r["log_factorial"] = LOG_FACTORIALS
    return out.view(np.recarray)


def new_position() -> np.recarray:
    """An empty position (a one-element recarray of POSITION): fill it with `set_up`."""
    return np.zeros(1, POSITION).view(np.recarray)


def new_workspace() -> np.recarray:
    """A chunk's work space (a one-element recarray of WORKSPACE: compiled code takes `work[0]`)."""
    return np.zeros(1, WORKSPACE).view(np.recarray)


# --- chance: numpy's own algorithms on the generator's bit generator ----------------------------------------


@njit(cache=True, inline="always")
def log_factorial(rules, k) -> float:
    """log(k!): the table below 126, else Stirling's series to the 1/k**3 term (as numpy computes it)."""
    if k < 126:
        return rules.log_factorial[k]
    return (k + 0.5) * np.log(k) - k + (0.9189385332046728 + (1.0 / k) * (1 / 12.0 - 1 / (360.0 * k * k)))


@njit(cache=True)
def hypergeometric(bits, rules, good, bad, sample) -> int:
    """How many of `sample` cards drawn without replacement are good: numpy's `Generator.hypergeometric`
    draw for draw (the ratio-of-uniforms method, Stadlober's HRUA, for samples of 10 or more that leave
    10 or more; else one card at a time)."""
    total = good + bad
    if sample >= 10 and sample <= total - 10:
        n = min(sample, total - sample)
        low, high = min(good, bad), max(good, bad)
        p, q = low / total, high / total
        a = n * p + 0.5
        c = np.sqrt((total - n) * n * p * q / (total - 1) + 0.5)
        h = 1.7155277699214135 * c + 0.8989161620588988  # 2 sqrt(2/e) c + 3 - 2 sqrt(3/e)
        m = np.int64(np.floor((n + 1) * (low + 1) / (total + 2)))
        g = (log_factorial(rules, m) + log_factorial(rules, low - m) + log_factorial(rules, n - m)
             + log_factorial(rules, high - n + m))
        b = min(min(n, low) + 1, np.floor(a + 16 * c))
        while True:
            u = next_double(bits)
            v = next_double(bits)
            x = a + h * (v - 0.5) / u
            if x < 0.0 or x >= b:
                continue
            k = np.int64(np.floor(x))
            t = g - (log_factorial(rules, k) + log_factorial(rules, low - k) + log_factorial(rules, n - k)
                     + log_factorial(rules, high - n + k))
            if u * (4.0 - u) - 3.0 <= t:
                break
            if u * (u - t) >= 1:
                continue
            if 2.0 * np.log(u) <= t:
                break
        if good > bad:
            k = n - k
        if n < sample:
            k = good - k
        return k
    # one card at a time, counting the smaller side of the sample
    n = total - sample if sample > total // 2 else sample
    left, good_left = total, good
    while n > 0 and good_left > 0 and left > good_left:
        left -= 1
        if np.int64(random_interval(bits, left)) < good_left:
            good_left -= 1
        n -= 1
    if left == good_left:
        good_left -= n
    return good_left if sample > total // 2 else good - good_left


@njit(cache=True)
def deal_hand(bits, rules, deck, count, out) -> None:
    """`rng.multivariate_hypergeometric(deck, count)` into out: numpy's marginals method, kind by kind."""
    total = 0
    for k in range(CARD_KINDS):
        out[k] = 0
        total += deck[k]
    if total == 0 or count == 0:
        return
    more_than_half = count > total // 2
    left = total - count if more_than_half else count
    remaining = total
    for k in range(CARD_KINDS - 1):
        if left <= 0:
            break
        remaining -= deck[k]
        out[k] = hypergeometric(bits, rules, deck[k], remaining, left)
        left -= out[k]
    if left > 0:
        out[CARD_KINDS - 1] = left
    if more_than_half:
        for k in range(CARD_KINDS):
            out[k] = deck[k] - out[k]


# --- set-up -------------------------------------------------------------------------------------------------


@njit(cache=True)
def set_up(pos, rules, work, n, bits) -> None:
    """Set-up of a zeroed position for n players, drawing from the bit generator `bits` what `TyrosState.start`
    draws from `rng`, in its order: the tile pile's permutation, the four starting empires, the remaining tiles'
    permutation and the deal of four tiles each; two ships each in Tyros; then the first round begins (its
    commerce cards dealt)."""
    pos.n = n
    no_change_seen(pos)
    for s in range(MAX_SPACES):
        pos.chips[s] = -1
        pos.cities[s] = -1
    pos.all_empires_first = -1
    for e in range(EMPIRE_COUNT):
        pos.first_cities[e] = -1
    tiles = pos.tile_pile  # the pile as the permutation lists it, before the empires are chosen
    total = rules.tile_total
    for i in range(total):
        tiles[i] = rules.tiles[i]
    shuffle(bits, tiles, total)
    starts = work.cards  # the four starting spaces, orange first
    rest = np.int64(0)  # tiles[:rest]: the tiles not chosen, in pile order (an int64 from the start: see NO_TOLL)
    if rules.variable_setup:
        chosen = 0
        for i in range(total):
            tile = tiles[i]
            apart = True
            for j in range(chosen):
                if rules.conflict[tile, starts[j]]:
                    apart = False
            if chosen < EMPIRE_COUNT and apart:
                # kept highest first: the highest tile is orange
                at = chosen
                while at > 0 and starts[at - 1] < tile:
                    starts[at] = starts[at - 1]
                    at -= 1
                starts[at] = tile
                chosen += 1
            else:
                tiles[rest] = tile
                rest += 1
        if chosen < EMPIRE_COUNT:
            raise ValueError("tyros compiled engine: cannot place four non-adjacent empires")
    else:
        for e in range(EMPIRE_COUNT):
            starts[e] = rules.first_game[e]
        for i in range(total):
            tile = tiles[i]
            if tile != starts[0] and tile != starts[1] and tile != starts[2] and tile != starts[3]:
                tiles[rest] = tile
                rest += 1
    for empire in range(EMPIRE_COUNT):
        place_chip(pos, rules, starts[empire], empire)
    # "shuffle the remaining map tiles and deal 4 to each player"
    shuffle(bits, tiles, rest)
    k = rules.tiles_per_player
    for p in range(n):  # fewer where the tiles run short
        hand = pos.tile_hands[p]
        low, high = min(p * k, rest), min((p + 1) * k, rest)
        for size in range(high - low):  # sorted as dealt
            tile = tiles[low + size]
            at = size
            while at > 0 and hand[at - 1] > tile:
                hand[at] = hand[at - 1]
                at -= 1
            hand[at] = tile
        pos.tile_hand_size[p] = high - low
    pos.tile_head, pos.tile_count = min(n * k, rest), max(rest - n * k, 0)
    for e in range(EMPIRE_COUNT):
        pos.deck[e] = rules.cards_per_colour
    pos.deck[WILD] = rules.wild_cards
    tyros_coast = rules.space_coasts[TYROS, 0]
    for p in range(n):
        add_ship(pos, rules, p, tyros_coast, rules.starting_ships)
    pos.start_player = 0
    begin_round(pos, rules, work, bits, FIRST_ROUND)


@njit(cache=True)
def place_chip(pos, rules, space, empire) -> None:
    """Mark `space` for `empire`; a chip next to Tyros also puts that colour on Tyros (`tyros_takes`)."""
    pos.chips[space] = empire
    pos.chip_count[empire] += 1
    if space != TYROS and rules.land[space, TYROS] and tyros_takes(pos, rules, empire):
        if pos.chips[TYROS] >= 0:
            pos.chip_count[pos.chips[TYROS]] -= 1  # the replaced chip goes back to the box
        pos.chips[TYROS] = empire
        pos.chip_count[empire] += 1


@njit(cache=True, inline="always")
def tyros_takes(pos, rules, empire) -> bool:
    """Whether a chip of `empire` just placed next to Tyros puts that colour on Tyros, if the empire has a chip
    left (game.tyros_takes; ruling `tyros_chip`: the first empire keeps it, or a later one replaces it)."""
    if pos.chips[TYROS] == empire or pos.chip_count[empire] >= rules.chips_per_empire:
        return False
    return pos.chips[TYROS] < 0 or rules.tyros_chip_replaced == 1


# --- the round ----------------------------------------------------------------------------------------------


@njit(cache=True)
def begin_round(pos, rules, work, bits, number) -> None:
    """Deal commerce cards, then the expansion passes begin with the start player."""
    pos.round_number = number
    deal_cards(pos, rules, work, bits)
    pos.phase = P_EXPAND
    pos.expansion_pass = 0
    pos.turn = 0
    skip_empty_hands(pos, rules)


@njit(cache=True, inline="always")
def cards_dealt(pos, rules) -> int:
    return rules.cards_dealt_3p if pos.n == 3 else rules.cards_dealt_4p


@njit(cache=True)
def deal_cards(pos, rules, work, bits) -> None:
    """Ruling: every card not kept in a hand is shuffled together and dealt, from the start player on."""
    for k in range(CARD_KINDS):
        pos.deck[k] += pos.discard[k]
        pos.discard[k] = 0
    dealt = cards_dealt(pos, rules)
    for i in range(pos.n):
        p = (pos.start_player + i) % pos.n
        deal_hand(bits, rules, pos.deck, dealt, work.dealt)
        for k in range(CARD_KINDS):
            pos.deck[k] -= work.dealt[k]
            pos.hands[p, k] += work.dealt[k]


@njit(cache=True, inline="always")
def expansion_passes(pos, rules) -> int:
    if pos.round_number == 1:
        return rules.first_round_passes
    return rules.later_passes_3p if pos.n == 3 else rules.later_passes_4p


@njit(cache=True, inline="always")
def expanding_player(pos) -> int:
    return (pos.start_player + pos.turn) % pos.n


@njit(cache=True)
def skip_empty_hands(pos, rules) -> None:
    """Move the expansion on past players without tiles; after the last pass the card actions begin."""
    passes = expansion_passes(pos, rules)
    while pos.phase == P_EXPAND:
        if pos.turn == pos.n:
            pos.turn = 0
            pos.expansion_pass += 1
        if pos.expansion_pass >= passes:
            begin_card_actions(pos)
            return
        if pos.tile_hand_size[expanding_player(pos)]:
            return
        pos.turn += 1


@njit(cache=True, inline="always")
def begin_card_actions(pos) -> None:
    """The card actions begin with the start player; nobody has traded yet this round."""
    pos.phase = P_ACTIONS
    pos.actor = pos.start_player
    pos.passes_in_row = 0
    pos.offered = 0
    for p in range(pos.n):
        pos.trades_this_round[p] = 0
    pos.traded[:, :, :] = 0
    no_change_seen(pos)


@njit(cache=True)
def end_round(pos, rules, work, bits) -> None:
    """The game ends if a player has no tiles (or no tile left can ever be played); otherwise the players with
    more than 3 cards choose which to keep, from the start player on, and a new round begins."""
    over = stalled(pos, rules)
    for p in range(pos.n):
        if pos.tile_hand_size[p] == 0:
            over = True
    if over:
        pos.phase = P_OVER
        return
    pos.keeper_next, pos.keeper_count = 0, 0
    for i in range(pos.n):
        p = (pos.start_player + i) % pos.n
        if cards_held(pos, p) > rules.cards_kept:
            pos.keepers[pos.keeper_count] = p
            pos.keeper_count += 1
    pos.phase = P_KEEP
    finish_keeping(pos, rules, work, bits)


@njit(cache=True)
def stalled(pos, rules) -> bool:
    """Ruling: no tile left can ever be played (every empire next to one has run out of chips)."""
    for i in range(pos.tile_count):
        if adjacent_empires(pos, rules, pos.tile_pile[(pos.tile_head + i) % MAX_TILES]):
            return False
    for p in range(pos.n):
        for i in range(pos.tile_hand_size[p]):
            if adjacent_empires(pos, rules, pos.tile_hands[p, i]):
                return False
    return True


@njit(cache=True, inline="always")
def finish_keeping(pos, rules, work, bits) -> None:
    """Once everyone has kept their cards, the start token passes clockwise and the next round begins."""
    if pos.keeper_next < pos.keeper_count:
        return
    pos.start_player = (pos.start_player + 1) % pos.n
    begin_round(pos, rules, work, bits, pos.round_number + 1)


@njit(cache=True, inline="always")
def current_player(pos) -> int:
    if pos.phase == P_EXPAND:
        return expanding_player(pos)
    if pos.phase == P_ACTIONS or pos.phase == P_PARTNER:
        return pos.actor
    if pos.phase == P_OFFER:
        return (pos.actor + 1 + pos.offer_answers) % pos.n
    if pos.phase == P_KEEP:
        return pos.keepers[pos.keeper_next]
    return -1


# --- expansion ------------------------------------------------------------------------------------------------


@njit(cache=True)
def adjacent_empires(pos, rules, space) -> int:
    """The empire colours next to `space` with a chip left, which a tile for it may extend (a bit per colour);
    Tyros is a neighbour like any other unless rule `tyros_extends_empire` is off (a ruling)."""
    colours = 0
    for other in range(rules.spaces):
        if rules.land[space, other] and pos.chips[other] >= 0:
            if other == TYROS and not rules.tyros_extends_empire:
                continue
            colour = pos.chips[other]
            if pos.chip_count[colour] < rules.chips_per_empire:
                colours |= 1 << colour
    return colours


@njit(cache=True)
def remove_tile(pos, p, tile) -> None:
    hand, size = pos.tile_hands[p], pos.tile_hand_size[p]
    at = 0
    while hand[at] != tile:
        at += 1
    for i in range(at, size - 1):
        hand[i] = hand[i + 1]
    pos.tile_hand_size[p] = size - 1


@njit(cache=True, inline="always")
def draw_tile(pos, p) -> None:
    """The top tile of the pile into player p's hand."""
    pos.tile_hands[p, pos.tile_hand_size[p]] = pos.tile_pile[pos.tile_head]
    pos.tile_hand_size[p] += 1
    pos.tile_head = (pos.tile_head + 1) % MAX_TILES
    pos.tile_count -= 1


@njit(cache=True)
def play_tile(pos, rules, space, empire) -> None:
    """Expand an empire: the tile of `space` marks it for the neighbouring `empire`; a new tile is drawn if any
    remain."""
    p = expanding_player(pos)
    remove_tile(pos, p, space)
    place_chip(pos, rules, space, empire)
    pos.counts[p, TILES] += 1
    if pos.tile_count:
        draw_tile(pos, p)
    pos.turn += 1
    skip_empty_hands(pos, rules)


@njit(cache=True)
def blocked(pos, rules, tile) -> None:
    """No tile can be played: `tile` goes to the bottom of the pile and a new one is drawn."""
    p = expanding_player(pos)
    remove_tile(pos, p, tile)
    pos.tile_pile[(pos.tile_head + pos.tile_count) % MAX_TILES] = tile
    pos.tile_count += 1
    draw_tile(pos, p)
    pos.counts[p, BLOCKED] += 1
    pos.turn += 1
    skip_empty_hands(pos, rules)


# --- card actions ---------------------------------------------------------------------------------------------


@njit(cache=True, inline="always")
def ships_at(pos, rules, p, space) -> int:
    """Player p's ships in `space` (on any of its coasts); p = -1: everybody's."""
    return pos.space_total[space] if p < 0 else pos.space_ships[p, space]


@njit(cache=True, inline="always")
def add_ship(pos, rules, p, coast, count) -> None:
    """Put `count` of player p's ships on `coast` (a negative count takes them away)."""
    space = rules.coast_space[coast]
    pos.ships[p, coast] += count
    pos.space_ships[p, space] += count
    pos.space_total[space] += count


@njit(cache=True, inline="always")
def ships_afloat(pos, p) -> int:
    """Player p's ships on the board."""
    afloat = 0
    for c in range(MAX_COASTS):
        afloat += pos.ships[p, c]
    return afloat


@njit(cache=True, inline="always")
def cards_held(pos, p) -> int:
    held = 0
    for k in range(CARD_KINDS):
        held += pos.hands[p, k]
    return held


@njit(cache=True, inline="always")
def deck_size(pos) -> int:
    """The cards in the draw pile."""
    size = 0
    for k in range(CARD_KINDS):
        size += pos.deck[k]
    return size


@njit(cache=True, inline="always")
def has_room(pos, rules, space, mine, total) -> bool:
    """The ship limit: at most 2 ships in a space; while Tyros has no city, each player may have 2 there."""
    if space == TYROS and pos.cities[TYROS] < 0:
        return mine < rules.tyros_ships_per_player
    return total < rules.ships_per_space


@njit(cache=True)
def sea_routes(pos, rules, work, start) -> int:
    """The coasts a ship on `start` can reach and the moves it takes, into work.route_coast / route_moves in the
    order of `TyrosState.distances`: a breadth-first search that enters any space but passes on only from those
    the rulings allow (`ships_pass_unclaimed`: a space with an empire chip or any; `ships_pass_crowded`: a space
    with no more than ships_per_space ships besides the moving one, or any). Returns how many."""
    crowded = False
    if not rules.ships_pass_crowded:
        for s in range(rules.spaces):
            count = ships_at(pos, rules, -1, s) - (1 if s == rules.coast_space[start] else 0)
            work.crowded[s] = count > rules.ships_per_space
            crowded = crowded or count > rules.ships_per_space
    if rules.ships_pass_unclaimed and not crowded:
        count = rules.open_count[start]
        for i in range(count):
            work.route_coast[i], work.route_moves[i] = rules.open_coast[start, i], rules.open_moves[start, i]
        return count
    work.route_coast[0], work.route_moves[0] = start, 0
    found, head = 1, 0
    while head < found:
        c = work.route_coast[head]
        moves = work.route_moves[head]
        head += 1
        space = rules.coast_space[c]
        if c != start and ((not rules.ships_pass_unclaimed and pos.chips[space] < 0)
                           or (crowded and work.crowded[space])):
            continue
        for i in range(rules.sea_count[c]):
            d = rules.sea[c, i]
            seen = False
            for j in range(found):
                if work.route_coast[j] == d:
                    seen = True
                    break
            if not seen:
                work.route_coast[found], work.route_moves[found] = d, moves + 1
                found += 1
    return found


@njit(cache=True, inline="always")  # its callers pass constants: inlined, it is not compiled for each
def add_action(actions, n, kind, a, b, c, d) -> int:
    if n >= MAX_ACTIONS:
        raise RuntimeError("tyros compiled engine: more legal actions than MAX_ACTIONS")
    row = actions[n]
    row[0], row[1], row[2], row[3], row[4] = kind, a, b, c, d
    return n + 1


@njit(cache=True)
def pack(cards) -> int:
    value = 0
    for k in range(CARD_KINDS):
        value |= cards[k] << (PACK_BITS * k)
    return value


@njit(cache=True, inline="always")
def unpacked(packed, k) -> int:
    """How many cards of kind k the packed multiset holds."""
    return (packed >> (PACK_BITS * k)) & ((1 << PACK_BITS) - 1)


@njit(cache=True)
def first_multiset(work, size) -> bool:
    """The first choice of `size` cards from work.left into work.cards, in `components.multisets`' order (the
    sorted choices in lexicographic order: as many of the first kind as possible, then of the next); False if
    there is none."""
    need = size
    for k in range(CARD_KINDS):
        take = min(work.left[k], need)
        work.cards[k] = take
        need -= take
    return need == 0


@njit(cache=True)
def next_multiset(work) -> bool:
    """The next choice after work.cards (one card fewer of the last kind that can give one up, the cards after
    it refilled from the first kind on); False after the last."""
    tail = work.cards[CARD_KINDS - 1]
    for k in range(CARD_KINDS - 2, -1, -1):
        if work.cards[k] > 0:
            room = 0
            for j in range(k + 1, CARD_KINDS):
                room += work.left[j]
            if room >= tail + 1:
                work.cards[k] -= 1
                need = tail + 1
                for j in range(k + 1, CARD_KINDS):
                    take = min(work.left[j], need)
                    work.cards[j] = take
                    need -= take
                return True
        tail += work.cards[k]
    return False


@njit(cache=True)
def payment(hand, colour, amount, out) -> bool:
    """`amount` cards of `colour` into out (counts), matching cards first and wilds for the rest (ruling 7);
    False if short."""
    matching = min(hand[colour], amount)
    if amount - matching > hand[WILD]:
        return False
    for k in range(CARD_KINDS):
        out[k] = 0
    out[colour] = matching
    out[WILD] += amount - matching
    return True


@njit(cache=True)
def ship_moves(pos, rules, work, p, n) -> int:
    """A. Move a ship: to a coast of a space with an empire chip, paying one card of its colour per move (wilds
    for any), within the ship limit (the space as it will be after the move); a move round the toe of 16 to
    its other coast where rule `ships_change_coast` allows; one action per toll card where the move ends in
    another player's city ("any one of his commerce cards", from the hand left after paying)."""
    hand = pos.hands[p]
    for start in range(rules.coasts):
        if pos.ships[p, start] == 0:
            continue
        start_space = rules.coast_space[start]
        count = sea_routes(pos, rules, work, start)
        for i in range(count):
            end, moves = work.route_coast[i], work.route_moves[i]
            space = rules.coast_space[end]
            colour = pos.chips[space]
            if moves == 0 or colour < 0 or moves > hand[colour] + hand[WILD]:
                continue
            mine, total = ships_at(pos, rules, p, space), ships_at(pos, rules, -1, space)
            if space == start_space:
                if not rules.ships_change_coast:
                    continue
                mine -= 1
                total -= 1
            if not has_room(pos, rules, space, mine, total):
                continue
            owner = pos.cities[space]
            tolls = False
            if owner >= 0 and owner != p:
                payment(hand, colour, moves, work.cards)
                for k in range(CARD_KINDS):
                    if hand[k] - work.cards[k] > 0:
                        n = add_action(work.actions, n, MOVE, start, end, k, moves)
                        tolls = True
            if not tolls:
                n = add_action(work.actions, n, MOVE, start, end, -1, moves)
    return n


@njit(cache=True, inline="always")
def city_cost(rules, mine) -> int:
    return rules.city_cost_two_ships if mine >= 2 else rules.city_cost


@njit(cache=True)
def city_builds(pos, rules, work, p, n) -> int:
    """B. Build a city: exclusive control with one or two ships, 5 cards of the space's colour (4 with two ships),
    one city per space, while the player has city markers left."""
    built = 0
    for s in range(rules.spaces):
        built += pos.cities[s] == p
    if built >= rules.cities_per_player:
        return n
    for space in range(rules.spaces):
        mine = ships_at(pos, rules, p, space)
        if mine == 0:
            continue
        colour = pos.chips[space]
        if pos.cities[space] >= 0 or colour < 0 or ships_at(pos, rules, -1, space) != mine:
            continue
        if payment(pos.hands[p], colour, city_cost(rules, mine), work.cards):
            n = add_action(work.actions, n, CITY, space, 0, 0, 0)
    return n


@njit(cache=True)
def ship_builds(pos, rules, work, p, n) -> int:
    """C. Build a ship in one's own city space (1 card of its colour plus one of any colour per ship already
    there) or in Tyros while it has no city (as many cards of any colours as ships there, plus one); every
    choice of the cards of any colour is an action; within the ship limit where rule `ship_limit_on_build`."""
    if ships_afloat(pos, p) >= rules.ships_per_player:
        return n
    hand = pos.hands[p]
    for space in range(rules.spaces):
        open_tyros = space == TYROS and pos.cities[TYROS] < 0
        if pos.cities[space] != p and not open_tyros:
            continue
        present = ships_at(pos, rules, -1, space)
        if rules.ship_limit_on_build and not has_room(pos, rules, space, ships_at(pos, rules, p, space), present):
            continue
        for k in range(CARD_KINDS):
            work.left[k] = hand[k]
        if open_tyros:
            size = present + 1
        else:
            colour = pos.chips[space]
            if not payment(hand, colour, MATCHING_CARD, work.cards):
                continue
            for k in range(CARD_KINDS):
                work.left[k] -= work.cards[k]
            size = present
        more = first_multiset(work, size)
        while more:
            n = add_action(work.actions, n, SHIP, space, pack(work.cards), 0, 0)
            more = next_multiset(work)
    return n


@njit(cache=True)
def bank_trades(pos, rules, work, p, n) -> int:
    """D. Swap 1 to 3 cards with the draw pile (ruling: only as many as it holds), or discard 3 for one card of
    choice from the discard pile."""
    hand = pos.hands[p]
    held = cards_held(pos, p)
    most = min(rules.bank_swap_max, deck_size(pos), held)
    for k in range(CARD_KINDS):
        work.left[k] = hand[k]
    for size in range(1, most + 1):
        more = first_multiset(work, size)
        while more:
            n = add_action(work.actions, n, SWAP, pack(work.cards), size, 0, 0)
            more = next_multiset(work)
    if held >= rules.bank_buy_cost:
        more = first_multiset(work, rules.bank_buy_cost)
        while more:
            given = pack(work.cards)
            for take in range(CARD_KINDS):
                if pos.discard[take]:
                    n = add_action(work.actions, n, BUY, given, take, 0, 0)
            more = next_multiset(work)
    return n


@njit(cache=True, inline="always")
def trades_used_up(pos, rules, p) -> bool:
    """Whether player p has made as many trades as offering player this round as rule `trade_guard` allows
    ('1-a-round', '3-a-round'; the other guards cap nothing). A player may still answer the others' offers."""
    return rules.trade_cap > 0 and pos.trades_this_round[p] >= rules.trade_cap


@njit(cache=True, inline="always")
def trade_index(give_kind, give, get_kind, get) -> int:
    """Where `traded` records a trade: `give` cards of `give_kind` for `get` of `get_kind` (1 to MAX_OFFERED each)."""
    return ((give_kind * MAX_OFFERED + give - 1) * CARD_KINDS + get_kind) * MAX_OFFERED + get - 1


@njit(cache=True, inline="always")
def repeats_a_trade(pos, rules, p, other, give_kind, give, get_kind, get) -> bool:
    """Rule `trade_guard` = 'no-repeat' (a simulation guard; game.guard_bars): whether p giving `give` cards of
    `give_kind` to `other` for `get` of `get_kind` is identical to, or exactly undoes, a trade the two made this
    round (whoever offered it)."""
    if not rules.no_repeat_trades:
        return False
    return (pos.traded[p, other, trade_index(give_kind, give, get_kind, get)] == 1
            or pos.traded[p, other, trade_index(get_kind, get, give_kind, give)] == 1)


@njit(cache=True, inline="always")
def guard_bars(pos, rules, p, other, give_kind, give, get_kind, get) -> bool:
    """Whether rule `trade_guard` (a simulation guard; game.guard_bars) bars p giving `give` cards of `give_kind`
    to `other` for `get` of `get_kind`: 'no-repeated-hands', a trade that brings back hands held since the last
    card action other than a trade, or one after TRADES_IN_A_ROW in a row; 'no-repeat', `repeats_a_trade`."""
    if rules.no_repeated_hands:
        return pos.seen_count > TRADES_IN_A_ROW or brings_back_hands(pos, p, other, give_kind, give, get_kind, get)
    return repeats_a_trade(pos, rules, p, other, give_kind, give, get_kind, get)


@njit(cache=True, inline="always")
def trade_change(q, k, p, other, give_kind, give, get_kind, get) -> int:
    """What player q's cards of kind k gain when p gives `give` cards of `give_kind` to `other` for `get` of
    `get_kind`."""
    change = 0
    if q == p:
        change += (get if k == get_kind else 0) - (give if k == give_kind else 0)
    elif q == other:
        change += (give if k == give_kind else 0) - (get if k == get_kind else 0)
    return change


@njit(cache=True)
def brings_back_hands(pos, p, other, give_kind, give, get_kind, get) -> bool:
    """Whether the trade gives every player the hands they held after a card action since the last one that was
    not a trade (`changes_seen`; game.change_after)."""
    last = pos.seen_count - 1
    for i in range(pos.seen_count):
        same = True
        for q in range(pos.n):
            for k in range(CARD_KINDS):
                after = pos.changes_seen[last, q, k] + trade_change(q, k, p, other, give_kind, give, get_kind, get)
                if pos.changes_seen[i, q, k] != after:
                    same = False
                    break
            if not same:
                break
        if same:
            return True
    return False


@njit(cache=True, inline="always")
def no_change_seen(pos) -> None:
    """After a card action other than a trade: `changes_seen` starts again from no change."""
    pos.changes_seen[0, :, :] = 0
    pos.seen_count = 1


@njit(cache=True, inline="always")
def nobody_could_take(pos, rules, p, give_kind, give, get_kind, get) -> bool:
    """Whether rule `trade_guard` bars the offer with every other player."""
    for i in range(1, pos.n):
        if not guard_bars(pos, rules, p, (p + i) % pos.n, give_kind, give, get_kind, get):
            return False
    return True


@njit(cache=True)
def offers(pos, rules, work, p, n) -> int:
    """E. The offers modelled (rule `trade_offers`, a ruling): one to `most_given` cards of a kind for one to
    `most_asked` of another kind; one offer a turn, none once the player has made its trades of the round, and
    none that no other player could take under rule `trade_guard`."""
    if pos.offered or trades_used_up(pos, rules, p):
        return n
    for give in range(CARD_KINDS):
        for count in range(1, rules.most_given + 1):
            if pos.hands[p, give] < count:
                continue
            for get in range(CARD_KINDS):
                if get == give:
                    continue
                for asked in range(1, rules.most_asked + 1):
                    if not nobody_could_take(pos, rules, p, give, count, get, asked):
                        n = add_action(work.actions, n, OFFER_CARDS, give, count, get, asked)
    return n


@njit(cache=True)
def legal_actions(pos, rules, work) -> int:
    """The legal actions into work.actions in `TyrosState.legal_actions`' order; returns how many."""
    actions = work.actions
    n = 0
    if pos.phase == P_EXPAND:
        p = expanding_player(pos)
        for i in range(pos.tile_hand_size[p]):
            tile = pos.tile_hands[p, i]
            colours = adjacent_empires(pos, rules, tile)
            for e in range(EMPIRE_COUNT):
                if colours & (1 << e):
                    n = add_action(actions, n, PLAY_TILE, tile, e, 0, 0)
        if n == 0:
            for i in range(pos.tile_hand_size[p]):
                n = add_action(actions, n, BLOCK, pos.tile_hands[p, i], 0, 0, 0)
        return n
    if pos.phase == P_ACTIONS:
        p = pos.actor
        n = add_action(actions, n, PASS, 0, 0, 0, 0)
        n = ship_moves(pos, rules, work, p, n)
        n = city_builds(pos, rules, work, p, n)
        n = ship_builds(pos, rules, work, p, n)
        n = bank_trades(pos, rules, work, p, n)
        return offers(pos, rules, work, p, n)
    if pos.phase == P_OFFER:
        responder = current_player(pos)
        if pos.hands[responder, pos.offer_get_kind] >= pos.offer_get and not guard_bars(
                pos, rules, pos.actor, responder, pos.offer_give_kind, pos.offer_give, pos.offer_get_kind,
                pos.offer_get):
            n = add_action(actions, n, ACCEPT, 0, 0, 0, 0)
        return add_action(actions, n, REFUSE, 0, 0, 0, 0)
    if pos.phase == P_PARTNER:
        for i in range(pos.accepted_count):
            n = add_action(actions, n, TRADE, pos.accepted[i], 0, 0, 0)
        return n
    if pos.phase == P_KEEP:
        for k in range(CARD_KINDS):
            work.left[k] = pos.hands[pos.keepers[pos.keeper_next], k]
        more = first_multiset(work, rules.cards_kept)
        while more:
            n = add_action(actions, n, KEEP_CARDS, pack(work.cards), 0, 0, 0)
            more = next_multiset(work)
    return n


# --- applying an action ---------------------------------------------------------------------------------------


@njit(cache=True)
def pay(pos, p, cards, to) -> None:
    """Cards (counts) from player p's hand to the discard pile (to = -1) or to player `to`'s hand."""
    for k in range(CARD_KINDS):
        pos.hands[p, k] -= cards[k]
        if to < 0:
            pos.discard[k] += cards[k]
        else:
            pos.hands[to, k] += cards[k]


@njit(cache=True, inline="always")
def pay_packed(pos, p, packed) -> None:
    for k in range(CARD_KINDS):
        count = unpacked(packed, k)
        pos.hands[p, k] -= count
        pos.discard[k] += count


@njit(cache=True, inline="always")
def action_done(pos) -> None:
    pos.passes_in_row = 0
    pos.offered = 0
    pos.actor = (pos.actor + 1) % pos.n


@njit(cache=True)
def move_ship(pos, rules, work, p, start, end, toll, moves) -> None:
    """A. Pay the move in cards of the destination's colour, move the ship, and give a city's owner the toll card
    chosen (ruling: nothing if the hand is empty)."""
    space = rules.coast_space[end]
    payment(pos.hands[p], pos.chips[space], moves, work.cards)
    pay(pos, p, work.cards, -1)
    add_ship(pos, rules, p, start, -1)
    add_ship(pos, rules, p, end, 1)
    owner = pos.cities[space]
    if owner >= 0 and owner != p and toll >= 0:
        pos.hands[p, toll] -= 1
        pos.hands[owner, toll] += 1
        pos.counts[p, TOLLS_PAID] += 1
    pos.counts[p, MOVES] += 1


@njit(cache=True)
def build_city(pos, rules, work, p, space) -> None:
    """B. Pay, place the city, send one ship there back to the supply (on 16 the east-coast one), and note the
    first cities: both readings of the first-city bonus are kept (rule `first_city_bonus` says which scores)."""
    mine = ships_at(pos, rules, p, space)
    colour = pos.chips[space]
    payment(pos.hands[p], colour, city_cost(rules, mine), work.cards)
    pay(pos, p, work.cards, -1)
    pos.cities[space] = p
    for i in range(rules.space_coast_count[space] - 1, -1, -1):  # the highest coast holding one of its ships
        c = rules.space_coasts[space, i]
        if pos.ships[p, c]:
            add_ship(pos, rules, p, c, -1)
            break
    pos.city_colours[p] |= 1 << colour
    if pos.city_colours[p] == (1 << EMPIRE_COUNT) - 1 and pos.all_empires_first < 0:
        pos.all_empires_first = p
    if pos.first_cities[colour] < 0:
        pos.first_cities[colour] = p
    pos.counts[p, CITIES_BUILT] += 1


@njit(cache=True)
def build_ship(pos, rules, work, p, space, extra) -> None:
    """C. Pay the matching card (not in Tyros while it has no city) and the cards chosen; the ship is placed on
    the space's first coast (on 16 the west coast)."""
    if not (space == TYROS and pos.cities[TYROS] < 0):
        payment(pos.hands[p], pos.chips[space], MATCHING_CARD, work.cards)
        pay(pos, p, work.cards, -1)
    pay_packed(pos, p, extra)
    add_ship(pos, rules, p, rules.space_coasts[space, 0], 1)
    pos.counts[p, SHIPS_BUILT] += 1


@njit(cache=True, inline="always")
def draw_card(pos, bits, p) -> None:
    """One card from the draw pile at random (`rng.integers` over its cards, kinds in order), as game.draw."""
    pick = integers(bits, deck_size(pos))
    for k in range(CARD_KINDS):
        if pick < pos.deck[k]:
            pos.deck[k] -= 1
            pos.hands[p, k] += 1
            return
        pick -= pos.deck[k]


@njit(cache=True, inline="always")
def swap_with_bank(pos, bits, p, given, count) -> None:
    """D. Discard the cards given and draw as many from the draw pile."""
    pay_packed(pos, p, given)
    for _ in range(count):
        draw_card(pos, bits, p)
    pos.counts[p, BANK_TRADES] += 1


@njit(cache=True)
def buy_from_bank(pos, p, given, take) -> None:
    """D. Take one card of choice from the discard pile (ruling: as it was before this discard), then discard."""
    pos.discard[take] -= 1
    pos.hands[p, take] += 1
    pay_packed(pos, p, given)
    pos.counts[p, BANK_TRADES] += 1


@njit(cache=True)
def make_offer(pos, give_kind, give, get_kind, get) -> None:
    """E. The offer is put to every other player, in seat order ("Any number of players may be asked")."""
    pos.offer_give_kind, pos.offer_give, pos.offer_get_kind, pos.offer_get = give_kind, give, get_kind, get
    pos.offer_answers = 0
    pos.accepted_count = 0
    pos.phase = P_OFFER
    pos.counts[pos.actor, OFFERS] += 1


@njit(cache=True)
def answer_offer(pos, rules, accept) -> None:
    """A player answers; once all have: "only one player may be traded with", so where several accepted the
    offering player chooses (phase PARTNER), where one did they trade, where nobody did the player acts
    otherwise (but makes no second offer this turn)."""
    if accept:
        pos.accepted[pos.accepted_count] = current_player(pos)
        pos.accepted_count += 1
    pos.offer_answers += 1
    if pos.offer_answers < pos.n - 1:
        return
    if pos.accepted_count > 1:
        pos.phase = P_PARTNER
    elif pos.accepted_count == 1:
        trade_with(pos, rules, pos.accepted[0])
    else:
        pos.phase = P_ACTIONS
        pos.offered = 1


@njit(cache=True)
def trade_with(pos, rules, partner) -> None:
    p = pos.actor
    pos.hands[p, pos.offer_give_kind] -= pos.offer_give
    pos.hands[partner, pos.offer_give_kind] += pos.offer_give
    pos.hands[partner, pos.offer_get_kind] -= pos.offer_get
    pos.hands[p, pos.offer_get_kind] += pos.offer_get
    pos.counts[p, TRADES] += 1
    pos.trades_this_round[p] += 1
    pos.traded[p, partner, trade_index(pos.offer_give_kind, pos.offer_give, pos.offer_get_kind, pos.offer_get)] = 1
    pos.traded[partner, p, trade_index(pos.offer_get_kind, pos.offer_get, pos.offer_give_kind, pos.offer_give)] = 1
    if rules.no_repeated_hands:  # the guard bars a trade before `changes_seen` is full
        last = pos.seen_count - 1
        for q in range(pos.n):
            for k in range(CARD_KINDS):
                pos.changes_seen[last + 1, q, k] = pos.changes_seen[last, q, k] + trade_change(
                    q, k, p, partner, pos.offer_give_kind, pos.offer_give, pos.offer_get_kind, pos.offer_get)
        pos.seen_count += 1
    pos.phase = P_ACTIONS
    action_done(pos)


@njit(cache=True)
def keep_cards(pos, rules, work, bits, kept) -> None:
    """End of round: the player keeps these cards and discards the rest."""
    p = pos.keepers[pos.keeper_next]
    pos.keeper_next += 1
    for k in range(CARD_KINDS):
        count = unpacked(kept, k)
        pos.discard[k] += pos.hands[p, k] - count
        pos.hands[p, k] = count
    finish_keeping(pos, rules, work, bits)


@njit(cache=True)
def apply_action(pos, rules, work, bits, i) -> None:
    """Apply the i-th action of work.actions."""
    row = work.actions[i]
    kind, a, b, c, d = row[0], row[1], row[2], row[3], row[4]
    pos.actions += 1
    if kind == PLAY_TILE:
        play_tile(pos, rules, a, b)
    elif kind == BLOCK:
        blocked(pos, rules, a)
    elif kind == PASS:
        pos.passes_in_row += 1
        pos.offered = 0
        pos.counts[pos.actor, PASSES] += 1
        if pos.passes_in_row == pos.n:
            end_round(pos, rules, work, bits)
        else:
            pos.actor = (pos.actor + 1) % pos.n
    elif kind == KEEP_CARDS:
        keep_cards(pos, rules, work, bits, a)
    elif kind == OFFER_CARDS:
        make_offer(pos, a, b, c, d)
    elif kind == ACCEPT or kind == REFUSE:
        answer_offer(pos, rules, kind == ACCEPT)
    elif kind == TRADE:
        trade_with(pos, rules, a)
    else:
        p = pos.actor
        if kind == MOVE:
            move_ship(pos, rules, work, p, a, b, c, d)
        elif kind == CITY:
            build_city(pos, rules, work, p, a)
        elif kind == SHIP:
            build_ship(pos, rules, work, p, a, b)
        elif kind == SWAP:
            swap_with_bank(pos, bits, p, a, b)
        else:
            buy_from_bank(pos, p, a, b)
        no_change_seen(pos)  # a card action other than a trade: rule `trade_guard`
        action_done(pos)


# --- scoring --------------------------------------------------------------------------------------------------


@njit(cache=True)
def empire_ranks(pos, rules, ranks) -> None:
    """Rank of each empire into ranks (0 = largest); equal sizes rank orange, yellow, green, violet."""
    for e in range(EMPIRE_COUNT):
        rank = 0
        for f in range(EMPIRE_COUNT):
            size_e, size_f = empire_size(pos, rules, e), empire_size(pos, rules, f)
            if size_f > size_e or (size_f == size_e and f < e):
                rank += 1
        ranks[e] = rank


@njit(cache=True, inline="always")
def empire_size(pos, rules, e) -> int:
    """The spaces of empire e; Tyros counts unless rule `tyros_counts_for_size` is off (a ruling)."""
    size = pos.chip_count[e]
    if not rules.tyros_counts_for_size and pos.chips[TYROS] == e:
        size -= 1
    return size


@njit(cache=True)
def score_game(pos, rules, work) -> None:
    """Every player's score into work.scores (`scoring.score_game`, in the rulebook's order): ships are removed
    where several players have ships and where a city stands; 7 points per empire to the player alone with the
    most cities there; city and ship control by the empire's size rank; the first-city bonus (rule
    `first_city_bonus`); LARGEST_POINTS is the tie-break, the points in the largest empire."""
    n = pos.n
    scores, per_empire, city_counts, ranks = work.scores, work.per_empire, work.city_counts, work.ranks
    for p in range(n):
        for column in range(TOTAL + 1):
            scores[p, column] = 0
        for e in range(EMPIRE_COUNT):
            per_empire[p, e] = 0
            city_counts[e, p] = 0
    empire_ranks(pos, rules, ranks)
    for space in range(rules.spaces):
        owner, colour = pos.cities[space], pos.chips[space]
        if owner >= 0 and colour >= 0:
            city_counts[colour, owner] += 1
    for e in range(EMPIRE_COUNT):
        most, leader, leaders = 0, -1, 0
        for p in range(n):
            if city_counts[e, p] > most:
                most, leader, leaders = city_counts[e, p], p, 1
            elif city_counts[e, p] == most:
                leaders += 1
        if most > 0 and leaders == 1:
            scores[leader, MOST_BONUS] += rules.most_cities_bonus
            per_empire[leader, e] += rules.most_cities_bonus
    for space in range(rules.spaces):
        colour = pos.chips[space]
        if colour < 0:
            continue
        owner = pos.cities[space]
        if owner >= 0:
            points = rules.city_points[ranks[colour]]
            scores[owner, CITY_POINTS] += points
            per_empire[owner, colour] += points
            continue
        controller = ship_controller(pos, rules, space)
        if controller >= 0:
            points = rules.ship_points[ranks[colour]]
            scores[controller, SHIP_POINTS] += points
            per_empire[controller, colour] += points
    if rules.first_city_all_four:
        if pos.all_empires_first >= 0:
            scores[pos.all_empires_first, FIRST_BONUS] += rules.all_empires_bonus
    else:
        for e in range(EMPIRE_COUNT):
            p = pos.first_cities[e]
            if p >= 0:
                scores[p, FIRST_BONUS] += rules.all_empires_bonus
                per_empire[p, e] += rules.all_empires_bonus
    largest = 0
    for e in range(EMPIRE_COUNT):
        if ranks[e] == 0:
            largest = e
    for p in range(n):
        scores[p, LARGEST_POINTS] = per_empire[p, largest]
        scores[p, TOTAL] = (scores[p, CITY_POINTS] + scores[p, SHIP_POINTS] + scores[p, FIRST_BONUS]
                            + scores[p, MOST_BONUS])


@njit(cache=True)
def ship_controller(pos, rules, space) -> int:
    """The player whose ships score `space` (the only one with ships there, where no city stands), or -1."""
    if pos.cities[space] >= 0:
        return -1
    controller = -1
    for p in range(pos.n):
        if ships_at(pos, rules, p, space):
            if controller >= 0:
                return -1
            controller = p
    return controller


# --- the object engine's positions and actions as records: every compiled search decision starts from `position_of`
# (compiled_search.choose); the differential tests compare records with `tidy` and `differences` -------------


def position_of(state: TyrosState) -> np.recarray:
    """The compiled form of one of the object engine's positions: every compiled search decision starts from it
    (`compiled_search.choose`), and the differential tests compare it with the compiled engine's position
    (`actions` left 0: the object engine does not count them)."""
    out = np.zeros(1, POSITION)
    pos = out[0]
    n = state.n
    pos["n"] = n
    pos["chips"][:] = -1
    pos["cities"][:] = -1
    pos["chips"][: len(state.chips)] = state.chips
    pos["cities"][: len(state.cities)] = state.cities
    for e in range(EMPIRE_COUNT):
        pos["chip_count"][e] = state.chips.count(e)
    for p in range(n):
        pos["city_colours"][p] = sum(1 << c for c in state.city_colours[p])
        pos["tile_hands"][p, : len(state.tile_hands[p])] = state.tile_hands[p]
        pos["tile_hand_size"][p] = len(state.tile_hands[p])
        pos["hands"][p, :] = state.hands[p]
        for c in state.ships[p]:
            pos["ships"][p, c] += 1
            pos["space_ships"][p, state.board.coasts[c].space] += 1
            pos["space_total"][state.board.coasts[c].space] += 1
        for i, name in enumerate(COUNTERS):
            pos["counts"][p, i] = state.counters[f"{name}_p{p}"]
    pos["all_empires_first"] = state.all_empires_first
    pos["first_cities"][:] = state.first_cities
    pos["tile_pile"][: len(state.tile_pile)] = state.tile_pile
    pos["tile_count"] = len(state.tile_pile)
    pos["deck"][:], pos["discard"][:] = state.deck, state.discard
    pos["round_number"], pos["start_player"], pos["phase"] = state.round, state.start_player, PHASES.index(state.phase)
    pos["expansion_pass"], pos["turn"], pos["actor"] = state.expansion_pass, state.turn, state.actor
    pos["passes_in_row"], pos["offered"] = state.passes_in_row, state.offered
    pos["trades_this_round"][:n] = state.trades_this_round
    pos["seen_count"] = len(state.changes_seen)
    for i, change in enumerate(state.changes_seen):
        pos["changes_seen"][i, :n] = change
    for a, b, given, received in state.trades_made:
        pos["traded"][a, b, trade_index(given[0], len(given), received[0], len(received))] = 1
    if state.offer is not None and state.phase in (OFFER, PARTNER):
        offer = state.offer
        pos["offer_give_kind"], pos["offer_give"] = offer.give[0], len(offer.give)
        pos["offer_get_kind"], pos["offer_get"] = offer.get[0], len(offer.get)
        pos["offer_answers"] = n - 1 - len(offer.waiting)
        pos["accepted"][: len(offer.accepted)] = offer.accepted
        pos["accepted_count"] = len(offer.accepted)
    if state.phase == KEEP:
        pos["keepers"][: len(state.keepers)] = state.keepers
        pos["keeper_count"] = len(state.keepers)
    return out.view(np.recarray)


def tidy(game: np.ndarray) -> np.ndarray:
    """A copy with what no rule reads cleared (places past each list's size, the pile turned to start at 0, an
    offer no longer open, the keepers once chosen, `actions`): two positions are the same game position when
    their tidy copies are equal (`differences`)."""
    out = np.asarray(game).view(np.ndarray).copy()
    pos = out[0]
    pile = [pos["tile_pile"][(pos["tile_head"] + i) % MAX_TILES] for i in range(pos["tile_count"])]
    pos["tile_pile"][:] = 0
    pos["tile_pile"][: len(pile)] = pile
    pos["tile_head"] = 0
    for p in range(MAX_PLAYERS):
        pos["tile_hands"][p, pos["tile_hand_size"][p]:] = 0
    if pos["phase"] not in (P_OFFER, P_PARTNER):
        for name in ("offer_give_kind", "offer_give", "offer_get_kind", "offer_get", "offer_answers",
                     "accepted_count"):
            pos[name] = 0
        pos["accepted"][:] = 0
    pos["accepted"][pos["accepted_count"]:] = 0
    pos["changes_seen"][pos["seen_count"]:] = 0
    if pos["phase"] != P_KEEP:
        pos["keepers"][:], pos["keeper_next"], pos["keeper_count"] = 0, 0, 0
    else:
        left = list(pos["keepers"][pos["keeper_next"]:pos["keeper_count"]])
        pos["keepers"][:] = 0
        pos["keepers"][: len(left)] = left
        pos["keeper_next"], pos["keeper_count"] = 0, len(left)
    pos["actions"] = 0
    return out


def differences(game: np.ndarray, other: np.ndarray) -> list[str]:
    """The fields in which two positions differ, each held to `tidy` (empty: the same game position)."""
    return differing_fields(tidy(game), tidy(other))


def packed_cards(cards) -> int:
    """A multiset of the object engine (a sorted tuple of kinds) packed as the compiled actions hold it."""
    return sum(1 << (PACK_BITS * k) for k in cards)


def action_of(state: TyrosState, action) -> tuple[int, ...]:
    """One of the object engine's actions as a compiled action row (moves with their number of moves)."""
    kind = type(action)
    if kind is PlayTile:
        return (PLAY_TILE, action.space, action.empire, 0, 0)
    if kind is Blocked:
        return (BLOCK, action.tile, 0, 0, 0)
    if kind is Pass:
        return (PASS, 0, 0, 0, 0)
    if kind is MoveShip:
        start, end = state.game.coast_ids[action.start], state.game.coast_ids[action.end]
        toll = -1 if action.toll is None else action.toll
        return (MOVE, start, end, toll, state.distances(start)[end])
    if kind is BuildCity:
        return (CITY, action.space, 0, 0, 0)
    if kind is BuildShip:
        return (SHIP, action.space, packed_cards(action.extra), 0, 0)
    if kind is BankSwap:
        return (SWAP, packed_cards(action.give), len(action.give), 0, 0)
    if kind is BankBuy:
        return (BUY, packed_cards(action.give), action.take, 0, 0)
    if kind is Offer:
        return (OFFER_CARDS, action.give[0], len(action.give), action.get[0], len(action.get))
    if kind is Accept:
        return (ACCEPT, 0, 0, 0, 0)
    if kind is Refuse:
        return (REFUSE, 0, 0, 0, 0)
    if kind is TradeWith:
        return (TRADE, action.partner, 0, 0, 0)
    if kind is Keep:
        return (KEEP_CARDS, packed_cards(action.cards), 0, 0, 0)
    raise ValueError(f"not a Tyros action: {action!r}")


# --- called from Python (tests, policies' checks): one-element arrays in, records inside ----------------------


@njit(cache=True)
def start_game(game, tables, workspace, n, bits) -> None:
    """`set_up` of the zeroed one-position array `game` for n players, drawing from the bit generator `bits`."""
    set_up(game[0], tables[0], workspace[0], n, bits)


@njit(cache=True)
def list_actions(game, tables, workspace) -> int:
    """`legal_actions` of `game` into workspace[0].actions; returns how many."""
    return legal_actions(game[0], tables[0], workspace[0])


@njit(cache=True)
def play_action(game, tables, workspace, bits, i) -> None:
    """`apply_action`: the i-th of the actions `list_actions` wrote."""
    apply_action(game[0], tables[0], workspace[0], bits, i)


@njit(cache=True)
def scores_of(game, tables, workspace) -> None:
    """`score_game` into workspace[0].scores."""
    score_game(game[0], tables[0], workspace[0])


@njit(cache=True)
def deal(bits, tables, deck, count, out) -> None:
    """`deal_hand` (rng.multivariate_hypergeometric(deck, count)) into out."""
    deal_hand(bits, tables[0], deck, count, out)
