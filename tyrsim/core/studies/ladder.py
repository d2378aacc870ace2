"""The `ladder` analysis every full game engine gets: how strong the players are, rated by Bradley-Terry.

The policies are given weakest first (random, greedy, the heuristics, a
tuned heuristic, search at 1x and 4x its budget). Each plays the rungs up to
`span` above it, seats alternating round the table and rotating from game to game;
neighbours are where the ratings are uncertain, and a rung far above would win
almost every game and teach little (a Bradley-Terry fit needs only a connected
comparison graph, and gets its intervals from the games played). Comparisons,
ratings and intervals are those of `tyrsim.core.stats.ratings`, measured from the
middle rung.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tyrsim.core.engine.analysis import Analysis, ArgumentError, Param, for_game
from tyrsim.core.engine.spec import GameSpec
from tyrsim.core.report import words
from tyrsim.core.report.findings import ladder_findings
from tyrsim.core.stats.ratings import fit_bradley_terry, rating_figure
from tyrsim.core.studies.blocks import (
    SEARCH_GAMES_PER_TASK,
    block_substitutions,
    costliest_first,
    policy_check,
    prepare_blocks,
)
from tyrsim.core.studies.rate import PAIR_WIN_RATE, pairwise_table


def middle_rung(policies: tuple[str, ...]) -> str:
    """The rung the ladder's ratings are measured from: the middle one, so that no rating's interval holds more
    than half the ladder's steps (the bottom rung often never wins, and its strength is then all but unknown)."""
    return policies[len(policies) // 2]


def ladder_pairings(policies: list[str], span: int, seats: int) -> list[tuple[str, ...]]:
    """Seatings of the ladder: each rung against the `span` rungs above it, alternating round the table."""
    pairs = [(policies[i], policies[j]) for i in range(len(policies))
             for j in range(i + 1, min(len(policies), i + span + 1))]
    return [tuple((a, b)[s % 2] for s in range(seats)) for a, b in pairs]


def _check_policies(spec: GameSpec, argument: str):
    one = policy_check(spec, argument)

    def check(policies: tuple[str, ...]) -> None:
        if len(set(policies)) < len(policies) or len(policies) < 2:
            raise ArgumentError(argument, "give at least two different policies, each once")
        for text in policies:
            one(text)

    return check


@for_game
def ladder_analysis(spec: GameSpec, default_policies: tuple[str, ...], seats: int) -> Analysis:
    """A skill ladder of `policies` (weakest first) at `seats`-player tables, rated by Bradley-Terry."""

    def seatings(args: Mapping[str, Any]) -> list[tuple[str, ...]]:
        return ladder_pairings(list(args["policies"]), args["span"], args["players"])

    def run(rules, args, first, count, rng):
        return costliest_first(spec, rules, seatings(args), args["games"], first, count, rng, "pairing")

    def blocks(rules, args) -> list[tuple[Any, tuple[str, ...]]]:
        return [(rules, seating) for seating in seatings(args)]

    def tables(raw, rules, args):
        pairs = pairwise_table(raw)
        ratings = fit_bradley_terry(pairs, anchor=middle_rung(args["policies"]))
        rung = {p: i for i, p in enumerate(args["policies"])}
        ratings = ratings.assign(rung=ratings["policy"].map(rung)).sort_values("rung", ignore_index=True)
        return {"ladder": ratings[["rung"] + [c for c in ratings.columns if c != "rung"]], "ladder_pairwise": pairs}

    def figures(tables_, rules, args):
        # each rung by the name a sentence gives it ("tuned greedy"), the exact policy text in the table
        named = tables_["ladder"].assign(policy=lambda t: t["policy"].map(words.policy_name))
        return {"ladder": rating_figure(named, anchor=words.policy_name(middle_rung(args["policies"])))}

    def validate(args: Mapping[str, Any]) -> None:
        if args["span"] >= len(args["policies"]):
            raise ArgumentError("span", f"{args['span']} rungs up, but the ladder has only "
                                f"{len(args['policies'])} rungs; give at most {len(args['policies']) - 1}")

    return Analysis(
        name="ladder",
        summary="skill ladder: each policy (weakest first) plays the next `span` rungs up; Bradley-Terry ratings",
        params=(
            Param("policies", default_policies, "the rungs, weakest first", item=str,
                  validate=_check_policies(spec, "policies")),
            Param("players", seats, "players at each table", low=2, high=8),
            Param("games", 100, "games per pairing of two rungs", low=1),
            Param("span", 2, "how many rungs up each policy plays", low=1, high=10),
        ),
        run=run, tables=tables, figures=figures, trials="games", trial_unit="games",
        chunk_size=SEARCH_GAMES_PER_TASK, quick_trials=6, validate=validate,
        count=lambda args: len(seatings(args)) * args["games"],
        metrics={"pair_win_rate": PAIR_WIN_RATE},
        headline="pair_win_rate",
        outputs=lambda args: (("ladder", "ladder_pairwise"), ("ladder",)),
        findings=lambda tables_, rules, args: ladder_findings(tables_, middle_rung(args["policies"])),
        substitutions=lambda rules, args: block_substitutions(spec, blocks(rules, args), "pairings"),
        prepare=lambda rules, args: prepare_blocks(spec, blocks(rules, args)),
    )
