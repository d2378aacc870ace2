"""A balance study's answer and its folder: the sentences that open the page (the best variant, the smallest
change that meets the targets, the variants tied with the best, each rule around the best), its tables as CSV,
its figures (the objective against games spent; the front of rules changed against distance), the page
(Jinja2, `balance.html`) and the manifest.
"""

from __future__ import annotations

import base64
import json
from importlib import metadata
from pathlib import Path
from typing import Any

import pandas as pd

import tyrsim
from tyrsim.core.report.render import render
from tyrsim.core.report.table_text import csv_text, markdown_table, text_cells
from tyrsim.core.report.words import listing, number, p_value
from tyrsim.core.run.output import atomic_folder
from tyrsim.core.studies.balance import BalanceResult, Finalist, Target, variant_text

PAGE_ROWS = 30  # rows of a table shown on the page (all of them in its CSV)


VERDICTS = ("met", "within noise", "missed")  # a metric's verdict over its targets: the worst of them


def _metric(f: Finalist, metric: str) -> str:
    return number(*f.metrics[metric])


def _target_words(f: Finalist, targets: list[Target]) -> str:
    """A metric of a finalist with its interval and what it says of the metric's targets (all on one metric)."""
    value, low, high = f.metrics[targets[0].metric]
    verdict = max((t.verdict(low, high) for t in targets), key=VERDICTS.index)
    goals = " and ".join(f"{t.op} {t.value:g}" for t in targets)
    return f"{targets[0].metric} {number(value, low, high)} (target{'s' if len(targets) > 1 else ''} {goals}: " \
        f"{verdict})"


def _by_metric(targets: tuple[Target, ...]) -> list[list[Target]]:
    """The targets grouped by metric, in the order first named."""
    return [[t for t in targets if t.metric == m] for m in dict.fromkeys(t.metric for t in targets)]


def _distance(f: Finalist) -> str:
    return number(*f.distance)


def _within_noise(f: Finalist, targets: list[Target] | tuple[Target, ...]) -> str:
    """", within noise of TARGET, ..." for the targets a finalist neither clearly meets nor clearly misses."""
    close = [t.text() for t in targets if t.verdict(*f.metrics[t.metric][1:]) == "within noise"]
    return f" (within noise of {listing(close)})" if close else ""


def findings(result: BalanceResult) -> list[str]:
    """The answer in sentences, each number with its 95% interval, from the fresh games only."""
    setup = result.setup
    best = result.finalists[result.best]
    base = result.finalists[0]
    name = variant_text(best.values, setup)
    out = []
    fresh = f"On {setup.check_games:,} fresh games (a stream the search never played)"
    if best is base:
        out.append(f"The best variant the search found is the run's rules themselves. {fresh}: "
                   + "; ".join(_target_words(best, group) for group in _by_metric(setup.targets))
                   + f"; distance from the targets {_distance(best)}.")
    else:
        out.append(f"The best variant the search found: {name} ({best.changed} rule"
                   f"{'s' if best.changed != 1 else ''} changed from the rulebook). {fresh}: "
                   + "; ".join(f"{_target_words(best, group)} against {_metric(base, group[0].metric)} under "
                               "the run's rules" for group in _by_metric(setup.targets))
                   + f"; distance from the targets {_distance(best)} against {_distance(base)}.")
    meeting = [f for f in result.finalists if f.meets]
    if meeting:
        smallest = min(meeting, key=lambda f: (f.changed, f.distance[0]))
        if smallest is base:
            out.append("The run's rules already meet every target on the fresh games"
                       f"{_within_noise(base, setup.targets)}: no change is needed.")
        else:
            out.append(f"The smallest change to the published rules that meets every target"
                       f"{_within_noise(smallest, setup.targets)}: {variant_text(smallest.values, setup)} "
                       f"({smallest.changed} rule{'s' if smallest.changed != 1 else ''} changed): "
                       + "; ".join(_target_words(smallest, group) for group in _by_metric(setup.targets)) + ".")
    else:
        closest = min(result.finalists, key=lambda f: f.distance[0])
        worst = max(setup.targets, key=lambda t: float(t.shortfall(closest.metrics[t.metric][0])))
        out.append(f"No variant played meets every target on the fresh games. The closest miss is "
                   f"{variant_text(closest.values, setup)} (distance {_distance(closest)}), furthest off on "
                   f"{_target_words(closest, [worst])}.")
    table = result.comparisons
    tied = table[table["tied"]]
    how = (f"paired on the fresh games, bootstrap p-values Holm-adjusted over {len(table)} comparison"
           f"{'s' if len(table) != 1 else ''}")
    if len(tied):
        out.append(f"Statistically tied with the best ({how}): " + listing(
            [f"{r.variant} (distance {'+' if r.difference >= 0 else ''}{number(r.difference, r.diff_low, r.diff_high)}"
             f", p = {p_value(r.p_holm)})" for r in tied.itertuples()]) + ".")
    elif len(table):
        out.append(f"No other finalist is tied with the best ({how}): each is further from the targets.")
    out.extend(_around(result))
    stopped = sum(c.stopped == "racing" for c in result.candidates)
    why = {"budget": "the budget was spent", "space": "every variant of the space was played",
           "trials": "the budget allowed no more candidates", "time": "the time limit was reached"}
    batches = f"{result.batches} batch{'es' if result.batches != 1 else ''}"
    out.append(f"The search played {result.spent:,} games on {len(result.candidates) - 1} candidates beside the "
               f"run's rules, in {batches} of {setup.batch}; racing stopped {stopped} early; it "
               f"ended because {why[result.stopped_by]}.")
    return out


def _around(result: BalanceResult) -> list[str]:
    """Part (4): around the best, each varied rule one step down and up."""
    setup = result.setup
    best = result.finalists[result.best]
    sentences = []
    for d in setup.space:
        rows = result.neighbours[result.neighbours["rule"] == d.rule]
        parts = []
        # an integer steps down and up; a listed rule goes to the value before or after in its list
        words = {"down": ("one step down", "lowest"), "up": ("one step up", "highest")} if d.integer else {
            "down": ("the value before", "first listed"), "up": ("the value after", "last listed")}
        for way in ("down", "up"):
            step = rows[rows["step"] == way]
            if not len(step):
                if best.values[d.rule] in d.values:
                    parts.append(f"no {words[way][0].removeprefix('the ').removeprefix('one ')} "
                                 f"({d.label(best.values[d.rule])} is the {words[way][1]} value)")
                continue
            changes = [f"{r.measure} {'+' if r.difference >= 0 else ''}"
                       f"{number(r.difference, r.diff_low, r.diff_high)}" for r in step.itertuples()]
            parts.append(f"{words[way][0]} ({step['value'].iloc[0]}) changes " + ", ".join(changes))
        if parts:
            sentences.append(f"Around the best, {d.rule}: " + "; ".join(parts) + ".")
    return sentences


def objective_figure(search: pd.DataFrame):
    """Each candidate's distance against the search games spent when its batch was done (the `search` table),
    and the incumbent's."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 4.5))
    stopped = search["stopped"].fillna("").astype(str)
    for reason, label, marker in (("", "played every block", "o"), ("racing", "stopped by racing", "x"),
                                  ("budget", "stopped by the budget", ".")):
        part = search[stopped == reason]
        if len(part):
            ax.scatter(part["games_spent"], part["distance"], marker=marker, label=label)
    full = search[search["played_every_block"].astype(bool)].sort_values("games_spent", kind="stable")
    ax.step(full["games_spent"], full["distance"].cummin(), where="post", color="black",
            label="incumbent (least distance so far)")
    ax.set_xlabel("search games spent")
    ax.set_ylabel("distance from the targets (search games)")
    ax.legend(fontsize=8)
    fig.suptitle("The objective against games spent")
    fig.tight_layout()
    return fig


def front_figure(finalists: pd.DataFrame, front: pd.DataFrame):
    """Rules changed against distance: every finalist on the fresh games (95% intervals, the `finalists` table),
    and the search's least distance for each number of rules changed (the `front` table)."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 4.5))
    value = finalists["distance"].to_numpy(dtype=float)
    ax.errorbar(finalists["rules_changed"], value, yerr=[value - finalists["distance_low"].to_numpy(dtype=float),
                                                         finalists["distance_high"].to_numpy(dtype=float) - value],
                fmt="o", color="tab:blue", capsize=3, alpha=0.7, label="finalists, fresh games")
    ax.plot(front["rules_changed"], front["distance"], "s--", color="tab:orange", mfc="none",
            label="search: least distance per number of rules changed")
    best = finalists[finalists["roles"].astype(str).str.split("; ").map(lambda roles: "best" in roles)]
    best = best if len(best) else finalists.head(1)
    ax.scatter(best["rules_changed"].head(1), best["distance"].head(1), s=160, facecolors="none", edgecolors="red",
               label="the best")
    ax.set_xlabel("rules changed from the rulebook")
    ax.set_ylabel("distance from the targets")
    ax.set_xticks(sorted({int(c) for c in finalists["rules_changed"]} | {int(c) for c in front["rules_changed"]}))
    ax.legend(fontsize=8)
    fig.suptitle("Rules changed against distance from the targets (dots: fresh games, 95% intervals)")
    fig.tight_layout()
    return fig


def figures(tables_: dict[str, pd.DataFrame]) -> dict[str, Any]:
    """The study's figures from its tables."""
    return {"objective": objective_figure(tables_["search"]),
            "front": front_figure(tables_["finalists"], tables_["front"])}


def tables(result: BalanceResult) -> dict[str, pd.DataFrame]:
    return {"finalists": result.table(), "tied_with_best": result.comparisons, "around_best": result.neighbours,
            "front": result.front(), "search": result.search_table()}


def run_lines(result: BalanceResult, command: str) -> list[str]:
    setup = result.setup
    changed = setup.rules.differences()
    return [
        f"Command: `{command}`.",
        f"Policies, one per seat: {', '.join(setup.policies)} ({setup.players} players; seats rotate).",
        "Space: " + "; ".join(d.text() for d in setup.space) + ".",
        "Targets: " + "; ".join(t.text() for t in setup.targets) + ". Distance: the sum of each target's shortfall "
        "in standard deviations of its per-game measure under the run's rules. A target is met where its whole "
        "95% interval lies on the target's side (for =, where it holds the value), missed where it lies wholly off "
        "it, within noise in between; a variant meets the targets where none is missed.",
        "The run's rules: " + (", ".join(f"{k}={v}" for k, v in changed.items()) if changed else "the rulebook's")
        + ".",
        f"Seed {setup.seed}: the search's games, the fresh games and the sampler each draw from their own stream. "
        f"Search budget {setup.budget:,} games in blocks of {setup.block} doubling {setup.rungs} times (at most "
        f"{setup.full:,} games a candidate), {setup.batch} candidates a batch; {setup.check_games:,} fresh games "
        f"per finalist.",
    ]


def manifest(result: BalanceResult, command: str, wall_time: float) -> dict[str, Any]:
    setup = result.setup
    versions = {"tyrsim": tyrsim.__version__}
    for name in ("optuna", "numpy", "scipy", "pandas"):
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            pass
    return {"command": command, "game": setup.game, "seed": setup.seed, "rules": setup.rules.as_dict(),
            "space": [d.text() for d in setup.space], "targets": [t.text() for t in setup.targets],
            "policies": list(setup.policies), "budget": setup.budget, "block": setup.block, "rungs": setup.rungs,
            "batch": setup.batch, "check_games": setup.check_games, "finalists": setup.finalists,
            "search_games": result.spent, "batches": result.batches, "stopped_by": result.stopped_by,
            "findings": findings(result), "versions": versions, "wall_time_seconds": round(wall_time, 3)}


def write_balance(out: Path, result: BalanceResult, command: str, wall_time: float) -> None:
    """Write the study's folder atomically: index.md and index.html (the answer first), every table as CSV,
    the figures as PNG and manifest.json."""
    title = f"Balance: {result.setup.game}"
    answer = findings(result)
    lines = run_lines(result, command)
    made = tables(result)
    drawn = figures(made)
    with atomic_folder(out) as folder:
        md = [f"# {title}", "", "## Answer", "", *(f"- {s}" for s in answer), "", "## How this was run", "",
              *(f"- {line}" for line in lines), "", "## Figures", ""]
        shown_figures = []
        for name, fig in drawn.items():
            png = folder / f"{name}.png"
            fig.savefig(png, dpi=100, bbox_inches="tight")
            heading = fig._suptitle.get_text()
            md += [f"### {heading}", "", f"![{heading}]({name}.png)", ""]
            shown_figures.append({"title": heading, "png": png.name,
                                  "data": base64.b64encode(png.read_bytes()).decode()})
        md += ["## Tables", ""]
        shown_tables = []
        for name, table in made.items():
            (folder / f"{name}.csv").write_text(csv_text(table))
            head = table.head(PAGE_ROWS)
            rows = f"{len(table):,} row{'s' if len(table) != 1 else ''}"
            more = f"{PAGE_ROWS} of {rows}; all in" if len(table) > PAGE_ROWS else f"{rows}; also in"
            md += [f"### {name}", "", markdown_table(head, 4), "", f"({more} [{name}.csv]({name}.csv))", ""]
            shown_tables.append({"title": name.replace("_", " "), "rows": rows, "note": "",
                                 "columns": [str(c) for c in head.columns], "cells": text_cells(head, 4),
                                 "marked": (head["tied"].astype(bool).tolist() if "tied" in head.columns
                                            else [False] * len(head)),
                                 "more": more, "csv": f"{name}.csv"})
        (folder / "index.md").write_text("\n".join(md))
        (folder / "index.html").write_text(render("balance.html", title=title, findings=answer, lines=lines,
                                                  figures=shown_figures, tables=shown_tables))
        (folder / "manifest.json").write_text(json.dumps(manifest(result, command, wall_time), indent=1,
                                                         default=str) + "\n")
    import matplotlib.pyplot as plt

    for fig in drawn.values():
        plt.close(fig)
