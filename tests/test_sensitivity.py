"""Sensitivity ranks a parameter that drives a metric above one that does not."""

import numpy as np
import pandas as pd
from click.testing import CliRunner

from tyrsim.cli import main
from tyrsim.core.sensitivity import rank_parameters, sample_points


def test_latin_hypercube_covers_integer_ranges_evenly():
    points = sample_points({"a": (1, 4, int), "b": (0.0, 2.0, float)}, 40, seed=3)
    assert points["a"].value_counts().sort_index().tolist() == [10, 10, 10, 10]
    assert points["b"].between(0, 2).all()
    assert np.histogram(points["b"], bins=4, range=(0, 2))[0].tolist() == [10, 10, 10, 10]


def test_synthetic_driver_ranks_first():
    rng = np.random.default_rng(1)
    design = sample_points({"drives": (0.0, 1.0, float), "idle": (0.0, 1.0, float), "weak": (0, 9, int)}, 32, 5)
    design["metric"] = 5 * design["drives"] + 0.1 * design["weak"] + rng.normal(0, 0.3, 32)
    ranking = rank_parameters(design, ["drives", "idle", "weak"], "metric")
    assert ranking["parameter"].iloc[0] == "drives"
    src = ranking.set_index("parameter")["src"]
    assert abs(src["idle"]) < 0.15 < 0.9 < src["drives"]
    assert ranking["r2"].iloc[0] > 0.9


def test_explore_command_on_a_game_rule_that_matters(dice_game, tmp_path):
    # more turns means more rolls and so a larger winning margin; nothing else varies
    result = CliRunner().invoke(main, [
        "explore", "dice", "--param", "turns=1:8", "--metric", "mean_margin", "--points", "12", "--games", "200",
        "--jobs", "1", "--out", str(tmp_path / "e"),
    ])
    assert result.exit_code == 0, result.output
    ranking = pd.read_csv(tmp_path / "e" / "sensitivity.csv")
    row = ranking.iloc[0]
    assert row["parameter"] == "turns" and row["ci_low"] > 0.5
    assert (tmp_path / "e" / "sensitivity_mean_margin.png").exists()


def test_explore_command_errors(dice_game):
    cases = [
        (["--param", "turns=8:1"], "LOW must be below HIGH"),
        (["--param", "speed=1:2"], "unknown rule 'speed'"),
        (["--param", "turns=1:20"], "turns"),
        (["--param", "turns"], "KEY=LOW:HIGH"),
        (["--param", "turns=1:3", "--metric", "fun"], "--metric"),
    ]
    for args, words in cases:
        result = CliRunner().invoke(main, ["explore", "dice", *args, "--jobs", "1"])
        assert result.exit_code == 2, args
        assert words in result.output, (args, result.output)
