"""Plain words for the Tyros play log: the decisions (`describe`) and what they cause.

`tyrsim play` asks the state's `describe(action)` for the action about to be taken; while
`state.narration` is a list the engine (`game.py`) appends the sentences made here for what the
action caused: a round's start, tolls, cards drawn, trades, Tyros joining an empire, first
cities, an empire's last chip, round ends and the final scoring. The functions read the state
and never change it.
"""

from __future__ import annotations

from typing import Any

from tyrsim.core.report.words import count, listing
from tyrsim.games.tyros.actions import Accept, Blocked, BuildCity, BuildShip, Keep, MoveShip, Refuse, TradeWith
from tyrsim.games.tyros.board import TYROS, Coast
from tyrsim.games.tyros.components import CARD_KINDS, COLOUR_NAMES, EMPIRES, Cards, card_names, colour_payment
from tyrsim.games.tyros.scoring import RANK_NAMES, size_ranks, space_name, winners


def coast_words(coast: Coast) -> str:
    """A coast in a play log: "Tyros", "22", "16 (west coast)"."""
    return space_name(coast.space) + (f" ({coast.name} coast)" if coast.name else "")


def describe(state: Any, action: Any) -> str:
    """The current player's action in plain words, with what it costs (asked before it is applied)."""
    kind, player = type(action), state.current_player()
    hand = state.hands[player] if player >= 0 else []
    if kind is Blocked:
        tiles = ", ".join(map(str, sorted(state.tile_hands[player])))
        return f"cannot play any tile (shows {tiles}): tile {action.tile} goes under the pile, a new one is drawn"
    if kind is MoveShip:
        return _ship_move(state, hand, action)
    if kind is BuildCity:
        counts = state.ships_at(action.space)
        cost = state.rules.city_cost_two_ships if counts[player] >= 2 else state.rules.city_cost
        paid = colour_payment(hand, state.chips[action.space], cost)
        return (f"build a city in {space_name(action.space)} ({COLOUR_NAMES[state.chips[action.space]]}), "
                f"paying {card_names(paid)}")
    if kind is BuildShip:
        paid = state.ship_payment(hand, action)
        return f"build a ship in {space_name(action.space)}, paying {card_names(tuple(sorted(paid)))}"
    if kind is Refuse:
        return f"refuse P{state.actor}'s offer"
    if kind is Accept:
        return f"accept P{state.actor}'s offer: give {card_names(state.offer.get)}, get {card_names(state.offer.give)}"
    if kind is TradeWith:
        accepted = listing([f"P{p}" for p in state.offer.accepted])
        return (f"trade with P{action.partner} ({accepted} accepted): give {card_names(state.offer.give)}, "
                f"get {card_names(state.offer.get)}")
    if kind is Keep:
        rest = tuple(k for k in range(CARD_KINDS) for _ in range(hand[k] - action.cards.count(k)))
        return f"keep {card_names(action.cards)}, discard {card_names(rest)}"
    return repr(action)


def _ship_move(state: Any, hand: list[int], action: MoveShip) -> str:
    """ "move a ship from Tyros to 23, paying green+green, and give P1 one violet card as toll"."""
    start, end = state.game.coast_ids[action.start], state.game.coast_ids[action.end]
    space = state.board.coasts[end].space
    paid = colour_payment(hand, state.chips[space], state.distances(start)[end])
    route = f"from {coast_words(state.board.coasts[start])} to {coast_words(state.board.coasts[end])}"
    toll = (f", and give P{state.cities[space]} one {COLOUR_NAMES[action.toll]} card as toll"
            if action.toll is not None else "")
    return f"move a ship {route}, paying {card_names(paid)}{toll}"


def round_begins(state: Any) -> str:
    """The round `state.round` begins: who starts, the cards dealt, the expansion passes."""
    dealt = "" if state.game.tiles_only else f", {state.rules.cards_dealt(state.n)} cards dealt to each player"
    passes = state.rules.expansion_passes(state.round, state.n)
    return (f"Round {state.round} begins: P{state.start_player} starts{dealt}, "
            f"{count(passes, 'expansion pass', 'expansion passes')}")


def toll(player: int, owner: int, card: int | None, space: int) -> str:
    """A ship ends its move in another player's city: the toll card chosen, or none for an empty hand."""
    paid = (f"pays P{owner} a toll of one {COLOUR_NAMES[card]} card" if card is not None
            else "has no card for a toll")
    return f"P{player} {paid} (P{owner}'s city in {space_name(space)})"


def first_in_all_empires(player: int, bonus: int) -> str:
    """Rule first_city_bonus = "all-four": the first player with a city in all four empires."""
    return f"P{player} is the first with a city in all four empires: {bonus} points at the end"


def first_city(player: int, empire: int, bonus: int | None) -> str:
    """The first city in an empire; `bonus` its points when rule first_city_bonus = "each-empire"."""
    points = f": {bonus} points at the end" if bonus is not None else ""
    return f"P{player} builds the first city in the {COLOUR_NAMES[empire]} empire{points}"


def cards_drawn(player: int, drawn: Cards) -> str:
    """The cards a swap with the bank drew."""
    return f"P{player} draws {card_names(drawn)}"


def trade(actor: int, partner: int, offer: Any) -> str:
    """A trade offer carried out with one partner."""
    return f"P{actor} trades with P{partner}: gives {card_names(offer.give)}, gets {card_names(offer.get)}"


def tile_played(state: Any, player: int, empire: int, tyros_before: int) -> list[str]:
    """What a tile caused: Tyros joining an empire (or changing empire, rule `tyros_chip`), the empire's last
    chip, the player's last tile."""
    said = []
    if tyros_before < 0 and state.chips[TYROS] >= 0:
        said.append(f"Tyros joins the {COLOUR_NAMES[state.chips[TYROS]]} empire")
    elif tyros_before != state.chips[TYROS]:
        said.append(f"Tyros leaves the {COLOUR_NAMES[tyros_before]} empire for the {COLOUR_NAMES[state.chips[TYROS]]}")
    if not state.chips_left(empire):
        said.append(f"the {COLOUR_NAMES[empire]} empire has placed its last chip")
    if not state.tile_hands[player]:
        said.append(f"P{player} has no tiles left: the game ends with this round")
    return said


def round_ends(state: Any, over: bool) -> list[str]:
    """The round's end with the empires' sizes; when the game is `over`, why, and the final scoring."""
    sizes = state.empire_sizes()
    said = [f"Round {state.round} ends; empires: " + ", ".join(f"{COLOUR_NAMES[e]} {sizes[e]}" for e in EMPIRES)
            + " spaces"]
    if not over:
        return said
    empty = [p for p in range(state.n) if not state.tile_hands[p]]
    why = (listing([f"P{p}" for p in empty]) + (" has" if len(empty) == 1 else " have") + " no tiles left"
           if empty else "no tile left can ever be played")
    return [*said, f"Game over: {why}", *final_scoring(state)]


def final_scoring(state: Any) -> list[str]:
    """The final scoring in the rulebook's order: ships removed, then each player's points and why,
    and a tie's break."""
    sizes = state.empire_sizes()
    ranks = size_ranks(sizes)
    order = sorted(EMPIRES, key=lambda e: ranks[e])
    said = ["Final scoring; empire sizes: " + ", ".join(
        f"{COLOUR_NAMES[e]} {sizes[e]} ({RANK_NAMES[ranks[e]]})" for e in order)]
    items: list[tuple[int, int, str]] = []
    scores = state.final_scores(items)
    said.extend(why for who, _, why in items if who < 0)
    for p, score in enumerate(scores):
        parts = [f"{points} for {why}" for who, points, why in items if who == p]
        said.append(f"P{p} scores {score.total}: " + ("; ".join(parts) or "nothing"))
    best = max(s.total for s in scores)
    tied = [p for p, s in enumerate(scores) if s.total == best]
    if len(tied) > 1:
        won = winners(scores)
        largest = COLOUR_NAMES[order[0]]
        names = listing([f"P{p}" for p in tied])
        if len(won) == 1:
            said.append(f"{names} tie on {best} points; P{won[0]} wins with the most points in the "
                        f"largest empire, {largest} ({scores[won[0]].largest_empire_points})")
        else:
            said.append(f"{names} tie on {best} points and on points in the largest empire, "
                        f"{largest}: a shared victory")
    return said
