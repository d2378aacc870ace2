"""The Tyros board: spaces, land adjacency, coasts and sea connections, read from TOML.

Space 0 is Tyros; the numbered spaces keep their numbers. Ships stand on a
coast: every space has one except where the board names several (the boot of
Italy, 16, has a west and an east coast). `load_board(path)` reads and
validates a board file; with no path it reads the bundled reconstruction.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from pathlib import Path

from tyrsim.core.engine.datafile import DataFileError, data_file_cache, load_data, parse_toml
from tyrsim.games.tyros.components import COLOUR_NAMES, EMPIRES

TYROS = 0
TYROS_NAME = "tyros"
BUNDLED = "board.toml"
TOP_KEYS = ("first_game", "open_sea", "removed_tiles", "spaces")


@dataclass(frozen=True)
class Coast:
    space: int
    name: str  # "" for a space with a single coast

    @property
    def label(self) -> str:
        space = TYROS_NAME if self.space == TYROS else str(self.space)
        return f"{space}{self.name[0]}" if self.name else space


@dataclass(frozen=True)
class Board:
    source: str
    size: int  # number of spaces including Tyros (index 0)
    land: tuple[frozenset[int], ...]  # land[s]: grid neighbours of s
    coasts: tuple[Coast, ...]
    space_coasts: tuple[tuple[int, ...], ...]  # coast ids of each space; the first is where ships are built
    sea: tuple[frozenset[int], ...]  # sea[c]: coasts connected by sea to coast c
    tiles: tuple[int, ...]  # spaces that have a map tile in play
    removed_tiles: tuple[int, ...]
    first_game: tuple[int, ...]  # first-game space of each empire, in EMPIRES order
    cells: tuple[tuple[int, int] | None, ...]
    open_sea: tuple[int, int] | None

    @property
    def spaces(self) -> range:
        return range(self.size)

    def space_of(self, name: int | str) -> int:
        """The index of a space written as its number or "tyros"."""
        if isinstance(name, str) and name.strip().lower() == TYROS_NAME:
            return TYROS
        try:
            space = int(name)
        except (TypeError, ValueError):
            raise ValueError(f"unknown space {name!r}; spaces are 1-{self.size - 1} and 'tyros'") from None
        if not 1 <= space < self.size:
            raise ValueError(f"unknown space {name!r}; spaces are 1-{self.size - 1} and 'tyros'")
        return space

    def is_route(self, spaces: list[int | str]) -> bool:
        """True when some choice of coasts joins each consecutive pair by a sea connection.

        Board geometry only: empire chips are not considered.
        """
        path = [self.space_of(s) for s in spaces]
        current = set(self.space_coasts[path[0]])
        for space in path[1:]:
            current = {c for c in self.space_coasts[space] if self.sea[c] & current}
            if not current:
                return False
        return True

    def shortest_route(self, start: int | str, end: int | str) -> list[int | str]:
        """A shortest sea route from `start` to `end`, both ends included (Tyros written "tyros")."""
        a, b = self.space_of(start), self.space_of(end)
        coasts = self.route_coasts(self.space_coasts[a], set(self.space_coasts[b]))
        if coasts is None:
            raise ValueError(f"no sea route from {start} to {end}")
        spaces = [self.coasts[c].space for c in coasts]
        return [TYROS_NAME if s == TYROS else s for s in spaces]

    def route_coasts(self, starts, ends: set[int]) -> list[int] | None:
        """A shortest chain of coasts from one of `starts` to one of `ends` (breadth-first search)."""
        previous: dict[int, int | None] = {c: None for c in starts}
        queue = deque(starts)
        while queue:
            c = queue.popleft()
            if c in ends:
                path = [c]
                while previous[path[-1]] is not None:
                    path.append(previous[path[-1]])
                return path[::-1]
            for d in sorted(self.sea[c]):
                if d not in previous:
                    previous[d] = c
                    queue.append(d)
        return None

    def sea_distances(self, start: int, passable=None) -> dict[int, int]:
        """Moves from coast `start` to every coast it can reach (passing only `passable` spaces)."""
        dist = {start: 0}
        queue = deque([start])
        while queue:
            c = queue.popleft()
            if c != start and passable is not None and not passable(self.coasts[c].space):
                continue
            for d in self.sea[c]:
                if d not in dist:
                    dist[d] = dist[c] + 1
                    queue.append(d)
        return dist


def conflicting(board: Board, a: int, b: int, both_beside_tyros: bool) -> bool:
    """Whether empires may not start on both `a` and `b` in the variable set-up.

    "No two empires may begin on spaces that are adjacent horizontally or vertically": land
    neighbours conflict. 31 and 32 are not neighbours, but both touch Tyros, whose chip joins
    whichever empire reaches it first; unless `both_beside_tyros` (rule `start_both_beside_tyros`,
    a ruling), two spaces next to Tyros conflict too, so no two empires start by meeting at Tyros.
    """
    return b in board.land[a] or (not both_beside_tyros and TYROS in board.land[a] and TYROS in board.land[b])


@data_file_cache(maxsize=16)
def load_board(path: str | Path | None = None) -> Board:
    """The board in `path` (a TOML file), or the bundled one when `path` is None or empty."""
    source, data = load_data(path, "tyrsim.games.tyros", BUNDLED)
    return _Parser(data, source).board()


def parse_board(text: str, source: str) -> Board:
    """Read and validate a board from TOML text; errors name `source` and the key."""
    return _Parser(parse_toml(text, source), source).board()


def reachable(starts, neighbours) -> set:
    """Everything reachable from `starts` when `neighbours(x)` gives the next steps."""
    seen = set(starts)
    queue = deque(seen)
    while queue:
        for y in neighbours(queue.popleft()):
            if y not in seen:
                seen.add(y)
                queue.append(y)
    return seen


class _Parser:
    """Reads a board file's tables into a `Board`; every error names the file and the key."""

    def __init__(self, data: dict, source: str) -> None:
        self.data = data
        self.source = source

    def error(self, key: str, message: str) -> DataFileError:
        return DataFileError(f"{self.source}: [{key}] {message}")

    def board(self) -> Board:
        unknown = sorted(set(self.data) - set(TOP_KEYS))
        if unknown:
            raise self.error(unknown[0], f"unknown key; allowed: {', '.join(TOP_KEYS)}")
        self.read_space_names()
        self.read_coasts()
        land, sea, cells = [], [], []
        for s, key in enumerate(self.keys):
            neighbours, connections, cell = self.read_space(s, key)
            land.append(neighbours)
            sea.extend(connections)
            cells.append(cell)
        self.check_symmetric(land, sea)
        self.check_tyros_reachable(sea)
        tiles, removed, first_game = self.read_tiles(land)
        open_sea = self.data.get("open_sea")
        if open_sea is not None and not (isinstance(open_sea, list) and len(open_sea) == 2
                                         and all(isinstance(v, int) for v in open_sea)):
            raise self.error("open_sea", "expected [row, column], the grid cell of the open sea")
        return Board(
            source=self.source,
            size=self.size,
            land=tuple(frozenset(n) for n in land),
            coasts=tuple(self.coasts),
            space_coasts=tuple(self.space_coasts),
            sea=tuple(frozenset(n) for n in sea),
            tiles=tiles,
            removed_tiles=removed,
            first_game=first_game,
            cells=tuple(cells),
            open_sea=tuple(open_sea) if open_sea is not None else None,
        )

    def read_space_names(self) -> None:
        self.spaces = self.data.get("spaces")
        if not isinstance(self.spaces, dict) or not self.spaces:
            raise self.error("spaces", "missing; give one [spaces.N] table per space and a [spaces.tyros] table")
        numbers = []
        for key, table in self.spaces.items():
            # written the way a number prints (no sign, no leading zero), so "7" names exactly one space
            if key != TYROS_NAME and not (key.isascii() and key.isdigit() and key == str(int(key)) and key != "0"):
                raise self.error(f"spaces.{key}", "unknown space name; spaces are numbered 1, 2, ... or 'tyros'")
            if not isinstance(table, dict):
                raise self.error(f"spaces.{key}", f"{table!r} is not a table; write a [spaces.{key}] table")
            if key != TYROS_NAME:
                numbers.append(int(key))
        if TYROS_NAME not in self.spaces:
            raise self.error("spaces.tyros", "missing; the board needs the Tyros space")
        self.size = len(numbers) + 1
        missing = sorted(set(range(1, self.size)) - set(numbers))  # as many gaps as numbers beyond the last
        if missing:
            raise self.error("spaces", f"spaces {missing} are missing; spaces must be numbered 1 to {self.size - 1}")
        self.keys = [TYROS_NAME] + [str(n) for n in range(1, self.size)]

    def space_ref(self, key: str, field: str, value) -> int:
        text = str(value).strip().lower()
        if text == TYROS_NAME:
            return TYROS
        if text.isdigit() and 1 <= int(text) < self.size:
            return int(text)
        raise self.error(key, f"{field}unknown space {value!r}; spaces are 1-{self.size - 1} and 'tyros'")

    def read_coasts(self) -> None:
        self.coasts: list[Coast] = []
        self.space_coasts: list[tuple[int, ...]] = []
        for s, key in enumerate(self.keys):
            names = self.spaces[key].get("coasts", [""])
            if not isinstance(names, list) or not names or not all(isinstance(n, str) for n in names):
                raise self.error(f"spaces.{key}", "coasts: expected a list of coast names, e.g. ['west', 'east']")
            if len(set(names)) != len(names):
                raise self.error(f"spaces.{key}", "coasts: a coast name appears twice")
            self.space_coasts.append(tuple(range(len(self.coasts), len(self.coasts) + len(names))))
            self.coasts.extend(Coast(s, n) for n in names)

    def coast_ref(self, key: str, value) -> int:
        """A sea connection's target written "15" or "16:west"."""
        space_text, _, coast_name = str(value).strip().lower().partition(":")
        options = self.space_coasts[self.space_ref(f"spaces.{key}", "sea: ", space_text)]
        if not coast_name:
            if len(options) > 1:
                names = ", ".join(self.coasts[c].name for c in options)
                raise self.error(f"spaces.{key}", f"sea: {value!r} has several coasts; write it as "
                                 f"'{space_text}:<coast>' with <coast> one of {names}")
            return options[0]
        for c in options:
            if self.coasts[c].name == coast_name:
                return c
        raise self.error(f"spaces.{key}", f"sea: space {space_text} has no coast {coast_name!r}")

    def read_space(self, s: int, key: str) -> tuple[set[int], list[set[int]], tuple[int, int] | None]:
        """One [spaces.N] table: its land neighbours, the sea connections of each coast, its grid cell."""
        table, where = self.spaces[key], f"spaces.{key}"
        unknown = set(table) - {"cell", "land", "coasts", "sea"}
        if unknown:
            raise self.error(where, f"unknown keys {sorted(unknown)}; allowed: cell, land, coasts, sea")
        neighbours = table.get("land", [])
        if not isinstance(neighbours, list):
            raise self.error(where, "land: expected a list of neighbouring spaces")
        land = {self.space_ref(where, "land: ", n) for n in neighbours}
        if s in land:
            raise self.error(where, "land: a space cannot neighbour itself")
        own = self.space_coasts[s]
        connections = table.get("sea", [] if len(own) == 1 else {})
        if len(own) == 1:
            if not isinstance(connections, list):
                raise self.error(where, "sea: expected a list of connected spaces, e.g. ['15', '16:west']")
            targets = [connections]
        else:
            if not isinstance(connections, dict) or set(connections) - {self.coasts[c].name for c in own}:
                raise self.error(where, "sea: expected a table with one list per coast, e.g. "
                                 "{ west = ['15'], east = ['11'] }")
            targets = [connections.get(self.coasts[c].name, []) for c in own]
            if not all(isinstance(t, list) for t in targets):
                raise self.error(where, "sea: each coast's connections must be a list, e.g. { west = ['15'] }")
        sea = [{self.coast_ref(key, t) for t in coast_targets} for coast_targets in targets]
        if any(connected & set(own) for connected in sea):
            raise self.error(where, "sea: a space cannot be connected to its own coast")
        cell = table.get("cell")
        if cell is not None and not (isinstance(cell, list) and len(cell) == 2
                                     and all(isinstance(v, int) for v in cell)):
            raise self.error(where, "cell: expected [row, column]")
        return land, sea, tuple(cell) if cell is not None else None

    def check_symmetric(self, land: list[set[int]], sea: list[set[int]]) -> None:
        keys, coasts = self.keys, self.coasts
        for s, key in enumerate(keys):
            for t in sorted(land[s]):
                if s not in land[t]:
                    raise self.error(f"spaces.{key}", f"land: lists {keys[t]} but [spaces.{keys[t]}] does not list "
                                     f"{key}; land adjacency must be symmetric")
        for c, coast in enumerate(coasts):
            for d in sorted(sea[c]):
                if c not in sea[d]:
                    raise self.error(f"spaces.{keys[coast.space]}", f"sea: connects to {coasts[d].label} but "
                                     f"[spaces.{keys[coasts[d].space]}] does not connect back to {coast.label}; "
                                     "sea connections must be symmetric")

    def check_tyros_reachable(self, sea: list[set[int]]) -> None:
        """Every coast must be joined to Tyros by sea: ships start there."""
        seen = reachable(self.space_coasts[TYROS], lambda c: sea[c])
        cut_off = sorted({self.coasts[c].space for c in range(len(self.coasts)) if c not in seen})
        if cut_off:
            raise self.error("spaces.tyros", f"sea: Tyros cannot be reached by sea from spaces "
                             f"{', '.join(map(str, cut_off))}; every coast must be joined to Tyros, "
                             "where the ships start")

    def read_tiles(self, land: list[set[int]]) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
        """The spaces with tiles, the removed tiles and the first-game spaces, checked."""
        removed = self.data.get("removed_tiles", [])
        if not isinstance(removed, list):
            raise self.error("removed_tiles", "expected a list of space numbers")
        removed_spaces = tuple(sorted({self.tile_ref("removed_tiles", v) for v in removed}))
        first = self.data.get("first_game")
        if not isinstance(first, dict) or set(first) != {COLOUR_NAMES[e] for e in EMPIRES}:
            raise self.error("first_game", "expected { orange = N, yellow = N, green = N, violet = N }")
        first_game = tuple(self.tile_ref("first_game", first[COLOUR_NAMES[e]]) for e in EMPIRES)
        if len(set(first_game)) != 4:
            raise self.error("first_game", "the four empires need four different spaces")
        tiles = tuple(s for s in range(1, self.size) if s not in removed_spaces)
        if set(first_game) - set(tiles):
            raise self.error("first_game", "a first-game empire space has its tile removed (see removed_tiles)")
        if not tiles:
            raise self.error("removed_tiles", "every tile is removed; the game needs tiles")
        inside = set(tiles) | {TYROS}
        apart = sorted(set(tiles) - reachable([tiles[0]], lambda t: land[t] & inside))
        if apart:
            raise self.error("removed_tiles", f"spaces {apart} are cut off on land from the other spaces with tiles; "
                             "their tiles could never be played")
        return tiles, removed_spaces, first_game

    def tile_ref(self, key: str, value) -> int:
        if isinstance(value, int) and not isinstance(value, bool) and 1 <= value < self.size:
            return value
        raise self.error(key, f"unknown space {value!r}; expected a space number from 1 to {self.size - 1}")
