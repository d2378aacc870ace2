"""Phase 4 of a Tyranno Ex round, combat: who may fight whom, and a fight played on the board: part of
`TyrannoExState` (game.py). The fight itself (rolls, rounds, effects) is `combat.py`."""

from __future__ import annotations

import numpy as np

from tyrsim.games.tyranno_ex import narration as words
from tyrsim.games.tyranno_ex.actions import NO_FIGHT, Challenge, challenge_row
from tyrsim.games.tyranno_ex.board import TRACK, BoardCard
from tyrsim.games.tyranno_ex.combat import Fight, fight_effects, resolve_fight, strength


def dice_rolls(rng: np.random.Generator, attacker_dice: int, defender_dice: int, faces: int):
    """Endless (attacker's dice, defender's dice) rolls for `resolve_fight`, drawn a few rolls at a time."""
    n = attacker_dice + defender_dice
    while True:
        dice = rng.integers(1, faces + 1, size=4 * n).tolist()  # 4 rolls of both sides, one after the other
        for start in range(0, 4 * n, n) if n else range(4):
            yield dice[start : start + attacker_dice], dice[start + attacker_dice : start + n]


class Fights:
    """In turn, each player may pick one fight of one of their cards against another player's card."""

    def _begin_combat(self) -> None:
        self.phase = "combat"
        if self.narration is not None:
            self.narration.append(words.combat_begins(self))
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
        """The challenges open to `player` with their cards (those of `column` only, unless it is -1)."""
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
            row = challenge_row(a, len(self.spots))
            challenges += [row[d] for d in theirs]
        return challenges

    def _next_fight(self, pop: bool = True) -> None:
        """The next player in the queue with a fight to pick (a player without one has nothing to decide)."""
        self.fight_options = None
        if pop:
            self.queue.pop(0)
        while self.queue:
            player, column = self.queue[0]
            challenges = self._challenges(player, column)
            if challenges:
                self.player = player
                self.fight_options = (NO_FIGHT, *challenges)
                return
            self.queue.pop(0)
        self._end_of_round()

    def _challenge(self, action: Challenge) -> None:
        self._fight(action.attacker, action.defender)
        self._next_fight()

    def _resolve(self, attacker: BoardCard, defender: BoardCard, chips: list[int]) -> Fight:
        """One fight by the combat module, with dice from the current chips and rolls from the state's generator."""
        da, dd = self.dice(attacker.card, chips), self.dice(defender.card, chips)
        return resolve_fight(
            strength(attacker.die), da, strength(defender.die), dd, self.rules,
            rolls=dice_rolls(self.rng, da, dd, self.rules.die_faces),
        )  # fmt: skip

    def _fight(self, attacker: int, defender: int) -> None:
        a, d = self.spots[attacker], self.spots[defender]
        fight = self._resolve(a, d, self.env.chips_of())
        c = self.counters
        c["fights"] += 1
        self.seat_counters["fights_started"][a.owner] += 1
        narration = self.narration
        if narration is not None:
            narration += words.fight_lines(a.card.name, d.card.name, fight)
        if fight.winner is None:  # neither side can ever win a round: nothing happens
            c["fights_endless"] += 1
            if narration is not None:
                narration.append(words.ENDLESS_FIGHT)
            return
        win, lose, lose_spot = (a, d, defender) if fight.winner == "attacker" else (d, a, attacker)
        if fight.winner == "attacker":
            self.seat_counters["fights_won"][a.owner] += 1
        dice = (win.die, lose.die)  # before the fight's effects, for the play log
        eliminated = self._take_effects(win, lose, fight.loser_rounds)
        if narration is not None:
            narration.append(words.outcome_text(win, lose, dice, fight, eliminated))
        if eliminated:
            c["fights_clean"] += 1
            c["fight_losses"] += 1
            self._eliminate(lose_spot)
        else:
            c["fights_close"] += 1

    def _take_effects(self, win: BoardCard, lose: BoardCard, loser_rounds: int) -> bool:
        """A decided fight's effects on its two cards' dice and faces; True if the loser is eliminated
        (the caller takes it off the board)."""
        effects = fight_effects(win.die, lose.die, loser_rounds, self.rules)
        win.die = effects.winner_die
        if not effects.loser_eliminated:
            lose.die = effects.loser_die
            lose.face_down = True
        return effects.loser_eliminated
