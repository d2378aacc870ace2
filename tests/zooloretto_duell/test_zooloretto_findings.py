"""The sentences that open the Zooloretto Duell `zoo-ev` and `game` pages: what they say on hand-built tables
(where most points come from, which source's leader wins, the leading policy, the order of end triggers), that
the zoo-ev page answers first, and that on a tiny real run every sentence carries an interval and no "nan"."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

from tyrsim.games.zooloretto_duell import SPEC
from tyrsim.games.zooloretto_duell.findings import (
    GLOSSARY,
    ends_sentence,
    expected_score_sentence,
    extra_findings,
    leader_sentence,
    symbols_sentence,
    zoo_ev_findings,
)
from tyrsim.games.zooloretto_duell.rules import Rules

INTERVAL = re.compile(r"\d\S* \[-?[\d.,]+, -?[\d.,]+\]")


def sources(policy: str, markers: float, majorities: float, coins: float, minus: float) -> pd.DataFrame:
    means = {"marker_points": markers, "majority_points": majorities, "coin_points": coins, "minus_points": minus,
             "score": markers + majorities + coins - minus}
    return pd.DataFrame([{"policy": policy, "source": s, "mean": m, "ci_low": m - 0.1, "ci_high": m + 0.1}
                         for s, m in means.items()])


def leaders(markers: float, majorities: float, coins: float) -> pd.DataFrame:
    rows = [("marker_points", 300, markers), ("majority_points", 250, majorities), ("coin_points", 100, 0.6),
            ("minus_points", 200, 0.45), ("coins", 0, coins)]
    return pd.DataFrame([{"source": s, "games_with_a_leader": n, "leader_win_rate": r, "ci_low": r - 0.05,
                          "ci_high": r + 0.05} for s, n, r in rows])


def symbols(policy: str, scale: float = 1.0) -> pd.DataFrame:
    counts = {"lightning": 0.5, "heart": 0.8, "heart_wasted": 0.1, "square": 0.7, "square_wasted": 0.0,
              "third_symbol": 0.1, "stand_coin": 1.3, "steals": 1.1, "disposals": 0.0, "expert_discards": 0.0}
    return pd.DataFrame([{"policy": policy, "counter": c, "mean": m * scale, "ci_low": m * scale - 0.05,
                          "ci_high": m * scale + 0.05, "share_of_games": 0.5, "share_low": 0.45, "share_high": 0.55}
                         for c, m in counts.items()])


def ends(card: float, marker: float) -> pd.DataFrame:
    return pd.DataFrame([{"ended_by": t, "games": 100, "share": s, "ci_low": max(0.0, s - 0.05),
                          "ci_high": s + 0.05} for t, s in (("card", card), ("marker", marker), ("pile", 0.0))])


def test_the_expected_score_says_where_most_of_it_comes_from():
    said = expected_score_sentence("", "heuristic", sources("heuristic", 6.72, 2.54, 0.24, 0.62), alone=True)
    assert said == ("A player's expected final score is 8.88 [8.78, 8.98] points, most of it from interim scoring "
                    "markers (6.72 [6.62, 6.82]); final majorities 2.54 [2.44, 2.64] and coins 0.24 [0.14, 0.34] "
                    "add the rest, and minus points take 0.62 [0.52, 0.72] away.")
    # flat markers: majorities are the largest part but not most of it
    said = expected_score_sentence("", "greedy", sources("greedy", 2.0, 2.5, 1.0, 0.5), alone=False)
    assert said.startswith("greedy's expected final score is 5.00 [4.90, 5.10] points, the largest part from final "
                           "majorities (2.50 [2.40, 2.60]); interim scoring markers 2.00")


def test_the_leader_of_each_source_and_how_often_they_win():
    assert leader_sentence("", leaders(0.93, 0.73, 0.60)) == (
        "The player ahead on interim scoring markers wins 93.0% [88.0, 98.0] of the games in which one is ahead; "
        "ahead on final majorities, 73.0% [68.0, 78.0].")  # coins had no leader: left out, no nan


def test_symbols_speak_of_the_leading_policy_when_two_play():
    table = pd.concat([symbols("greedy", 2.0), symbols("heuristic")], ignore_index=True)
    said = symbols_sentence("", table, "heuristic")
    assert said == ("Per heuristic player and game, a heart brings an offspring 0.80 [0.75, 0.85], a square a card "
                    "from the discard pile 0.70 [0.65, 0.75], a lightning a minus point 0.50 [0.45, 0.55] and a "
                    "second stand symbol a coin 1.30 [1.25, 1.35] times; a heuristic player steals 1.10 [1.05, 1.15] "
                    "animals.")


def test_end_triggers_most_common_first():
    assert ends_sentence("", ends(0.45, 0.55)) == (
        "The final round is set off by the final-round marker in 55.0% [50.0, 60.0], the final-round card in "
        "45.0% [40.0, 50.0] and an empty draw pile in 0.0% [0.0, 5.0] of games.")


def tables_of(policies: dict[str, float]) -> dict[str, pd.DataFrame]:
    """One point's tables, the game analysis's and this game's, for `policies` {name: win rate}."""
    seats = pd.DataFrame([{"seat": s, "games": 100, "win_rate": w, "win_low": w - 0.1, "win_high": w + 0.1}
                          for s, w in ((0, 0.55), (1, 0.45))])
    balance = pd.DataFrame([{"metric": "seat_advantage_p", "value": 0.3, "ci_low": np.nan, "ci_high": np.nan},
                            {"metric": "mean_rounds", "value": 11.7, "ci_low": 11.6, "ci_high": 11.8}])
    return {
        "by_policy": pd.DataFrame([{"policy": p, "win_rate": w, "win_low": w - 0.05, "win_high": w + 0.05}
                                   for p, w in policies.items()]),
        "by_seat": seats, "balance": balance,
        "points_by_source": pd.concat([sources(p, 6.0, 2.0, 0.5, 0.5) for p in policies], ignore_index=True),
        "leader_wins": leaders(0.9, 0.7, 0.6),
        "symbols": pd.concat([symbols(p) for p in policies], ignore_index=True),
        "end_triggers": ends(0.5, 0.5),
    }


def test_the_zoo_ev_page_answers_first_and_the_game_page_after_the_core():
    tables = tables_of({"heuristic": 0.5})
    said = zoo_ev_findings(tables, Rules(), {})
    assert said[0].startswith("A player's expected final score is 8.00")
    assert said[1].startswith("The player ahead on interim scoring markers")
    assert said[2].startswith("No evidence that any seat has an edge")  # the core's, not repeated here
    assert said[-2].startswith("Per player and game") and said[-1].startswith("The final round is set off by")
    game_page = SPEC.analyses["game"].findings(tables, Rules(), {})
    assert game_page[0].startswith("No evidence that any seat")
    assert game_page[-4:] == extra_findings(tables, Rules(), {})


def test_two_policies_each_get_their_expected_score():
    said = extra_findings(tables_of({"greedy": 0.3, "heuristic": 0.7}), Rules(), {})
    assert [s.split(" expected")[0] for s in said[:2]] == ["greedy's", "heuristic's"]
    assert said[3].startswith("Per heuristic player and game")  # the symbols of the policy that wins most


def test_a_sweep_gets_sentences_per_point():
    parts = {True: tables_of({"heuristic": 0.5}), False: tables_of({"heuristic": 0.5})}
    tables = {name: pd.concat([t[name].assign(expert=v)[["expert", *t[name].columns]] for v, t in parts.items()],
                              ignore_index=True) for name in parts[True]}
    said = extra_findings(tables, Rules(), {})
    assert [s.split(": ")[0] for s in said] == ["With expert = True", "With expert = False"] * 2
    assert not any(s.startswith(("Per ", "The final round")) for s in said)  # one point's details only


def test_a_real_run_gives_sentences_with_intervals_and_a_glossary_for_every_column():
    rules = Rules()
    for name in ("zoo-ev", "game"):
        analysis = SPEC.analyses[name]
        args = analysis.check_args({"games": 10})
        tables = analysis.tables(analysis.run(rules, args, 0, 10, np.random.default_rng(4)), rules, args)
        said = analysis.findings(tables, rules, args)
        assert len(said) >= 5
        for sentence in said:
            assert INTERVAL.search(sentence), sentence
            assert "nan" not in sentence.lower() and "not computable" not in sentence
        own = set(tables) - {"by_policy", "by_seat", "balance", "counters"}
        shown = {c for t in own for c in tables[t].columns if not c.endswith(("_low", "_high"))}
        assert shown - {"policy", "win_rate", "mean_score", "sd_score"} <= set(GLOSSARY), name
        assert GLOSSARY.items() <= analysis.glossary.items()
