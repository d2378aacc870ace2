"""Bradley-Terry recovers known strengths from a synthetic tournament; tournaments on a real engine."""

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from tyrsim.cli import main
from tyrsim.core.stats.ratings import fit_bradley_terry, pairings, pairwise_results


def test_recovers_known_strengths():
    rng = np.random.default_rng(0)
    true = {"a": 0.0, "b": 0.7, "c": -0.5, "d": 1.2}
    rows = []
    for p in true:
        for q in true:
            if p < q:
                k = rng.binomial(600, 1 / (1 + np.exp(-(true[p] - true[q]))))
                rows += [(p, q, k, 600), (q, p, 600 - k, 600)]
    fit = fit_bradley_terry(pd.DataFrame(rows, columns=["policy", "opponent", "wins", "games"]))
    centred = {k: v - np.mean(list(true.values())) for k, v in true.items()}
    assert fit["policy"].tolist() == ["d", "b", "a", "c"]
    for _, row in fit.iterrows():
        assert abs(row["strength"] - centred[row["policy"]]) < 4 * row["se"]
        assert row["ci_low"] < row["rating"] < row["ci_high"]
    assert abs(fit["rating"].sum()) < 1e-6  # centred on the average policy


def test_unbeaten_policy_still_gets_a_finite_rating():
    rows = [("x", "y", 50, 50), ("y", "x", 0, 50)]
    fit = fit_bradley_terry(pd.DataFrame(rows, columns=["policy", "opponent", "wins", "games"]))
    assert np.isfinite(fit["rating"]).all() and fit["policy"].iloc[0] == "x"


def test_ratings_from_an_anchor_keep_the_differences_and_leave_out_an_unknown_strength():
    # x never wins against y: its strength is pinned only by the prior, and centring on the mean policy
    # carries that into every interval; measured from y, z's interval holds only what lies between y and z
    rows = [("x", "y", 0, 12), ("y", "x", 12, 12), ("y", "z", 7, 12), ("z", "y", 5, 12)]
    pairs = pd.DataFrame(rows, columns=["policy", "opponent", "wins", "games"])
    mean, anchored = (fit_bradley_terry(pairs, anchor=a).set_index("policy") for a in (None, "y"))
    assert anchored.loc["y", "rating"] == 0 and anchored.loc["y", "ci_low"] == anchored.loc["y", "ci_high"] == 0
    for p in ("x", "z"):
        assert anchored.loc[p, "rating"] == pytest.approx(mean.loc[p, "rating"] - mean.loc["y", "rating"])
    width = lambda fit, p: fit.loc[p, "ci_high"] - fit.loc[p, "ci_low"]  # noqa: E731
    assert width(anchored, "z") < 600 < 3_000 < width(mean, "z")


def test_pairings_and_pairwise_results():
    assert pairings(["a", "b"], 3) == [("a", "b", "a"), ("b", "a", "b")]
    raw = pd.DataFrame({
        "pairing": [0, 0, 0], "game_id": [0, 0, 0], "policy": ["a", "b", "a"], "win_share": [0.5, 0.0, 0.5],
    })
    pairs = pairwise_results(raw).set_index(["policy", "opponent"])
    assert pairs.loc[("a", "b"), "wins"] == 2 and pairs.loc[("b", "a"), "wins"] == 0
    assert pairs.loc[("a", "b"), "games"] == 2


def test_rate_command_ranks_the_stronger_policy_first(dice_game, tmp_path):
    # without --policy every policy of the game plays: the roller and the search (which always rolls too) lead,
    # the cautious roller (30% of turns) is last
    result = CliRunner().invoke(main, ["rate", "dice", "--games", "150", "--jobs", "1", "--out", str(tmp_path / "r")])
    assert result.exit_code == 0, result.output
    ratings = pd.read_csv(tmp_path / "r" / "ratings.csv")
    assert set(ratings["policy"].iloc[:2]) == {"roller", "ismcts"}
    assert ratings["policy"].iloc[-1] == "cautious"
    assert (tmp_path / "r" / "ratings.png").exists()


def test_rate_command_errors(dice_game):
    result = CliRunner().invoke(main, ["rate", "dice", "--policy", "roller", "--jobs", "1"])
    assert result.exit_code == 2 and "--policy" in result.output and "at least two different" in result.output
    result = CliRunner().invoke(main, ["rate", "dice", "--players", "5", "--jobs", "1"])
    assert result.exit_code == 2 and "--players" in result.output


def fit_named(results: list[tuple[int, int, int]], names: list[str]) -> dict[str, tuple[float, float, float]]:
    """Ratings by name from (winner index, loser index, wins of the first of 40) with the policies named `names`."""
    rows = []
    for a, b, wins in results:
        rows += [(names[a], names[b], wins, 40), (names[b], names[a], 40 - wins, 40)]
    fit = fit_bradley_terry(pd.DataFrame(rows, columns=["policy", "opponent", "wins", "games"]))
    return {row.policy: (row.rating, row.ci_low, row.ci_high) for row in fit.itertuples()}


@pytest.mark.parametrize("results", [
    [(0, 1, 30), (0, 2, 35), (1, 2, 25)],  # every policy wins some games
    [(0, 1, 40), (0, 2, 40), (1, 2, 25)],  # policy 0 never loses: separation
])
def test_ratings_do_not_depend_on_names_or_order(results):
    # before, the prior was anchored on the alphabetically first policy, so under separation
    # renaming the unbeaten policy moved every rating by some 75 Elo points
    base = fit_named(results, ["strong", "middle", "weak"])
    for names in (["a_strong", "middle", "weak"], ["zz_strong", "middle", "weak"], ["strong", "a_middle", "b_weak"]):
        renamed = fit_named(results, names)
        for old, new in zip(["strong", "middle", "weak"], names, strict=True):
            assert renamed[new] == pytest.approx(base[old], abs=1e-6)
    # reordering the policies (the row order) changes nothing either
    reordered = fit_named([(b, a, 40 - w) for a, b, w in reversed(results)], ["strong", "middle", "weak"])
    for name in base:
        assert reordered[name] == pytest.approx(base[name], abs=1e-6)
    assert base["strong"][0] > base["middle"][0] > base["weak"][0]


def test_seat_orders_show_what_sitting_first_did(dice_game, tmp_path):
    # a roller against a player who never rolls: the roller wins every game from either seat
    # (before, the table showed each seat order's first seat winning 0.50)
    result = CliRunner().invoke(main, ["rate", "dice", "--policy", "roller", "--policy", "roller:eagerness=0",
                                       "--players", "2", "--games", "20", "--jobs", "1", "--out", str(tmp_path / "r")])
    assert result.exit_code == 0, result.output
    orders = pd.read_csv(tmp_path / "r" / "seat_orders.csv").set_index("policy")
    assert len(orders) == 2 and (orders["table"] == "roller vs roller:eagerness=0").all()
    roller, idle = orders.loc["roller"], orders.loc["roller:eagerness=0"]
    assert roller["games_first"] == roller["games_later"] == 20
    assert roller["win_rate_first"] == roller["win_rate_later"] == 1.0
    assert idle["win_rate_first"] == idle["win_rate_later"] == 0.0
    assert roller["first_low"] > 0.8 and roller["first_minus_later"] == 0.0
    assert roller["diff_low"] < 0 < roller["diff_high"]
