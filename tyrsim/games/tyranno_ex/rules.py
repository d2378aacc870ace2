"""Tyranno Ex rules as data; every default is the rulebook's.

Rules marked `ruling=...` encode a reading of a sentence the rulebook leaves
open, or a component it does not print; the default is the most natural reading
of its words, and docs/tyranno_ex.md quotes the sentence and says why.
"""

from __future__ import annotations

from dataclasses import dataclass

from tyrsim.core.engine.rules import RuleError, RuleSet, rule
from tyrsim.games.tyranno_ex.cards import load_deck

TIE_RULES = ("reroll", "attacker", "defender")
MAJORITY_TIES = ("empty", "no_change", "chooser", "random")
AFTER_TRACK = ("unlimited", "last_field", "none")
END_DIRECTIONS = ("up", "down")
DIE_GAINS = ("completed", "any_change")
FIVE_TIMINGS = ("phase_end", "own_turn")
PLACEMENT_ORDERS = ("laps", "together")
SPECIAL_SPACE_HOLDS = ("several", "one")
MAJORITIES = ("most", "over_half")
FIVE_COUNTS = ("exact", "up_to")
TRACK_TIE_FIGHTS = ("order_only", "full_effects")
FIVE_DIE_ROUNDS = ("last_round", "tracker", "never")
FIRST_FIGHTERS = ("start_player", "next_start_player")
TWO_PLAYER_BATTLES = ("colours", "players")
WINNERS_WITHOUT_DIE = ("nothing", "earns_die")


@dataclass(frozen=True)
class Rules(RuleSet):
    """Tyranno Ex rules; defaults are the rulebook's."""

    # --- combat ("Combat" in the rulebook) ---
    die_faces: int = rule(6, "faces on a battle die", low=2, high=20)
    rounds_to_win: int = rule(2, "won combat rounds that end a fight (2 gives 2:0 or 2:1)", low=1, high=5)
    tie_rule: str = rule(
        "reroll",
        "a round with equal hits: 'reroll' (doesn't count), or won by the 'attacker' or 'defender'",
        choices=TIE_RULES,
    )
    max_strength: int = rule(6, "highest value a strength die can show", low=1, high=20)
    max_dice: int = rule(30, "most dice one side can roll (the game has 30 battle dice)", low=0, high=200)

    # --- components and set-up ("Components", "Setup") ---
    deck_file: str = rule(
        "", "TOML file with the animal cards' symbols; empty: the bundled balanced deck "
        "('bundled:deck_distinct.toml': every card shows three different symbols)",
        data_file=True, ruling=("bundled:deck_distinct.toml",),
    )
    chips_per_symbol: int = rule(21, "chips of each of the 4 symbols in the bag (84 in all)", low=1, high=100)
    chips_per_player: int = rule(12, "chips a player's storage tray is filled up to", low=0, high=40)
    homo_sapiens_die: int = rule(
        2, "value of the strength die Homo sapiens enters the board with (the rulebook gives no value; "
        "2 is what a newly earned die shows)", low=1, high=20, ruling=(3,),
    )

    # --- placing the animal cards ---
    placement_order: str = rule(
        "laps",
        "two cards per player (first round, after a double shift): 'laps' (one card per turn, twice round) "
        "or 'together' (both on one turn)",
        choices=PLACEMENT_ORDERS, ruling=True,
    )

    marker_stones: int = rule(
        5, "marker stones of each colour (a placed card is marked with one until it leaves the board; a colour "
        "with none left places no card); 0: they never run out", low=0, high=28, ruling=(0,),
    )

    # --- environmental change ---
    trade_limit: int = rule(3, "most chips one trade swaps", low=0, high=12)
    set_limit: int = rule(2, "most chips one turn sets onto the potential spaces", low=1, high=6)
    trade_rounds: int = rule(3, "trading is allowed in placement rounds 1 to this", low=0, high=20)
    die_rounds: int = rule(3, "a change earns or raises strength dice in placement rounds 1 to this", low=0, high=20)
    new_die: int = rule(2, "value of a newly earned strength die", low=1, high=20)
    die_gain: str = rule(
        "completed",
        "a change earns a die for a card whose symbols it 'completed' (all present after, not before), "
        "or for every card with all symbols present after 'any_change'",
        choices=DIE_GAINS, ruling=True,
    )
    majority: str = rule(
        "most",
        "'whichever symbol has a simple majority' among the revealed chips: the symbol with the 'most' chips, or "
        "only one with more than half of them ('over_half'; without one the space stays as it is)",
        choices=MAJORITIES, ruling=True,
    )
    majority_tie: str = rule(
        "empty",
        "revealed chips with no single most common symbol have no 'simple majority': 'empty' (the current chips, "
        "'immediately removed', are not replaced: the space shows no condition until a majority), 'no_change' "
        "(the old chips stay), or the 'chooser' (player who set chips) picks among the tied, or 'random'",
        choices=MAJORITY_TIES, ruling=True,
    )
    move_start: int = rule(1, "field of the Move marker at the start of every environment phase", low=1, high=20)
    end_start: int = rule(3, "field of the End marker at set-up", low=1, high=20)
    track_fields: int = rule(
        6, "fields on the round tracker (not printed in the rulebook); the End marker runs off after the last",
        low=1, high=20, ruling=(4, 8),
    )
    end_direction: str = rule(
        "up", "the End marker moves 'up' (more placement rounds each game round) or 'down' after scoring",
        choices=END_DIRECTIONS, ruling=True,
    )
    after_track: str = rule(
        "unlimited",
        "once End has run off the tracker: 'unlimited' (placement until a whole lap passes), "
        "'last_field' (End stays on the last field), or 'none' (no placement)",
        choices=AFTER_TRACK, ruling=True,
    )
    five_marker: bool = rule(True, "each player has the '5' marker (2 extra chips once per game, else 5 points)")
    five_chips: int = rule(2, "chips the '5' marker's extra placement sets (see five_count)", low=1, high=6)
    five_count: str = rule(
        "exact",
        "chips the '5' marker's extra placement lays: 'exact' (five_chips of them: 'place 2 additional chips') "
        "or 'up_to' five_chips (1 or more, like setting)",
        choices=FIVE_COUNTS, ruling=True,
    )
    five_points: int = rule(5, "points an unused '5' marker scores at the end of the game", low=0, high=50)
    five_timing: str = rule(
        "phase_end",
        "when the '5' marker is used: at 'phase_end' (after the last placement round, next start player first) "
        "or on the player's 'own_turn', besides the turn's action",
        choices=FIVE_TIMINGS, ruling=True,
    )
    five_die_round: str = rule(
        "last_round",
        "strength dice from the '5' marker's chips at 'phase_end' (Move stands on End by then): judged by the "
        "'last_round' of placement played (see die_rounds), by the 'tracker' (Move's field), or 'never' (the chips "
        "come after the placement rounds); a phase that plays no placement round earns none under every reading",
        choices=FIVE_DIE_ROUNDS, ruling=True,
    )
    track_cards_need_survival: bool = rule(
        True, "cards on the special spaces must survive the environment too", ruling=True
    )

    # --- combat on the board ---
    fights_per_player: int = rule(
        1, "fights each player (each colour with 2 players) may pick per round", low=0, high=5
    )
    first_fighter: str = rule(
        "start_player",
        "who picks the round's first fight, the others following in turn: the 'start_player' (as in every phase) "
        "or the 'next_start_player' (closer to becoming the next start player, the '5' marker's priority)",
        choices=FIRST_FIGHTERS, ruling=True,
    )
    two_player_battles: str = rule(
        "colours",
        "2 players on 2 columns each: every player's outer-colour battle, then every inner one ('colours'), or "
        "each player's outer then inner battle before the next player's ('players')",
        choices=TWO_PLAYER_BATTLES, ruling=True,
    )
    winner_without_die: str = rule(
        "nothing",
        "a fight's winner without a strength die that may raise its die by 1: 'nothing' (combat says 'raise', and "
        "a card without a die has none to raise) or 'earns_die' (strength 1 raised to a die showing 2)",
        choices=WINNERS_WITHOUT_DIE, ruling=True,
    )
    face_down_can_fight: bool = rule(
        True, "a face-down card (lost 2:1 this round) may fight again this round", ruling=True
    )
    track_cards_fight: bool = rule(True, "cards on the special spaces may challenge and be challenged", ruling=True)

    # --- shifting and scoring ---
    special_spaces: tuple = rule((13, 10, 7), "points of the special spaces, in the order a card passes them")
    special_space_holds: str = rule(
        "several",
        "cards a special space holds: 'several' (a card on the track moves one space per shift, whatever "
        "enters) or 'one' (cards entering in the same shift push the cards already there further along)",
        choices=SPECIAL_SPACE_HOLDS, ruling=True,
    )
    track_tie_fight: str = rule(
        "order_only",
        "cards tied in strength on entering the special spaces fight for the order: 'order_only' (it decides "
        "the order, nothing else) or 'full_effects' (also a fight's usual effects: dice, face down, elimination)",
        choices=TRACK_TIE_FIGHTS, ruling=True,
    )
    double_shift: bool = rule(True, "once a card pile is empty the board shifts twice per round")
    empty_space_bonus: int = rule(1, "extra points per empty space in a grid card's row", low=0, high=10)
    unused_column_empty: bool = rule(
        False, "a column left out of the game (3 players; 2 players on one column each) has spaces that count "
        "as empty spaces for the bonus", ruling=True,
    )
    two_player_columns: int = rule(
        2, "columns each player runs with 2 players: 2 (an outer and an inner one; all 4 in play) or 1 "
        "(the other 2 columns are left out of the game)", choices=(2, 1), ruling=True,
    )

    def check(self) -> None:
        if self.max_strength > self.die_faces:
            raise RuleError(
                f"rule 'max_strength': {self.max_strength} is more than die_faces ({self.die_faces}); "
                "a strength die cannot show more than the die's faces"
            )
        for name in ("homo_sapiens_die", "new_die"):
            if getattr(self, name) > self.max_strength:
                raise RuleError(
                    f"rule {name!r}: {getattr(self, name)} is more than max_strength ({self.max_strength})"
                )
        self.check_file("deck_file", load_deck)
        if not self.special_spaces or any(not isinstance(v, int) or v < 0 for v in self.special_spaces):
            raise RuleError(
                f"rule 'special_spaces': {self.special_spaces!r} is not allowed; expected one or more "
                "non-negative integers (points of the special spaces in the order a card passes them)"
            )
