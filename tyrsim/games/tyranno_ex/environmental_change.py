"""Phase 2 of a Tyranno Ex round, environmental change, with the strength dice it earns and the "5"
marker: part of `TyrannoExState` (game.py). The environment card itself (spaces, chips, majorities,
rapid changes) is `environment.py`."""

from __future__ import annotations

from tyrsim.games.tyranno_ex import narration as words
from tyrsim.games.tyranno_ex.actions import SetChips, UseFive, environment_actions
from tyrsim.games.tyranno_ex.environment import NUM_SYMBOLS


class EnvironmentalChange:
    """In turn from the start player: trade, set chips face down or pass, until Move reaches End; then the
    "5" marker at the end of placement (by the `five_timing` ruling)."""

    # --- the placement rounds: Move and End on the round tracker ---

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
        self.last_round = 0  # no placement round played yet (0 until a turn is taken)
        self.passes = 0
        self.player = self.start
        over = self._placement_over()
        if self.narration is not None:
            self.narration += words.environment_begins(self, over)
        if over:
            self._begin_five()

    def _environment_actions(self) -> tuple:
        r = self.rules
        trade_most = min(r.trade_limit, self.bag.total()) if self.move <= r.trade_rounds else 0
        five_most = r.five_chips if r.five_timing == "own_turn" and self.five[self.player] else 0
        cap = max(r.set_limit, trade_most, five_most)
        h0, h1, h2, h3 = self.hands[self.player]  # counts above every limit cut off: fewer cache keys
        hand = (h0 if h0 < cap else cap, h1 if h1 < cap else cap, h2 if h2 < cap else cap, h3 if h3 < cap else cap)
        return environment_actions(hand, r.set_limit, trade_most, five_most, r.five_count == "exact")

    def _next_environment_turn(self) -> None:
        self.last_round = self.move  # the placement round of the turn just taken
        self.player = (self.player + 1) % self.num_players
        narration = self.narration
        if self.player == self.start:
            self.move += 1  # the start player advances the Move marker
            if narration is not None:
                narration.append(words.move_advances(self))
        if self._placement_over():
            if narration is not None:
                narration.append(words.placement_over(self))
            self._begin_five()

    def _pass(self) -> None:
        self.passes += 1
        self._next_environment_turn()

    # --- trading and setting chips ---

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
            self.narration.append(words.drawn(drawn))
        self.seat_counters["trades"][self.player] += 1
        self.passes = 0
        self._next_environment_turn()

    def _set_chips(self, action: SetChips | UseFive, after: str) -> None:
        """Lay the chips face down, then resolve the spaces laid on; `after`: "turn" (the turn is over),
        "again" (the own-turn "5" marker: the player now takes their turn) or "five" (the phase-end marker)."""
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
        tell = None if self.narration is None else self._tell_space
        while spaces_left:
            space = spaces_left[0]
            changes, ties, tied = env.resolve(space, rules.majority_tie, self.bag, self.rng, rules.majority, tell)
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

    def _tell_space(self, *outcome) -> None:
        """For a play log: what happened on a space the chips laid turned face up (`Environment.resolve`)."""
        self.narration.append(words.space_outcome(self.env, *outcome))

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
            self.narration.append(words.symbol_chosen(self, space, symbol))
        self.env.change(space, symbol, self.bag)
        self.chain += 1
        self.phase = "five" if self.after_setting == "five" else "environment"
        self._resolve_spaces()

    def _after_change(self) -> None:
        if self.setting_changes:  # only a setting that changed the conditions can earn strength dice
            if self.narration is not None:
                self.narration.append(words.conditions(self))
            self._strength_dice()
        if self.after_setting == "turn":
            self._next_environment_turn()
        elif self.after_setting == "five":
            self._next_five()
        # "again": the player used the "5" marker on their own turn and now takes their turn

    # --- strength dice ---

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
                self.narration.append(words.strength_die(bc, gain))

    def strength_dice_open(self) -> bool:
        """Whether a change made now can earn or raise strength dice: "A card's strength die can only be
        raised this way during the first 3 placement rounds (see the round tracker)" (`die_rounds`).

        A setting belongs to the placement round Move's field shows. Ruling `five_die_round`, for the "5"
        marker's chips at the end of placement (`five_timing = "phase_end"`): Move stands on End by then, a
        field no placement round is played on (End on field 3: rounds 1 and 2 are played). Default
        "last_round": the extra chips count in the last placement round played (Move's field at the phase's
        last turn), since they are laid as that round's placement ends; "tracker": they count on the field
        Move stands on ("see the round tracker"); "never": they come after the placement rounds, which alone
        earn dice. A phase that played no placement round at all (End already on Move's field, or no
        placement after End ran off the tracker) has no round the chips could belong to: no dice under every
        reading.
        """
        r = self.rules
        if self.phase != "five":
            return self.move <= r.die_rounds
        if not self.last_round or r.five_die_round == "never":
            return False
        return (self.move if r.five_die_round == "tracker" else self.last_round) <= r.die_rounds

    # --- the "5" marker ---

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
                self.narration.append(words.five_holders(self))
        else:
            self.queue = []
        self._next_five(pop=False)

    def _use_five(self, action: UseFive) -> None:
        """Give up the marker and lay its chips: at the end of placement, or on the player's own turn before
        the turn's action (`five_timing`)."""
        self.five[self.player] = False
        self.five_round[self.player] = self.round
        self._set_chips(action, "five" if self.phase == "five" else "again")

    def _next_five(self, pop: bool = True) -> None:
        if pop:
            self.queue.pop(0)
        if self.queue:
            self.player = self.queue[0][0]
            self.phase = "five"
            return
        self._survival()
