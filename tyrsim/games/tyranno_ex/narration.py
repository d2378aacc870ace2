"""Plain words for the Tyranno Ex play log: the decisions (`describe`) and what they cause.

`tyrsim play` asks the state's `describe(action)` for the action about to be taken; while
`state.narration` is a list the engine appends the sentences made here for what the action
caused (chips turned up, a fight's rolls and outcome, survival, shifting, each scoring, the end).
The functions read the state and never change it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from tyrsim.core.report.words import count, listing
from tyrsim.games.tyranno_ex.actions import (
    Challenge,
    ChooseSymbol,
    KeepFive,
    NoFight,
    Pass,
    PlaceCard,
    SetChips,
    Trade,
    UseFive,
)
from tyrsim.games.tyranno_ex.board import ROWS, TRACK, BoardCard, track_space
from tyrsim.games.tyranno_ex.cards import SYMBOLS
from tyrsim.games.tyranno_ex.combat import Fight, strength
from tyrsim.games.tyranno_ex.environment import NUM_SYMBOLS, OUTCOMES, Environment

SCORE_SOURCES = {"rows": "rows", "empty": "empty spaces", "special": "special spaces", "five": '"5" marker'}


def chips_text(counts: Sequence[int]) -> str:
    """Chips per symbol in words: "2 water, 1 leaf"; "no chips" when there are none."""
    return ", ".join(f"{n} {SYMBOLS[s]}" for s, n in enumerate(counts) if n) or "no chips"


def symbol_counts(symbols: Sequence[int]) -> list[int]:
    """Chips per symbol of a list of chips (symbols)."""
    counts = [0] * NUM_SYMBOLS
    for s in symbols:
        counts[s] += 1
    return counts


def laid_text(by_space: tuple[tuple[int, tuple[int, ...]], ...]) -> str:
    """Chips laid, space by space: "2 leaf on space 0 and 1 water on space 3"."""
    return listing([f"{chips_text(symbol_counts(symbols))} on space {space}" for space, symbols in by_space])


def where(state: Any, spot: int) -> str:
    """Where a spot is: "row 3" ("column 2, row 3" when a player runs two columns), "special space 13"."""
    if spot >= TRACK:
        return f"special space {state.rules.special_spaces[track_space(spot)]}"
    row = f"row {ROWS[spot % 4]}"
    return row if len(state.player_columns[0]) == 1 else f"column {spot // 4}, {row}"


def fighter_text(state: Any, spot: int) -> str:
    """A card about to fight: "row 3, strength 3, 2 dice"."""
    bc = state.spots[spot]
    return f"{where(state, spot)}, strength {strength(bc.die)}, {count(state.dice(bc.card), 'die', 'dice')}"


# --- the decisions ---


def _choose_symbol(state: Any, action: ChooseSymbol) -> str:
    tied = f" (tied: {listing([SYMBOLS[s] for s in state.tie[1]])})" if state.tie else ""
    return f"pick {SYMBOLS[action.symbol]} as the new current symbol of space {action.space}{tied}"


def _challenge(state: Any, action: Challenge) -> str:
    a, d = state.spots[action.attacker], state.spots[action.defender]
    return (f"{a.card.name} ({fighter_text(state, action.attacker)}) challenges "
            f"P{d.owner}'s {d.card.name} ({fighter_text(state, action.defender)})")  # fmt: skip


_DESCRIBE: dict[type, Callable[[Any, Any], str]] = {
    PlaceCard: lambda state, a: f"place {a.card.describe()} from pile {a.pile} in column {a.column}, row {a.row}",
    Trade: lambda state, a: f"trade {chips_text(symbol_counts(a.returned))} for as many chips from the bag",
    SetChips: lambda state, a: f"set {laid_text(a.by_space)}, face down",
    UseFive: lambda state, a: f'give up the "5" marker to set {laid_text(a.by_space)}, face down',
    KeepFive: lambda state, a: 'keep the "5" marker',
    ChooseSymbol: _choose_symbol,
    Pass: lambda state, a: "pass",
    Challenge: _challenge,
    NoFight: lambda state, a: "pick no fight",
}


def describe(state: Any, action: Any) -> str:
    """The current player's action in plain words (asked before it is applied)."""
    words = _DESCRIBE.get(type(action))
    return repr(action) if words is None else words(state, action)


# --- 1. placement ---


def placement(state: Any, pile: int, die: int | None) -> list[str]:
    """A card just placed: the die it came with and what its pile turns up (or that the pile is used up)."""
    lines = [] if die is None else [f"It comes with a strength die showing {die}."]
    if state.piles[pile]:
        return [*lines, f"Pile {pile} turns up {state.piles[pile][-1].describe()}."]
    empty = sum(1 for p in state.piles if not p)
    double = " (from now on the board shifts twice a round)" if empty == 1 and state.rules.double_shift else ""
    return [*lines, f"Pile {pile} is used up{double}."]


def no_marker_stone(state: Any, player: int, column: int) -> str:
    """A placement skipped: all the colour's marker stones mark cards on the board (ruling `marker_stones`)."""
    return (f"P{player} places no card in column {column}: all {state.rules.marker_stones} of its marker stones "
            "mark cards on the board.")


# --- 2. environmental change ---


def environment_begins(state: Any, placement_over: bool) -> list[str]:
    """Where Move and End stand as the phase begins, and the current conditions."""
    limit = state.limit
    if limit is None:
        until = "End is off the tracker, so placement goes on until everyone passes in a row"
    elif placement_over:
        until = f"End is on field {limit}: there is no placement round this time"
    else:
        until = f"placement rounds go on until Move reaches End on field {limit}"
    return [f"Environmental change: Move on field {state.move}; {until}.", conditions(state)]


def conditions(state: Any) -> str:
    """The current conditions: "Current conditions: space 0: 1 sun, space 1: 2 water, ..."."""
    env = state.env
    spaces = ", ".join(f"space {space}: {n} {SYMBOLS[s]}" if n else f"space {space}: empty"
                       for space, (s, n) in enumerate(zip(env.current, env.current_count, strict=True)))  # fmt: skip
    return f"Current conditions: {spaces}."


def change_text(env: Environment, space: int, symbol: int) -> str:
    """The words for `env.change(space, symbol, ...)`, said before it happens."""
    n, old = env.current_count[space], SYMBOLS[env.current[space]]
    k = env.potential[space][symbol]
    became = f"{k} {SYMBOLS[symbol]} become{'s' * (k == 1)} current"
    if not n:
        return f"{became} on the empty space"
    return f"{became} and the {n} {old} go{'es' if n == 1 else ''} back to the bag"


def space_outcome(
    env: Environment, outcome: str, space: int, changes: int, tied: list[int] | None, symbol: int | None
) -> str:
    """What `Environment.resolve` tells of a space whose face-down chips outnumber its current chips (said
    before the space changes): `outcome` is one of `environment.OUTCOMES`."""
    pot, n, current = env.potential[space], env.current_count[space], SYMBOLS[env.current[space]]
    again = " again (a rapid change)" if changes else ""
    shown = f"the {n} {current}" if n else "no current chips"
    said = f"Space {space}{again}: the {sum(pot)} face-down chips ({chips_text(pot)}) outnumber {shown}"
    tie = "" if tied is None else f"; {listing([SYMBOLS[s] for s in tied])} tie for the most"
    if outcome == "change":
        return f"{said}: {change_text(env, space, symbol)}."
    if outcome == "tie_drawn":
        return f"{said}{tie}, drawn at random: {change_text(env, space, symbol)}."
    if outcome == "tie_chooser":
        return f"{said}{tie}: the player who set the chips picks one."
    if outcome == "tie_empty":
        return f"{said}{tie}: no simple majority, so the space is left with no current chips."
    if outcome == "tie_no_change":
        return f"{said}{tie}: no simple majority, so the space stays as it is."
    if outcome == "tie_not_over_half":
        return f"{said}, but no symbol holds more than half of them: the space stays as it is."
    if outcome == "not_over_half":
        return f"{said}, but {SYMBOLS[symbol]} holds no more than half of them: the space stays as it is."
    raise ValueError(f"not an outcome of a space: {outcome!r}; the outcomes are {', '.join(OUTCOMES)}")


def move_advances(state: Any) -> str:
    return f"The turn is back with the start player: Move advances to field {state.move}."


def placement_over(state: Any) -> str:
    if state.limit is None:
        return "Everyone passed in a row: placement is over."
    return f"Move has reached End on field {state.limit}: placement is over."


def drawn(chips: list[int]) -> str:
    return f"Draws {chips_text(chips)}."


def symbol_chosen(state: Any, space: int, symbol: int) -> str:
    """The chooser's pick among tied symbols (said before the change is made)."""
    return f"Space {space}: {change_text(state.env, space, symbol)}."


def strength_die(bc: BoardCard, gain: str) -> str:
    """A card's die earned or raised by a change: `gain` is "earns a strength die showing" or "raises its
    strength die to"."""
    return f"{bc.card.describe()} has all its symbols among the current conditions and {gain} {bc.die}."


def five_holders(state: Any) -> str:
    """Who may use the "5" marker at the end of placement, in order."""
    holders = ", ".join(f"P{p}" for p, _ in state.queue)
    return f'The "5" marker: {holders} may give theirs up to set {state.rules.five_chips} more chips, in this order.'


# --- 3. survival ---


def survival_begins(present: int) -> str:
    symbols = ", ".join(SYMBOLS[s] for s in range(NUM_SYMBOLS) if present >> s & 1)
    return f"Survival: a card needs one of the current symbols ({symbols})."


def survival_loss(state: Any, spot: int) -> str:
    bc = state.spots[spot]
    return f"P{bc.owner}'s {bc.card.describe()} in {where(state, spot)} has none of them: eliminated."


EVERY_CARD_SURVIVES = "Every card survives."


# --- 4. combat ---


def combat_begins(state: Any) -> str:
    return (f"Combat: a card rolls one die per current chip of each of its symbols "
            f"({chips_text(state.env.chips_of())}).")  # fmt: skip


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
        said = (f"Roll {number}: {attacker} rolls {a_dice} ({count(roll.attacker_hits, 'hit')}), "
                f"{defender} {d_dice} ({count(roll.defender_hits, 'hit')})")  # fmt: skip
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


ENDLESS_FIGHT = "Every roll would be a tie, and ties don't count: the fight can never end, so nothing happens."


def outcome_text(
    win: BoardCard, lose: BoardCard, dice: tuple[int | None, int | None], fight: Fight, eliminated: bool
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


# --- 4. shifting ---


def round_ends(state: Any, shifts: int) -> str:
    twice = " twice (a pile has run out)" if shifts == 2 else ""
    return f"Round {state.round} ends. Every card moves up a row{twice}."


def tie_fight_begins(first: BoardCard, second: BoardCard) -> str:
    return (f"P{first.owner}'s {first.card.name} and P{second.owner}'s {second.card.name} leave row 9 together, "
            "equally strong: they fight for the order (the loser counts as weaker).")  # fmt: skip


def endless_tie_fight(winner: BoardCard) -> str:
    return f"The fight can never end, so chance decides: {winner.card.name} counts as the stronger."


def tie_fight_order(winner: BoardCard) -> str:
    return f"{winner.card.name} wins and counts as the stronger."


def track_moves(
    state: Any, entering: list[BoardCard], on_track: list[list[BoardCard]], spaces: list[list[BoardCard]]
) -> list[str]:
    """Where the cards leaving row 9 and those on the special spaces went in a shift."""
    values = state.rules.special_spaces
    now = {id(bc): i for i, cards in enumerate(spaces) for bc in cards}  # card -> its special space now
    lines = []
    for bc in entering:
        to = (f"onto special space {values[now[id(bc)]]}" if id(bc) in now
              else "past the special spaces, out of the game")  # fmt: skip
        lines.append(f"P{bc.owner}'s {bc.card.name} leaves row 9 {to}.")
    for i, cards in enumerate(on_track):
        for bc in cards:
            if id(bc) not in now:
                lines.append(f"P{bc.owner}'s {bc.card.name} leaves special space {values[i]}, out of the game.")
            elif now[id(bc)] != i:
                lines.append(f"P{bc.owner}'s {bc.card.name} moves on from special space {values[i]} "
                             f"to {values[now[id(bc)]]}.")  # fmt: skip
    return lines


# --- 5. scoring, the next round, the end ---


def scored_card(bc: BoardCard, spot: int, scored: int, row: int, extra: int) -> str:
    """One face-up card's points in a scoring: "Heron 4 (row 3 + 1 for empty spaces)"."""
    why = (f"special space {scored}" if spot >= TRACK
           else f"row {row} + {extra} for empty spaces" if extra else f"row {row}")  # fmt: skip
    return f"{bc.card.name} {scored} ({why})"


def face_down_card(bc: BoardCard) -> str:
    return f"{bc.card.name} 0 (face down; it turns face up)"


def scoring(state: Any, said: list[list[tuple[str, int]]]) -> list[str]:
    """Each player's cards and points in this scoring ((words, points) per card), and their total so far."""
    lines = []
    for player, (cards, total) in enumerate(zip(said, state.scores(), strict=True)):
        if cards:
            scored = sum(points for _, points in cards)
            words = ", ".join(text for text, _ in cards)
            lines.append(f"P{player} scores {scored} ({total:g} in all): {words}.")
        else:
            lines.append(f"P{player} has no card on the board and scores nothing ({total:g} in all).")
    return lines


def next_round(state: Any, two_cards: bool) -> str:
    r = state.rules
    end = f"End moves to field {state.end}" if 1 <= state.end <= r.track_fields else "End runs off the tracker"
    cards = "two cards each" if two_cards else "a card each"
    return (f"Round {state.round}: trays are topped up to {r.chips_per_player} chips; {end}; "
            f"P{state.start} starts. Placement: {cards}.")  # fmt: skip


def game_end(state: Any) -> list[str]:
    """Why the game ended, the unused "5" markers, each player's points by source and the winners."""
    empty = [c for c in state.used_columns if all(state.spots[c * 4 + r] is None for r in range(len(ROWS)))]
    columns = listing([str(c) for c in empty])
    lines = [f"The game ends: no card can be placed any more and column{'s' * (len(empty) > 1)} "
             f"{columns} {'have' if len(empty) > 1 else 'has'} no card in the grid."]  # fmt: skip
    rules = state.rules
    kept = [f"P{p}" for p in range(state.num_players) if rules.five_marker and state.five[p]]
    if kept and rules.five_points:
        lines.append(f'Unused "5" markers score {rules.five_points} each: {", ".join(kept)}.')
    for p, total in enumerate(state.scores()):
        parts = ", ".join(f"{name} {state.points[k][p]}" for k, name in SCORE_SOURCES.items())
        lines.append(f"P{p} ends with {total:g} points ({parts}).")
    winners = state.winners()
    lines.append(f"P{winners[0]} wins." if len(winners) == 1
                 else f"{listing([f'P{p}' for p in winners])} share the victory.")  # fmt: skip
    return lines
