"""The `balance` analysis a game may offer to scenario files and reports: a whole `tyrsim balance` study (see
`tyrsim.core.studies.balance`) as one task of a scenario point.

The search adapts to what it plays, so it is not split into tasks of games: the point's one task runs the
whole study on one worker (its seed drawn from the task's stream, so the same scenario seed gives the same
answer), and hands back every table of the answer in one long table (`to_rows`), which the result store keeps
like any task's rows and `from_rows` reads back into the tables. Its page opens with the study's sentences.
The study's modules are imported when a study is checked or run, not when a game that offers it is loaded.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from tyrsim.core.engine.analysis import Analysis, Param, for_game
from tyrsim.core.engine.spec import GameSpec
from tyrsim.core.run.substitutions import Substitution
from tyrsim.core.studies.blocks import prepare_blocks

if TYPE_CHECKING:
    import pandas as pd

TABLES = ("findings", "finalists", "tied_with_best", "around_best", "front", "search")
HEADER = -1  # the row number of a table's column entries (so a table without rows keeps its columns)


def to_rows(tables: Mapping[str, pd.DataFrame]) -> pd.DataFrame:
    """Tables as one long table: a row per cell (and per column, row HEADER), its number or its text."""
    import pandas as pd

    rows = []
    for part, table in tables.items():
        for position, column in enumerate(table.columns):
            values = table[column]
            kind = ("bool" if pd.api.types.is_bool_dtype(values) else "int" if pd.api.types.is_integer_dtype(values)
                    else "float" if pd.api.types.is_numeric_dtype(values) else "text")
            rows.append((part, HEADER, position, str(column), kind, math.nan, ""))
            for row, value in enumerate(values):
                text = kind == "text"
                rows.append((part, row, position, str(column), kind, math.nan if text else float(value),
                             str(value) if text else ""))
    return pd.DataFrame(rows, columns=["part", "row", "position", "column", "kind", "number", "text"])


def from_rows(raw: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """The tables `to_rows` made, their columns in order and of their kinds."""
    import pandas as pd

    out = {}
    for part, cells in raw.groupby("part", sort=False):
        header = cells[cells["row"] == HEADER].sort_values("position")
        body = cells[cells["row"] != HEADER]
        table = {}
        for column, kind in zip(header["column"], header["kind"], strict=True):
            mine = body[body["column"] == column].sort_values("row")
            values = mine["text"] if kind == "text" else mine["number"]
            table[column] = values.to_numpy(dtype={"bool": bool, "int": np.int64, "float": float}.get(kind, object))
        out[str(part)] = pd.DataFrame(table, columns=list(header["column"]))
    return out


@for_game
def balance_analysis(spec: GameSpec, default_policies: tuple[str, ...], default_vary: tuple[str, ...],
                     default_targets: tuple[str, ...]) -> Analysis:
    """A designer's question for the game `spec`: the rules of `default_vary` searched for `default_targets`,
    played by `default_policies` (each an argument a scenario may change)."""

    def setup(rules: Any, args: Mapping[str, Any], seed: int = 0, budget: int | None = None):
        from tyrsim.core.studies.balance import plan_balance

        return plan_balance(spec, rules, args["vary"], args["targets"], args["policies"],
                            budget=args["games"] if budget is None else budget,
                            block=args["block"], rungs=args["rungs"], batch=args["batch"],
                            check_games=args["check_games"], finalists=args["finalists"], seed=seed)

    def run(rules, args, first, count, rng):
        import pandas as pd

        from tyrsim.core.report import balance_page
        from tyrsim.core.studies.balance import balance

        seed = int(rng.integers(2**63 - 1))  # the task's stream decides the study's seed
        result = balance(spec, setup(rules, args, seed, max(count, least(rules, args))))
        return to_rows({"findings": pd.DataFrame({"finding": balance_page.findings(result)}),
                        **balance_page.tables(result)})

    def check_vary(texts: tuple[str, ...]) -> None:
        from tyrsim.core.studies.balance import parse_space

        parse_space(spec.rules(), texts)

    def check_targets(texts: tuple[str, ...]) -> None:
        from tyrsim.core.studies.balance import is_skill, parse_skills, parse_targets

        on_metrics = [t for t in texts if not is_skill(t)]
        if on_metrics:  # the list may hold skill targets alone
            parse_targets(spec, spec.default_players, on_metrics)
        parse_skills(spec, [t for t in texts if is_skill(t)], "targets")

    def least(rules: Any, args: Mapping[str, Any]) -> int:
        """The fewest search games a study plays: the run's rules in full and one batch's first blocks."""
        study = setup(rules, args, budget=10**12)
        return (study.full + study.batch * study.block) * study.tables

    def substitutions(rules: Any, args: Mapping[str, Any]) -> list[Substitution]:
        # a scenario's games are checked against this; a quick report's cut may ask for fewer
        if args["games"] >= (fewest := least(rules, args)):
            return []
        return [Substitution(f"{args['games']:,} search games", f"the study plays up to {fewest:,}",
                             "the fewest that play the run's rules and one batch of candidates")]

    def check_budget(args: Mapping[str, Any]) -> None:
        setup(spec.rules(), args)  # the budget against the blocks, the targets against the seats

    def figures(tables_: dict[str, pd.DataFrame], rules: Any, args: Mapping[str, Any]) -> dict[str, Any]:
        from tyrsim.core.report import balance_page

        return balance_page.figures(tables_)

    return Analysis(
        name="balance",
        summary="the rule values that meet a designer's targets: a search of the rule space on common random "
                "numbers, its answer read from fresh games",
        params=(
            Param("policies", default_policies, "one policy per seat", item=str, validate=spec.check_seats),
            Param("vary", default_vary, "rules to vary, as KEY=LOW:HIGH or KEY=a,b,c", item=str,
                  validate=check_vary),
            Param("targets", default_targets, "targets on game metrics, as METRIC=V, METRIC<=V or METRIC>=V, and "
                  "skill targets, as STRONG>WEAK>=SHARE (a policy's share of the wins against another)",
                  item=str, validate=check_targets),
            Param("games", 20_000, "games the search may play", low=2),
            Param("block", 50, "games of a candidate's first block", low=2),
            Param("rungs", 4, "blocks a candidate plays at most, each doubling its games", low=1, high=12),
            Param("batch", 8, "candidates asked for at a time", low=1, high=256),
            Param("check_games", 2000, "fresh games of each finalist", low=2),
            Param("finalists", 5, "best candidates re-played on fresh games", low=1, high=100),
        ),
        run=run, tables=lambda raw, rules, args: from_rows(raw),
        figures=figures,
        trials="games", trial_unit="search games", quick_trials=1000,
        task_size=lambda rules, args: args["games"],  # the whole study is one task
        validate=check_budget,
        outputs=lambda args: (TABLES, ("objective", "front")),
        findings=lambda tables_, rules, args: list(tables_["findings"]["finding"]),
        # the answer's four parts (the fourth a sentence per varied rule) and the search's own sentence
        answer_sentences=4 + len(spec.rules.field_names()),
        substitutions=substitutions,
        prepare=lambda rules, args: prepare_blocks(spec, [(rules, tuple(args["policies"]))]),
    )

