"""The sentences that open the Tiny Epic Dinosaurs report pages (hunt, herd-growth, game): what they say on
hand-built tables (the leader, the direction, "cannot be told apart" when intervals overlap), and that on real
runs every simulated number carries an interval, nothing reads "nan", and every column has a glossary entry."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

from tyrsim.games.tiny_epic_dinosaurs import SPEC
from tyrsim.games.tiny_epic_dinosaurs.findings import (
    GAME_GLOSSARY,
    HERD_GLOSSARY,
    HUNT_GLOSSARY,
    bumping_sentence,
    first_player_sentence,
    food_sentence,
    game_findings,
    herd_sentence,
    leader,
    sources_sentence,
)
from tyrsim.games.tiny_epic_dinosaurs.rules import Rules

INTERVAL = re.compile(r"\d\S* \[-?[\d.,]+, -?[\d.,]+\]")


def run(name: str, rules: Rules | None = None, **given):
    rules = rules or Rules()
    analysis = SPEC.analyses[name]
    args = analysis.check_args(given)
    trials = args.get("ranches", args.get("games", 1))
    tables = analysis.tables(analysis.run(rules, args, 0, trials, np.random.default_rng(2)), rules, args)
    return analysis, tables, analysis.findings(tables, rules, args)


def glossed(tables: dict[str, pd.DataFrame], names: tuple[str, ...], glossary: dict[str, str]) -> None:
    for name in names:
        shown = {c for c in tables[name].columns if not c.endswith(("_low", "_high"))}  # intervals share a cell
        assert shown - {"policy", "win_rate"} <= set(glossary), (name, shown - set(glossary))


# ---- hunt ----


def test_hunt_says_the_exact_catch_and_the_best_space():
    analysis, tables, said = run("hunt")
    assert said[0].startswith("A hunt brings 1.17 dinosaurs on average (exact; sd 0.37): an egg, two dinosaurs, "
                              "with chance 16.7%, and an injury")
    assert "charges 1 resource a dinosaur" in said[1]
    assert "hunt allosaurus at A4 brings the most points: 3.50" in said[1]
    _, _, eggs = run("hunt", Rules.from_overrides({"hunt_egg_faces": 3, "hunt_net_faces": 1}))
    assert eggs[0].startswith("A hunt brings 1.50 dinosaurs")  # half the faces are eggs
    glossed(tables, ("spaces", "hunt_value"), HUNT_GLOSSARY)
    assert HUNT_GLOSSARY.items() <= analysis.glossary.items()


# ---- herd growth ----


def by_round(herd: list[float], shortfall: list[float], escapes: list[float]) -> pd.DataFrame:
    rows = []
    for r, (h, s, e) in enumerate(zip(herd, shortfall, escapes, strict=True), start=1):
        rows.append({"round": r, "herd_mean": h, "herd_low": h - 0.2, "herd_high": h + 0.2, "escapes_mean": e,
                     "escapes_low": e - 0.2, "escapes_high": e + 0.2, "p_shortfall": s, "p_shortfall_low": s / 2,
                     "p_shortfall_high": min(1.0, s * 2), "p_any_escape": min(1.0, e), "p_any_escape_low": 0.0,
                     "p_any_escape_high": 1.0})  # fmt: skip
    return pd.DataFrame(rows)


def test_herd_sentences_name_the_final_herd_its_peak_and_when_food_runs_short():
    growing = by_round([3, 5, 8, 11, 14, 16], [0, 0, 0.01, 0.02, 0.2, 0.6], [0, 0, 0, 0.1, 0.8, 2.5])
    said = herd_sentence("", growing, "raptor")
    assert said == "A herd of raptor ends round 6 with 16.00 [15.80, 16.20] dinosaurs per ranch."
    food = food_sentence("", growing)
    assert food.startswith("Food first runs short in round 5, for 20.0% [10.0, 40.0] of ranches")  # the first above 5%
    assert "escapes peak in round 6 at 2.50 [2.30, 2.70] dinosaurs per ranch" in food
    falling = by_round([3, 9, 12, 7, 6, 6], [0, 0, 0, 0, 0.03, 0.01], [0, 0, 0, 0, 0, 0])
    assert ", down from 12.00 [11.80, 12.20] after round 3." in herd_sentence("", falling, "raptor")
    calm = food_sentence("", falling)
    assert calm.startswith("Food runs short for at most 3.0% [1.5, 6.0] of ranches in any round (round 5)")
    assert calm.endswith("no dinosaur ever escapes.")


def test_herd_growth_real_runs_have_intervals_per_point():
    analysis, tables, said = run("herd-growth", ranches=3000, income=3, hunts=1)
    assert len(said) == 2 and said[0].startswith("A herd of stegosaurus ends round 6 with ")
    for sentence in said:
        assert INTERVAL.search(sentence) and "nan" not in sentence.lower() and "not computable" not in sentence
    glossed(tables, ("by_round",), HERD_GLOSSARY)
    # a sweep: the core stacks the points with the swept value as a leading column
    stacked = pd.concat([tables["by_round"].assign(capacity=c) for c in (2, 6)], ignore_index=True)
    stacked.insert(0, "capacity", stacked.pop("capacity"))
    swept = analysis.findings({"by_round": stacked}, Rules(), analysis.check_args({}))
    assert [s.split(": ")[0] for s in swept] == ["With capacity = 2", "With capacity = 6"]


# ---- game ----


def policies(rates: dict[str, float]) -> pd.DataFrame:
    return pd.DataFrame([{"policy": p, "win_rate": r, "win_low": r - 0.05, "win_high": r + 0.05, "games": 100,
                          "mean_score": 20 + 10 * r, "score_low": 19 + 10 * r, "score_high": 21 + 10 * r}
                         for p, r in rates.items()])  # fmt: skip


def sources(means: dict[str, dict[str, float]], half: float = 1.0) -> pd.DataFrame:
    return pd.DataFrame([{"policy": p, "source": s, "mean": m, "ci_low": m - half, "ci_high": m + half, "games": 100}
                         for p, by_source in means.items() for s, m in by_source.items()])  # fmt: skip


def test_points_name_the_leader_its_sources_largest_first_and_what_separates_the_policies():
    table = policies({"breeder": 0.3, "hunter": 0.7})
    assert leader(table) == "hunter" and leader(policies({"b": 0.5, "a": 0.5})) == "a" and leader(None) is None
    points = sources({"hunter": {"contracts": 4.0, "dinosaurs": 15.0, "unique": 0.0, "research": 6.0},
                      "breeder": {"contracts": 3.0, "dinosaurs": 9.0, "unique": 1.0, "research": 6.5}})
    said = sources_sentence("", "hunter", table, points)
    assert said.startswith("hunter, the policy with the most wins, scores 27.0 [26.0, 28.0] points a game: "
                           "15.0 [14.0, 16.0] from basic dinosaurs, 6.0 [5.0, 7.0] from research cards and 4.0")
    assert "unique" not in said.split(";")[0]  # a source that gave nothing is left out
    assert said.endswith("the policies differ most in points from basic dinosaurs (hunter 15.0 [14.0, 16.0], "
                         "breeder 9.0 [8.0, 10.0]).")
    near = sources({"hunter": {"dinosaurs": 10.0}, "breeder": {"dinosaurs": 9.0}})
    close = sources_sentence("", "hunter", table, near)
    assert close.endswith("(hunter 10.0 [9.0, 11.0], breeder 9.0 [8.0, 10.0], though their intervals overlap).")


def first_player(rows: dict[int, tuple[int, float]]) -> pd.DataFrame:
    return pd.DataFrame([{"first_player_rounds": r, "games": g, "wins": w} for r, (g, w) in rows.items()])


def test_first_player_marker_pays_costs_or_cannot_be_told_apart():
    often = first_player({0: (200, 60.0), 1: (100, 35.0), 5: (150, 100.0), 6: (50, 35.0)})
    pays = first_player_sentence("", often, 6, 2)
    assert pays.startswith("Players who began more than half of the 6 rounds with the first-player marker won 67.5% [")
    assert "those who began fewer than half 31.7% [" in pays and pays.endswith("(par 50.0%): holding the marker pays.")
    costs = first_player_sentence("", first_player({0: (300, 200.0), 6: (300, 100.0)}), 6, 2)
    assert costs.endswith("holding the marker costs more than it brings.")
    even = first_player_sentence("", first_player({0: (40, 20.0), 6: (40, 22.0)}), 6, 2)
    assert even.endswith("the two cannot be told apart (their intervals overlap).")
    assert first_player_sentence("", first_player({3: (40, 20.0)}), 6, 2) is None  # nobody on either side


def test_bumping_and_escapes():
    bumping = pd.DataFrame([{"quantity": "bumps per game", "estimate": 9.0, "ci_low": 8.5, "ci_high": 9.5},
                            {"quantity": "share of a game's placements that bump", "estimate": 0.17, "ci_low": 0.16,
                             "ci_high": 0.18}])  # fmt: skip
    activity = pd.DataFrame([{"policy": "hunter", "counter": "escapes", "mean": 3.2, "ci_low": 2.9, "ci_high": 3.5}])
    assert bumping_sentence("", bumping, activity, "hunter") == (
        "A game has 9.00 [8.50, 9.50] bumps (17.0% [16.0, 18.0] of placements outbid a player already on the space); "
        "hunter loses 3.20 [2.90, 3.50] dinosaurs a game to escapes.")


def test_a_real_game_run_gives_sentences_with_intervals_after_the_cores():
    analysis, tables, said = run("game", policies=["hunter", "breeder"], games=12)
    extra = game_findings(tables, Rules(), analysis.check_args({"policies": ["hunter", "breeder"], "games": 12}))
    assert len(extra) == 3 and said[-3:] == extra  # after the core's who-wins, seat and length sentences
    for sentence in said:
        assert INTERVAL.search(sentence), sentence
        assert "nan" not in sentence.lower() and "not computable" not in sentence
    glossed(tables, ("points_by_source", "activity", "first_player", "bumping"), GAME_GLOSSARY)
    assert GAME_GLOSSARY.items() <= analysis.glossary.items()


@pytest.mark.parametrize("swept", ["breed_group"])
def test_a_game_sweep_gets_a_points_sentence_per_point(swept):
    analysis, tables, _ = run("game", policies=["hunter", "breeder"], games=4)
    stacked = {}
    for name, table in tables.items():
        stacked[name] = pd.concat([table.assign(**{swept: v}) for v in (2, 3)], ignore_index=True)
        stacked[name].insert(0, swept, stacked[name].pop(swept))
    said = game_findings(stacked, Rules(), analysis.check_args({"policies": ["hunter", "breeder"], "games": 4}))
    assert [s.split(": ")[0] for s in said] == ["With breed group = 2", "With breed group = 3"]
