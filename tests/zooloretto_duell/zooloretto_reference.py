"""Zooloretto Duell's legal actions straight from the rulebook's words: a slow reference for the engine.

Test code, written from the rulebook (quoted beside each step) and, where the
rulebook is silent, from the rulings in docs/zooloretto_duell.md, with no caches
and no shortcuts: every truck, every card, every order of a truck's cards. It
reads the position from the engine's state fields. The engine may merge actions
whose outcomes are the same (interchangeable cards, empty trucks of one size);
`outcome` names what an action does, so the two lists can be compared as sets
of outcomes.
"""

from __future__ import annotations

from itertools import permutations

from tyrsim.games.zooloretto_duell.actions import (
    Connect,
    DiscardDrawn,
    DisposeMinus,
    Donate,
    Draw,
    QuitEmptyHanded,
    Steal,
    TakeTruck,
)
from tyrsim.games.zooloretto_duell.cards import STAND, Card
from tyrsim.games.zooloretto_duell.game import DONATION, OVER, PLACE, ZooState


def legal_actions(state: ZooState) -> list:
    """Every action the rulebook allows the player to move, one per truck, card and order."""
    if state.phase == OVER:
        return []
    rules, p = state.rules, state.to_move
    # "Take any transport truck ... and put it in front of you": until the round ends it is not in the middle
    middle = [t for t in range(len(state.trucks)) if t not in state.taken]
    has_room = [t for t in middle if len(state.trucks[t]) < rules.truck_places[t]]
    if state.phase == PLACE:
        # A. "connect it face up to a transport truck that has at least one unoccupied place"
        actions: list = [Connect(state.drawn, t) for t in has_room]
        # expert: "you may - for 1 coin - put it directly on the discard pile"; "This is not allowed in the
        # final round." (ruling: the card drawn after the final-round card already is in the final round)
        if rules.expert and not state.final_round and state.coins[p] >= rules.expert_discard_cost:
            actions.append(DiscardDrawn(state.drawn))
        return actions
    if state.phase == DONATION:
        # square: "select an animal card or vending stand card of your choice from the discard pile"
        return [Donate(card) for card in state.discard if card.species >= STAND]
    actions = []
    # A. "Pick the top card from the draw pile"; "If all transport trucks are occupied, you cannot choose this action"
    if state.pile and has_room:
        actions.append(Draw())
    # B. "You may take only a truck that has at least one card"; "You may play these cards in any order."
    for t in middle:
        if not state.trucks[t]:
            continue
        for order in dict.fromkeys(permutations(state.trucks[t])):
            actions.append(TakeTruck(t, order))
    # ruling: with nothing to draw and no truck to take, the player quits the round empty-handed
    if not actions:
        actions.append(QuitEmptyHanded())
    # C. "Pay 2 coins"; "If you have less than 2 coins before your action, you cannot choose this action."
    if state.coins[p] >= rules.money_action_cost:
        # I. "Take any animal card from your opponent's side"; "You may not take a vending stand card!"
        actions += [Steal(card) for pen in state.pens[1 - p] for card in pen]
        # II. "Put all your point markers that are lying with their minus point side facing up back"
        # (ruling, rule `dispose_without_minus`: the 2 coins are its only precondition, so a player holding no
        # minus point may pay to return none; false: only a player holding one can choose it)
        if state.minus[p] or rules.dispose_without_minus:
            actions.append(DisposeMinus())
    return actions


def face(card: Card) -> tuple:
    """What a card is in play: species, symbol, colour. An offspring "counts as a normal animal card of this
    species", so it plays like an animal without a symbol."""
    return (card.species, 0 if card.offspring else card.symbol, card.colour)


def outcome(state: ZooState, action) -> tuple:
    """What `action` does in `state`: two actions with the same outcome lead to the same position, up to
    which physical card of a kind moved and which of two alike trucks holds a card."""
    kind = type(action).__name__
    if isinstance(action, Connect):
        truck = state.trucks[action.truck]
        return (kind, face(action.card), state.rules.truck_places[action.truck], tuple(map(face, truck)))
    if isinstance(action, TakeTruck):
        return (kind, action.truck, tuple(map(face, action.cards)))
    if isinstance(action, Steal | Donate | DiscardDrawn):
        return (kind, face(action.card))
    return (kind,)
