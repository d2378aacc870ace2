"""A player's ranch: a grid of grass, mountain and water spaces, fences on the edges, enclosures.

The layout (terrain, resource symbols, the pre-printed permanent fence) is data
(data/ranch.toml). Fences sit on edges between two grass spaces, or, when the
ranch's border is 'open', on a grass space's outer edge. An enclosure is found
by a flood fill over grass: two grass neighbours are in one region unless a fence
stands between them; a region is an enclosure when it is closed on every side by
fences, mountains, water and (unless the border is 'open') the ranch's border.

Placing dinosaurs is an assignment problem: each enclosure holds one kind. The
game lets the player choose which kind goes into which enclosure (`Enclose`
actions); this module fills the enclosures, spreads a kind over its enclosures so
that it breeds the most, puts unique dinosaurs where they may sit, and reports
the dinosaurs that could not be placed (they escape).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from tyrsim.games.tiny_epic_dinosaurs.components import RESOURCES, DataFileError, read_toml

TERRAIN = {"G": "grass", "M": "mountain", "W": "water"}
SYMBOLS = {"L": "leaf", "F": "meat", "S": "supply", ".": ""}
SIDES = {"N": (-1, 0), "E": (0, 1), "S": (1, 0), "W": (0, -1)}
# Ruling: within an enclosure dinosaurs take the spaces without a resource symbol
# first, then leaf, meat and supply spaces (the ranch yields most leaves, fewest supply).
FILL_RANK = {"": 0, "leaf": 1, "meat": 2, "supply": 3}


@dataclass(frozen=True)
class Region:
    """Connected grass spaces; `enclosed` when fenced in on every side."""

    cells: tuple[int, ...]
    enclosed: bool

    @property
    def capacity(self) -> int:
        return len(self.cells)


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
    _known: dict = field(default_factory=dict, compare=False, hash=False, repr=False)  # fences -> regions

    def cell_name(self, cell: int) -> str:
        return f"{cell // self.cols},{cell % self.cols}"

    def edge_id(self, name: str) -> int:
        return self.edge_names.index(name)

    def income(self) -> tuple[int, int, int]:
        """(leaf, meat, supply) an empty ranch yields."""
        return tuple(self.symbols.count(r) for r in RESOURCES)  # type: ignore[return-value]

    def regions(self, fences: frozenset[int] | set[int]) -> tuple[Region, ...]:
        """The grass regions for these fence tokens (plus the permanent fence), by flood fill."""
        key = frozenset(fences)
        if key not in self._known:
            if len(self._known) >= 4096:
                self._known.clear()  # a bounded memo: ranches repeat few fence layouts within a game
            self._known[key] = self._flood_fill(key)
        return self._known[key]

    def _flood_fill(self, fences: frozenset[int]) -> tuple[Region, ...]:
        blocked = self.permanent | fences
        seen = [False] * len(self.terrain)
        found = []
        for start, kind in enumerate(self.terrain):
            if kind != "grass" or seen[start]:
                continue
            seen[start] = True
            stack, cells, enclosed = [start], [], True
            while stack:
                cell = stack.pop()
                cells.append(cell)
                if enclosed and any(edge not in blocked for edge in self.open_sides[cell]):
                    enclosed = False
                for neighbour, edge in self.links[cell]:
                    if not seen[neighbour] and edge not in blocked:
                        seen[neighbour] = True
                        stack.append(neighbour)
            found.append(Region(tuple(sorted(cells)), enclosed))
        return tuple(found)

    def enclosures(self, fences: frozenset[int] | set[int]) -> list[Region]:
        return [region for region in self.regions(fences) if region.enclosed]


def _edge_name(layout_cols: int, a: int, b: int | str) -> str:
    ra, ca = divmod(a, layout_cols)
    if isinstance(b, str):
        return f"{ra},{ca}|{b}"
    rb, cb = divmod(b, layout_cols)
    return f"{ra},{ca}|{rb},{cb}"


@lru_cache(maxsize=16)
def load_ranch(path: str = "", border: str = "fence") -> RanchLayout:
    """The ranch layout from a TOML file ("" = bundled data/ranch.toml)."""
    source, data = read_toml(path, "ranch.toml")
    terrain_rows, symbol_rows = data.get("terrain"), data.get("symbols")
    if not isinstance(terrain_rows, list) or not terrain_rows or not all(isinstance(r, str) for r in terrain_rows):
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
    )


def breeding_split(count: int, capacities: list[int], group: int) -> list[int]:
    """Spread `count` dinosaurs of one kind over its enclosures (each gets at least one) to breed the most.

    Breeding gives one newborn per `group` dinosaurs in an enclosure, so each
    enclosure is first brought up to `group`, then filled in steps of `group`,
    and what is left goes wherever there is room.
    """
    split = [1] * len(capacities)
    left = count - len(capacities)
    order = sorted(range(len(capacities)), key=lambda i: -capacities[i])
    for i in order:
        if capacities[i] >= group and left >= group - 1:
            split[i] = group
            left -= group - 1
    progress = True
    while left >= group and progress:
        progress = False
        for i in order:
            if left >= group and split[i] + group <= capacities[i]:
                split[i] += group
                left -= group
                progress = True
    for i in order:
        room = min(left, capacities[i] - split[i])
        split[i] += room
        left -= room
    return split


class Ranch:
    """One player's ranch: fence tokens on edges and a dinosaur (kind name or None) per space."""

    __slots__ = ("layout", "fences", "cells")

    def __init__(self, layout: RanchLayout) -> None:
        self.layout = layout
        self.fences: set[int] = set()
        self.cells: list[str | None] = [None] * len(layout.terrain)

    def clone(self) -> Ranch:
        other = Ranch.__new__(Ranch)
        other.layout = self.layout
        other.fences = set(self.fences)
        other.cells = list(self.cells)
        return other

    # --- what is on the ranch ---

    def herd(self) -> dict[str, int]:
        """Dinosaurs on the ranch by kind."""
        herd: dict[str, int] = {}
        for kind in self.cells:
            if kind is not None:
                herd[kind] = herd.get(kind, 0) + 1
        return herd

    def count(self, kind: str) -> int:
        return self.cells.count(kind)

    def income(self) -> list[int]:
        """[leaf, meat, supply] from the resource symbols not covered by a dinosaur."""
        out = [0, 0, 0]
        for symbol, kind in zip(self.layout.symbols, self.cells, strict=True):
            if symbol and kind is None:
                out[RESOURCES.index(symbol)] += 1
        return out

    def enclosures(self) -> list[Region]:
        return self.layout.enclosures(self.fences)

    def free_slots(self) -> list[int]:
        """Edges where a fence token could be placed now."""
        return [edge for edge in self.layout.fence_slots if edge not in self.fences]

    # --- changing it ---

    def remove(self, kind: str, n: int = 1) -> None:
        """Take `n` dinosaurs of `kind` off the ranch (from the most valuable spaces first)."""
        spots = sorted(
            (cell for cell, k in enumerate(self.cells) if k == kind),
            key=lambda cell: -FILL_RANK[self.layout.symbols[cell]],
        )
        if len(spots) < n:
            raise ValueError(f"only {len(spots)} {kind} on the ranch, cannot remove {n}")
        for cell in spots[:n]:
            self.cells[cell] = None

    def place_one(self, kind: str, unique: bool) -> bool:
        """Put one dinosaur on a free space at once (the place-now space); False if no space is free.

        It goes where it may stay: an enclosure of its own kind, else an empty enclosure, else
        any free space (the rulebook: whether it is enclosed is checked at the end of Phase 4).
        """
        choices = []
        for region in self.enclosures():
            kinds = {self.cells[c] for c in region.cells} - {None}
            free = [c for c in region.cells if self.cells[c] is None]
            if free and (kinds == {kind} and not unique or not kinds):
                choices.append((0 if kinds else 1, free))
        choices.append((2, [c for c, k in enumerate(self.cells) if k is None and self._may_hold(c, unique)]))
        for _, free in sorted(choices, key=lambda x: x[0]):
            if free:
                self.cells[min(free, key=self._fill_key)] = kind
                return True
        return False

    def has_room(self) -> bool:
        """Whether a grass space is free."""
        return any(k is None and t == "grass" for k, t in zip(self.cells, self.layout.terrain, strict=True))

    def _may_hold(self, cell: int, unique: bool) -> bool:
        # Ruling: basic dinosaurs stand on grass; a unique dinosaur may also stand on a mountain or water space.
        return unique or self.layout.terrain[cell] == "grass"

    def _fill_key(self, cell: int) -> tuple[int, int]:
        return FILL_RANK[self.layout.symbols[cell]], cell

    def lay_out(
        self,
        enclosures: list[Region],
        assignment: dict[int, str],
        herd: dict[str, int],
        uniques: list[str],
        group: int,
    ) -> dict[str, int]:
        """Clear the ranch and place the herd: `assignment` maps enclosure index -> kind.

        Each kind fills its enclosures (spread to breed the most); unique dinosaurs
        go to a mountain or water space or unenclosed grass, else alone into an
        empty enclosure. Returns the dinosaurs that found no space (they escape).
        """
        self.cells = [None] * len(self.cells)
        escaped: dict[str, int] = {}
        by_kind: dict[str, list[int]] = {}
        for index, kind in assignment.items():
            by_kind.setdefault(kind, []).append(index)
        for kind, count in herd.items():
            indexes = by_kind.get(kind, [])
            capacities = [enclosures[i].capacity for i in indexes]
            placed = min(count, sum(capacities))
            if placed < count:
                escaped[kind] = count - placed
            if placed:
                for index, n in zip(indexes, breeding_split(placed, capacities, group), strict=True):
                    for cell in sorted(enclosures[index].cells, key=self._fill_key)[:n]:
                        self.cells[cell] = kind
        enclosed = {cell for region in enclosures for cell in region.cells}
        loose = sorted(
            (c for c in range(len(self.cells)) if c not in enclosed and self._may_hold(c, True)), key=self._fill_key
        )
        empty = sorted((region for i, region in enumerate(enclosures) if i not in assignment), key=lambda r: r.capacity)
        for name in uniques:
            if loose:
                self.cells[loose.pop(0)] = name
            elif empty:
                self.cells[min(empty.pop(0).cells, key=self._fill_key)] = name
            else:
                escaped[name] = 1
        return escaped

    def breeding(self, group: int, unique: set[str]) -> dict[str, int]:
        """Newborns by kind: one per `group` dinosaurs of a kind alone in an enclosure."""
        born: dict[str, int] = {}
        for region in self.enclosures():
            kinds = {self.cells[c] for c in region.cells} - {None}
            if len(kinds) == 1:
                kind = kinds.pop()
                if kind not in unique:
                    n = sum(1 for c in region.cells if self.cells[c] == kind) // group
                    if n:
                        born[kind] = born.get(kind, 0) + n
        return born

    def place_newborns(self, kind: str, n: int) -> int:
        """Place `n` newborns at once: into their kind's enclosures, then empty ones; returns how many escape."""
        own, empty = [], []
        for region in self.enclosures():
            kinds = {self.cells[c] for c in region.cells} - {None}
            if kinds == {kind}:
                own.append(region)
            elif not kinds:
                empty.append(region)
        empty.sort(key=lambda r: -r.capacity)
        for region in own + empty:
            for cell in sorted(region.cells, key=self._fill_key):
                if n and self.cells[cell] is None:
                    self.cells[cell] = kind
                    n -= 1
        return n
