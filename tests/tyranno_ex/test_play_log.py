"""Tyranno Ex play logs: actions in plain words, each fight's rolls and outcome, each scoring, the end;
and a log that changes nothing about the game it tells."""

from __future__ import annotations

import re

import numpy as np
import pytest
from click.testing import CliRunner
from test_game_rules import BONE, LEAF, SUN, WATER, card, environment_phase, fixed_fight, scripted, spot
from tyranno_positions import put

from tyrsim.cli import main
from tyrsim.core.engine.runner import play
from tyrsim.games.tyranno_ex import SPEC, fights
from tyrsim.games.tyranno_ex.actions import SetChips
from tyrsim.games.tyranno_ex.combat import resolve_fight
from tyrsim.games.tyranno_ex.environment import OUTCOMES, Environment
from tyrsim.games.tyranno_ex.game import make_game
from tyrsim.games.tyranno_ex.narration import fight_lines, space_outcome
from tyrsim.games.tyranno_ex.rules import Rules

REPR = re.compile(r"\b[A-Z][A-Za-z]*\(")  # a dataclass repr: PlaceCard(, SetChips(, Challenge(, NoFight(
POLICIES = ("greedy", "aggressive", "builder", "random")


def test_cli_play_log_reads_as_a_play_by_play():
    result = CliRunner().invoke(main, ["play", "tyranno-ex", "--seed", "1"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert not [line for line in lines if REPR.search(line)]
    assert lines[0].startswith("P0: place ") and " from pile " in lines[0]
    assert any(re.match(r"P\d: \w+ \(row \d, strength \d, \d+ dic?e\) challenges P\d's ", line) for line in lines)
    rolls = [line for line in lines if re.match(r" {4}Roll 1: \w+ rolls [\d ]+ \(\d+ hits?\)", line)]
    assert rolls
    assert any(re.match(r" {4}\w+ wins 2:[01]: P\d's \w+ (is eliminated|turns face down)", line) for line in lines)
    assert any(re.match(r" {4}P\d scores \d+ \(\d+ in all\): \w+ \d+ \((row|special space) \d+", line)
               for line in lines)  # fmt: skip
    assert any(line.startswith("    Round 2: ") for line in lines)
    assert any(line.startswith("    The game ends: ") for line in lines)
    assert re.search(r" {4}P\d ends with \d+ points \(rows \d+, empty spaces \d+, special spaces \d+", result.output)
    assert re.search(r" {4}(P\d wins|.* share the victory)\.\n", result.output)


def _record(rules: Rules, players: int, seed: int, log) -> tuple:
    game = make_game(rules, players)
    record = play(game, [SPEC.make_policy(p) for p in POLICIES[:players]], np.random.default_rng(seed), log=log)
    return record.scores, record.winners, record.actions, repr(sorted(record.stats.items()))


@pytest.mark.parametrize(("overrides", "players"), [
    ({}, 4), ({"majority_tie": "chooser"}, 3), ({"track_tie_fight": "full_effects", "majority_tie": "random"}, 2),
    ({"majority": "over_half", "five_timing": "own_turn", "special_space_holds": "one"}, 4),
])  # fmt: skip
def test_a_log_changes_nothing_in_the_game(overrides, players):
    rules = Rules.from_overrides(overrides)
    lines: list[str] = []
    for seed in (3, 4):
        assert _record(rules, players, seed, lines.append) == _record(rules, players, seed, None)
    assert len(lines) > 200 and any("Roll 1: " in line for line in lines)


def test_copies_tell_nobody():
    state = make_game(Rules(), 4).new_state(np.random.default_rng(0))
    assert state.narration is None  # nobody listens unless a log says so
    state.narration = []
    assert state.clone().narration is None
    assert state.determinize(0, np.random.default_rng(1)).narration is None


@pytest.mark.parametrize(("overrides", "players"), [
    ({"majority_tie": "chooser", "five_timing": "own_turn"}, 4), ({"majority_tie": "chooser"}, 2),
])  # fmt: skip
def test_every_legal_action_is_described_in_words(overrides, players):
    seen = set()
    for seed in range(3):
        rng = np.random.default_rng(seed)
        state = make_game(Rules.from_overrides(overrides), players).new_state(rng)
        decision = 0
        while not state.is_terminal():
            actions = state.legal_actions()
            if decision % 3 == 0 or len(actions) < 30:  # every few decisions: the environment's lists are long
                for action in actions:
                    text = state.describe(action)
                    assert isinstance(text, str) and text and not REPR.search(text), (action, text)
                    seen.add(type(action).__name__)
            state.apply(actions[int(rng.integers(len(actions)))])
            decision += 1
    assert seen == {"PlaceCard", "Trade", "SetChips", "UseFive", "KeepFive", "ChooseSymbol", "Pass", "Challenge",
                    "NoFight"} - ({"KeepFive"} if "own_turn" in overrides.values() else set())  # fmt: skip


def test_every_outcome_on_a_space_has_its_words():
    env = Environment([SUN, SUN, SUN, SUN])
    env.potential[0] = [0, 2, 2, 0]  # 4 face-down chips against 1 sun: water and leaf tie
    said = {outcome: space_outcome(env, outcome, 0, 0, [WATER, LEAF], WATER) for outcome in OUTCOMES}
    assert said["change"] == ("Space 0: the 4 face-down chips (2 water, 2 leaf) outnumber the 1 sun: 2 water become "
                              "current and the 1 sun goes back to the bag.")  # fmt: skip
    assert said["tie_chooser"].endswith("; water and leaf tie for the most: the player who set the chips picks one.")
    assert len(set(said.values())) == len(OUTCOMES)
    with pytest.raises(ValueError, match="not an outcome of a space: 'swap'; the outcomes are change, tie_drawn"):
        space_outcome(env, "swap", 0, 0, None, None)


def test_the_rulebook_fight_example_in_words():
    # Player A: strength 3, 2 dice; player B: no die (strength 1), 7 dice; the rulebook's four rolls
    rolls = [((2, 5), (1, 2, 3, 3, 3, 5, 5)), ((1, 4), (2, 2, 3, 4, 4, 6, 6)), ((4, 5), (1, 1, 3, 4, 4, 6, 6)),
             ((3, 4), (1, 1, 3, 4, 5, 5, 5))]  # fmt: skip
    fight = resolve_fight(3, 2, 1, 7, rolls=iter(rolls))
    assert fight_lines("A", "B", fight) == [
        "Roll 1: A rolls 2 5 (1 hit), B 1 2 3 3 3 5 5 (1 hit): a tie, it doesn't count.",
        "Roll 2: A rolls 1 4 (1 hit), B 2 2 3 4 4 6 6 (0 hits): A takes it, 1:0 for A.",
        "Roll 3: A rolls 4 5 (0 hits), B 1 1 3 4 4 6 6 (2 hits): B takes it, 1:1.",
        "Roll 4: A rolls 3 4 (1 hit), B 1 1 3 4 5 5 5 (2 hits): B takes it, 2:1 for B.",
    ]


def test_three_tied_rolls_in_a_row_share_a_line():
    rolls = [((1,), (1,)), ((6,), (6,)), ((1,), (1,)), ((1,), (6,)), ((1,), (1,)), ((1,), (6,))]
    lines = fight_lines("A", "B", resolve_fight(1, 1, 1, 1, rolls=iter(rolls)))
    assert lines[0] == "Rolls 1-3: tied every time (hits 1:1, 0:0, 1:1); ties don't count."
    assert lines[1].startswith("Roll 4: ") and lines[2].startswith("Roll 5: ") and "a tie" in lines[2]
    assert lines[3].endswith("A takes it, 2:0 for A.")


@pytest.mark.parametrize(
    ("winner", "a_rounds", "d_rounds", "said"),
    [
        ("attacker", 2, 0, "Frog wins 2:0: P1's Crab is eliminated; Frog's strength die rises to 3."),
        ("attacker", 2, 1, "Frog wins 2:1: P1's Crab turns face down (it scores nothing at the next scoring) and "
                           "its strength die falls to 3; Frog's strength die rises to 3."),
        ("defender", 0, 2, "Crab wins 2:0: P0's Frog is eliminated; Crab was the stronger card and stays at "
                           "strength 4."),
    ],
)  # fmt: skip
def test_a_fights_outcome_in_words(monkeypatch, winner, a_rounds, d_rounds, said):
    state = scripted()
    state.env = Environment([SUN, WATER, LEAF, BONE])
    put(state, spot(0, 3), card("Frog", SUN, WATER, LEAF), 0, die=2)
    put(state, spot(1, 6), card("Crab", BONE, BONE, WATER), 1, die=4)
    monkeypatch.setattr(fights, "resolve_fight", fixed_fight(winner, a_rounds, d_rounds))
    state.narration = []
    state._fight(spot(0, 3), spot(1, 6))
    assert state.narration == [said]


def test_a_rapid_change_in_words():
    state = scripted()
    environment_phase(state)
    state.env.current_count[0] = 12
    state.env.potential[0] = [0, 5, 4, 3]
    state.hands[0][SUN] = 2
    state.narration = []
    state.apply(SetChips(((SUN, 0), (SUN, 0))))  # 14 > 12: water 5, then leaf 4 (9 > 5), then bone 3 (5 > 4)
    assert state.narration[:3] == [
        "Space 0: the 14 face-down chips (2 sun, 5 water, 4 leaf, 3 bone) outnumber the 12 sun: 5 water become "
        "current and the 12 sun go back to the bag.",
        "Space 0 again (a rapid change): the 9 face-down chips (2 sun, 4 leaf, 3 bone) outnumber the 5 water: "
        "4 leaf become current and the 5 water go back to the bag.",
        "Space 0 again (a rapid change): the 5 face-down chips (2 sun, 3 bone) outnumber the 4 leaf: 3 bone "
        "become current and the 4 leaf go back to the bag.",
    ]
    assert state.narration[3] == ("Current conditions: space 0: 3 bone, space 1: 1 water, space 2: 1 leaf, "
                                  "space 3: 1 bone.")
