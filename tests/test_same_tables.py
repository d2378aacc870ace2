"""Behaviour unchanged: one small seeded scenario per game (and one per kind of study the core builds for every
game) gives the same tables, to the last digit, as the CSV files recorded in tests/data/same_tables/. The one
allowance is for what linear algebra computes (the sensitivity study's regression): its last bits depend on the
processor's BLAS kernels, so a float may differ from the recorded one by a relative 1e-9; every count, label and
game result must be the same.

A change that means to move these tables re-records them (`python tests/test_same_tables.py`) and says why
in its commit; a refactor must leave them as they are.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tyrsim.core.run.scenario import load_scenario
from tyrsim.core.run.sweep import run_scenario
from tyrsim.games import get_game

RECORDED = Path(__file__).parent / "data" / "same_tables"

# name -> scenario text; small enough to run in a few seconds each on one core
SCENARIOS = {
    "tyranno_ex_combat": """
        game = "tyranno-ex"
        analysis = "combat"
        seed = 27
        [args]
        method = "both"
        fights = 300
        attacker_strength = [1, 4]
        attacker_dice = [0, 3]
        defender_strength = [2]
        defender_dice = [1, 5]
    """,
    "tyranno_ex_rulings": """
        game = "tyranno-ex"
        analysis = "rulings"
        seed = 27
        [args]
        games = 4
        rulings = ["majority_tie", "first_fighter"]
    """,
    "tiny_epic_dinosaurs_rate": """
        game = "tiny-epic-dinosaurs"
        analysis = "rate"
        seed = 27
        [args]
        policies = ["hunter", "greedy", "random"]
        games = 6
    """,
    "tiny_epic_dinosaurs_herd_growth": """
        game = "tiny-epic-dinosaurs"
        analysis = "herd-growth"
        seed = 27
        [args]
        ranches = 2000
        kind = "raptor"
        hunts = 1
    """,
    "tyros_empire_sizes": """
        game = "tyros"
        analysis = "empire-sizes"
        seed = 27
        [args]
        games = 2000
        players = 3
    """,
    "tyros_explore": """
        game = "tyros"
        analysis = "explore"
        seed = 27
        [args]
        points = 4
        games = 2
        policies = ["greedy", "random", "greedy", "random"]
    """,
    "zooloretto_duell_zoo_ev": """
        game = "zooloretto-duell"
        analysis = "zoo-ev"
        seed = 27
        [args]
        policies = ["heuristic", "greedy"]
        games = 20
        engine = "object"
    """,
    "zooloretto_duell_trace": """
        game = "zooloretto-duell"
        analysis = "trace"
        seed = 27
        [args]
        games = 2
        multiples = [2]
    """,
}


def tables(name: str) -> dict[str, str]:
    """{file name: CSV text} of every table of every point of the scenario `name`."""
    scenario = load_scenario(f"{name}.toml", text=SCENARIOS[name], games=get_game)
    out = {}
    for result in run_scenario(scenario, n_jobs=1, progress=False):
        point = result.point
        for table, frame in scenario.analysis.tables(result.raw, point.rules, point.args).items():
            out[f"{name}.{point.index}.{table}.csv"] = frame.to_csv(index=False)
    return out


def assert_same_table(text: str, recorded: str, file: str) -> None:
    """The table `text` is the recorded one: the same text, or the same columns, labels and counts with floats
    within a relative 1e-9 (the last bits of a BLAS computation on another processor)."""
    if text == recorded:
        return
    import io

    import pandas as pd

    now, then = pd.read_csv(io.StringIO(text)), pd.read_csv(io.StringIO(recorded))
    pd.testing.assert_frame_equal(now, then, check_exact=False, rtol=1e-9, atol=1e-12,
                                  obj=f"{file} against the recorded table")


@pytest.mark.parametrize("name", SCENARIOS)
def test_same_tables(name):
    now = tables(name)
    recorded = {path.name: path.read_text() for path in RECORDED.glob(f"{name}.*.csv")}
    assert sorted(now) == sorted(recorded)
    for file, text in now.items():
        assert_same_table(text, recorded[file], file)


def test_the_allowance_is_for_the_last_bits_of_a_float_only():
    recorded = "policy,games,mean\nrandom,10,0.1234567890123\n"
    assert_same_table("policy,games,mean\nrandom,10,0.1234567890124\n", recorded, "t.csv")
    for moved in ("policy,games,mean\nrandom,10,0.1234568\n", "policy,games,mean\nrandom,11,0.1234567890123\n",
                  "policy,games,mean\ngreedy,10,0.1234567890123\n"):
        with pytest.raises(AssertionError):
            assert_same_table(moved, recorded, "t.csv")


if __name__ == "__main__":  # re-record: python tests/test_same_tables.py [NAME ...]
    for name in sys.argv[1:] or SCENARIOS:
        for old in RECORDED.glob(f"{name}.*.csv"):
            old.unlink()
        for file, text in tables(name).items():
            (RECORDED / file).write_text(text)
