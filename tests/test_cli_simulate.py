"""`tyrsim simulate` and `tyrsim play` on the toy dice game, and their bad-input errors."""

import pandas as pd
import pytest
from click.testing import CliRunner

from tyrsim.cli import main


def invoke(*args):
    return CliRunner().invoke(main, list(map(str, args)))


def test_simulate_prints_intervals_and_writes_the_games(dice_game, tmp_path):
    result = invoke("simulate", "dice", "--games", 300, "--policy", "roller", "--policy", "random", "--jobs", 1,
                    "--out", tmp_path / "s")
    assert result.exit_code == 0, result.output
    for heading in ("by_policy", "by_seat", "balance", "counters"):
        assert f"\n{heading}\n" in result.output
    assert "win_low" in result.output and "score_high" in result.output
    games = pd.read_csv(tmp_path / "s" / "games.csv")
    assert len(games) == 600 and set(games["policy"]) == {"roller", "random"}
    assert (tmp_path / "s" / "index.html").exists()


def test_simulate_is_reproducible(dice_game):
    a = invoke("simulate", "dice", "--games", 100, "--seed", 3, "--jobs", 1).output
    b = invoke("simulate", "dice", "--games", 100, "--seed", 3, "--jobs", 1).output
    assert a == b


def test_play_prints_a_play_by_play(dice_game):
    result = invoke("play", "dice", "--policy", "roller", "--policy", "roller", "--rule", "turns=2")
    assert result.exit_code == 0, result.output
    lines = result.output.strip().splitlines()
    assert lines[:4] == ["P0: roll", "P1: roll", "P0: roll", "P1: roll"]
    assert lines[-2].startswith("P0 (roller): ") and lines[-1].startswith("P1 (roller): ")


@pytest.mark.parametrize(
    "args, words",
    [
        (["simulate", "chess"], "unknown game 'chess'"),
        (["simulate", "dice", "--policy", "genius", "--policy", "random"], "unknown policy 'genius'"),
        (["simulate", "dice", "--policy", "roller"], "1 given, one per seat"),
        (["simulate", "dice", "--rule", "turns=99"], "turns"),
        (["simulate", "dice", "--games", 0], "--games"),
        (["simulate", "dice", "--players", 3, "--policy", "roller", "--policy", "random"], "--players"),
        (["play", "dice", "--policy", "roller:speed=3", "--policy", "random"], "bad parameter 'speed=3'"),
    ],
)
def test_bad_input_exits_2(dice_game, args, words):
    result = invoke(*args)
    assert result.exit_code == 2, result.output
    assert words in result.output and "Traceback" not in result.output
