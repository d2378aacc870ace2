"""The Zooloretto Duell engine: set-up, the actions A/B/C, symbols, interim and final scoring.

Two players (seat 0 begins the first round). A turn is one action in phase
`TURN`; drawing a card (action A) leads to phase `PLACE`, where the same player
connects it to a truck (or, in the expert variant, pays to discard it); a
square symbol leads to phase `DONATION`, where the player picks a card from the
discard pile. The only chance is at set-up, drawn from the generator given to
`new_state`: the shuffle of the draw pile, then (rule `marker_order`) the order
of scoring markers that share a letter. Policies never read the draw pile's
order, nor (rule `discard_pile_open`) the discard pile below its top card outside a
square's donation: search policies use `determinize`. The stockpile lies face up.
The action records are in `actions.py`, the play log's words in `narration.py`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from itertools import permutations

import numpy as np

from tyrsim.games.zooloretto_duell import narration as words
from tyrsim.games.zooloretto_duell.actions import (
    DISPOSE,
    DRAW,
    QUIT_EMPTY,
    Action,
    Connect,
    DiscardDrawn,
    DisposeMinus,
    Donate,
    Draw,
    QuitEmptyHanded,
    Steal,
    TakeTruck,
)
from tyrsim.games.zooloretto_duell.cards import (
    COLOURS,
    FINAL_ROUND,
    HEART,
    LIGHTNING,
    SPECIES,
    STAND,
    Card,
    Marker,
    card_kind,
    load_markers,
    load_stands,
    load_symbols,
    make_cards,
)
from tyrsim.games.zooloretto_duell.rules import Rules

NAME = "zooloretto-duell"  # the game's name on the command line and in the registry
TURN, PLACE, DONATION, OVER = 0, 1, 2, 3

# per-seat counters reported by `stats`, in this order in `ZooState.counts`
COUNTERS = (
    "lightning",  # second lightning of a species placed: 1 minus point
    "heart",  # second heart placed and the offspring taken
    "heart_wasted",  # second heart placed, offspring already gone
    "square",  # second square placed: a card taken from the discard pile
    "square_wasted",  # wasted by the chain rule (see `_place`) or an empty discard pile
    "third_symbol",  # third card with the same symbol discarded: 1 minus point
    "stand_coin",  # second vending stand with the same symbol: 1 coin
    "steals",
    "disposals",  # money action II
    "minus_disposed",  # minus points returned by money action II
    "expert_discards",
    "interim_markers",  # scoring markers won at interim scorings
)
(
    LIGHTNING_FIRED,
    HEART_FIRED,
    HEART_WASTED,
    SQUARE_FIRED,
    SQUARE_WASTED,
    THIRD_SYMBOL,
    STAND_COIN,
    STEALS,
    DISPOSALS,
    MINUS_DISPOSED,
    EXPERT_DISCARDS,
    INTERIM_MARKERS,
) = range(len(COUNTERS))
END_TRIGGERS = ("card", "marker", "pile")  # what made the last round the final one


# --- the game --------------------------------------------------------------------------------


class ZooGame:
    """Zooloretto Duell under `rules`, for 2 players."""

    name = NAME

    def __init__(self, rules: Rules | None = None, num_players: int = 2) -> None:
        if num_players != 2:
            raise ValueError(f"Zooloretto Duell is for 2 players, not {num_players}")
        self.rules = rules or Rules()
        self.num_players = 2
        self.cards = make_cards(load_symbols(self.rules.symbols_file), load_stands(self.rules.stands_file))
        self.markers: tuple[Marker, ...] = load_markers(self.rules.markers_file)
        if self.rules.marker_points:  # a designer's values for the scoring markers, in stockpile order
            points = iter(self.rules.marker_points)
            self.markers = tuple(m if m.final_round else replace(m, points=next(points)) for m in self.markers)
        self.deck = [c for c in self.cards if c.species != FINAL_ROUND and not c.offspring]  # animals and stands
        self.offspring = {c.species: c for c in self.cards if c.offspring}
        self.final_card = self.cards[-1]
        # the actions that name one card, made once
        self.connect = [[Connect(c, t) for t in range(len(self.rules.truck_places))] for c in self.cards]
        self.steal = [Steal(c) for c in self.cards]
        self.donate = [Donate(c) for c in self.cards]
        self.takes: dict[tuple, list[TakeTruck]] = {}  # (truck, its cards) -> the take actions, made on first use

    def new_state(self, rng: np.random.Generator) -> ZooState:
        """Set-up: shuffle, turn the top card onto the discard pile, insert the final-round card, sort the
        scoring markers by letter."""
        pile = [self.deck[i] for i in rng.permutation(len(self.deck))]  # top of the pile = end of the list
        # drawn after the pile, so a ruling on the markers leaves the same seed's draw pile unchanged
        markers = _shuffle_within_letters(self.markers, rng) if self.rules.marker_order == "shuffled" else self.markers
        state = ZooState(self, markers)
        state.discard.append(pile.pop())
        depth = min(self.rules.final_round_card_depth, len(pile))
        pile.insert(depth, self.final_card)
        state.pile = pile
        state._surface()
        return state


class ZooState:
    """A position of Zooloretto Duell; the public zoos plus the hidden draw pile order.

    `narration` is None unless a play log listens (see `Narrated` in tyrsim.core.engine.protocols); then each
    action appends what it caused: symbols, interim scorings, the final round, round ends and the
    final scoring. The branches that narrate are those of rare events, so play without a log pays
    for no more than a test of None there.
    """

    __slots__ = (
        "game",
        "rules",
        "targets",
        "capacities",
        "pile",
        "discard",
        "trucks",
        "taken",
        "last_taker",
        "to_move",
        "phase",
        "drawn",
        "queue",
        "square_fired",
        "pending_check",
        "fired",
        "pens",
        "stands",
        "offspring",
        "markers",
        "won",
        "final_card_aside",
        "final_marker_aside",
        "final_round",
        "end_trigger",
        "scored",
        "target_reached",
        "vending_scored",
        "coins",
        "minus",
        "rounds",
        "counts",
        "narration",
    )

    def __init__(self, game: ZooGame, markers: Iterable[Marker] | None = None) -> None:
        """The table after set-up; `markers`: the stockpile from the top (default: the game's order)."""
        rules = game.rules
        self.narration: list[str] | None = None
        self.game = game
        self.rules = rules
        self.targets = rules.target_values
        self.capacities = rules.truck_places
        self.pile: list[Card] = []
        self.discard: list[Card] = []
        self.trucks: list[list[Card]] = [[] for _ in self.capacities]
        # truck index each player took this round (out of play until the round ends); -1: quit without one
        self.taken: list[int | None] = [None, None]
        self.last_taker = 0
        self.to_move = 0  # players decide who begins: seat 0
        self.phase = TURN
        self.drawn: Card | None = None
        self.queue: list[Card] = []  # cards of a taken truck still to be placed
        self.square_fired = False  # a square's donation became due this turn
        # rule `symbol_before_scoring`: the species whose interim-scoring check waits for the square's donation
        self.pending_check = -1
        # rule `symbol_once`: per player, the species and symbols (species * 4 + symbol) whose pair has triggered
        self.fired: list[set[int]] = [set(), set()]
        self.pens: list[list[list[Card]]] = [[[] for _ in SPECIES] for _ in range(2)]
        self.stands: list[list[Card]] = [[], []]
        self.offspring: dict[int, Card | None] = dict(game.offspring)  # species -> card still in the supply
        self.markers: list[Marker] = list(game.markers if markers is None else markers)  # top first
        self.won: list[list[Marker]] = [[], []]
        self.final_card_aside = False
        self.final_marker_aside = False
        self.final_round = False
        self.end_trigger = ""
        self.scored = [False] * len(SPECIES)
        self.target_reached = [False] * len(SPECIES)  # the species' target was reached, maybe in a tie
        self.vending_scored = False
        self.coins = [rules.starting_coins, rules.starting_coins]
        self.minus = [0, 0]
        self.rounds = 1
        self.counts = [[0] * len(COUNTERS), [0] * len(COUNTERS)]
        self._marker_surface()

    # --- protocol -----------------------------------------------------------------------------

    def current_player(self) -> int:
        return -1 if self.phase == OVER else self.to_move

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def legal_actions(self) -> list[Action]:
        phase = self.phase
        if phase == PLACE:
            return self._placements()
        if phase == DONATION:
            return [self.game.donate[c.id] for c in _distinct(self.discard)]
        if phase == OVER:
            return []
        game, capacities = self.game, self.capacities
        actions: list = [DRAW] if self.pile else []
        free_place = False
        takes, taken = game.takes, self.taken
        for t, truck in enumerate(self.trucks):
            if t in taken:  # a taken truck stands in front of its player until the round ends
                continue
            if truck:
                options = takes.get((t, *truck))
                if options is None:
                    options = _take_options(t, truck)
                    if len(truck) <= 2:  # bounded: at most one entry per truck and pair of cards
                        takes[(t, *truck)] = options
                actions += options
                if len(truck) < capacities[t]:
                    free_place = True
            else:
                free_place = True
        if actions and actions[0] is DRAW and not free_place:
            del actions[0]
        if not actions:
            actions.append(QUIT_EMPTY)
        p = self.to_move
        if self.coins[p] >= self.rules.money_action_cost:
            steal = game.steal
            actions.extend(steal[c.id] for c in _distinct([c for pen in self.pens[1 - p] for c in pen]))
            # ruling (rule `dispose_without_minus`): the 2 coins are the action's only stated precondition, so by
            # default it is offered with no minus point to return (a paid pass); false: only with one
            if self.minus[p] or self.rules.dispose_without_minus:
                actions.append(DISPOSE)
        return actions

    def apply(self, action: Action) -> None:
        p = self.to_move
        kind = type(action)
        if kind is Draw:
            self._draw()
        elif kind is Connect:
            self.trucks[action.truck].append(action.card)
            self.drawn = None
            self.phase = TURN
            self._end_turn(p)
        elif kind is TakeTruck:
            truck = self.trucks[action.truck]
            self.queue = list(action.cards)
            truck.clear()
            self.taken[p] = action.truck
            self.last_taker = p
            self._unload(p)
        elif kind is Donate:
            self.discard.remove(action.card)
            self.phase = TURN
            self._place(p, action.card, donated=True)  # a square triggered here goes to waste
            self._check_pending()
            self._unload(p)
        elif kind is Steal:
            self._steal(p, action.card)
        elif kind is DisposeMinus:
            self.coins[p] -= self.rules.money_action_cost
            self.counts[p][DISPOSALS] += 1
            self.counts[p][MINUS_DISPOSED] += self.minus[p]
            self.minus[p] = 0
            self._end_turn(p)
        elif kind is DiscardDrawn:
            self.coins[p] -= self.rules.expert_discard_cost
            self.counts[p][EXPERT_DISCARDS] += 1
            self.discard.append(action.card)
            self.drawn = None
            self.phase = TURN
            self._end_turn(p)
        elif kind is QuitEmptyHanded:
            self.taken[p] = -1
            self._end_turn(p)
        else:
            raise ValueError(f"not a Zooloretto Duell action: {action!r}")

    def scores(self) -> list[float]:
        """Final scores (during play: the score if the game ended now)."""
        return [float(self.score_parts(p)["score"]) for p in range(2)]

    def score_parts(self, p: int) -> dict[str, int]:
        """Final scoring of player p: scoring markers + plus points (majorities, coins) - minus points."""
        rules, mine, theirs = self.rules, self.pens[p], self.pens[1 - p]
        majorities = 0
        for s in range(len(mine)):  # a plain loop: the policies' evaluation calls this for every candidate
            if len(mine[s]) > len(theirs[s]):
                majorities += 1
        markers = 0
        for m in self.won[p]:
            markers += m.points
        majority = rules.majority_points * majorities
        coins = self.coins[p] // rules.coins_per_point
        minus = self.minus[p]
        return {
            "marker_points": markers,
            "majority_points": majority,
            "coin_points": coins,
            "minus_points": minus,
            "score": markers + majority + coins - minus,
        }

    def winners(self) -> list[int]:
        """Highest score; on a tie the most coins; still tied: a shared victory."""
        keys = [(s, self.coins[p]) for p, s in enumerate(self.scores())]
        return [p for p, key in enumerate(keys) if key == max(keys)]

    def stats(self) -> dict[str, float]:
        out: dict[str, float] = {
            "rounds": self.rounds,
            "interim_scorings": sum(self.scored) + self.vending_scored,
        }
        for trigger in END_TRIGGERS:
            out[f"ended_by_{trigger}"] = float(self.end_trigger == trigger)
        parts = [self.score_parts(p) for p in range(2)]
        for p in range(2):
            for key, value in parts[p].items():
                if key != "score":  # the runner reports the score itself
                    out[f"{key}_p{p}"] = value
            out[f"margin_p{p}"] = parts[p]["score"] - parts[1 - p]["score"]
            out[f"coins_p{p}"] = self.coins[p]
            for name, value in zip(COUNTERS, self.counts[p], strict=True):
                out[f"{name}_p{p}"] = value
        return out

    def clone(self) -> ZooState:
        new = ZooState.__new__(ZooState)
        new.narration = None  # nobody listens to a copy
        new.game, new.rules, new.targets, new.capacities = self.game, self.rules, self.targets, self.capacities
        new.last_taker, new.to_move, new.phase, new.drawn = self.last_taker, self.to_move, self.phase, self.drawn
        new.square_fired, new.pending_check = self.square_fired, self.pending_check
        new.fired = [set(f) for f in self.fired]
        new.final_card_aside, new.final_marker_aside = self.final_card_aside, self.final_marker_aside
        new.final_round, new.end_trigger, new.rounds = self.final_round, self.end_trigger, self.rounds
        new.vending_scored = self.vending_scored
        new.pile = self.pile[:]
        new.discard = self.discard[:]
        new.trucks = [t[:] for t in self.trucks]
        new.taken = self.taken[:]
        new.queue = self.queue[:]
        new.pens = [[pen[:] for pen in zoo] for zoo in self.pens]
        new.stands = [s[:] for s in self.stands]
        new.offspring = dict(self.offspring)
        new.markers = self.markers[:]
        new.won = [w[:] for w in self.won]
        new.scored = self.scored[:]
        new.target_reached = self.target_reached[:]
        new.coins = self.coins[:]
        new.minus = self.minus[:]
        new.counts = [c[:] for c in self.counts]
        return new

    def determinize(self, player: int, rng: np.random.Generator) -> ZooState:
        """A clone consistent with everything `player` has seen, the unseen cards' places sampled from `rng`.

        The draw pile's order is hidden from both players alike. Under the rulebook's default (rule
        `discard_pile_open` false) so is the discard pile below its top card, except to a player choosing a
        square's donation, who may look through it: "Normally, you may not look through the discard pile
        during the game, and only the top card is visible." The unseen cards (every other card is on the
        table or in a zoo) are dealt at random to the places nobody sees, the discard pile's hidden places
        first, the sizes of both piles kept; the final-round card keeps its known depth. The sample is built
        from the unseen cards sorted into a canonical order (by kind, `card_kind`, then by card: the compiled
        search, which holds cards as kinds, deals the same kinds from the same draws), never from the real
        places. The state has no chance generator to replace: all chance is drawn at set-up.
        """
        new = self.clone()
        looks = self.rules.discard_pile_open or self._remembers_discard_pile() or (
            self.phase == DONATION and self.to_move == player)
        hidden = 0 if looks else max(len(new.discard) - 1, 0)  # the discard pile's places below its top card
        unseen = [c for c in new.pile if c.species != FINAL_ROUND] + new.discard[:hidden]
        unseen.sort(key=lambda c: (card_kind(c), c.id))
        order = rng.permutation(len(unseen))
        shuffled = [unseen[i] for i in order]
        new.discard[:hidden] = shuffled[:hidden]
        shuffled = shuffled[hidden:]
        if len(shuffled) != len(new.pile):
            shuffled.insert(new.pile.index(self.game.final_card), self.game.final_card)
        new.pile = shuffled
        return new

    def _remembers_discard_pile(self) -> bool:
        """Ruling (rule `discard_pile_memory`, default 'forget'): "only the top card is visible", but both players
        see every card go onto the pile face up (the first card, a truck's leftovers, a third symbol's card, an
        expert discard) and see a donation taken from it join a zoo, so a player who keeps in mind what they saw
        knows the whole pile, as under the agreed variant. 'forget': the top card and the pile's size only."""
        return self.rules.discard_pile_memory == "remember"

    def with_cards(self, player: int, cards: Iterable[Card]) -> tuple[ZooState, int]:
        """A clone where `player` has placed `cards` in this order (for a policy's look-ahead).

        Returns the clone and how many square donations became due (not carried out).
        """
        new = self.clone()
        due = 0
        for card in cards:
            if new._place(player, card, donated=False):
                due += 1
                new._check_pending()  # as if the donation had added nothing
        return new, due

    def __repr__(self) -> str:
        lines = [
            f"round {self.rounds}{' (final)' if self.final_round else ''}, P{self.to_move} to move; "
            f"draw pile {len(self.pile)}, discard top {self.discard[-1] if self.discard else '-'}"
        ]
        lines.append("trucks: " + " | ".join(", ".join(map(repr, t)) or "empty" for t in self.trucks))
        for p in range(2):
            pens = "; ".join(
                f"{SPECIES[s]} {len(pen)}" + ("*" if self.scored[s] else "")
                for s, pen in enumerate(self.pens[p])
                if pen
            )
            lines.append(
                f"P{p}: {pens or 'no animals'}; stands {len(self.stands[p])}; coins {self.coins[p]}, "
                f"minus {self.minus[p]}, markers {self.won[p]}"
            )
        return "\n".join(lines)

    # --- the play log (only while `narration` is a list) ---------------------------------------

    def describe(self, action: Action) -> str:
        """The current player's action in plain words (asked before it is applied)."""
        return words.describe(self, action)

    # --- steps --------------------------------------------------------------------------------

    def _placements(self) -> list[Action]:
        card, capacities = self.drawn, self.capacities
        connect = self.game.connect[card.id]
        actions: list = []
        empty_sizes = []  # empty trucks of the same size are one choice
        taken = self.taken
        for t, truck in enumerate(self.trucks):
            if t in taken:  # a taken truck stands in front of its player until the round ends
                continue
            if not truck:
                if capacities[t] not in empty_sizes:
                    empty_sizes.append(capacities[t])
                    actions.append(connect[t])
            elif len(truck) < capacities[t]:
                actions.append(connect[t])
        # expert variant: not in the final round (drawing the card that starts it counts)
        rules = self.rules
        if rules.expert and not self.final_round and self.coins[self.to_move] >= rules.expert_discard_cost:
            actions.append(DiscardDrawn(card))
        return actions

    def _draw(self) -> None:
        pile = self.pile
        self.drawn = pile.pop()
        if self.final_card_aside:
            self._make_final_round("card")
        if pile and pile[-1].species == FINAL_ROUND:
            self._surface()
        if not pile:
            # ruling: the round in which the last card is drawn is the last one
            self._make_final_round("pile")
        self.phase = PLACE

    def _surface(self) -> None:
        """When the final-round card turns up on top of the draw pile it is put aside."""
        if self.pile and self.pile[-1].species == FINAL_ROUND:
            self.pile.pop()
            self.final_card_aside = True
            if self.narration is not None:
                self.narration.append(words.FINAL_CARD_ASIDE)

    def _marker_surface(self) -> None:
        """When the final-round marker turns up on top of the stockpile it is put aside."""
        if self.markers and self.markers[0].final_round:
            self.markers.pop(0)
            self.final_marker_aside = True
            if self.narration is not None:
                self.narration.append(words.FINAL_MARKER_ASIDE)

    def _make_final_round(self, trigger: str) -> None:
        if not self.final_round:
            self.final_round = True
            self.end_trigger = trigger
            if self.narration is not None:
                self.narration.append(words.final_round(trigger))

    def _unload(self, p: int) -> None:
        """Place the taken truck's remaining cards in order; pause for a square's donation."""
        queue = self.queue
        while queue:
            if self._place(p, queue.pop(0), donated=False):
                self.phase = DONATION
                return
        self._end_turn(p)

    def _steal(self, p: int, card: Card) -> None:
        self.coins[p] -= self.rules.money_action_cost
        self.counts[p][STEALS] += 1
        self.pens[1 - p][card.species].remove(card)
        # ruling: stealing counts as placing the animal in your enclosure, so its symbol triggers
        if self.rules.steal_triggers_symbols:
            if self._place(p, card, donated=False):
                self.phase = DONATION
                return
        else:
            self.pens[p][card.species].append(card)
            self._check_species(card.species)
        self._end_turn(p)

    def _place(self, p: int, card: Card, donated: bool) -> bool:
        """Put a card in player p's zoo, then its symbol and the interim scoring; True if a square's donation
        is due.

        The rulebook's steps: the third card with the same symbol goes to the discard pile instead
        (`_third_symbol`); else the card is placed, a second card with the same symbol triggers its symbol
        action (`_symbol_action`: lightning, heart, square; a vending stand's coin: `_place_stand`), and the
        interim scoring is checked (`_check_species`; the vending area's: `_check_vending_area`).

        `donated`: the card came from the discard pile by a square, so a further
        square goes to waste (a different symbol is carried out). Ruling: only the donated
        card's square; with the rule `one_square_per_turn`, every square after the first
        of the turn (the other reading of "an additional square").

        Ruling (rule `symbol_before_scoring`, default false): the interim scoring "immediately"
        interrupts play once the card is placed, so a heart's offspring and a square's donation join
        the zoo after the card's species has been checked; with true, the species is checked only
        after them.
        """
        if card.species == STAND:
            self._place_stand(p, card)
            return False
        s = card.species
        pen = self.pens[p][s]
        same = _with_symbol(pen, card.symbol) if card.symbol else 0
        if same >= 2:  # the third animal of the species with the same symbol
            self._third_symbol(p, card)
            self._check_species(s)  # a stolen card leaving the other zoo can still break a tie
            return False
        pen.append(card)
        due = same == 1 and self._symbol_action(p, card, donated)
        if due and self.rules.symbol_before_scoring:  # the other reading: check after the donation
            self.pending_check = s
        else:
            self._check_species(s)
        return due

    def _place_stand(self, p: int, card: Card) -> None:
        """A vending stand: the third with the same symbol goes to the discard pile; the second earns a coin
        ("Only the symbol on the card is relevant, not the colour"); then the vending area's interim scoring."""
        stands = self.stands[p]
        same = _with_symbol(stands, card.symbol)
        if same >= 2:
            self._third_symbol(p, card)
            return
        stands.append(card)
        if same == 1:
            self.coins[p] += 1
            self.counts[p][STAND_COIN] += 1
            if self.narration is not None:
                self.narration.append(words.stand_coin(p, card))
        self._check_vending_area(p)

    def _third_symbol(self, p: int, card: Card) -> None:
        """The 3rd symbol: "you put it directly on the discard pile instead and have to take 1 minus point"."""
        self.discard.append(card)
        self.minus[p] += 1
        self.counts[p][THIRD_SYMBOL] += 1
        if self.narration is not None:
            self.narration.append(words.third_symbol(p, card))

    def _symbol_action(self, p: int, card: Card, donated: bool) -> bool:
        """The second animal of the species with the same symbol (now in the enclosure) triggers the symbol
        action; True if a square's donation is due.

        Ruling (rule `symbol_once`): a player's pair of a species and symbol triggers only the first time;
        the third-symbol rule still counts the cards now in the enclosure.
        """
        if self.rules.symbol_once:
            key = card.species * 4 + card.symbol
            first = key not in self.fired[p]
            self.fired[p].add(key)
            if not first:
                return False
        if card.symbol == LIGHTNING:
            self._lightning(p, card)
            return False
        if card.symbol == HEART:
            self._heart(p, card)
            return False
        return self._square(p, card, donated)

    def _lightning(self, p: int, card: Card) -> None:
        """Lightning: "you get 1 minus point"."""
        self.minus[p] += 1
        self.counts[p][LIGHTNING_FIRED] += 1
        if self.narration is not None:
            self.narration.append(words.lightning(p, card))

    def _heart(self, p: int, card: Card) -> None:
        """Heart: the species' offspring card joins the enclosure if it is still in the supply, else the symbol
        action goes to waste ("Each of these species can produce offspring only once")."""
        s = card.species
        child = self.offspring.get(s)
        if child is None:
            self.counts[p][HEART_WASTED] += 1
            if self.narration is not None:
                self.narration.append(words.offspring(p, card, joins=False))
            return
        if not self.rules.symbol_before_scoring:
            self._check_species(s)  # ruling: the scoring interrupts play before the offspring comes
        self.offspring[s] = None
        self.pens[p][s].append(child)
        self.counts[p][HEART_FIRED] += 1
        if self.narration is not None:
            self.narration.append(words.offspring(p, card, joins=True))

    def _square(self, p: int, card: Card, donated: bool) -> bool:
        """Square: a card of the player's choice from the discard pile, if possible; True if that donation is
        due. "If another symbol action is triggered by an additional square, it is not carried out but goes
        to waste" (see `_place` for the ruling)."""
        if donated or not self.discard or (self.square_fired and self.rules.one_square_per_turn):
            self.counts[p][SQUARE_WASTED] += 1
            if self.narration is not None:
                self.narration.append(words.square_wasted(p, card, donated, not self.discard))
            return False
        self.counts[p][SQUARE_FIRED] += 1
        self.square_fired = True
        if self.narration is not None:
            self.narration.append(words.square(p, card))
        return True

    def _check_vending_area(self, p: int) -> None:
        """Interim scoring of the vending stands: the first player with a stand of each colour."""
        if not self.vending_scored and len({c.colour for c in self.stands[p]}) == len(COLOURS):
            self.vending_scored = True
            if self.narration is not None:
                self.narration.append(words.vending_scoring(p))
            self._award(p)

    def _check_pending(self) -> None:
        """The interim-scoring check that waited for a square's donation (rule `symbol_before_scoring`)."""
        if self.pending_check >= 0:
            s, self.pending_check = self.pending_check, -1
            self._check_species(s)

    def _check_species(self, s: int) -> None:
        """Interim scoring: once the enclosures together have reached the target value, the first moment
        one player is strictly ahead.

        After a tie at the target the scoring waits until one player "clearly has more", even if a
        stolen card discarded as a third symbol has since brought the total below the target.
        """
        if self.scored[s]:
            return
        mine, theirs = len(self.pens[0][s]), len(self.pens[1][s])
        if mine + theirs >= self.targets[s]:
            if self.narration is not None and not self.target_reached[s] and mine == theirs:
                self.narration.append(words.target_tied(self, s))
            self.target_reached[s] = True
        if self.target_reached[s] and mine != theirs:
            self.scored[s] = True
            if self.narration is not None:
                self.narration.append(words.species_scoring(self, s))
            self._award(0 if mine > theirs else 1)

    def _award(self, p: int) -> None:
        """Player p takes the top scoring marker (and a coin if it shows one).

        The stockpile never runs dry: every markers file holds 7 scoring markers, one for each of
        the 7 interim scorings (6 species, the vending area).
        """
        marker = self.markers.pop(0)
        self.won[p].append(marker)
        self.counts[p][INTERIM_MARKERS] += 1
        if marker.coin:
            self.coins[p] += 1
        if self.narration is not None:
            self.narration.append(words.marker_taken(p, marker))
        if self.final_marker_aside:
            self._make_final_round("marker")
        self._marker_surface()

    def _end_turn(self, p: int) -> None:
        """The other player moves, unless they have quit the round; both quit: the round ends."""
        o = 1 - p
        self.square_fired = False
        if self.taken[o] is None:
            self.to_move = o
        elif self.taken[p] is None:
            self.to_move = p
        else:
            self._end_round()

    def _end_round(self) -> None:
        if self.narration is not None:
            self.narration.append(words.round_ends(self))
        for truck in self.trucks:
            self.discard.extend(truck)  # cards left on the remaining truck
            truck.clear()
        if self.final_round:
            self.phase = OVER
            if self.narration is not None:
                self.narration.extend(words.final_scoring(self))
            return
        self.rounds += 1
        self.taken = [None, None]
        self.to_move = self.last_taker
        if self.narration is not None:
            self.narration.append(words.round_begins(self))


def _shuffle_within_letters(markers: tuple[Marker, ...], rng: np.random.Generator) -> list[Marker]:
    """The stockpile sorted by letter: markers sharing a letter (next to each other in the file) in random order
    among themselves; a marker without a letter keeps its place."""
    out: list[Marker] = []
    start = 0
    while start < len(markers):
        end = start + 1
        while end < len(markers) and markers[start].letter and markers[end].letter == markers[start].letter:
            end += 1
        run = markers[start:end]
        out += [run[i] for i in rng.permutation(len(run))] if len(run) > 1 else run
        start = end
    return out


def _take_options(t: int, truck: list[Card]) -> list[TakeTruck]:
    """Taking truck t: "You may play these cards in any order", so every order of its cards, the order they
    came first; orders that differ only in interchangeable cards are one action (up to 5! = 120 on a
    designer's 5-place truck)."""
    orders: dict[tuple, tuple[Card, ...]] = {}
    for order in permutations(truck):  # the identity first
        orders.setdefault(tuple(c.kind for c in order), order)
    return [TakeTruck(t, order) for order in orders.values()]


def _with_symbol(cards: list[Card], symbol: int) -> int:
    """How many of `cards` show `symbol`."""
    same = 0
    for c in cards:
        if c.symbol == symbol:
            same += 1
    return same


def _distinct(cards: list[Card]) -> list[Card]:
    """One card of each kind (interchangeable cards give the same action)."""
    seen = {}
    for c in cards:
        seen.setdefault(c.kind, c)
    return list(seen.values())


def make_game(rules: Rules, num_players: int = 2) -> ZooGame:
    return ZooGame(rules, num_players)
