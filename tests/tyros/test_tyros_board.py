"""The reconstructed board against every route and adjacency fact in the rulebook."""

import numpy as np
import pytest

from tyrsim.core.engine.datafile import DataFileError
from tyrsim.core.engine.protocols import RandomPolicy
from tyrsim.core.engine.runner import play
from tyrsim.games.tyros.board import TYROS, load_board, parse_board
from tyrsim.games.tyros.expansion import simulate_expansion
from tyrsim.games.tyros.game import TyrosGame
from tyrsim.games.tyros.rules import Rules

# the bundled reconstruction and the alternative readings of its unprinted parts (rule `board`)
BOARD_FILES = ["", *Rules.rulings()["board"]]
BOARDS = {name or "board.toml": load_board(name) for name in BOARD_FILES}


def moves(route):
    return len(route) - 1


@pytest.mark.parametrize(
    "route",
    [
        ["tyros", 32, 28, 24, 23],  # "From Tyros, one can reach space 23 by moving this way: 32-28-24-23"
        ["tyros", 31, 27, 22, 23],  # "An alternate route would be: 31-27-22-23"
        [31, 30, 26, 25, 29],  # "from space 31 to 29 ... 31-30-26-25-29"
        [22, 17, 12, 8],  # "The shortest way from 22 to 8"
        [22, 17, 16, 15],  # "The shortest connection from 22 to 15"
        [15, 16, 17, 16, 11, 10],  # round the boot, through 16 twice
        [15, 16, 17, 12, 11, 10],  # "It would also be possible"
    ],
)
@pytest.mark.parametrize("board", BOARDS)
def test_rulebook_routes_are_routes(route, board):
    assert BOARDS[board].is_route(route)


@pytest.mark.parametrize("route", [[31, 30, 29], [26, 21, 16], [15, 10]])
@pytest.mark.parametrize("board", BOARDS)
def test_rulebook_forbidden_routes_are_not_routes(route, board):
    assert not BOARDS[board].is_route(route)


@pytest.mark.parametrize("name", BOARDS)
def test_forbidden_routes_cross_land_between_grid_neighbours(name):
    board = BOARDS[name]
    # "no direct sea connections": the spaces touch on the map but not by sea
    for a, b in [(30, 29), (15, 10)]:
        assert b in board.land[a]
    assert 21 in board.land[26] and 16 in board.land[21]


@pytest.mark.parametrize("name", BOARDS)
def test_shortest_route_22_to_8_takes_three_moves(name):
    board = BOARDS[name]
    assert board.shortest_route(22, 8) == [22, 17, 12, 8]


@pytest.mark.parametrize("name", BOARDS)
def test_shortest_route_22_to_15_goes_round_the_toe(name):
    board = BOARDS[name]
    assert board.shortest_route(22, 15) == [22, 17, 16, 15]


@pytest.mark.parametrize("name", BOARDS)
def test_no_route_from_15_to_10_is_shorter_than_five_moves(name):
    board = BOARDS[name]
    route = board.shortest_route(15, 10)
    assert moves(route) == 5
    assert route in ([15, 16, 17, 16, 11, 10], [15, 16, 17, 12, 11, 10])


@pytest.mark.parametrize("name", BOARDS)
def test_tyros_to_23_takes_four_moves_round_the_open_sea(name):
    board = BOARDS[name]
    assert moves(board.shortest_route("tyros", 23)) == 4


@pytest.mark.parametrize("name", BOARDS)
def test_31_and_32_are_next_to_tyros(name):
    board = BOARDS[name]
    assert board.land[TYROS] == {31, 32}
    assert board.is_route(["tyros", 31]) and board.is_route(["tyros", 32])


@pytest.mark.parametrize("name", BOARDS)
def test_first_game_empires_are_pairwise_non_adjacent(name):
    board = BOARDS[name]
    assert board.first_game == (7, 13, 23, 26)
    for a in board.first_game:
        assert not board.land[a] & set(board.first_game)


@pytest.mark.parametrize("name", BOARDS)
def test_italy_has_a_west_and_an_east_coast_and_ships_are_built_on_the_west(name):
    board = BOARDS[name]
    west, east = (board.coasts[c] for c in board.space_coasts[16])
    assert (west.name, east.name) == ("west", "east")
    assert board.is_route([15, 16]) and board.is_route([11, 16])
    assert not board.is_route([15, 16, 11])  # the two coasts are not joined without going round


@pytest.mark.parametrize("name", BOARDS)
def test_land_adjacency_is_the_grid(name):
    board = BOARDS[name]
    for s in board.spaces:
        r, c = board.cells[s]
        grid = {t for t in board.spaces if abs(board.cells[t][0] - r) + abs(board.cells[t][1] - c) == 1}
        assert board.land[s] == grid


@pytest.mark.parametrize("name", BOARDS)
def test_sea_connections_join_grid_neighbours_only(name):
    board = BOARDS[name]
    for c, coast in enumerate(board.coasts):
        for d in board.sea[c]:
            assert board.coasts[d].space in board.land[coast.space]


@pytest.mark.parametrize("name", BOARDS)
def test_open_sea_is_not_a_space(name):
    board = BOARDS[name]
    assert board.open_sea not in board.cells


@pytest.mark.parametrize("name", BOARDS)
def test_removed_tiles_are_three_and_leave_29_tiles(name):
    board = BOARDS[name]
    assert len(board.removed_tiles) == 3
    assert len(board.tiles) == 29
    assert TYROS not in board.tiles


@pytest.mark.parametrize("name", BOARDS)
def test_every_space_is_on_the_coast(name):
    board = BOARDS[name]
    assert all(any(board.sea[c] for c in board.space_coasts[s]) for s in board.spaces)


def shortest_routes(board, start, end) -> int:
    """How many shortest chains of coasts join `start` to `end`."""
    a, b = board.space_coasts[board.space_of(start)], set(board.space_coasts[board.space_of(end)])
    ways, frontier = {c: 1 for c in a}, set(a)
    while frontier and not frontier & b:
        following: dict[int, int] = {}
        for c in frontier:
            for d in board.sea[c]:
                if d not in ways:
                    following[d] = following.get(d, 0) + ways[c]
        ways.update(following)
        frontier = set(following)
    return sum(ways[c] for c in frontier & b)


@pytest.mark.parametrize("name", BOARDS)
def test_the_rulebooks_shortest_routes_are_the_only_shortest_ones(name):
    # "The shortest way from 22 to 8: 22-17-12-8", "The shortest connection from 22 to 15: 22-17-16-15"
    assert shortest_routes(BOARDS[name], 22, 8) == 1
    assert shortest_routes(BOARDS[name], 22, 15) == 1


def sea_links(board) -> set[frozenset[str]]:
    return {frozenset((board.coasts[c].label, board.coasts[d].label)) for c in range(len(board.coasts))
            for d in board.sea[c]}


def test_the_alternative_board_differs_from_the_reconstruction_only_in_guessed_sea_connections():
    base, alt = BOARDS["board.toml"], BOARDS["bundled:board_alt.toml"]
    assert (alt.land, alt.tiles, alt.first_game, alt.cells) == (base.land, base.tiles, base.first_game, base.cells)
    pairs = [frozenset(p.split("-")) for p in ("2-6", "6-10", "7-11", "9-10", "20-21", "21-26", "26-27")]
    dropped = [frozenset(p.split("-")) for p in ("1-5", "2-3", "3-4", "5-9", "6-7", "7-8", "9-14", "13-14", "14-15",
                                                   "15-20", "20-25", "21-22")]
    assert sea_links(alt) - sea_links(base) == set(pairs)
    assert sea_links(base) - sea_links(alt) == set(dropped)


def test_the_eastern_board_moves_only_the_unprinted_spaces_9_13_and_18():
    base, east = BOARDS["board.toml"], BOARDS["bundled:board_east.toml"]
    moved = [s for s in base.spaces if base.cells[s] != east.cells[s]]
    assert moved == [9, 13, 18]
    # the first-game yellow (13) and green (23) empires get three neighbours each, as orange (7) has
    assert [len(east.land[s] - set(east.removed_tiles)) for s in east.first_game] == [3, 3, 3, 4]
    assert [len(base.land[s] - set(base.removed_tiles)) for s in base.first_game] == [3, 2, 2, 4]


MINI = """
removed_tiles = []
first_game = { orange = 1, yellow = 3, green = 5, violet = 7 }
[spaces.tyros]
land = [1]
sea = ["1"]
[spaces.1]
land = ["tyros", 2]
sea = ["tyros", "2"]
[spaces.2]
land = [1, 3]
sea = ["1", "3"]
[spaces.3]
land = [2, 4]
sea = ["2", "4"]
[spaces.4]
land = [3, 5]
sea = ["3", "5"]
[spaces.5]
land = [4, 6]
sea = ["4", "6"]
[spaces.6]
land = [5, 7]
sea = ["5", "7"]
[spaces.7]
land = [6]
sea = ["6"]
"""


def test_a_users_board_file_loads(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text(MINI)
    board = load_board(path)
    assert board.size == 8 and board.shortest_route("tyros", 7) == ["tyros", 1, 2, 3, 4, 5, 6, 7]


@pytest.mark.parametrize(
    "change, words",
    [
        (('land = [5, 7]\nsea = ["5", "7"]\n[spaces.7]', 'land = [5, 9]\nsea = ["5", "7"]\n[spaces.7]'),
         ["mine.toml", "spaces.6", "unknown space 9"]),
        (('[spaces.7]\nland = [6]', '[spaces.7]\nland = []'), ["mine.toml", "spaces.6", "symmetric"]),
        (('[spaces.7]\nland = [6]\nsea = ["6"]', '[spaces.7]\nland = [6]\nsea = []'),
         ["mine.toml", "spaces.6", "sea", "symmetric"]),
        (('land = [5, 7]\nsea = ["5", "7"]', 'land = [5, 7]\nsea = ["5"]'), ["mine.toml", "spaces.7", "symmetric"]),
        (('sea = ["3", "5"]', 'sea = ["3"]'), ["mine.toml", "spaces.5", "symmetric"]),
        (('[spaces.1]', '[spaces.one]'), ["mine.toml", "spaces.one", "unknown space name"]),
    ],
)
def test_bad_board_files_name_the_file_and_key(tmp_path, change, words):
    old, new = change
    assert old in MINI
    path = tmp_path / "mine.toml"
    path.write_text(MINI.replace(old, new, 1))
    with pytest.raises(DataFileError) as error:
        load_board(path)
    for word in words:
        assert word in str(error.value)


def test_unreachable_tyros_is_an_error():
    text = MINI.replace('[spaces.4]\nland = [3, 5]\nsea = ["3", "5"]', '[spaces.4]\nland = [3, 5]\nsea = []')
    text = text.replace('sea = ["2", "4"]', 'sea = ["2"]').replace('sea = ["4", "6"]', 'sea = ["6"]')
    with pytest.raises(DataFileError, match=r"mine.toml: \[spaces.tyros\] sea: Tyros cannot be reached by sea from "
                                         r"spaces 4, 5, 6, 7"):
        parse_board(text, "mine.toml")


def test_a_space_with_several_coasts_must_be_named():
    text = MINI.replace('[spaces.2]\nland = [1, 3]\nsea = ["1", "3"]',
                        '[spaces.2]\nland = [1, 3]\ncoasts = ["north", "south"]\n'
                        'sea = { north = ["1", "3"], south = ["3"] }')
    with pytest.raises(DataFileError, match="several coasts"):
        parse_board(text, "mine.toml")
    text = text.replace('sea = ["tyros", "2"]', 'sea = ["tyros", "2:north"]').replace(
        '[spaces.3]\nland = [2, 4]\nsea = ["2", "4"]', '[spaces.3]\nland = [2, 4]\nsea = ["2:north", "2:south", "4"]')
    board = parse_board(text, "mine.toml")
    assert len(board.space_coasts[2]) == 2
    assert board.is_route([1, 2, 3]) and board.shortest_route(1, 3) == [1, 2, 3]


def test_missing_board_file_is_a_clear_error(tmp_path):
    with pytest.raises(DataFileError, match="nothing.toml: cannot read the file"):
        load_board(tmp_path / "nothing.toml")


def test_engine_and_kernel_play_on_a_users_board(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text(MINI)
    rules = Rules(board=str(path), setup="first-game")
    record = play(TyrosGame(rules, 3), [RandomPolicy()] * 3, np.random.default_rng(0))
    # three tiles, all dealt to the first player, who plays one per pass; the others have none, so one round
    assert record.stats["rounds"] == 1 and record.stats["tiles_left"] == 1
    raw = simulate_expansion(rules, 3, 100, np.random.default_rng(0))
    assert (raw["rounds"] == 1).all() and (raw["tiles_left"] == 1).all()


@pytest.mark.parametrize(
    "extra, words",
    [
        ("removed_tile = [1]\n", ["mine.toml", "removed_tile", "unknown key", "removed_tiles"]),
        ("open_sea = [5]\n", ["mine.toml", "open_sea", "[row, column]"]),
    ],
)
def test_unknown_keys_and_a_bad_open_sea_are_errors(extra, words):
    with pytest.raises(DataFileError) as error:
        parse_board(extra + MINI, "mine.toml")
    for word in words:
        assert word in str(error.value)
