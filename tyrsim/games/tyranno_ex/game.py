"""The full Tyranno Ex game (the object engine): the state, its protocol, and a round's flow.

A round runs the rulebook's five phases, each in a module of its own whose class
`TyrannoExState` is built from: `placement.py` (1. placing the animal cards),
`environmental_change.py` (2. trading, setting chips, strength dice, the "5"
marker), `survival.py` (3.), `fights.py` (4. combat), `shifting.py` and
`scoring.py` (5. shifting and scoring, and the game's end). This module keeps
the protocol (legal actions and `apply` by tables of the phase and of the
action's kind), set-up, copies and determinizations, and what runs between the
rounds. Players decide in placement (which face-up card), environmental change
(trade, set chips, pass; pick among tied symbols; use the "5" marker) and combat
(challenge or not); survival, shifting, scoring and the next round's preparation
run by themselves inside `apply`. Chance (the bag, the piles, the dice) comes
from the state's own generator. The board's spots are `board.py`'s.

A play log (`tyrsim play`) reads `describe(action)` and the state's
`narration`: while it is a list, the state appends a sentence (made in
`narration.py`) for each thing an action caused. It is None otherwise, and every
append is guarded, so simulation and search pay nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from tyrsim.games.tyranno_ex import narration as words
from tyrsim.games.tyranno_ex.actions import (
    KEEP_FIVE,
    NO_FIGHT,
    Challenge,
    ChooseSymbol,
    KeepFive,
    NoFight,
    Pass,
    PlaceCard,
    SetChips,
    Trade,
    UseFive,
    tie_choices,
    use_five_actions,
)
from tyrsim.games.tyranno_ex.board import COLUMNS, PILES, ROWS, BoardCard, column_layout, track_spot
from tyrsim.games.tyranno_ex.cards import Card, load_deck
from tyrsim.games.tyranno_ex.environment import NUM_SYMBOLS, SPACES, Bag, Environment
from tyrsim.games.tyranno_ex.environmental_change import EnvironmentalChange
from tyrsim.games.tyranno_ex.fights import Fights
from tyrsim.games.tyranno_ex.placement import Placement
from tyrsim.games.tyranno_ex.rules import Rules
from tyrsim.games.tyranno_ex.scoring import Scoring
from tyrsim.games.tyranno_ex.shifting import Shifting
from tyrsim.games.tyranno_ex.survival import SURVIVAL_NAMES, Survival

CARD_COUNTERS = {
    r: (f"cards_entered_row{r}", f"card_points_row{r}", f"card_points_sq_row{r}") for r in ROWS[:2]
}  # what the cards entering a row scored, by the row they entered
SEAT_COUNTERS = (
    "cards_placed", "fights_started", "fights_won", "dice_earned", "dice_raised", "trades", "chips_set",
    *(f"{k}_row{r}" for k in ("cards_entered", "card_points", "card_points_sq") for r in ROWS[:2]),
    *(f"checked_{w}" for w in SURVIVAL_NAMES),
    *(f"lost_{w}" for w in SURVIVAL_NAMES),
)  # fmt: skip
GAME_COUNTERS = (
    "rounds", "changes", "cascades", "longest_cascade", "ties", "fights", "fights_clean", "fights_close",
    "fights_endless", "track_tie_fights", "track_tie_losses", "double_shifts", "survival_losses", "fight_losses",
    "lead_changes", "no_stone",
)  # fmt: skip


class TyrannoExState(Placement, EnvironmentalChange, Survival, Fights, Shifting, Scoring):
    """One game of Tyranno Ex in progress (the phases' steps come from the classes it is built from)."""

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
        self.counters: dict[str, float] = dict.fromkeys(GAME_COUNTERS, 0)
        self.seat_counters: dict[str, list[float]] = {name: [0.0] * num_players for name in SEAT_COUNTERS}
        self.five_round = [float("nan")] * num_players
        self.leaders: list[int] | None = None  # the players with the highest total after the last scoring
        self.terminal = False
        # decision bookkeeping
        self.phase = ""
        self.player = -1
        self.queue: list[tuple[int, int]] = []  # (player, column) decisions still to come in this phase
        self.passes = 0  # passes in a row in the environment phase
        self.last_round = 0  # the placement round (Move's field) of the phase's last turn; 0: none played yet
        self.limit: int | None = None  # the field where this environment phase's placement stops
        self.fight_options: tuple | None = None  # the challenges open to the player to act in combat
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

    def legal_actions(self) -> tuple:
        """The current player's actions (a tuple: shared between calls and states, never changed)."""
        options = _LEGAL_ACTIONS.get(self.phase)
        return () if options is None else options(self)

    def apply(self, action) -> None:
        """Play a legal action of the current player, then run automatic phases up to the next decision."""
        play = _APPLY.get(type(action))
        if play is None:
            raise ValueError(f"not a Tyranno Ex action: {action!r}; the actions are {_ACTION_NAMES}")
        play(self, action)

    def describe(self, action) -> str:
        """The current player's action in plain words, for a play log (asked before it is applied)."""
        return words.describe(self, action)

    def _tie_actions(self) -> tuple[ChooseSymbol, ...]:
        """The chooser's picks among the symbols tied on the space being resolved."""
        space, tied = self.tie
        return tie_choices(space, tuple(tied))

    def _fight_actions(self) -> tuple:
        """No fight, or a challenge of one of the player's cards (of the column whose battle it is)."""
        if self.fight_options is None:
            self.fight_options = (NO_FIGHT, *self._challenges(self.player, self.queue[0][1]))
        return self.fight_options

    def _five_actions(self) -> tuple:
        """At the end of placement: keep the "5" marker, or give it up to lay its chips."""
        r = self.rules
        return (KEEP_FIVE, *use_five_actions(tuple(self.hands[self.player]), r.five_chips, r.five_count == "exact"))

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

    # --- copies and what a player may see -----------------------------------------

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
        Resampled: the cards under the face-up ones and the set-aside cards, and the symbols of the other
        hands, of the face-down chips others laid and of the bag. The true hidden values are never read,
        only their counts; the copy draws its chance (dice, draws from the bag) from `rng` too, never from
        the state's own generator, so the real future draws and dice stay unknown as well.
        """
        new = self._copy(rng)  # chance in the copy comes from the searcher's own generator
        self._deal_unseen_cards(new, rng)
        self._draw_unseen_chips(new, player, rng)
        return new

    def _deal_unseen_cards(self, new: TyrannoExState, rng: np.random.Generator) -> None:
        """Deal the cards nobody has seen (the deck less the seen cards, in the deck's order, shuffled) under
        the face-up cards and into the set-aside cards of `new`."""
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

    def _draw_unseen_chips(self, new: TyrannoExState, player: int, rng: np.random.Generator) -> None:
        """Draw the chips `player` has not seen (counted per symbol), like from a bag, into the hidden places
        of `new`: the chips others laid face down, the other hands, and what is left is the bag."""
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

    def view(self, player: int) -> PlayerView:
        """What `player` may see: everything but the other hands, the bag and the face-down chips' symbols."""
        return PlayerView(self, player)

    # --- dice, turn order, cards leaving the board --------------------------------

    def dice(self, card: Card, chips: list[int] | None = None) -> int:
        """Dice a card fights with: for each of its 3 symbols, the current chips of that symbol."""
        chips = chips if chips is not None else self.env.chips_of()
        return min(self.rules.max_dice, sum([chips[s] for s in card.symbols]))

    def _order(self, first: int) -> list[int]:
        return [(first + i) % self.num_players for i in range(self.num_players)]

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

    # --- after combat: 4. shifting, 5. scoring, then the end or the next round ------

    def _end_of_round(self) -> None:
        # double shifting from the first shift at which some pile has run out, to the end of the game
        shifts = 2 if self.rules.double_shift and not all(self.piles) else 1
        if self.narration is not None:
            self.narration.append(words.round_ends(self, shifts))
        for _ in range(shifts):
            self._shift()
        self.double_last = shifts == 2
        self.counters["double_shifts"] += shifts == 2
        self._score()
        self._count_lead_change()
        self.counters["rounds"] += 1
        if self._game_over():
            self._game_end()
            return
        self._prepare_next_round()

    def _prepare_next_round(self) -> None:
        """Trays are topped up, End moves on, the start marker passes on; then the next placement."""
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
            self.narration.append(words.next_round(self, len(self._target_rows()) == 2))
        self._begin_placement()

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


# the decision a phase asks for: its legal actions (a phase not listed, "over", has none)
_LEGAL_ACTIONS: dict[str, Callable[[TyrannoExState], tuple]] = {
    "place": TyrannoExState._place_actions,
    "environment": TyrannoExState._environment_actions,
    "tie": TyrannoExState._tie_actions,
    "five": TyrannoExState._five_actions,
    "combat": TyrannoExState._fight_actions,
}
# what each kind of action does
_APPLY: dict[type, Callable[[TyrannoExState, object], None]] = {
    PlaceCard: TyrannoExState._place,
    Trade: lambda state, action: state._trade(action.returned),
    SetChips: lambda state, action: state._set_chips(action, "turn"),
    Pass: lambda state, action: state._pass(),
    ChooseSymbol: lambda state, action: state._choose_symbol(action.symbol),
    UseFive: TyrannoExState._use_five,
    KeepFive: lambda state, action: state._next_five(),
    Challenge: TyrannoExState._challenge,
    NoFight: lambda state, action: state._next_fight(),
}
_ACTION_NAMES = ", ".join(kind.__name__ for kind in _APPLY)


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
