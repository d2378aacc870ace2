"""Tyranno Ex in compiled code (numba): the same game as `game.py`, rule for rule, a game at a time.

`game.py` and its phase modules stay the readable reference and write the play logs; this module
plays the same games, move for move, far faster. The same seed gives the same game: set-up, the
bag, the fights' dice, a random tie and a tie fight's coin draw what the object engine draws, in
its order, from the generator passed in, and the compiled policies (`compiled_policies.py`) draw
as the object policies do. The phases are the object engine's modules, function for function:
placing the animal cards (`placement.py`: `begin_placement`, `place_animal_card`), environmental
change (`environmental_change.py`: `trade_chips`, `set_chips`, `change_living_conditions`,
`strength_dice`, the "5" marker's `use_five`), survival (`check_survival`), combat (`fights.py`:
`begin_combat`, `challenges`, `fight`, `take_effects`; the dice and rounds of `combat.py` in
`resolve_fight`), shifting (`shift`, `entering_order`, `tie_fight`) and scoring (`score`,
`count_lead_change`, `game_over`, `game_end`).

How a position is held: one numpy record of the dtype `POSITION` (a one-element `np.recarray`; a
function reads and writes `game[0]` in place). A card is its index in the deck file (`RULES.symbols`
etc. hold what is printed on it); what a card on the board carries is kept per card:

- `spots[s]`: the card on board spot s (`board.py`'s spots: column * 4 + row index, then the special
  spaces' spots), `NO_CARD` if none; `owner[c]`, `column[c]`, `die[c]` (0: no strength die),
  `face_down[c]`, `entry_row[c]` (0 or 3), `card_points[c]`: card c's `BoardCard` fields;
- `piles[i, :pile_size[i]]`: pile i, its face-up card last, as game.py deals them;
- `bag[s]`, `current[sp]`, `current_count[sp]`, `potential[sp, s]`: the chips (environment.py);
  `hands[p, s]`: the storage trays; `five[p]`, `five_round[p]` (0: never used);
- `column_owner[c]` (-1: out of the game), `player_columns[p, :columns_per_player]`;
- `phase` (PLACE, ENVIRONMENT, TIE, FIVE, COMBAT, OVER; between two decisions also SURVIVAL, ROUND_END,
  NEXT_ROUND, the steps `advance` runs), `player`, `queue_player/queue_column
  [queue_head:queue_end]` (the decisions still to come in the phase), `start`, `game_round`, `end`, `move`,
  `limit` (NO_LIMIT: placement until a lap of passes), `passes`, `last_round`, `double_last`;
- a setting being resolved: `spaces_left[spaces_head:spaces_end]`, `chain`, `setting_changes`,
  `mask_before`, `after_setting` (TURN, AGAIN, FIVE_PHASE), `tie_space` and `tied` (a bit per symbol);
- `points[source, p]` (rows, empty, special, five), `counters[k]` (game.GAME_COUNTERS),
  `seat_counters[k, p]` (game.SEAT_COUNTERS), `leaders` (a bit per player; -1 before the first
  scoring), `actions` (actions applied).

What the object engine keeps only for search, which no rule reads but a determinization needs
(`compiled_search.py`): `known[sp, s]`, the face-down chips everyone saw turned face up, and
`laid[p, sp, s]`, those player p laid since the space was last turned face up (`Environment.known`,
`.laid`); `out[:out_count]`, the cards out of the game in the order they left (`TyrannoExState.out`);
`set_aside[:set_aside_count]`, the cards a 3-player game sets aside.

The rules and the deck file become one record of the dtype `RULES`, made once per rule set by
`rule_tables(rules)`: every number and every ruling as a code, the cards' symbols, the special
spaces' points, and the lists of trades and chip settings in the order `actions.py` lists them
(`trade_actions`, `chip_options`), so that an index into the compiled action list is the same
action in the object engine's list.

How it compiles (numba compiles a function once for each combination of argument types, and with
everything it calls): every integer passed is an int64 and every constant passed a numpy scalar
(`PASS_TURN`, `ANY_COLUMN`), never a Python literal; arrays are copied number by number, not through
slices; a phase that ends leaves the next step in `phase` for `advance` rather than calling it, so
that no phase's code holds every later phase's; and the one-line helpers and the layers that only
forward are inlined (`inline="always"`).
"""

from __future__ import annotations

import dataclasses
import functools
import itertools

import numpy as np
from numba import njit
from numba.np.random.generator_core import next_double  # the bit generator's own draws

from tyrsim.core.compiled.chance import integers, shuffle
from tyrsim.core.compiled.numba_cache import keep_fresh
from tyrsim.core.compiled.positions import differing_fields
from tyrsim.games.tyranno_ex.actions import (
    KEEP_FIVE,
    NO_FIGHT,
    PASS,
    Challenge,
    ChooseSymbol,
    PlaceCard,
    SetChips,
    Trade,
    UseFive,
    chip_options,
)
from tyrsim.games.tyranno_ex.board import COLUMNS, PILES, ROWS, TRACK, column_layout, track_spot
from tyrsim.games.tyranno_ex.cards import load_deck
from tyrsim.games.tyranno_ex.environment import NUM_SYMBOLS, SPACES
from tyrsim.games.tyranno_ex.game import GAME_COUNTERS, SEAT_COUNTERS, TyrannoExState
from tyrsim.games.tyranno_ex.rules import (
    AFTER_TRACK,
    DIE_GAINS,
    END_DIRECTIONS,
    FIRST_FIGHTERS,
    FIVE_COUNTS,
    FIVE_DIE_ROUNDS,
    FIVE_TIMINGS,
    MAJORITIES,
    MAJORITY_TIES,
    PLACEMENT_ORDERS,
    SPECIAL_SPACE_HOLDS,
    TIE_RULES,
    TRACK_TIE_FIGHTS,
    TWO_PLAYER_BATTLES,
    WINNERS_WITHOUT_DIE,
    Rules,
)
from tyrsim.games.tyranno_ex.survival import SURVIVAL_NAMES

keep_fresh(__file__)

NO_CARD = -1
MAX_PLAYERS = 4
MAX_DECK = 64  # cards in a deck file
MAX_PILE = (MAX_DECK + PILES - 1) // PILES
MAX_SPECIALS = 6  # special spaces
MAX_SPOTS = track_spot(MAX_SPECIALS)
MAX_QUEUE = 2 * MAX_PLAYERS * 2 * 5  # decisions of a phase: 5 fights per player and colour at most
MAX_CHIPS_SET = 3  # chips one setting (set_limit, five_chips) lays
MAX_TRADE = 12  # chips one trade swaps (the rule's own bound)
MAX_SETTINGS = sum(len(list(itertools.combinations_with_replacement(range(16), k))) for k in range(1, 4))
MAX_TRADES = sum(len(list(itertools.combinations_with_replacement(range(4), k))) for k in range(1, 13))
HAND_CLASSES = (MAX_CHIPS_SET + 1) ** NUM_SYMBOLS
CLASS_SLOTS = SPACES * sum(len(list(itertools.combinations_with_replacement(range(4), k))) for k in range(1, 4))
FAST_TRADES = sum(len(list(itertools.combinations_with_replacement(range(4), k))) for k in range(1, 4))
MAX_ACTIONS = 1 + MAX_TRADES + 2 * MAX_SETTINGS  # an environment turn: pass, trades, settings, "5" marker
MAX_CHALLENGES = MAX_SPOTS * MAX_SPOTS
MAX_STEPS = 100_000  # actions; a safety limit far above any game

# phases (game.py's phase names)
PLACE, ENVIRONMENT, TIE, FIVE_PHASE, COMBAT, OVER = 0, 1, 2, 3, 4, 5
# the steps between decisions that `advance` runs: survival (and combat's start), the end of the round, the next
# placement. A phase that ends leaves the next step here instead of calling it: compiled code cannot recurse, and
# numba compiles a function with everything it calls, so a chain of phases calling phases compiled each later
# phase again into every earlier one
SURVIVAL, ROUND_END, NEXT_ROUND = 6, 7, 8
# what follows a setting (`after_setting`): the turn is over, the player takes their turn (own-turn "5"
# marker), the next "5" marker holder (phase-end "5" marker)
TURN, AGAIN, FIVE_NEXT = 0, 1, 2
NO_LIMIT = -1  # `limit`: no End marker on the tracker, placement until a whole lap of passes
# points sources (game.py's `points`)
ROW_POINTS, EMPTY_POINTS, SPECIAL_POINTS, FIVE_POINTS = 0, 1, 2, 3
SOURCES = ("rows", "empty", "special", "five")

# action types: a row (type, a, b); numpy scalars, as every constant compiled code passes on (numba types a
# Python int passed as an argument as a literal, and compiles the function once for each literal it is given)
PLACE_CARD = np.int64(0)  # a = pile, b = spot
PASS_TURN = np.int64(1)
TRADE = np.int64(2)  # a = index into RULES.trades
SET_CHIPS = np.int64(3)  # a = index into RULES.settings, b = its spaces (RULES.fitting's entry >> 10)
USE_FIVE = np.int64(4)  # a = index into RULES.settings, b as for SET_CHIPS
KEEP = np.int64(5)  # keep the "5" marker
CHOOSE_SYMBOL = np.int64(6)  # a = symbol
NO_CHALLENGE = np.int64(7)
CHALLENGE = np.int64(8)  # a = attacker's spot, b = defender's spot
ANY_COLUMN = np.int64(-1)  # a queued decision (a "5" marker, a fight) that is not about one column
OPENING_CHIPS = np.int64(SPACES)  # drawn at set-up, one for each current space

# counters by name (game.GAME_COUNTERS, game.SEAT_COUNTERS)
(ROUNDS, CHANGES, CASCADES, LONGEST_CASCADE, TIES, FIGHTS, FIGHTS_CLEAN, FIGHTS_CLOSE, FIGHTS_ENDLESS,
 TRACK_TIE_FIGHTS_COUNT, TRACK_TIE_LOSSES, DOUBLE_SHIFTS, SURVIVAL_LOSSES, FIGHT_LOSSES, LEAD_CHANGES,
 NO_STONE) = range(16)
assert len(GAME_COUNTERS) == 16 and GAME_COUNTERS[LEAD_CHANGES] == "lead_changes"
assert GAME_COUNTERS[NO_STONE] == "no_stone"
CARDS_PLACED, FIGHTS_STARTED, FIGHTS_WON, DICE_EARNED, DICE_RAISED, TRADES, CHIPS_SET = range(7)
ENTERED = SEAT_COUNTERS.index("cards_entered_row0")  # + 1 for row 3; then CARD_POINTS, CARD_POINTS_SQ
CARD_POINTS = SEAT_COUNTERS.index("card_points_row0")
CARD_POINTS_SQ = SEAT_COUNTERS.index("card_points_sq_row0")
CHECKED = SEAT_COUNTERS.index("checked_row0")  # + survival place (row index, 4 special), then + 4 + distinct
LOST = SEAT_COUNTERS.index("lost_row0")
assert SEAT_COUNTERS[CHECKED:LOST] == tuple(f"checked_{w}" for w in SURVIVAL_NAMES)
assert SEAT_COUNTERS[:CHIPS_SET + 1][-1] == "chips_set" and SEAT_COUNTERS[CARD_POINTS + 1] == "card_points_row3"

POSITION = np.dtype([
    ("spots", np.int64, (MAX_SPOTS,)),
    ("owner", np.int64, (MAX_DECK,)), ("column", np.int64, (MAX_DECK,)), ("die", np.int64, (MAX_DECK,)),
    ("face_down", np.int64, (MAX_DECK,)), ("entry_row", np.int64, (MAX_DECK,)),
    ("card_points", np.int64, (MAX_DECK,)),
    ("piles", np.int64, (PILES, MAX_PILE)), ("pile_size", np.int64, (PILES,)),
    ("bag", np.int64, (NUM_SYMBOLS,)), ("current", np.int64, (SPACES,)), ("current_count", np.int64, (SPACES,)),
    ("potential", np.int64, (SPACES, NUM_SYMBOLS)),
    ("known", np.int64, (SPACES, NUM_SYMBOLS)), ("laid", np.int64, (MAX_PLAYERS, SPACES, NUM_SYMBOLS)),
    ("out", np.int64, (MAX_DECK,)), ("out_count", np.int64), ("set_aside", np.int64, (4,)),
    ("set_aside_count", np.int64),
    ("hands", np.int64, (MAX_PLAYERS, NUM_SYMBOLS)), ("five", np.int64, (MAX_PLAYERS,)),
    ("five_round", np.int64, (MAX_PLAYERS,)),
    ("num_players", np.int64), ("column_owner", np.int64, (COLUMNS,)),
    ("player_columns", np.int64, (MAX_PLAYERS, 2)), ("columns_per_player", np.int64),
    ("phase", np.int64), ("player", np.int64),
    ("queue_player", np.int64, (MAX_QUEUE,)), ("queue_column", np.int64, (MAX_QUEUE,)),
    ("queue_head", np.int64), ("queue_end", np.int64),
    ("start", np.int64), ("game_round", np.int64), ("end", np.int64), ("move", np.int64), ("limit", np.int64),
    ("passes", np.int64), ("last_round", np.int64), ("double_last", np.int64),
    ("spaces_left", np.int64, (SPACES,)), ("spaces_head", np.int64), ("spaces_end", np.int64),
    ("chain", np.int64), ("setting_changes", np.int64), ("mask_before", np.int64), ("after_setting", np.int64),
    ("tie_space", np.int64), ("tied", np.int64),
    ("points", np.int64, (len(SOURCES), MAX_PLAYERS)), ("counters", np.int64, (len(GAME_COUNTERS),)),
    ("seat_counters", np.int64, (len(SEAT_COUNTERS), MAX_PLAYERS)), ("leaders", np.int64),
    ("actions", np.int64),
])

RULES = np.dtype([
    ("die_faces", np.int64), ("rounds_to_win", np.int64), ("tie_rule", np.int64), ("max_strength", np.int64),
    ("max_dice", np.int64), ("chips_per_symbol", np.int64), ("chips_per_player", np.int64),
    ("homo_sapiens_die", np.int64), ("marker_stones", np.int64), ("placement_order", np.int64),
    ("trade_limit", np.int64),
    ("set_limit", np.int64), ("trade_rounds", np.int64), ("die_rounds", np.int64), ("new_die", np.int64),
    ("die_gain", np.int64), ("majority", np.int64), ("majority_tie", np.int64), ("move_start", np.int64),
    ("end_start", np.int64), ("track_fields", np.int64), ("end_direction", np.int64), ("after_track", np.int64),
    ("five_marker", np.int64), ("five_chips", np.int64), ("five_count", np.int64), ("five_points", np.int64),
    ("five_timing", np.int64), ("five_die_round", np.int64), ("track_cards_need_survival", np.int64),
    ("fights_per_player", np.int64), ("first_fighter", np.int64), ("two_player_battles", np.int64),
    ("winner_without_die", np.int64), ("face_down_can_fight", np.int64), ("track_cards_fight", np.int64),
    ("special_space_holds", np.int64), ("track_tie_fight", np.int64), ("double_shift", np.int64),
    ("empty_space_bonus", np.int64), ("unused_column_empty", np.int64), ("two_player_columns", np.int64),
    # the special spaces' points, in the order a card passes them; the board's spots
    ("specials", np.int64, (MAX_SPECIALS,)), ("special_count", np.int64), ("spot_count", np.int64),
    ("space_of", np.int64, (MAX_SPOTS,)),  # the special space of each track spot (board.track_space)
    # the deck file: each card's 3 symbols, a bit per symbol it shows, its distinct symbols, Homo sapiens
    ("cards", np.int64), ("symbols", np.int64, (MAX_DECK, 3)), ("mask", np.int64, (MAX_DECK,)),
    ("distinct", np.int64, (MAX_DECK,)), ("homo_sapiens", np.int64, (MAX_DECK,)),
    # trades[i, :trade_size[i]]: the symbols of the i-th trade of `actions.trade_actions`' order (by size)
    ("trade_count", np.int64), ("trade_size", np.int64, (MAX_TRADES,)),
    ("trades", np.int64, (MAX_TRADES, MAX_TRADE)), ("trade_uses", np.int64, (MAX_TRADES, NUM_SYMBOLS)),
    # settings[i, k] = (symbol, space): the i-th way of `actions.chip_options` to lay chips (by size)
    ("setting_count", np.int64), ("hand_base", np.int64), ("setting_size", np.int64, (MAX_SETTINGS,)),
    ("settings", np.int64, (MAX_SETTINGS, MAX_CHIPS_SET, 2)), ("setting_uses", np.int64, (MAX_SETTINGS, NUM_SYMBOLS)),
    ("setting_spaces", np.int64, (MAX_SETTINGS,)),  # a bit per space the setting lays on
    # setting_keys[i, space]: the chips setting i lays on the space as counts per symbol in base 4, -1 if none
    ("setting_keys", np.int64, (MAX_SETTINGS, SPACES)),
    # ... and as slots space * 256 + key, of the spaces laid on only, in space order
    ("setting_slot_count", np.int64, (MAX_SETTINGS,)), ("setting_slots", np.int64, (MAX_SETTINGS, MAX_CHIPS_SET)),
    # the settings a hand can lay, by its class (chips per symbol, each cut at the most a setting lays, in base
    # most + 1: `hand_class`): fitting[class, :fit_upto[class, k]] are those of at most k chips, in list order
    # an entry of fitting: the setting's index | its slot count << 10 | its slots (`setting_slots`) << 12, 22, 32
    ("fitting", np.int64, (HAND_CLASSES, MAX_SETTINGS)), ("fit_upto", np.int64, (HAND_CLASSES, MAX_CHIPS_SET + 1)),
    # class_slots[class, :class_slot_count[class]]: the slots (space * 256 + chips) the class's settings lay
    ("class_slot_count", np.int64, (HAND_CLASSES,)), ("class_slots", np.int64, (HAND_CLASSES, CLASS_SLOTS)),
    # the same for trades, where a trade swaps at most MAX_CHIPS_SET chips (trade_base 0: list them one by one)
    ("trade_base", np.int64), ("trade_fitting", np.int16, (HAND_CLASSES, FAST_TRADES)),
    ("trade_upto", np.int64, (HAND_CLASSES, MAX_CHIPS_SET + 1)),
])

# the rules this engine plays, declared here and never derived from Rules: `supported` names any other (a rule
# added to Rules and not yet learnt here), so the default engine 'auto' plays it on the object engine instead
PLAYED = (
    "die_faces", "rounds_to_win", "tie_rule", "max_strength", "max_dice", "deck_file", "chips_per_symbol",
    "chips_per_player", "homo_sapiens_die", "marker_stones", "placement_order", "trade_limit", "set_limit",
    "trade_rounds",
    "die_rounds", "new_die", "die_gain", "majority", "majority_tie", "move_start", "end_start", "track_fields",
    "end_direction", "after_track", "five_marker", "five_chips", "five_count", "five_points", "five_timing",
    "five_die_round", "track_cards_need_survival", "fights_per_player", "first_fighter", "two_player_battles",
    "winner_without_die", "face_down_can_fight", "track_cards_fight", "special_spaces", "special_space_holds",
    "track_tie_fight", "double_shift", "empty_space_bonus", "unused_column_empty", "two_player_columns",
)
# of those, the rules that are no number of the RULES record: `rule_tables` makes tables of them
TABLED = ("deck_file", "special_spaces")
CHOICES = {
    "tie_rule": TIE_RULES, "placement_order": PLACEMENT_ORDERS, "die_gain": DIE_GAINS, "majority": MAJORITIES,
    "majority_tie": MAJORITY_TIES, "end_direction": END_DIRECTIONS, "after_track": AFTER_TRACK,
    "five_count": FIVE_COUNTS, "five_timing": FIVE_TIMINGS, "five_die_round": FIVE_DIE_ROUNDS,
    "first_fighter": FIRST_FIGHTERS, "two_player_battles": TWO_PLAYER_BATTLES,
    "winner_without_die": WINNERS_WITHOUT_DIE, "special_space_holds": SPECIAL_SPACE_HOLDS,
    "track_tie_fight": TRACK_TIE_FIGHTS,
}  # a choice rule becomes its index in the rules module's tuple of choices
# the codes compiled code reads
REROLL, ATTACKER = TIE_RULES.index("reroll"), TIE_RULES.index("attacker")
LAPS = PLACEMENT_ORDERS.index("laps")
COMPLETED = DIE_GAINS.index("completed")
OVER_HALF = MAJORITIES.index("over_half")
EMPTY, NO_CHANGE, CHOOSER = (MAJORITY_TIES.index(t) for t in ("empty", "no_change", "chooser"))
UP = END_DIRECTIONS.index("up")
UNLIMITED, LAST_FIELD = AFTER_TRACK.index("unlimited"), AFTER_TRACK.index("last_field")
EXACT = FIVE_COUNTS.index("exact")
PHASE_END = FIVE_TIMINGS.index("phase_end")
TRACKER, NEVER = FIVE_DIE_ROUNDS.index("tracker"), FIVE_DIE_ROUNDS.index("never")
START_PLAYER = FIRST_FIGHTERS.index("start_player")
COLOURS = TWO_PLAYER_BATTLES.index("colours")
EARNS_DIE = WINNERS_WITHOUT_DIE.index("earns_die")
ONE = SPECIAL_SPACE_HOLDS.index("one")
FULL_EFFECTS = TRACK_TIE_FIGHTS.index("full_effects")


def supported(rules: Rules, players: int = 4) -> str | None:
    """None if the compiled engine plays `rules`, else a one-line message naming the first rule it cannot (its
    limits are the same for 2 to 4 players: `players` is there for `tyrsim.core.compiled.engines.CompiledEngine`)."""
    for f in dataclasses.fields(rules):
        if f.name not in PLAYED:
            return f"rule {f.name!r}: the compiled engine does not play it yet (the object engine does)"
    for name in ("set_limit", "five_chips"):
        if getattr(rules, name) > MAX_CHIPS_SET:
            return (f"rule {name!r}: the compiled engine lays up to {MAX_CHIPS_SET} chips at a time, "
                    f"not {getattr(rules, name)} (the object engine lays any number)")
    if len(rules.special_spaces) > MAX_SPECIALS:
        return (f"rule 'special_spaces': the compiled engine plays up to {MAX_SPECIALS} special spaces, "
                f"not {len(rules.special_spaces)} (the object engine plays any number)")
    if len(load_deck(rules.deck_file)) > MAX_DECK:
        return (f"rule 'deck_file': the compiled engine plays decks of up to {MAX_DECK} cards, "
                f"not {len(load_deck(rules.deck_file))} (the object engine plays any)")
    return None


@functools.lru_cache(maxsize=16)
def rule_tables(rules: Rules) -> np.recarray:
    """The rules and the deck file as one `RULES` record (a one-element recarray, made once per rule set and
    shared: compiled code never writes it); ValueError for rules the engine cannot play (`supported`)."""
    problem = supported(rules)
    if problem is not None:
        raise ValueError(problem)
    out = np.zeros(1, RULES)
    r = out[0]
    for f in dataclasses.fields(rules):
        if f.name in CHOICES:
            r[f.name] = CHOICES[f.name].index(getattr(rules, f.name))
        elif f.name in RULES.names:
            r[f.name] = int(getattr(rules, f.name))
        elif f.name not in TABLED:  # never skipped without a word (`supported` refuses it first)
            raise ValueError(f"rule {f.name!r}: the compiled engine has no table for it")
    r["special_count"] = len(rules.special_spaces)
    r["specials"][: len(rules.special_spaces)] = rules.special_spaces
    r["spot_count"] = track_spot(len(rules.special_spaces))
    for space in range(len(rules.special_spaces)):
        r["space_of"][track_spot(space): track_spot(space + 1)] = space
    deck = load_deck(rules.deck_file)  # read and checked as the object engine reads it
    r["cards"] = len(deck)
    for c, card in enumerate(deck):
        r["symbols"][c] = card.symbols
        r["mask"][c], r["distinct"][c], r["homo_sapiens"][c] = card.mask, card.distinct, card.homo_sapiens
    trades = [combo for k in range(1, rules.trade_limit + 1)
              for combo in itertools.combinations_with_replacement(range(NUM_SYMBOLS), k)]  # trade_actions' order
    r["trade_count"] = len(trades)
    for i, combo in enumerate(trades):
        r["trade_size"][i] = len(combo)
        r["trades"][i, : len(combo)] = combo
        for s in combo:
            r["trade_uses"][i, s] += 1
    most = max(rules.set_limit, rules.five_chips)
    settings = chip_options((most,) * NUM_SYMBOLS, most)  # every way, by size: set and "5" lists are prefixes
    r["setting_count"] = len(settings)
    for i, combo in enumerate(settings):
        r["setting_size"][i] = len(combo)
        for k, (s, space) in enumerate(combo):
            r["settings"][i, k] = s, space
            r["setting_uses"][i, s] += 1
            r["setting_spaces"][i] |= 1 << space
        laid = np.zeros((SPACES, NUM_SYMBOLS), np.int64)
        for s, space in combo:
            laid[space, s] += 1
        r["setting_keys"][i] = [((a * 4 + b) * 4 + c) * 4 + d if a + b + c + d else -1 for a, b, c, d in laid]
        slots = [space << 8 | key for space, key in enumerate(r["setting_keys"][i]) if key >= 0]
        r["setting_slot_count"][i] = len(slots)
        r["setting_slots"][i, : len(slots)] = slots
    uses = r["setting_uses"][: len(settings)]
    entries = np.array([i | int(r["setting_slot_count"][i]) << 10
                        | sum(int(slot) << (12 + 10 * j)
                              for j, slot in enumerate(r["setting_slots"][i, : r["setting_slot_count"][i]]))
                        for i in range(len(settings))], dtype=np.int64)
    for code in range((most + 1) ** NUM_SYMBOLS):
        hand = [code // (most + 1) ** (NUM_SYMBOLS - 1 - s) % (most + 1) for s in range(NUM_SYMBOLS)]
        fit = np.flatnonzero((uses <= hand).all(axis=1))
        r["fitting"][code, : len(fit)] = entries[fit]
        slots = sorted({int(slot) for i in fit for slot in r["setting_slots"][i, : r["setting_slot_count"][i]]})
        r["class_slot_count"][code] = len(slots)
        r["class_slots"][code, : len(slots)] = slots
        sizes = r["setting_size"][fit]
        r["fit_upto"][code] = [np.count_nonzero(sizes <= k) for k in range(MAX_CHIPS_SET + 1)]
    r["hand_base"] = most + 1
    if rules.trade_limit <= MAX_CHIPS_SET:
        base = r["trade_base"] = rules.trade_limit + 1
        uses = r["trade_uses"][: len(trades)]
        for code in range(base ** NUM_SYMBOLS):
            hand = [code // base ** (NUM_SYMBOLS - 1 - s) % base for s in range(NUM_SYMBOLS)]
            fit = np.flatnonzero((uses <= hand).all(axis=1))
            r["trade_fitting"][code, : len(fit)] = fit
            sizes = r["trade_size"][fit]
            r["trade_upto"][code] = [np.count_nonzero(sizes <= k) for k in range(MAX_CHIPS_SET + 1)]
    return out.view(np.recarray)


def new_position() -> np.recarray:
    """An empty position (a one-element recarray of POSITION): fill it with `set_up`. Compiled code takes it
    or its plain ndarray view (`.view(np.ndarray)`, cheaper to pass from Python); without the JIT
    (NUMBA_DISABLE_JIT=1) the functions need the recarray, whose records have attributes."""
    return np.zeros(1, POSITION).view(np.recarray)


def layout(position: np.ndarray, rules: Rules, num_players: int) -> None:
    """Write the columns each player runs (`board.column_layout`) into a position, before `set_up`."""
    if num_players not in (2, 3, 4):
        raise ValueError(f"Tyranno Ex is for 2 to 4 players, got {num_players}")
    pos = position[0]
    owners, columns = column_layout(num_players, rules.two_player_columns)
    pos["num_players"] = num_players
    pos["column_owner"] = [-1 if o is None else o for o in owners]
    pos["columns_per_player"] = len(columns[0])
    for p, cols in enumerate(columns):
        pos["player_columns"][p, : len(cols)] = cols


@njit(cache=True, inline="always")
def track_start(space) -> int:
    """`board.track_spot`: the first spot of special space `space` (space i holds i + 1 cards)."""
    return TRACK + space * (space + 1) // 2


# --- set-up ---------------------------------------------------------------------------------------------------


@njit(cache=True, inline="always")
def set_up(game, tables, bits) -> None:
    """Set-up of a position holding only its layout (`layout`), drawing from the bit generator `bits` (a
    generator's `rng.bit_generator`) what `TyrannoExState`
    draws, in its order: shuffle the animal cards (3 players set the top 4 aside) and deal 4 piles, draw an
    opening chip for each current space, fill each storage tray; then the first placement begins."""
    pos, rules = game[0], tables[0]
    n = rules.cards
    order = np.arange(n)  # bits.permutation(n)
    shuffle(bits, order, n)
    aside = 4 if pos.num_players == 3 else 0
    for i in range(PILES):
        pos.pile_size[i] = 0
    pos.set_aside_count = aside
    for k in range(aside):
        pos.set_aside[k] = order[k]
    pos.out_count = 0
    for k in range(aside, n):  # piles[i] = rest[i::4], the face-up card a pile's last
        i = (k - aside) % PILES
        pos.piles[i, pos.pile_size[i]] = order[k]
        pos.pile_size[i] += 1
    for spot in range(MAX_SPOTS):
        pos.spots[spot] = NO_CARD
    for s in range(NUM_SYMBOLS):
        pos.bag[s] = rules.chips_per_symbol
    for space in range(SPACES):
        reveal(pos, space)  # nothing face down yet: nothing seen, nothing laid
    opening = np.zeros(NUM_SYMBOLS, np.int64)
    draw_chips(pos, bits, OPENING_CHIPS, opening)
    space = 0
    for s in range(NUM_SYMBOLS):  # the spaces get the opening chips in symbol order
        for _ in range(opening[s]):
            pos.current[space] = s
            pos.current_count[space] = 1
            space += 1
    for p in range(pos.num_players):
        draw_chips(pos, bits, rules.chips_per_player, pos.hands[p])
        pos.five[p] = rules.five_marker
    pos.start = 0
    pos.game_round = 1
    pos.end = rules.end_start
    pos.move = rules.move_start
    pos.last_round = 0
    pos.leaders = -1
    pos.phase = NEXT_ROUND
    advance(pos, rules, bits)


@njit(cache=True)
def draw_chips(pos, bits, n, into) -> None:
    """`Bag.draw`: up to n chips from the bag, one at a time (the pick-th chip, counting symbol by symbol, for
    each uniform double), added to `into` (chips per symbol)."""
    bag = pos.bag
    total = bag[0] + bag[1] + bag[2] + bag[3]
    if n <= 0 or total == 0:
        return
    for _ in range(min(n, total)):
        pick = int(next_double(bits) * total)
        s = 0
        while pick >= bag[s]:
            pick -= bag[s]
            s += 1
        bag[s] -= 1
        into[s] += 1
        total -= 1


@njit(cache=True, inline="always")
def push(pos, player, column) -> None:
    pos.queue_player[pos.queue_end] = player
    pos.queue_column[pos.queue_end] = column
    pos.queue_end += 1


# --- 1. placing the animal cards (placement.py) --------------------------------------------------------------


@njit(cache=True, inline="always")
def target_rows(pos) -> int:
    """Rows to fill this round (from row 0 up): rows 0 and 3 in the first round and after a double shift."""
    return 2 if pos.game_round == 1 or pos.double_last else 1


@njit(cache=True)
def begin_placement(pos, rules, bits) -> None:
    """In turn from the start player each player places a card per column (and per row to fill); ruling
    `placement_order`: two cards go one per turn, twice round the table ("laps"), or both on one turn."""
    pos.phase = PLACE
    rows = target_rows(pos)
    n = pos.num_players
    pos.queue_head = pos.queue_end = 0
    if rules.placement_order == LAPS:
        for _ in range(rows):
            for i in range(n):
                p = (pos.start + i) % n
                for k in range(pos.columns_per_player):
                    push(pos, p, pos.player_columns[p, k])
    else:
        for i in range(n):
            p = (pos.start + i) % n
            for k in range(pos.columns_per_player):
                for _ in range(rows):
                    push(pos, p, pos.player_columns[p, k])
    next_placement(pos, rules, bits)


@njit(cache=True)
def next_placement(pos, rules, bits) -> None:
    """The next placement, while a face-up card is left; then environmental change."""
    while pos.queue_head < pos.queue_end:
        if not (pos.pile_size[0] or pos.pile_size[1] or pos.pile_size[2] or pos.pile_size[3]):
            pos.queue_head = pos.queue_end  # no face-up card left: nobody can place
        elif marker_stone_left(pos, rules, pos.queue_column[pos.queue_head]):
            pos.player = pos.queue_player[pos.queue_head]
            return
        else:  # every marker stone of the colour marks a card on the board: this card is not placed
            pos.counters[NO_STONE] += 1
            pos.queue_head += 1
    begin_environment(pos, rules, bits)


@njit(cache=True)
def marker_stone_left(pos, rules, column) -> bool:
    """`_marker_stone_left`: the colour has a marker stone for a new card (ruling `marker_stones`; 0: never run
    out); a stone comes back when its card leaves the board."""
    if rules.marker_stones == 0:
        return True
    used = 0
    for spot in range(rules.spot_count):
        card = pos.spots[spot]
        if card != NO_CARD and pos.column[card] == column:
            used += 1
    return used < rules.marker_stones


@njit(cache=True, inline="always")
def placements(pos, actions) -> int:
    """Each face-up card into the first empty row to fill of the column (either row after a double shift)."""
    column = pos.queue_column[pos.queue_head]
    n = 0
    for i in range(PILES):
        if pos.pile_size[i] == 0:
            continue
        for r in range(target_rows(pos)):
            if pos.spots[column * 4 + r] == NO_CARD:
                n = add(actions, n, PLACE_CARD, i, column * 4 + r)
                if pos.game_round == 1:
                    break  # the first round's second card goes directly above the first
    return n


@njit(cache=True)
def place_animal_card(pos, rules, pile, spot, bits) -> None:
    """Take the pile's face-up card into the spot (the pile's next card turns face up); Homo sapiens comes
    with a strength die."""
    pos.pile_size[pile] -= 1
    card = pos.piles[pile, pos.pile_size[pile]]
    pos.spots[spot] = card
    pos.owner[card] = pos.player
    pos.column[card] = spot // 4
    pos.die[card] = rules.homo_sapiens_die if rules.homo_sapiens[card] else 0
    pos.face_down[card] = 0
    pos.entry_row[card] = ROWS[spot % 4]
    pos.card_points[card] = 0
    pos.seat_counters[CARDS_PLACED, pos.player] += 1
    pos.queue_head += 1
    next_placement(pos, rules, bits)


# --- 2. environmental change (environmental_change.py, environment.py) --------------------------------------


@njit(cache=True, inline="always")
def placement_limit(pos, rules) -> int:
    """The field where placement stops (`_limit`); NO_LIMIT: no End marker on the tracker (ruling
    `after_track`)."""
    if 1 <= pos.end <= rules.track_fields:
        return pos.end
    if rules.after_track == LAST_FIELD:
        return rules.track_fields if rules.end_direction == UP else 1
    return NO_LIMIT if rules.after_track == UNLIMITED else 0


@njit(cache=True, inline="always")
def placement_over(pos) -> bool:
    if pos.limit == NO_LIMIT:
        return pos.passes >= pos.num_players
    return pos.move >= pos.limit


@njit(cache=True, inline="always")
def begin_environment(pos, rules, bits) -> None:
    pos.phase = ENVIRONMENT
    pos.limit = placement_limit(pos, rules)
    pos.move = rules.move_start
    pos.last_round = 0  # no placement round played yet
    pos.passes = 0
    pos.player = pos.start
    if placement_over(pos):
        begin_five(pos, rules, bits)


@njit(cache=True, inline="always")
def bag_total(pos) -> int:
    return pos.bag[0] + pos.bag[1] + pos.bag[2] + pos.bag[3]


@njit(cache=True, inline="always")
def fits(uses, i, hand) -> bool:
    """Whether the hand holds the chips uses[i] (per symbol)."""
    return uses[i, 0] <= hand[0] and uses[i, 1] <= hand[1] and uses[i, 2] <= hand[2] and uses[i, 3] <= hand[3]


@njit(cache=True)
def environment_actions(pos, rules, actions) -> int:
    """An environment turn's actions in `actions.environment_actions`' order: pass, every trade (placement
    rounds 1 to `trade_rounds`), every setting, and under `five_timing = "own_turn"` every use of the "5"
    marker."""
    hand = pos.hands[pos.player]
    n = add(actions, 0, PASS_TURN, 0, 0)
    if pos.move <= rules.trade_rounds:
        most = min(rules.trade_limit, bag_total(pos))
        if rules.trade_base:
            trades = trade_class(rules, hand)
            for j in range(rules.trade_upto[trades, most]):
                n = add(actions, n, TRADE, rules.trade_fitting[trades, j], 0)
        else:
            for i in range(rules.trade_count):
                if rules.trade_size[i] > most:
                    break
                if fits(rules.trade_uses, i, hand):
                    n = add(actions, n, TRADE, i, 0)
    code = hand_class(rules, hand)
    n = settings(rules, code, 0, rules.fit_upto[code, rules.set_limit], actions, n, SET_CHIPS)
    if rules.five_timing != PHASE_END and pos.five[pos.player]:
        n = five_settings(rules, code, actions, n)
    return n


@njit(cache=True, inline="always")
def hand_class(rules, hand) -> int:
    """The hand's class: its chips per symbol, each cut at the most one setting lays (the same settings fit)."""
    base = rules.hand_base
    most = base - 1
    return ((min(hand[0], most) * base + min(hand[1], most)) * base + min(hand[2], most)) * base + min(hand[3], most)


@njit(cache=True, inline="always")
def trade_class(rules, hand) -> int:
    """The hand's class for trades (`RULES.trade_fitting`), each count cut at `trade_limit`."""
    base = rules.trade_base
    most = base - 1
    return ((min(hand[0], most) * base + min(hand[1], most)) * base + min(hand[2], most)) * base + min(hand[3], most)


@njit(cache=True)
def count_environment_actions(pos, rules) -> int:
    """How many actions `environment_actions` lists (without listing them, where trades are few)."""
    hand = pos.hands[pos.player]
    code = hand_class(rules, hand)
    n = 1 + rules.fit_upto[code, rules.set_limit]
    if pos.move <= rules.trade_rounds:
        most = min(rules.trade_limit, bag_total(pos))
        if rules.trade_base == 0:
            return -1
        n += rules.trade_upto[trade_class(rules, hand), most]
    if rules.five_timing != PHASE_END and pos.five[pos.player]:
        last = rules.fit_upto[code, rules.five_chips]
        n += last - rules.fit_upto[code, rules.five_chips - 1] if rules.five_count == EXACT else last
    return n


@njit(cache=True)
def environment_action(pos, rules, i, actions) -> None:
    """Write the i-th action `environment_actions` lists into actions[i] (`count_environment_actions` was not
    -1)."""
    row = i
    if i == 0:
        add(actions, row, PASS_TURN, 0, 0)
        return
    i -= 1
    hand = pos.hands[pos.player]
    if pos.move <= rules.trade_rounds:
        trades = trade_class(rules, hand)
        count = rules.trade_upto[trades, min(rules.trade_limit, bag_total(pos))]
        if i < count:
            add(actions, row, TRADE, rules.trade_fitting[trades, i], 0)
            return
        i -= count
    code = hand_class(rules, hand)
    count = rules.fit_upto[code, rules.set_limit]
    if i < count:
        entry = rules.fitting[code, i]
        add(actions, row, SET_CHIPS, entry & 1023, entry >> 10)
        return
    i -= count
    first = rules.fit_upto[code, rules.five_chips - 1] if rules.five_count == EXACT else 0
    entry = rules.fitting[code, first + i]
    add(actions, row, USE_FIVE, entry & 1023, entry >> 10)


@njit(cache=True, inline="always")
def settings(rules, code, first, last, actions, n, kind) -> int:
    """The settings fitting[code, first:last] (`RULES.fitting`) as actions of `kind` (the b of the row: the
    spaces it lays on, `setting_slots` packed, which the greedy policy reads)."""
    for j in range(first, last):
        entry = rules.fitting[code, j]
        n = add(actions, n, kind, entry & 1023, entry >> 10)
    return n


@njit(cache=True, inline="always")
def five_settings(rules, code, actions, n) -> int:
    """Every way the "5" marker lays its chips: exactly `five_chips`, or 1 to `five_chips` (ruling
    `five_count`)."""
    first = rules.fit_upto[code, rules.five_chips - 1] if rules.five_count == EXACT else 0
    return settings(rules, code, first, rules.fit_upto[code, rules.five_chips], actions, n, USE_FIVE)


@njit(cache=True)
def next_environment_turn(pos, rules, bits) -> None:
    """The next player; back at the start player the Move marker advances; placement over: the "5" marker."""
    pos.last_round = pos.move
    pos.player = (pos.player + 1) % pos.num_players
    if pos.player == pos.start:
        pos.move += 1
    if placement_over(pos):
        begin_five(pos, rules, bits)


@njit(cache=True, inline="always")
def pass_turn(pos, rules, bits) -> None:
    pos.passes += 1
    next_environment_turn(pos, rules, bits)


@njit(cache=True)
def trade_chips(pos, rules, trade, bits) -> None:
    """Draw first, then return the chosen old chips, so a returned chip cannot come straight back."""
    hand = pos.hands[pos.player]
    draw_chips(pos, bits, rules.trade_size[trade], hand)  # from the bag as it was: the old chips go back after
    for k in range(rules.trade_size[trade]):
        s = rules.trades[trade, k]
        hand[s] -= 1
        pos.bag[s] += 1
    pos.seat_counters[TRADES, pos.player] += 1
    pos.passes = 0
    next_environment_turn(pos, rules, bits)


@njit(cache=True)
def set_chips(pos, rules, setting, bits) -> None:
    """Lay the setting's chips face down, then resolve the spaces laid on, in order; what follows is
    `after_setting` (set by the caller)."""
    hand = pos.hands[pos.player]
    for k in range(rules.setting_size[setting]):
        s, space = rules.settings[setting, k, 0], rules.settings[setting, k, 1]
        hand[s] -= 1
        pos.potential[space, s] += 1
        pos.laid[pos.player, space, s] += 1
    pos.seat_counters[CHIPS_SET, pos.player] += rules.setting_size[setting]
    pos.passes = 0
    pos.mask_before = present(pos)
    pos.spaces_head = pos.spaces_end = 0
    for space in range(SPACES):
        if rules.setting_spaces[setting] >> space & 1:
            pos.spaces_left[pos.spaces_end] = space
            pos.spaces_end += 1
    pos.chain = pos.setting_changes = 0
    resolve_spaces(pos, rules, bits)


@njit(cache=True, inline="always")
def present(pos) -> int:
    """Bitmask of the symbols among the current living conditions (an emptied space shows none)."""
    mask = 0
    for space in range(SPACES):
        if pos.current_count[space]:
            mask |= 1 << pos.current[space]
    return mask


@njit(cache=True)
def resolve_spaces(pos, rules, bits) -> None:
    """Resolve the spaces laid on in order; stop when the chooser must pick among tied symbols."""
    while pos.spaces_head < pos.spaces_end:
        space = pos.spaces_left[pos.spaces_head]
        if change_living_conditions(pos, rules, space, bits):
            pos.phase = TIE
            return
        if pos.chain:  # a space that did not change leaves every counter as it is
            end_chain(pos)
        pos.spaces_head += 1
    after_change(pos, rules, bits)


@njit(cache=True)
def change_living_conditions(pos, rules, space, bits) -> bool:
    """`Environment.resolve`: while the space's face-down chips outnumber its current chips, the symbol with a
    simple majority becomes current (a rapid change when it happens again). Rulings `majority` and
    `majority_tie` (see there); True when the chooser must pick among the tied symbols (`tied`)."""
    pot = pos.potential[space]
    if pot[0] + pot[1] + pot[2] + pot[3] > pos.current_count[space]:  # turned face up, whatever the majority
        reveal(pos, space)
    while True:
        revealed = pot[0] + pot[1] + pot[2] + pot[3]
        if revealed <= pos.current_count[space]:
            return False
        top = max(max(pot[0], pot[1]), max(pot[2], pot[3]))
        tied, count, first = 0, 0, -1
        for s in range(NUM_SYMBOLS):
            if pot[s] == top:
                tied |= 1 << s
                count += 1
                if first < 0:
                    first = s
        if count > 1:
            pos.counters[TIES] += 1  # under every reading of a tie
            if rules.majority == OVER_HALF or rules.majority_tie == NO_CHANGE:
                return False
            if rules.majority_tie == EMPTY:  # the current chips were removed and none take their place
                pos.bag[pos.current[space]] += pos.current_count[space]
                pos.current_count[space] = 0
                return False
            if rules.majority_tie == CHOOSER:
                pos.tie_space, pos.tied = space, tied
                return True
            pick = integers(bits, count)  # rng.integers(len(tied))
            symbol = first
            for s in range(NUM_SYMBOLS):
                if tied >> s & 1:
                    if pick == 0:
                        symbol = s
                        break
                    pick -= 1
        elif rules.majority == OVER_HALF and 2 * top <= revealed:
            return False
        else:
            symbol = first
        change(pos, space, symbol)
        pos.chain += 1


@njit(cache=True, inline="always")
def change(pos, space, symbol) -> None:
    """Current chips back to the bag; the revealed `symbol` chips become the current conditions."""
    pos.bag[pos.current[space]] += pos.current_count[space]
    pos.current[space] = symbol
    pos.current_count[space] = pos.potential[space, symbol]
    pos.potential[space, symbol] = 0
    reveal(pos, space)


@njit(cache=True, inline="always")
def reveal(pos, space) -> None:
    """`Environment.reveal`: the space's face-down chips are turned face up (and the rest face down again):
    everyone has seen them."""
    for s in range(NUM_SYMBOLS):
        pos.known[space, s] = pos.potential[space, s]
        for p in range(MAX_PLAYERS):
            pos.laid[p, space, s] = 0


@njit(cache=True, inline="always")
def end_chain(pos) -> None:
    c = pos.counters
    c[CHANGES] += pos.chain
    pos.setting_changes += pos.chain
    if pos.chain >= 2:
        c[CASCADES] += 1
    c[LONGEST_CASCADE] = max(c[LONGEST_CASCADE], pos.chain)
    pos.chain = 0


@njit(cache=True, inline="always")
def choose_symbol(pos, rules, symbol, bits) -> None:
    """The chooser picks the new current symbol among the tied (ruling `majority_tie = "chooser"`)."""
    change(pos, pos.tie_space, symbol)
    pos.tied = 0
    pos.chain += 1
    pos.phase = FIVE_PHASE if pos.after_setting == FIVE_NEXT else ENVIRONMENT
    resolve_spaces(pos, rules, bits)


@njit(cache=True, inline="always")
def after_change(pos, rules, bits) -> None:
    if pos.setting_changes:  # only a setting that changed the conditions can earn strength dice
        strength_dice(pos, rules)
    if pos.after_setting == TURN:
        next_environment_turn(pos, rules, bits)
    elif pos.after_setting == FIVE_NEXT:
        next_five(pos, rules, bits)
    # AGAIN: the player used the "5" marker on their own turn and now takes their turn


@njit(cache=True, inline="always")
def strength_dice(pos, rules) -> None:
    """A change that completes all of a card's symbols earns it a die showing `new_die`, or raises its die by
    1; only the active player's cards, only while `strength_dice_open`. Ruling `die_gain` (see
    `EnvironmentalChange._strength_dice`)."""
    if not strength_dice_open(pos, rules):
        return
    before, after = pos.mask_before, present(pos)
    for spot in range(rules.spot_count):
        card = pos.spots[spot]
        if card == NO_CARD or pos.owner[card] != pos.player:
            continue
        mask = rules.mask[card]
        if mask & after != mask or (rules.die_gain == COMPLETED and mask & before == mask):
            continue
        if pos.die[card] == 0:
            pos.die[card] = rules.new_die
            pos.seat_counters[DICE_EARNED, pos.player] += 1
        elif pos.die[card] < rules.max_strength:
            pos.die[card] += 1
            pos.seat_counters[DICE_RAISED, pos.player] += 1


@njit(cache=True, inline="always")
def strength_dice_open(pos, rules) -> bool:
    """Whether a change made now can earn or raise strength dice (`die_rounds`; ruling `five_die_round` for the
    "5" marker's chips at the end of placement: by the last placement round played, Move's field or never; none
    after a phase that played no placement round)."""
    if pos.phase != FIVE_PHASE:
        return pos.move <= rules.die_rounds
    if pos.last_round == 0 or rules.five_die_round == NEVER:
        return False
    return (pos.move if rules.five_die_round == TRACKER else pos.last_round) <= rules.die_rounds


@njit(cache=True)
def begin_five(pos, rules, bits) -> None:
    """After the last placement round: each player holding the "5" marker (and the chips it lays), next start
    player first, may use it (ruling `five_timing = "phase_end"`); then survival."""
    pos.phase = FIVE_PHASE
    pos.queue_head = pos.queue_end = 0
    if rules.five_timing == PHASE_END:
        least = rules.five_chips if rules.five_count == EXACT else 1
        n = pos.num_players
        for i in range(n):
            p = (pos.start + 1 + i) % n
            hand = pos.hands[p]
            if pos.five[p] and hand[0] + hand[1] + hand[2] + hand[3] >= least:
                push(pos, p, ANY_COLUMN)
    find_five(pos, rules, bits)


@njit(cache=True, inline="always")
def five_actions(pos, rules, actions) -> int:
    """Keep the "5" marker, or give it up to lay its chips."""
    return five_settings(rules, hand_class(rules, pos.hands[pos.player]), actions, add(actions, 0, KEEP, 0, 0))


@njit(cache=True, inline="always")
def use_five(pos, rules, setting, bits) -> None:
    """Give up the marker and lay its chips: at the end of placement, or on the player's own turn before the
    turn's action (`five_timing`)."""
    pos.five[pos.player] = 0
    pos.five_round[pos.player] = pos.game_round
    pos.after_setting = FIVE_NEXT if pos.phase == FIVE_PHASE else AGAIN
    set_chips(pos, rules, setting, bits)


@njit(cache=True, inline="always")
def next_five(pos, rules, bits) -> None:
    pos.queue_head += 1
    find_five(pos, rules, bits)


@njit(cache=True, inline="always")
def find_five(pos, rules, bits) -> None:
    if pos.queue_head < pos.queue_end:
        pos.player = pos.queue_player[pos.queue_head]
        pos.phase = FIVE_PHASE
        return
    pos.phase = SURVIVAL


# --- 3. survival (survival.py) -------------------------------------------------------------------------------


@njit(cache=True)
def check_survival(pos, rules, bits) -> None:
    """A card with none of its symbols among the current conditions is eliminated (ruling
    `track_cards_need_survival`: the special spaces' cards too); counted by place and distinct symbols."""
    mask = present(pos)
    last = rules.spot_count if rules.track_cards_need_survival else TRACK
    counters = pos.seat_counters
    for spot in range(last):
        card = pos.spots[spot]
        if card == NO_CARD:
            continue
        where = 4 if spot >= TRACK else spot % 4
        sym = 4 + rules.distinct[card]
        owner = pos.owner[card]
        counters[CHECKED + where, owner] += 1
        counters[CHECKED + sym, owner] += 1
        if rules.mask[card] & mask == 0:
            counters[LOST + where, owner] += 1
            counters[LOST + sym, owner] += 1
            pos.counters[SURVIVAL_LOSSES] += 1
            eliminate(pos, spot)
    begin_combat(pos, rules, bits)


@njit(cache=True, inline="always")
def eliminate(pos, spot) -> None:
    retire(pos, pos.spots[spot])
    pos.spots[spot] = NO_CARD


@njit(cache=True)
def retire(pos, card) -> None:
    """A card leaves the game (eliminated, or pushed off the special track): it is out of the game (`out`)
    and counted (`count_card`)."""
    pos.out[pos.out_count] = card
    pos.out_count += 1
    count_card(pos, card)


@njit(cache=True)
def count_card(pos, card) -> None:
    """What a card scored in the game, by the row it entered (counted when it leaves, or at the end)."""
    owner, points = pos.owner[card], pos.card_points[card]
    row = 0 if pos.entry_row[card] == 0 else 1
    pos.seat_counters[ENTERED + row, owner] += 1
    pos.seat_counters[CARD_POINTS + row, owner] += points
    pos.seat_counters[CARD_POINTS_SQ + row, owner] += points * points


# --- 4. combat (fights.py, combat.py) ------------------------------------------------------------------------


@njit(cache=True, inline="always")
def begin_combat(pos, rules, bits) -> None:
    """Each player may pick a fight (each colour with 2 players on 2 columns); rulings `first_fighter`,
    `two_player_battles`."""
    pos.phase = COMBAT
    n = pos.num_players
    first = pos.start if rules.first_fighter == START_PLAYER else pos.start + 1
    pos.queue_head = pos.queue_end = 0
    for _ in range(rules.fights_per_player):
        if pos.columns_per_player == 2:
            if rules.two_player_battles == COLOURS:
                for k in range(2):
                    for i in range(n):
                        p = (first + i) % n
                        push(pos, p, pos.player_columns[p, k])
            else:
                for i in range(n):
                    p = (first + i) % n
                    for k in range(2):
                        push(pos, p, pos.player_columns[p, k])
        else:
            for i in range(n):
                push(pos, (first + i) % n, ANY_COLUMN)
    find_fight(pos, rules, bits)


@njit(cache=True)
def challenges(pos, rules, player, column, actions, n) -> int:
    """The challenges open to `player` with their cards (of `column` only, unless it is -1): each own card
    against each other player's card, in spot order. Rulings `face_down_can_fight`, `track_cards_fight`."""
    last = rules.spot_count if rules.track_cards_fight else TRACK
    first = n
    for a in range(last):
        card = pos.spots[a]
        if card == NO_CARD or pos.owner[card] != player or (column >= 0 and pos.column[card] != column):
            continue
        if pos.face_down[card] and not rules.face_down_can_fight:
            continue
        for d in range(last):
            other = pos.spots[d]
            if other == NO_CARD or pos.owner[other] == player:
                continue
            if pos.face_down[other] and not rules.face_down_can_fight:
                continue
            n = add(actions, n, CHALLENGE, a, d)
    return n - first


@njit(cache=True, inline="always")
def fight_actions(pos, rules, actions) -> int:
    """No fight, or a challenge of one of the player's cards (of the column whose battle it is)."""
    n = add(actions, 0, NO_CHALLENGE, 0, 0)
    return n + challenges(pos, rules, pos.player, pos.queue_column[pos.queue_head], actions, n)


@njit(cache=True, inline="always")
def has_challenge(pos, rules, player, column) -> bool:
    """Whether `player` has a challenge to pick (cards of `column`, or any if -1)."""
    last = rules.spot_count if rules.track_cards_fight else TRACK
    mine = theirs = False
    for spot in range(last):
        card = pos.spots[spot]
        if card == NO_CARD or (pos.face_down[card] and not rules.face_down_can_fight):
            continue
        if pos.owner[card] == player:
            if column < 0 or pos.column[card] == column:
                mine = True
        else:
            theirs = True
    return mine and theirs


@njit(cache=True, inline="always")
def next_fight(pos, rules, bits) -> None:
    pos.queue_head += 1
    find_fight(pos, rules, bits)


@njit(cache=True)
def find_fight(pos, rules, bits) -> None:
    """The next player in the queue with a fight to pick (a player without one has nothing to decide)."""
    while pos.queue_head < pos.queue_end:
        player, column = pos.queue_player[pos.queue_head], pos.queue_column[pos.queue_head]
        if has_challenge(pos, rules, player, column):
            pos.player = player
            return
        pos.queue_head += 1
    pos.phase = ROUND_END


@njit(cache=True)
def dice(pos, rules, card) -> int:
    """Dice a card fights with: for each of its 3 symbols, the current chips of that symbol."""
    total = 0
    for k in range(3):
        s = rules.symbols[card, k]
        for space in range(SPACES):
            if pos.current[space] == s:
                total += pos.current_count[space]
    return min(rules.max_dice, total)


@njit(cache=True, inline="always")
def strength(die) -> int:
    """A card's strength: its strength die's value, or 1 without a die."""
    return 1 if die == 0 else die


@njit(cache=True)
def resolve_fight(pos, rules, attacker, defender, bits) -> int:
    """`combat.resolve_fight` with `fights.dice_rolls`: rolls of both sides' dice (attacker's first) drawn 4
    rolls at a time, a round to the side with more hits (ties by the rule `tie_rule`), until one side has won
    `rounds_to_win` rounds. Returns 0 for a fight that can never end, else (1 attacker, 2 defender) +
    4 * the loser's rounds."""
    sa, da = strength(pos.die[attacker]), dice(pos, rules, attacker)
    sd, dd = strength(pos.die[defender]), dice(pos, rules, defender)
    faces = rules.die_faces
    if rules.tie_rule == REROLL:  # `combat.is_decisive`
        certain_a, certain_d = sa >= faces or da == 0, sd >= faces or dd == 0
        if certain_a and certain_d and (da if sa >= faces else 0) == (dd if sd >= faces else 0):
            return 0
    n = da + dd
    wins_a = wins_d = 0
    while True:  # a block: rng.integers(1, faces + 1, 4 * n), 4 rolls of both sides, one after the other
        for j in range(4):
            hits_a = hits_d = 0
            for _ in range(da):
                hits_a += roll(bits, faces) <= sa
            for _ in range(dd):
                hits_d += roll(bits, faces) <= sd
            if hits_a > hits_d or (hits_a == hits_d and rules.tie_rule == ATTACKER):
                wins_a += 1
                if wins_a == rules.rounds_to_win:
                    rest_of_block(bits, faces, (3 - j) * n)
                    return 1 + 4 * wins_d
            elif hits_d > hits_a or rules.tie_rule != REROLL:
                wins_d += 1
                if wins_d == rules.rounds_to_win:
                    rest_of_block(bits, faces, (3 - j) * n)
                    return 2 + 4 * wins_a


@njit(cache=True, inline="always")
def roll(bits, faces) -> int:
    """One die of `rng.integers(1, faces + 1, size)`: numpy's bounded draw (Lemire's, on 32 bits), one element."""
    return 1 + integers(bits, faces)


@njit(cache=True, inline="always")
def rest_of_block(bits, faces, dice) -> None:
    """The dice of the block's rolls that the fight did not need: drawn all the same, as numpy draws the block."""
    for _ in range(dice):
        roll(bits, faces)


@njit(cache=True)
def fight(pos, rules, attacker, defender, bits) -> None:
    """The challenge of the card on spot `attacker` against the card on spot `defender`, and its effects."""
    a, d = pos.spots[attacker], pos.spots[defender]
    result = resolve_fight(pos, rules, a, d, bits)
    c = pos.counters
    c[FIGHTS] += 1
    pos.seat_counters[FIGHTS_STARTED, pos.owner[a]] += 1
    if result == 0:  # neither side can ever win a round: nothing happens
        c[FIGHTS_ENDLESS] += 1
        return
    if result & 3 == 1:
        win, lose, lose_spot = a, d, defender
        pos.seat_counters[FIGHTS_WON, pos.owner[a]] += 1
    else:
        win, lose, lose_spot = d, a, attacker
    if take_effects(pos, rules, win, lose, result >> 2):
        c[FIGHTS_CLEAN] += 1
        c[FIGHT_LOSSES] += 1
        eliminate(pos, lose_spot)
    else:
        c[FIGHTS_CLOSE] += 1


@njit(cache=True)
def take_effects(pos, rules, win, lose, loser_rounds) -> bool:
    """`combat.fight_effects`: the winner's die rises by 1 unless it was already the stronger (ruling
    `winner_without_die`); a 2:0 loser is eliminated (True: the caller takes it off), a 2:1 loser turns
    face down and its die falls by 1 (never below 1)."""
    w, lo = pos.die[win], pos.die[lose]
    if (w != 0 or rules.winner_without_die == EARNS_DIE) and strength(w) <= strength(lo):
        pos.die[win] = min(rules.max_strength, strength(w) + 1)
    if loser_rounds == 0:
        return True
    if lo != 0:
        pos.die[lose] = max(1, lo - 1)
    pos.face_down[lose] = 1
    return False


# --- 5. shifting and scoring (shifting.py, scoring.py), the end or the next round ---------------------------


@njit(cache=True)
def end_of_round(pos, rules, bits) -> None:
    """Shift (twice once a pile has run out: rule `double_shift`), score, then the end or the next round."""
    shifts = 1
    if rules.double_shift and not (pos.pile_size[0] and pos.pile_size[1] and pos.pile_size[2] and pos.pile_size[3]):
        shifts = 2
    for _ in range(shifts):
        shift(pos, rules, bits)
    pos.double_last = shifts == 2
    pos.counters[DOUBLE_SHIFTS] += shifts == 2
    score(pos, rules)
    count_lead_change(pos)
    pos.counters[ROUNDS] += 1
    if game_over(pos):
        game_end(pos, rules)
        return
    prepare_next_round(pos, rules, bits)


@njit(cache=True, inline="always")
def prepare_next_round(pos, rules, bits) -> None:
    """Trays are topped up from the start player on, End moves on, the start marker passes on."""
    n = pos.num_players
    for i in range(n):
        hand = pos.hands[(pos.start + i) % n]
        draw_chips(pos, bits, rules.chips_per_player - (hand[0] + hand[1] + hand[2] + hand[3]), hand)
    pos.end += 1 if rules.end_direction == UP else -1
    pos.start = (pos.start + 1) % n
    pos.game_round += 1
    pos.phase = NEXT_ROUND


@njit(cache=True)
def shift(pos, rules, bits) -> None:
    """One shift of the board (`Shifting._shift`): every card up a row, the cards off row 9 onto the special
    spaces in `entering_order`. Ruling `special_space_holds`: "several" (a card on the track moves one space
    per shift, a space holds several) or "one" (the entering cards push the track's cards along)."""
    leaving = np.empty(COLUMNS, np.int64)
    count = np.int64(0)  # not a Python 0: numba passed it on as the literal 0 and compiled entering_order twice
    for c in range(COLUMNS):
        if pos.column_owner[c] < 0:
            continue
        base = c * 4
        if pos.spots[base + 3] != NO_CARD:
            leaving[count] = pos.spots[base + 3]
            count += 1
        pos.spots[base + 3], pos.spots[base + 2], pos.spots[base + 1] = (
            pos.spots[base + 2], pos.spots[base + 1], pos.spots[base])
        pos.spots[base] = NO_CARD
    entering = entering_order(pos, rules, leaving, count, bits)
    spaces = rules.special_count
    track = np.full(MAX_SPOTS, NO_CARD, np.int64)  # the new track, spot by spot from TRACK on
    if rules.special_space_holds == ONE:  # line: the entering cards (or a gap), then each space's card
        line = np.full(COLUMNS + MAX_SPECIALS, NO_CARD, np.int64)
        length = max(entering, 1)
        for i in range(entering):
            line[i] = leaving[i]
        for i in range(spaces):
            line[length + i] = pos.spots[track_start(i)]
        for i in range(spaces):
            track[track_start(i) - TRACK] = line[i]
        for i in range(spaces, length + spaces):
            if line[i] != NO_CARD:
                retire(pos, line[i])
    else:  # space i gets the cards of space i - 1 and the i-th entering card
        for i in range(spaces):
            k = track_start(i) - TRACK
            if i:
                for slot in range(track_start(i - 1), track_start(i)):
                    if pos.spots[slot] != NO_CARD:
                        track[k] = pos.spots[slot]
                        k += 1
            if i < entering:
                track[k] = leaving[i]
        for slot in range(track_start(spaces - 1), track_start(spaces)):
            if pos.spots[slot] != NO_CARD:
                retire(pos, pos.spots[slot])
        for i in range(spaces, entering):
            retire(pos, leaving[i])
    for spot in range(TRACK, rules.spot_count):
        pos.spots[spot] = track[spot - TRACK]


@njit(cache=True)
def entering_order(pos, rules, cards, count, bits) -> int:
    """`Shifting._entering_order`: sort cards[:count] face-down first, then strongest first, tied cards
    fighting it out (`tie_fight`), by CPython's own sort for short lists (a run counted from the start, then
    binary insertion), so the same fights happen in the same order; a card a tie fight eliminates leaves
    the game instead. Returns how many enter, in order, at the front of `cards`."""
    if count < 2:
        return count
    keys = np.empty(count, np.int64)  # (not face down, -strength) as one number: smaller sorts first
    knocked = np.zeros(count, np.int64)  # eliminated by a tie fight (full effects only)
    index = np.arange(count)  # the sort works on indices into cards
    for i in range(count):
        keys[i] = (0 if pos.face_down[cards[i]] else 1) * 1000 - strength(pos.die[cards[i]])
    # count_run: a strictly descending run is reversed, else a non-descending run is kept
    run = 2
    if less(pos, rules, cards, keys, knocked, index[1], index[0], bits):
        while run < count and less(pos, rules, cards, keys, knocked, index[run], index[run - 1], bits):
            run += 1
        for k in range(run // 2):
            index[k], index[run - 1 - k] = index[run - 1 - k], index[k]
    else:
        while run < count and not less(pos, rules, cards, keys, knocked, index[run], index[run - 1], bits):
            run += 1
    for start in range(run, count):  # binarysort
        pivot = index[start]
        lo, hi = 0, start
        while lo < hi:
            mid = lo + ((hi - lo) >> 1)
            if less(pos, rules, cards, keys, knocked, pivot, index[mid], bits):
                hi = mid
            else:
                lo = mid + 1
        for k in range(start, lo, -1):
            index[k] = index[k - 1]
        index[lo] = pivot
    ordered = np.empty(count, np.int64)
    entering = 0
    for i in range(count):
        if knocked[i]:
            pos.counters[TRACK_TIE_LOSSES] += 1
            retire(pos, cards[i])
    for k in range(count):
        if not knocked[index[k]]:
            ordered[entering] = cards[index[k]]
            entering += 1
    for k in range(entering):
        cards[k] = ordered[k]
    return entering


@njit(cache=True, inline="always")
def less(pos, rules, cards, keys, knocked, x, y, bits) -> bool:
    """The sort's `x < y` (`compare(x, y) < 0`): by key; equal keys fight, unless one is out already."""
    if keys[x] != keys[y]:
        return keys[x] < keys[y]
    if knocked[x] or knocked[y]:
        return knocked[y] and not knocked[x]
    return tie_fight(pos, rules, cards, knocked, x, y, bits) == x


@njit(cache=True)
def tie_fight(pos, rules, cards, knocked, x, y, bits) -> int:
    """Two equally strong cards leaving row 9 fight it out (the lower column attacks); returns the winner, who
    counts as the stronger; a fight that can never end is settled at random. Ruling `track_tie_fight`: the
    order only, or also the usual effects ("full_effects": a 2:0 loser is knocked out)."""
    first, second = (x, y) if pos.column[cards[x]] < pos.column[cards[y]] else (y, x)
    pos.counters[TRACK_TIE_FIGHTS_COUNT] += 1
    result = resolve_fight(pos, rules, cards[first], cards[second], bits)
    if result == 0:
        return first if next_double(bits) < 0.5 else second
    winner, loser = (first, second) if result & 3 == 1 else (second, first)
    if rules.track_tie_fight == FULL_EFFECTS and take_effects(pos, rules, cards[winner], cards[loser], result >> 2):
        knocked[loser] = 1
    return winner


@njit(cache=True, inline="always")
def empty_spaces(pos, rules, row) -> int:
    """Empty spaces in a grid row (ruling `unused_column_empty`: the unused columns' spaces too)."""
    count = 0
    for c in range(COLUMNS):
        if (rules.unused_column_empty or pos.column_owner[c] >= 0) and pos.spots[c * 4 + row] == NO_CARD:
            count += 1
    return count


@njit(cache=True)
def score(pos, rules) -> None:
    """Grid cards score their row plus the empty-space bonus, the special spaces their value; a face-down card
    scores nothing and turns face up."""
    for spot in range(rules.spot_count):
        card = pos.spots[spot]
        if card == NO_CARD:
            continue
        if pos.face_down[card]:
            pos.face_down[card] = 0
            continue
        owner = pos.owner[card]
        if spot >= TRACK:
            scored = rules.specials[rules.space_of[spot]]
            pos.points[SPECIAL_POINTS, owner] += scored
        else:
            row = ROWS[spot % 4]
            extra = rules.empty_space_bonus * empty_spaces(pos, rules, spot % 4)
            scored = row + extra
            pos.points[ROW_POINTS, owner] += row
            pos.points[EMPTY_POINTS, owner] += extra
        pos.card_points[card] += scored


@njit(cache=True, inline="always")
def leaders(pos) -> int:
    """The players with the most points so far, a bit per player."""
    best, out = -1, 0
    for p in range(pos.num_players):
        total = pos.points[0, p] + pos.points[1, p] + pos.points[2, p] + pos.points[3, p]
        if total > best:
            best, out = total, 1 << p
        elif total == best:
            out |= 1 << p
    return out


@njit(cache=True, inline="always")
def count_lead_change(pos) -> None:
    """A lead change: the players with the most points differ from those after the last scoring."""
    now = leaders(pos)
    if pos.leaders >= 0 and now != pos.leaders:
        pos.counters[LEAD_CHANGES] += 1
    pos.leaders = now


@njit(cache=True, inline="always")
def game_over(pos) -> bool:
    """No card can be placed any more and a column has no card in the grid."""
    if pos.pile_size[0] or pos.pile_size[1] or pos.pile_size[2] or pos.pile_size[3]:
        return False
    for c in range(COLUMNS):
        if pos.column_owner[c] >= 0 and pos.spots[c * 4] == NO_CARD and pos.spots[c * 4 + 1] == NO_CARD \
                and pos.spots[c * 4 + 2] == NO_CARD and pos.spots[c * 4 + 3] == NO_CARD:
            return True
    return False


@njit(cache=True, inline="always")
def game_end(pos, rules) -> None:
    """Unused "5" markers score; every card still on the board is counted in the statistics."""
    for spot in range(rules.spot_count):
        if pos.spots[spot] != NO_CARD:
            count_card(pos, pos.spots[spot])
    for p in range(pos.num_players):
        if pos.five[p]:
            pos.points[FIVE_POINTS, p] += rules.five_points
    pos.phase = OVER
    pos.player = -1


@njit(cache=True, inline="always")
def final_score(pos, p) -> int:
    return pos.points[0, p] + pos.points[1, p] + pos.points[2, p] + pos.points[3, p]


# --- legal actions and the actions ---------------------------------------------------------------------------


@njit(cache=True, inline="always")
def add(actions, n, kind, a, b) -> int:
    actions[n, 0], actions[n, 1], actions[n, 2] = kind, a, b
    return n + 1


@njit(cache=True)
def legal_actions(pos, rules, actions) -> int:
    """Write the current player's actions as rows (type, a, b) into `actions`, in the order
    `TyrannoExState.legal_actions` lists them; returns how many."""
    phase = pos.phase
    if phase == PLACE:
        return placements(pos, actions)
    if phase == ENVIRONMENT:
        return environment_actions(pos, rules, actions)
    if phase == COMBAT:
        return fight_actions(pos, rules, actions)
    if phase == FIVE_PHASE:
        return five_actions(pos, rules, actions)
    if phase == TIE:
        n = 0
        for s in range(NUM_SYMBOLS):
            if pos.tied >> s & 1:
                n = add(actions, n, CHOOSE_SYMBOL, s, 0)
        return n
    return 0


@njit(cache=True, inline="always")
def apply_action(pos, rules, kind, a, b, bits) -> None:
    """The current player carries out the action (kind, a, b) (a row of `legal_actions`); the automatic
    phases run up to the next decision."""
    pos.actions += 1
    if kind == PLACE_CARD:
        place_animal_card(pos, rules, a, b, bits)
    elif kind == PASS_TURN:
        pass_turn(pos, rules, bits)
    elif kind == TRADE:
        trade_chips(pos, rules, a, bits)
    elif kind == SET_CHIPS:
        pos.after_setting = TURN
        set_chips(pos, rules, a, bits)
    elif kind == USE_FIVE:
        use_five(pos, rules, a, bits)
    elif kind == KEEP:
        next_five(pos, rules, bits)
    elif kind == CHOOSE_SYMBOL:
        choose_symbol(pos, rules, a, bits)
    elif kind == NO_CHALLENGE:
        next_fight(pos, rules, bits)
    else:
        fight(pos, rules, a, b, bits)
        next_fight(pos, rules, bits)
    advance(pos, rules, bits)


@njit(cache=True)
def carry_out(pos, rules, kind, a, b, bits) -> None:
    """`apply_action` as a function of its own, for the compiled search (`compiled_search.py`)."""
    apply_action(pos, rules, kind, a, b, bits)


@njit(cache=True)
def advance(pos, rules, bits) -> None:
    """Run the steps between decisions (`SURVIVAL`, `ROUND_END`, `NEXT_ROUND`) up to the next decision or the
    game's end."""
    while True:
        if pos.phase == SURVIVAL:
            check_survival(pos, rules, bits)
        elif pos.phase == ROUND_END:
            end_of_round(pos, rules, bits)
        elif pos.phase == NEXT_ROUND:
            begin_placement(pos, rules, bits)
        else:
            return


@njit(cache=True)
def list_actions(game, tables, actions) -> int:
    """`legal_actions` of a one-position array under the rules' `tables`, called from Python."""
    return legal_actions(game[0], tables[0], actions)


@njit(cache=True)
def play_action(game, tables, action, rng) -> None:
    """`apply_action` of the row `action` on a one-position array, called from Python."""
    apply_action(game[0], tables[0], action[0], action[1], action[2], rng.bit_generator)


# --- the object engine's positions and actions as records: every compiled search decision starts from `position_of`
# (compiled_search.choose); the differential tests compare records with `tidy` and `differences` -------------

PHASES = {"place": PLACE, "environment": ENVIRONMENT, "tie": TIE, "five": FIVE_PHASE, "combat": COMBAT,
          "over": OVER}
AFTER = {"turn": TURN, "again": AGAIN, "five": FIVE_NEXT, "": TURN}


def position_of(state: TyrannoExState) -> np.recarray:
    """The compiled form of one of the object engine's positions: every compiled search decision starts from it
    (`compiled_search.choose`), and the differential tests compare it with the compiled engine's position
    (`actions` left 0: the object engine does not count them). Only what `tidy` keeps is filled."""
    out = np.zeros(1, POSITION)
    pos = out[0]
    index = {card.name: c for c, card in enumerate(state.deck)}
    pos["spots"][:] = NO_CARD
    for spot, bc in enumerate(state.spots):
        if bc is None:
            continue
        c = index[bc.card.name]
        pos["spots"][spot] = c
        pos["owner"][c], pos["column"][c], pos["die"][c] = bc.owner, bc.column, bc.die or 0
        pos["face_down"][c], pos["entry_row"][c], pos["card_points"][c] = bc.face_down, bc.entry_row, bc.points
    for i, pile in enumerate(state.piles):
        pos["piles"][i, : len(pile)] = [index[card.name] for card in pile]
        pos["pile_size"][i] = len(pile)
    env = state.env
    pos["bag"], pos["current"], pos["current_count"] = state.bag.chips, env.current, env.current_count
    pos["potential"], pos["known"] = env.potential, env.known
    pos["laid"][: len(env.laid)] = env.laid
    pos["out_count"], pos["set_aside_count"] = len(state.out), len(state.set_aside)
    pos["out"][: len(state.out)] = [index[card.name] for card in state.out]
    pos["set_aside"][: len(state.set_aside)] = [index[card.name] for card in state.set_aside]
    n = state.num_players
    pos["num_players"] = n
    pos["hands"][:n], pos["five"][:n] = state.hands, state.five
    pos["five_round"][:n] = [0 if np.isnan(r) else r for r in state.five_round]
    pos["column_owner"] = [-1 if o is None else o for o in state.column_owner]
    pos["columns_per_player"] = len(state.player_columns[0])
    for p, cols in enumerate(state.player_columns):
        pos["player_columns"][p, : len(cols)] = cols
    pos["phase"], pos["player"] = PHASES[state.phase], state.player
    queue = state.queue if state.phase in ("place", "five", "combat") else []
    pos["queue_end"] = len(queue)
    for k, (p, c) in enumerate(queue):
        pos["queue_player"][k], pos["queue_column"][k] = p, c
    pos["start"], pos["game_round"], pos["end"], pos["move"] = state.start, state.round, state.end, state.move
    pos["limit"] = NO_LIMIT if state.limit is None else state.limit
    pos["passes"], pos["last_round"], pos["double_last"] = state.passes, state.last_round, state.double_last
    if state.phase == "tie":
        pos["spaces_end"] = len(state.spaces_left)
        pos["spaces_left"][: len(state.spaces_left)] = state.spaces_left
        pos["chain"], pos["setting_changes"] = state.chain, state.setting_changes
        pos["mask_before"], pos["after_setting"] = state.mask_before, AFTER[state.after_setting]
        pos["tie_space"] = state.tie[0]
        pos["tied"] = sum(1 << s for s in state.tie[1])
    for k, name in enumerate(SOURCES):
        pos["points"][k, :n] = state.points[name]
    pos["counters"] = [state.counters[name] for name in GAME_COUNTERS]
    for k, name in enumerate(SEAT_COUNTERS):
        pos["seat_counters"][k, :n] = state.seat_counters[name]
    pos["leaders"] = -1 if state.leaders is None else sum(1 << p for p in state.leaders)
    return out.view(np.recarray)


def tidy(game: np.ndarray) -> np.ndarray:
    """A copy of the position with what no rule reads any more cleared: the fields of cards off the board,
    the places past each pile's size, the queue's decisions taken, a setting's bookkeeping outside a tie
    (`phase` TIE: the setting waits for the chooser), `limit` outside environmental change, `actions`.
    Two positions are the same game position when their tidy copies are equal (`differences`)."""
    out = game.view(np.ndarray).copy()
    pos = out[0]
    off_board = np.ones(MAX_DECK, dtype=bool)
    off_board[pos["spots"][pos["spots"] != NO_CARD]] = False
    for name in ("owner", "column", "die", "face_down", "entry_row", "card_points"):
        pos[name][off_board] = 0
    for i in range(PILES):
        pos["piles"][i, pos["pile_size"][i]:] = 0
    pos["out"][pos["out_count"]:] = 0
    pos["set_aside"][pos["set_aside_count"]:] = 0
    head, end = int(pos["queue_head"]), int(pos["queue_end"])
    if pos["phase"] in (PLACE, FIVE_PHASE, COMBAT):
        for name in ("queue_player", "queue_column"):
            pos[name][: end - head] = pos[name][head:end].copy()
            pos[name][end - head:] = 0
        pos["queue_head"], pos["queue_end"] = 0, end - head
    else:
        pos["queue_player"], pos["queue_column"], pos["queue_head"], pos["queue_end"] = 0, 0, 0, 0
    if pos["phase"] == TIE:
        head, end = int(pos["spaces_head"]), int(pos["spaces_end"])
        pos["spaces_left"][: end - head] = pos["spaces_left"][head:end].copy()
        pos["spaces_left"][end - head:] = 0
        pos["spaces_head"], pos["spaces_end"] = 0, end - head
    else:
        for name in ("spaces_left", "spaces_head", "spaces_end", "chain", "setting_changes", "mask_before",
                     "after_setting", "tie_space", "tied"):
            pos[name] = 0
    if pos["phase"] not in (ENVIRONMENT, TIE):
        pos["limit"] = 0
    if pos["phase"] == OVER:
        pos["player"] = -1
    pos["actions"] = 0
    return out


def differences(game: np.ndarray, other: np.ndarray) -> list[str]:
    """The fields in which two positions differ, each held to `tidy` (empty: the same game position)."""
    return differing_fields(tidy(game), tidy(other))


def action_of(state: TyrannoExState, action) -> tuple:
    """One of the object engine's actions as a comparable row: (type, a, b), a setting or trade by its
    chips."""
    kind = type(action)
    if kind is PlaceCard:
        return (PLACE_CARD, action.pile, action.column * 4 + ROWS.index(action.row))
    if action is PASS:
        return (PASS_TURN, 0, 0)
    if kind is Trade:
        return (TRADE, tuple(action.returned), 0)
    if kind is SetChips:
        return (SET_CHIPS, tuple(action.chips), 0)
    if kind is UseFive:
        return (USE_FIVE, tuple(action.chips), 0)
    if action is KEEP_FIVE:
        return (KEEP, 0, 0)
    if kind is ChooseSymbol:
        return (CHOOSE_SYMBOL, action.symbol, 0)
    if action is NO_FIGHT:
        return (NO_CHALLENGE, 0, 0)
    if kind is Challenge:
        return (CHALLENGE, action.attacker, action.defender)
    raise ValueError(f"not a Tyranno Ex action: {action!r}")


def action_row(tables: np.ndarray, row) -> tuple:
    """A compiled action as the comparable row `action_of` makes."""
    r = tables[0]
    kind, a, b = (int(v) for v in row)
    if kind == TRADE:
        return (TRADE, tuple(int(s) for s in r["trades"][a, : r["trade_size"][a]]), 0)
    if kind in (SET_CHIPS, USE_FIVE):  # b packs the setting's spaces
        return (kind, tuple((int(s), int(sp)) for s, sp in r["settings"][a, : r["setting_size"][a]]), 0)
    return (kind, a, b)
