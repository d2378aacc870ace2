"""The Tiny Epic Dinosaurs play log: every decision in plain words, then what it caused (hunt dice, contracts,
escapes, feeding, breeding, round ends, the final scores by source), and the same game whether or not anybody
listens."""

from __future__ import annotations

import re

import numpy as np

from tyrsim.core.engine.rng import task_rng
from tyrsim.core.engine.runner import play
from tyrsim.games.tiny_epic_dinosaurs import SPEC
from tyrsim.games.tiny_epic_dinosaurs import actions as action_classes
from tyrsim.games.tiny_epic_dinosaurs.rules import Rules

# Class(...), lists, key=value, the engine's edge names "0,1|1,1", None and nan
PYTHON_REPR = re.compile(r"[A-Za-z_]\(|[\[\]{}=|]|\bnan\b|None")
ACTION_CLASSES = {
    cls for cls in vars(action_classes).values() if isinstance(cls, type) and cls.__module__ == action_classes.__name__
}


def logged_game(seed: int, policies=("hunter", "contractor")):
    lines: list[str] = []
    game = SPEC.make_game(Rules(), len(policies))
    record = play(game, [SPEC.make_policy(p) for p in policies], task_rng(seed, 0, 0), log=lines.append)
    return record, lines


def test_a_fixed_seed_log_shows_hunts_contracts_round_ends_and_the_final_scores():
    record, lines = logged_game(1)
    narrated = [line.strip() for line in lines if line.startswith("    ")]
    assert any(re.match(r"The hunt die shows (a net|an injury|an egg): P\d catches \d \w+ into Holding", line)
               for line in narrated)
    assert any(re.match(r"P\d scores contract \w+ \(.+ for \d+ points?\)", line) for line in narrated)
    assert "Every rancher returns home; the players arrange their ranches, feed and breed." in narrated
    assert any(line.startswith("Round 2 begins; P") for line in narrated)
    assert "Round 1 ends; points so far:" in narrated
    assert "Round 6 ends and the game with it; final scores:" in narrated
    final = narrated[narrated.index("Round 6 ends and the game with it; final scores:") + 1 :]
    scores = {}
    for line in final:
        seat, total, parts = re.match(r"P(\d): (\d+) points? \((.*)\)\.", line).groups()
        by_source = dict(re.match(r"(.+) (\d+)", part).groups() for part in parts.split(", "))
        assert set(by_source) == {"contracts", "dinosaurs", "unique dinosaurs", "research"}
        assert int(total) == sum(map(int, by_source.values()))
        scores[int(seat)] = int(total)
    assert scores == {seat: score for seat, score in enumerate(record.scores)}
    for line in lines:
        assert not PYTHON_REPR.search(line), line


def test_every_kind_of_decision_reads_in_words():
    """Every legal action at every prompt of 2- to 4-player games (random play reaches odd corners, the
    heuristics full ranches and short food), described before it is applied."""
    seen = set()
    rng = np.random.default_rng(5)
    for names in (["random", "random"], ["hunter", "random", "random"], ["greedy", "random", "breeder", "random"]):
        game = SPEC.make_game(Rules(), len(names))
        policies = [SPEC.make_policy(name) for name in names]
        state = game.new_state(rng)
        state.narration = []
        while (seat := state.current_player()) >= 0:
            for action in state.legal_actions():
                text = state.describe(action)
                assert text and not PYTHON_REPR.search(text), (action, text)
                seen.add(type(action))
            state.apply(policies[seat].choose(state, rng))
            for line in state.narration:
                assert not PYTHON_REPR.search(line), line
            state.narration.clear()
    # only a unique omnivore's escape asks how it counts: rare in play
    for group in ("herbivore", "carnivore"):
        text = state.describe(action_classes.EscapeAs(group))
        assert text.startswith(f"count the escaped omnivores as {group}s") and not PYTHON_REPR.search(text)
    assert seen | {action_classes.EscapeAs} == ACTION_CLASSES


def test_results_are_the_same_with_and_without_a_log():
    # the search plays on clones and determinizations, which must neither narrate nor change the game
    policies = [SPEC.make_policy("ismcts:iterations=4"), SPEC.make_policy("hunter")]
    game = SPEC.make_game(Rules(), 2)
    quiet = play(game, policies, task_rng(3, 0, 0))
    lines: list[str] = []
    logged = play(game, policies, task_rng(3, 0, 0), log=lines.append)
    assert quiet == logged and len(lines) > quiet.actions


def test_copies_do_not_narrate():
    state = SPEC.make_game(Rules(), 2).new_state(np.random.default_rng(0))
    assert state.narration is None  # nobody listens: simulation pays nothing
    state.narration = []
    assert state.clone().narration is None
    assert state.determinize(0, np.random.default_rng(1)).narration is None
