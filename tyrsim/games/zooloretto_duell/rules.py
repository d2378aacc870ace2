"""Zooloretto Duell rules as data; every default is the rulebook's.

Rules marked `ruling=` encode a reading of a sentence the rulebook leaves open, or
a component it does not print; `tyrsim rulings zooloretto-duell` plays each
alternative against the default. docs/zooloretto_duell.md quotes the sentence
behind each one and says why its default was chosen.
"""

from __future__ import annotations

from dataclasses import dataclass

from tyrsim.core.engine.rules import RuleError, RuleSet, rule


@dataclass(frozen=True)
class Rules(RuleSet):
    """Zooloretto Duell rules; defaults are the rulebook's (expert variant off)."""

    # --- set-up ---
    starting_coins: int = rule(1, "coins each player starts with", low=0, high=12)
    final_round_card_depth: int = rule(
        5, "cards under the 'final round' card when it is inserted into the draw pile", low=0, high=55
    )
    truck_places: tuple = rule((1, 2, 2), "places on each transport truck (1 to 5 each)")
    target_values: tuple = rule(
        (3, 4, 5, 6, 7, 8),
        "target value of each enclosure (1 to 20): gorilla, bison, antelope, bear, tiger, hyena",
    )
    # --- actions ---
    # at least 1: a free money action lets two players steal the same animal back and forth for ever
    money_action_cost: int = rule(
        2, "coins paid for a money action (steal an animal, dispose of minus points)", low=1, high=12
    )
    # "Take any animal card from your opponent's side and place it in the respective enclosure on your side."
    steal_triggers_symbols: bool = rule(
        True,
        "a stolen animal counts as placed in the thief's enclosure, so its symbol triggers (ruling)",
        ruling=True,
    )
    # "Pay 2 coins and carry out exactly one of the following money actions: ... II. Dispose of all minus
    # points." and "If you have less than 2 coins before your action, you cannot choose this action.": the
    # 2 coins are its only precondition, as every other action's is stated, so it may be chosen holding none
    dispose_without_minus: bool = rule(
        True,
        "money action II may be chosen with no minus points: the player pays, returns nothing and the turn "
        "ends, the game's only paid pass (ruling: false, only a player holding a minus point may choose it)",
        ruling=True,
    )
    # "But if you place a second animal of this species with the same symbol in your enclosure, a specific
    # symbol action is triggered"
    symbol_once: bool = rule(
        False,
        "a symbol of a species triggers at most once per player, so a pair broken by a steal and made again "
        "does nothing (ruling: false, every second card now in the enclosure triggers)",
        ruling=True,
    )
    # "If another symbol action is triggered by an additional square, it is not carried out but goes to waste."
    one_square_per_turn: bool = rule(
        False,
        "the chain rule wastes every square after the first of a turn, not only the donated card's (ruling: false)",
        ruling=True,
    )
    # "As soon as there are as many animals ... play is immediately interrupted for an interim scoring."
    symbol_before_scoring: bool = rule(
        False,
        "a heart's offspring and a square's donation join the zoo before the interim-scoring check of the card "
        "that triggered them (ruling: false, the scoring interrupts play as soon as the card is placed)",
        ruling=True,
    )
    # "Normally, you may not look through the discard pile during the game, and only the top card is visible.
    # ... However, players can agree on being allowed to look through the discard pile anytime."
    discard_pile_open: bool = rule(
        False,
        "players may look through the discard pile at any time (the agreed variant); false: only its top card "
        "is visible, except to a player choosing a square's donation (only what the search policies know changes)",
        ruling=True,
    )
    # the same sentences: only the top card is visible, yet both players see every card go onto the pile face up
    # (the first card, a truck's leftovers, a third symbol's card, an expert discard); the rulebook does not say
    # whether they keep in mind what went under
    discard_pile_memory: str = rule(
        "forget",
        "under a closed discard pile (discard_pile_open false), what players know of the cards under its top: "
        "'forget' (only the top card and the pile's size) or 'remember' (every card they saw go onto it: the "
        "whole pile) (only what the search policies know changes)",
        choices=("forget", "remember"),
        ruling=True,
    )
    expert: bool = rule(
        False, "expert variant: after drawing, pay to discard the card instead (not in the final round)"
    )
    expert_discard_cost: int = rule(1, "coins paid to discard a drawn card in the expert variant", low=0)
    # --- scoring ---
    majority_points: int = rule(1, "plus points for the most animals of a species at the final scoring", low=0)
    coins_per_point: int = rule(2, "coins worth one plus point at the final scoring", low=1)
    # --- data the rulebook does not print ---
    symbols_file: str = rule(
        "",
        "TOML file with the symbols on the animal cards ('' = bundled assumption)",
        data_file=True,
        ruling=("bundled:symbols_two_each.toml",),
    )
    stands_file: str = rule(
        "",
        "TOML file with the colour and symbol of each vending stand ('' = bundled assumption)",
        data_file=True,
        ruling=("bundled:stands_by_colour.toml",),
    )
    markers_file: str = rule(
        "",
        "TOML file with the scoring markers and their letters from the top ('' = bundled assumption)",
        data_file=True,
        ruling=("bundled:markers_threes.toml",),
    )
    # "Sort the 8 scoring markers by the letters on their backs": markers sharing a letter lie in no set order
    marker_order: str = rule(
        "shuffled",
        "markers sharing a letter: 'shuffled' at set-up (sorting by letter leaves their order open) "
        "or 'printed' (the markers file's order)",
        choices=("shuffled", "printed"),
        ruling=True,
    )
    marker_points: tuple = rule(
        (), "points of the 7 scoring markers from the top, replacing the file's (coins kept); () = the file's"
    )

    def check(self) -> None:
        if len(self.truck_places) < 2:
            raise RuleError(f"rule 'truck_places': {self.truck_places!r} needs at least 2 trucks for 2 players")
        for name, low, high in (("truck_places", 1, 5), ("target_values", 1, 20)):
            values = getattr(self, name)
            if not all(isinstance(v, int) and not isinstance(v, bool) and low <= v <= high for v in values):
                raise RuleError(f"rule {name!r}: {values!r} is not allowed; expected integers from {low} to {high}")
        if len(self.target_values) != 6:
            raise RuleError(
                f"rule 'target_values': {self.target_values!r} needs 6 values "
                "(gorilla, bison, antelope, bear, tiger, hyena)"
            )
        # load the data files now, so a bad file is reported when the rules are read
        from tyrsim.games.zooloretto_duell.cards import load_markers, load_stands, load_symbols

        self.check_file("symbols_file", load_symbols)
        self.check_file("stands_file", load_stands)
        scoring = sum(not m.final_round for m in self.check_file("markers_file", load_markers))
        # the default () gives no element type, so "--rule marker_points=2,2,..." arrives as strings
        points = tuple(int(v) if isinstance(v, str) and v.strip().isdigit() else v for v in self.marker_points)
        object.__setattr__(self, "marker_points", points)
        if self.marker_points and (
            len(self.marker_points) != scoring
            or not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in self.marker_points)
        ):
            raise RuleError(
                f"rule 'marker_points': {self.marker_points!r} is not allowed; expected {scoring} integers >= 0 "
                "(one per scoring marker, from the top), or () for the markers file's values"
            )
