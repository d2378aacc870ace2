"""How strong the players are: a skill ladder rated by Bradley-Terry, and a skill trace of search budgets.

`ladder`: the policies are given weakest first (random, greedy, the heuristics, a
tuned heuristic, search at 1x and 4x its budget). Each plays the rungs up to
`span` above it, seats alternating round the table and rotating from game to game;
neighbours are where the ratings are uncertain, and a rung far above would win
almost every game and teach little (a Bradley-Terry fit needs only a connected
comparison graph, and gets its intervals from the games played). Comparisons,
ratings and intervals are those of `tyrsim.core.stats.ratings`, measured from the
middle rung.

`trace`: the skill trace, a measure of a game's depth used in automated game
design: a search policy at 2x, 4x, 8x... its budget in one
seat against copies of itself at 1x in the others. For each multiple, the share
of (k-times, 1-times) seat pairs in which the k-times seat finished ahead (ties
half; 50% is no gain), with a t interval over games (clipped to [0, 1]). A game in which more
thinking keeps paying has depth left to find; one in which the trace flattens
early is shallow at that budget.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from tyrsim.core.engine.analysis import Analysis, ArgumentError, Param, for_game
from tyrsim.core.engine.protocols import PolicyError
from tyrsim.core.engine.spec import GameSpec
from tyrsim.core.report.figures import legend_outside
from tyrsim.core.report.findings import ladder_findings, trace_findings
from tyrsim.core.stats import intervals as stats
from tyrsim.core.stats.ratings import fit_bradley_terry, rating_figure
from tyrsim.core.studies.blocks import block_substitutions, play_blocks, prepare_blocks
from tyrsim.core.studies.rate import PAIR_WIN_RATE, pairwise_table

# what the trace's columns mean, on its page (its `significant` is not the core's Holm-corrected test)
TRACE_GLOSSARY = {
    "multiple": "the searching seat's budget as a multiple of the default; the other seats play 1x",
    "budget": "that budget in the policy's own unit (iterations)",
    "seats_beaten": "the share of 1x seats the bigger budget finished ahead of (ties half; 50% is no gain), with a "
                    "95% t interval over games (ci_low, ci_high)",
    "par": "the win rate of a seat that plays no better than the others: 1 / players",
    "significant": "yes where the interval of the share of 1x seats finished ahead of lies wholly above 50% (each "
                   "multiple on its own, not corrected for the others)",
}

# games per task: a search game takes seconds, so small tasks keep every core busy to the end
SEARCH_GAMES_PER_TASK = 2


def costliest_first(spec: GameSpec, rules: Any, seatings: list[tuple[str, ...]], per_block: int, first: int, count: int,
                    rng: np.random.Generator, block_column: str) -> pd.DataFrame:
    """`play_blocks` with the blocks played in reverse order, still numbered as in `seatings`.

    The ladder and the trace list their seatings cheapest first (the rungs from random up, the multiples
    from 2x up), and tasks start in game order: played in reverse, the longest games start first and the
    short ones fill the workers at the end, instead of one long task running alone while the others idle.
    """
    last = len(seatings) - 1
    raw = play_blocks(spec, rules, seatings[::-1], per_block, first, count, rng, block_column)
    raw[block_column] = last - raw[block_column]
    return raw


def seats_ahead(raw: pd.DataFrame, policy: str) -> pd.DataFrame:
    """Per game (and block, if any), the share of the other policies' seats that `policy`'s seat finished
    ahead of (ties half), for tables with one seat of `policy`."""
    keys = [c for c in ("pairing", "multiple", "game_id") if c in raw.columns]
    rows = []
    for key, game in raw.groupby(keys, sort=True):
        mine = game.loc[game["policy"] == policy, "rank"].iloc[0]
        others = game.loc[game["policy"] != policy, "rank"].to_numpy()
        ahead = np.where(others > mine, 1.0, np.where(others == mine, 0.5, 0.0))
        rows.append(dict(zip(keys, key if isinstance(key, tuple) else (key,), strict=True)) | {
            "ahead": float(ahead.mean())})
    return pd.DataFrame(rows)


def middle_rung(policies: tuple[str, ...]) -> str:
    """The rung the ladder's ratings are measured from: the middle one, so that no rating's interval holds more
    than half the ladder's steps (the bottom rung often never wins, and its strength is then all but unknown)."""
    return policies[len(policies) // 2]


def ladder_pairings(policies: list[str], span: int, seats: int) -> list[tuple[str, ...]]:
    """Seatings of the ladder: each rung against the `span` rungs above it, alternating round the table."""
    pairs = [(policies[i], policies[j]) for i in range(len(policies))
             for j in range(i + 1, min(len(policies), i + span + 1))]
    return [tuple((a, b)[s % 2] for s in range(seats)) for a, b in pairs]


def _check_policy(spec: GameSpec, argument: str):
    def check(text: str) -> None:
        try:
            spec.make_policy(text)
        except PolicyError as exc:
            raise ArgumentError(argument, f"argument {argument!r}: {exc}") from None

    return check


def _check_policies(spec: GameSpec, argument: str):
    one = _check_policy(spec, argument)

    def check(policies: tuple[str, ...]) -> None:
        if len(set(policies)) < len(policies) or len(policies) < 2:
            raise ArgumentError(argument, f"argument {argument!r}: give at least two different policies, each once")
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
        return {"ladder": rating_figure(tables_["ladder"], anchor=middle_rung(args["policies"]))}

    def validate(args: Mapping[str, Any]) -> None:
        if args["span"] >= len(args["policies"]):
            raise ArgumentError("span", f"argument 'span': {args['span']} rungs up, but the ladder has only "
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


def budget_text(spec: GameSpec, policy: str, field: str, multiple: int) -> str:
    """The policy text of `policy` with its budget `field` multiplied by `multiple` ("NAME@Kx" when shown)."""
    base = spec.make_policy(policy)
    name, _, params = policy.partition(":")
    budget = getattr(base, field) * multiple
    # the budget given in `policy` is replaced, not repeated (a parameter given twice is refused)
    kept = [p for p in params.split(",") if p.strip() and p.partition("=")[0].strip() != field]
    return f"{name}:{','.join([*kept, f'{field}={budget}'])}"


@for_game
def trace_analysis(spec: GameSpec, default_policy: str, seats: int) -> Analysis:
    """The skill trace of a search policy: `multiples` of its budget, each against copies of it at 1x."""

    def seatings(args: Mapping[str, Any]) -> list[tuple[str, ...]]:
        strong = [budget_text(spec, args["policy"], args["budget"], m) for m in args["multiples"]]
        return [(s,) + (args["policy"],) * (args["players"] - 1) for s in strong]

    def run(rules, args, first, count, rng):
        raw = costliest_first(spec, rules, seatings(args), args["games"], first, count, rng, "multiple")
        # the block number names the multiple; the seat's label says which policy held the bigger budget
        multiples = list(args["multiples"])
        raw["multiple"] = raw["multiple"].map(lambda b: multiples[b])
        raw["policy"] = np.where(raw["policy"] == args["policy"], "1x", raw["multiple"].map(lambda m: f"{m}x"))
        return raw

    def tables(raw, rules, args):
        rows = []
        for m, group in raw.groupby("multiple", sort=True):
            ahead = seats_ahead(group, f"{m}x")["ahead"].to_numpy()
            mean, low, high = stats.share_interval(ahead)
            strong = group[group["policy"] == f"{m}x"]
            wins = strong["win_share"].sum()
            w_low, w_high = stats.wilson_interval(wins, len(strong))
            rows.append({"multiple": int(m), "budget": getattr(spec.make_policy(args["policy"]),
                                                                 args["budget"]) * int(m),
                         "games": len(ahead), "seats_beaten": mean, "ci_low": low, "ci_high": high,
                         "win_rate": wins / len(strong), "win_low": float(w_low), "win_high": float(w_high),
                         "par": 1 / args["players"], "significant": bool(low > 0.5)})
        table = pd.DataFrame(rows)
        return {"skill_trace": table, "skill_trace_reading": pd.DataFrame(
            [{"policy": args["policy"], "reading": trace_reading(table, args["policy"])}])}

    def figures(tables_, rules, args):
        return {"skill_trace": trace_figure(tables_["skill_trace"], args["policy"])}

    def validate(args: Mapping[str, Any]) -> None:
        try:
            value = getattr(spec.make_policy(args["policy"]), args["budget"])
        except AttributeError:
            raise ArgumentError("budget", f"argument 'budget': {args['budget']!r} is not a parameter of "
                                f"{args['policy']!r}") from None
        if isinstance(value, bool) or not isinstance(value, int):
            raise ArgumentError("budget", f"argument 'budget': {args['budget']!r} of {args['policy']!r} is not a "
                                "whole-number budget")
        if len(set(args["multiples"])) < len(args["multiples"]):
            raise ArgumentError("multiples", "argument 'multiples': give different multiples, each once")

    return Analysis(
        name="trace",
        summary="skill trace: a search policy at multiples of its budget against itself at 1x",
        params=(
            Param("policy", default_policy, "the search policy (NAME or NAME:KEY=VALUE,...)",
                  validate=_check_policy(spec, "policy")),
            Param("budget", "iterations", "the policy's parameter that is its budget"),
            Param("multiples", (2, 4, 8), "the budget multiples played against 1x", item=int, low=2, high=1024),
            Param("players", seats, "players at each table", low=2, high=8),
            Param("games", 100, "games per multiple", low=2),
        ),
        run=run, tables=tables, figures=figures, trials="games", trial_unit="games",
        chunk_size=SEARCH_GAMES_PER_TASK, quick_trials=6, validate=validate,
        count=lambda args: len(args["multiples"]) * args["games"],
        outputs=lambda args: (("skill_trace", "skill_trace_reading"), ("skill_trace",)),
        findings=lambda tables_, rules, args: trace_findings(tables_, args["budget"]),
        glossary=TRACE_GLOSSARY,
        substitutions=lambda rules, args: block_substitutions(spec, [(rules, s) for s in seatings(args)], "multiples"),
        prepare=lambda rules, args: prepare_blocks(spec, [(rules, s) for s in seatings(args)]),
    )


# the widest interval half-width at which a trace with no significant gain reads as "no gain" rather than "too few
# games to tell": a gain of 10 points in seats beaten would then have been seen
TELLING_HALF_WIDTH = 0.1


def trace_reading(table: pd.DataFrame, policy: str) -> str:
    """The trace in a sentence: up to which multiple more thinking paid."""
    if table.empty:
        return "no games were played"
    parts = [f"{int(r.multiple)}x finished ahead of a 1x seat in {100 * r.seats_beaten:.0f}% "
             f"[{100 * r.ci_low:.0f}, {100 * r.ci_high:.0f}]" for r in table.itertuples()]
    paying = table[table["significant"]]
    widest = float((table["ci_high"] - table["ci_low"]).max()) / 2
    if paying.empty and widest > TELLING_HALF_WIDTH:
        verdict = (f"these games cannot tell whether more search pays: every interval holds 50% and is up to "
                   f"±{100 * widest:.0f} points wide; play more games per multiple")
    elif paying.empty:
        verdict = "more search did not pay at any multiple measured: the game looks shallow at this budget"
    else:
        top = table.iloc[-1]
        # keeps paying: the largest multiple is ahead of the smallest significantly (independent t intervals)
        first = table.iloc[0]
        keeps = top["ci_low"] > first["ci_high"] or (len(table) == 1 and bool(top["significant"]))
        # not keeps: the gain may have stopped growing or may grow too slowly for these games to show it
        verdict = ("more thinking keeps paying up to the largest multiple: the game has depth left"
                   if keeps else f"more thinking pays from {int(paying.iloc[0]['multiple'])}x on; the smallest and "
                   "largest multiples' intervals overlap, so these games do not tell whether the gain still grows")
    return f"{policy}: " + "; ".join(parts) + f". {verdict[0].upper()}{verdict[1:]}."


def trace_figure(table: pd.DataFrame, policy: str):
    """Share of 1x seats beaten against the budget multiple, with intervals and the no-gain line."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.5, 4))
    x = table["multiple"].to_numpy()
    y = 100 * table["seats_beaten"].to_numpy()
    err = [y - 100 * table["ci_low"].to_numpy(), 100 * table["ci_high"].to_numpy() - y]
    ax.errorbar(x, y, yerr=err, fmt="o-" if len(x) > 2 else "o", capsize=4)
    ax.axhline(50, color="grey", linewidth=0.8, linestyle=":", label="no gain (50%)")
    ax.set_xscale("log", base=2)
    ax.set_xticks(x, [f"{m}x" for m in x])
    ax.set_xlabel(f"budget of {policy}, as a multiple of its default")
    ax.set_ylabel("1x seats finished ahead of (%)")
    ax.set_title(f"Skill trace of {policy}")
    legend_outside(ax)
    fig.tight_layout()
    return fig
