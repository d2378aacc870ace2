"""Seeding: a task's stream depends only on (seed, key)."""

import threading
import time

import numpy as np
import pytest

from tyrsim.core.engine import rng


def test_task_streams_are_reproducible_and_distinct():
    a = rng.task_rng(5, 0, 1).random(3)
    assert np.array_equal(a, rng.task_rng(5, 0, 1).random(3))
    assert not np.array_equal(a, rng.task_rng(5, 1, 0).random(3))
    assert not np.array_equal(a, rng.task_rng(6, 0, 1).random(3))


@pytest.mark.parametrize("bad", [-1, 2**63, 1.5, "3", True])
def test_bad_seeds_are_rejected(bad):
    with pytest.raises(ValueError, match="seed must be an integer"):
        rng.check_seed(bad)


def draws(generator: np.random.Generator, n: int) -> list[float]:
    return [rng.uniform(generator) for _ in range(n)]


def test_uniform_hands_out_the_generators_doubles_a_block_at_a_time():
    got = draws(np.random.default_rng(5), 2 * rng.UNIFORM_BLOCK + 3)
    direct = np.random.default_rng(5)
    expected = []
    for _ in range(3):
        expected += direct.random(rng.UNIFORM_BLOCK).tolist()[::-1]  # each block is handed out from its end
    assert got == expected[: len(got)]
    assert all(0.0 <= x < 1.0 for x in got)


def test_uniform_starts_a_new_block_for_another_generator():
    first = draws(np.random.default_rng(1), 5)
    other = draws(np.random.default_rng(2), 5)
    # the second generator does not receive the rest of the first one's block, and a new
    # generator seeded like the first draws what the first drew
    assert other != first and draws(np.random.default_rng(1), 5) == first


def test_uniform_draws_do_not_depend_on_other_threads():
    alone = {seed: draws(np.random.default_rng(seed), 600) for seed in (7, 8)}
    together: dict[int, list[float]] = {}

    def draw_taking_turns(seed: int) -> None:
        generator, got = np.random.default_rng(seed), []
        for _ in range(600):
            got.append(rng.uniform(generator))
            time.sleep(0)  # let the other thread draw in between
        together[seed] = got

    threads = [threading.Thread(target=draw_taking_turns, args=(seed,)) for seed in (7, 8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert together == alone


def test_a_new_generator_is_drawn_from_its_source_and_a_copy_continues_its_original():
    source, again = np.random.default_rng(7), np.random.default_rng(7)
    drawn = rng.new_generator(source).random(5)
    assert np.array_equal(drawn, rng.new_generator(again).random(5))  # the same source, the same generator
    assert source.bit_generator.state == again.bit_generator.state  # four words drawn from each
    assert not np.array_equal(rng.new_generator(source).random(5), drawn)  # the source moved on
    original = np.random.default_rng(3)
    original.random(2)
    copied = rng.copy_generator(original)
    assert np.array_equal(copied.random(4), original.random(4))  # the same position
    copied.random(1)
    assert copied.bit_generator.state != original.bit_generator.state  # then each draws on its own
    mt = np.random.Generator(np.random.MT19937(1))
    assert np.array_equal(rng.copy_generator(mt).random(3), mt.random(3))  # other bit generators: deep copies


def test_seed_words_of_the_wrong_size_are_refused():
    with pytest.raises(ValueError, match="these seed words are 3 uint64, not 4"):
        np.random.PCG64(rng._GivenWords(np.zeros(3, np.uint64)))
