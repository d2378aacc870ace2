"""The full Tyros engine: set-up, rounds of expansion and card actions, scoring.

A round deals commerce cards, runs the expansion passes (each player plays a
tile or, blocked, cycles one), then card actions in turn until every player
has passed in a row; players then keep at most three cards. The game ends
after a round in which some player has run out of tiles.

Hidden information: card hands and the order of both piles are secret. The
draw pile is kept as counts per kind and each card drawn is chosen at random
from it, so nothing can read a future draw. `determinize` samples everything
one player cannot see, for search.

The action records are in `actions.py`, the play log's words in `narration.py`.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from tyrsim.games.tyros import narration as words
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
from tyrsim.games.tyros.board import TYROS, Board, conflicting, load_board
from tyrsim.games.tyros.components import (
    CARD_KINDS,
    COLOUR_NAMES,
    EMPIRES,
    WILD,
    Cards,
    colour_payment,
    full_deck,
    multisets,
)
from tyrsim.games.tyros.rules import TRADE_OFFERS, TRADES_IN_A_ROW, Rules
from tyrsim.games.tyros.scoring import Score, empire_sizes, score_game, winners

NAME = "tyros"  # the game's name on the command line and in the registry
EXPAND, ACTIONS, OFFER, PARTNER, KEEP, OVER = "expand", "actions", "offer", "partner", "keep", "over"


@dataclass
class OpenOffer:
    """A trade offer on the table: the cards offered (`give`) and asked for (`get`), the players still
    to answer, in seat order, and those who accepted. All of it is public."""

    give: Cards
    get: Cards
    waiting: list[int]
    accepted: list[int]

    def copy(self) -> OpenOffer:
        return OpenOffer(self.give, self.get, self.waiting[:], self.accepted[:])


@dataclass(frozen=True)
class PlayerView:
    """The part of a state one player may see."""

    player: int
    chips: tuple[int, ...]
    cities: tuple[int, ...]
    ship_spaces: tuple[tuple[int, ...], ...]
    all_empires_first: int
    first_cities: tuple[int, ...]
    hand: tuple[int, ...]
    tiles: tuple[int, ...]
    city_colours: frozenset[int]
    hand_sizes: tuple[int, ...]
    tile_counts: tuple[int, ...]
    draw_pile: int
    tile_pile: int
    discard: tuple[int, ...]


class TyrosGame:
    """Tyros for 3 or 4 players; `tiles_only` skips the commerce cards and card actions."""

    name = NAME

    def __init__(self, rules: Rules, num_players: int, *, tiles_only: bool = False) -> None:
        if num_players not in (3, 4):
            raise ValueError(f"Tyros is played by 3 or 4 players, not {num_players}")
        self.rules = rules
        self.num_players = num_players
        self.tiles_only = tiles_only
        self.board: Board = load_board(rules.board or None)
        # sea distances between coasts when ships may pass any space (the default ruling)
        self.open_distances = [self.board.sea_distances(c) for c in range(len(self.board.coasts))]
        self.labels = [coast.label for coast in self.board.coasts]
        self.coast_ids = {label: c for c, label in enumerate(self.labels)}

    def new_state(self, rng: np.random.Generator) -> TyrosState:
        return TyrosState.start(self, rng)


def starting_empires(board: Board, rules: Rules, pile: list[int]) -> tuple[list[int], list[int]]:
    """The four starting spaces (orange, yellow, green, violet) and the tiles left.

    First game: the fixed spaces. Variable: tiles are turned one at a time from
    `pile`; a tile next to an empire already chosen is replaced by the next one
    and goes to the bottom of the pile. Highest number is orange, then yellow,
    green, violet. Only land neighbours conflict, unless rule
    `start_both_beside_tyros` (a ruling) is off; see `conflicting`.
    """
    if rules.setup == "first-game":
        starts = list(board.first_game)
        return starts, [t for t in pile if t not in starts]
    chosen: list[int] = []
    rest: list[int] = []
    for tile in pile:
        apart = not any(conflicting(board, tile, other, rules.start_both_beside_tyros) for other in chosen)
        if len(chosen) < 4 and apart:
            chosen.append(tile)
        else:
            rest.append(tile)
    if len(chosen) < 4:
        raise ValueError(f"board {board.source}: cannot place four non-adjacent empires")
    return sorted(chosen, reverse=True), rest


@lru_cache(maxsize=4096)
def bank_swaps(hand: tuple[int, ...], most: int) -> tuple[BankSwap, ...]:
    """Every swap of 1 to `most` cards of `hand` with the draw pile."""
    return tuple(BankSwap(give) for k in range(1, most + 1) for give in multisets(hand, k))


@lru_cache(maxsize=4096)
def bank_buys(hand: tuple[int, ...], cost: int, takes: tuple[int, ...]) -> tuple[BankBuy, ...]:
    """Every purchase of one card of a kind in `takes` from the discard pile for `cost` cards of `hand`."""
    return tuple(BankBuy(give, take) for give in multisets(hand, cost) for take in takes)


@lru_cache(maxsize=1024)
def offers(hand: tuple[int, ...], most_given: int, most_asked: int) -> tuple[Offer, ...]:
    """One to `most_given` cards of a kind for one to `most_asked` cards of another kind (`hand` counts
    capped at `most_given`)."""
    return tuple(Offer((give,) * count, (get,) * asked) for give in range(CARD_KINDS)
                 for count in range(1, most_given + 1) if hand[give] >= count
                 for get in range(CARD_KINDS) if get != give for asked in range(1, most_asked + 1))


def place_chip(board: Board, rules: Rules, chips: list[int], space: int, empire: int) -> None:
    """Mark `space` for `empire` in `chips`; a chip next to Tyros also puts that colour on Tyros (`tyros_takes`)."""
    chips[space] = empire
    if space != TYROS and TYROS in board.land[space] and tyros_takes(rules, chips, empire):
        chips[TYROS] = empire


def tyros_takes(rules: Rules, chips: list[int], empire: int) -> bool:
    """Whether a chip of `empire` just placed next to Tyros puts that colour on Tyros: "immediately put an empire
    chip of the same colour on Tyros", if the empire has a chip left in the box.

    Ruling (`tyros_chip`): 'first-keeps', Tyros keeps the chip of the first empire to reach it (nothing in the
    rules takes a chip off the board); 'latest-replaces', a later empire's chip replaces it (the old one goes back
    to the box).
    """
    if chips[TYROS] == empire or chips.count(empire) >= rules.chips_per_empire:
        return False
    return chips[TYROS] < 0 or rules.tyros_chip == "latest-replaces"


class TyrosState:
    """A game in progress: the board, tiles, cards, ships and cities, and whose decision it is.

    Phases: "expand" (tile play), "actions" (card actions), "offer" (another
    player answers a trade offer), "keep" (cards kept at the end of a round),
    "over". Per-player lists are indexed by seat; spaces by number, Tyros 0.
    `trades_this_round[p]`: the trades player p made as the offering player since the round's card
    actions began; `trades_made`: those trades as (a, b, cards a gave, cards b gave), each recorded from both
    sides; `changes_seen`: after each trade since the last card action that was not a trade, and before the first,
    what every player's hand has gained (or lost, negative) of each kind of card since that action (rule
    `trade_guard`, a simulation guard; all public: a trade shows its cards).

    `narration` is None unless a play log listens (see `Narrated` in tyrsim.core.engine.protocols); then each
    action appends what it caused (tolls, Tyros joining an empire, first cities, round ends and
    the final scoring), in the words of `narration.py`.
    """

    __slots__ = (
        "game", "_rng", "_rng_source", "n", "chips", "tile_pile", "tile_hands", "deck", "discard", "hands", "ships",
        "cities", "city_colours", "all_empires_first", "first_cities", "round", "start_player", "phase",
        "expansion_pass", "turn", "actor", "passes_in_row", "offered", "trades_this_round", "trades_made",
        "changes_seen", "offer", "keepers", "counters", "narration",
    )

    # ---- set-up -------------------------------------------------------------
    @classmethod
    def start(cls, game: TyrosGame, rng: np.random.Generator) -> TyrosState:
        self = cls.__new__(cls)
        board, rules = game.board, game.rules
        self.game, self._rng, self._rng_source, self.n = game, rng, None, game.num_players
        self.narration = None
        self.chips = [-1] * board.size
        self.cities = [-1] * board.size
        pile = [int(t) for t in rng.permutation(board.tiles)]
        starts, rest = starting_empires(board, rules, pile)
        for empire, space in zip(EMPIRES, starts, strict=True):
            self.place_chip(space, empire)
        # "shuffle the remaining map tiles and deal 4 to each player"
        rest = [int(t) for t in rng.permutation(rest)]
        k = rules.tiles_per_player
        self.tile_hands = [sorted(rest[p * k:(p + 1) * k]) for p in range(self.n)]
        self.tile_pile = rest[self.n * k:]
        self.deck = full_deck(rules.cards_per_colour, rules.wild_cards)
        self.discard = [0] * CARD_KINDS
        self.hands = [[0] * CARD_KINDS for _ in range(self.n)]
        tyros_coast = board.space_coasts[TYROS][0]
        self.ships = [[tyros_coast] * rules.starting_ships for _ in range(self.n)]
        self.city_colours = [set() for _ in range(self.n)]
        self.all_empires_first = -1
        self.first_cities = [-1] * len(EMPIRES)
        self.start_player = 0
        self.counters = Counter()
        self.offer = None
        self.keepers = []
        self.actor, self.passes_in_row, self.offered = 0, 0, False
        self.trades_this_round = [0] * self.n
        self.trades_made = set()
        self.changes_seen = [self.no_change()]
        self.begin_round(1)
        return self

    @property
    def rng(self) -> np.random.Generator:
        """The chance generator, made on the first draw: a copy that never draws (most copies a search
        plays on) never pays for one. A clone's is spawned from its original's generator, a
        determinization's seeded from the search's (`_rng_source`)."""
        if self._rng is None:
            source = self._rng_source
            if isinstance(source, np.random.Generator):
                self._rng = source.spawn(1)[0]
            else:
                self._rng = np.random.Generator(np.random.PCG64(source))
            self._rng_source = None
        return self._rng

    def clone(self) -> TyrosState:
        """An independent copy; its chance events come from a new stream, so it cannot foresee this game's draws."""
        return self.copy_with_chance(self.rng)

    def copy_with_chance(self, source: np.random.Generator | int) -> TyrosState:
        """A copy whose generator is spawned from `source` (a generator) or seeded with it (an integer)
        (`copy_drawing_from` gives one drawing from a generator itself).

        The game, its board and rules are shared (never changed in play); everything a move changes is copied.
        """
        other = TyrosState.__new__(TyrosState)
        other.game, other._rng, other._rng_source, other.n = self.game, None, source, self.n
        other.narration = None  # nobody listens to a copy
        other.chips = self.chips[:]
        other.tile_pile = self.tile_pile[:]
        other.tile_hands = [h[:] for h in self.tile_hands]
        other.deck = self.deck[:]
        other.discard = self.discard[:]
        other.hands = [h[:] for h in self.hands]
        other.ships = [s[:] for s in self.ships]
        other.cities = self.cities[:]
        other.city_colours = [set(c) for c in self.city_colours]
        other.first_cities = self.first_cities[:]
        other.counters = self.counters.copy()
        other.keepers = self.keepers[:]
        other.all_empires_first, other.round, other.start_player = self.all_empires_first, self.round, self.start_player
        other.phase, other.expansion_pass, other.turn = self.phase, self.expansion_pass, self.turn
        other.actor, other.passes_in_row, other.offered = self.actor, self.passes_in_row, self.offered
        other.trades_this_round = self.trades_this_round[:]
        other.trades_made = set(self.trades_made)
        other.changes_seen = self.changes_seen[:]
        other.offer = None if self.offer is None else self.offer.copy()
        return other

    def copy_drawing_from(self, rng: np.random.Generator) -> TyrosState:
        """A copy whose chance events are drawn from `rng` itself."""
        other = self.copy_with_chance(rng)
        other._rng, other._rng_source = rng, None
        return other

    def determinize(self, player: int, rng: np.random.Generator) -> TyrosState:
        """A full state consistent with what `player` may see (`view`), the rest sampled from `rng`.

        Resampled: the other players' cards and the draw pile (the cards `player` has not seen: the
        full deck minus their own hand and the discard pile, dealt by the public hand sizes), and
        the other players' tiles and the tile pile's order (the tiles not on the board and not in
        their own hand, dealt by the public tile counts). Both samples start from a canonical
        sorted order, so they never depend on where the hidden things really are. The trades each player
        made this round are public and kept (rule `trade_guard` reads them). A trade offer
        on the table shows its cards: they stay in the offering player's hand, and the cards asked
        for stay in the hands of the players who accepted it. What play revealed
        earlier (cards traded or paid as tolls, a blocked player's tiles) is not remembered.

        Ruling: the copy draws its chance (deals, bank swaps) from `rng` itself, the search's own
        generator, so it cannot foresee the real game's draws (they come from this state's generator),
        and the compiled search (`compiled_search`), which cannot make a generator, draws the same.
        """
        other = self.copy_drawing_from(rng)
        rules, n = self.rules, self.n
        # the cards: unseen = full deck - own hand - discard; an offer's cards are known to be in the offerer's hand
        unseen = full_deck(rules.cards_per_colour, rules.wild_cards)
        known = [[0] * CARD_KINDS for _ in range(n)]
        known[player] = list(self.hands[player])
        if self.offer is not None:
            for holder, shown in ((self.actor, self.offer.give), *((p, self.offer.get) for p in self.offer.accepted)):
                if holder != player:
                    for k in shown:
                        known[holder][k] += 1
        for kind in range(CARD_KINDS):
            unseen[kind] -= self.discard[kind] + sum(hand[kind] for hand in known)
        pool = rng.permutation([kind for kind in range(CARD_KINDS) for _ in range(unseen[kind])]).tolist()
        for p in range(n):
            if p != player:
                hand = known[p]
                dealt, pool = pool[:sum(self.hands[p]) - sum(hand)], pool[sum(self.hands[p]) - sum(hand):]
                for kind in dealt:
                    hand[kind] += 1
        other.hands = known
        other.deck = [pool.count(kind) for kind in range(CARD_KINDS)]
        # the tiles: unseen = every tile with no chip on its space, less their own
        own = self.tile_hands[player]
        tiles = rng.permutation([t for t in self.board.tiles if self.chips[t] < 0 and t not in own]).tolist()
        for p in range(n):
            if p != player:
                size = len(self.tile_hands[p])
                other.tile_hands[p], tiles = sorted(tiles[:size]), tiles[size:]
        other.tile_pile = tiles
        return other

    # ---- board queries -------------------------------------------------------
    @property
    def board(self) -> Board:
        return self.game.board

    @property
    def rules(self) -> Rules:
        return self.game.rules

    def chips_left(self, empire: int) -> int:
        return self.rules.chips_per_empire - self.chips.count(empire)

    def place_chip(self, space: int, empire: int) -> None:
        place_chip(self.board, self.rules, self.chips, space, empire)

    def adjacent_empires(self, space: int) -> list[int]:
        """Empire colours next to `space` with a chip left, which a tile for it may extend."""
        colours = set()
        for other in self.board.land[space]:
            if other == TYROS and not self.rules.tyros_extends_empire:
                continue
            if self.chips[other] >= 0:
                colours.add(self.chips[other])
        return sorted(c for c in colours if self.chips_left(c))

    def ships_at(self, space: int) -> list[int]:
        """Ships in `space` per player."""
        coasts = self.board.space_coasts[space]
        return [sum(1 for c in ships if c in coasts) for ships in self.ships]

    def ship_spaces(self, player: int) -> list[int]:
        return [self.board.coasts[c].space for c in self.ships[player]]

    def view(self, player: int) -> PlayerView:
        """What `player` may see: the board, the piles' sizes, the discard pile and their own hand and tiles."""
        return PlayerView(
            player=player,
            chips=tuple(self.chips),
            cities=tuple(self.cities),
            ship_spaces=tuple(tuple(self.ship_spaces(p)) for p in range(self.n)),
            all_empires_first=self.all_empires_first,
            first_cities=tuple(self.first_cities),
            hand=tuple(self.hands[player]),
            tiles=tuple(self.tile_hands[player]),
            city_colours=frozenset(self.city_colours[player]),
            hand_sizes=tuple(sum(h) for h in self.hands),
            tile_counts=tuple(len(h) for h in self.tile_hands),
            draw_pile=sum(self.deck),
            tile_pile=len(self.tile_pile),
            discard=tuple(self.discard),
        )

    def empire_sizes(self) -> list[int]:
        return empire_sizes(self.chips, self.rules)

    # ---- the round ----------------------------------------------------------
    def begin_round(self, number: int) -> None:
        self.round = number
        if not self.game.tiles_only:
            self.deal_cards()
        if self.narration is not None:
            self.narration.append(words.round_begins(self))
        self.phase = EXPAND
        self.expansion_pass = 0
        self.turn = 0
        self.skip_empty_hands()

    def deal_cards(self) -> None:
        """Ruling: every card not kept in a hand is shuffled together and dealt."""
        for kind in range(CARD_KINDS):
            self.deck[kind] += self.discard[kind]
            self.discard[kind] = 0
        dealt = self.rules.cards_dealt(self.n)
        for p in self.seats_from_start():
            cards = self.rng.multivariate_hypergeometric(self.deck, dealt)
            for kind in range(CARD_KINDS):
                self.deck[kind] -= int(cards[kind])
                self.hands[p][kind] += int(cards[kind])

    def seats_from_start(self) -> list[int]:
        return [(self.start_player + i) % self.n for i in range(self.n)]

    def expanding_player(self) -> int:
        return (self.start_player + self.turn) % self.n

    def skip_empty_hands(self) -> None:
        """Move the expansion on past players without tiles; end it after the last pass."""
        passes = self.rules.expansion_passes(self.round, self.n)
        while self.phase == EXPAND:
            if self.turn == self.n:
                self.turn = 0
                self.expansion_pass += 1
            if self.expansion_pass >= passes:
                self.begin_card_actions()
                return
            if self.tile_hands[self.expanding_player()]:
                return
            self.turn += 1

    def begin_card_actions(self) -> None:
        if self.game.tiles_only:
            self.end_round()
            return
        self.phase = ACTIONS
        self.actor = self.start_player
        self.passes_in_row = 0
        self.offered = False
        self.trades_this_round = [0] * self.n
        self.trades_made = set()
        self.changes_seen = [self.no_change()]

    def end_round(self) -> None:
        """The game ends here if a player has no tiles; otherwise players keep cards and a new round starts."""
        # ruling: a game whose remaining tiles can never be played also ends (possible only when chips run out)
        over = any(not hand for hand in self.tile_hands) or self.stalled()
        if self.narration is not None:
            self.narration.extend(words.round_ends(self, over))
        if over:
            self.phase = OVER
            return
        keep = self.rules.cards_kept
        self.keepers = [p for p in self.seats_from_start() if sum(self.hands[p]) > keep]
        self.phase = KEEP
        self.finish_keeping()

    def stalled(self) -> bool:
        """No tile left can ever be played: every empire next to one has run out of chips."""
        return not any(self.adjacent_empires(t) for t in self.tile_pile + [t for h in self.tile_hands for t in h])

    def finish_keeping(self) -> None:
        """Once everyone has kept their cards, the start token passes and the next round begins."""
        if self.keepers:
            return
        self.start_player = (self.start_player + 1) % self.n
        self.begin_round(self.round + 1)

    # ---- protocol -----------------------------------------------------------
    def current_player(self) -> int:
        if self.phase == EXPAND:
            return self.expanding_player()
        if self.phase == ACTIONS:
            return self.actor
        if self.phase == OFFER:
            return self.offer.waiting[0]
        if self.phase == PARTNER:
            return self.actor
        if self.phase == KEEP:
            return self.keepers[0]
        return -1

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def legal_actions(self) -> list:
        if self.phase == EXPAND:
            return self.tile_actions(self.expanding_player())
        if self.phase == ACTIONS:
            return self.card_actions(self.actor)
        if self.phase == OFFER:
            responder, get = self.offer.waiting[0], self.offer.get
            can = all(self.hands[responder][k] >= get.count(k) for k in set(get))
            can = can and not self.guard_bars(self.actor, responder, self.offer.give, get)
            return [Accept(), Refuse()] if can else [Refuse()]
        if self.phase == PARTNER:
            return [TradeWith(p) for p in self.offer.accepted]
        if self.phase == KEEP:
            player = self.keepers[0]
            return [Keep(cards) for cards in multisets(tuple(self.hands[player]), self.rules.cards_kept)]
        return []

    def tile_actions(self, player: int) -> list:
        plays = [PlayTile(t, e) for t in self.tile_hands[player] for e in self.adjacent_empires(t)]
        return plays or [Blocked(t) for t in self.tile_hands[player]]

    def apply(self, action) -> None:
        kind = type(action)
        if kind is PlayTile:
            self.play_tile(action)
        elif kind is Blocked:
            self.blocked(action)
        elif kind is Pass:
            self.passes_in_row += 1
            self.offered = False
            self.counters[f"passes_p{self.actor}"] += 1
            if self.passes_in_row == self.n:
                self.end_round()
            else:
                self.actor = (self.actor + 1) % self.n
        elif kind is Keep:
            player = self.keepers.pop(0)
            for k in range(CARD_KINDS):
                kept = action.cards.count(k)
                self.discard[k] += self.hands[player][k] - kept
                self.hands[player][k] = kept
            self.finish_keeping()
        elif kind is Offer:
            if action not in self.offers(self.actor):
                raise ValueError(f"illegal action for player {self.actor}: {action!r}")
            # "Any number of players may be asked": every other player, in seat order
            self.offer = OpenOffer(action.give, action.get, [(self.actor + i) % self.n for i in range(1, self.n)], [])
            self.phase = OFFER
            self.counters[f"offers_p{self.actor}"] += 1
        elif kind is Accept or kind is Refuse:
            if action not in self.legal_actions():
                raise ValueError(f"illegal action for player {self.current_player()}: {action!r}")
            responder = self.offer.waiting.pop(0)
            if kind is Accept:
                self.offer.accepted.append(responder)
            if not self.offer.waiting:
                self.answers_in()
        elif kind is TradeWith:
            if action not in self.legal_actions():
                raise ValueError(f"illegal action for player {self.actor}: {action!r}")
            self.trade_with(action.partner)
        else:
            self.card_action(action)

    def answers_in(self) -> None:
        """Everyone asked has answered: "only one player may be traded with", so where several accepted the
        offering player chooses one (phase "partner"); where nobody did, the player may act otherwise (but
        makes no second offer this turn)."""
        accepted = self.offer.accepted
        if len(accepted) > 1:
            self.phase = PARTNER
        elif accepted:
            self.trade_with(accepted[0])
        else:
            self.offer = None
            self.phase = ACTIONS
            self.offered = True

    def trade_with(self, partner: int) -> None:
        self.pay(self.actor, self.offer.give, to=self.hands[partner])
        self.pay(partner, self.offer.get, to=self.hands[self.actor])
        self.counters[f"trades_p{self.actor}"] += 1
        self.trades_this_round[self.actor] += 1
        self.trades_made.add((self.actor, partner, self.offer.give, self.offer.get))
        self.trades_made.add((partner, self.actor, self.offer.get, self.offer.give))
        if self.rules.trade_guard == "no-repeated-hands":  # the only guard that reads it
            self.changes_seen.append(self.change_after(self.actor, partner, self.offer.give, self.offer.get))
        if self.narration is not None:
            self.narration.append(words.trade(self.actor, partner, self.offer))
        self.offer = None
        self.phase = ACTIONS
        self.action_done()

    # ---- expansion ------------------------------------------------------------
    def play_tile(self, action: PlayTile) -> None:
        player = self.expanding_player()
        self.tile_hands[player].remove(action.space)
        tyros_before = self.chips[TYROS]
        self.place_chip(action.space, action.empire)
        self.counters[f"tiles_p{player}"] += 1
        if self.tile_pile:
            self.tile_hands[player].append(self.tile_pile.pop(0))
        if self.narration is not None:
            self.narration.extend(words.tile_played(self, player, action.empire, tyros_before))
        self.turn += 1
        self.skip_empty_hands()

    def blocked(self, action: Blocked) -> None:
        player = self.expanding_player()
        self.tile_hands[player].remove(action.tile)
        self.tile_pile.append(action.tile)
        self.tile_hands[player].append(self.tile_pile.pop(0))
        self.counters[f"blocked_p{player}"] += 1
        self.turn += 1
        self.skip_empty_hands()

    # ---- card actions ---------------------------------------------------------
    def distances(self, coast: int) -> dict[int, int]:
        """Moves from `coast` to every coast a ship there can reach, by the rules on the spaces it passes."""
        rules = self.rules
        crowded = () if rules.ships_pass_crowded else self.crowded(coast)
        if rules.ships_pass_unclaimed and not crowded:
            return self.game.open_distances[coast]
        return self.board.sea_distances(
            coast, lambda space: (rules.ships_pass_unclaimed or self.chips[space] >= 0) and space not in crowded)

    def crowded(self, start: int) -> set[int]:
        """Spaces a ship leaving coast `start` may not pass under rule `ships_pass_crowded` = false (a ruling):
        "A ship may move through a space with 1 or 2 ships already in it", read as a limit, so a space
        holding more than `ships_per_space` ships, other than the moving one, blocks the way (Tyros while it
        has no city, or any space where the build limit is off)."""
        counts = Counter(self.board.coasts[c].space for ships in self.ships for c in ships)
        counts[self.board.coasts[start].space] -= 1  # the moving ship is not "already in" a space it passes
        return {space for space, count in counts.items() if count > self.rules.ships_per_space}

    def has_room(self, player: int, space: int, counts: list[int]) -> bool:
        """The ship limit: whether one more of `player`'s ships may stand in `space`, which holds `counts` ships.

        At most 2 ships in a space; while Tyros has no city, each player may have 2 there.
        Checked when a move ends, and when a ship is built (`ship_limit_on_build`).
        """
        if space == TYROS and self.cities[TYROS] < 0:
            return counts[player] < self.rules.tyros_ships_per_player
        return sum(counts) < self.rules.ships_per_space

    def ship_moves(self, player: int) -> list[MoveShip]:
        hand = self.hands[player]
        labels = self.game.labels
        moves = []
        counts_cache: dict[int, list[int]] = {}
        # the longest move each colour's cards can pay for (wilds stand in for any colour)
        reach = [hand[colour] + hand[WILD] for colour in EMPIRES]
        for start in sorted(set(self.ships[player])):
            start_space = self.board.coasts[start].space
            for end, dist in self.distances(start).items():
                space = self.board.coasts[end].space
                colour = self.chips[space]
                if dist == 0 or colour < 0 or dist > reach[colour]:
                    continue
                counts = counts_cache.get(space) or counts_cache.setdefault(space, self.ships_at(space))
                if space == start_space:
                    # ruling (`ships_change_coast`): from one coast of 16 round the toe to the other
                    # (16w-17-16e, two moves) is a move that ends where it began; the moving ship is
                    # already counted there, so the limit sees the space as it will be
                    if not self.rules.ships_change_coast:
                        continue
                    counts = list(counts)
                    counts[player] -= 1
                if not self.has_room(player, space, counts):
                    continue
                owner = self.cities[space]
                if owner >= 0 and owner != player:
                    # "he must give that player any one of his commerce cards": the player chooses which, from
                    # the hand left after paying the move (ruling: nothing if none is left)
                    left = list(hand)
                    for k in colour_payment(hand, colour, dist):
                        left[k] -= 1
                    tolls = [k for k in range(CARD_KINDS) if left[k]]
                    if tolls:
                        moves.extend(MoveShip(labels[start], labels[end], k) for k in tolls)
                        continue
                moves.append(MoveShip(labels[start], labels[end]))
        return moves

    def city_builds(self, player: int) -> list[BuildCity]:
        if sum(1 for owner in self.cities if owner == player) >= self.rules.cities_per_player:
            return []
        builds = []
        for space in sorted(set(self.ship_spaces(player))):
            counts = self.ships_at(space)
            colour = self.chips[space]
            if self.cities[space] >= 0 or colour < 0 or sum(counts) != counts[player]:
                continue
            cost = self.rules.city_cost_two_ships if counts[player] >= 2 else self.rules.city_cost
            if colour_payment(self.hands[player], colour, cost) is not None:
                builds.append(BuildCity(space))
        return builds

    def ship_builds(self, player: int) -> list[BuildShip]:
        rules = self.rules
        if len(self.ships[player]) >= rules.ships_per_player:
            return []
        hand = self.hands[player]
        builds = []
        spaces = [s for s, owner in enumerate(self.cities) if owner == player]
        if self.cities[TYROS] < 0:
            spaces.append(TYROS)
        for space in sorted(spaces):
            counts = self.ships_at(space)
            present = sum(counts)
            if rules.ship_limit_on_build and not self.has_room(player, space, counts):
                continue
            if space == TYROS and self.cities[TYROS] < 0:
                # "a number of cards equal to the number of ships in the Tyros space (plus one for his new
                # ship). The cards may be of any colour(s)": every choice of that many cards is an action
                builds.extend(BuildShip(TYROS, paid) for paid in multisets(tuple(hand), present + 1))
                continue
            matching = colour_payment(hand, self.chips[space], 1)
            if matching is None:
                continue
            # one card of any colour per ship already there ("At least one of the cards must match"),
            # each choice an action
            left = list(hand)
            left[matching[0]] -= 1
            builds.extend(BuildShip(space, extra) for extra in multisets(tuple(left), present))
        return builds

    def ship_payment(self, hand: list[int], action: BuildShip) -> Cards:
        """All the cards a ship built by `action` costs: in Tyros while it has no city the cards chosen,
        elsewhere the matching card (matching cards before wilds) and the cards chosen beside it."""
        if action.space == TYROS and self.cities[TYROS] < 0:
            return action.extra
        return colour_payment(hand, self.chips[action.space], 1) + action.extra

    def bank_trades(self, player: int) -> list:
        hand = tuple(self.hands[player])
        # ruling: swapping k cards needs k cards in the draw pile, which is never reshuffled in a round
        most = min(self.rules.bank_swap_max, sum(self.deck), sum(hand))
        takes = tuple(k for k in range(CARD_KINDS) if self.discard[k]) if sum(hand) >= self.rules.bank_buy_cost else ()
        return [*bank_swaps(hand, most), *bank_buys(hand, self.rules.bank_buy_cost, takes)]

    def offers(self, player: int) -> list[Offer]:
        """The offers modelled (rule `trade_offers`, a ruling): by default one or two cards of a kind for one
        card of another kind; one offer a turn, none once the player has made its trades of the round, and none
        that no other player could take under rule `trade_guard`."""
        if self.offered or self.trades_used_up(player):
            return []
        most_given, most_asked = TRADE_OFFERS[self.rules.trade_offers]
        listed = offers(tuple(min(count, most_given) for count in self.hands[player]), most_given, most_asked)
        if not self.trades_made:  # no trade yet this round: no guard bars one
            return list(listed)
        others = [(player + i) % self.n for i in range(1, self.n)]
        return [o for o in listed if not all(self.guard_bars(player, q, o.give, o.get) for q in others)]

    def trades_used_up(self, player: int) -> bool:
        """Whether `player` has made as many trades as offering player this round as rule `trade_guard` allows
        ('1-a-round', '3-a-round'; the other guards cap nothing). A player may still answer the others' offers."""
        most = self.rules.trade_cap()
        return most > 0 and self.trades_this_round[player] >= most

    def guard_bars(self, player: int, other: int, give: Cards, get: Cards) -> bool:
        """Whether rule `trade_guard` (a simulation guard) bars `player` giving `give` to `other` for `get`.

        No sentence limits trades, and a round ends only "when all players pass consecutively"; a trade conserves
        cards, but every other card action spends cards or the draw pile, so a round can go on forever only
        through trades. 'no-repeated-hands' bars a trade after which every player holds the hands they held
        earlier since the last card action other than a trade (the hands are finite, so every round ends; it
        binds only going round in a circle), and a trade after `TRADES_IN_A_ROW` in a row; 'no-repeat' bars a
        trade identical to, or exactly undoing, one the two made this round (whoever offered it).
        """
        guard = self.rules.trade_guard
        if guard == "no-repeated-hands":
            return (len(self.changes_seen) > TRADES_IN_A_ROW
                    or self.change_after(player, other, give, get) in self.changes_seen)
        if guard == "no-repeat":
            return (player, other, give, get) in self.trades_made or (player, other, get, give) in self.trades_made
        return False

    def no_change(self) -> tuple[tuple[int, ...], ...]:
        return ((0,) * CARD_KINDS,) * self.n

    def change_after(self, player: int, other: int, give: Cards, get: Cards) -> tuple[tuple[int, ...], ...]:
        """`changes_seen[-1]` after `player` gives `give` to `other` for `get`: the hands the players would then
        hold, less those they held after the last card action other than a trade (so it reads no hidden card)."""
        hands = [list(change) for change in self.changes_seen[-1]]
        for k in give:
            hands[player][k] -= 1
            hands[other][k] += 1
        for k in get:
            hands[other][k] -= 1
            hands[player][k] += 1
        return tuple(tuple(hand) for hand in hands)

    def card_actions(self, player: int) -> list:
        return [
            Pass(),
            *self.ship_moves(player),
            *self.city_builds(player),
            *self.ship_builds(player),
            *self.bank_trades(player),
            *self.offers(player),
        ]

    def pay(self, player: int, cards: Cards, to: list[int] | None = None) -> None:
        """Move `cards` from a player's hand to the discard pile (or to another hand)."""
        target = self.discard if to is None else to
        hand = self.hands[player]
        for k in cards:
            if hand[k] <= 0:
                raise ValueError(f"player {player} has no {COLOUR_NAMES[k]} card to pay")
            hand[k] -= 1
            target[k] += 1

    def draw(self, player: int, count: int) -> None:
        for _ in range(count):
            pick = int(self.rng.integers(sum(self.deck)))
            for kind in range(CARD_KINDS):
                if pick < self.deck[kind]:
                    self.deck[kind] -= 1
                    self.hands[player][kind] += 1
                    break
                pick -= self.deck[kind]

    def action_done(self) -> None:
        self.passes_in_row = 0
        self.offered = False
        self.actor = (self.actor + 1) % self.n

    def card_action(self, action) -> None:
        player, kind = self.actor, type(action)
        legal = {MoveShip: self.ship_moves, BuildCity: self.city_builds, BuildShip: self.ship_builds,
                 BankSwap: self.bank_trades, BankBuy: self.bank_trades}.get(kind)
        if legal is None or action not in legal(player):
            raise ValueError(f"illegal action for player {player}: {action!r}")
        hand = self.hands[player]
        if kind is MoveShip:
            start, end = self.game.coast_ids[action.start], self.game.coast_ids[action.end]
            space = self.board.coasts[end].space
            self.pay(player, colour_payment(hand, self.chips[space], self.distances(start)[end]))
            self.ships[player].remove(start)
            self.ships[player].append(end)
            owner = self.cities[space]
            if owner >= 0 and owner != player:
                # the toll: the card the player chose to the city's owner (ruling: nothing if the hand is empty)
                if action.toll is not None:
                    self.pay(player, (action.toll,), to=self.hands[owner])
                    self.counters[f"tolls_paid_p{player}"] += 1
                if self.narration is not None:
                    self.narration.append(words.toll(player, owner, action.toll, space))
            self.counters[f"moves_p{player}"] += 1
        elif kind is BuildCity:
            space = action.space
            counts = self.ships_at(space)
            cost = self.rules.city_cost_two_ships if counts[player] >= 2 else self.rules.city_cost
            self.pay(player, colour_payment(hand, self.chips[space], cost))
            self.cities[space] = player
            coasts = [c for c in self.ships[player] if self.board.coasts[c].space == space]
            self.ships[player].remove(max(coasts))  # on 16 the east-coast ship goes; new ones start west
            # both readings of "the first player to build a city in each of the four empires" are tracked;
            # rule first_city_bonus (a ruling) says which scores
            self.city_colours[player].add(self.chips[space])
            if len(self.city_colours[player]) == 4 and self.all_empires_first < 0:
                self.all_empires_first = player
                if self.narration is not None and self.rules.first_city_bonus == "all-four":
                    self.narration.append(words.first_in_all_empires(player, self.rules.all_empires_bonus))
            if self.first_cities[self.chips[space]] < 0:
                self.first_cities[self.chips[space]] = player
                if self.narration is not None:
                    bonus = self.rules.all_empires_bonus if self.rules.first_city_bonus == "each-empire" else None
                    self.narration.append(words.first_city(player, self.chips[space], bonus))
            self.counters[f"cities_built_p{player}"] += 1
        elif kind is BuildShip:
            space = action.space
            self.pay(player, self.ship_payment(hand, action))
            self.ships[player].append(self.board.space_coasts[space][0])
            self.counters[f"ships_built_p{player}"] += 1
        elif kind is BankSwap:
            self.pay(player, action.give)
            before = hand[:] if self.narration is not None else None
            self.draw(player, len(action.give))
            if before is not None:
                drawn = tuple(k for k in range(CARD_KINDS) for _ in range(hand[k] - before[k]))
                self.narration.append(words.cards_drawn(player, drawn))
            self.counters[f"bank_trades_p{player}"] += 1
        elif kind is BankBuy:
            # ruling: the card is chosen from the discard pile as it was before this discard
            self.discard[action.take] -= 1
            hand[action.take] += 1
            self.pay(player, action.give)
            self.counters[f"bank_trades_p{player}"] += 1
        self.changes_seen = [self.no_change()]  # a card action other than a trade: rule `trade_guard`
        self.action_done()

    # ---- the play log (only while `narration` is a list) ----------------------
    def describe(self, action) -> str:
        """The current player's action in plain words, with what it costs (asked before it is applied)."""
        return words.describe(self, action)

    # ---- results -------------------------------------------------------------
    def final_scores(self, items: list[tuple[int, int, str]] | None = None) -> list[Score]:
        """Each player's score; `items`, if given, receives each award (see `score_game`)."""
        return score_game(self.rules, self.n, self.chips, self.cities,
                          [self.ship_spaces(p) for p in range(self.n)], self.all_empires_first, self.first_cities,
                          items)

    def scores(self) -> list[float]:
        return [float(s.total) for s in self.final_scores()]

    def winners(self) -> list[int]:
        return winners(self.final_scores())

    def tiles_left(self) -> int:
        return len(self.tile_pile) + sum(len(h) for h in self.tile_hands)

    def stats(self) -> dict[str, float]:
        out: dict[str, float] = {"rounds": self.round, "tiles_left": self.tiles_left(),
                                 "tyros_joined": float(self.chips[TYROS] >= 0)}
        for empire, size in zip(EMPIRES, self.empire_sizes(), strict=True):
            out[f"size_{COLOUR_NAMES[empire]}"] = size
        for p, score in enumerate(self.final_scores()):
            out[f"city_points_p{p}"] = score.city_points
            out[f"ship_points_p{p}"] = score.ship_points
            out[f"bonus_points_p{p}"] = score.all_empires_bonus + score.most_cities_bonus
            out[f"cities_p{p}"] = sum(1 for owner in self.cities if owner == p)
            out[f"ships_p{p}"] = len(self.ships[p])
            for name in ("tiles", "blocked", "moves", "cities_built", "ships_built", "bank_trades", "offers",
                         "trades", "tolls_paid", "passes"):
                out[f"{name}_p{p}"] = self.counters[f"{name}_p{p}"]
        return out

    def __repr__(self) -> str:
        chips = " ".join(f"{s}:{COLOUR_NAMES[c][0]}" for s, c in enumerate(self.chips) if c >= 0)
        return f"TyrosState(round {self.round}, {self.phase}, chips {chips})"


def make_game(rules: Rules, num_players: int) -> TyrosGame:
    return TyrosGame(rules, num_players)
