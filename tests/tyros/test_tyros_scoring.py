"""The scoring procedure on hand-built final positions."""

from tyrsim.games.tyros.board import TYROS
from tyrsim.games.tyros.components import GREEN, ORANGE, VIOLET, YELLOW
from tyrsim.games.tyros.rules import Rules
from tyrsim.games.tyros.scoring import empire_sizes, score_game, size_ranks, winners

RULES = Rules()


def board(**sizes):
    """Chips: orange on spaces 4, 5, ..., then yellow, green and violet on the spaces that follow."""
    chips = [-1] * 33
    space = 4
    for colour, name in enumerate(("orange", "yellow", "green", "violet")):
        for _ in range(sizes[name]):
            chips[space] = colour
            space += 1
    return chips


def test_equal_sizes_rank_orange_yellow_green_violet():
    assert size_ranks([5, 5, 5, 5]) == [0, 1, 2, 3]
    assert size_ranks([3, 7, 7, 2]) == [2, 0, 1, 3]
    assert size_ranks([4, 4, 9, 4]) == [1, 2, 0, 3]


def test_tyros_counts_for_its_empires_size_by_the_ruling():
    chips = board(orange=2, yellow=2, green=1, violet=1)
    chips[TYROS] = YELLOW
    assert empire_sizes(chips, RULES) == [2, 3, 1, 1]
    assert empire_sizes(chips, Rules(tyros_counts_for_size=False)) == [2, 2, 1, 1]


def test_hand_built_final_position():
    # sizes: orange 6, yellow 6, green 3, violet 2 -> ranks orange 1st, yellow 2nd (tie order), green 3rd, violet 4th
    chips = board(orange=6, yellow=6, green=3, violet=2)
    # spaces: orange 4-9, yellow 10-15, green 16-18, violet 19-20
    cities = [-1] * 33
    cities[4] = 0  # orange city, player 0: 12
    cities[5] = 0  # orange city, player 0: 12
    cities[10] = 1  # yellow city, player 1: 10
    cities[16] = 1  # green city, player 1: 9
    cities[19] = 1  # violet city, player 1: 8
    cities[6] = 2  # orange city, player 2: 12
    ships = [
        [4, 11, 11],  # player 0: ship in own city (removed); two alone on 11 (yellow: 5)
        [12, 20],  # player 1: 12 shared with player 2 (removed); alone on 20 (violet: 3)
        [12, 17, 30],  # player 2: 17 alone (green: 4); 30 has no chip: nothing
    ]
    scores = score_game(RULES, 3, chips, cities, ships, all_empires_first=1)
    assert [s.city_points for s in scores] == [24, 27, 12]
    assert [s.ship_points for s in scores] == [5, 3, 4]
    # most cities: orange player 0 (2 vs 1); yellow, green, violet player 1 alone
    assert [s.most_cities_bonus for s in scores] == [7, 21, 0]
    assert [s.all_empires_bonus for s in scores] == [0, 7, 0]
    assert [s.total for s in scores] == [36, 58, 16]
    assert winners(scores) == [1]


def test_tied_cities_give_no_majority_bonus():
    chips = board(orange=4, yellow=1, green=1, violet=1)
    cities = [-1] * 33
    cities[4], cities[5] = 0, 1
    scores = score_game(RULES, 3, chips, cities, [[], [], []], all_empires_first=-1)
    assert [s.most_cities_bonus for s in scores] == [0, 0, 0]
    assert [s.total for s in scores] == [12, 12, 0]


def test_ties_on_the_total_go_to_the_most_points_in_the_largest_empire():
    chips = board(orange=5, yellow=4, green=1, violet=1)
    cities = [-1] * 33
    # player 0: orange city 12 + orange ship 6 = 18, majority orange 7 -> 25 all in orange
    cities[4] = 0
    # player 1: yellow city 10 + yellow ship 5, majority yellow 7, violet ship 3 -> 25, none in orange
    cities[9] = 1
    ships = [[5], [10, 14]]
    scores = score_game(RULES, 2, chips, cities, ships, all_empires_first=-1)
    assert [s.total for s in scores] == [25, 25]
    assert scores[0].largest_empire_points == 25 and scores[1].largest_empire_points == 0
    assert winners(scores) == [0]


def test_a_full_tie_is_shared():
    chips = board(orange=1, yellow=1, green=1, violet=1)
    scores = score_game(RULES, 2, chips, [-1] * 33, [[6], [7]], all_empires_first=-1)
    assert [s.total for s in scores] == [4, 3]
    scores = score_game(RULES, 2, chips, [-1] * 33, [[6], [6]], all_empires_first=-1)
    assert winners(scores) == [0, 1]


def test_the_four_colours_are_named_in_tie_order():
    assert (ORANGE, YELLOW, GREEN, VIOLET) == (0, 1, 2, 3)


def test_a_ship_in_another_players_city_is_removed_and_scores_nothing():
    chips = board(orange=2, yellow=1, green=1, violet=1)
    cities = [-1] * 33
    cities[4] = 0
    scores = score_game(RULES, 2, chips, cities, [[], [4, 5]], all_empires_first=-1)
    assert [s.city_points for s in scores] == [12, 0]
    assert [s.ship_points for s in scores] == [0, 6]  # only the ship alone on 5 (orange) scores
