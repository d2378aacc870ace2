"""Plain words for Tiny Epic Dinosaurs' play log: the decisions (`describe`) and the things in a game.

The engine (`game.py`) asks `describe(state, action)` for the action about to be taken and
appends sentences made with these words to `state.narration` while a play log listens. A
space of the ranch is named by its row and column from the top left, counting from 0
("space 1,2"), as the data files name them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from tyrsim.core.words import listing
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
from tyrsim.games.tiny_epic_dinosaurs.components import RESOURCES, Contract, ResearchCard
from tyrsim.games.tiny_epic_dinosaurs.prompts import DrawnResearch

SIDE_WORDS = {"N": "north", "E": "east", "S": "south", "W": "west"}
PART_WORDS = {"contracts": "contracts", "dinosaurs": "dinosaurs", "unique": "unique dinosaurs", "research": "research"}
HUNT_WORDS = {"net": "a net", "injury": "an injury", "egg": "an egg"}


def count(n: int, thing: str, things: str | None = None) -> str:
    """ "1 fence", "2 fences" (`things` for an irregular plural)."""
    return f"{n} {thing if n == 1 else things or thing + 's'}"


def a(name: str) -> str:
    """ "a raptor", "an allosaurus"."""
    return f"{'an' if name[:1].lower() in 'aeiou' else 'a'} {name}"


def herd(pairs: Iterable[tuple[str, int]]) -> str:
    """Dinosaurs by kind: "2 raptor and 1 stegosaurus" (kind names as the data files write them)."""
    return listing([f"{n} {kind}" for kind, n in pairs if n])


def resources(amounts: Sequence[int]) -> str:
    """ "2 leaf and 1 supply" ("nothing" when all are 0)."""
    return listing([f"{n} {name}" for name, n in zip(RESOURCES, amounts, strict=True) if n])


def edge(name: str) -> str:
    """An edge of the ranch: "0,1|1,1" -> "the edge between spaces 0,1 and 1,1", "0,4|N" -> "the north side
    of space 0,4"."""
    space, other = name.split("|")
    if other in SIDE_WORDS:
        return f"the {SIDE_WORDS[other]} side of space {space}"
    return f"the edge between spaces {space} and {other}"


def contract(card: Contract) -> str:
    """ "contract C20 (2 raptor and 1 stegosaurus for 5 points)"."""
    return f"contract {card.name} ({herd(card.dinosaurs)} for {count(card.points, 'point')})"


def research(card: ResearchCard) -> str:
    """A research card with its points and ability: "Predator Studies (1 point; each raptor eats 1 food less)"."""
    effect = card.effect
    ability = {
        "income": f"{effect.amount} more {effect.resource} each round",
        "cheaper": f"{effect.action.replace('_', ' ')} spaces cost {effect.amount} {effect.resource} less",
        "points_per": f"{count(effect.amount, 'point')} per {effect.dinosaur} at the end",
        "feed_less": f"each {effect.dinosaur} eats {effect.amount} food less",
        "extra_fences": f"{count(effect.amount, 'more fence', 'more fences')} from a fence space",
    }.get(effect.type, "")
    if card.dinosaur is not None:
        d = card.dinosaur
        eats = resources((d.leaf, d.meat, 0)) if d.leaf or d.meat else ""
        eats = listing([x for x in (eats, f"{d.either} leaf or meat" if d.either else "") if x]) or "nothing"
        about = [f"a unique {d.group} eating {eats}, worth {count(card.points, 'point')} on the ranch"]
    else:
        about = [count(card.points, "point")]
    return f"{card.name} ({'; '.join([*about, ability] if ability else about)})"


def group(ranchers: int, owner: bool) -> str:
    """Who goes to a space: "1 rancher", "the owner", "the owner and 2 ranchers"."""
    return listing((["the owner"] if owner else []) + ([count(ranchers, "rancher")] if ranchers else []))


def describe(state: Any, action: Any) -> str:
    """The current player's `action` in plain words (imperative: "send 1 rancher to A2 to hunt a raptor")."""
    kind = type(action)
    if kind is Place:
        return _place(state, action)
    if kind is PickResearch:
        if isinstance(state.prompt, DrawnResearch):
            card = next(c for c in state.prompt.drawn if c.name == action.card)
            return f"keep {research(card)}; the other cards drawn go face up"
        if action.card == "draw":
            return f"draw {count(state.rules.research_draw, 'research card')} from the deck and keep one"
        card = next(c for c in state.research_display if c.name == action.card)
        return f"take the face-up research card {research(card)}"
    if kind is MoveFence:
        if action.source == "holding":
            return f"put a fence from Holding on {edge(action.target)}"
        return f"move the fence on {edge(action.source)} to {edge(action.target)}"
    if kind is StopRearranging:
        return "leave the fences where they are"
    if kind is PlaceFence:
        return f"put a fence from Holding on {edge(action.edge)}"
    if kind is Enclose:
        return f"give the {action.size}-space enclosure at space {action.enclosure} to the {action.kind}"
    if kind is Feed:
        fed = dict(action.fed)
        hungry = [(k, n - fed.get(k, 0)) for k, n in state.prompt.herd if n > fed.get(k, 0)]
        return f"feed {herd(action.fed) if action.fed else 'no dinosaur'} and leave {herd(hungry)} hungry"
    if kind is EscapeAs:
        cost = "a fence" if action.group == "herbivore" else "a dinosaur"
        return f"count the escaped omnivores as {action.group}s (the penalty costs {cost})"
    if kind is LoseFence:
        return f"give up the fence on {edge(action.edge)} (the penalty for escaped herbivores)"
    if kind is LoseDinosaur:
        return f"give up {a(action.kind)} from the ranch (the penalty for escaped carnivores)"
    return str(action)


def _place(state: Any, action: Place) -> str:
    space = state.game.space_by_id[action.space]
    player = state.players[state.prompt.player]
    kind = action.action
    if kind == "hunt":
        what = f"hunt {a(space.dinosaur)}"
    elif kind == "buy":
        what = f"buy {a(action.choice)}"
    elif kind == "place_now":
        what = f"put the {action.choice} from Holding on the ranch at once, then perhaps move fences"
    elif kind == "gain":
        got = [count(space.fences, "fence")] if space.fences else []
        what = "take " + listing(got + [f"{n} {r}" for r, n in zip(RESOURCES, space.gain, strict=True) if n])
    elif kind == "first_player":
        what = "take the first-player marker, then perhaps move fences"
    elif kind == "research":
        what = "take a research card"
    elif kind == "research_remove":
        what = f"return {a(action.choice)} from the ranch and take a research card"
    else:  # contract
        public = next(c for c in state.public_contracts if c.name == action.choice)
        what = f"fulfil the public {contract(public)}"
        if action.extra == "private":
            what += f" and the private {contract(player.private)}"
    text = f"send {group(action.ranchers, action.owner)} to {space.id} to {what}"
    paid = player.cost(space)
    if any(paid):
        text += f", paying {resources(paid)}"
    occupied = state.occupancy[space.id]
    if occupied:
        strongest = max(occupied.values())
        text += f" (outbidding {listing([f'P{seat}' for seat, n in occupied.items() if n == strongest])})"
    return text
