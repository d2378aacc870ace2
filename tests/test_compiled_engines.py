"""What every compiled engine plays the way the object engine does, beyond one chunk from a fresh generator:
paired games (each game from its own generator, `game_rng`, as the rulings and tune studies play them) and
chunks that follow one another on one generator, compiled and object mixed (as a study's task plays its
blocks: rate's pairings, a ladder's rungs), paired ones among them, so that the uniform doubles drawn ahead
carry over as `tyrsim.core.engine.rng.uniform` carries them."""

import functools

import numpy as np
import pandas as pd
import pytest

from tyrsim.core.engine.rng import task_rng, trial_rng
from tyrsim.core.engine.runner import play_chunk as object_chunk
from tyrsim.games import game_names, get_game

SEATINGS = {
    "zooloretto-duell": [["random", "random"], ["heuristic", "greedy"]],
    "tyranno-ex": [["random"] * 4, ["greedy", "aggressive", "builder"]],
    "tyros": [["random"] * 4, ["planner", "greedy", "random"]],
    "tiny-epic-dinosaurs": [["random", "random"], ["hunter", "breeder", "contractor"]],
}


def engines(name: str, seats: list[str]):
    spec = get_game(name)
    rules, policies = spec.rules(), [spec.make_policy(s) for s in seats]
    game = spec.make_game(rules, len(seats))

    compiled = spec.compiled.chunk_player(rules, seats)

    def objects(first, count, rng, game_rng=None):
        return object_chunk(game, seats, policies, first, count, rng, game_rng=game_rng)

    return compiled, objects


@pytest.mark.parametrize("name", SEATINGS)
def test_paired_games_are_the_object_engines(name):
    for seats in SEATINGS[name]:
        compiled, objects = engines(name, seats)
        task = task_rng(4, 2, 1)
        own = functools.partial(trial_rng, task)
        pd.testing.assert_frame_equal(compiled(3, 12, task, own), objects(3, 12, task, own))


@pytest.mark.parametrize("name", SEATINGS)
def test_chunks_that_follow_one_another_on_one_generator_draw_as_the_object_engines(name):
    for seats in SEATINGS[name]:
        compiled, objects = engines(name, seats)
        rng = np.random.default_rng(7)
        own = functools.partial(trial_rng, task_rng(7, 0, 0))
        reference = [objects(0, 5, rng), objects(5, 4, rng), objects(9, 3, rng, own), objects(12, 3, rng)]
        rng = np.random.default_rng(7)
        mixed = [compiled(0, 5, rng), objects(5, 4, rng), compiled(9, 3, rng, own), compiled(12, 3, rng)]
        for got, expected in zip(mixed, reference, strict=True):
            pd.testing.assert_frame_equal(got, expected)


def test_the_games_with_the_most_compiled_code_compile_first():
    from tyrsim.core.compiled.engines import compile_order

    specs = compile_order(get_game(name) for name in reversed(game_names()))
    sizes = [spec.compiled.source_size() for spec in specs]
    assert sizes == sorted(sizes, reverse=True) and len(set(sizes)) == len(sizes)
    assert specs[0].name == "tiny-epic-dinosaurs"  # the longest compile: started first, not last
