"""Tyros rules as data: every rule of the rulebook with its default; the readings a designer could want otherwise
are rulings (fields marked `ruling=`), and `trade_guard`, a device the rulebook's text does not contain, is a
simulation guard (`kind="guard"`)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from itertools import combinations

from tyrsim.core.engine.datafile import data_file_cache
from tyrsim.core.engine.rules import RuleError, RuleSet, rule
from tyrsim.games.tyros.board import conflicting, load_board

SETUPS = ("first-game", "variable")
FIRST_CITY_BONUSES = ("all-four", "each-empire")
# the trade offers modelled (rule `trade_offers`, a ruling): the most cards of one kind given, and of another
# kind asked for, in one offer
TRADE_OFFERS = {"two-for-one": (2, 1), "three-for-three": (3, 3)}
# the guards against endless trading (rule `trade_guard`, a simulation guard); the caps: the most trades a player
# makes as the offering player in one round
TRADE_GUARDS = ("no-repeated-hands", "no-repeat", "none", "1-a-round", "3-a-round")
TRADE_CAPS = {"1-a-round": 1, "3-a-round": 3}
# 'no-repeated-hands' remembers the hands since the last card action that was not a trade; so that a position
# stays small (the compiled engine holds it in fixed arrays), at most this many trades follow one another with no
# other card action between (a pass or a refused offer is none); no measured game comes near it
TRADES_IN_A_ROW = 127
# what Tyros's chip does when a second empire reaches 31 or 32 (rule `tyros_chip`, a ruling)
TYROS_CHIPS = ("first-keeps", "latest-replaces")


@data_file_cache(maxsize=16)
def variable_setup_can_stall(board_file: str, both_beside_tyros: bool) -> tuple[int, ...] | None:
    """Tiles on which the 'variable' set-up can stall on this board: at most three starting spaces
    that every other tile conflicts with (`conflicting`), so a fourth empire has nowhere to start; None if
    there are none.

    The set-up turns tiles in random order and keeps each one that conflicts with no empire chosen
    so far, so it stalls for some order exactly when such a set (a maximal one of fewer than four) exists.
    """
    board = load_board(board_file)
    clash = partial(conflicting, board, both_beside_tyros=both_beside_tyros)
    for size in range(1, 4):
        for chosen in combinations(board.tiles, size):
            if any(clash(a, b) for a, b in combinations(chosen, 2)):
                continue
            if all(t in chosen or any(clash(t, c) for c in chosen) for t in board.tiles):
                return chosen
    return None


@dataclass(frozen=True)
class Rules(RuleSet):
    """Tyros rules: the rulebook's numbers, the readings chosen where its words are open (rulings, each with its
    alternatives) and one simulation guard (`trade_guard`)."""

    # --- preparing for play ---
    setup: str = rule(
        "variable",
        "empire set-up: 'first-game' (chips on 7, 13, 23, 26) or 'variable' (four drawn tiles, re-drawn if adjacent)",
        choices=SETUPS,
    )
    # ruling (an assumed component): the rulebook does not print the map; the alternative keeps every
    # fact its examples force and guesses the rest the other way (docs/tyros.md, "The board")
    board: str = rule(
        "", "board data file (TOML); empty: the bundled reconstruction of the printed map", data_file=True,
        ruling=("bundled:board_alt.toml", "bundled:board_east.toml"),
    )
    tiles_per_player: int = rule(4, "map tiles dealt to each player", low=1, high=8)
    chips_per_empire: int = rule(
        20, "empire chips of each colour; an empire without chips left cannot grow", low=1, high=40
    )
    starting_ships: int = rule(2, "ships each player places in Tyros at the start", low=0, high=4)
    ships_per_player: int = rule(10, "ships in each player's colour", low=1, high=20)
    cities_per_player: int = rule(10, "city markers in each player's colour", low=1, high=20)
    # --- commerce cards ---
    cards_per_colour: int = rule(14, "commerce cards in each of the four empire colours", low=1, high=30)
    wild_cards: int = rule(4, "grey-bordered wild commerce cards", low=0, high=20)
    cards_dealt_3p: int = rule(12, "commerce cards dealt to each player per round with 3 players", low=1, high=20)
    cards_dealt_4p: int = rule(10, "commerce cards dealt to each player per round with 4 players", low=1, high=20)
    cards_kept: int = rule(3, "commerce cards a player may keep at the end of a round", low=0, high=10)
    # --- expanding empires ---
    first_round_passes: int = rule(2, "expansion passes in the first round", low=1, high=4)
    later_passes_3p: int = rule(2, "expansion passes in each later round with 3 players", low=1, high=4)
    later_passes_4p: int = rule(1, "expansion passes in each later round with 4 players", low=1, high=4)
    # --- card actions ---
    ships_per_space: int = rule(2, "most ships in a space when a move ends", low=1, high=6)
    tyros_ships_per_player: int = rule(
        2, "ships each player may have in Tyros while it has no city (the Tyros exception)", low=1, high=6
    )
    city_cost: int = rule(5, "cards of the space's colour to build a city with one ship there", low=1, high=10)
    city_cost_two_ships: int = rule(
        4, "cards of the space's colour to build a city with two ships there", low=1, high=10
    )
    bank_swap_max: int = rule(3, "most cards swapped 1:1 with the draw pile in one action", low=0, high=6)
    bank_buy_cost: int = rule(3, "cards discarded to take one card of choice from the discard pile", low=1, high=6)
    # --- scoring ---
    city_points: tuple = rule((12, 10, 9, 8), "city control points by empire size rank, largest first")
    ship_points: tuple = rule((6, 5, 4, 3), "ship control points by empire size rank, largest first")
    all_empires_bonus: int = rule(
        7, "points of the first-city bonus (rule 'first_city_bonus' says who gets it)", low=0, high=30
    )
    most_cities_bonus: int = rule(
        7, "bonus per empire to the player who alone has the most cities there", low=0, high=30
    )
    # --- rulings (see docs/tyros.md, "Rulings"; each is a reading the rulebook's words leave open) ---
    start_both_beside_tyros: bool = rule(
        True, "variable set-up: empires may start on both spaces next to Tyros (31 and 32), which are not "
        "neighbours: 'No two empires may begin on spaces that are adjacent horizontally or vertically'", ruling=True,
    )
    first_city_bonus: str = rule(
        "all-four", "who gets the bonus 'The first player to build a city in each of the four empires receives 7 "
        "points': 'all-four' (one bonus, to the first with a city in all four; the rule summary: 'in every "
        "empire') or 'each-empire' (the first city builder in each empire)",
        choices=FIRST_CITY_BONUSES, ruling=True,
    )
    ships_pass_unclaimed: bool = rule(
        True, "a ship may pass through spaces without an empire chip (only where it ends needs one): 'A ship may "
        "only move to a space belonging to an empire'", ruling=True,
    )
    ships_change_coast: bool = rule(
        True, "a ship may move round the toe from one coast of 16 to the other (16-17-16, two cards of 16's "
        "colour), ending where it began: 'The number of cards must equal the number of spaces moved'", ruling=True,
    )
    tyros_extends_empire: bool = rule(
        True, "once Tyros holds an empire chip, a tile for 31 or 32 may extend that empire from Tyros: 'a space "
        "that is adjacent to a space with an empire chip'", ruling=True,
    )
    tyros_counts_for_size: bool = rule(
        True, "Tyros counts as one space of its empire's size: 'the more spaces belonging to it'", ruling=True
    )
    ships_pass_crowded: bool = rule(
        True, "a ship may pass through a space holding more ships than the ships-per-space limit (Tyros while it "
        "has no city): 'A ship may move through a space with 1 or 2 ships already in it'", ruling=True,
    )
    trade_offers: str = rule(
        "two-for-one", "the offers modelled of 'any number of cards may be traded, even unequal numbers': "
        "'two-for-one' (one or two cards of one kind for one card of another) or 'three-for-three' (one to "
        "three cards of one kind for one to three of another)",
        choices=tuple(TRADE_OFFERS), ruling=True,
    )
    # simulation guard (a device the rulebook's text does not contain): no sentence limits trades, and "The round
    # ends when all players pass consecutively", so two players who keep accepting each other's offers can stretch
    # a round forever (searching players swap cards back and forth). 'no-repeated-hands' binds only that
    # repetition: the hands reachable by trades are finite, and every other action spends cards or the draw pile,
    # so every round ends (docs/tyros.md, ruling 16)
    trade_guard: str = rule(
        "no-repeated-hands", "a simulation guard against endless trading (action E): 'no-repeated-hands' (no "
        "trade that gives every player the hands they held earlier since the last card action other than a trade, "
        f"and at most {TRADES_IN_A_ROW} trades in a row), 'no-repeat' (no trade identical to, or exactly undoing, "
        "one the same two players made this round), 'none' (the rulebook's letter: a round ends only 'when all "
        "players pass consecutively', and searching players may never end one), '1-a-round' or '3-a-round' (the "
        "most trades a player makes as the offering player in one round)",
        choices=TRADE_GUARDS, ruling=True, kind="guard",
    )
    tyros_chip: str = rule(
        "first-keeps", "Tyros's empire chip ('If an empire chip is placed on space 31 or 32, adjacent to Tyros, then "
        "immediately put an empire chip of the same colour on Tyros'): 'first-keeps' (the first empire to reach it "
        "keeps it for good) or 'latest-replaces' (a later empire placing a chip on 31 or 32 replaces it; the old "
        "chip goes back to the box)",
        choices=TYROS_CHIPS, ruling=True,
    )
    ship_limit_on_build: bool = rule(
        True, "building a ship must respect the ships-per-space limit, like the end of a move: 'at the end of a "
        "ship's movement, there can be at most 2 ships in a space'", ruling=True,
    )

    def check(self) -> None:
        self.check_file("board", load_board)
        stall = variable_setup_can_stall(self.board, self.start_both_beside_tyros) if self.setup == "variable" else None
        if stall:
            raise RuleError(
                f"rule 'board': {self.board or 'the bundled board'}: the 'variable' set-up can stall: once empires "
                f"start on {', '.join(map(str, stall))}, every other tile neighbours one of them (or Tyros with "
                "another); use rule setup = 'first-game' or a board with room for four apart"
            )
        for name in ("city_points", "ship_points"):
            points = getattr(self, name)
            if len(points) != 4 or not all(isinstance(p, int) and p >= 0 for p in points):
                raise RuleError(f"rule {name!r}: {points!r} is not allowed; expected four whole numbers >= 0")
        if self.starting_ships > self.ships_per_player:
            raise RuleError(f"rule 'starting_ships': {self.starting_ships} is more than the {self.ships_per_player} "
                            "ships each player has (rule 'ships_per_player')")
        deck = 4 * self.cards_per_colour + self.wild_cards
        for players, dealt in ((3, self.cards_dealt_3p), (4, self.cards_dealt_4p)):
            if players * (dealt + self.cards_kept) > deck:
                raise RuleError(
                    f"rule 'cards_dealt_{players}p': {players} players x ({dealt} dealt + {self.cards_kept} kept)"
                    f" is more than the {deck} commerce cards"
                )

    def trade_cap(self) -> int:
        """The most trades a player makes as the offering player in one round under rule `trade_guard` (0: no cap)."""
        return TRADE_CAPS.get(self.trade_guard, 0)

    def cards_dealt(self, players: int) -> int:
        return self.cards_dealt_3p if players == 3 else self.cards_dealt_4p

    def expansion_passes(self, round_number: int, players: int) -> int:
        """Expansion passes in round `round_number` (1 = first round)."""
        if round_number == 1:
            return self.first_round_passes
        return self.later_passes_3p if players == 3 else self.later_passes_4p
