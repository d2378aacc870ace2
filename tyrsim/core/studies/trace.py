"""The `trace` analysis every game with a search policy gets: how much a larger search budget gains.

The skill trace is a measure of a game's depth used in automated game
design: a search policy at 2x, 4x, 8x... its budget in one
seat against copies of itself at 1x in the others. For each multiple, the share
of (k-times, 1-times) seat pairs in which the k-times seat finished ahead (ties
half; 50% is no gain), with a t interval over games (clipped to [0, 1]). A game in which more
thinking keeps paying has depth left to find; one in which the trace flattens
early is shallow at that budget.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from tyrsim.core.engine.analysis import Analysis, ArgumentError, Param, for_game
from tyrsim.core.engine.spec import GameSpec
from tyrsim.core.report.figures import legend_outside
from tyrsim.core.report.findings import trace_findings
from tyrsim.core.stats import intervals as stats
from tyrsim.core.studies.blocks import (
    SEARCH_GAMES_PER_TASK,
    block_substitutions,
    costliest_first,
    policy_check,
    prepare_blocks,
)

if TYPE_CHECKING:
    import pandas as pd

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


def seats_ahead(raw: pd.DataFrame, policy: str) -> pd.DataFrame:
    """Per game (and block, if any), the share of the other policies' seats that `policy`'s seat finished
    ahead of (ties half), for tables with one seat of `policy`."""
    import pandas as pd

    keys = [c for c in ("pairing", "multiple", "game_id") if c in raw.columns]
    rows = []
    for key, game in raw.groupby(keys, sort=True):
        mine = game.loc[game["policy"] == policy, "rank"].iloc[0]
        others = game.loc[game["policy"] != policy, "rank"].to_numpy()
        ahead = np.where(others > mine, 1.0, np.where(others == mine, 0.5, 0.0))
        rows.append(dict(zip(keys, key if isinstance(key, tuple) else (key,), strict=True)) | {
            "ahead": float(ahead.mean())})
    return pd.DataFrame(rows)


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
        import pandas as pd

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
            raise ArgumentError("budget", f"{args['budget']!r} is not a parameter of "
                                f"{args['policy']!r}") from None
        if isinstance(value, bool) or not isinstance(value, int):
            raise ArgumentError("budget", f"{args['budget']!r} of {args['policy']!r} is not a "
                                "whole-number budget")
        if len(set(args["multiples"])) < len(args["multiples"]):
            raise ArgumentError("multiples", "give different multiples, each once")

    return Analysis(
        name="trace",
        summary="skill trace: a search policy at multiples of its budget against itself at 1x",
        params=(
            Param("policy", default_policy, "the search policy (NAME or NAME:KEY=VALUE,...)",
                  validate=policy_check(spec, "policy")),
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
