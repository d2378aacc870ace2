"""Sensitivity: Sobol' indices against analytic test functions, noise, the ranking beside SRC, and `explore`."""

import tracemalloc
import warnings

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner
from scipy import stats

from tyrsim.cli import main
from tyrsim.core.stats.sensitivity import (
    BOOTSTRAP,
    _unit_design,
    indices_table,
    rank_parameters,
    rank_rules,
    reading,
    sobol_design,
    variance_indices,
)


def within_sampling_error(table: pd.DataFrame, column: str, expected, k: float = 4.0) -> None:
    """Each estimate within k bootstrap standard errors (from the 95% interval's width) of its exact value."""
    low, high = {"first_order": ("first_low", "first_high"), "total": ("total_low", "total_high")}[column]
    se = (table[high] - table[low]).to_numpy() / (2 * 1.96)
    error = np.abs(table[column].to_numpy() - np.asarray(expected))
    assert (error < k * se + 1e-9).all(), (column, table[column].tolist(), expected, se.tolist())


def test_design_blocks_and_integer_rules():
    design = sobol_design({"a": (1, 4, int), "b": (0.0, 2.0, float)}, 16, seed=3)
    assert design["block"].tolist() == ["A"] * 16 + ["B"] * 16 + ["AB:a"] * 16 + ["AB:b"] * 16
    a, b = design[design["block"] == "A"], design[design["block"] == "B"]
    # a scrambled Sobol' sequence of 16 points: each of the four values exactly four times in A and in B
    assert a["a"].value_counts().sort_index().tolist() == [4, 4, 4, 4]
    assert b["a"].value_counts().sort_index().tolist() == [4, 4, 4, 4]
    assert design["b"].between(0, 2).all()
    ab_a = design[design["block"] == "AB:a"].reset_index(drop=True)
    assert ab_a["a"].tolist() == b["a"].tolist() and ab_a["b"].tolist() == a["b"].tolist()
    with pytest.raises(ValueError, match="power of two"):
        sobol_design({"a": (1, 4, int)}, 12, seed=0)


def test_estimators_are_scipys():
    n, d = 64, 3
    rng = np.random.default_rng(0)
    y = rng.normal(size=(d + 2) * n) + np.repeat(rng.normal(size=d + 2), n)
    ours = indices_table(y, np.zeros_like(y), n, ["a", "b", "c"])
    y = y.reshape(d + 2, n)
    theirs = stats.sobol_indices(func={"f_A": y[0][None], "f_B": y[1][None], "f_AB": y[2:][:, None]}, n=n)
    assert ours["first_order"].to_numpy() == pytest.approx(np.ravel(theirs.first_order))
    assert ours["total"].to_numpy() == pytest.approx(np.ravel(theirs.total_order))


# the figures of the estimator before its bootstrap was computed from row sums, to 1e-9 (only rounding may differ)
PINNED_G = {
    "first_order": [0.7128732432677288, 0.13620355983498314, 0.05453098663672312],
    "first_low": [0.49309660394030785, 0.028564540388327567, 0.002615127885920631],
    "first_high": [0.9832259571137436, 0.25641904153714457, 0.10993846426529923],
    "total": [0.7373957295894622, 0.20421361479356667, 0.031577243053749565],
    "total_low": [0.5147735755913413, 0.12586989442096158, 0.021358119453796776],
    "total_high": [1.0080939373769224, 0.3456131071113202, 0.0465115563824582],
}
PINNED_NOISY = {
    "first_order": [0.36155527489928263, 0.4805065546110485],
    "first_low": [-0.12905948291981673, 0.013440398758844025],
    "first_high": [0.8190749991619218, 0.9332869344674584],
    "total": [1.0208628648215308, 1.3305294986863168],
    "total_low": [0.6305738525623406, 0.7705445988234482],
    "total_high": [1.4710282776069676, 2.1858875483580817],
    "noise_share": [0.19012672985663825, 0.19012672985663825],
}


def test_indices_and_intervals_are_unchanged_on_small_cases():
    a = np.array([0.0, 1.0, 4.5])
    table = variance_indices(lambda x: np.prod((np.abs(4 * x - 2) + a) / (1 + a), axis=1), [(0, 1)] * 3, 64, seed=2)
    for column, expected in PINNED_G.items():
        assert table[column].to_numpy() == pytest.approx(expected, rel=1e-9, abs=1e-12), column
    # with playout noise, through the table the studies use
    rng = np.random.default_rng(7)
    n, d = 32, 2
    x = rng.uniform(size=(d + 2) * n)
    y = x + np.repeat([0.0, 0.3, 0.1, 0.5], n) + rng.normal(0, 0.2, x.size)
    noise = rng.uniform(0, 0.05, x.size)
    table = indices_table(y, noise, n, ["p", "q"], seed=11)
    for column, expected in PINNED_NOISY.items():
        assert table[column].to_numpy() == pytest.approx(expected, rel=1e-9, abs=1e-12), column


def indices_from_rows(y, noise, rows):
    """The reference: first-order, total and noise share straight from their definitions, on the design rows `rows`
    (..., m), with the noise taken out of the total's numerator; (2d + 1, ...)."""
    (a, b, ab), (v_a, v_b, v_ab) = ((x[0, rows], x[1, rows], x[2:, rows]) for x in (y, noise))
    both = np.concatenate([a, b], axis=-1)
    variance = np.where(both.var(axis=-1) > 0, both.var(axis=-1), np.nan)
    centre = both.mean(axis=-1, keepdims=True)
    first = np.mean((b - centre) * (ab - a), axis=-1) / variance
    total = 0.5 * np.mean((a - ab) ** 2 - v_a - v_ab, axis=-1) / variance
    share = np.concatenate([v_a, v_b], axis=-1).mean(axis=-1) / variance
    return np.concatenate([first, total, share[None]])


def test_indices_and_intervals_are_scipys_bootstrap_of_the_definitions():
    # the row sums, the resamples through row counts and the closed-form jackknife against scipy.stats.bootstrap's
    # BCa interval of the indices computed on copies of the rows, on random designs: small and large N, exact and
    # noisy responses, and responses of few values (some resamples have no variance: NaN intervals in both)
    rng = np.random.default_rng(26)
    for case in range(40):
        n, d = int(rng.choice([2, 4, 8, 16, 64, 256])), int(rng.integers(1, 6))
        if case % 4 == 3:
            y = rng.integers(0, 3, (d + 2) * n).astype(float)
        else:
            y = 50 + rng.normal(size=(d + 2) * n) + np.repeat(rng.normal(size=d + 2), n) * rng.uniform(0, 2)
        noise = rng.uniform(0, 0.5, y.size) * (case % 2)
        names = [f"r{i}" for i in range(d)]
        ours = indices_table(y, noise, n, names, seed=case)
        grid, noise_grid = y.reshape(d + 2, n), noise.reshape(d + 2, n)
        point = indices_from_rows(grid, noise_grid, np.arange(n))
        low = high = np.full(point.shape, np.nan)
        if not np.isnan(point).any():

            def statistic(rows, axis=-1, grid=grid, noise_grid=noise_grid):
                # rows in order: a resample taking every row once gives the estimate itself, a tie, not a rounding
                return indices_from_rows(grid, noise_grid, np.sort(rows, axis=-1))

            with np.errstate(all="ignore"), warnings.catch_warnings():  # a degenerate bootstrap: NaN
                warnings.simplefilter("ignore")
                ci = stats.bootstrap((np.arange(n),), statistic, vectorized=True, method="BCa",
                                     n_resamples=BOOTSTRAP, rng=np.random.default_rng(case)).confidence_interval
            low, high = ci.low, ci.high
        for column, expected in [("first_order", point[:d]), ("first_low", low[:d]), ("first_high", high[:d]),
                                 ("total", point[d:2 * d]), ("total_low", low[d:2 * d]),
                                 ("total_high", high[d:2 * d]), ("noise_share", np.full(d, point[-1]))]:
            assert ours[column].to_numpy() == pytest.approx(expected, rel=1e-9, abs=1e-12, nan_ok=True), (
                case, n, d, column)


def test_a_large_design_stays_in_linear_memory_and_finds_the_g_functions_indices():
    # N = 8,192 base samples of 8 rules: the bootstrap once copied every leave-one-out sample, an (8192, 8191, 10)
    # array of responses (5 GB, more than 20 GB with its intermediates)
    a = np.array([0.0, 1.0, 4.5, 9.0, 99.0, 99.0, 99.0, 99.0])
    v = 1 / (3 * (1 + a) ** 2)
    total_variance = np.prod(1 + v) - 1
    first = v / total_variance
    total = np.array([v[i] * np.prod(np.delete(1 + v, i)) for i in range(8)]) / total_variance

    def g(x):
        return np.prod((np.abs(4 * x - 2) + a) / (1 + a), axis=1)

    tracemalloc.start()
    try:
        table = variance_indices(g, [(0, 1)] * 8, 8192, seed=8)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 2 ** 30, f"{peak / 2 ** 20:.0f} MiB"
    within_sampling_error(table, "first_order", first)
    within_sampling_error(table, "total", total)
    # the intervals narrow as 1 / sqrt(N): x1's first-order interval is 0.13 wide at N = 1,024, 0.047 here
    assert (table["first_high"] - table["first_low"]).iloc[0] < 0.07


def ishigami(x, a=7.0, b=0.1):
    return np.sin(x[:, 0]) + a * np.sin(x[:, 1]) ** 2 + b * x[:, 2] ** 4 * np.sin(x[:, 0])


def test_ishigami_indices():
    table = variance_indices(ishigami, [(-np.pi, np.pi)] * 3, 1024, seed=1)
    assert table.columns.tolist() == ["parameter", "first_order", "first_low", "first_high", "total", "total_low",
                                      "total_high"]
    assert table["parameter"].tolist() == ["x1", "x2", "x3"]
    within_sampling_error(table, "first_order", [0.3139, 0.4424, 0.0])
    within_sampling_error(table, "total", [0.5576, 0.4424, 0.2437])


def test_sobol_g_function_and_a_linear_model():
    a = np.array([0.0, 1.0, 4.5, 9.0])
    v = 1 / (3 * (1 + a) ** 2)
    total_variance = np.prod(1 + v) - 1
    first = v / total_variance
    total = np.array([v[i] * np.prod(np.delete(1 + v, i)) for i in range(4)]) / total_variance

    def g(x):
        return np.prod((np.abs(4 * x - 2) + a) / (1 + a), axis=1)

    table = variance_indices(g, [(0, 1)] * 4, 1024, seed=2, names=["a", "b", "c", "d"])
    within_sampling_error(table, "first_order", first)
    within_sampling_error(table, "total", total)
    # linear: y = 3 x1 + x2 over [0, 1] x [0, 3]: both variances 3/4, so 0.5 each, no interactions
    table = variance_indices(lambda x: 3 * x[:, 0] + x[:, 1], [(0, 1), (0, 3)], 512, seed=3)
    within_sampling_error(table, "first_order", [0.5, 0.5])
    within_sampling_error(table, "total", [0.5, 0.5])


def test_total_index_ranks_a_non_monotone_rule_first_and_srcs_warning_shows():
    # y = 10 (x1 - 1/2)^2 + x2: x1 carries 87% of the variance, but symmetrically, so its SRC is near 0
    design = sobol_design({"curved": (0.0, 1.0, float), "linear": (0.0, 1.0, float)}, 256, seed=4)
    design["metric"] = 10 * (design["curved"] - 0.5) ** 2 + design["linear"]
    ranking = rank_rules(design, ["curved", "linear"], "metric", np.zeros(len(design)))
    assert ranking["parameter"].tolist() == ["curved", "linear"]
    src = ranking.set_index("parameter")["src"]
    assert abs(src["curved"]) < abs(src["linear"])  # SRC alone would rank the wrong rule first
    within_sampling_error(ranking, "total", [0.5556 / 0.6389, 0.0833 / 0.6389])
    assert ranking["r2"].iloc[0] < 0.7 and ranking["noise_share"].iloc[0] == 0
    assert "WARNING: R²" in reading(ranking, 100, 256)
    assert "base samples" not in reading(ranking, 100, 256)
    assert "WARNING: only 8 base samples" in reading(ranking, 100, 8)  # docs/metrics.md promises it for N <= 8


def test_noise_is_taken_out_of_the_total_index_and_reported():
    # y = x1 + noise of variance 1/12 at each point (as much as x1's own): x2 does nothing
    design = sobol_design({"x1": (0.0, 1.0, float), "x2": (0.0, 1.0, float)}, 512, seed=5)
    rng = np.random.default_rng(5)
    noise = np.full(len(design), 1 / 12)
    design["metric"] = design["x1"] + rng.normal(0, np.sqrt(noise))
    ranking = rank_rules(design, ["x1", "x2"], "metric", noise).set_index("parameter")
    assert ranking["noise_share"].iloc[0] == pytest.approx(0.5, abs=0.05)
    # shares of the observed variance: x1 about 1/2, the noise about 1/2, x2 nothing
    within_sampling_error(ranking, "total", [0.5, 0.0])
    within_sampling_error(ranking, "first_order", [0.5, 0.0])
    # without the correction x2's total index would be about the noise share
    uncorrected = rank_rules(design, ["x1", "x2"], "metric", np.zeros(len(design))).set_index("parameter")
    assert uncorrected.loc["x2", "total"] > 0.4 > ranking.loc["x2", "total_high"]
    assert "WARNING: playout noise is" in reading(ranking.reset_index(), 10, 512)


def test_src_recovers_a_linear_driver():
    rng = np.random.default_rng(1)
    design = sobol_design({"drives": (0.0, 1.0, float), "idle": (0.0, 1.0, float), "weak": (0, 9, int)}, 16, 5)
    design["metric"] = 5 * design["drives"] + 0.1 * design["weak"] + rng.normal(0, 0.3, len(design))
    ranking = rank_parameters(design, ["drives", "idle", "weak"], "metric")
    assert ranking["parameter"].iloc[0] == "drives"
    src = ranking.set_index("parameter")["src"]
    assert abs(src["idle"]) < 0.15 < 0.9 < src["drives"]
    assert ranking["r2"].iloc[0] > 0.9


def test_unit_design_is_saltellis():
    unit = _unit_design(3, 8, seed=0)
    a, b, ab = unit[:8], unit[8:16], unit[16:].reshape(3, 8, 3)
    for i in range(3):
        expected = a.copy()
        expected[:, i] = b[:, i]
        assert (ab[i] == expected).all()


def test_explore_command_on_a_game_rule_that_matters(dice_game, tmp_path):
    # more turns means more rolls and so a larger winning margin; nothing else varies
    result = CliRunner().invoke(main, [
        "explore", "dice", "--param", "turns=1:8", "--metric", "mean_margin", "--points", "8", "--games", "100",
        "--jobs", "1", "--out", str(tmp_path / "e"),
    ])
    assert result.exit_code == 0, result.output
    ranking = pd.read_csv(tmp_path / "e" / "sensitivity.csv")
    row = ranking.iloc[0]
    assert row["parameter"] == "turns" and row["total_low"] > 0.5 and row["src_low"] > 0.5
    assert "sensitivity_notes" in result.output and "turns ranks first by total index" in result.output
    design = pd.read_csv(tmp_path / "e" / "design.csv")
    assert len(design) == 8 * 3  # N (d + 2) points for one rule
    assert (tmp_path / "e" / "sensitivity_mean_margin.png").exists()


def test_explore_measures_mean_actions(dice_game, tmp_path):
    # before: mean_actions was accepted but never computed (all NaN, RuntimeWarnings)
    result = CliRunner().invoke(main, [
        "explore", "dice", "--param", "turns=1:8", "--metric", "mean_actions", "--points", "4", "--games", "4",
        "--jobs", "1", "--out", str(tmp_path / "e"),
    ])
    assert result.exit_code == 0, result.output
    assert "RuntimeWarning" not in result.output
    design = pd.read_csv(tmp_path / "e" / "design.csv")
    assert (design["mean_actions"] == 2 * design["turns"]).all()  # two players, one action per turn
    assert (design["mean_actions_se"] == 0).all()
    ranking = pd.read_csv(tmp_path / "e" / "sensitivity.csv")
    assert ranking["total"].notna().all() and ranking["noise_share"].iloc[0] == 0


def test_explore_command_errors(dice_game):
    cases = [
        (["--param", "turns=8:1"], "LOW must be below HIGH"),
        (["--param", "speed=1:2"], "unknown rule 'speed'"),
        (["--param", "turns=1:20"], "turns"),
        (["--param", "turns"], "KEY=LOW:HIGH"),
        (["--param", "turns=1:3", "--metric", "fun"], "--metric"),
        (["--param", "turns=1:3", "--points", "12"], "power of two"),
        (["--param", "turns=1:3", "--param", "turns=2:4"], "given twice"),
    ]
    for args, words in cases:
        result = CliRunner().invoke(main, ["explore", "dice", *args, "--jobs", "1"])
        assert result.exit_code == 2, args
        assert words in result.output, (args, result.output)
