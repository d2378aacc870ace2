"""Tyranno Ex legal actions straight from the rulebook's words: a slow reference for the engine's `legal_actions()`.

Test code written from the rulebook (quoted at each step), not from the engine:
no caches, no shortcuts, every option enumerated afresh. It reads the position
from the engine's state fields (the phase, whose turn it is, the board, the
piles, the chips) and builds the engine's action objects, so the two lists can
be compared as sets. Rule parameters are read where the rulebook's numbers or
a ruling decide (`Rules` holds the rulebook's numbers as defaults).
"""

from __future__ import annotations

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

ROWS = (0, 3, 6, 9)
GRID = 16  # 4 colour columns x 4 rows; the special spaces come after
SYMBOLS = 4
SPACES = 4


def own_columns(player: int, players: int, two_player_columns: int) -> list[int]:
    """"The 4 colored triangles on the game board show each player which color column belongs to them."

    Three players: "one color column of the board is left unused" (the last one here). Two players: "each of
    the two players runs 2 of the board's color columns ... one 'outer' and one 'inner'" (player 0 the outer
    column 0 and inner column 2, player 1 the outer column 3 and inner column 1); the `two_player_columns = 1`
    ruling gives each one column of their own instead.
    """
    if players == 2 and two_player_columns == 2:
        return [0, 2] if player == 0 else [3, 1]
    return [player]


def chip_multisets(hand: list[int], most: int) -> list[tuple[tuple[int, int], ...]]:
    """Every way to lay 1 to `most` chips from `hand` (chips per symbol) onto the 4 spaces, as sorted
    (symbol, space) pairs: "They may split the 2 chips between two different spaces if they wish."
    """
    out = []

    def extend(chosen: list[tuple[int, int]], left: list[int]) -> None:
        if chosen:
            out.append(tuple(chosen))
        if len(chosen) == most:
            return
        for symbol in range(SYMBOLS):
            for space in range(SPACES):
                if chosen and (symbol, space) < chosen[-1]:
                    continue  # each multiset once: pairs in non-decreasing order
                if left[symbol] == 0:
                    continue
                left[symbol] -= 1
                extend([*chosen, (symbol, space)], left)
                left[symbol] += 1

    extend([], list(hand))
    return out


def symbol_multisets(hand: list[int], most: int) -> list[tuple[int, ...]]:
    """Every multiset of 1 to `most` of the hand's chips (symbols, sorted)."""
    out = []

    def extend(chosen: list[int], left: list[int]) -> None:
        if chosen:
            out.append(tuple(chosen))
        if len(chosen) == most:
            return
        for symbol in range(chosen[-1] if chosen else 0, SYMBOLS):
            if left[symbol]:
                left[symbol] -= 1
                extend([*chosen, symbol], left)
                left[symbol] += 1

    extend([], list(hand))
    return out


def place_actions(state) -> list:
    """"The player whose turn it is chooses one of the face-up animal cards and places it on the bottom space
    of their own color column." First round: "every player places a second animal card as well. It goes in
    the space directly above their first card." After a double shift: "the bottom two rows (row 0 and row 3)
    are both empty ... each player now places 2 new animal cards ... Which row a player fills first is up to
    them." The engine asks for one column at a time (with 2 columns, outer first): it must be the player's.
    The card is marked "with one of their marker stones" (5 in each colour, `marker_stones`): a colour whose
    stones all mark cards on the board has none to place.
    """
    player, rules = state.player, state.rules
    column = state.queue[0][1]
    if column not in own_columns(player, state.num_players, rules.two_player_columns):
        return []
    marked = sum(1 for bc in state.spots if bc is not None and bc.column == column)
    if rules.marker_stones and marked >= rules.marker_stones:
        return []
    empty = [r for r in (0, 1) if state.spots[column * 4 + r] is None]
    if state.round == 1:
        rows = empty[:1]  # row 0, then directly above it
    elif state.double_last:
        rows = empty  # either of the two empty bottom rows
    else:
        rows = [0] if 0 in empty else []
    face_up = [(i, pile[-1]) for i, pile in enumerate(state.piles) if pile]  # "the top card is turned face up"
    return [PlaceCard(i, column, ROWS[r], card) for i, card in face_up for r in rows]


def environment_actions(state) -> list:
    """"The player whose turn it is has two options: trade chips, set chips. If they want neither, they may
    pass." Trading: "up to 3 of their chips for new ones (only during the first 3 placement rounds) ... they
    draw the corresponding number of chips from the bag" (so no more than the bag holds). Setting: "up to 2
    of their chips, face down, onto the environment card's 4 'potential living conditions' spaces." The
    `five_timing = "own_turn"` ruling lets the player give up the "5" marker on their turn (see `five_chips`).
    """
    player, rules = state.player, state.rules
    hand = state.hands[player]
    actions: list = [Pass()]
    if state.move <= rules.trade_rounds:
        most = min(rules.trade_limit, state.bag.total())
        actions += [Trade(returned) for returned in symbol_multisets(hand, most)]
    actions += [SetChips(chips) for chips in chip_multisets(hand, rules.set_limit)]
    if rules.five_marker and rules.five_timing == "own_turn" and state.five[player]:
        actions += [UseFive(chips) for chips in five_chips(hand, rules)]
    return actions


def five_chips(hand: list[int], rules) -> list[tuple[tuple[int, int], ...]]:
    """"each player may place 2 additional chips onto the environment card": exactly 2 (`five_count =
    "exact"`; the rulebook says "up to" for trading and setting, not here), or 1 or 2 (`"up_to"`)."""
    options = chip_multisets(hand, rules.five_chips)
    if rules.five_count == "exact":
        return [chips for chips in options if len(chips) == rules.five_chips]
    return options


def tie_actions(state) -> list:
    """"whichever symbol has a simple majority among them becomes the new current living condition": a tie
    for the most face-down chips has none; the `majority_tie = "chooser"` ruling lets the player who set the
    chips pick among the tied symbols, while the space's face-down chips outnumber its current ones. Under
    the `majority = "over_half"` ruling a "simple majority" is more than half of the chips, which no tied
    symbol has, so nobody chooses."""
    space = state.tie[0]
    potential = state.env.potential[space]
    rules = state.rules
    if rules.majority == "over_half" or rules.majority_tie != "chooser":
        return []
    if sum(potential) <= state.env.current_count[space]:
        return []
    top = max(potential)
    tied = [s for s in range(SYMBOLS) if potential[s] == top]
    return [ChooseSymbol(space, s) for s in tied] if len(tied) > 1 else []


def five_actions(state) -> list:
    """"Once per game, each player may place 2 additional chips onto the environment card. To do this, they
    must give up their wooden '5' marker." At the end of placement (`five_timing = "phase_end"`), a player
    holding the marker keeps it or uses it, if they hold the chips to place."""
    player, rules = state.player, state.rules
    if not (rules.five_marker and state.five[player]):
        return []
    uses = [UseFive(chips) for chips in five_chips(state.hands[player], rules)]
    return [KeepFive(), *uses] if uses else []


def battles(state) -> list[tuple[int, int]]:
    """The round's battles in order, as (player, colour column; -1 for any of the player's cards).

    "Each player may pick one fight" (`fights_per_player`), in turn: from the start player (`first_fighter =
    "start_player"`; the rulebook names no order) or from the player left of them, "closer to becoming the
    next start player" (`"next_start_player"`). Two players on two columns: "each player fights 2 battles, one
    per color they control. They start with their 'outer' color group, then follow with the battle for their
    'inner' color group": all the outer battles, then all the inner ones (`two_player_battles = "colours"`),
    or each player's two in a row (`"players"`).
    """
    rules, players = state.rules, state.num_players
    first = state.start if rules.first_fighter == "start_player" else state.start + 1
    seats = [(first + i) % players for i in range(players)]
    out = []
    for _ in range(rules.fights_per_player):
        if players == 2 and rules.two_player_columns == 2:
            if rules.two_player_battles == "colours":
                out += [(p, own_columns(p, players, 2)[colour]) for colour in (0, 1) for p in seats]
            else:
                out += [(p, own_columns(p, players, 2)[colour]) for p in seats for colour in (0, 1)]
        else:
            out += [(p, -1) for p in seats]
    return out


def combat_actions(state) -> list:
    """"Each player may pick one fight. They choose one of their own animal cards to fight with, then
    challenge the card of any other player." Two players: "each player fights 2 battles, one per color they
    control", so the card fights for its colour. The battle to fight is the next of `battles` after those the
    engine has had (its queue must be the rest of them, in order). Rulings: cards on the special spaces fight
    (`track_cards_fight`), and so do face-down cards (`face_down_can_fight`).
    """
    player, rules = state.player, state.rules
    order = battles(state)
    done = len(order) - len(state.queue)
    if done < 0 or order[done:] != state.queue or order[done][0] != player:
        return []
    battle = order[done][1]
    cards = []
    for spot, bc in enumerate(state.spots):
        if bc is None:
            continue
        if spot >= GRID and not rules.track_cards_fight:
            continue
        if bc.face_down and not rules.face_down_can_fight:
            continue
        cards.append((spot, bc))
    mine = [spot for spot, bc in cards if bc.owner == player and (battle < 0 or bc.column == battle)]
    theirs = [spot for spot, bc in cards if bc.owner != player]
    challenges = [Challenge(a, d) for a in mine for d in theirs]
    return [NoFight(), *challenges] if challenges else []


def legal_actions(state) -> list:
    """The current player's actions by the rulebook, for the phase the state is in."""
    if state.is_terminal():
        return []
    phase = state.phase
    if phase == "place":
        return place_actions(state)
    if phase == "environment":
        return environment_actions(state)
    if phase == "tie":
        return tie_actions(state)
    if phase == "five":
        return five_actions(state)
    if phase == "combat":
        return combat_actions(state)
    return []
