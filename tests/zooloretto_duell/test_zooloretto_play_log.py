"""The Zooloretto Duell play log: every action in plain words, then what it caused (symbols, interim scorings,
the final round, round ends, the final scoring per player), and the same game whether or not anybody listens."""

from __future__ import annotations

import re

import numpy as np

from tyrsim.core.engine.rng import task_rng
from tyrsim.core.engine.runner import play
from tyrsim.games.zooloretto_duell import SPEC
from tyrsim.games.zooloretto_duell.actions import DISPOSE, Donate, Steal, TakeTruck
from tyrsim.games.zooloretto_duell.cards import SPECIES
from tyrsim.games.zooloretto_duell.rules import Rules

BISON, BEAR, ANTELOPE, TIGER = (SPECIES.index(s) for s in ("bison", "bear", "antelope", "tiger"))
PYTHON_REPR = re.compile(r"[A-Za-z_]\(|[\[\]{}=]|\bnan\b|None")  # Class(...), card(symbol), lists, key=value


def logged_game(seed: int, policies=("heuristic", "greedy")):
    lines: list[str] = []
    game = SPEC.make_game(Rules(), 2)
    record = play(game, [SPEC.make_policy(p) for p in policies], task_rng(seed, 0, 0), log=lines.append)
    return record, lines


def narrate(state):
    state.narration = []
    return state


def take(state, truck):
    state.apply(TakeTruck(truck, tuple(state.trucks[truck])))


def test_a_fixed_seed_log_shows_round_ends_and_each_players_final_scoring():
    record, lines = logged_game(1)
    narrated = [line.strip() for line in lines if line.startswith("    ")]
    assert "Round 1 ends" in narrated and any(line.startswith("Round 2 begins with P") for line in narrated)
    assert any(line.startswith("Interim scoring of the ") for line in narrated)
    assert any(line.startswith("this is the final round (") for line in narrated)
    assert any(line.startswith("Final scoring; animals per enclosure, P0-P1: gorilla ") for line in narrated)
    scoring = {int(m[1]): (int(m[2]), m[3]) for line in narrated if (m := re.match(r"P(\d) scores (\d+): (.*)", line))}
    assert sorted(scoring) == [0, 1]
    for seat, (total, parts) in scoring.items():
        assert total == record.scores[seat]
        # markers (each listed) + majorities + coins - minus points: the sum of the parts the log names
        markers, majority, coins, minus = parts.split("; ")
        listed = re.search(r"\((.*)\)", markers)
        points = int(markers.split()[0]) if listed else 0
        assert points == (sum(int(x) for x in listed[1].split(", ")) if listed else 0)
        minus_points = int(minus.split()[1]) if minus.startswith("minus") else 0
        assert total == points + int(majority.split()[0]) + int(coins.split()[0]) - minus_points
    for line in lines:
        assert not PYTHON_REPR.search(line), line


def test_results_are_the_same_with_and_without_a_log():
    # the search plays on clones and determinizations, which must neither narrate nor change the game
    for seed, policies in ((1, ("heuristic", "greedy")), (2, ("ismcts:iterations=20", "heuristic"))):
        record, _ = logged_game(seed, policies)
        quiet = play(SPEC.make_game(Rules(), 2), [SPEC.make_policy(p) for p in policies], task_rng(seed, 0, 0))
        assert (quiet.scores, quiet.winners, quiet.stats, quiet.actions) == (
            record.scores, record.winners, record.stats, record.actions)


def test_nobody_listens_to_a_copy(state, pick):
    narrate(state)
    assert state.clone().narration is None
    assert state.determinize(0, np.random.default_rng(0)).narration is None
    assert state.with_cards(0, [pick("bison")])[0].narration is None
    assert state.narration == []


def test_describe_names_cards_and_costs_in_words(state, pick):
    state.trucks[1] = [pick("bear", "heart"), pick("red", "drink")]
    assert state.describe(TakeTruck(1, tuple(state.trucks[1]))) == \
        "take truck 2 (bear with heart, red drink stand) and quit the round"
    antelope = pick("antelope")
    state.pens[1][SPECIES.index("antelope")] = [antelope]
    state.coins[0], state.minus[0] = 2, 3
    assert state.describe(Steal(antelope)) == "pay 2 coins to steal an antelope from P1's zoo"
    assert state.describe(DISPOSE) == "pay 2 coins to return all 3 minus points"
    state.minus[0] = 0  # rule dispose_without_minus offers it as a paid pass
    assert state.describe(DISPOSE) == "pay 2 coins to dispose of minus points while holding none"


def test_symbols_and_an_interim_scoring_are_narrated(state, pick):
    narrate(state)
    state.pens[1][BISON] = [pick("bison")]
    state.pens[0][BISON] = [pick("bison")]
    state.trucks[1] = [pick("bison", "lightning"), pick("bison", "lightning")]  # 2 + 2 = 4, the bison's target
    take(state, 1)
    assert state.narration == [
        "P0's second bison with lightning: 1 minus point",
        "Interim scoring of the bison enclosures (target 4): P0 has more, 3 to 1",
        "P0 takes the top scoring marker: 4 points",
    ]


def test_a_tie_at_the_target_is_narrated_once(state, pick):
    narrate(state)
    state.pens[0][BEAR] = [pick("bear"), pick("bear", "lightning")]
    state.pens[1][BEAR] = [pick("bear", "heart"), pick("bear", "heart"), pick("bear", "lightning")]
    state.trucks[0] = [pick("bear")]
    take(state, 0)
    assert state.narration == ["the bear enclosures reach their target of 6 tied 3 to 3: "
                               "the scoring waits until one player has more"]


def end_final_round(state, pick, minus0: int):
    """P0: gorilla 1, bison 2, 3 coins, `minus0` minus points; P1: one bear, 1 coin, the 4-point marker.
    P0 takes the small truck and P1 quits without one: the final round and the game end."""
    state.final_round = True
    state.pens[0][BISON] = [pick("bison"), pick("bison")]
    state.pens[1][BEAR] = [pick("bear")]
    state.coins, state.minus = [3, 1], [minus0, 0]
    state.won[1] = [state.markers.pop(0)]
    state.trucks[0] = [pick("gorilla")]
    take(state, 0)
    state.apply(state.legal_actions()[0])
    assert state.is_terminal()


def test_the_final_scoring_names_each_part(state, pick):
    narrate(state)
    end_final_round(state, pick, minus0=3)
    assert state.narration[-4:] == [
        "Round 1 (the final round) ends",
        "Final scoring; animals per enclosure, P0-P1: gorilla 1-0, bison 2-0, antelope 0-0, bear 0-1, tiger 0-0, "
        "hyena 0-0; stands 0-0",
        "P0 scores 0: no scoring markers; 2 for the most animals in the gorilla and bison enclosures; "
        "1 for 3 coins; minus 3 for minus points",
        "P1 scores 5: 4 from scoring markers (4); 1 for the most animals in the bear enclosure; 0 for 1 coin; "
        "no minus points",
    ]
    assert state.scores() == [0.0, 5.0]


def test_a_tie_on_points_goes_to_the_most_coins(state, pick):
    narrate(state)
    state.won[0] = [state.markers.pop(1)]  # the 3-point marker
    end_final_round(state, pick, minus0=1)  # P0: 3 + 2 + 1 - 1 = 5, like P1
    assert state.narration[-1] == "P0 and P1 tie on 5 points; P0 wins with more coins (3 to 1)"


def test_each_symbol_action_is_narrated_with_what_it_did(table):
    # a heart whose offspring is gone, and a square with nothing on the discard pile to take
    state, pick = table(Rules())
    narrate(state)
    state.offspring[TIGER] = None
    state.pens[0][TIGER], state.pens[0][ANTELOPE] = [pick("tiger", "heart")], [pick("antelope", "square")]
    state.trucks[1] = [pick("tiger", "heart"), pick("antelope", "square")]
    take(state, 1)
    assert state.narration == [
        "P0's second tiger with heart: the tiger offspring is already gone",
        "P0's second antelope with square: the square goes to waste (the discard pile is empty)",
    ]
    # a square's donation, whose own square goes to waste
    state, pick = table(Rules())
    narrate(state)
    tiger = pick("tiger", "square")
    state.discard = [tiger]
    state.pens[0][TIGER] = [pick("tiger", "square")]
    state.trucks[1] = [pick("hyena", "square"), pick("hyena", "square")]
    take(state, 1)
    state.apply(Donate(tiger))
    assert state.narration == [
        "P0's second hyena with square: P0 takes a card of their choice from the discard pile",
        "P0's second tiger with square: the square goes to waste (the card came by a square)",
    ]
    # the other reading of "an additional square": the truck's second square goes to waste
    state, pick = table(Rules(one_square_per_turn=True))
    narrate(state)
    gorilla = pick("gorilla")
    state.discard = [gorilla, pick("bison")]
    state.pens[0][ANTELOPE], state.pens[0][TIGER] = [pick("antelope", "square")], [pick("tiger", "square")]
    state.trucks[1] = [pick("antelope", "square"), pick("tiger", "square")]
    take(state, 1)
    state.apply(Donate(gorilla))
    assert state.narration == [
        "P0's second antelope with square: P0 takes a card of their choice from the discard pile",
        "P0's second tiger with square: the square goes to waste (only the turn's first square is carried out)",
    ]


def test_the_third_symbol_and_the_vending_stands_are_narrated(state, pick):
    narrate(state)
    state.pens[0][BEAR] = [pick("bear", "lightning"), pick("bear", "lightning")]
    state.stands[0] = [pick("red", "drink"), pick("green", "drink"), pick("blue", "pretzel")]
    state.trucks[1] = [pick("bear", "lightning"), pick("yellow", "drink")]
    take(state, 1)
    assert state.narration == [
        "P0's third bear with lightning goes to the discard pile: 1 minus point",
        "P0's third drink stand goes to the discard pile: 1 minus point",
    ]
    state.narration.clear()
    state.taken, state.to_move = [None, None], 0  # P0 moves again
    marker = state.markers[0]
    state.trucks[0] = [pick("yellow", "pretzel")]
    take(state, 0)
    assert state.narration == [
        "P0's second pretzel stand: 1 coin",
        "Interim scoring: P0 is the first with stands of all four colours",
        f"P0 takes the top scoring marker: {marker.points} points" + (" and a coin" if marker.coin else ""),
    ]
