"""What a player's ranch will hold and score at the end of this round: the search's leaf evaluation.

The rest of the round for one player (Phase 4: the fences in Holding, the layout of the herd;
Phase 5: feeding; Phase 6: breeding; the escapes with the carnivore penalty) is played out on a
scratch copy of the ranch by the engine's own rules (`Ranch.to_lay_out` and `Ranch.lay_out`,
`feeding.py`, `Ranch.breeding`), each choice made as hunter makes it (`heuristics.py`): a fence goes where
the enclosures hold the most of the herd, an enclosure goes to the kind that puts the most
points in it, food feeds the most points, the penalty takes the cheapest dinosaur. Steps the
player has already taken this round are not taken again. Nothing of the state changes.

The forecast reads the ranches, Holding, food and cards, which are public: for a player who
searches it uses nothing hidden, and on a determinization it uses only that sample.
"""

from __future__ import annotations

import functools
from typing import Any, NamedTuple

from tyrsim.games.tiny_epic_dinosaurs import feeding
from tyrsim.games.tiny_epic_dinosaurs.heuristics import enclosure_value, fed_points, ranch_quality
from tyrsim.games.tiny_epic_dinosaurs.ranch import Ranch, RanchBoard, enclosure_choices


class Forecast(NamedTuple):
    points: int  # the points the player would have after this round
    food: int  # leaves and meat left after feeding
    supply: int  # supply tokens
    pairs: int  # breeding groups on the ranch after this round's breeding (each breeds again next round)


def forecast(state: Any, seat: int) -> Forecast:
    """The end of this round for `seat`, played out on a scratch ranch (see the module)."""
    player = state.players[seat]
    dinosaurs = state.dinosaurs
    arrange, feed, breed = state.steps_left(seat)
    ranch = player.ranch.copy()
    escaped: set[str] = set()  # the kinds that escape (a unique dinosaur takes its card along)
    if arrange:
        if player.holding_fences:
            herd = ranch.to_lay_out(player.holding, state.game.unique_kinds).herd
            counts = tuple(sorted(herd.values(), reverse=True))
            bits = _fenced(ranch.board, ranch.fence_bits, player.holding_fences, counts, state.rules.breed_group)
            ranch.fences = [edge for edge in range(bits.bit_length()) if bits >> edge & 1]
        escaped.update(_lay_out(state, ranch, player.holding))
    leaf, meat, supply = player.resources
    if feed:
        herd = ranch.survey().herd
        need = state.food_needed(player, herd)
        if not feeding.fits(need, player.resources):
            # the plan feeding the most points (hunter's choice); the unfed escape
            diets = tuple(state.diet(player, kind) for kind, _ in herd)
            plans = feeding.feedings(herd, diets, tuple(player.resources), state.reads_most)
            fed = max(plans, key=lambda plan: fed_points(plan.fed, dinosaurs)).fed
            for kind, n in feeding.unfed(herd, fed).items():
                ranch.remove(kind, n)
                escaped.add(kind)
            need = state.food_needed(player, fed)
        leaf, meat = feeding.food_left(leaf, meat, need, state.rules.either_food)  # as the engine eats
    if not player.paid_carnivore and any(dinosaurs[kind].carnivore for kind in escaped):
        on_ranch = [kind for kind in ranch.cells if kind is not None]
        if on_ranch:  # the penalty takes the dinosaur worth the fewest points
            ranch.remove(min(on_ranch, key=lambda kind: (dinosaurs[kind].points, kind)))
    pairs = 0
    if breed:
        _breed(state, ranch)
    group = state.rules.breed_group
    for region in ranch.enclosures():
        kind, count = region.contents(ranch.cells)
        if kind is not None and not dinosaurs[kind].unique:
            pairs += count // group
    herd = ranch.herd()
    points = sum(contract.points for contract in player.contracts)
    points += sum(dinosaurs[kind].points * n for kind, n in herd.items())
    for card in player.research:
        if card.name in escaped:
            continue  # an escaped unique dinosaur's card is discarded with its ability
        if card.dinosaur is None:
            points += card.points
        if card.effect.type == "points_per":
            points += card.effect.amount * herd.get(card.effect.dinosaur, 0)
    return Forecast(points, max(leaf, 0) + max(meat, 0), supply, pairs)


@functools.lru_cache(maxsize=1 << 16)
def _fenced(board: RanchBoard, bits: int, fences: int, counts: tuple[int, ...], group: int) -> int:
    """The fence set (`fence_bits`) after `fences` fences from Holding, each put where the enclosures would hold
    the most of a herd of these `counts` (hunter's fence value with no breeding bonus). A search values the same
    ranch again and again, so the answers are remembered (the board's layout never changes)."""
    def quality(fenced: int) -> float:
        return ranch_quality(board.capacities(fenced), counts, group, 0.5)

    for _ in range(fences):
        free = board.free_slots(bits)
        if not free:
            break
        bits = max((bits | 1 << edge for edge in free), key=quality)
    return bits


def _lay_out(state: Any, ranch: Ranch, holding: list[str]) -> dict[str, int]:
    """Phase 4's layout of the ranch and Holding, the enclosures given out as hunter gives them (`_give_out`); the
    dinosaurs that escape, by kind."""
    herd, uniques = ranch.to_lay_out(holding, state.game.unique_kinds)
    enclosures = ranch.enclosures()
    return ranch.lay_out(enclosures, _give_out(state, enclosures, herd), herd, list(uniques))


def _breed(state: Any, ranch: Ranch) -> None:
    """Phase 6: the newborns (as many as the supply holds) into their kind's enclosures, then into the empty
    enclosures as hunter gives them out (`_give_out`); those without room are not counted."""
    born = {kind: min(n, state.supply[kind]) for kind, n in ranch.breeding(state.game.unique_kinds).items()}
    wanting, empty = ranch.newborns_at_home(born)
    ranch.house_newborns(empty, _give_out(state, empty, wanting), wanting)


def _give_out(state: Any, enclosures: tuple, wanting: dict[str, int]) -> dict[int, str]:
    """Each enclosure in turn to the kind that puts the most points into it (hunter's choice) among the engine's
    choices (`enclosure_choices`, those housing the most dinosaurs), while dinosaurs `wanting` room lack it."""
    dinosaurs = state.dinosaurs
    assignment: dict[int, str] = {}
    unplaced = dict(wanting)

    def value(choice: tuple[int, str]) -> float:
        index, kind = choice
        return enclosure_value(unplaced[kind], enclosures[index].capacity, dinosaurs[kind].points)

    while any(unplaced.values()) and len(assignment) < len(enclosures):
        index, kind = max(enclosure_choices(enclosures, assignment, unplaced, state.reads_most), key=value)
        assignment[index] = kind
        unplaced[kind] = max(0, unplaced[kind] - enclosures[index].capacity)
    return assignment
