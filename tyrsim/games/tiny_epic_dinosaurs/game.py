"""The Tiny Epic Dinosaurs game engine: set-up, the seven phases of a round, scoring.

Its parts: the players (`player.py`), their ranches (`ranch.py`), feeding (`feeding.py`), the
round's steps (`steps.py`), the questions to the players (`prompts.py`) and their answers
(`actions.py`), the play-log words (`narration.py`).

A round runs as a stack of steps (`_todo`, the records of `steps.py`, each run by the
method its `name` names, `_STEPS`); a step either does its work at once (collecting, returning ranchers, breeding...) or
asks the current player a question: a prompt record (`prompts.py`). Each kind of
prompt has one method listing its options and one carrying out the answer
(`_PROMPTS`). A decision with a single legal option is taken automatically, so the
policies only see real choices.

Nothing about the position is remembered between decisions: every option list is
worked out from the state as it is. What is remembered is only what follows from
fixed data, keyed by exactly what it is computed from: the game's `Place` actions
for one space, way of acting and rancher group (`placements`), and each ranch
board's enclosures and free fence slots for one set of fences (`RanchBoard`). A
ranch keeps its survey (herd, free grass, income) until its spaces change.

A play log (`tyrsim play`) reads the state's own words: `describe(action)` says what the
player to move does, and while `narration` is a list (None unless a play log listens, so
simulation and search pay nothing; copies get None) the engine appends a sentence for each
thing that follows: a hunt's die and catch, contracts scored, escapes, feeding, breeding,
the end of a round and the final scores (`narration.py` holds the words).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any, NamedTuple

import numpy as np

from tyrsim.core.engine.rng import copy_generator, uniform
from tyrsim.games.tiny_epic_dinosaurs import feeding
from tyrsim.games.tiny_epic_dinosaurs import narration as words
from tyrsim.games.tiny_epic_dinosaurs.actions import (
    Enclose,
    EscapeAs,
    Feed,
    LoseDinosaur,
    LoseFence,
    MoveFence,
    PickResearch,
    Place,
    PlaceFence,
    StopRearranging,
)
from tyrsim.games.tiny_epic_dinosaurs.components import (
    Contract,
    Dinosaur,
    ResearchCard,
    Space,
    load_contracts,
    load_dinosaurs,
    load_research,
    load_spaces,
    remember,
)
from tyrsim.games.tiny_epic_dinosaurs.feeding import Food
from tyrsim.games.tiny_epic_dinosaurs.player import Player
from tyrsim.games.tiny_epic_dinosaurs.prompts import (
    DinosaurLoss,
    DrawnResearch,
    Enclosing,
    Feeding,
    FenceLoss,
    FencePlacement,
    Housing,
    OmnivoreEscape,
    Placement,
    Prompt,
    Rearranging,
    ResearchChoice,
)
from tyrsim.games.tiny_epic_dinosaurs.ranch import (
    RanchBoard,
    RanchLayout,
    Region,
    Survey,
    enclosure_choices,
    load_ranch,
)
from tyrsim.games.tiny_epic_dinosaurs.rules import Rules
from tyrsim.games.tiny_epic_dinosaurs.steps import (
    ASSIGN_TURN,
    END_ROUND,
    RETURN_RANCHERS,
    START_ROUND,
    STEPS,
    ArrangeRanch,
    AssignTurn,
    BreedHerd,
    EndRound,
    FeedHerd,
    LoseDinosaurPenalty,
    PayPenalties,
    ReturnRanchers,
    StartRound,
    Step,
)

HUNT_NET, HUNT_INJURY, HUNT_EGG = "net", "injury", "egg"
STOP_REARRANGING = StopRearranging()
@dataclass
class Components:
    """Everything loaded from data files for one rule set."""

    dinosaurs: dict[str, Dinosaur]  # basic kinds and unique dinosaurs by name
    basic: tuple[str, ...]
    contracts: tuple[Contract, ...]
    research: tuple[ResearchCard, ...]
    spaces: tuple[Space, ...]
    layout: RanchLayout

    @classmethod
    def load(cls, rules: Rules) -> Components:
        basic_kinds = load_dinosaurs(rules.dinosaurs_file)
        basic = tuple(d.name for d in basic_kinds)
        research = load_research(rules.research_file, basic)
        dinosaurs = {d.name: d for d in basic_kinds}
        dinosaurs.update({c.dinosaur.name: c.dinosaur for c in research if c.dinosaur is not None})
        return cls(
            dinosaurs,
            basic,
            load_contracts(rules.contracts_file, basic),
            research,
            load_spaces(rules.spaces_file, basic),
            load_ranch(rules.ranch_file, rules.border, rules.cover_symbols()),
        )


class PlacementKey(NamedTuple):
    """What a set of `Place` actions is built from (`TinyEpicDinosaursGame.placements`)."""

    space: str  # the action space's id
    ways: tuple[tuple[str, str], ...]  # its (choice, extra) ways of acting
    need: int  # ranchers needed
    send_owner: bool | None  # also with the owner (True), never (False), only with the owner (None)


class TinyEpicDinosaursGame:
    """Tiny Epic Dinosaurs for 2-4 players under one rule set."""

    name = "tiny-epic-dinosaurs"

    def __init__(self, rules: Rules, num_players: int) -> None:
        if num_players not in (2, 3, 4):
            raise ValueError(f"Tiny Epic Dinosaurs is for 2 to 4 players, not {num_players}")
        self.rules = rules
        self.num_players = num_players
        self.components = Components.load(rules)
        self.spaces = tuple(s for s in self.components.spaces if num_players in s.players)
        self.space_by_id = {s.id: s for s in self.spaces}
        self.unique_kinds = frozenset(name for name, d in self.components.dinosaurs.items() if d.unique)
        # each space's (choice, extra) ways of acting while everything is in stock (see `_ways_*`)
        dinosaurs = self.components.dinosaurs
        self.full_ways: dict[str, tuple[tuple[str, str], ...]] = {}
        for s in self.spaces:
            if s.action == "hunt":
                self.full_ways[s.id] = ((s.dinosaur, ""),)
            elif s.action == "buy":  # the basic kinds it sells
                sold = [k for k in self.components.basic if s.kinds in ("any", dinosaurs[k].group)]
                self.full_ways[s.id] = tuple((k, "") for k in sold)
            elif s.action == "gain":
                self.full_ways[s.id] = ((s.gains(), ""),)
            else:
                self.full_ways[s.id] = (("", ""),)
        # every player's ranch board: the layout, the placing rules and what follows from a set of fences
        self.board = RanchBoard(self.components.layout, rules.breed_group, rules.unique_terrain == "any")
        # what a set of placements is built from -> its Place actions: see `placements`
        self._placements: dict[PlacementKey, tuple[Place, ...]] = {}
        # the spaces whose ways of acting are all available while `_stocked` (hunt, buy, gain, first player,
        # research): space id -> {send_owner: its placements while empty} (see `_options_assign`)
        self.on_empty = {
            s.id: {owner: self.placements(s, self.full_ways[s.id], 1, owner) for owner in (False, True, None)}
            for s in self.spaces
            if s.action in ("hunt", "buy", "gain", "first_player", "research")
        }
        names = self.components.layout.edge_names
        self.place_fence = tuple(PlaceFence(name) for name in names)  # by edge
        self.lose_fence = tuple(LoseFence(name) for name in names)  # by edge
        self.lose_dinosaur = {kind: LoseDinosaur(kind) for kind in self.components.dinosaurs}
        self.pick_research = {
            name: PickResearch(name) for name in ("draw", *(card.name for card in self.components.research))
        }
        # fence rearranging: source ("holding" or an edge name) -> the moves to each edge
        self.move_fence = {source: tuple(MoveFence(source, name) for name in names) for source in ("holding", *names)}
        faces = (
            [HUNT_NET] * rules.hunt_net_faces
            + [HUNT_INJURY] * rules.hunt_injury_faces
            + [HUNT_EGG] * rules.hunt_egg_faces
        )
        self.hunt_die = tuple(faces)

    def new_state(self, rng: np.random.Generator) -> TinyEpicDinosaursState:
        return TinyEpicDinosaursState(self, rng)

    def placements(
        self, space: Space, ways: tuple[tuple[str, str], ...], need: int, send_owner: bool | None
    ) -> tuple[Place, ...]:
        """The placements on `space` for these (choice, extra) ways of acting: `need` ranchers, and when
        `send_owner` is True also the owner (worth `owner_strength`) with fewer; `send_owner` None: only
        with the owner. Place actions are immutable, so each set is built once per game and shared."""
        key = PlacementKey(space.id, ways, need, send_owner)
        found = self._placements.get(key)
        if found is None:
            groups = [] if send_owner is None else [(need, False)]
            if send_owner is not False:
                groups.append((max(0, need - self.rules.owner_strength), True))
            found = tuple(
                Place(space.id, space.action, ranchers, owner, choice, extra)
                for choice, extra in ways
                for ranchers, owner in groups
            )
            found = remember(self._placements, key, found)
        return found


def make_game(rules: Rules, num_players: int) -> TinyEpicDinosaursGame:
    return TinyEpicDinosaursGame(rules, num_players)


class TinyEpicDinosaursState:
    """A game in progress."""

    def __init__(self, game: TinyEpicDinosaursGame, rng: np.random.Generator) -> None:
        rules, comp, n = game.rules, game.components, game.num_players
        self.game = game
        self.rules = rules
        self.rng = rng
        self.narration: list[str] | None = None  # a play log's sentences; None: nobody listens
        self.dinosaurs = comp.dinosaurs
        self.basic = comp.basic
        self.layout = comp.layout
        self.players = [Player(game.board, rules.start_ranchers) for _ in range(n)]
        self.supply = dict.fromkeys(comp.basic, rules.dinosaurs_per_kind)
        self.fence_supply = rules.fence_tokens
        self.contract_deck = self._shuffled(comp.contracts)
        for player in self.players:
            player.private = self._draw_contract()
        self.public_contracts: list[Contract] = []
        self._refill_contracts()
        self.research_deck = self._shuffled(comp.research)
        self.research_discard: list[ResearchCard] = []
        self.research_display: list[ResearchCard] = self._draw_research(rules.research_display)
        self.first_player = 0
        self.round_first_player = 0  # who placed first in the round being played (the marker may move meanwhile)
        if rules.first_player_bonuses:
            for seat in range(1, n):  # 2nd player 1 leaf, 3rd 1 meat, 4th 1 supply
                self.players[seat].gain(seat - 1, 1, rules.resource_cap)
        self.round = 1
        # seat -> group (ranchers, the owner counting `owner_strength`) on each action space; Phase 3 empties it
        self.occupancy: dict[str, dict[int, int]] = {sid: {} for sid in game.space_by_id}
        self.turn = 0
        self.prompt: Prompt | None = None  # the current player's question; None when the game is over
        self._legal: list | None = None  # its options, once listed
        self._todo: list[Step] = [START_ROUND]  # steps still to run, the next one last
        self._advance()

    # --- the State protocol ---

    def current_player(self) -> int:
        return -1 if self.prompt is None else self.prompt.player

    def is_terminal(self) -> bool:
        return self.prompt is None

    def legal_actions(self) -> list:
        if self._legal is None:
            self._legal = self._options()
        return self._legal

    def apply(self, action: Any) -> None:
        legal = self._legal
        if legal is None:
            legal = self._legal = self._options()
        if action not in legal:
            raise ValueError(f"illegal action {action!r} at {self.prompt.kind if self.prompt else 'game end'}")
        self._advance(action)

    def offer_only(self, actions: list) -> None:
        """Let the current decision offer only these of its legal actions (a search pruning at its root)."""
        self._legal = list(actions)

    def clone(self) -> TinyEpicDinosaursState:
        """An independent copy, its chance generator at the same position as this one's."""
        return self._copy(copy_generator(self.rng))

    def determinize(self, player: int, rng: np.random.Generator) -> TinyEpicDinosaursState:
        """A copy consistent with everything `player` has seen, what they cannot see sampled from `rng`.

        Hidden from `player`: the other players' private contracts and the order of the contract deck
        (together: every contract not public, not fulfilled and not their own private one), the order of
        the research deck (every card not face up, not discarded, not held and not drawn by them) and,
        should another player be choosing among cards just drawn, those cards. Each pool is built from
        the data's cards minus the ones seen, in the data's order, and dealt out again in a random order
        into the places it fills (who holds a private contract and how many cards each deck holds are
        public).

        Ruling: the copy draws its chance (hunt dice, reshuffles of the research discard pile) from `rng`
        itself, the search's own generator, so it still cannot foresee the real game's draws (they come from
        this state's generator), and the compiled search (`compiled_search`), which cannot make a generator,
        draws exactly what this one draws.
        """
        new = self._copy(rng)
        comp = self.game.components
        seen = {c.name for c in self.public_contracts}
        seen.update(c.name for p in self.players for c in p.contracts)
        mine = self.players[player].private
        if mine is not None:
            seen.add(mine.name)
        hidden = [c for c in comp.contracts if c.name not in seen]
        dealt = [hidden[i] for i in rng.permutation(len(hidden))]
        for seat, other in enumerate(new.players):
            if seat != player and other.private is not None:
                other.private = dealt.pop()
        new.contract_deck = dealt
        seen = {c.name for c in (*self.research_display, *self.research_discard)}
        seen.update(c.name for p in self.players for c in p.research)
        prompt = self.prompt
        drawn_by_other = isinstance(prompt, DrawnResearch) and prompt.player != player
        if isinstance(prompt, DrawnResearch) and not drawn_by_other:
            seen.update(c.name for c in prompt.drawn)
        hidden = [c for c in comp.research if c.name not in seen]
        dealt = [hidden[i] for i in rng.permutation(len(hidden))]
        if drawn_by_other:
            new.prompt = DrawnResearch(prompt.player, tuple(dealt.pop() for _ in prompt.drawn))
        new.research_deck = dealt
        if prompt is not None and prompt.player != player:
            new._legal = None  # another player's options may depend on what was resampled
        return new

    def _copy(self, rng: np.random.Generator) -> TinyEpicDinosaursState:
        """A copy drawing its chance from `rng`. The game, its rules and data, the cards, the prompt (a
        record nothing changes) and the to-do steps (tuples) are shared; the containers moves change are
        copied."""
        new = TinyEpicDinosaursState.__new__(TinyEpicDinosaursState)
        new.__dict__.update(self.__dict__)
        new.rng = rng
        new.narration = None  # nobody listens to a copy (a search's)
        new.players = [player.copy() for player in self.players]
        new.supply = self.supply.copy()
        new.contract_deck = self.contract_deck.copy()
        new.public_contracts = self.public_contracts.copy()
        new.research_deck = self.research_deck.copy()
        new.research_discard = self.research_discard.copy()
        new.research_display = self.research_display.copy()
        new.occupancy = {space: groups.copy() for space, groups in self.occupancy.items()}
        if self._legal is not None:
            new._legal = self._legal.copy()
        new._todo = self._todo.copy()
        return new

    def steps_left(self, seat: int) -> tuple[bool, bool, bool]:
        """Whether `seat` has still to arrange its ranch, feed and breed this round (Phases 4 to 6; all three
        while ranchers are being placed)."""
        todo = self._todo
        if END_ROUND not in todo:
            return True, True, True
        prompt = self.prompt
        now = prompt.kind if prompt is not None and prompt.player == seat else ""
        arrange = ArrangeRanch(seat) in todo or now in ("place_fence", "enclose")
        return arrange, FeedHerd(seat) in todo or now == "feed", BreedHerd(seat) in todo

    def describe(self, action: Any) -> str:
        """The current player's `action` in plain words, for a play log (asked before it is applied)."""
        return words.describe(self, action)

    def view(self, player: int) -> SimpleNamespace:
        """What `player` may see: the public table, their own private contract and their own decision.

        Other players' private contracts and the order of the decks are left out.
        """
        public = tuple(
            SimpleNamespace(
                ranch=p.ranch,
                resources=p.resources,
                holding=p.holding,
                holding_fences=p.holding_fences,
                contracts=p.contracts,
                research=p.research,
                ranchers_left=p.ranchers_left,
                owner_left=p.owner_left,
            )
            for p in self.players
        )
        mine = self.prompt is not None and self.prompt.player == player
        return SimpleNamespace(
            me=player,
            round=self.round,
            rules=self.rules,
            dinosaurs=self.dinosaurs,
            basic=self.basic,
            players=public,
            private=self.players[player].private,
            public_contracts=tuple(self.public_contracts),
            research_display=tuple(self.research_display),
            supply=dict(self.supply),
            fence_supply=self.fence_supply,
            first_player=self.first_player,
            occupancy=self.occupancy,
            spaces=self.game.space_by_id,
            decision=self.prompt if mine else None,  # this player's prompt (prompts.py)
            diet=functools.cache(lambda kind: self.diet(self.players[player], kind)),
        )

    # --- scoring ---

    def score_parts(self, seat: int) -> dict[str, int]:
        """Points by source: contracts, basic dinosaurs, unique dinosaurs, research cards."""
        player = self.players[seat]
        herd = player.ranch.herd()
        parts = {
            "contracts": sum(c.points for c in player.contracts),
            "dinosaurs": sum(self.dinosaurs[k].points * n for k, n in herd.items() if not self.dinosaurs[k].unique),
            "unique": sum(self.dinosaurs[k].points * n for k, n in herd.items() if self.dinosaurs[k].unique),
            "research": sum(card.points for card in player.research if card.dinosaur is None),
        }
        parts["research"] += sum(amount * herd.get(kind, 0) for kind, amount in player.points_per.items())
        return parts

    def scores(self) -> list[float]:
        return [float(sum(self.score_parts(seat).values())) for seat in range(len(self.players))]

    def turn_order(self) -> list[int]:
        n = len(self.players)
        return [(self.first_player + i) % n for i in range(n)]

    def winners(self) -> list[int]:
        """The highest score; a tie goes to the tied player earliest in turn order (rule `tie_break`: the order
        the last round was played in, or counted from the marker's holder at the end)."""
        scores = self.scores()
        best = max(scores)
        n = len(self.players)
        first = self.round_first_player if self.rules.tie_break == "last_round" else self.first_player
        return [next(seat for seat in ((first + i) % n for i in range(n)) if scores[seat] == best)]

    def stats(self) -> dict[str, float]:
        out: dict[str, float] = {"rounds": self.round}
        for seat, player in enumerate(self.players):
            for source, points in self.score_parts(seat).items():
                out[f"points_{source}_p{seat}"] = points
            for name, value in player.counters.items():
                out[f"{name}_p{seat}"] = value
            out[f"dinosaurs_p{seat}"] = sum(1 for k in player.ranch.cells if k is not None)
            out[f"fences_p{seat}"] = len(player.ranch.fences)
        return out

    # --- decks ---

    def _shuffled(self, items: tuple) -> list:
        deck = list(items)
        self.rng.shuffle(deck)
        return deck

    def _draw_contract(self) -> Contract | None:
        return self.contract_deck.pop() if self.contract_deck else None

    def _refill_contracts(self) -> None:
        wanted = len(self.players) + self.rules.extra_public_contracts
        while len(self.public_contracts) < wanted and self.contract_deck:
            self.public_contracts.append(self.contract_deck.pop())

    def _draw_research(self, n: int) -> list[ResearchCard]:
        # Ruling: when the research deck runs out, the discard pile is shuffled into a new deck.
        drawn = []
        for _ in range(n):
            if not self.research_deck and self.research_discard:
                self.research_deck = self._shuffled(tuple(self.research_discard))
                self.research_discard = []
            if not self.research_deck:
                break
            drawn.append(self.research_deck.pop())
        return drawn

    def _research_left(self) -> bool:
        return bool(self.research_deck or self.research_discard)

    # --- the round as steps ---

    def _then(self, *steps: Step) -> None:
        """Do `steps` next, in this order (before anything already scheduled)."""
        self._todo.extend(reversed(steps))

    def _advance(self, action: Any = None) -> None:
        """Carry out `action` (if given) for the prompt, then run steps until a player must choose among
        two or more options, or the game ends. A prompt with one option is answered with it."""
        todo = self._todo
        while True:
            if action is not None:
                prompt = self.prompt
                self.prompt = self._legal = None
                _PROMPTS[type(prompt)].resolve(self, prompt, action)
                action = None
            prompt = self.prompt
            if prompt is not None:
                legal = self._legal
                if legal is None:
                    legal = self._legal = _PROMPTS[type(prompt)].options(self, prompt)
                if len(legal) > 1:
                    return
                action = legal[0]
                if self.narration is not None:
                    self.narration.append(words.single_choice(prompt.player, self.describe(action)))
                continue
            if not todo:
                self._legal = []
                return
            step = todo.pop()
            _STEPS[type(step)](self, step)

    def _ask(self, prompt: Prompt) -> None:
        self.prompt = prompt
        self._legal = None

    def _options(self) -> list:
        if self.prompt is None:
            return []
        return _PROMPTS[type(self.prompt)].options(self, self.prompt)

    # Phase 1: collect resources

    def _step_start_round(self, step: StartRound) -> None:
        cap = self.rules.resource_cap
        narration = self.narration
        if narration is not None:
            narration.append(words.round_begins(self.round, self.first_player))
        for seat, player in enumerate(self.players):
            player.paid_herbivore = player.paid_carnivore = False
            printed, extra = player.ranch.survey().income, player.extra_income
            for resource in range(3):  # leaf, meat, supply
                player.gain(resource, printed[resource] + extra[resource], cap)
            player.ranchers_left = player.ranchers
            player.owner_left = True
            if narration is not None:
                income = [a + b for a, b in zip(printed, extra, strict=True)]
                narration.append(words.collects(seat, income, player.resources))
        self.players[self.first_player].counters["first_player_rounds"] += 1
        self.round_first_player = self.turn = self.first_player
        self._then(ASSIGN_TURN)

    # Phase 2: assign ranchers

    def _step_assign_turn(self, step: AssignTurn) -> None:
        n = len(self.players)
        for i in range(n):
            seat = (self.turn + i) % n
            player = self.players[seat]
            if player.ranchers_left or player.owner_left:
                prompt = Placement(seat)
                options = self._options_assign(prompt)
                if options:
                    self.turn = seat
                    self._ask(prompt)
                    self._legal = options
                    return
                # Ruling (rule `no_placement_skips`): a player who cannot carry out any action is skipped this
                # turn, or keeps the rest of their ranchers home for the round
                if self.rules.no_placement_skips == "round":
                    player.ranchers_left, player.owner_left = 0, False
        self._then(RETURN_RANCHERS)

    def _options_assign(self, prompt: Placement) -> list[Place]:
        """Every placement: a space the player is not on yet, with a group that may go there (an empty space
        takes one rancher or the owner alone; an occupied one exactly one more than its largest group, the
        owner counting `owner_strength`), whose cost they can pay and whose action they can carry out."""
        seat = prompt.player
        player = self.players[seat]
        ranchers, has_owner = player.ranchers_left, player.owner_left
        strength = self.rules.owner_strength
        leaf, meat, supply = player.resources
        discounts = player.discounts
        research = self._research_left() or bool(self.research_display)
        survey = player.ranch.survey()
        occupancy = self.occupancy
        placements = self.game.placements
        # the hunt, buy, gain, first-player and research spaces offer all their ways of acting while every
        # kind is in stock, a research card can be taken and fences are left: while empty, their placements
        # are then those of `on_empty`
        on_empty = self.game.on_empty if self._stocked(research) else {}
        options: list[Place] = []
        for space in self.game.spaces:
            occupied = occupancy[space.id]
            if not occupied:
                need = 1
            elif seat in occupied:
                continue  # never a space where you already are
            else:
                need = max(occupied.values()) + 1
            if ranchers >= need:
                send_owner = has_owner  # whoever can send `need` ranchers can also send the owner with fewer
            elif has_owner and ranchers >= need - strength:
                send_owner = None  # only with the owner
            else:
                continue
            pay_leaf, pay_meat, pay_supply = player.cost(space) if discounts else space.cost
            if pay_leaf > leaf or pay_meat > meat or pay_supply > supply:
                continue
            if need == 1 and space.id in on_empty:
                options += on_empty[space.id][send_owner]
                continue
            ways = _WAYS[space.action](self, player, space, research, survey)
            if ways:  # you must be able to carry out the action
                options += placements(space, ways, need, send_owner)
        return options

    def _stocked(self, research: bool) -> bool:
        """Whether every basic kind is in stock, a research card can be taken and fences are left."""
        return research and self.fence_supply > 0 and min(self.supply.values()) > 0

    # The (choice, extra) ways `player` can carry out a space's action, by action (empty: it cannot be
    # carried out). `research`: whether a research card can be taken; `survey` is `player.ranch.survey()`.

    def _ways_place_now(self, player: Player, space: Space, research: bool, survey: Survey) -> tuple:
        if not player.holding:
            return ()
        if survey.free_grass:  # any dinosaur in Holding
            return tuple((kind, "") for kind in dict.fromkeys(player.holding))
        # no free grass: only a unique dinosaur, on a free mountain or water space (rule `unique_terrain`)
        if not (player.ranch.board.unique_anywhere and None in player.ranch.cells):
            return ()
        return tuple((kind, "") for kind in dict.fromkeys(player.holding) if self.dinosaurs[kind].unique)

    def _ways_research_remove(self, player: Player, space: Space, research: bool, survey: Survey) -> tuple:
        return tuple((kind, "") for kind, _ in survey.herd) if research else ()

    def _ways_hunt(self, player: Player, space: Space, research: bool, survey: Survey) -> tuple:
        return self.game.full_ways[space.id] if self.supply[space.dinosaur] > 0 else ()

    def _ways_buy(self, player: Player, space: Space, research: bool, survey: Survey) -> tuple:
        ways = self.game.full_ways[space.id]
        stock = self.supply
        if all(stock[kind] > 0 for kind, _ in ways):
            return ways
        return tuple(way for way in ways if stock[way[0]] > 0)

    def _ways_gain(self, player: Player, space: Space, research: bool, survey: Survey) -> tuple:
        if space.fences and not any(space.gain) and self.fence_supply == 0:
            return ()  # a space giving only fences needs at least one fence left
        return self.game.full_ways[space.id]

    def _ways_first_player(self, player: Player, space: Space, research: bool, survey: Survey) -> tuple:
        return self.game.full_ways[space.id]

    def _ways_research(self, player: Player, space: Space, research: bool, survey: Survey) -> tuple:
        return self.game.full_ways[space.id] if research else ()

    def _ways_contract(self, player: Player, space: Space, research: bool, survey: Survey) -> tuple:
        """Pay a public contract from the ranch, perhaps the private one alongside."""
        herd_pairs = survey.herd
        if not herd_pairs:
            return ()  # every contract asks for at least one dinosaur
        herd = dict(herd_pairs)
        private = player.private
        found = []
        for contract in self.public_contracts:
            wanted = contract.dinosaurs
            if _pays(herd, wanted):
                found.append((contract.name, ""))
                if private:
                    left = dict(herd)
                    for kind, n in wanted:
                        left[kind] -= n
                    if _pays(left, private.dinosaurs):
                        found.append((contract.name, "private"))
        return tuple(found)

    def _resolve_assign(self, prompt: Placement, action: Place) -> None:
        seat = prompt.player
        player = self.players[seat]
        space = self.game.space_by_id[action.space]
        occupied = self.occupancy[space.id]
        counters = player.counters
        counters["placements"] += 1
        if occupied:
            counters["bumps"] += 1
        ranchers, owner = action.ranchers, action.owner
        occupied[seat] = ranchers + (self.rules.owner_strength if owner else 0)
        player.ranchers_left -= ranchers
        if owner:
            player.owner_left = False
        leaf, meat, supply = player.cost(space) if player.discounts else space.cost
        resources = player.resources
        resources[0] -= leaf
        resources[1] -= meat
        resources[2] -= supply
        self.turn = (seat + 1) % len(self.players)
        self._todo.append(ASSIGN_TURN)
        _ACT[space.action](self, seat, player, space, action)

    def _take_dinosaurs(self, player: Player, kind: str, n: int) -> None:
        # Ruling: the supply limits what is taken; an egg with one figure left gives one.
        n = min(n, self.supply[kind])
        self.supply[kind] -= n
        player.holding.extend([kind] * n)

    def _act_hunt(self, seat: int, player: Player, space: Space, action: Place) -> None:
        die = self.game.hunt_die
        face = die[int(uniform(self.rng) * len(die))]  # one uniform double, as `RandomPolicy` draws
        player.counters["hunts"] += 1
        held = len(player.holding)
        self._take_dinosaurs(player, space.dinosaur, self.rules.egg_dinosaurs if face == HUNT_EGG else 1)
        if face == HUNT_INJURY:
            player.counters["injuries"] += 1
            # Ruling: the injured group goes to the hospital and no longer holds the space
            # (rule `injured_rancher`: "stays" keeps it blocking the space).
            if self.rules.injured_rancher == "leaves":
                del self.occupancy[space.id][seat]
        if self.narration is not None:
            caught = len(player.holding) - held
            self.narration.append(words.hunt(seat, face, space.dinosaur, caught, self.rules.injured_rancher))

    def _act_buy(self, seat: int, player: Player, space: Space, action: Place) -> None:
        self._take_dinosaurs(player, action.choice, 1)

    def _act_place_now(self, seat: int, player: Player, space: Space, action: Place) -> None:
        player.holding.remove(action.choice)
        player.ranch.place_one(action.choice, self.dinosaurs[action.choice].unique)
        self._ask(Rearranging(seat, ()))

    def _act_gain(self, seat: int, player: Player, space: Space, action: Place) -> None:
        for i, amount in enumerate(space.gain):
            player.gain(i, amount, self.rules.resource_cap)
        if space.fences:
            wanted = space.fences + player.extra_fences
            # Ruling: fences come from the general supply; when it runs short you get what is left.
            got = min(wanted, self.fence_supply)
            self.fence_supply -= got
            player.holding_fences += got
            if self.narration is not None and got != space.fences:
                self.narration.append(words.fences_gained(seat, got, self.fence_supply))

    def _act_first_player(self, seat: int, player: Player, space: Space, action: Place) -> None:
        self.first_player = seat
        self._ask(Rearranging(seat, ()))

    def _act_research(self, seat: int, player: Player, space: Space, action: Place) -> None:
        self._ask(ResearchChoice(seat))

    def _act_research_remove(self, seat: int, player: Player, space: Space, action: Place) -> None:
        self._remove_from_ranch(player, action.choice)
        self._ask(ResearchChoice(seat))

    def _act_contract(self, seat: int, player: Player, space: Space, action: Place) -> None:
        contract = next(c for c in self.public_contracts if c.name == action.choice)
        self.public_contracts.remove(contract)
        self._fulfil(player, contract)
        player.counters["contracts_public"] += 1
        if action.extra == "private":
            self._fulfil_private(player)

    def _fulfil(self, player: Player, contract: Contract) -> None:
        for kind, n in contract.dinosaurs:
            player.ranch.remove(kind, n)
            self.supply[kind] += n
        player.contracts.append(contract)
        if self.narration is not None:
            self.narration.append(words.contract_scored(self.players.index(player), contract))

    def _fulfil_private(self, player: Player) -> None:
        self._fulfil(player, player.private)
        player.counters["contracts_private"] += 1
        player.private = self._draw_contract()
        if self.narration is not None:
            self.narration.append(words.new_private_contract(self.players.index(player), player.private is not None))

    def _remove_from_ranch(self, player: Player, kind: str) -> None:
        """A dinosaur leaves the ranch for the supply; a unique one takes its research card to the discard."""
        player.ranch.remove(kind)
        self._return_figure(player, kind)

    def _return_figure(self, player: Player, kind: str) -> None:
        if self.dinosaurs[kind].unique:
            card = next(c for c in player.research if c.name == kind)
            player.research.remove(card)
            player.learn()
            self.research_discard.append(card)
        else:
            self.supply[kind] += 1

    def _options_take_research(self, prompt: ResearchChoice) -> list[PickResearch]:
        """A face-up research card, or "draw" three from the deck (the only way when none is face up)."""
        pick = self.game.pick_research
        options = [pick[card.name] for card in self.research_display]
        if self._research_left():
            options.append(pick["draw"])
        return options

    def _resolve_take_research(self, prompt: ResearchChoice, action: PickResearch) -> None:
        seat = prompt.player
        choice = action.card
        if choice == "draw":
            drawn = self._draw_research(self.rules.research_draw)
            if self.narration is not None:
                self.narration.append(words.research_drawn(seat, drawn))
            self._ask(DrawnResearch(seat, tuple(drawn)))
        else:
            card = next(c for c in self.research_display if c.name == choice)
            self.research_display.remove(card)
            self._gain_research(self.players[seat], card)

    def _options_pick_research(self, prompt: DrawnResearch) -> list[PickResearch]:
        pick = self.game.pick_research
        return [pick[card.name] for card in prompt.drawn]

    def _resolve_pick_research(self, prompt: DrawnResearch, action: PickResearch) -> None:
        for card in prompt.drawn:
            if card.name == action.card:
                self._gain_research(self.players[prompt.player], card)
            else:
                self.research_display.append(card)  # the other drawn cards join the face-up ones

    def _gain_research(self, player: Player, card: ResearchCard) -> None:
        player.research.append(card)
        player.learn_card(card)
        player.counters["research"] += 1
        if card.dinosaur is not None:
            player.holding.append(card.dinosaur.name)  # the unique dinosaur comes with its card
            if self.narration is not None:
                self.narration.append(words.unique_joins(self.players.index(player), card.dinosaur.name))

    # fence rearranging (place-now and first-player spaces)

    def _options_rearrange(self, prompt: Rearranging) -> list:
        # Ruling: each fence token moves at most once per rearranging (any new arrangement is
        # reachable that way); fences gained this round are in Holding and placed in Phase 4
        # unless rule `rearrange_holding` lets them be placed now.
        player = self.players[prompt.player]
        names = self.layout.edge_names
        free = player.ranch.free_slots()
        options: list = [STOP_REARRANGING]
        sources = [names[e] for e in sorted(player.ranch.fences) if e not in prompt.moved]
        if self.rules.rearrange_holding and player.holding_fences:
            sources.append("holding")
        moves = self.game.move_fence
        for source in sources:
            to = moves[source]
            options.extend(map(to.__getitem__, free))
        return options

    def _resolve_rearrange(self, prompt: Rearranging, action: Any) -> None:
        if isinstance(action, StopRearranging):
            return
        seat = prompt.player
        ranch = self.players[seat].ranch
        if action.source == "holding":
            self.players[seat].holding_fences -= 1
        else:
            ranch.remove_fence(self.layout.edge_id(action.source))
        target = self.layout.edge_id(action.target)
        ranch.add_fence(target)
        self._ask(Rearranging(seat, (*prompt.moved, target)))

    # Phase 3: return ranchers; then phases 4-7 for every player

    def _step_return_ranchers(self, step: ReturnRanchers) -> None:
        self.occupancy = {sid: {} for sid in self.game.space_by_id}
        if self.narration is not None:
            self.narration.append(words.RANCHERS_RETURN)
        order = self.turn_order()
        self._then(
            *(ArrangeRanch(seat) for seat in order),
            *(FeedHerd(seat) for seat in order),
            *(BreedHerd(seat) for seat in order),
            END_ROUND,
        )

    # Phase 4: arrange the ranch

    def _new_phase(self, player: Player) -> None:
        if self.rules.penalty_once_per == "phase":
            player.paid_herbivore = player.paid_carnivore = False

    def _step_arrange(self, step: ArrangeRanch) -> None:
        seat = step.seat
        player = self.players[seat]
        if player.holding_fences:
            if player.ranch.free_slots():
                self._ask(FencePlacement(seat))
                return
            # Ruling: a fence with no free edge on the ranch goes back to the supply.
            if self.narration is not None:
                self.narration.append(words.no_free_edge(seat, player.holding_fences))
            self.fence_supply += player.holding_fences
            player.holding_fences = 0
        self._new_phase(player)
        herd, uniques = player.ranch.to_lay_out(player.holding, self.game.unique_kinds)
        self._enclose(seat, player.ranch.enclosures(), {}, herd, dict(herd), uniques)

    def _options_place_fence(self, prompt: FencePlacement) -> list[PlaceFence]:
        place = self.game.place_fence
        return [place[edge] for edge in self.players[prompt.player].ranch.free_slots()]

    def _resolve_place_fence(self, prompt: FencePlacement, action: PlaceFence) -> None:
        seat = prompt.player
        player = self.players[seat]
        player.ranch.add_fence(self.layout.edge_id(action.edge))
        player.holding_fences -= 1
        self._step_arrange(ArrangeRanch(seat))  # the next fence, or the layout

    def _enclose(
        self,
        seat: int,
        enclosures: tuple[Region, ...],
        assignment: dict[int, str],
        herd: dict[str, int],
        unplaced: dict[str, int],
        uniques: tuple[str, ...],
    ) -> None:
        """Ask for the next enclosure while dinosaurs lack room and enclosures are free; else lay the ranch out."""
        if any(unplaced.values()) and len(assignment) < len(enclosures):
            self._ask(Enclosing(seat, enclosures, assignment, herd, unplaced, uniques))
            return
        # every enclosure is taken or every basic dinosaur placed: the layout is final
        self.players[seat].holding = []
        ranch = self.players[seat].ranch
        escaped = ranch.lay_out(enclosures, assignment, herd, list(uniques))
        if self.narration is not None and (herd or uniques):
            self.narration.append(words.ranch_holds(seat, ranch.survey().herd))
        self._escape(seat, escaped)

    def _options_enclose(self, prompt: Enclosing) -> list[Enclose]:
        """An enclosure not given to a kind yet, for a kind with dinosaurs still to place, where the layout can
        still house the most dinosaurs there can be ("If you are able to place a dinosaur, you must do so")."""
        enclosures = prompt.enclosures
        return [
            Enclose(enclosures[index].name, enclosures[index].capacity, kind)
            for index, kind in enclosure_choices(enclosures, prompt.assignment, prompt.unplaced, self.reads_most)
        ]

    def _resolve_enclose(self, prompt: Enclosing, action: Enclose) -> None:
        enclosures, unplaced = prompt.enclosures, prompt.unplaced
        for index, region in enumerate(enclosures):
            if region.name == action.enclosure and index not in prompt.assignment:
                break
        assignment = {**prompt.assignment, index: action.kind}
        unplaced = {**unplaced, action.kind: max(0, unplaced[action.kind] - enclosures[index].capacity)}
        self._enclose(prompt.player, enclosures, assignment, prompt.herd, unplaced, prompt.uniques)

    # escapes and their penalties

    def _escape(self, seat: int, escaped: dict[str, int]) -> None:
        """The dinosaurs in `escaped` (kind -> n, already off the ranch) return to the supply; penalties follow."""
        if not escaped:
            return
        player = self.players[seat]
        if self.narration is not None:
            self.narration.append(words.escape(seat, escaped))
        groups = set()
        for kind, n in escaped.items():
            for _ in range(n):
                self._return_figure(player, kind)
            player.counters["escapes"] += n
            groups.add(self.dinosaurs[kind].group)
        self._then(PayPenalties(seat, "herbivore" in groups, "carnivore" in groups, "omnivore" in groups))

    def _step_penalties(self, step: PayPenalties) -> None:
        seat, herbivore, carnivore, omnivore = step.seat, step.herbivore, step.carnivore, step.omnivore
        player = self.players[seat]
        herbivore_due = herbivore and not player.paid_herbivore
        carnivore_due = carnivore and not player.paid_carnivore
        if omnivore and not (player.paid_herbivore or herbivore_due or player.paid_carnivore or carnivore_due):
            # The omnivores count as herbivores or carnivores, the player's choice. Ruling: when one
            # choice adds no penalty (that type is already due or paid this round) it is taken.
            self._ask(OmnivoreEscape(seat, herbivore, carnivore))
            return
        if herbivore_due:
            player.paid_herbivore = True
            if player.ranch.fences:
                self._ask(FenceLoss(seat))
        if carnivore_due:
            player.paid_carnivore = True
            if any(k is not None for k in player.ranch.cells):
                self._then(LoseDinosaurPenalty(seat))

    def _options_escape_as(self, prompt: OmnivoreEscape) -> list[EscapeAs]:
        return [EscapeAs("herbivore"), EscapeAs("carnivore")]

    def _resolve_escape_as(self, prompt: OmnivoreEscape, action: EscapeAs) -> None:
        herbivore = prompt.herbivore or action.group == "herbivore"
        carnivore = prompt.carnivore or action.group == "carnivore"
        self._then(PayPenalties(prompt.player, herbivore, carnivore, False))

    def _options_lose_fence(self, prompt: FenceLoss) -> list[LoseFence]:
        lose = self.game.lose_fence
        return [lose[edge] for edge in sorted(self.players[prompt.player].ranch.fences)]

    def _resolve_lose_fence(self, prompt: FenceLoss, action: LoseFence) -> None:
        # Dinosaurs left unenclosed stay where they are until the next Phase 4 (they cannot breed).
        player = self.players[prompt.player]
        player.ranch.remove_fence(self.layout.edge_id(action.edge))
        self.fence_supply += 1
        player.counters["penalty_fences"] += 1

    def _step_lose_dinosaur(self, step: LoseDinosaurPenalty) -> None:
        self._ask(DinosaurLoss(step.seat))

    def _options_lose_dinosaur(self, prompt: DinosaurLoss) -> list[LoseDinosaur]:
        lose = self.game.lose_dinosaur
        return [lose[kind] for kind, _ in self.players[prompt.player].ranch.survey().herd]

    def _resolve_lose_dinosaur(self, prompt: DinosaurLoss, action: LoseDinosaur) -> None:
        # Ruling: the removed dinosaur is not an escape itself (no further penalty).
        player = self.players[prompt.player]
        self._remove_from_ranch(player, action.kind)
        player.counters["penalty_dinosaurs"] += 1

    # Phase 5: feed

    def diet(self, player: Player, kind: str) -> Food:
        """The food one dinosaur of `kind` eats, after the player's feed_less abilities."""
        return feeding.diet(self.dinosaurs[kind], player.feed_less.get(kind, 0))

    def food_needed(self, player: Player, fed: tuple[tuple[str, int], ...]) -> Food:
        """The food the dinosaurs in `fed` ((kind, n) pairs) of `player` eat together."""
        return feeding.food_needed(fed, functools.partial(self.diet, player))

    def _step_feed(self, step: FeedHerd) -> None:
        seat = step.seat
        player = self.players[seat]
        self._new_phase(player)
        herd = player.ranch.survey().herd
        need = self.food_needed(player, herd)
        if feeding.fits(need, player.resources):
            before = list(player.resources)
            self._eat(player, need)
            if self.narration is not None and herd:
                eaten = [a - b for a, b in zip(before, player.resources, strict=True)]
                self.narration.append(words.herd_eats(seat, eaten, player.resources))
        else:
            self._ask(Feeding(seat, herd))

    def _eat(self, player: Player, need: Food) -> None:
        """Pay the food `need` (see `food_needed`) from the player's resources."""
        resources = player.resources
        resources[0], resources[1] = feeding.food_left(resources[0], resources[1], need, self.rules.either_food)

    @property
    def reads_most(self) -> bool:
        """Rule `must_place_and_feed`: the layout houses and the feeding feeds the most dinosaurs there can be."""
        return self.rules.must_place_and_feed == "most"

    def _options_feed(self, prompt: Feeding) -> list[Feed]:
        """Every way to feed that leaves no dinosaur unfed that could still be fed ("If a dinosaur can be fed, then
        it must be fed!"); read as 'most' (rule `must_place_and_feed`), those feeding the most dinosaurs."""
        player = self.players[prompt.player]
        diets = tuple(self.diet(player, kind) for kind, _ in prompt.herd)
        return feeding.feedings(prompt.herd, diets, tuple(player.resources), self.reads_most)

    def _resolve_feed(self, prompt: Feeding, action: Feed) -> None:
        seat, herd = prompt.player, prompt.herd
        player = self.players[seat]
        self._eat(player, self.food_needed(player, action.fed))
        escaped = feeding.unfed(herd, action.fed)
        for kind, n in escaped.items():
            player.ranch.remove(kind, n)
            player.counters["unfed"] += n
        self._escape(seat, escaped)

    # Phase 6: breed

    def _step_breed(self, step: BreedHerd) -> None:
        seat = step.seat
        player = self.players[seat]
        self._new_phase(player)
        born = {}
        for kind, n in player.ranch.breeding(self.game.unique_kinds).items():
            # Ruling: only figures left in the supply can be born.
            born[kind] = min(n, self.supply[kind])
            self.supply[kind] -= born[kind]
            player.counters["bred"] += born[kind]
        wanting, empty = player.ranch.newborns_at_home(born)
        self._house(seat, empty, {}, wanting, wanting, born)

    def _house(
        self,
        seat: int,
        enclosures: tuple[Region, ...],
        assignment: dict[int, str],
        wanting: dict[str, int],
        unplaced: dict[str, int],
        born: dict[str, int],
    ) -> None:
        """Ask for the next empty enclosure while newborns lack room and empty enclosures are free; else the
        newborns (`wanting` room beyond their kind's enclosures) go in and those without room escape."""
        if any(unplaced.values()) and len(assignment) < len(enclosures):
            self._ask(Housing(seat, enclosures, assignment, wanting, unplaced, born))
            return
        escaped = self.players[seat].ranch.house_newborns(enclosures, assignment, wanting)
        if self.narration is not None:
            self.narration.extend(words.breed(seat, kind, n, escaped.get(kind, 0)) for kind, n in born.items())
        self._escape(seat, escaped)

    def _options_house(self, prompt: Housing) -> list[Enclose]:
        """An empty enclosure for a kind with newborns still without room, where the newborns can still be housed
        the most there can be: "Any dinosaurs produced by breeding must immediately be placed on that player's
        ranch, following the normal rules for placing dinosaurs" ("If you are able to place a dinosaur, you must
        do so", as in Phase 4). No dinosaur already on the ranch moves."""
        enclosures = prompt.enclosures
        return [
            Enclose(enclosures[index].name, enclosures[index].capacity, kind)
            for index, kind in enclosure_choices(enclosures, prompt.assignment, prompt.unplaced, self.reads_most)
        ]

    def _resolve_house(self, prompt: Housing, action: Enclose) -> None:
        index = next(i for i, region in enumerate(prompt.enclosures) if region.name == action.enclosure)
        size = prompt.enclosures[index].capacity
        assignment = {**prompt.assignment, index: action.kind}
        unplaced = {**prompt.unplaced, action.kind: max(0, prompt.unplaced[action.kind] - size)}
        self._house(prompt.player, prompt.enclosures, assignment, prompt.herd, unplaced, prompt.born)

    # Phase 7: end of round

    def _step_end_round(self, step: EndRound) -> None:
        if self.rules.private_contract_timing == "also_end_of_round":
            # Variant: a private contract the ranch can pay is fulfilled at the end of the round.
            for seat in self.turn_order():
                player = self.players[seat]
                herd = player.ranch.herd()
                if player.private and _pays(herd, player.private.dinosaurs):
                    self._fulfil_private(player)
        self._refill_contracts()
        self.research_discard.extend(self.research_display)
        self.research_display = self._draw_research(self.rules.research_display)
        if self.narration is not None:
            parts = [self.score_parts(seat) for seat in range(len(self.players))]
            final = self.round == self.rules.rounds
            self.narration.extend(words.round_ends(self.round, final, parts, self.research_display))
        if self.round == self.rules.rounds:
            return  # the game ends: no more steps, no prompt
        self.round += 1
        if self.round == self.rules.extra_rancher_round:
            for player in self.players:
                player.ranchers += 1
        self._then(START_ROUND)


def _methods(prefix: str) -> dict[str, Callable]:
    """The state's methods named `prefix` + name, by name."""
    return {
        name[len(prefix) :]: method for name, method in vars(TinyEpicDinosaursState).items() if name.startswith(prefix)
    }


_STEPS: dict[type, Callable] = {step: getattr(TinyEpicDinosaursState, f"_step_{step.name}") for step in STEPS}
_WAYS = _methods("_ways_")  # by a space's action: its ways of acting (`_options_assign`)
_ACT = _methods("_act_")  # by a space's action: carrying it out (`_resolve_assign`)
_OPTIONS = _methods("_options_")
_RESOLVE = _methods("_resolve_")


class _PromptMethods(NamedTuple):
    """How the state handles one kind of prompt."""

    options: Callable  # (state, prompt) -> the legal answers
    resolve: Callable  # (state, prompt, answer) -> None: carries the chosen answer out


_PROMPTS: dict[type, _PromptMethods] = {
    prompt: _PromptMethods(_OPTIONS[prompt.kind], _RESOLVE[prompt.kind])
    for prompt in (
        Placement, ResearchChoice, DrawnResearch, Rearranging, FencePlacement, Enclosing, Housing, OmnivoreEscape,
        FenceLoss, DinosaurLoss, Feeding,
    )
}


def _pays(herd: dict[str, int], dinosaurs: tuple[tuple[str, int], ...]) -> bool:
    """Whether a herd (kind -> n) holds the (kind, n) dinosaurs a contract asks for."""
    for kind, n in dinosaurs:
        if herd.get(kind, 0) < n:
            return False
    return True
