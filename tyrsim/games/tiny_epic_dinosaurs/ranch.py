"""A player's ranch: a grid of grass, mountain and water spaces, fences on the edges, enclosures.

The layout (terrain, resource symbols, the pre-printed permanent fence) is data
(data/ranch.toml). Fences sit on edges between two grass spaces, or, when the
ranch's border is 'open', on a grass space's outer edge. An enclosure is found
by a flood fill over grass: two grass neighbours are in one region unless a fence
stands between them; a region is an enclosure when it is closed on every side by
fences, mountains, water and (unless the border is 'open') the ranch's border. A set
of fence tokens is also kept as an int with bit e set for each edge e (`fence_bits`):
an immutable key that costs nothing to hash, so what follows from a set of fences is
remembered by it, and a policy can try a fence move by flipping two bits.

Placing dinosaurs is an assignment problem: each enclosure holds one kind. The
game lets the player choose which kind goes into which enclosure (`Enclose`
actions) among those that still house the most dinosaurs (`enclosure_choices`);
this module lists those choices, fills the enclosures, spreads a kind over its enclosures so
that it breeds the most, puts unique dinosaurs where they may sit, and reports
the dinosaurs that could not be placed (they escape).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from operator import itemgetter
from typing import NamedTuple

from tyrsim.core.engine.datafile import data_file_cache
from tyrsim.games.tiny_epic_dinosaurs.components import RESOURCES, DataFileError, read_toml, remember

TERRAIN = {"G": "grass", "M": "mountain", "W": "water"}
SYMBOLS = {"L": "leaf", "F": "meat", "S": "supply", ".": ""}
SIDES = {"N": (-1, 0), "E": (0, 1), "S": (1, 0), "W": (0, -1)}
# Ruling (rule `cover_order`): the rulebook lets the player choose the spaces their dinosaurs cover
# ("For each resource symbol on your ranch that is not covered by a dinosaur, collect one resource");
# within an enclosure dinosaurs take the spaces without a resource symbol first, then the symbols in
# this order (by default leaf, meat, supply: the ranch yields most leaves, fewest supply), and they
# leave a space in the reverse order.
COVER_ORDER = ("leaf", "meat", "supply")


class Survey(NamedTuple):
    """What stands on a ranch's spaces and what they yield (`Ranch.survey`)."""

    herd: tuple[tuple[str, int], ...]  # the dinosaurs as (kind, n) pairs, in the order of the spaces
    free_grass: bool  # whether a grass space is free
    income: tuple[int, int, int]  # (leaf, meat, supply) from the resource symbols not covered


class ToLayOut(NamedTuple):
    """The dinosaurs Phase 4 lays out: those on the ranch, then those in Holding (`Ranch.to_lay_out`)."""

    herd: dict[str, int]  # the basic dinosaurs by kind
    uniques: tuple[str, ...]  # the unique dinosaurs, one figure each


@dataclass(frozen=True)
class Region:
    """Connected grass spaces; `enclosed` when fenced in on every side."""

    cells: tuple[int, ...]
    enclosed: bool
    fill_order: tuple[int, ...] = field(compare=False, repr=False)  # its cells in the order dinosaurs take them
    name: str = field(compare=False, repr=False)  # its first space, "r,c"
    capacity: int = field(init=False, compare=False, repr=False)  # how many spaces it has
    on: Callable[[tuple], tuple] = field(init=False, compare=False, repr=False)  # what stands on its spaces

    def __post_init__(self) -> None:
        object.__setattr__(self, "capacity", len(self.cells))
        object.__setattr__(self, "on", _picker(list(self.cells)))

    def contents(self, cells: tuple[str | None, ...]) -> tuple[str | None, int]:
        """(the one kind of dinosaur in it, or None when it holds none or several kinds; how many it holds)."""
        on = self.on(cells)
        kinds = set(on)
        kinds.discard(None)
        return (next(iter(kinds)) if len(kinds) == 1 else None), len(on) - on.count(None)


@dataclass(frozen=True)
class RanchLayout:
    """The printed ranch board (identical for every player)."""

    rows: int
    cols: int
    terrain: tuple[str, ...]  # per space: grass / mountain / water
    symbols: tuple[str, ...]  # per space: "" / leaf / meat / supply
    edge_names: tuple[str, ...]  # every edge a fence could matter on, "r,c|r,c" or "r,c|N"
    permanent: frozenset[int]  # edges of the pre-printed fence
    fence_slots: tuple[int, ...]  # edges where a fence token may stand
    links: tuple[tuple[tuple[int, int], ...], ...]  # per space: (grass neighbour, edge) pairs
    open_sides: tuple[tuple[int, ...], ...]  # per space: its border edges that must be fenced ('open' border)
    cover_order: tuple[str, ...] = COVER_ORDER  # the resource symbols in the order dinosaurs cover them
    # derived: every space in the order dinosaurs take them (`cover_order`), and in the order they leave
    fill_order: tuple[int, ...] = field(init=False, compare=False, repr=False)
    fill_position: tuple[int, ...] = field(init=False, compare=False, repr=False)  # per space: its place in fill_order
    remove_order: tuple[int, ...] = field(init=False, compare=False, repr=False)
    cover_rank: tuple[int, ...] = field(init=False, compare=False, repr=False)  # per space: 0 no symbol, then 1, 2...
    cell_names: tuple[str, ...] = field(init=False, compare=False, repr=False)
    edge_ids: dict[str, int] = field(init=False, compare=False, repr=False)  # edge name -> its index
    # what stands on the grass spaces, and on the spaces of each resource symbol (leaf, meat, supply)
    on_grass: Callable[[tuple], tuple] = field(init=False, compare=False, repr=False)
    on_symbols: tuple[Callable[[tuple], tuple], ...] = field(init=False, compare=False, repr=False)
    # the flood fill's view (`areas`), edges as bits: the permanent fence, the grass spaces, per space its
    # (edge bit, grass neighbour, neighbour bit) triples and its border edges that must be fenced
    permanent_bits: int = field(init=False, compare=False, repr=False)
    grass_bits: int = field(init=False, compare=False, repr=False)
    link_bits: tuple[tuple[tuple[int, int, int], ...], ...] = field(init=False, compare=False, repr=False)
    open_bits: tuple[int, ...] = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        spaces = range(len(self.terrain))
        rank = {"": 0, **{symbol: i + 1 for i, symbol in enumerate(self.cover_order)}}
        object.__setattr__(self, "cover_rank", tuple(rank[self.symbols[cell]] for cell in spaces))
        fill_order = tuple(sorted(spaces, key=self.fill_key))
        object.__setattr__(self, "fill_order", fill_order)
        object.__setattr__(self, "fill_position", tuple(fill_order.index(cell) for cell in spaces))
        object.__setattr__(self, "edge_ids", {name: edge for edge, name in enumerate(self.edge_names)})
        object.__setattr__(self, "cell_names", tuple(f"{cell // self.cols},{cell % self.cols}" for cell in spaces))
        object.__setattr__(self, "remove_order", tuple(sorted(spaces, key=lambda c: -self.cover_rank[c])))
        object.__setattr__(self, "on_grass", _picker([c for c in spaces if self.terrain[c] == "grass"]))
        on_symbols = tuple(_picker([c for c in spaces if self.symbols[c] == r]) for r in RESOURCES)
        object.__setattr__(self, "on_symbols", on_symbols)
        object.__setattr__(self, "permanent_bits", fence_bits(self.permanent))
        object.__setattr__(self, "grass_bits", fence_bits(c for c in spaces if self.terrain[c] == "grass"))
        links = tuple(tuple((1 << edge, other, 1 << other) for other, edge in self.links[c]) for c in spaces)
        object.__setattr__(self, "link_bits", links)
        object.__setattr__(self, "open_bits", tuple(fence_bits(sides) for sides in self.open_sides))

    def fill_key(self, cell: int) -> tuple[int, int]:
        return self.cover_rank[cell], cell

    def cell_name(self, cell: int) -> str:
        return self.cell_names[cell]

    def edge_id(self, name: str) -> int:
        return self.edge_ids[name]

    def income(self) -> tuple[int, int, int]:
        """(leaf, meat, supply) an empty ranch yields."""
        return tuple(self.symbols.count(r) for r in RESOURCES)  # type: ignore[return-value]

    def regions(self, fences: frozenset[int] | set[int]) -> tuple[Region, ...]:
        """The grass regions for these fence tokens (plus the permanent fence)."""
        return tuple(self.region(cells, enclosed) for cells, enclosed in self.areas(fence_bits(fences)))

    def enclosures(self, fences: frozenset[int] | set[int]) -> tuple[Region, ...]:
        """The regions closed on every side, for these fence tokens."""
        return tuple(self.region(cells, True) for cells, enclosed in self.areas(fence_bits(fences)) if enclosed)

    def region(self, cells: tuple[int, ...], enclosed: bool) -> Region:
        fill_order = tuple(sorted(cells, key=self.fill_position.__getitem__))
        return Region(cells, enclosed, fill_order, self.cell_names[cells[0]])

    def areas(self, fences: int) -> tuple[tuple[tuple[int, ...], bool], ...]:
        """(its spaces in order, whether enclosed) of each grass region for these fence tokens (`fence_bits`),
        by flood fill, the region of the first space first."""
        blocked = self.permanent_bits | fences
        links, open_bits = self.link_bits, self.open_bits
        unseen = self.grass_bits
        found = []
        while unseen:
            first = unseen & -unseen  # the first grass space not in a region yet
            unseen ^= first
            stack, cells, enclosed = [first.bit_length() - 1], [], True
            while stack:
                cell = stack.pop()
                cells.append(cell)
                if enclosed and open_bits[cell] & ~blocked:
                    enclosed = False  # a border edge without a fence ('open' border)
                for edge, neighbour, bit in links[cell]:
                    if unseen & bit and not blocked & edge:
                        unseen ^= bit
                        stack.append(neighbour)
            cells.sort()
            found.append((tuple(cells), enclosed))
        return tuple(found)

    def loose_spaces(self, enclosures: tuple[Region, ...]) -> list[int]:
        """The spaces outside these enclosures, in fill order."""
        enclosed = {cell for region in enclosures for cell in region.cells}
        return [cell for cell in self.fill_order if cell not in enclosed]

    def survey(self, cells: tuple[str | None, ...]) -> Survey:
        """What these dinosaurs on the spaces leave: the herd, whether a grass space is free, the income."""
        herd: dict[str, int] = {}
        for kind in cells:
            if kind is not None:
                herd[kind] = herd.get(kind, 0) + 1
        leaf, meat, supply = self.on_symbols
        income = (leaf(cells).count(None), meat(cells).count(None), supply(cells).count(None))
        return Survey(tuple(herd.items()), None in self.on_grass(cells), income)


def fence_bits(edges: Iterable[int]) -> int:
    """A set of edges (or spaces) as an int with bit e set for each one."""
    bits = 0
    for edge in edges:
        bits |= 1 << edge
    return bits


def _picker(spaces: list[int]) -> Callable[[tuple], tuple]:
    """A function giving the items at these spaces of a tuple (always a tuple, whatever their number)."""
    if len(spaces) > 1:
        return itemgetter(*spaces)
    if spaces:
        (space,) = spaces
        return lambda cells: (cells[space],)
    return lambda cells: ()


def _edge_name(layout_cols: int, a: int, b: int | str) -> str:
    ra, ca = divmod(a, layout_cols)
    if isinstance(b, str):
        return f"{ra},{ca}|{b}"
    rb, cb = divmod(b, layout_cols)
    return f"{ra},{ca}|{rb},{cb}"


@data_file_cache(maxsize=16)
def load_ranch(path: str = "", border: str = "open", cover_order: tuple[str, ...] = COVER_ORDER) -> RanchLayout:
    """The ranch layout from a TOML file ("" = bundled data/ranch.toml); dinosaurs cover its resource symbols
    in `cover_order` (rule `cover_order`)."""
    source, data = read_toml(path, "ranch.toml")
    terrain_rows, symbol_rows = data.get("terrain"), data.get("symbols")
    if (not isinstance(terrain_rows, list) or not terrain_rows or not all(isinstance(r, str) for r in terrain_rows)
            or not terrain_rows[0]):
        raise DataFileError(f"{source}: terrain must be a non-empty list of strings of G, M, W")
    rows, cols = len(terrain_rows), len(terrain_rows[0])
    for key, grid, letters in (("terrain", terrain_rows, TERRAIN), ("symbols", symbol_rows, SYMBOLS)):
        if (
            not isinstance(grid, list)
            or len(grid) != rows
            or any(not isinstance(r, str) or len(r) != cols or set(r) - set(letters) for r in grid)
        ):
            raise DataFileError(f"{source}: {key} must be {rows} strings of {cols} letters from {''.join(letters)}")
    terrain = tuple(TERRAIN[ch] for row in terrain_rows for ch in row)
    symbols = tuple(SYMBOLS[ch] for row in symbol_rows for ch in row)
    n = rows * cols

    names: list[str] = []
    links: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    open_sides: list[list[int]] = [[] for _ in range(n)]
    slots = []
    for cell in range(n):
        if terrain[cell] != "grass":
            continue
        r, c = divmod(cell, cols)
        for side, (dr, dc) in SIDES.items():
            rr, cc = r + dr, c + dc
            if 0 <= rr < rows and 0 <= cc < cols:
                other = rr * cols + cc
                if terrain[other] != "grass" or other < cell:
                    continue  # mountains and water bound an enclosure; each inner edge is named once
                edge = len(names)
                names.append(_edge_name(cols, cell, other))
                links[cell].append((other, edge))
                links[other].append((cell, edge))
                slots.append(edge)
            else:
                edge = len(names)
                names.append(_edge_name(cols, cell, side))
                if border == "open":
                    open_sides[cell].append(edge)
                    slots.append(edge)

    printed = data.get("permanent_fences", [])
    if not isinstance(printed, list):
        raise DataFileError(f'{source}: permanent_fences must be a list of edges like "0,1|0,2" or "0,0|N"')
    permanent = set()
    for i, name in enumerate(printed):
        if name not in names:
            raise DataFileError(
                f'{source}: permanent_fences[{i}] is {name!r}, not an edge of a grass space; write "r,c|r,c" '
                'with the smaller space first, or "r,c|N" (E, S, W) for a border edge'
            )
        permanent.add(names.index(name))
    return RanchLayout(
        rows,
        cols,
        terrain,
        symbols,
        tuple(names),
        frozenset(permanent),
        tuple(edge for edge in slots if edge not in permanent),
        tuple(tuple(x) for x in links),
        tuple(tuple(x) for x in open_sides),
        tuple(cover_order),
    )


def breeding_split(count: int, capacities: list[int], group: int) -> list[int]:
    """Spread `count` dinosaurs of one kind (no more than fit) over its enclosures to breed the most.

    Breeding gives one newborn per `group` dinosaurs in an enclosure, so whole groups go
    first, largest enclosure first, while one fits anywhere (that gives the most newborns
    there can be); what is left joins the kind where it already stands, then goes wherever
    there is room. An enclosure may stay empty: two of a kind given a 1-space and a 4-space
    enclosure stand together in the 4-space one and breed.
    """
    split = [0] * len(capacities)
    left = count
    order = sorted(range(len(capacities)), key=lambda i: -capacities[i])
    progress = True
    while left >= group and progress:
        progress = False
        for i in order:
            if left >= group and split[i] + group <= capacities[i]:
                split[i] += group
                left -= group
                progress = True
    for i in sorted(order, key=lambda i: not split[i]):  # where the kind stands first (a stable sort)
        room = min(left, capacities[i] - split[i])
        split[i] += room
        left -= room
    return split


def enclosure_choices(
    enclosures: tuple[Region, ...], assignment: dict[int, str], unplaced: dict[str, int], most: bool = True
) -> list[tuple[int, str]]:
    """The (enclosure index, kind) choices of Phase 4 (and of Phase 6's newborns) that still let the layout house
    the most dinosaurs (rule `must_place_and_feed`: 'most'), or any (`most` False: 'maximal').

    "If you are able to place a dinosaur, you must do so": an enclosure not given to a kind yet may
    go to a kind with dinosaurs still without room (`unplaced`) only if some way of giving out the
    other free enclosures then houses as many of them as the best way of giving out all of them.
    Giving the enclosures out one by one from these choices therefore ends in a layout that houses
    the most dinosaurs there can be, whichever choices the player makes. Read as 'maximal', every free
    enclosure may go to every kind still without room: the enclosures are given out while both are left,
    so no dinosaur left without room could still have one.
    """
    free = [i for i in range(len(enclosures)) if i not in assignment]
    wanting = {kind: n for kind, n in unplaced.items() if n}
    if not most:
        return [(index, kind) for index in free for kind in wanting]
    capacities = sorted((enclosures[i].capacity for i in free), reverse=True)
    fewest = _unhoused(tuple(capacities), tuple(sorted(wanting.values())))
    choices = []
    for index in free:
        size = enclosures[index].capacity
        rest = capacities.copy()
        rest.remove(size)
        for kind, n in wanting.items():
            after = [m for other, m in wanting.items() if other != kind]
            if n > size:
                after.append(n - size)
            if _unhoused(tuple(rest), tuple(sorted(after))) == fewest:
                choices.append((index, kind))
    return choices


@functools.lru_cache(maxsize=1 << 14)
def _unhoused(capacities: tuple[int, ...], wanting: tuple[int, ...]) -> int:
    """The fewest dinosaurs left without room when enclosures of these `capacities` (largest first) go each to
    one kind, the kinds wanting room for `wanting` dinosaurs (ascending, no zeros). Each enclosure in turn
    goes to each kind still wanting room (never to none: room given never costs any)."""
    if not wanting or not capacities:
        return sum(wanting)
    size, rest = capacities[0], capacities[1:]
    best = sum(wanting)
    for i, n in enumerate(wanting):
        if i and n == wanting[i - 1]:
            continue  # the same need as the kind before: the same answer
        after = wanting[:i] + wanting[i + 1 :]
        if n > size:
            after = tuple(sorted((*after, n - size)))
        best = min(best, _unhoused(rest, after))
        if not best:
            break
    return best


class RanchBoard:
    """What every ranch of one game shares: the printed layout, the rules for placing dinosaurs
    (`breed_group`, and `unique_anywhere` for the rule `unique_terrain == "any"`), and what follows
    from a set of fence tokens (enclosures, their sizes, free fence slots), remembered by that set
    of tokens as `fence_bits`.

    One board per game (per rule set), never shared between rule sets; the layout it reads is
    immutable, so each remembered value depends on its set of fences alone.
    """

    def __init__(self, layout: RanchLayout, breed_group: int = 2, unique_anywhere: bool = False) -> None:
        self.layout = layout
        self.breed_group = breed_group
        self.unique_anywhere = unique_anywhere
        self._enclosures: dict[int, tuple[Region, ...]] = {}
        self._capacities: dict[int, tuple[int, ...]] = {}
        self._free: dict[int, tuple[int, ...]] = {}
        self._regions: dict[tuple[int, ...], Region] = {}  # an enclosure by its spaces: fence layouts share many

    def enclosures(self, fences: int) -> tuple[Region, ...]:
        """The enclosures for these fence tokens (`fence_bits`), the one of the first space first."""
        found = self._enclosures.get(fences)
        if found is None:
            found = []
            for cells, enclosed in self.layout.areas(fences):
                if enclosed:
                    region = self._regions.get(cells)
                    if region is None:
                        region = remember(self._regions, cells, self.layout.region(cells, True))
                    found.append(region)
            found = remember(self._enclosures, fences, tuple(found))
        return found

    def capacities(self, fences: int) -> tuple[int, ...]:
        """The sizes of the enclosures for these fence tokens (`fence_bits`), largest first.

        A policy weighing fence moves asks this for every layout one move away (up to ~200 a
        decision, most of them never played), so it has a memo of its own, larger than the
        engine's: its entries are small (an int and a shared tuple of sizes)."""
        found = self._capacities.get(fences)
        if found is None:
            sizes = sorted((len(cells) for cells, enclosed in self.layout.areas(fences) if enclosed), reverse=True)
            found = remember(self._capacities, fences, tuple(sizes), limit=1 << 16)
        return found

    def free_slots(self, fences: int) -> tuple[int, ...]:
        """The edges where a fence token could still be placed beside these tokens (`fence_bits`)."""
        found = self._free.get(fences)
        if found is None:
            slots = tuple(edge for edge in self.layout.fence_slots if not fences >> edge & 1)
            found = remember(self._free, fences, slots)
        return found


class Ranch:
    """One player's ranch: fence tokens on edges and a dinosaur (kind name or None) per space.

    Both are immutable (a frozenset, with its `fence_bits`, and a tuple) and change only by
    assignment, so the survey of the spaces is remembered until they change; the board remembers
    what follows from a set of fences.
    """

    __slots__ = ("board", "layout", "_fences", "_bits", "_cells", "_survey")

    def __init__(self, board: RanchBoard) -> None:
        self.board = board
        self.layout = board.layout
        self.fences = frozenset()
        self.cells = (None,) * len(board.layout.terrain)

    def copy(self) -> Ranch:
        """An independent ranch in the same position: the board is shared, the fences and spaces are
        immutable (every change assigns new ones), so nothing else needs copying."""
        new = Ranch.__new__(Ranch)
        new.board, new.layout = self.board, self.layout
        new._fences, new._bits, new._cells, new._survey = self._fences, self._bits, self._cells, self._survey
        return new

    @property
    def fences(self) -> frozenset[int]:
        """The edges with a fence token."""
        return self._fences

    @fences.setter
    def fences(self, fences: frozenset[int] | set[int]) -> None:
        self._fences = frozenset(fences)
        self._bits = fence_bits(self._fences)

    @property
    def fence_bits(self) -> int:
        """The edges with a fence token as bits (`fence_bits`)."""
        return self._bits

    @property
    def cells(self) -> tuple[str | None, ...]:
        """The dinosaur (kind name) on each space, None where it is free."""
        return self._cells

    @cells.setter
    def cells(self, cells: tuple[str | None, ...] | list[str | None]) -> None:
        self._cells = tuple(cells)
        self._survey = None

    # --- what is on the ranch ---

    def herd(self) -> dict[str, int]:
        """Dinosaurs on the ranch by kind (a new dict)."""
        return dict(self.survey().herd)

    def survey(self) -> Survey:
        """The herd on the ranch (in the order of the spaces), whether a grass space is free, the income."""
        found = self._survey
        if found is None:
            found = self._survey = self.layout.survey(self._cells)
        return found

    def to_lay_out(self, holding: list[str], unique: frozenset[str] | set[str]) -> ToLayOut:
        """The dinosaurs on the ranch and in `holding` that Phase 4 lays out: the basic ones by kind, the
        `unique` kinds one figure each, the ranch's first (in the order of its spaces)."""
        herd: dict[str, int] = {}
        uniques = []
        for kind in (*self._cells, *holding):
            if kind is None:
                continue
            if kind in unique:
                uniques.append(kind)
            else:
                herd[kind] = herd.get(kind, 0) + 1
        return ToLayOut(herd, tuple(uniques))

    def count(self, kind: str) -> int:
        return self._cells.count(kind)

    def enclosures(self) -> tuple[Region, ...]:
        return self.board.enclosures(self._bits)

    def free_slots(self) -> tuple[int, ...]:
        """Edges where a fence token could be placed now."""
        return self.board.free_slots(self._bits)

    # --- changing it ---

    def add_fence(self, edge: int) -> None:
        self.fences = self._fences | {edge}

    def remove_fence(self, edge: int) -> None:
        if edge not in self._fences:
            raise ValueError(f"no fence on {self.layout.edge_names[edge]}")
        self.fences = self._fences - {edge}

    def remove(self, kind: str, n: int = 1) -> None:
        """Take `n` dinosaurs of `kind` off the ranch, one at a time, each the figure whose leaving costs the
        fewest newborns, and among those the one on the most valuable space.

        Ruling: the rulebook lets the player choose which figure leaves (for a contract, a research card,
        lack of food or a penalty); the engine chooses the obvious best. A figure in an enclosure of its
        kind alone that holds a whole number of breeding groups costs a newborn; one elsewhere (in an
        enclosure with spare figures, unenclosed, or sharing an enclosure with another kind) costs none.
        Of those, the figure on the space `cover_order` covers last leaves first (by default supply, then meat,
        leaf and no symbol).
        """
        if n <= 0:
            return
        if self._cells.count(kind) < n:
            raise ValueError(f"only {self._cells.count(kind)} {kind} on the ranch, cannot remove {n}")
        group = self.board.breed_group
        for _ in range(n):
            cells = self._cells
            breeding = set()  # spaces whose figure would cost a newborn
            for region in self.enclosures():
                found, count = region.contents(cells)
                if found == kind and count % group == 0:
                    breeding.update(region.cells)
            cell = min((c for c in self.layout.remove_order if cells[c] == kind), key=lambda c: c in breeding)
            self.cells = (*cells[:cell], None, *cells[cell + 1 :])

    def place_one(self, kind: str, unique: bool) -> bool:
        """Put one dinosaur on a free space at once (the place-now space); False if no space is free.

        It goes where it may stay: an enclosure of its own kind, else an empty enclosure, else
        any free space (the rulebook: whether it is enclosed is checked at the end of Phase 4).
        """
        cells = self._cells
        empty = None  # the first empty enclosure
        for region in self.enclosures():
            found, count = region.contents(cells)
            if count == region.capacity:
                continue  # full
            if found == kind and not unique:
                spots = region.fill_order
                break
            if not count and empty is None:
                empty = region.fill_order
        else:
            # basic dinosaurs stand on grass; a unique one too, unless rule `unique_terrain` is "any"
            terrain = self.layout.terrain
            anywhere = unique and self.board.unique_anywhere
            spots = empty or [c for c in self.layout.fill_order if anywhere or terrain[c] == "grass"]
        # spaces are taken in fill order (`cover_order`)
        for spot in spots:
            if cells[spot] is None:
                self.cells = (*cells[:spot], kind, *cells[spot + 1 :])
                return True
        return False

    def lay_out(
        self,
        enclosures: tuple[Region, ...],
        assignment: dict[int, str],
        herd: dict[str, int],
        uniques: list[str],
    ) -> dict[str, int]:
        """Clear the ranch and place the herd: `assignment` maps enclosure index -> kind.

        Each kind fills its enclosures (spread to breed the most, which may leave one of
        them empty). The engine offers only assignments that house the most dinosaurs
        (`enclosure_choices`), so what finds no room here could find none in any layout.
        Unique dinosaurs go to unenclosed grass (or, with `unique_anywhere`, a mountain or
        water space too), else alone into an empty enclosure. Returns the dinosaurs that
        found no space (they escape).
        """
        group = self.board.breed_group
        cells: list[str | None] = [None] * len(self._cells)
        escaped: dict[str, int] = {}
        by_kind: dict[str, list[int]] = {}
        for index, kind in assignment.items():
            by_kind.setdefault(kind, []).append(index)
        for kind, count in herd.items():
            indexes = by_kind.get(kind, [])
            if len(indexes) == 1:  # nearly always: the kind fills its one enclosure
                region = enclosures[indexes[0]]
                placed = min(count, region.capacity)
                for cell in region.fill_order[:placed]:
                    cells[cell] = kind
            else:
                capacities = [enclosures[i].capacity for i in indexes]
                placed = min(count, sum(capacities))
                if placed:
                    for index, n in zip(indexes, breeding_split(placed, capacities, group), strict=True):
                        for cell in enclosures[index].fill_order[:n]:
                            cells[cell] = kind
            if placed < count:
                escaped[kind] = count - placed
        if uniques:
            loose = self.layout.loose_spaces(enclosures)
            if not self.board.unique_anywhere:
                loose = [cell for cell in loose if self.layout.terrain[cell] == "grass"]
            empty = sorted((r for r in enclosures if all(cells[c] is None for c in r.cells)), key=lambda r: r.capacity)
            for name in uniques:
                if loose:
                    cells[loose.pop(0)] = name
                elif empty:
                    cells[empty.pop(0).fill_order[0]] = name
                else:
                    escaped[name] = 1
        self.cells = cells
        return escaped

    def breeding(self, unique: frozenset[str] | set[str]) -> dict[str, int]:
        """Newborns by kind: one per `breed_group` dinosaurs of a kind alone in an enclosure (not the `unique`
        kinds)."""
        group = self.board.breed_group
        born: dict[str, int] = {}
        cells = self._cells
        for region in self.enclosures():
            kind, count = region.contents(cells)
            if kind is not None and kind not in unique:
                n = count // group
                if n:
                    born[kind] = born.get(kind, 0) + n
        return born

    def newborns_at_home(self, born: dict[str, int]) -> tuple[dict[str, int], tuple[Region, ...]]:
        """Phase 6: newborns into the free spaces of their own kind's enclosures (room no other kind may use);
        returns how many of each kind still want room, and the empty enclosures they may be given."""
        cells = list(self._cells)
        unplaced, empty = dict(born), []
        for region in self.enclosures():
            found, count = region.contents(self._cells)
            if not count:
                empty.append(region)
            elif found in unplaced:
                for cell in region.fill_order:
                    if unplaced[found] and cells[cell] is None:
                        cells[cell] = found
                        unplaced[found] -= 1
        self.cells = cells
        return unplaced, tuple(empty)

    def house_newborns(
        self, enclosures: tuple[Region, ...], assignment: dict[int, str], unplaced: dict[str, int]
    ) -> dict[str, int]:
        """Phase 6: the `unplaced` newborns into the empty `enclosures` given to their kind (`assignment`: index ->
        kind), in the order given; returns those that found no room (they escape), by kind."""
        cells = list(self._cells)
        left = dict(unplaced)
        for index, kind in assignment.items():
            for cell in enclosures[index].fill_order[: left[kind]]:
                cells[cell] = kind
                left[kind] -= 1
        self.cells = cells
        return {kind: n for kind, n in left.items() if n}
