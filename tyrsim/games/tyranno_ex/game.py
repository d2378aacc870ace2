"""The full Tyranno Ex game: placement, environmental change, survival, combat, shifting, scoring.

A round runs the rulebook's five phases. Players decide in placement (which
face-up card), environmental change (trade, set chips, pass; pick among tied
symbols; use the "5" marker) and combat (challenge or not); survival,
shifting, scoring and the next round's preparation run by themselves inside
`apply`. Chance (the bag, the piles, the dice) comes from the state's own
generator.

The board is a list of 16 grid spots, spot = column * 4 + row index (row
index 0-3 for rows 0, 3, 6, 9), followed by the special spaces (13, 10, 7 by
default). Special space i has i + 1 spots, since it can hold that many cards
(`special_space_holds = "several"`: each shift moves one card onto 13 and the
cards on space i - 1 on to space i); they follow one another, space by space:
spot 16 is 13, spots 17-18 are 10, spots 19-21 are 7. With one card per space
only each space's first spot is used.

A play log (`tyrsim play`) reads `describe(action)` and the state's
`narration`: while it is a list, the state appends a sentence for each thing
an action caused (chips turned up, a fight's rolls and outcome, survival,
shifting, each scoring, the end). It is None otherwise, and every append is
guarded, so simulation and search pay nothing.
"""

from __future__ import annotations

import functools
import itertools
import math
from dataclasses import dataclass, field

import numpy as np

from tyrsim.core.words import listing
from tyrsim.games.tyranno_ex.cards import SYMBOLS, Card, load_deck
from tyrsim.games.tyranno_ex.combat import Fight, fight_effects, resolve_fight, strength
from tyrsim.games.tyranno_ex.environment import (
    NUM_SYMBOLS,
    SPACES,
    Bag,
    Environment,
    chips_text,
    symbol_counts,
)
from tyrsim.games.tyranno_ex.rules import Rules

ROWS = (0, 3, 6, 9)  # the grid's rows, bottom to top; a card scores its row's number
COLUMNS = 4
PILES = 4
TRACK = COLUMNS * len(ROWS)  # first special-space spot
PLACE_NAMES = tuple(f"row{r}" for r in ROWS)  # survival counters: where the card was checked
SYMBOL_COUNT_NAMES = ("", "sym1", "sym2", "sym3")  # ... and how many different symbols it shows
SURVIVAL_NAMES = (*PLACE_NAMES, "special", *SYMBOL_COUNT_NAMES[1:])
CARD_COUNTERS = {
    r: (f"cards_entered_row{r}", f"card_points_row{r}", f"card_points_sq_row{r}") for r in ROWS[:2]
}  # what the cards entering a row scored, by the row they entered
SEAT_COUNTERS = (
    "cards_placed", "fights_started", "fights_won", "dice_earned", "dice_raised", "trades", "chips_set",
    *(f"{k}_row{r}" for k in ("cards_entered", "card_points", "card_points_sq") for r in ROWS[:2]),
    *(f"checked_{w}" for w in SURVIVAL_NAMES),
    *(f"lost_{w}" for w in SURVIVAL_NAMES),
)  # fmt: skip


def track_spot(space: int, slot: int = 0) -> int:
    """The spot of card `slot` on special space `space` (0 is the first, 13 by default); space i has i + 1."""
    return TRACK + space * (space + 1) // 2 + slot


def track_space(spot: int) -> int:
    """The special space (0 is the first, 13 by default) of a spot at or after TRACK."""
    return (math.isqrt(8 * (spot - TRACK) + 1) - 1) // 2


def spot_name(spot: int) -> str:
    """'c2r6' for column 2, row 6; 's0', 's1', 's2' for the special spaces (13, 10, 7 by default),
    's1.1' for the second card on space 's1' (when a special space holds several cards)."""
    if spot >= TRACK:
        space = track_space(spot)
        slot = spot - track_spot(space)
        return f"s{space}" + (f".{slot}" if slot else "")
    return f"c{spot // 4}r{ROWS[spot % 4]}"


# --- actions (frozen dataclasses: actions of different kinds never compare equal) ---


@dataclass(frozen=True, slots=True)
class PlaceCard:
    """Take the face-up card of a pile (`card`, named for the log) and place it in a column's row."""

    pile: int
    column: int
    row: int
    card: Card

    def __repr__(self) -> str:
        return f"PlaceCard({self.card.name} from pile {self.pile} -> column {self.column} row {self.row})"


@dataclass(frozen=True, slots=True)
class Trade:
    """Draw len(returned) chips from the bag, then return these old chips (symbols)."""

    returned: tuple[int, ...]

    def __repr__(self) -> str:
        return f"Trade({', '.join(SYMBOLS[s] for s in self.returned)})"


def _group_by_space(setting: SetChips | UseFive) -> None:
    spaces = tuple(sorted({space for _, space in setting.chips}))
    by_space = tuple((space, tuple(sorted(s for s, sp in setting.chips if sp == space))) for space in spaces)
    object.__setattr__(setting, "spaces", spaces)
    object.__setattr__(setting, "by_space", by_space)


@dataclass(frozen=True, slots=True)
class SetChips:
    """Lay chips face down on potential spaces: (symbol, space) pairs."""

    chips: tuple[tuple[int, int], ...]
    spaces: tuple[int, ...] = field(init=False, compare=False, repr=False)  # the spaces laid on, in order
    # (space, sorted symbols laid there) for each space laid on, in order
    by_space: tuple[tuple[int, tuple[int, ...]], ...] = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        _group_by_space(self)

    def __repr__(self) -> str:
        return f"SetChips({', '.join(f'{SYMBOLS[s]}->space {sp}' for s, sp in self.chips)})"


@dataclass(frozen=True, slots=True)
class UseFive:
    """Give up the "5" marker to lay extra chips: (symbol, space) pairs."""

    chips: tuple[tuple[int, int], ...]
    spaces: tuple[int, ...] = field(init=False, compare=False, repr=False)  # the spaces laid on, in order
    # (space, sorted symbols laid there) for each space laid on, in order
    by_space: tuple[tuple[int, tuple[int, ...]], ...] = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        _group_by_space(self)

    def __repr__(self) -> str:
        return f"UseFive({', '.join(f'{SYMBOLS[s]}->space {sp}' for s, sp in self.chips)})"


@dataclass(frozen=True, slots=True)
class KeepFive:
    """Keep the "5" marker for now."""

    def __repr__(self) -> str:
        return "KeepFive()"


@dataclass(frozen=True, slots=True)
class ChooseSymbol:
    """Pick the new current symbol of a space among the tied potential symbols."""

    space: int
    symbol: int

    def __repr__(self) -> str:
        return f"ChooseSymbol(space {self.space}: {SYMBOLS[self.symbol]})"


@dataclass(frozen=True, slots=True)
class Pass:
    """Do nothing this environment turn."""

    def __repr__(self) -> str:
        return "Pass()"


@dataclass(frozen=True, slots=True)
class Challenge:
    """Fight with own card on spot `attacker` against another player's card on spot `defender`."""

    attacker: int
    defender: int

    def __repr__(self) -> str:
        return f"Challenge({spot_name(self.attacker)} -> {spot_name(self.defender)})"


@dataclass(frozen=True, slots=True)
class NoFight:
    """Pick no fight this round."""

    def __repr__(self) -> str:
        return "NoFight()"


PASS, KEEP_FIVE, NO_FIGHT = Pass(), KeepFive(), NoFight()
# actions are immutable, so each is built once and shared
_place_card = functools.cache(PlaceCard)


@functools.cache
def _challenge_row(attacker: int, spots: int) -> tuple[Challenge, ...]:
    """The challenges of the card on spot `attacker` against each spot of a board of `spots` spots."""
    return tuple(Challenge(attacker, defender) for defender in range(spots))


@functools.lru_cache(maxsize=4096)
def chip_options(hand: tuple[int, ...], most: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Every way to lay 1 to `most` chips of the hand (chips per symbol) on the spaces."""
    pairs = [(s, sp) for s in range(NUM_SYMBOLS) for sp in range(SPACES)]
    out = []
    for k in range(1, most + 1):
        for combo in itertools.combinations_with_replacement(pairs, k):
            used = [0] * NUM_SYMBOLS
            for s, _ in combo:
                used[s] += 1
            if all(u <= h for u, h in zip(used, hand, strict=True)):
                out.append(combo)
    return tuple(out)


def _at_most(hand: tuple[int, ...], most: int) -> tuple[int, ...]:
    """The hand with counts above `most` cut to `most`: the same options, fewer cache keys."""
    return tuple(h if h < most else most for h in hand)


@functools.lru_cache(maxsize=4096)
def _set_chips_actions(hand: tuple[int, ...], most: int) -> tuple[SetChips, ...]:
    return tuple(SetChips(c) for c in chip_options(hand, most))


@functools.lru_cache(maxsize=4096)
def _five_chips_actions(hand: tuple[int, ...], most: int, exact: bool) -> tuple[UseFive, ...]:
    # ruling `five_count`: "place 2 additional chips" lays exactly `most` chips ("exact"), or 1 to `most`
    return tuple(UseFive(c) for c in chip_options(hand, most) if not exact or len(c) == most)


def _set_actions(hand: tuple[int, ...], most: int) -> tuple[SetChips, ...]:
    return _set_chips_actions(_at_most(hand, most), most)


def _five_actions(hand: tuple[int, ...], most: int, exact: bool) -> tuple[UseFive, ...]:
    return _five_chips_actions(_at_most(hand, most), most, exact)


@functools.lru_cache(maxsize=4096)
def _trade_actions(hand: tuple[int, ...], most: int) -> tuple[Trade, ...]:
    out = []
    for k in range(1, most + 1):
        for combo in itertools.combinations_with_replacement(range(NUM_SYMBOLS), k):
            if all(combo.count(s) <= hand[s] for s in set(combo)):
                out.append(Trade(combo))
    return tuple(out)


@functools.lru_cache(maxsize=8192)
def _environment_actions(
    hand: tuple[int, ...], set_most: int, trade_most: int, five_most: int, five_exact: bool
) -> list:
    return [
        PASS, *_trade_actions(hand, trade_most), *_set_actions(hand, set_most),
        *_five_actions(hand, five_most, five_exact),
    ]  # fmt: skip


@functools.lru_cache(maxsize=256)
def _choices(space: int, tied: tuple[int, ...]) -> list[ChooseSymbol]:
    return [ChooseSymbol(space, s) for s in tied]


def dice_rolls(rng: np.random.Generator, attacker_dice: int, defender_dice: int, faces: int):
    """Endless (attacker's dice, defender's dice) rolls for `resolve_fight`, drawn a few rolls at a time."""
    n = attacker_dice + defender_dice
    while True:
        dice = rng.integers(1, faces + 1, size=4 * n).tolist()  # 4 rolls of both sides, one after the other
        for start in range(0, 4 * n, n) if n else range(4):
            yield dice[start : start + attacker_dice], dice[start + attacker_dice : start + n]


# --- the play log's words ------------------------------------------------------------


def _count(n: int, word: str, plural: str = "") -> str:
    """ "1 die", "3 dice", "1 hit", "0 hits"."""
    return f"{n} {word if n == 1 else plural or word + 's'}"


def _laid_text(by_space: tuple[tuple[int, tuple[int, ...]], ...]) -> str:
    """Chips laid, space by space: "2 leaf on space 0 and 1 water on space 3"."""
    return listing([f"{chips_text(symbol_counts(symbols))} on space {space}" for space, symbols in by_space])


def _lead(attacker: str, defender: str, attacker_rounds: int, defender_rounds: int) -> str:
    """The fight's score in the rulebook's words: "1:0 for Heron", "1:1"."""
    if attacker_rounds == defender_rounds:
        return f"{attacker_rounds}:{defender_rounds}"
    ahead = attacker if attacker_rounds > defender_rounds else defender
    return f"{max(attacker_rounds, defender_rounds)}:{min(attacker_rounds, defender_rounds)} for {ahead}"


def fight_lines(attacker: str, defender: str, fight: Fight) -> list[str]:
    """A fight's rolls in words, one line per roll; three or more tied rolls in a row that do not count share one."""
    lines: list[str] = []
    ar = dr = 0
    ties: list[tuple[int, int, str]] = []  # (roll number, hits, line) of the tied rolls not said yet
    for number, roll in enumerate(fight.rolls, 1):
        a_dice = " ".join(map(str, sorted(roll.attacker_rolls))) or "nothing"
        d_dice = " ".join(map(str, sorted(roll.defender_rolls))) or "nothing"
        said = (f"Roll {number}: {attacker} rolls {a_dice} ({_count(roll.attacker_hits, 'hit')}), "
                f"{defender} {d_dice} ({_count(roll.defender_hits, 'hit')})")  # fmt: skip
        if roll.winner is None:
            ties.append((number, roll.attacker_hits, f"{said}: a tie, it doesn't count."))
            continue
        if len(ties) >= 3:
            hits = ", ".join(f"{h}:{h}" for _, h, _ in ties)
            lines.append(f"Rolls {ties[0][0]}-{ties[-1][0]}: tied every time (hits {hits}); ties don't count.")
        else:
            lines += [line for _, _, line in ties]
        ties.clear()
        ar, dr = ar + (roll.winner == "attacker"), dr + (roll.winner == "defender")
        taker = attacker if roll.winner == "attacker" else defender
        tie = f"a tie, which goes to the {roll.winner}: " if roll.tied else ""
        lines.append(f"{said}: {tie}{taker} takes it, {_lead(attacker, defender, ar, dr)}.")
    return lines


# --- the board ------------------------------------------------------------------


@dataclass(slots=True)
class BoardCard:
    """An animal card on the board, marked with its owner's stone."""

    card: Card
    owner: int
    column: int
    die: int | None = None  # the strength die's value, None without a die
    face_down: bool = False  # lost 2:1 this round: scores nothing at the next scoring
    entry_row: int = 0  # the row it was placed in
    points: int = 0  # points it has scored so far

    def copy(self) -> BoardCard:
        new = BoardCard.__new__(BoardCard)
        new.card, new.owner, new.column, new.die = self.card, self.owner, self.column, self.die
        new.face_down, new.entry_row, new.points = self.face_down, self.entry_row, self.points
        return new

    def __repr__(self) -> str:
        die = f" die {self.die}" if self.die is not None else ""
        return f"{self.card.name}[P{self.owner}{die}{' face down' if self.face_down else ''}]"


def column_layout(num_players: int, two_player_columns: int = 2) -> tuple[list[int | None], list[tuple[int, ...]]]:
    """(owner of each column, columns of each player).

    With 2 players each runs an outer and an inner column, outer first (its
    battle comes first); with 3 players the last column is left out. Ruling
    `two_player_columns = 1`: 2 players run one column each, the last two are
    left out.
    """
    if num_players == 2 and two_player_columns == 2:
        return [0, 1, 0, 1], [(0, 2), (3, 1)]
    owners = [p if p < num_players else None for p in range(COLUMNS)]
    return owners, [(p,) for p in range(num_players)]


class TyrannoExState:
    """One game of Tyranno Ex in progress."""

    def __init__(self, rules: Rules, num_players: int, rng: np.random.Generator) -> None:
        self.rules = rules
        self.num_players = num_players
        self.rng = rng
        self.narration: list[str] | None = None  # a play log's sentences; None: nobody listens (see the module)
        self.column_owner, self.player_columns = column_layout(num_players, rules.two_player_columns)
        self.used_columns = [c for c in range(COLUMNS) if self.column_owner[c] is not None]
        self.spots: list[BoardCard | None] = [None] * track_spot(len(rules.special_spaces))
        self.out: list[Card] = []  # cards eliminated or pushed off the special track
        # set-up: shuffle the animal cards; 3 players set 4 aside; deal 4 piles, top card face up
        self.deck = load_deck(rules.deck_file)  # every card of the game, in the deck file's order
        order = rng.permutation(len(self.deck))
        shuffled = [self.deck[i] for i in order]
        self.set_aside = shuffled[:4] if num_players == 3 else []
        rest = shuffled[len(self.set_aside):]
        self.piles = [rest[i::PILES] for i in range(PILES)]  # the face-up card is a pile's last
        self.bag = Bag([rules.chips_per_symbol] * NUM_SYMBOLS)
        # one chip drawn openly onto each current space (drawn first, so a small bag still fills the 4 spaces;
        # the 4 spaces are alike, so which space got which opening chip does not matter)
        opening = self.bag.draw(SPACES, rng)
        self.env = Environment([s for s in range(NUM_SYMBOLS) for _ in range(opening[s])], players=num_players)
        self.hands = [self.bag.draw(rules.chips_per_player, rng) for _ in range(num_players)]
        self.five = [rules.five_marker] * num_players
        self.start = 0
        self.round = 1
        self.end = rules.end_start
        self.move = rules.move_start
        self.double_last = False  # the last shifting was double: two rows to fill
        self.points = {name: [0] * num_players for name in ("rows", "empty", "special", "five")}
        self.counters: dict[str, float] = {
            "rounds": 0, "changes": 0, "cascades": 0, "longest_cascade": 0, "ties": 0,
            "fights": 0, "fights_clean": 0, "fights_close": 0, "fights_endless": 0, "track_tie_fights": 0,
            "track_tie_losses": 0, "double_shifts": 0, "survival_losses": 0, "fight_losses": 0, "lead_changes": 0,
        }  # fmt: skip
        self.seat_counters: dict[str, list[float]] = {name: [0.0] * num_players for name in SEAT_COUNTERS}
        self.five_round = [float("nan")] * num_players
        self.leaders: list[int] | None = None  # the players with the highest total after the last scoring
        self.terminal = False
        # decision bookkeeping
        self.phase = ""
        self.player = -1
        self.queue: list[tuple[int, int]] = []  # (player, column) decisions still to come in this phase
        self.passes = 0  # passes in a row in the environment phase
        self.last_round = rules.move_start  # the placement round (Move's field) of the phase's last turn
        self.limit: int | None = None  # the field where this environment phase's placement stops
        self.fight_options: list | None = None  # the challenges open to the player to act in combat
        self.tie: tuple[int, list[int]] | None = None  # (space, tied symbols) awaiting the chooser
        self.spaces_left: list[int] = []  # spaces still to check after the current setting
        self.chain = 0  # changes on the space being resolved (2 or more: a rapid change)
        self.setting_changes = 0  # changes caused by the current setting, over all its spaces
        self.mask_before = 0
        self.after_setting = ""  # "turn", "again" (own-turn "5" marker) or "five" (phase-end "5" marker)
        self._begin_placement()

    # --- protocol ---------------------------------------------------------------

    def current_player(self) -> int:
        return -1 if self.terminal else self.player

    def is_terminal(self) -> bool:
        return self.terminal

    def legal_actions(self) -> list:
        """The current player's actions; lists may be shared between calls, so never change one."""
        phase = self.phase  # the phases in the order of how often they come up
        if phase == "environment":
            return self._environment_actions()
        if phase == "tie":
            space, tied = self.tie
            return _choices(space, tuple(tied))
        if phase == "place":
            return self._place_actions()
        if phase == "combat":
            if self.fight_options is None:
                self.fight_options = [NO_FIGHT, *self._challenges(self.player, self.queue[0][1])]
            return self.fight_options
        if phase == "five":
            r = self.rules
            return [KEEP_FIVE, *_five_actions(tuple(self.hands[self.player]), r.five_chips, r.five_count == "exact")]
        return []

    def apply(self, action) -> None:
        """Play a legal action of the current player, then run automatic phases up to the next decision."""
        kind = type(action)  # the kinds in the order of how often they are played
        if kind is SetChips:
            self._set_chips(action, "turn")
        elif kind is ChooseSymbol:
            self._choose_symbol(action.symbol)
        elif kind is PlaceCard:
            self._place(action)
        elif kind is Challenge:
            self._fight(action.attacker, action.defender)
            self._next_fight()
        elif kind is Pass:
            self.passes += 1
            self._next_environment_turn()
        elif kind is Trade:
            self._trade(action.returned)
        elif kind is NoFight:
            self._next_fight()
        elif kind is UseFive:
            self.five[self.player] = False
            self.five_round[self.player] = self.round
            self._set_chips(action, "five" if self.phase == "five" else "again")
        elif kind is KeepFive:
            self._next_five()
        else:
            raise ValueError(f"not a Tyranno Ex action: {action!r}")

    def describe(self, action) -> str:
        """The current player's action in plain words, for a play log (asked before it is applied)."""
        kind = type(action)
        if kind is PlaceCard:
            return f"place {action.card.describe()} from pile {action.pile} in column {action.column}, row {action.row}"
        if kind is Trade:
            returned = chips_text(symbol_counts(action.returned))
            return f"trade {returned} for as many chips from the bag"
        if kind is SetChips:
            return f"set {_laid_text(action.by_space)}, face down"
        if kind is UseFive:
            return f'give up the "5" marker to set {_laid_text(action.by_space)}, face down'
        if kind is KeepFive:
            return 'keep the "5" marker'
        if kind is ChooseSymbol:
            tied = f" (tied: {listing([SYMBOLS[s] for s in self.tie[1]])})" if self.tie else ""
            return f"pick {SYMBOLS[action.symbol]} as the new current symbol of space {action.space}{tied}"
        if kind is Pass:
            return "pass"
        if kind is Challenge:
            a, d = self.spots[action.attacker], self.spots[action.defender]
            return (f"{a.card.name} ({self._fighter_text(action.attacker)}) challenges "
                    f"P{d.owner}'s {d.card.name} ({self._fighter_text(action.defender)})")  # fmt: skip
        if kind is NoFight:
            return "pick no fight"
        return repr(action)

    def _where(self, spot: int) -> str:
        """Where a spot is, for a play log: "row 3" ("column 2, row 3" when a player runs two columns),
        "special space 13"."""
        if spot >= TRACK:
            return f"special space {self.rules.special_spaces[track_space(spot)]}"
        row = f"row {ROWS[spot % 4]}"
        return row if len(self.player_columns[0]) == 1 else f"column {spot // 4}, {row}"

    def _fighter_text(self, spot: int) -> str:
        """A card about to fight, for a play log: "row 3, strength 3, 2 dice"."""
        bc = self.spots[spot]
        return f"{self._where(spot)}, strength {strength(bc.die)}, {_count(self.dice(bc.card), 'die', 'dice')}"

    def scores(self) -> list[float]:
        return [float(sum(self.points[k][p] for k in self.points)) for p in range(self.num_players)]

    def winners(self) -> list[int]:
        """Most points wins; the rulebook has no tie-break, so a tie is a shared victory."""
        return self._leaders()

    def _leaders(self) -> list[int]:
        """The players with the most points so far."""
        totals = [sum(points) for points in zip(*self.points.values(), strict=True)]  # per player, over the sources
        best = max(totals)
        return [p for p, total in enumerate(totals) if total == best]

    def stats(self) -> dict[str, float]:
        out = {k: float(v) for k, v in self.counters.items()}
        for p in range(self.num_players):
            for k, values in self.points.items():
                out[f"points_{k}_p{p}"] = float(values[p])
            for k, values in self.seat_counters.items():
                out[f"{k}_p{p}"] = values[p]
            out[f"five_used_p{p}"] = float(self.rules.five_marker and not self.five[p])
            out[f"five_round_p{p}"] = float(self.five_round[p])
        return out

    def clone(self) -> TyrannoExState:
        """An independent copy, its chance generator included (the same future draws and dice)."""
        bit_generator = type(self.rng.bit_generator)()
        bit_generator.state = self.rng.bit_generator.state
        return self._copy(np.random.Generator(bit_generator))

    def _copy(self, rng: np.random.Generator) -> TyrannoExState:
        """A copy with chance generator `rng`: it shares what no move changes (rules, deck, cards, actions,
        the set-aside cards) and copies what moves change."""
        new = TyrannoExState.__new__(TyrannoExState)
        new.__dict__.update(self.__dict__)
        new.rng = rng
        new.narration = None  # a copy (a search's) tells nobody what happens in it
        new.spots = [bc if bc is None else bc.copy() for bc in self.spots]
        new.out = list(self.out)
        new.piles = [list(pile) for pile in self.piles]
        new.bag = Bag(self.bag.chips)
        new.env = self.env.copy()
        new.hands = [list(hand) for hand in self.hands]
        new.five = list(self.five)
        new.five_round = list(self.five_round)
        new.points = {k: list(v) for k, v in self.points.items()}
        new.counters = dict(self.counters)
        new.seat_counters = {k: list(v) for k, v in self.seat_counters.items()}
        new.queue = list(self.queue)
        new.spaces_left = list(self.spaces_left)
        # `leaders`, `fight_options` and `tie` are replaced, never changed in place, so they are shared
        return new

    def determinize(self, player: int, rng: np.random.Generator) -> TyrannoExState:
        """A copy consistent with everything `player` has seen, the rest sampled from `rng` (for search).

        Seen: the board, the cards out of the game, the face-up cards, the current chips, the player's own
        hand, the chips it laid face down since they were last turned face up, the chips everyone saw
        turned face up, and how many chips each hand, the bag and each space hold (and who laid them).
        Resampled: the cards under the face-up ones and the set-aside cards (dealt from the deck less the
        seen cards, in the deck's order, shuffled), and the symbols of the other hands, of the face-down
        chips others laid and of the bag (drawn from the chips the player has not seen, counted per
        symbol). The true hidden values are never read, only their counts; the copy draws its chance
        (dice, draws from the bag) from `rng` too, never from the state's own generator, so the real
        future draws and dice stay unknown as well.
        """
        new = self._copy(rng)  # chance in the copy comes from the searcher's own generator
        # cards
        seen = {bc.card.name for bc in self.spots if bc is not None}
        seen.update(card.name for card in self.out)
        seen.update(pile[-1].name for pile in self.piles if pile)
        unseen = [card for card in self.deck if card.name not in seen]
        hidden = len(self.set_aside) + sum(max(len(pile) - 1, 0) for pile in self.piles)
        if len(unseen) != hidden:
            raise ValueError(f"the state's cards do not add up to its deck: {len(unseen)} unseen, {hidden} hidden")
        shuffled = [unseen[i] for i in rng.permutation(hidden)]
        new.set_aside, dealt = shuffled[: len(self.set_aside)], len(self.set_aside)
        for i, pile in enumerate(self.piles):
            if pile:
                new.piles[i] = [*shuffled[dealt : dealt + len(pile) - 1], pile[-1]]
                dealt += len(pile) - 1
        # chips: those the player has not seen, per symbol, drawn like from a bag into the hidden places
        env, old = new.env, self.env
        hand = self.hands[player]
        chips = [self.rules.chips_per_symbol - hand[s] for s in range(NUM_SYMBOLS)]
        for s, n in zip(old.current, old.current_count, strict=True):
            chips[s] -= n
        for space in range(SPACES):
            known, mine = old.known[space], old.laid[player][space]
            for s in range(NUM_SYMBOLS):
                chips[s] -= known[s] + mine[s]
        if min(chips) < 0:
            raise ValueError(f"the state's chips do not add up to {self.rules.chips_per_symbol} of each symbol")
        pool = Bag(chips)
        others = [q for q in range(self.num_players) if q != player]
        for space in range(SPACES):
            potential = [k + m for k, m in zip(old.known[space], old.laid[player][space], strict=True)]
            unseen_here = old.unseen(space, player)
            if not unseen_here:
                continue
            for q in others:  # chips q laid since the last reveal: their number is seen, their symbols not
                laid = sum(old.laid[q][space])
                if laid:
                    drawn = env.laid[q][space] = pool.draw(laid, rng)
                    unseen_here -= laid
                    potential = [p + d for p, d in zip(potential, drawn, strict=True)]
            if unseen_here:  # face-down chips of no recorded player (scripted positions)
                drawn = pool.draw(unseen_here, rng)
                potential = [p + d for p, d in zip(potential, drawn, strict=True)]
            env.potential[space] = potential
        for q in others:
            new.hands[q] = pool.draw(sum(self.hands[q]), rng)
        if pool.total() != self.bag.total():
            raise ValueError("the state's chips do not add up: the unseen chips do not fill the hidden places")
        new.bag = pool
        return new

    def view(self, player: int) -> PlayerView:
        """What `player` may see: everything but the other hands, the bag and the face-down chips' symbols."""
        return PlayerView(self, player)

    # --- dice and turn order --------------------------------------------------------

    def dice(self, card: Card, chips: list[int] | None = None) -> int:
        """Dice a card fights with: for each of its 3 symbols, the current chips of that symbol."""
        chips = chips if chips is not None else self.env.chips_of()
        return min(self.rules.max_dice, sum([chips[s] for s in card.symbols]))

    def _order(self, first: int) -> list[int]:
        return [(first + i) % self.num_players for i in range(self.num_players)]

    # --- 1. placing the animal cards -------------------------------------------

    def _target_rows(self) -> tuple[int, ...]:
        """Row indices to fill this round: rows 0 and 3 in the first round and after a double shift."""
        return (0, 1) if self.round == 1 or self.double_last else (0,)

    def _begin_placement(self) -> None:
        self.phase = "place"
        rows = len(self._target_rows())
        order = self._order(self.start)
        if self.rules.placement_order == "laps":  # ruling: one card per turn, round the table twice
            self.queue = [(p, c) for _ in range(rows) for p in order for c in self.player_columns[p]]
        else:
            self.queue = [(p, c) for p in order for c in self.player_columns[p] for _ in range(rows)]
        self._next_placement()

    def _next_placement(self) -> None:
        while self.queue:
            if any(self.piles):
                self.player = self.queue[0][0]
                return
            self.queue.clear()  # no face-up card left: nobody can place
        self._begin_environment()

    def _place_actions(self) -> list[PlaceCard]:
        column = self.queue[0][1]
        empty = [r for r in self._target_rows() if self.spots[column * 4 + r] is None]
        if self.round == 1:
            empty = empty[:1]  # the first round's second card goes directly above the first
        return [_place_card(i, column, ROWS[r], pile[-1]) for i, pile in enumerate(self.piles) if pile for r in empty]

    def _place(self, action: PlaceCard) -> None:
        card = self.piles[action.pile].pop()  # the pile's next card turns face up
        die = self.rules.homo_sapiens_die if card.homo_sapiens else None
        self.spots[action.column * 4 + ROWS.index(action.row)] = BoardCard(
            card, self.player, action.column, die, entry_row=action.row
        )
        self.seat_counters["cards_placed"][self.player] += 1
        if self.narration is not None:
            self._narrate_placement(action.pile, die)
        self.queue.pop(0)
        self._next_placement()

    def _narrate_placement(self, pile: int, die: int | None) -> None:
        narration = self.narration
        if die is not None:
            narration.append(f"It comes with a strength die showing {die}.")
        if self.piles[pile]:
            narration.append(f"Pile {pile} turns up {self.piles[pile][-1].describe()}.")
            return
        empty = sum(1 for p in self.piles if not p)
        double = " (from now on the board shifts twice a round)" if empty == 1 and self.rules.double_shift else ""
        narration.append(f"Pile {pile} is used up{double}.")

    # --- 2. environmental change ------------------------------------------------

    def _limit(self) -> int | None:
        """The field where placement stops; None: no End marker on the tracker (until a lap passes)."""
        r = self.rules
        if 1 <= self.end <= r.track_fields:
            return self.end
        if r.after_track == "last_field":
            return r.track_fields if r.end_direction == "up" else 1
        return None if r.after_track == "unlimited" else 0

    def _placement_over(self) -> bool:
        limit = self.limit
        if limit is None:
            return self.passes >= self.num_players
        return self.move >= limit

    def _begin_environment(self) -> None:
        self.phase = "environment"
        self.limit = self._limit()
        self.move = self.rules.move_start
        self.last_round = self.move  # until a turn is taken (Move's field when the phase has no placement round)
        self.passes = 0
        self.player = self.start
        if self.narration is not None:
            self._narrate_environment()
        if self._placement_over():
            self._begin_five()

    def _narrate_environment(self) -> None:
        limit = self.limit
        if limit is None:
            until = "End is off the tracker, so placement goes on until everyone passes in a row"
        elif self._placement_over():
            until = f"End is on field {limit}: there is no placement round this time"
        else:
            until = f"placement rounds go on until Move reaches End on field {limit}"
        self.narration.append(f"Environmental change: Move on field {self.move}; {until}.")
        self.narration.append(f"Current conditions: {self.env.current_text()}.")

    def _environment_actions(self) -> list:
        r = self.rules
        trade_most = min(r.trade_limit, self.bag.total()) if self.move <= r.trade_rounds else 0
        five_most = r.five_chips if r.five_timing == "own_turn" and self.five[self.player] else 0
        cap = max(r.set_limit, trade_most, five_most)
        h0, h1, h2, h3 = self.hands[self.player]
        hand = (h0 if h0 < cap else cap, h1 if h1 < cap else cap, h2 if h2 < cap else cap, h3 if h3 < cap else cap)
        return _environment_actions(hand, r.set_limit, trade_most, five_most, r.five_count == "exact")

    def _next_environment_turn(self) -> None:
        self.last_round = self.move  # the placement round of the turn just taken
        self.player = (self.player + 1) % self.num_players
        narration = self.narration
        if self.player == self.start:
            self.move += 1  # the start player advances the Move marker
            if narration is not None:
                narration.append(f"The turn is back with the start player: Move advances to field {self.move}.")
        if self._placement_over():
            if narration is not None:
                narration.append("Everyone passed in a row: placement is over." if self.limit is None
                                 else f"Move has reached End on field {self.limit}: placement is over.")  # fmt: skip
            self._begin_five()

    def _trade(self, returned: tuple[int, ...]) -> None:
        """Draw first, then return the chosen old chips, so a returned chip cannot come straight back."""
        hand = self.hands[self.player]
        drawn = self.bag.draw(len(returned), self.rng)
        for s in returned:
            hand[s] -= 1
            self.bag.put_back(s)
        for s in range(NUM_SYMBOLS):
            hand[s] += drawn[s]
        if self.narration is not None:
            self.narration.append(f"Draws {chips_text(drawn)}.")
        self.seat_counters["trades"][self.player] += 1
        self.passes = 0
        self._next_environment_turn()

    def _set_chips(self, action: SetChips | UseFive, after: str) -> None:
        player, env, chips = self.player, self.env, action.chips
        hand = self.hands[player]
        for s, space in chips:
            hand[s] -= 1
            env.set_chip(space, s, player)
        self.seat_counters["chips_set"][player] += len(chips)
        self.passes = 0
        self.mask_before = env.present()
        self.after_setting = after
        self.spaces_left = list(action.spaces)
        self.chain = self.setting_changes = 0
        self._resolve_spaces()

    def _resolve_spaces(self) -> None:
        """Resolve the changed spaces in order; stop when the chooser must pick among tied symbols."""
        spaces_left, env, rules = self.spaces_left, self.env, self.rules
        while spaces_left:
            space = spaces_left[0]
            changes, ties, tied = env.resolve(
                space, rules.majority_tie, self.bag, self.rng, rules.majority, self.narration
            )
            self.chain += changes
            self.counters["ties"] += ties  # under every reading of a tie
            if tied is not None:
                self.tie = (space, tied)
                self.phase = "tie"
                return
            if self.chain:  # a space that did not change leaves every counter as it is
                self._end_chain()
            spaces_left.pop(0)
        self._after_change()

    def _end_chain(self) -> None:
        c = self.counters
        c["changes"] += self.chain
        self.setting_changes += self.chain
        if self.chain >= 2:
            c["cascades"] += 1
        c["longest_cascade"] = max(c["longest_cascade"], self.chain)
        self.chain = 0

    def _choose_symbol(self, symbol: int) -> None:
        space, _ = self.tie
        self.tie = None
        if self.narration is not None:
            self.narration.append(f"Space {space}: {self.env.change_text(space, symbol)}.")
        self.env.change(space, symbol, self.bag)
        self.chain += 1
        self.phase = "five" if self.after_setting == "five" else "environment"
        self._resolve_spaces()

    def _after_change(self) -> None:
        if self.setting_changes:  # only a setting that changed the conditions can earn strength dice
            if self.narration is not None:
                self.narration.append(f"Current conditions: {self.env.current_text()}.")
            self._strength_dice()
        if self.after_setting == "turn":
            self._next_environment_turn()
        elif self.after_setting == "five":
            self._next_five()
        # "again": the player used the "5" marker on their own turn and now takes their turn

    def _strength_dice(self) -> None:
        """A change that completes all of a card's symbols earns it a die showing 2, or raises its die by 1.

        Only the active player's cards gain, and only in the first `die_rounds`
        placement rounds (`strength_dice_open`). Ruling (`die_gain`): "completed" means the card's
        symbols were not all present before this placement and are after;
        "any_change" rewards every card with all symbols present after any change.
        """
        r = self.rules
        if not self.strength_dice_open():
            return
        before, after = self.mask_before, self.env.present()
        player = self.player
        for bc in self.spots:
            if bc is None or bc.owner != player:
                continue
            mask = bc.card.mask
            if mask & after != mask or (r.die_gain == "completed" and mask & before == mask):
                continue
            if bc.die is None:
                bc.die = r.new_die
                self.seat_counters["dice_earned"][self.player] += 1
                gain = "earns a strength die showing"
            elif bc.die < r.max_strength:
                bc.die += 1
                self.seat_counters["dice_raised"][self.player] += 1
                gain = "raises its strength die to"
            else:
                continue
            if self.narration is not None:
                self.narration.append(f"{bc.card.describe()} has all its symbols among the current conditions "
                                      f"and {gain} {bc.die}.")  # fmt: skip

    def strength_dice_open(self) -> bool:
        """Whether a change made now can earn or raise strength dice: "A card's strength die can only be
        raised this way during the first 3 placement rounds (see the round tracker)" (`die_rounds`).

        A setting belongs to the placement round Move's field shows. Ruling `five_die_round`, for the "5"
        marker's chips at the end of placement (`five_timing = "phase_end"`): Move stands on End by then, a
        field no placement round is played on (End on field 3: rounds 1 and 2 are played). Default
        "last_round": the extra chips count in the last placement round played (Move's field at the phase's
        last turn), since they are laid as that round's placement ends; "never": they come after the
        placement rounds, which alone earn dice.
        """
        r = self.rules
        if self.phase != "five":
            return self.move <= r.die_rounds
        return r.five_die_round == "last_round" and self.last_round <= r.die_rounds

    # --- the "5" marker ---------------------------------------------------------

    def _begin_five(self) -> None:
        """After the last placement round: each player, next start player first, may use the "5" marker.

        Ruling (`five_timing = "phase_end"`): "several players at the same point" is read as one moment
        for everyone, after placement and before survival; priority goes round from the player left of
        the start player, who ends it. Each player holding the marker (and the chips it lays: `five_chips`, or
        one with `five_count = "up_to"`) decides once.
        """
        self.phase = "five"
        r = self.rules
        if r.five_timing == "phase_end":
            least = r.five_chips if r.five_count == "exact" else 1
            order = self._order(self.start + 1)
            self.queue = [(p, -1) for p in order if self.five[p] and sum(self.hands[p]) >= least]
            if self.queue and self.narration is not None:
                holders = ", ".join(f"P{p}" for p, _ in self.queue)
                self.narration.append(f'The "5" marker: {holders} may give theirs up to set {r.five_chips} more '
                                      "chips, in this order.")  # fmt: skip
        else:
            self.queue = []
        self._next_five(pop=False)

    def _next_five(self, pop: bool = True) -> None:
        if pop:
            self.queue.pop(0)
        if self.queue:
            self.player = self.queue[0][0]
            self.phase = "five"
            return
        self._survival()

    # --- survival -----------------------------------------------------------------

    def _survival(self) -> None:
        """A card with none of its symbols among the current conditions is eliminated."""
        present = self.env.present()
        # ruling: cards on the special spaces are on the board and are checked too (unless the rule says not)
        last = len(self.spots) if self.rules.track_cards_need_survival else TRACK
        counters = self.seat_counters
        spots = self.spots
        narration = self.narration
        if narration is not None:
            symbols = ", ".join(SYMBOLS[s] for s in range(NUM_SYMBOLS) if present >> s & 1)
            narration.append(f"Survival: a card needs one of the current symbols ({symbols}).")
            losses = self.counters["survival_losses"]
        for spot in range(last):
            bc = spots[spot]
            if bc is None:
                continue
            where = "special" if spot >= TRACK else PLACE_NAMES[spot % 4]
            sym = SYMBOL_COUNT_NAMES[bc.card.distinct]
            owner = bc.owner
            counters["checked_" + where][owner] += 1
            counters["checked_" + sym][owner] += 1
            if bc.card.mask & present == 0:
                counters["lost_" + where][owner] += 1
                counters["lost_" + sym][owner] += 1
                self.counters["survival_losses"] += 1
                if narration is not None:
                    narration.append(f"P{owner}'s {bc.card.describe()} in {self._where(spot)} has none of them: "
                                     "eliminated.")  # fmt: skip
                self._eliminate(spot)
        if narration is not None and losses == self.counters["survival_losses"]:
            narration.append("Every card survives.")
        self._begin_combat()

    def _eliminate(self, spot: int) -> None:
        self._retire(self.spots[spot])
        self.spots[spot] = None

    def _retire(self, bc: BoardCard) -> None:
        """A card leaves the game (eliminated, or pushed off the special track)."""
        self.out.append(bc.card)
        self._count_card(bc)

    def _count_card(self, bc: BoardCard) -> None:
        """What a card scored in the game, by the row it entered (counted when it leaves, or at the end)."""
        counters, owner, points = self.seat_counters, bc.owner, bc.points
        entered, scored, squares = CARD_COUNTERS[bc.entry_row]
        counters[entered][owner] += 1
        counters[scored][owner] += points
        counters[squares][owner] += points**2

    # --- 3. combat ---------------------------------------------------------------

    def _begin_combat(self) -> None:
        self.phase = "combat"
        if self.narration is not None:
            self.narration.append(f"Combat: a card rolls one die per current chip of each of its symbols "
                                  f"({chips_text(self.env.chips_of())}).")  # fmt: skip
        r = self.rules
        # Ruling `first_fighter`: the rulebook gives no order for "Each player may pick one fight"; in turn from
        # the start player, as every phase goes ("start_player"), or from the player closer to becoming the next
        # start player, the rulebook's one priority ("next_start_player", as for the "5" marker)
        order = self._order(self.start if r.first_fighter == "start_player" else self.start + 1)
        laps = r.fights_per_player
        columns = self.player_columns
        if len(columns[0]) == 2:
            # 2 players on 2 columns, one battle per colour: "They start with their "outer" color group, then
            # follow with the battle for their "inner" color group." Ruling `two_player_battles`: every player's
            # outer-colour battle, then every inner one ("colours"), or each player's two battles in a row ("players")
            if r.two_player_battles == "colours":
                self.queue = [(p, columns[p][i]) for _ in range(laps) for i in range(2) for p in order]
            else:
                self.queue = [(p, columns[p][i]) for _ in range(laps) for p in order for i in range(2)]
        else:
            self.queue = [(p, -1) for _ in range(laps) for p in order]
        self._next_fight(pop=False)

    def _challenges(self, player: int, column: int) -> list[Challenge]:
        # Ruling: any card on the board fights, face-down ones and those on special spaces included
        # (unless `face_down_can_fight` / `track_cards_fight` say not).
        r = self.rules
        spots = self.spots if r.track_cards_fight else self.spots[:TRACK]
        face_down_fight = r.face_down_can_fight
        mine, theirs = [], []
        for spot, bc in enumerate(spots):
            if bc is None or (bc.face_down and not face_down_fight):
                continue
            if bc.owner == player:
                if column < 0 or bc.column == column:
                    mine.append(spot)
            else:
                theirs.append(spot)
        challenges = []
        for a in mine:
            row = _challenge_row(a, len(self.spots))
            challenges += [row[d] for d in theirs]
        return challenges

    def _next_fight(self, pop: bool = True) -> None:
        self.fight_options = None
        if pop:
            self.queue.pop(0)
        while self.queue:
            player, column = self.queue[0]
            challenges = self._challenges(player, column)
            if challenges:
                self.player = player
                self.fight_options = [NO_FIGHT, *challenges]
                return
            self.queue.pop(0)  # no fight possible: nothing to decide
        self._end_of_round()

    def _resolve(self, attacker: BoardCard, defender: BoardCard, chips: list[int]) -> Fight:
        """One fight by the combat module, with dice from the current chips and rolls from the state's generator."""
        da, dd = self.dice(attacker.card, chips), self.dice(defender.card, chips)
        return resolve_fight(
            strength(attacker.die), da, strength(defender.die), dd, self.rules,
            rolls=dice_rolls(self.rng, da, dd, self.rules.die_faces),
        )  # fmt: skip

    def _fight(self, attacker: int, defender: int) -> None:
        a, d = self.spots[attacker], self.spots[defender]
        chips = self.env.chips_of()
        fight = self._resolve(a, d, chips)
        c = self.counters
        c["fights"] += 1
        self.seat_counters["fights_started"][a.owner] += 1
        narration = self.narration
        if narration is not None:
            narration.extend(fight_lines(a.card.name, d.card.name, fight))
        if fight.winner is None:  # neither side can ever win a round: nothing happens
            c["fights_endless"] += 1
            if narration is not None:
                narration.append("Every roll would be a tie, and ties don't count: the fight can never end, "
                                 "so nothing happens.")  # fmt: skip
            return
        win, lose, lose_spot = (a, d, defender) if fight.winner == "attacker" else (d, a, attacker)
        if fight.winner == "attacker":
            self.seat_counters["fights_won"][a.owner] += 1
        dice = (win.die, lose.die)  # before the fight's effects, for the play log
        eliminated = self._take_effects(win, lose, fight.loser_rounds)
        if narration is not None:
            narration.append(self._outcome_text(win, lose, dice, fight, eliminated))
        if eliminated:
            c["fights_clean"] += 1
            c["fight_losses"] += 1
            self._eliminate(lose_spot)
        else:
            c["fights_close"] += 1

    def _outcome_text(
        self, win: BoardCard, lose: BoardCard, dice: tuple[int | None, int | None], fight: Fight, eliminated: bool
    ) -> str:
        """A decided fight's result and effects in words; `dice` are the two cards' dice before the fight."""
        won, lost = win.card.name, lose.card.name
        rounds = max(fight.attacker_rounds, fight.defender_rounds)
        said = f"{won} wins {rounds}:{fight.loser_rounds}: "
        if eliminated:
            said += f"P{lose.owner}'s {lost} is eliminated"
        else:
            said += f"P{lose.owner}'s {lost} turns face down (it scores nothing at the next scoring)"
            if dice[1] is None:
                said += " and has no strength die to lose"
            elif lose.die < dice[1]:
                said += f" and its strength die falls to {lose.die}"
            else:
                said += f" and its strength die stays at {lose.die}"
        if strength(dice[0]) > strength(dice[1]):
            return said + f"; {won} was the stronger card and stays at strength {strength(win.die)}."
        if win.die == dice[0]:
            if dice[0] is None:  # ruling `winner_without_die = "nothing"`
                return said + f"; {won} has no strength die to raise."
            return said + f"; {won}'s strength die is already at its highest, {win.die}."
        if dice[0] is None:
            return said + f"; {won} earns a strength die showing {win.die}."
        return said + f"; {won}'s strength die rises to {win.die}."

    def _take_effects(self, win: BoardCard, lose: BoardCard, loser_rounds: int) -> bool:
        """A decided fight's effects on its two cards' dice and faces; True if the loser is eliminated
        (the caller takes it off the board)."""
        effects = fight_effects(win.die, lose.die, loser_rounds, self.rules)
        win.die = effects.winner_die
        if not effects.loser_eliminated:
            lose.die = effects.loser_die
            lose.face_down = True
        return effects.loser_eliminated

    # --- 4. shifting, 5. scoring, next round ---------------------------------------

    def _end_of_round(self) -> None:
        # double shifting from the first shift at which some pile has run out, to the end of the game
        shifts = 2 if self.rules.double_shift and not all(self.piles) else 1
        if self.narration is not None:
            twice = " twice (a pile has run out)" if shifts == 2 else ""
            self.narration.append(f"Round {self.round} ends. Every card moves up a row{twice}.")
        for _ in range(shifts):
            self._shift()
        self.double_last = shifts == 2
        self.counters["double_shifts"] += shifts == 2
        self._score()
        self._count_lead_change()
        self.counters["rounds"] += 1
        if not any(self.piles) and any(
            all(self.spots[c * 4 + r] is None for r in range(len(ROWS))) for c in self.used_columns
        ):
            self._game_end()  # a column is empty and no card can be placed any more
            return
        self._prepare_next_round()

    def _shift(self) -> None:
        """Every card moves up a row; cards off row 9 enter the special track, face-down first, strongest first.

        The entering cards land on 13, 10, 7 in that order ("each card after the
        first is placed one space further along"); a fourth goes past 7 and
        leaves the game. Ruling `special_space_holds`: "several" (the rulebook's
        "on later shifts, it moves rightward onto 10 and then 7"): a card on the
        track moves one space per shift whatever enters, and a space may hold
        several cards; "one": each space holds one card, so the entering cards
        push the cards on the track one space further each (empty spaces travel along).
        """
        spots = self.spots
        leaving = []
        for c in self.used_columns:
            base = c * 4
            if spots[base + 3] is not None:
                leaving.append(spots[base + 3])
            spots[base + 3], spots[base + 2], spots[base + 1], spots[base] = (
                spots[base + 2], spots[base + 1], spots[base], None,
            )  # fmt: skip
        entering = self._entering_order(leaving)
        n = len(self.rules.special_spaces)
        on_track = [[bc for bc in spots[track_spot(i) : track_spot(i + 1)] if bc is not None] for i in range(n)]
        if self.rules.special_space_holds == "one":
            line = (entering or [None]) + [cards[0] if cards else None for cards in on_track]
            spaces = [[] if bc is None else [bc] for bc in line[:n]]
            gone = [bc for bc in line[n:] if bc is not None]
        else:  # space i gets the cards of space i - 1 and the i-th entering card: at most i + 1 cards
            spaces = [(on_track[i - 1] if i else []) + entering[i : i + 1] for i in range(n)]
            gone = on_track[-1] + entering[n:]
        for bc in gone:
            self._retire(bc)
        for i, cards in enumerate(spaces):
            spots[track_spot(i) : track_spot(i + 1)] = cards + [None] * (i + 1 - len(cards))
        if self.narration is not None:
            self._narrate_track(entering, on_track, spaces)

    def _narrate_track(
        self, entering: list[BoardCard], on_track: list[list[BoardCard]], spaces: list[list[BoardCard]]
    ) -> None:
        """Where the cards leaving row 9 and those on the special spaces went in a shift."""
        values = self.rules.special_spaces
        now = {id(bc): i for i, cards in enumerate(spaces) for bc in cards}  # card -> its special space now
        for bc in entering:
            to = (f"onto special space {values[now[id(bc)]]}" if id(bc) in now
                  else "past the special spaces, out of the game")  # fmt: skip
            self.narration.append(f"P{bc.owner}'s {bc.card.name} leaves row 9 {to}.")
        for i, cards in enumerate(on_track):
            for bc in cards:
                if id(bc) not in now:
                    self.narration.append(f"P{bc.owner}'s {bc.card.name} leaves special space {values[i]}, "
                                          "out of the game.")  # fmt: skip
                elif now[id(bc)] != i:
                    self.narration.append(f"P{bc.owner}'s {bc.card.name} moves on from special space {values[i]} "
                                          f"to {values[now[id(bc)]]}.")  # fmt: skip

    def _entering_order(self, cards: list[BoardCard]) -> list[BoardCard]:
        """Face-down cards first, then strongest first, so the weakest lands furthest along; ties fight.

        The order goes by the cards as they left row 9 (face, strength), so a tie fight's effects under
        `track_tie_fight = "full_effects"` never reorder cards already compared; a card such a fight
        eliminates leaves the game instead of entering the track.
        """
        if len(cards) < 2:
            return cards
        chips = self.env.chips_of()
        full = self.rules.track_tie_fight == "full_effects"
        keys = {id(bc): (not bc.face_down, -strength(bc.die)) for bc in cards}
        knocked_out: dict[int, BoardCard] = {}  # by id: eliminated by a tie fight (full effects only)

        def compare(x: BoardCard, y: BoardCard) -> int:
            key_x, key_y = keys[id(x)], keys[id(y)]
            if key_x != key_y:
                return -1 if key_x < key_y else 1
            if id(x) in knocked_out or id(y) in knocked_out:  # out of the game already: no second fight
                return (id(x) in knocked_out) - (id(y) in knocked_out)
            # tied: the two cards fight it out (the lower column attacks); the loser counts as weaker. A fight
            # that can never end is settled at random. Ruling `track_tie_fight`: the fight settles the order
            # only ("order_only": "the tied cards fight it out for the placement"), or also has the usual
            # effects of a fight ("full_effects": dice, face down, a 2:0 loser eliminated).
            first, second = (x, y) if x.column < y.column else (y, x)
            self.counters["track_tie_fights"] += 1
            fight = self._resolve(first, second, chips)
            narration = self.narration
            if narration is not None:
                narration.append(f"P{first.owner}'s {first.card.name} and P{second.owner}'s {second.card.name} leave "
                                 "row 9 together, equally strong: they fight for the order (the loser counts as "
                                 "weaker).")  # fmt: skip
                narration.extend(fight_lines(first.card.name, second.card.name, fight))
            if fight.winner is None:
                winner = first if self.rng.random() < 0.5 else second
                if narration is not None:
                    narration.append(f"The fight can never end, so chance decides: {winner.card.name} counts as "
                                     "the stronger.")  # fmt: skip
            else:
                winner = first if fight.winner == "attacker" else second
                loser = second if winner is first else first
                dice = (winner.die, loser.die)
                if full and self._take_effects(winner, loser, fight.loser_rounds):
                    knocked_out[id(loser)] = loser
                if narration is not None:
                    narration.append(self._outcome_text(winner, loser, dice, fight, id(loser) in knocked_out)
                                     if full else f"{winner.card.name} wins and counts as the stronger.")  # fmt: skip
            return -1 if winner is x else 1

        ordered = sorted(cards, key=functools.cmp_to_key(compare))
        for bc in knocked_out.values():
            self.counters["track_tie_losses"] += 1
            self._retire(bc)
        return [bc for bc in ordered if id(bc) not in knocked_out]

    def empty_spaces(self, row_index: int) -> int:
        """Empty spaces in a grid row, counting the unused column's with 3 players if the rule says so."""
        columns = range(COLUMNS) if self.rules.unused_column_empty else self.used_columns
        return sum(1 for c in columns if self.spots[c * 4 + row_index] is None)

    def _score(self) -> None:
        """Grid cards score their row plus the empty-space bonus, special spaces their value; face-down nothing."""
        rows, empty, special = self.points["rows"], self.points["empty"], self.points["special"]
        bonus = self.rules.empty_space_bonus
        extras = [bonus * self.empty_spaces(r) for r in range(len(ROWS))]
        # the play log's (card's words, points) per player, None when nobody listens
        said: list[list[tuple[str, int]]] | None = None if self.narration is None else [
            [] for _ in range(self.num_players)]
        for spot, bc in enumerate(self.spots):
            if bc is None:
                continue
            if bc.face_down:
                bc.face_down = False  # turned face up again after this scoring
                if said is not None:
                    said[bc.owner].append((f"{bc.card.name} 0 (face down; it turns face up)", 0))
                continue
            if spot >= TRACK:
                scored = self.rules.special_spaces[track_space(spot)]
                special[bc.owner] += scored
            else:
                row, extra = ROWS[spot % 4], extras[spot % 4]
                scored = row + extra
                rows[bc.owner] += row
                empty[bc.owner] += extra
            bc.points += scored
            if said is not None:
                why = (f"special space {scored}" if spot >= TRACK
                       else f"row {row} + {extra} for empty spaces" if extra else f"row {row}")  # fmt: skip
                said[bc.owner].append((f"{bc.card.name} {scored} ({why})", scored))
        if said is not None:
            self._narrate_scoring(said)

    def _narrate_scoring(self, said: list[list[tuple[str, int]]]) -> None:
        """Each player's cards and points in this scoring, and their total so far."""
        for player, (cards, total) in enumerate(zip(said, self.scores(), strict=True)):
            if cards:
                scored = sum(points for _, points in cards)
                words = ", ".join(text for text, _ in cards)
                self.narration.append(f"P{player} scores {scored} ({total:g} in all): {words}.")
            else:
                self.narration.append(f"P{player} has no card on the board and scores nothing ({total:g} in all).")

    def _count_lead_change(self) -> None:
        """Count a lead change: the players with the most points differ from those after the last scoring.

        The leaders are compared as a set, so a tie for the lead differs from
        either player leading alone; the first scoring only sets the lead.
        Unused "5" markers score after the last scoring and change nothing.
        """
        leaders = self._leaders()
        if self.leaders is not None and leaders != self.leaders:
            self.counters["lead_changes"] += 1
        self.leaders = leaders

    def _prepare_next_round(self) -> None:
        r = self.rules
        for p in self._order(self.start):  # top up from the start player on, while the bag lasts
            hand = self.hands[p]
            drawn = self.bag.draw(r.chips_per_player - sum(hand), self.rng)
            for s in range(NUM_SYMBOLS):
                hand[s] += drawn[s]
        self.end += 1 if r.end_direction == "up" else -1
        self.start = (self.start + 1) % self.num_players
        self.round += 1
        if self.narration is not None:
            end = f"End moves to field {self.end}" if 1 <= self.end <= r.track_fields else "End runs off the tracker"
            cards = "two cards each" if len(self._target_rows()) == 2 else "a card each"
            self.narration.append(f"Round {self.round}: trays are topped up to {r.chips_per_player} chips; {end}; "
                                  f"P{self.start} starts. Placement: {cards}.")  # fmt: skip
        self._begin_placement()

    def _game_end(self) -> None:
        for bc in self.spots:
            if bc is not None:
                self._count_card(bc)
        for p in range(self.num_players):
            if self.five[p]:
                self.points["five"][p] += self.rules.five_points
        self.terminal = True
        self.phase = "over"
        self.player = -1
        if self.narration is not None:
            self._narrate_end()

    def _narrate_end(self) -> None:
        """Why the game ended, the unused "5" markers, each player's points by source and the winners."""
        narration = self.narration
        empty = [c for c in self.used_columns if all(self.spots[c * 4 + r] is None for r in range(len(ROWS)))]
        columns = listing([str(c) for c in empty])
        narration.append(f"The game ends: no card can be placed any more and column{'s' * (len(empty) > 1)} "
                         f"{columns} {'have' if len(empty) > 1 else 'has'} no card in the grid.")  # fmt: skip
        kept = [f"P{p}" for p in range(self.num_players) if self.rules.five_marker and self.five[p]]
        if kept and self.rules.five_points:
            narration.append(f'Unused "5" markers score {self.rules.five_points} each: {", ".join(kept)}.')
        sources = {"rows": "rows", "empty": "empty spaces", "special": "special spaces", "five": '"5" marker'}
        for p, total in enumerate(self.scores()):
            parts = ", ".join(f"{name} {self.points[k][p]}" for k, name in sources.items())
            narration.append(f"P{p} ends with {total:g} points ({parts}).")
        winners = self.winners()
        narration.append(f"P{winners[0]} wins." if len(winners) == 1
                         else f"{listing([f'P{p}' for p in winners])} share the victory.")  # fmt: skip

    def __repr__(self) -> str:
        rows = []
        for r in reversed(range(len(ROWS))):
            cells = [repr(self.spots[c * 4 + r]) if self.spots[c * 4 + r] else "." for c in range(COLUMNS)]
            rows.append(f"row {ROWS[r]}: " + " | ".join(cells))
        track = ", ".join(
            f"{v}: {[bc for bc in self.spots[track_spot(i) : track_spot(i + 1)] if bc] or '.'}"
            for i, v in enumerate(self.rules.special_spaces)
        )
        return (
            f"TyrannoExState(round {self.round}, phase {self.phase}, P{self.player} to act, "
            f"move {self.move}, end {self.end})\n" + "\n".join(rows) + f"\nspecial: {track}\n{self.env!r}"
        )


class PlayerView:
    """What one player may see of a state (for policies)."""

    __slots__ = ("state", "player")

    def __init__(self, state: TyrannoExState, player: int) -> None:
        self.state = state
        self.player = player

    @property
    def hand(self) -> list[int]:
        return self.state.hands[self.player]

    @property
    def spots(self) -> list[BoardCard | None]:
        return self.state.spots

    @property
    def env_current(self) -> list[tuple[int, int]]:
        """(symbol, chips) of each space's current conditions."""
        env = self.state.env
        return list(zip(env.current, env.current_count, strict=True))

    def potential_count(self, space: int) -> int:
        """How many chips lie face down on a space (their symbols are hidden)."""
        return self.state.env.potential_total(space)

    def revealed(self, space: int) -> list[int]:
        """Chips per symbol turned face up on a space while its tie awaits the chooser."""
        if self.state.tie is None or self.state.tie[0] != space:
            raise ValueError(f"the chips on space {space} are face down")
        return list(self.state.env.potential[space])

    @property
    def rules(self) -> Rules:
        return self.state.rules

    @property
    def move(self) -> int:
        """The Move marker's field: the placement round being played."""
        return self.state.move

    def strength_dice_open(self) -> bool:
        """Whether a change made now can earn or raise strength dice (the first placement rounds only)."""
        return self.state.strength_dice_open()

    def dice(self, card: Card, chips: list[int] | None = None) -> int:
        return self.state.dice(card, chips)

    def current_chips(self) -> list[int]:
        """Current chips per symbol over the 4 spaces."""
        return self.state.env.chips_of()


@dataclass(frozen=True)
class TyrannoExGame:
    """The game for a number of players under some rules."""

    rules: Rules
    num_players: int
    name: str = "tyranno-ex"

    def __post_init__(self) -> None:
        if self.num_players not in (2, 3, 4):
            raise ValueError(f"Tyranno Ex is for 2 to 4 players, got {self.num_players}")

    def new_state(self, rng: np.random.Generator) -> TyrannoExState:
        return TyrannoExState(self.rules, self.num_players, rng)


def make_game(rules: Rules, num_players: int) -> TyrannoExGame:
    return TyrannoExGame(rules, num_players)
