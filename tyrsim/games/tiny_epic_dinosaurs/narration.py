"""Plain words for Tiny Epic Dinosaurs' play log: the decisions (`describe`), the things in a game and the
sentences for what follows a decision.

The engine (`game.py`) asks `describe(state, action)` for the action about to be taken and, while a
play log listens, appends the sentences these functions make to `state.narration`. A
space of the ranch is named by its row and column from the top left, counting from 0
("space 1,2"), as the data files name them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from tyrsim.core.report.words import a, count, listing
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


# --- what follows a decision: the engine's sentences, in the order of a round ---


def single_choice(seat: int, described: str) -> str:
    return f"P{seat} has a single choice: {described}."


def round_begins(round_: int, first_player: int) -> str:
    return f"Round {round_} begins; P{first_player} holds the first-player marker."


def collects(seat: int, income: Sequence[int], have: Sequence[int]) -> str:
    """Phase 1: what a player collects and then has."""
    return f"P{seat} collects {resources(income)} and has {resources(have)}."


def hunt(seat: int, face: str, dinosaur: str, caught: int, injured_rancher: str) -> str:
    """The hunt die's face and the catch; an injured group leaves its space or stays (rule `injured_rancher`)."""
    catch = f"P{seat} catches {herd([(dinosaur, caught)])}" if caught else "none is left to catch"
    hurt = ""
    if face == "injury":
        holds = "still holding" if injured_rancher == "stays" else "leaving"
        hurt = f"; the group is injured and goes to the hospital, {holds} the space"
    return f"The hunt die shows {HUNT_WORDS[face]}: {catch} into Holding{hurt}."


def fences_gained(seat: int, got: int, left: int) -> str:
    """A fence space gave another number of fences than it shows (research, or a short supply)."""
    return f"P{seat} gets {count(got, 'fence')} into Holding ({left} left in the supply)."


def contract_scored(seat: int, card: Contract) -> str:
    return f"P{seat} scores {contract(card)}; the dinosaurs go back to the supply."


def new_private_contract(seat: int, drawn: bool) -> str:
    new = "draws a new private contract" if drawn else "has no new private contract: the deck is empty"
    return f"P{seat} {new}."


def research_drawn(seat: int, cards: Sequence[ResearchCard]) -> str:
    return f"P{seat} draws {listing([card.name for card in cards])}."


def unique_joins(seat: int, name: str) -> str:
    return f"The unique {name} joins P{seat}'s Holding."


RANCHERS_RETURN = "Every rancher returns home; the players arrange their ranches, feed and breed."


def no_free_edge(seat: int, fences: int) -> str:
    return f"P{seat} has no free edge: {count(fences, 'fence')} from Holding go back to the supply."


def ranch_holds(seat: int, pairs: Iterable[tuple[str, int]]) -> str:
    """Phase 4: the ranch's layout."""
    return f"P{seat}'s ranch holds {herd(pairs)}."


def escape(seat: int, escaped: dict[str, int]) -> str:
    verb = "escapes" if sum(escaped.values()) == 1 else "escape"
    return f"{herd(escaped.items())} {verb} from P{seat}'s ranch."


def herd_eats(seat: int, eaten: Sequence[int], left: Sequence[int]) -> str:
    """Phase 5 with food enough: what the herd eats and what is left."""
    return f"P{seat}'s herd eats {resources(eaten)}; {resources(left)} left."


def breed(seat: int, kind: str, born: int, lost: int) -> str:
    """Phase 6: one kind's newborns, and how many of them found no room."""
    room = f", {lost} with no room" if lost else ""
    return f"P{seat}'s {kind} breed: {count(born, 'newborn')}{room}."


def round_ends(round_: int, final: bool, parts: Sequence[dict[str, int]], display: Sequence[ResearchCard]) -> list[str]:
    """Phase 7: each player's points by source (`parts`, by seat) so far, or the final scores; then, unless
    the game ends, the research cards face up for the next round."""
    head = f"Round {round_} ends{' and the game with it' if final else ''}"
    lines = [f"{head}; {'final scores' if final else 'points so far'}:"]
    for seat, by_source in enumerate(parts):
        points = ", ".join(f"{PART_WORDS[source]} {n}" for source, n in by_source.items())
        lines.append(f"  P{seat}: {count(sum(by_source.values()), 'point')} ({points}).")
    if not final:
        lines.append(f"Face-up research for the next round: {listing([card.name for card in display])}.")
    return lines
