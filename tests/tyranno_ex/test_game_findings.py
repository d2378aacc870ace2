"""The sentences that open the Tyranno Ex `game` report page: what they say on hand-built tables
(the leader, the direction, "cannot be told apart" when intervals overlap), and that on a real
run every one carries an interval and no "nan"."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

from tyrsim.games.tyranno_ex import SPEC
from tyrsim.games.tyranno_ex.findings import (
    GLOSSARY,
    attackers_sentence,
    game_findings,
    leader,
    play_sentence,
    points_sentence,
)
from tyrsim.games.tyranno_ex.rules import Rules

INTERVAL = re.compile(r"\d\S* \[-?[\d.,]+, -?[\d.,]+\]")


def by_policy(rates: dict[str, float]) -> pd.DataFrame:
    return pd.DataFrame([{"policy": p, "win_rate": r, "win_low": r - 0.05, "win_high": r + 0.05}
                         for p, r in rates.items()])  # fmt: skip


def points(policy: str, means: dict[str, float]) -> pd.DataFrame:
    rows = [{"policy": policy, "source": s, "mean": m, "ci_low": m - 1, "ci_high": m + 1, "n": 100}
            for s, m in means.items()]  # fmt: skip
    total = sum(means.values())
    return pd.DataFrame([*rows, {"policy": policy, "source": "total", "mean": total, "ci_low": total - 3,
                                 "ci_high": total + 3, "n": 100}])  # fmt: skip


def worth(policy: str, row0: tuple[float, float, float], row3: tuple[float, float, float]) -> pd.DataFrame:
    return pd.DataFrame([{"policy": policy, "entry_row": r, "cards": 50, "mean_points": m, "ci_low": lo, "ci_high": hi}
                         for r, (m, lo, hi) in ((0, row0), (3, row3))])  # fmt: skip


def test_the_leader_is_the_policy_that_wins_most():
    assert leader(by_policy({"random": 0.1, "builder": 0.5, "greedy": 0.4})) == "builder"
    assert leader(by_policy({"b": 0.3, "a": 0.3})) == "a"  # a tie goes to the first by name
    assert leader(None) is None


def test_points_name_the_leader_and_its_sources_largest_first():
    table = points("builder", {"rows": 40.0, "empty": 11.0, "special": 35.0, "five": 0.0})
    said = points_sentence(table, worth("builder", (12.0, 11.0, 13.0), (13.0, 12.0, 14.0)), "builder", True)
    assert said.startswith("builder, the policy with the most wins, scores 86")
    assert said.index("from the rows") < said.index("on the special spaces") < said.index("for empty spaces")
    assert '"5" marker' not in said  # a source that gave nothing is left out
    assert "the two cannot be told apart (their intervals overlap)" in said
    apart = points_sentence(table, worth("builder", (8.0, 7.0, 9.0), (13.0, 12.0, 14.0)), "builder", False)
    assert apart.startswith("builder scores") and "a card placed in row 3 is worth more" in apart
    lower = points_sentence(table, worth("builder", (13.0, 12.0, 14.0), (8.0, 7.0, 9.0)), "builder", False)
    assert "a card placed in row 0 is worth more" in lower


def fights(won: dict[str, tuple[float, float, float]]) -> pd.DataFrame:
    rows = [{"policy": "all", "quantity": "fights per game", "mean": 16.4, "ci_low": 15.8, "ci_high": 16.9, "n": 80},
            {"policy": "all", "quantity": "share of decided fights won 2:0", "mean": 0.83, "ci_low": 0.81,
             "ci_high": 0.85, "n": 1300}]  # fmt: skip
    rows += [{"policy": p, "quantity": "share of started fights won", "mean": m, "ci_low": lo, "ci_high": hi,
              "n": 300} for p, (m, lo, hi) in won.items()]  # fmt: skip
    return pd.DataFrame(rows)


def test_attackers_name_the_best_and_worst_or_say_they_cannot_be_told_apart():
    said = attackers_sentence(fights({"builder": (0.98, 0.96, 0.99), "random": (0.42, 0.36, 0.48),
                                      "greedy": (0.95, 0.92, 0.97)}))  # fmt: skip
    assert said == ("builder wins the most of the fights it starts, 98.0% [96.0, 99.0], random the fewest, "
                    "42.0% [36.0, 48.0].")
    close = attackers_sentence(fights({"builder": (0.60, 0.50, 0.70), "random": (0.55, 0.45, 0.65)}))
    assert "about equally often" in close and close.endswith("they cannot be told apart.")
    alone = attackers_sentence(fights({"greedy": (0.9, 0.85, 0.94)}))
    assert alone == "Attackers win 90.0% [85.0, 94.0] of the fights they start."


def symbols(shares: dict[int, tuple[int, float]]) -> pd.DataFrame:
    """Survival checks by distinct symbols, split over two policies (the sentence pools them)."""
    rows = []
    for k, (checked, share) in shares.items():
        for policy in ("a", "b"):
            rows.append({"policy": policy, "distinct_symbols": str(k), "checked": checked // 2,
                         "survived": share if checked else np.nan, "ci_low": np.nan, "ci_high": np.nan})
    return pd.DataFrame(rows)


def test_survival_says_which_cards_survive_more_often():
    said = play_sentence(None, symbols({1: (0, np.nan), 2: (400, 0.80), 3: (600, 0.97)}), None)
    assert said.startswith("Cards with three different symbols pass 97.0% [")
    assert "cards with two different symbols 80.0% [" in said and "a single symbol" not in said  # no checks: left out
    assert said.endswith(": a card with three different symbols survives more often.")
    reversed_ = play_sentence(None, symbols({2: (400, 0.97), 3: (600, 0.80)}), None)
    assert "a card with two different symbols survives more often" in reversed_
    close = play_sentence(None, symbols({2: (40, 0.90), 3: (40, 0.92)}), None)
    assert "the two cannot be told apart" in close and "nan" not in close


def test_fights_and_rapid_changes_then_survival():
    cascades = pd.DataFrame([{"quantity": "cascades per game", "mean": 0.99, "ci_low": 0.77, "ci_high": 1.2, "n": 80}])
    said = play_sentence(fights({"greedy": (0.9, 0.85, 0.94)}), symbols({3: (600, 0.97)}), cascades)
    assert said == ("A game has 16.40 [15.80, 16.90] fights (83.0% [81.0, 85.0] of the decided ones end 2:0, the "
                    "loser eliminated) and 0.99 [0.77, 1.20] rapid changes of the environment; cards with three "
                    "different symbols pass 97.0% [95.3, 98.1] of their survival checks.")  # Wilson, 582 of 600
    assert play_sentence(None, None, None) is None


def test_a_sweep_gets_sentences_per_point():
    tables = {}
    for name, table in (("by_policy", by_policy({"greedy": 0.6, "random": 0.4})),
                        ("points_by_source", points("greedy", {"rows": 30.0, "special": 20.0})),
                        ("fights", fights({"greedy": (0.9, 0.85, 0.94)}))):  # fmt: skip
        tables[name] = pd.concat([table.assign(tie_rule=v) for v in ("reroll", "defender")], ignore_index=True)
        tables[name].insert(0, "tie_rule", tables[name].pop("tie_rule"))
    said = game_findings(tables, Rules(), {})
    assert [s.split(": ")[0].split(" = ")[1] for s in said] == ["reroll"] * 3 + ["defender"] * 3  # "With ... = v: "
    assert said[0].split(": ", 1)[1].startswith("greedy, the policy with the most wins, scores 50")


def test_a_real_run_gives_sentences_with_intervals_and_a_glossary_for_every_column():
    analysis = SPEC.analyses["game"]
    args = analysis.check_args({"policies": ["greedy", "random", "builder", "aggressive"], "games": 8})
    rules = Rules()
    raw = analysis.run(rules, args, 0, 8, np.random.default_rng(2))
    tables = analysis.tables(raw, rules, args)
    said = analysis.findings(tables, rules, args)
    extra = game_findings(tables, rules, args)
    assert len(extra) == 3 and said[-3:] == extra  # after the core's who-wins and seat sentences
    for sentence in said:
        assert INTERVAL.search(sentence), sentence
        assert "nan" not in sentence.lower() and "not computable" not in sentence
    for name in ("points_by_source", "card_worth", "survival_by_row", "survival_by_symbols", "fights", "cascades",
                 "game_length", "five_marker"):  # fmt: skip
        shown = {c for c in tables[name].columns if not c.endswith(("_low", "_high"))}  # intervals share a cell
        assert shown - {"policy"} <= set(GLOSSARY), name
    assert GLOSSARY.items() <= analysis.glossary.items()
