"""The Tyros play log: every action in plain words, then what it caused (tolls, first cities, round ends,
the final scoring per player), and the same game whether or not anybody listens."""

import re

import numpy as np
from tyros_positions import cards, scripted

from tyrsim.core.engine.rng import task_rng
from tyrsim.core.engine.runner import play
from tyrsim.games.tyros import SPEC
from tyrsim.games.tyros.actions import (
    Accept,
    BankBuy,
    BuildCity,
    BuildShip,
    Keep,
    MoveShip,
    Offer,
    Pass,
    Refuse,
    TradeWith,
)
from tyrsim.games.tyros.components import GREEN, ORANGE, VIOLET, YELLOW
from tyrsim.games.tyros.game import KEEP, OFFER, PARTNER
from tyrsim.games.tyros.narration import final_scoring
from tyrsim.games.tyros.rules import Rules
from tyrsim.games.tyros.scoring import score_game

POLICIES = ("planner", "greedy", "random", "planner")
FIRST_GAME = {7: ORANGE, 13: YELLOW, 23: GREEN, 26: VIOLET}


def board(**sizes):
    """Chips: orange on spaces 4, 5, ..., then yellow, green and violet on the spaces that follow (as in
    test_tyros_scoring)."""
    chips, space = [-1] * 33, 4
    for colour, name in enumerate(("orange", "yellow", "green", "violet")):
        for _ in range(sizes[name]):
            chips[space], space = colour, space + 1
    return chips


PYTHON_REPR = re.compile(r"[A-Za-z_]\(|[\[\]{}=]|\bnan\b|None")  # Class(...), lists, dicts, key=value


def logged_game(seed=1, policies=POLICIES):
    lines = []
    game = SPEC.make_game(Rules(), len(policies))
    record = play(game, [SPEC.make_policy(p) for p in policies], task_rng(seed, 0, 0), log=lines.append)
    return record, lines


def test_a_fixed_seed_log_shows_round_ends_and_each_players_final_scoring():
    record, lines = logged_game()
    narrated = [line.strip() for line in lines if line.startswith("    ")]
    assert any(line.startswith("Round 1 ends") for line in narrated)
    assert any(line.startswith("Round 2 begins: P1 starts") for line in narrated)
    assert any(line.startswith("Game over: ") for line in narrated)
    scoring = {int(m[1]): (int(m[2]), m[3]) for line in narrated if (m := re.match(r"P(\d) scores (\d+): (.*)", line))}
    assert sorted(scoring) == [0, 1, 2, 3]
    for seat, (total, parts) in scoring.items():
        # the score the log prints is the game's, and it is the sum of the reasons it gives
        assert total == record.scores[seat]
        assert total == sum(int(p.split(" for ")[0]) for p in parts.split("; ") if p != "nothing")
    for line in lines:
        assert not PYTHON_REPR.search(line), line


def test_results_are_the_same_with_and_without_a_log():
    # the search plays on copies and determinizations, which must not narrate nor change the game
    for seed, policies in ((1, POLICIES), (2, ("ismcts:iterations=10", "greedy", "random", "planner"))):
        record, _ = logged_game(seed, policies)
        game = SPEC.make_game(Rules(), 4)
        quiet = play(game, [SPEC.make_policy(p) for p in policies], task_rng(seed, 0, 0))
        assert (quiet.scores, quiet.winners, quiet.stats, quiet.actions) == (
            record.scores, record.winners, record.stats, record.actions)


def test_nobody_listens_to_a_copy_or_a_determinization():
    state = scripted()
    assert state.narration is None
    state.narration = []
    assert state.clone().narration is None
    assert state.determinize(0, np.random.default_rng(0)).narration is None
    state.apply(Pass())
    assert state.narration == []  # a pass that does not end the round causes nothing


def test_describe_names_costs_and_whose_offer_is_answered():
    state = scripted(hands={0: cards(green=4, wild=1), 1: cards(yellow=1)}, chips=FIRST_GAME, ships={0: ["tyros"]})
    assert state.describe(MoveShip("tyros", "23")) == "move a ship from Tyros to 23, paying green+green+green+green"
    state.apply(Offer((GREEN,), (YELLOW,)))
    assert state.phase == OFFER
    assert state.describe(Accept()) == "accept P0's offer: give yellow, get green"
    assert repr(BankBuy((GREEN,) * 3, ORANGE)) == "discard green+green+green for an orange card from the discard pile"


def test_a_city_and_a_toll_are_narrated():
    state = scripted(hands={0: cards(green=5), 1: cards(green=4, orange=1)}, chips=FIRST_GAME,
                     ships={0: ["23"], 1: ["tyros"]})
    state.narration = []
    assert state.describe(BuildCity(23)) == "build a city in 23 (green), paying green+green+green+green+green"
    state.apply(BuildCity(23))
    assert state.narration == ["P0 builds the first city in the green empire"]
    state.narration.clear()
    move = next(a for a in state.legal_actions() if isinstance(a, MoveShip) and a.end == "23")
    state.apply(move)
    assert state.narration == ["P1 pays P0 a toll of one orange card (P0's city in 23)"]


def test_the_players_choices_of_cards_and_partner_are_in_plain_words():
    state = scripted(hands={0: cards(green=4, violet=2), 1: cards(orange=1), 3: cards(orange=1)}, chips=FIRST_GAME,
                     ships={0: ["tyros"]}, cities={23: 1})
    toll = MoveShip("tyros", "23", VIOLET)
    assert repr(toll) == "move ship tyros -> 23, violet card as toll"
    assert state.describe(toll) == ("move a ship from Tyros to 23, paying green+green+green+green, "
                                    "and give P1 one violet card as toll")
    assert state.describe(BuildShip(0, (GREEN, VIOLET))) == "build a ship in Tyros, paying green+violet"
    state.narration = []
    state.apply(Offer((VIOLET,), (ORANGE,)))
    for answer in (Accept(), Refuse(), Accept()):
        state.apply(answer)
    assert state.phase == PARTNER
    assert repr(TradeWith(3)) == "trade with P3"
    assert state.describe(TradeWith(3)) == "trade with P3 (P1 and P3 accepted): give violet, get orange"
    state.apply(TradeWith(3))
    assert state.narration == ["P0 trades with P3: gives violet, gets orange"]


def test_keeping_cards_says_what_is_discarded():
    state = scripted(hands={0: cards(green=2, violet=2, wild=1)})
    state.phase, state.keepers = KEEP, [0]
    assert state.describe(Keep((GREEN, GREEN, 4))) == "keep green+green+wild, discard violet+violet"


def test_the_scoring_items_add_up_and_name_the_removed_ships():
    chips = board(orange=6, yellow=6, green=3, violet=2)  # the rulebook-order example of test_tyros_scoring
    cities = [-1] * 33
    cities[4] = cities[5] = 0
    cities[10] = cities[16] = cities[19] = 1
    cities[6] = 2
    items = []
    scores = score_game(Rules(), 3, chips, cities, [[4, 11, 11], [12, 20], [12, 17, 30]], 1, items=items)
    for p, score in enumerate(scores):
        assert sum(points for who, points, _ in items if who == p) == score.total
    removed = [why for who, _, why in items if who < 0]
    assert removed == ["ships in 4 are removed (a city stands there)",
                       "ships in 12 are removed (more than one player has ships there)"]
    assert (0, 12, "the city in 4 (orange, largest)") in items
    assert (1, 3, "ships in 20 (violet, smallest)") in items


def test_a_tie_on_the_total_is_narrated_with_its_tie_break():
    # test_tyros_scoring's tie: both 25, player 0's points all in orange, the largest empire
    chips = {space: colour for space, colour in enumerate(board(orange=5, yellow=4, green=1, violet=1)) if colour >= 0}
    state = scripted(players=3, chips=chips, cities={4: 0, 9: 1}, ships={0: ["5"], 1: ["10", "14"]})
    assert final_scoring(state)[-4:] == [
        "P0 scores 25: 7 for the most cities in orange (1 city); 12 for the city in 4 (orange, largest); "
        "6 for ships in 5 (orange, largest)",
        "P1 scores 25: 7 for the most cities in yellow (1 city); 10 for the city in 9 (yellow, second largest); "
        "5 for ships in 10 (yellow, second largest); 3 for ships in 14 (violet, smallest)",
        "P2 scores 0: nothing",
        "P0 and P1 tie on 25 points; P0 wins with the most points in the largest empire, orange (25)",
    ]
