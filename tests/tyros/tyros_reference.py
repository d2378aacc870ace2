"""A slow reference for Tyros's legal actions, written from the rulebook's words.

Test code, not engine code: it reads the position from the engine's state fields
(chips, cities, ships as coasts, hands, piles, whose turn) and the map from the
board file, and lists every legal action again from the rules, with no caches
and no shortcuts: ship moves by a fresh breadth-first search over the sea
connections of each ship, limits by counting ships one by one, payments by
enumerating hands. Where the rulebook leaves a choice to the engine's modelling
(docs/tyros.md, "Rulings": which cards pay a colour cost, the trade offers
modelled, keeping three cards) or a simulation guard (which trades a round may
hold), it follows that ruling as documented, not the engine's code. Cards the
rulebook lets the player choose ("any one of his commerce cards", "any
colour(s)") are listed choice by choice.
"""

from __future__ import annotations

from itertools import combinations_with_replacement

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

TYROS = 0
ORANGE, YELLOW, GREEN, VIOLET, WILD = range(5)
KINDS = range(5)


def choices(hand: list[int], size: int) -> list[tuple[int, ...]]:
    """Every distinct multiset of `size` cards the hand holds (sorted tuples of kinds)."""
    return [combo for combo in combinations_with_replacement(KINDS, size)
            if all(combo.count(k) <= hand[k] for k in KINDS)]


def can_pay_colour(hand: list[int], colour: int, amount: int) -> bool:
    """`amount` cards of `colour`, grey-bordered wild cards standing in for any colour."""
    return hand[colour] + hand[WILD] >= amount


class Reference:
    """The legal actions of one position, from the rulebook."""

    def __init__(self, state) -> None:
        self.state = state
        self.rules = state.rules
        self.board = state.board
        self.players = state.n

    # ---- reading the position ------------------------------------------------
    def space_of(self, coast: int) -> int:
        return self.board.coasts[coast].space

    def label(self, coast: int) -> str:
        return self.board.coasts[coast].label

    def ships_in(self, space: int) -> list[int]:
        """How many ships each player has in `space`, counted ship by ship."""
        counts = [0] * self.players
        for player in range(self.players):
            for coast in self.state.ships[player]:
                if self.space_of(coast) == space:
                    counts[player] += 1
        return counts

    def has_chip(self, space: int) -> bool:
        return self.state.chips[space] >= 0

    def chips_on_board(self, colour: int) -> int:
        return sum(1 for c in self.state.chips if c == colour)

    # ---- the position's legal actions --------------------------------------------
    def legal_actions(self) -> list:
        phase = self.state.phase
        if phase == "expand":
            return self.expansion()
        if phase == "actions":
            return self.card_actions()
        if phase == "offer":
            return self.answers()
        if phase == "partner":
            return self.partners()
        if phase == "keep":
            return self.keeping()
        return []

    # "Play one map tile corresponding to a space that is adjacent to a space with an empire
    # chip ... mark this space with a chip matching the colour of the neighbouring empire.
    # If there is more than one adjacent empire, the player may choose which one to expand."
    # "If a player cannot play any of his map tiles ... put one on the bottom of the pile"
    def expansion(self) -> list:
        player = (self.state.start_player + self.state.turn) % self.players
        tiles = self.state.tile_hands[player]
        plays = []
        for tile in tiles:
            if self.has_chip(tile):
                continue
            colours = set()
            for neighbour in self.board.land[tile]:
                if neighbour == TYROS and not self.rules.tyros_extends_empire:
                    continue  # ruling: Tyros's chip lets no empire grow
                if self.has_chip(neighbour):
                    colours.add(self.state.chips[neighbour])
            for colour in colours:
                # an empire whose 20 chips are all on the board cannot be marked on another space
                if self.chips_on_board(colour) < self.rules.chips_per_empire:
                    plays.append(PlayTile(tile, colour))
        if plays:
            return plays
        return [Blocked(tile) for tile in tiles]

    def card_actions(self) -> list:
        player = self.state.actor
        return [Pass(), *self.moves(player), *self.cities(player), *self.ship_builds(player),
                *self.bank(player), *self.offers(player)]

    def move_lengths(self, start: int) -> dict[int, int]:
        """Fewest moves from coast `start` to every coast, over sea connections ("Ships can only move
        horizontally or vertically to adjacent spaces. The spaces must be connected by sea")."""
        length = {start: 0}
        frontier = [start]
        while frontier:
            following = []
            for coast in frontier:
                space = self.space_of(coast)
                # ruling `ships_pass_unclaimed`: with False, every space passed through needs a chip
                if coast != start and not self.rules.ships_pass_unclaimed and not self.has_chip(space):
                    continue
                # ruling `ships_pass_crowded`: with False, "A ship may move through a space with 1 or 2 ships
                # already in it" and through no fuller space (the moving ship itself is not "already in" it)
                if coast != start and not self.rules.ships_pass_crowded:
                    already = sum(self.ships_in(space)) - (space == self.space_of(start))
                    if already > self.rules.ships_per_space:
                        continue
                for other in self.board.sea[coast]:
                    if other not in length:
                        length[other] = length[coast] + 1
                        following.append(other)
            frontier = following
        return length

    def room_after(self, player: int, space: int, counts: list[int]) -> bool:
        """Whether `space` may hold `counts` ships after a move or a build: "at most 2 ships in a space"
        except "As long as there is no city marker in Tyros, each player may have two ships there"."""
        if space == TYROS and self.state.cities[TYROS] < 0:
            return counts[player] <= self.rules.tyros_ships_per_player
        return sum(counts) <= self.rules.ships_per_space

    # A. "A ship may only move to a space belonging to an empire ... discard a number of commerce
    # cards that match the colour of the empire that the ship is moving to. The number of cards
    # must equal the number of spaces moved." "at the end of a ship's movement, there can be at
    # most 2 ships in a space." "If a player ends his movement in a space with a city belonging to
    # another player, he must give that player any one of his commerce cards" (ruling: none if the
    # move leaves no card; the move's cost is paid matching cards first).
    def moves(self, player: int) -> list:
        hand = self.state.hands[player]
        out = set()
        for start in self.state.ships[player]:
            for end, length in self.move_lengths(start).items():
                space = self.space_of(end)
                if end == start or not self.has_chip(space):
                    continue
                if space == self.space_of(start) and not self.rules.ships_change_coast:
                    continue  # ruling: a move must end in another space
                if not can_pay_colour(hand, self.state.chips[space], length):
                    continue
                counts = self.ships_in(space)
                counts[player] += 1
                if space == self.space_of(start):
                    counts[player] -= 1  # the ship was there already
                if not self.room_after(player, space, counts):
                    continue
                owner = self.state.cities[space]
                left = list(hand)
                colour = self.state.chips[space]
                for _ in range(length):
                    left[colour if left[colour] else WILD] -= 1
                if owner >= 0 and owner != player and sum(left):
                    out.update(MoveShip(self.label(start), self.label(end), kind) for kind in KINDS if left[kind])
                else:
                    out.add(MoveShip(self.label(start), self.label(end)))
        return sorted(out, key=repr)

    # B. "he must have one or two ships in the space, and no other player may have a ship in the
    # space ... discard 5 commerce cards matching the colour of the empire chip in the space, or
    # only 4 commerce cards if he has two ships there." "Only one city may be built in each space."
    def cities(self, player: int) -> list:
        built = sum(1 for owner in self.state.cities if owner == player)
        if built >= self.rules.cities_per_player:
            return []
        out = set()
        for coast in self.state.ships[player]:
            space = self.space_of(coast)
            counts = self.ships_in(space)
            if self.state.cities[space] >= 0 or not self.has_chip(space):
                continue
            if any(counts[other] for other in range(self.players) if other != player):
                continue
            cost = self.rules.city_cost_two_ships if counts[player] >= 2 else self.rules.city_cost
            if can_pay_colour(self.state.hands[player], self.state.chips[space], cost):
                out.add(BuildCity(space))
        return sorted(out, key=repr)

    # C. "A player may build a ship in a space with one of his own cities, or in Tyros if no other
    # player has built a city there yet ... discard one commerce card matching the colour of the
    # empire chip in the space. If there is already a ship (friend or foe) in the space, the
    # player must discard two commerce cards. At least one of the cards must match" (the rule
    # summary: "plus 1 card for each existing ship"). In Tyros without a city: "a number of cards
    # equal to the number of ships in the Tyros space (plus one for his new ship) ... any colour(s)".
    # The cards of any colour are the player's choice: every choice is a build.
    def ship_builds(self, player: int) -> list:
        if len(self.state.ships[player]) >= self.rules.ships_per_player:
            return []
        hand = self.state.hands[player]
        places = [s for s in self.board.spaces if self.state.cities[s] == player]
        if self.state.cities[TYROS] < 0:
            places.append(TYROS)
        out = []
        for space in sorted(set(places)):
            counts = self.ships_in(space)
            present = sum(counts)
            if self.rules.ship_limit_on_build:  # ruling: the limit of a move's end binds a build too
                after = list(counts)
                after[player] += 1
                if not self.room_after(player, space, after):
                    continue
            if space == TYROS and self.state.cities[TYROS] < 0:
                out.extend(BuildShip(TYROS, paid) for paid in choices(hand, present + 1))
                continue
            colour = self.state.chips[space]
            if not can_pay_colour(hand, colour, 1):
                continue
            # ruling: the matching card is a card of the colour if the hand has one, else a wild
            left = list(hand)
            left[colour if hand[colour] else WILD] -= 1
            out.extend(BuildShip(space, extra) for extra in choices(left, present))
        return out

    # D. "discard up to three commerce cards, and draw the same number of cards from the draw pile
    # - if enough cards remain" / "discard any three commerce cards, and choose any one card in
    # the discard pile" (ruling: the pile as it was before these three are discarded).
    def bank(self, player: int) -> list:
        hand = self.state.hands[player]
        out = []
        for size in range(1, self.rules.bank_swap_max + 1):
            if size <= sum(self.state.deck):
                out.extend(BankSwap(give) for give in choices(hand, size))
        for give in choices(hand, self.rules.bank_buy_cost):
            out.extend(BankBuy(give, take) for take in KINDS if self.state.discard[take])
        return out

    # E. "If a trading partner is found, any number of cards may be traded, even unequal numbers": the
    # offers modelled (ruling `trade_offers`) are cards of one kind for cards of another kind, one or two
    # for one ("two-for-one") or one to three for one to three ("three-for-three"); one offer a turn.
    # "The round ends when all players pass consecutively", and nothing bounds how often a player may trade:
    # the simulation guard `trade_guard` does. 'no-repeated-hands' (the default): no trade after which every player
    # holds the hands they held after an earlier card action since the last one that was not a trade (the state's
    # `changes_seen`: the hands then, less the hands after that action), nor more than 127 trades in a row;
    # 'no-repeat': no trade identical to, or exactly undoing, one the same two players made this round. Under
    # either, an offer nobody could take is not made and a player the guard bars may only refuse; '1-a-round',
    # '3-a-round': a player who has made that many trades this round as the offering player offers no more;
    # 'none': no bound.
    def offers(self, player: int) -> list:
        if self.state.offered:
            return []
        cap = {"1-a-round": 1, "3-a-round": 3}.get(self.rules.trade_guard)
        if cap and self.state.trades_this_round[player] >= cap:
            return []
        most_given, most_asked = {"two-for-one": (2, 1), "three-for-three": (3, 3)}[self.rules.trade_offers]
        hand = self.state.hands[player]
        listed = [Offer((give,) * count, (get,) * asked) for give in KINDS for count in range(1, most_given + 1)
                  if hand[give] >= count for get in KINDS if get != give for asked in range(1, most_asked + 1)]
        others = [p for p in range(self.state.n) if p != player]
        return [o for o in listed if any(not self.repeats(player, q, o.give, o.get) for q in others)]

    def repeats(self, player: int, other: int, give: tuple, get: tuple) -> bool:
        """Whether the guard bars `player` giving `give` to `other` for `get`."""
        if self.rules.trade_guard == "no-repeated-hands":
            seen = [[list(hand) for hand in change] for change in self.state.changes_seen]
            after = [list(hand) for hand in seen[-1]]
            for card in give:
                after[player][card] -= 1
                after[other][card] += 1
            for card in get:
                after[other][card] -= 1
                after[player][card] += 1
            return len(seen) - 1 >= 127 or after in seen
        if self.rules.trade_guard != "no-repeat":
            return False
        for a, b, given, received in self.state.trades_made:
            if (a, b) == (player, other) and sorted(given) == sorted(give) and sorted(received) == sorted(get):
                return True  # the same cards the same way
            if (a, b) == (other, player) and sorted(given) == sorted(give) and sorted(received) == sorted(get):
                return True  # the cards going back: other gives what it received
        return False

    # "Any number of players may be asked": each answers in turn, accepting only with the cards asked for
    # (and, under 'no-repeat', only where the trade is new between the two this round).
    def answers(self) -> list:
        offer = self.state.offer
        responder = offer.waiting[0]
        hand = self.state.hands[responder]
        if all(hand[k] >= offer.get.count(k) for k in KINDS) and not self.repeats(
                self.state.actor, responder, offer.give, offer.get):
            return [Accept(), Refuse()]
        return [Refuse()]

    # "but only one player may be traded with": where several accepted, the offering player picks one.
    def partners(self) -> list:
        return [TradeWith(p) for p in self.state.offer.accepted]

    # "Each player may retain 3 commerce cards. The rest must be discarded." (ruling: a player with
    # more keeps exactly three; cards are never worth less than none)
    def keeping(self) -> list:
        player = self.state.keepers[0]
        return [Keep(cards) for cards in choices(self.state.hands[player], self.rules.cards_kept)]


def reference_actions(state) -> list:
    return Reference(state).legal_actions()
