"""A slow reference for Tiny Epic Dinosaurs' legal actions, written from the rulebook's words.

Test code, not engine code: it reads the position from the engine's state fields (the prompt,
the players, the supply, the occupancy of the action spaces) but works out every option
afresh from the rulebook and the documented rulings (docs/tiny_epic_dinosaurs.md), with no
memo and no shortcut: the ranch's enclosures by its own flood fill, the placements from the
rancher rule space by space, the feeding plans by trying every count. Each function quotes the
sentence it follows. `legal_actions(state)` is compared with `state.legal_actions()`.
"""

from __future__ import annotations

from itertools import product

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
from tyrsim.games.tiny_epic_dinosaurs.components import RESOURCES

SIDES = {"N": (-1, 0), "E": (0, 1), "S": (1, 0), "W": (0, -1)}


def legal_actions(state) -> list:
    """Every legal action at the state's prompt (none when the game is over)."""
    if state.prompt is None:
        return []
    return REFERENCE[state.prompt.kind](state, *state.prompt)


# --- the ranch, from "Enclosures" ----------------------------------------------------------------


def edges(layout, border: str) -> dict[str, tuple]:
    """Every edge of a grass space where a fence could matter, by the engine's name ("r,c|r,c" with the
    smaller space first, or "r,c|N" for a side on the board's edge): name -> (space, other space or None)."""
    found = {}
    for cell, terrain in enumerate(layout.terrain):
        if terrain != "grass":
            continue
        r, c = divmod(cell, layout.cols)
        for side, (dr, dc) in SIDES.items():
            rr, cc = r + dr, c + dc
            if 0 <= rr < layout.rows and 0 <= cc < layout.cols:
                other = rr * layout.cols + cc
                if layout.terrain[other] == "grass" and other > cell:
                    found[f"{r},{c}|{rr},{cc}"] = (cell, other)
            else:
                found[f"{r},{c}|{side}"] = (cell, None)
    return found


def fence_spots(state, ranch) -> list[str]:
    """Edges where a fence token may stand now: between two grass spaces, or (with the board's edge open,
    rule `border`) on a grass space's outer side; not on the pre-printed fence nor on another token."""
    layout = ranch.layout
    printed = {layout.edge_names[e] for e in layout.permanent}
    taken = {layout.edge_names[e] for e in ranch.fences}
    spots = []
    for name, (_, other) in edges(layout, state.rules.border).items():
        if other is None and state.rules.border != "open":
            continue  # the edge already bounds like a fence: a token there does nothing
        if name not in printed and name not in taken:
            spots.append(name)
    return spots


def enclosures(state, ranch) -> list[tuple[int, ...]]:
    """"An enclosure is any area of grass that is fully surrounded on all sides by some combination of
    fences, mountains, and water": the grass areas (spaces joined where no fence stands between them)
    whose every side is a fence, a mountain or water (or the board's edge under `border = "fence"`)."""
    layout = ranch.layout
    fenced = {layout.edge_names[e] for e in layout.permanent | ranch.fences}
    sides = edges(layout, state.rules.border)
    joined = {cell: [] for cell, t in enumerate(layout.terrain) if t == "grass"}
    for name, (a, b) in sides.items():
        if b is not None and name not in fenced:
            joined[a].append(b)
            joined[b].append(a)
    seen, found = set(), []
    for start in joined:
        if start in seen:
            continue
        area, stack = [], [start]
        seen.add(start)
        while stack:
            cell = stack.pop()
            area.append(cell)
            for other in joined[cell]:
                if other not in seen:
                    seen.add(other)
                    stack.append(other)
        closed = all(
            name in fenced or state.rules.border == "fence"
            for name, (a, b) in sides.items()
            if b is None and a in area
        )
        if closed:
            found.append(tuple(sorted(area)))
    return found


def cell_name(layout, cell: int) -> str:
    return f"{cell // layout.cols},{cell % layout.cols}"


# --- Phase 2: "Assign Ranchers" and "Central Board Action Spaces" ----------------------------------


def cost(player, space) -> tuple[int, ...]:
    """The space's cost after the player's research cards that make its action cheaper."""
    paid = list(space.cost)
    for card in player.research:
        effect = card.effect
        if effect.type == "cheaper" and effect.action == space.action:
            i = RESOURCES.index(effect.resource)
            paid[i] = max(0, paid[i] - effect.amount)
    return tuple(paid)


def groups(state, seat: int, occupied: dict[int, int]) -> list[tuple[int, bool]]:
    """(ranchers, owner) groups the player may send: "If the chosen action space is empty, the player may
    place a rancher or their ranch owner there. If there is already a rancher in that space, the player
    must place 1 more rancher than the player with the most ranchers currently in that space", the owner
    counting two (`owner_strength`)."""
    player = state.players[seat]
    strength = state.rules.owner_strength
    need = max(occupied.values()) + 1 if occupied else 1
    found = []
    if player.ranchers_left >= need:
        found.append((need, False))
    with_owner = max(0, need - strength)
    if player.owner_left and player.ranchers_left >= with_owner:
        found.append((with_owner, True))
    return found


def research_left(state) -> bool:
    return bool(state.research_display or state.research_deck or state.research_discard)


def on_ranch(player) -> dict[str, int]:
    herd: dict[str, int] = {}
    for kind in player.ranch.cells:
        if kind is not None:
            herd[kind] = herd.get(kind, 0) + 1
    return herd


def holds(herd: dict[str, int], wanted) -> bool:
    return all(herd.get(kind, 0) >= n for kind, n in wanted)


def ways(state, seat: int, space) -> list[tuple[str, str]]:
    """The (choice, extra) ways to carry out the space's action: "You cannot place your rancher on a space
    that requires a payment you cannot make", and the action must be carried out."""
    player = state.players[seat]
    dinosaurs = state.dinosaurs
    if space.action == "hunt":
        return [(space.dinosaur, "")] if state.supply[space.dinosaur] > 0 else []
    if space.action == "buy":
        return [
            (kind, "")
            for kind in state.basic
            if state.supply[kind] > 0 and space.kinds in ("any", dinosaurs[kind].group)
        ]
    if space.action == "place_now":
        # "instantly place a dinosaur on your ranch": one from Holding, on a free space where it may stand
        free = [c for c, k in enumerate(player.ranch.cells) if k is None]
        grass = [c for c in free if player.ranch.layout.terrain[c] == "grass"]
        anywhere = state.rules.unique_terrain == "any"
        found = []
        for kind in dict.fromkeys(player.holding):
            if grass or (dinosaurs[kind].unique and anywhere and free):
                found.append((kind, ""))
        return found
    if space.action == "gain":
        if space.fences and not any(space.gain) and state.fence_supply == 0:
            return []  # nothing to get
        return [(space.gains(), "")]
    if space.action == "first_player":
        return [("", "")]
    if space.action == "research":
        return [("", "")] if research_left(state) else []
    if space.action == "research_remove":
        # "Remove any dinosaur from your ranch to take a research card"
        return [(kind, "") for kind in on_ranch(player)] if research_left(state) else []
    if space.action == "contract":
        # "You must give up the dinosaurs indicated on the card ... the dinosaurs must be on your ranch";
        # "Dinosaurs used to complete a public contract cannot also be used to fulfill your private contract"
        herd = on_ranch(player)
        found = []
        for contract in state.public_contracts:
            if not holds(herd, contract.dinosaurs):
                continue
            found.append((contract.name, ""))
            left = dict(herd)
            for kind, n in contract.dinosaurs:
                left[kind] -= n
            if player.private is not None and holds(left, player.private.dinosaurs):
                found.append((contract.name, "private"))
        return found
    raise AssertionError(f"unknown action {space.action}")


def assign(state, seat: int) -> list[Place]:
    player = state.players[seat]
    found = []
    for space in state.game.spaces:
        occupied = state.occupancy[space.id]
        if seat in occupied:
            continue  # "You cannot place a rancher on a space that already has one of your own ranchers on it."
        paid = cost(player, space)
        if any(p > have for p, have in zip(paid, player.resources, strict=True)):
            continue
        for choice, extra in ways(state, seat, space):
            for ranchers, owner in groups(state, seat, occupied):
                found.append(Place(space.id, space.action, ranchers, owner, choice, extra))
    return found


# --- research cards ------------------------------------------------------------------------------


def take_research(state, seat: int) -> list[PickResearch]:
    """"choose one of the face-up cards, or draw 3 cards from the top of the deck" (the discard pile is
    shuffled into a new deck when it runs out: a ruling)."""
    found = [PickResearch(card.name) for card in state.research_display]
    if state.research_deck or state.research_discard:
        found.append(PickResearch("draw"))
    return found


def pick_research(state, seat: int, drawn) -> list[PickResearch]:
    """"If you draw 3 from the deck, you must choose one of the 3 you drew.\""""
    return [PickResearch(card.name) for card in drawn]


# --- fences --------------------------------------------------------------------------------------


def rearrange(state, seat: int, moved) -> list:
    """"you may rearrange the fences on your ranch however you like": each token moves at most once to a
    free spot (a ruling), fences in Holding only under `rearrange_holding`; the player may stop."""
    player = state.players[seat]
    layout = player.ranch.layout
    spots = fence_spots(state, player.ranch)
    moved_names = {layout.edge_names[e] for e in moved}
    sources = [layout.edge_names[e] for e in player.ranch.fences if layout.edge_names[e] not in moved_names]
    if state.rules.rearrange_holding and player.holding_fences:
        sources.append("holding")
    return [StopRearranging(), *(MoveFence(source, target) for source in sources for target in spots)]


def place_fence(state, seat: int) -> list[PlaceFence]:
    """"Fences and dinosaurs collected in the previous phase are now placed onto their owners' ranches.\""""
    return [PlaceFence(name) for name in fence_spots(state, state.players[seat].ranch)]


# --- Phase 4: placing dinosaurs ------------------------------------------------------------------


def housed(basic: dict[str, int], given: dict[tuple[int, ...], str]) -> int:
    """How many basic dinosaurs a layout houses when each enclosure in `given` (its spaces -> kind) holds only
    its kind: "Each space on a ranch may contain only 1 dinosaur. Each enclosure may only contain dinosaurs of
    one type"; a kind fills the spaces of its enclosures, as many as it has."""
    room: dict[str, int] = {}
    for cells, kind in given.items():
        room[kind] = room.get(kind, 0) + len(cells)
    return sum(min(n, room.get(kind, 0)) for kind, n in basic.items())


def enclose(state, seat: int, prompt_enclosures, assignment, herd, unplaced, uniques) -> list[Enclose]:
    """"Each enclosure may only contain dinosaurs of one type"; "If you are able to place a dinosaur, you
    must do so": an enclosure not yet given to a kind goes to a kind with dinosaurs still to place (those
    on the ranch and in Holding, less the room of the enclosures already given to it), if some way of
    giving out the enclosures still free then houses as many dinosaurs as the best layout of all."""
    player = state.players[seat]
    mine = enclosures(state, player.ranch)
    basic = {}
    for kind in [*player.ranch.cells, *player.holding]:
        if kind is not None and not state.dinosaurs[kind].unique:
            basic[kind] = basic.get(kind, 0) + 1
    return give_out(state, player.ranch.layout, mine, prompt_enclosures, assignment, basic)


def house(state, seat: int, prompt_enclosures, assignment, herd, unplaced, born) -> list[Enclose]:
    """"Any dinosaurs produced by breeding must immediately be placed on that player's ranch, following the
    normal rules for placing dinosaurs" ("If you are able to place a dinosaur, you must do so"), no dinosaur
    on the ranch moving: an empty enclosure not yet given goes to a kind whose newborns (`herd`: those without
    room in their kind's enclosures) still want room, if some way of giving out the empty enclosures still
    free then houses as many newborns as the best of all."""
    player = state.players[seat]
    cells = player.ranch.cells
    empty = [region for region in enclosures(state, player.ranch) if all(cells[c] is None for c in region)]
    newborns = {k: n for k, n in herd.items() if n}
    return give_out(state, player.ranch.layout, empty, prompt_enclosures, assignment, newborns)


def give_out(state, layout, mine, prompt_enclosures, assignment, basic) -> list[Enclose]:
    """The (enclosure, kind) choices among the enclosures `mine` (spaces) for the dinosaurs `basic` (kind -> n),
    after `assignment` (index into `prompt_enclosures` -> kind), that still house the most: every way of giving
    out the free enclosures (each to a kind or to none) is tried. Read as 'maximal' (rule `must_place_and_feed`),
    any free enclosure for any kind still without room: they are given out while both are left."""
    assert sorted(mine) == sorted(r.cells for r in prompt_enclosures), "the enclosures differ"
    given = {prompt_enclosures[i].cells: kind for i, kind in assignment.items()}
    free = [cells for cells in mine if cells not in given]
    layouts = [
        {**given, **{cells: kind for cells, kind in zip(free, kinds, strict=True) if kind is not None}}
        for kinds in product([None, *basic], repeat=len(free))
    ]
    most = max(  # the best layout of all, whatever was given out so far
        housed(basic, {cells: kind for cells, kind in zip(mine, kinds, strict=True) if kind is not None})
        for kinds in product([None, *basic], repeat=len(mine))
    )
    room = {}
    for cells, kind in given.items():
        room[kind] = room.get(kind, 0) + len(cells)
    kinds = [kind for kind, n in basic.items() if n > room.get(kind, 0)]
    if state.rules.must_place_and_feed == "maximal":
        return [Enclose(cell_name(layout, cells[0]), len(cells), kind) for cells in free for kind in kinds]
    return [
        Enclose(cell_name(layout, cells[0]), len(cells), kind)
        for cells in free
        for kind in kinds
        if any(full.get(cells) == kind and housed(basic, full) == most for full in layouts)
    ]


# --- escapes -------------------------------------------------------------------------------------


def escape_as(state, seat: int, herbivore: bool, carnivore: bool) -> list[EscapeAs]:
    """"If an escaping dinosaur is an omnivore, you may treat it as either an herbivore or a carnivore.\""""
    return [EscapeAs("herbivore"), EscapeAs("carnivore")]


def lose_fence(state, seat: int) -> list[LoseFence]:
    """"you must remove one fence of your choice from your ranch" (a token: the pre-printed fence stays)."""
    ranch = state.players[seat].ranch
    return [LoseFence(ranch.layout.edge_names[e]) for e in ranch.fences]


def lose_dinosaur(state, seat: int) -> list[LoseDinosaur]:
    """"you must remove another dinosaur of your choice from your ranch.\""""
    return [LoseDinosaur(kind) for kind in on_ranch(state.players[seat])]


# --- Phase 5: feeding ----------------------------------------------------------------------------


def diet(player, dinosaur) -> tuple[int, int, int]:
    """(leaf, meat, either) one such dinosaur eats, less the player's `feed_less` research abilities (taken
    from leaves first, then meat, then either: a ruling)."""
    leaf, meat, either = dinosaur.leaf, dinosaur.meat, dinosaur.either
    for card in player.research:
        effect = card.effect
        if effect.type == "feed_less" and effect.dinosaur == dinosaur.name:
            for _ in range(effect.amount):
                if leaf:
                    leaf -= 1
                elif meat:
                    meat -= 1
                elif either:
                    either -= 1
    return leaf, meat, either


def feed(state, seat: int, _herd) -> list[Feed]:
    """"all dinosaurs must eat, or they will escape"; "If a dinosaur can be fed, then it must be fed!":
    every count of each kind whose food is in stock and after which no unfed dinosaur could still eat; read as
    'most' (rule `must_place_and_feed`), of those the ones feeding the most dinosaurs."""
    player = state.players[seat]
    herd = list(on_ranch(player).items())
    diets = [diet(player, state.dinosaurs[kind]) for kind, _ in herd]
    have_leaf, have_meat = player.resources[0], player.resources[1]

    def fits(counts) -> bool:
        leaf = sum(d[0] * n for d, n in zip(diets, counts, strict=True))
        meat = sum(d[1] * n for d, n in zip(diets, counts, strict=True))
        either = sum(d[2] * n for d, n in zip(diets, counts, strict=True))
        return leaf <= have_leaf and meat <= have_meat and either <= have_leaf - leaf + have_meat - meat

    found = []
    for counts in product(*(range(n + 1) for _, n in herd)):
        if not fits(counts):
            continue
        more = [
            (*counts[:i], counts[i] + 1, *counts[i + 1 :]) for i, (_, n) in enumerate(herd) if counts[i] < n
        ]
        if any(fits(c) for c in more):
            continue  # a dinosaur left unfed could still eat
        found.append(Feed(tuple((kind, n) for (kind, _), n in zip(herd, counts, strict=True) if n)))
    if state.rules.must_place_and_feed == "most":
        most = max(sum(n for _, n in plan.fed) for plan in found)
        found = [plan for plan in found if sum(n for _, n in plan.fed) == most]
    return found


REFERENCE = {
    "assign": assign,
    "take_research": take_research,
    "pick_research": pick_research,
    "rearrange": rearrange,
    "place_fence": place_fence,
    "enclose": enclose,
    "house": house,
    "escape_as": escape_as,
    "lose_fence": lose_fence,
    "lose_dinosaur": lose_dinosaur,
    "feed": feed,
}
