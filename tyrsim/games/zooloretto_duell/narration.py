"""Plain words for the Zooloretto Duell play log: the decisions (`describe`) and what they cause.

`tyrsim play` asks the state's `describe(action)` for the action about to be taken; while
`state.narration` is a list the engine (`game.py`) appends the sentences made here for what the
action caused: symbols, interim scorings, the final round, round ends and the final scoring.
The functions read the state and never change it.
"""

from __future__ import annotations

from typing import Any

from tyrsim.core.report.words import a, count, listing
from tyrsim.games.zooloretto_duell.actions import Connect, DiscardDrawn, DisposeMinus, Donate, Steal, TakeTruck
from tyrsim.games.zooloretto_duell.cards import ANIMAL_SYMBOLS, FINAL_ROUND, SPECIES, STAND, STAND_SYMBOLS, Card

FINAL_ROUND_WHY = {
    "card": "a card was drawn after the final-round card turned up",
    "marker": "a scoring marker was taken after the final-round marker turned up",
    "pile": "the last card of the draw pile was drawn",
}
FINAL_CARD_ASIDE = ("the final-round card turns up and is put aside: "
                    "the round in which the next card is drawn is the last")
FINAL_MARKER_ASIDE = ("the final-round marker turns up and is put aside: "
                      "the round in which the next marker is taken is the last")


def card_words(card: Card) -> str:
    """A card in a play log: "gorilla", "tiger with heart", "bear offspring", "red pretzel stand"."""
    if card.species == STAND or card.species == FINAL_ROUND or card.offspring or not card.symbol:
        return repr(card)
    return f"{SPECIES[card.species]} with {ANIMAL_SYMBOLS[card.symbol]}"


def describe(state: Any, action: Any) -> str:
    """The current player's action in plain words (asked before it is applied)."""
    kind, p, rules = type(action), state.to_move, state.rules
    if kind is Connect:
        return f"connect the {card_words(action.card)} to truck {action.truck + 1}"
    if kind is TakeTruck:
        cards = ", ".join(card_words(c) for c in action.cards)
        return f"take truck {action.truck + 1} ({cards}) and quit the round"
    if kind is DiscardDrawn:
        return f"pay {count(rules.expert_discard_cost, 'coin')} to discard the drawn {card_words(action.card)}"
    if kind is Steal:
        return f"pay {count(rules.money_action_cost, 'coin')} to steal {a(card_words(action.card))} from P{1 - p}'s zoo"
    if kind is DisposeMinus:
        if not state.minus[p]:  # rule `dispose_without_minus`: a paid pass
            return f"pay {count(rules.money_action_cost, 'coin')} to dispose of minus points while holding none"
        return f"pay {count(rules.money_action_cost, 'coin')} to return all {state.minus[p]} minus points"
    if kind is Donate:
        return f"take the {card_words(action.card)} from the discard pile (the square's donation)"
    return repr(action)


def final_round(trigger: str) -> str:
    """The round became the final one; `trigger` is one of `FINAL_ROUND_WHY`."""
    return f"this is the final round ({FINAL_ROUND_WHY[trigger]})"


def third_symbol(p: int, card: Card) -> str:
    """The third card with the same symbol goes to the discard pile."""
    if card.species == STAND:
        return f"P{p}'s third {STAND_SYMBOLS[card.symbol]} stand goes to the discard pile: 1 minus point"
    return f"P{p}'s third {card_words(card)} goes to the discard pile: 1 minus point"


def stand_coin(p: int, card: Card) -> str:
    """The second vending stand with the same symbol."""
    return f"P{p}'s second {STAND_SYMBOLS[card.symbol]} stand: 1 coin"


def _second(p: int, card: Card, effect: str) -> str:
    """The second animal of a species with the same symbol, and what its symbol did."""
    return f"P{p}'s second {card_words(card)}: {effect}"


def lightning(p: int, card: Card) -> str:
    return _second(p, card, "1 minus point")


def offspring(p: int, card: Card, joins: bool) -> str:
    """A heart's offspring joins the zoo, or it is already gone."""
    species = SPECIES[card.species]
    return _second(p, card, f"the {species} offspring joins P{p}'s zoo" if joins
                   else f"the {species} offspring is already gone")


def square(p: int, card: Card) -> str:
    return _second(p, card, f"P{p} takes a card of their choice from the discard pile")


def square_wasted(p: int, card: Card, donated: bool, discard_empty: bool) -> str:
    """A square's symbol action that goes to waste, and why."""
    why = ("the card came by a square" if donated else "the discard pile is empty" if discard_empty
           else "only the turn's first square is carried out")
    return _second(p, card, f"the square goes to waste ({why})")


def vending_scoring(p: int) -> str:
    """The interim scoring of the vending stands."""
    return f"Interim scoring: P{p} is the first with stands of all four colours"


def target_tied(state: Any, s: int) -> str:
    """Species s's enclosures reach their target value with as many animals on each side."""
    mine, theirs = len(state.pens[0][s]), len(state.pens[1][s])
    return (f"the {SPECIES[s]} enclosures reach their target of {state.targets[s]} tied "
            f"{mine} to {theirs}: the scoring waits until one player has more")


def species_scoring(state: Any, s: int) -> str:
    """The interim scoring of species s."""
    mine, theirs = len(state.pens[0][s]), len(state.pens[1][s])
    return (f"Interim scoring of the {SPECIES[s]} enclosures (target {state.targets[s]}): "
            f"P{0 if mine > theirs else 1} has more, {max(mine, theirs)} to {min(mine, theirs)}")


def marker_taken(p: int, marker: Any) -> str:
    """Player p takes the top scoring marker."""
    coin = " and a coin" if marker.coin else ""
    return f"P{p} takes the top scoring marker: {count(marker.points, 'point')}{coin}"


def round_ends(state: Any) -> str:
    """The round ends, with the cards left on the trucks (before they go to the discard pile)."""
    left = [card_words(c) for truck in state.trucks for c in truck]
    return (f"Round {state.rounds}{' (the final round)' if state.final_round else ''} ends"
            + (f"; left on the trucks, to the discard pile: {', '.join(left)}" if left else ""))


def round_begins(state: Any) -> str:
    """The next round begins with the last player to take a truck."""
    return f"Round {state.rounds} begins with P{state.to_move}, the last to take a truck"


def final_scoring(state: Any) -> list[str]:
    """The final scoring: the enclosures side by side, then each player's parts and the winner."""
    pens = state.pens
    counts = ", ".join(f"{SPECIES[s]} {len(pens[0][s])}-{len(pens[1][s])}" for s in range(len(SPECIES)))
    lines = [f"Final scoring; animals per enclosure, P0-P1: {counts}; "
             f"stands {len(state.stands[0])}-{len(state.stands[1])}"]
    parts = [state.score_parts(p) for p in range(2)]
    for p, part in enumerate(parts):
        markers = ", ".join(str(m.points) for m in state.won[p])
        ahead = [SPECIES[s] for s in range(len(SPECIES)) if len(pens[p][s]) > len(pens[1 - p][s])]
        enclosures = f"the {listing(ahead)} enclosure{'s' if len(ahead) > 1 else ''}" if ahead else "no enclosure"
        items = [f"{part['marker_points']} from scoring markers ({markers})" if markers else "no scoring markers",
                 f"{part['majority_points']} for the most animals in {enclosures}",
                 f"{part['coin_points']} for {count(state.coins[p], 'coin')}",
                 f"minus {part['minus_points']} for minus points" if part["minus_points"] else "no minus points"]
        lines.append(f"P{p} scores {part['score']}: " + "; ".join(items))
    if parts[0]["score"] == parts[1]["score"]:
        won, coins = state.winners(), state.coins
        lines.append(f"P0 and P1 tie on {parts[0]['score']} points; " + (
            f"P{won[0]} wins with more coins ({coins[won[0]]} to {coins[1 - won[0]]})" if len(won) == 1
            else f"the coins tie too ({coins[0]} each): a shared victory"))
    return lines
