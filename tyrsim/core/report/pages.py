"""Reports: a scenario's tables and figures as a folder a person can browse.

A report folder holds `index.md` and `index.html` (one self-contained page:
title, what was run, the rules that differ from the rulebook, the tables, the
figures, the comparison with significance marked, the run time), one CSV per
table, one PNG per figure, and `manifest.json` (scenario text, seed, resolved
rules, versions, trial counts, wall time, git commit) so any number can be
reproduced. It is written into a temporary folder and renamed into place.

The HTML pages are filled templates (`render`: one template per page part, shared with the
live page); the markdown twin is written here. A page names each sweep point in words
(`rule_words`), never as `name=value`; "How this was run" keeps the exact keys and values.
"""

from __future__ import annotations

import base64
import functools
import json
import platform
import re
import subprocess
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

import tyrsim
from tyrsim.core.report import rule_words, words
from tyrsim.core.report.figures import comparison_figures
from tyrsim.core.report.findings import GAME_GLOSSARY, PHRASES, comparison_findings
from tyrsim.core.report.readable import header, readable
from tyrsim.core.report.render import render
from tyrsim.core.report.table_text import csv_text, markdown_table
from tyrsim.core.run.output import atomic_folder
from tyrsim.core.run.scenario import Scenario, shown_value
from tyrsim.core.run.substitutions import Noted
from tyrsim.core.run.sweep import PointResult
from tyrsim.core.stats.comparisons import comparison_table

PAGE_ROWS = 60  # rows of a table shown on the page; the CSV has them all
MAX_COMPARED = 3  # sentences of a page's answer, at most, about the comparison of variants (the rest: the analysis's
# own, up to its `answer_sentences` in all)
DEPENDENCIES = ("numpy", "pandas", "scipy", "matplotlib", "joblib", "click", "dask", "distributed")
NO_FINDINGS = "This analysis writes no summary sentences; the figures and tables below hold its results."
# what the columns the core adds mean (the analyses explain their own: `Analysis.glossary`)
CORE_GLOSSARY = {
    "variant": "the sweep point compared with the baseline",
    "baseline": "the metric's value at the baseline point",
    "value": "the metric's value at the variant (in the comparison), or the measure's value",
    "difference": "variant minus baseline, with its 95% interval (Newcombe for shares, Welch for means)",
    "p_value": "the test's p-value before the correction for many comparisons",
    "p_holm": "the p-value after the Holm correction across every comparison on the page",
    "significant": "yes where the Holm-corrected p-value is below 0.05; never where no test was possible",
    "test": "which test gave the p-value, or why there is none",
    "half_width": "half the width of the 95% interval of the precision target's metric",
    "met": "whether the precision target was reached before the trial limit",
}


@dataclass
class Report:
    """What a scenario run produced, ready to be written.

    Its figures are drawn when first asked for (writing the page asks), so a run whose tables are only printed
    draws none and never starts matplotlib.
    """

    scenario: Scenario
    results: list[PointResult]
    tables: dict[str, pd.DataFrame]
    comparison: pd.DataFrame = field(default_factory=pd.DataFrame)
    wall_time: float = 0.0
    findings: list[str] = field(default_factory=list)  # the answer, in sentences, that opens the page
    files: dict[str, bytes] = field(default_factory=dict)  # extra files the analysis writes (a sheet, a page)
    # what the run played in place of what was asked, and why (`sweep.run_substitutions`)
    substitutions: list[Noted] = field(default_factory=list)
    # each point's own tables, in the order of `results`: what its figures are drawn from
    point_tables: list[dict[str, pd.DataFrame]] = field(default_factory=list)

    @functools.cached_property
    def _drawn(self) -> tuple[dict[str, Any], dict[str, str]]:
        return _draw_figures(self)

    @property
    def figures(self) -> dict[str, Any]:
        """{name: matplotlib Figure}: the variants overlaid first, then each point's."""
        return self._drawn[0]

    @property
    def figure_points(self) -> dict[str, str]:
        """{a sweep point's figure: the point in words}."""
        return self._drawn[1]


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.=-]+", "_", text).strip("_")


def build_report(scenario: Scenario, results: list[PointResult], wall_time: float,
                 substitutions: list[Noted] | None = None) -> Report:
    """Tables (points stacked, swept values as leading columns), and each point's tables for its figures (drawn
    when first asked for: `Report.figures`); `substitutions`: the run's (`sweep.run_substitutions`), for its
    manifest and page."""
    analysis = scenario.analysis
    stacked: dict[str, list[pd.DataFrame]] = {}
    point_tables = []
    points = {r.point.title(): rule_words.point(r.point.rules, r.point.args, analysis, r.point.label)
              for r in results}
    for result in results:
        point = result.point
        tables = analysis.tables(result.raw, point.rules, point.args)
        point_tables.append(tables)
        for name, table in tables.items():
            table = table.copy()
            swept = [(k, v) for k, v in point.label.items() if k not in table.columns]  # else the table shows it
            for i, (key, value) in enumerate(swept):
                table.insert(i, key, shown_value(value))
            stacked.setdefault(name, []).append(table)
    tables = {name: pd.concat(parts, ignore_index=True) for name, parts in stacked.items()}
    swept = _swept_words(scenario, results)
    for table in tables.values():
        table.attrs[PHRASES] = swept  # the findings name each sweep point by these words (`findings.points_of`)
    computed = dict(tables)  # what the analysis's findings and files read: every table it made
    if scenario.precision is not None:
        tables["precision"] = pd.DataFrame(
            [{**r.point.label, "trials": r.trials, "half_width": r.half_width, "target": scenario.precision.half_width,
              "met": r.met} for r in results]
        )
    # the [report] names were checked against the analysis's declared outputs when the scenario was read
    if scenario.tables is not None:
        order = [*scenario.tables, "precision"]
        tables = {k: tables[k] for k in order if k in tables}
    comparison = comparison_table(scenario, results)
    comparison.attrs[PHRASES] = {"variant": points}
    first = results[0].point
    own = analysis.findings(computed, first.rules, first.args) if analysis.findings is not None else []
    compared = comparison_findings(comparison, analysis.metrics)
    own, compared = ([words.policy_names(s) for s in named_players(sentences, [r.point.args for r in results])]
                     for sentences in (own, compared))
    files = analysis.files(computed, first.rules, first.args) if analysis.files is not None else {}
    # the comparison answers a sweep's question (its first metric first), the analysis's own sentences follow
    answer = (compared[:MAX_COMPARED] + own)[:analysis.answer_sentences]
    return Report(scenario, results, tables, comparison, wall_time, answer, files, list(substitutions or ()),
                  point_tables)


def _draw_figures(report: Report) -> tuple[dict[str, Any], dict[str, str]]:
    """The report's figures, {name: matplotlib Figure} (the variants overlaid first, then one set per point, those
    the scenario's [report] names if it names any), and {a sweep point's figure: the point in words}."""
    import matplotlib

    matplotlib.use("Agg")
    scenario, results = report.scenario, report.results
    analysis = scenario.analysis
    figures: dict[str, Any] = {}
    figure_points: dict[str, str] = {}
    if analysis.figures is not None:
        for result, tables in zip(results, report.point_tables, strict=True):
            point = result.point
            # every figure of a sweep is open until the page is written, which closes them: many points make
            # many at once, and matplotlib's warning about that (after 20) would only alarm
            with matplotlib.rc_context({"figure.max_open_warning": 0}):
                made = analysis.figures(tables, point.rules, point.args)
            for name, fig in made.items():
                key = name if len(results) == 1 else f"{name}__{_slug(point.title())}"
                figures[key] = fig
                if len(results) > 1:
                    figure_points[key] = rule_words.point(point.rules, point.args, analysis, point.label)
    if scenario.figures is not None:
        shown = {k: v for k, v in figures.items() if k.split("__")[0] in scenario.figures}
        _close([fig for k, fig in figures.items() if k not in shown])  # made for every point, not asked for
        figures = shown
    labels = {title: rule_words.label(phrase) for title, phrase in report.comparison.attrs[PHRASES]["variant"].items()}
    # the variants overlaid first
    return {**comparison_figures(report.comparison, analysis.metrics, labels), **figures}, figure_points


def _swept_words(scenario: Scenario, results: list[PointResult]) -> dict[str, dict[Any, str]]:
    """{swept column: {its value as the tables show it: the value in words}} (`rule_words.point`)."""
    swept: dict[str, dict[Any, str]] = {}
    for r in results:
        point = r.point
        for key, value in point.label.items():
            words_for = rule_words.point(point.rules, point.args, scenario.analysis, {key: value})
            swept.setdefault(key, {})[shown_value(value)] = words_for
    return swept


def _versions() -> dict[str, str]:
    versions = {"tyrsim": tyrsim.__version__, "python": platform.python_version()}
    for name in DEPENDENCIES:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            pass
    return versions


def _git_commit() -> str | None:
    try:
        out = subprocess.run(["git", "rev-parse", "HEAD"], cwd=Path(tyrsim.__file__).parent, capture_output=True,
                             text=True, timeout=5)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() or None if out.returncode == 0 else None


def manifest(report: Report) -> dict[str, Any]:
    s = report.scenario
    return {
        "scenario": s.name,
        "file": s.path,
        "scenario_text": s.text,
        "game": s.game.name,
        "analysis": s.analysis.name,
        "seed": s.seed,
        "points": [
            {"index": r.point.index, "label": r.point.label, "rules": r.point.rules.as_dict(),
             "args": r.point.args, "trials": r.trials, "half_width": r.half_width, "precision_met": r.met,
             "data_files_sha256": r.data_files,
             # what the tasks handed back: "rows", or "summaries" (their sums, added up; the same tables)
             "task_results": r.task_results}
            for r in report.results
        ],
        "versions": _versions(),
        "git_commit": _git_commit(),
        "wall_time_seconds": round(report.wall_time, 3),
        "findings": report.findings,
        "substitutions": [n.record(s.game.name) for n in report.substitutions],
        "player_files": {name: title for name, title in s.analysis.player_files.items() if name in report.files},
    }


def _run_lines(report: Report) -> list[str]:
    s = report.scenario
    lines = [f"Game **{s.game.title}**, analysis **{s.analysis.name}** ({s.analysis.summary}); seed {s.seed}."]
    if s.sweep:
        lines.append("Sweep: " + "; ".join(f"`{k}` over {', '.join(str(shown_value(x)) for x in v)}"
                                           for k, v in s.sweep.items())
                     + f" ({len(s.points)} points).")
    played = dict.fromkeys(", ".join(map(str, _as_list(r.point.args[key])))
                           for r in report.results for key in ("policies", "policy") if key in r.point.args)
    if played:
        lines.append("Every figure here comes from games played by these policies: " + "; ".join(played) + ".")
    trials = sorted({r.trials for r in report.results})
    if trials != [0]:
        lines.append(f"{s.analysis.trial_unit.capitalize()} per point: {', '.join(f'{t:,}' for t in trials)}.")
    else:
        lines.append("Computed exactly (no sampling).")
    if s.precision is not None:
        missed = [r.point.title() for r in report.results if not r.met]
        least = "" if s.precision.min_trials is None else f"at least {s.precision.min_trials:,} and "
        lines.append(f"Precision target: 95% half-width {s.precision.half_width} on `{s.precision.metric}`, "
                     f"{least}at most {s.precision.max_trials:,} {s.analysis.trial_unit}; "
                     + ("met at every point." if not missed else f"NOT met (maximum reached) at: {', '.join(missed)}."))
    differs = {}
    for r in report.results:
        for k, v in r.point.rules.differences().items():
            differs.setdefault(k, []).append(v)
    if differs:
        lines.append("Rules that differ from the rulebook: "
                     + "; ".join(f"`{k}` = {', '.join(dict.fromkeys(map(str, v)))}" for k, v in differs.items()) + ".")
    else:
        lines.append("Rules: as in the rulebook.")
    lines += [f"Played other than asked: {n.line(s.game.name)}." for n in report.substitutions]
    # a resumed or repeated run reads earlier runs' tasks from the store: its time is not the games' time
    stored = sum(r.stored for r in report.results)
    lines.append(f"Run time {report.wall_time:.1f} s" + (
        f", with the results of {stored:,} task{'' if stored == 1 else 's'} read from the result store (played "
        "by an earlier run, whose time this does not count)" if stored else "") + ".")
    return lines


def named_players(findings: list[str], point_args: list[Mapping[str, Any]]) -> list[str]:
    """The findings, each naming the policies that produced it: a sentence that names none of the points'
    policies (a seat's edge, a game's length, a rule's Sobol' index) says who played, where every point
    played the same table; a sweep over the policies names each point's in its sentences' opening."""
    tables = {tuple(_as_list(args[key])) for args in point_args for key in ("policies", "policy") if key in args}
    if len(tables) != 1:
        return findings
    (table,) = tables
    named = []
    for sentence in findings:
        if not any(policy in sentence for policy in table):
            sentence = f"{sentence.rstrip('.')} (played by {words.players(table)})."
        named.append(sentence)
    return named


def _as_list(value: Any) -> list:
    return list(value) if isinstance(value, list | tuple) else [value]


def _page_table(name: str, table: pd.DataFrame, keys: tuple[str, ...], headline: str | None) -> pd.DataFrame:
    """The first PAGE_ROWS rows as the page shows them; a comparison leads with its verdict."""
    first = ("variant", "metric", *keys, "difference", "p_holm", "significant") if name == "comparison" else ()
    return readable(_preview(table), first, headline)


def _preview(table: pd.DataFrame) -> pd.DataFrame:
    """The rows a page shows: all of a short table; of a long one, PAGE_ROWS spread evenly over it (the
    first rows of a long table are often its corner cases, such as a side with no dice)."""
    if len(table) <= PAGE_ROWS:
        return table
    return table.iloc[np.linspace(0, len(table) - 1, PAGE_ROWS).round().astype(int)]


def _glossary(report: Report, shown: list[pd.DataFrame]) -> list[tuple[str, str]]:
    """(header, meaning) for every column on the page that has an explanation."""
    meanings = {**GAME_GLOSSARY, **CORE_GLOSSARY, **report.scenario.analysis.glossary}
    columns = dict.fromkeys(c for table in report.tables.values() for c in table.columns)
    columns.update(dict.fromkeys(report.comparison.columns))
    headers = {header(c): c for c in columns}
    on_page = dict.fromkeys(h for table in shown for h in table.columns)
    return [(h, meanings[headers[h]]) for h in on_page if h in headers and headers[h] in meanings]


def _figure_title(name: str, point: str | None) -> str:
    """A figure's heading: what it shows, and the sweep point (in words) it shows it for."""
    base = name.partition("__")[0]
    if base.startswith("comparison_"):
        return f"Each variant against the baseline: {header(base.removeprefix('comparison_'))}"
    return base.replace("_", " ").capitalize() + (f" ({point})" if point else "")


def _figures_section(report: Report, folder: Path) -> tuple[list[str], list[dict[str, str]]]:
    """The page's Figures (markdown lines, and each figure for `figure.html`), each written beside it as NAME.png."""
    if not report.figures:
        return [], []
    md = ["## Figures", ""]
    shown = []
    for name, fig in report.figures.items():
        png = folder / f"{name}.png"
        fig.savefig(png, dpi=100, bbox_inches="tight")
        title = _figure_title(name, report.figure_points.get(name))
        md += [f"### {title}", "", f"![{title}]({name}.png)", ""]
        shown.append({"title": title, "png": png.name, "data": base64.b64encode(png.read_bytes()).decode()})
    return md, shown


def _tables_section(report: Report, folder: Path) -> tuple[list[str], list[dict[str, Any]], list[pd.DataFrame]]:
    """The page's Tables (markdown lines, each table for `table.html`) and the tables as shown there, each table
    (and the comparison, if any) written beside it in full as NAME.csv."""
    s = report.scenario
    sections = list(report.tables.items())
    if len(report.comparison):
        sections.append(("comparison", report.comparison))
    keys = tuple(k for m in s.metrics for k in s.analysis.metrics[m].keys) if s.metrics else ()
    shown_tables = []
    md = ["## Tables", ""]
    parts = []
    for name, table in sections:
        (folder / f"{name}.csv").write_text(csv_text(table))
        shown = _page_table(name, table, keys, s.analysis.headline)
        shown_tables.append(shown)
        rows = f"{len(table):,} row{'s' if len(table) != 1 else ''}"
        more = f"{PAGE_ROWS} of {rows}, evenly spread; all in" if len(table) > PAGE_ROWS else f"{rows}; also in"
        note = ""
        if name == "comparison":
            note = ("Each variant against the baseline point; p-values Holm-adjusted across all rows; "
                    "significant rows (adjusted p < 0.05) are marked.")
        md += [f"### {header(name)}", "", note, "", markdown_table(shown), "", f"({more} [{name}.csv]({name}.csv))",
               ""]
        marked = (_preview(table)["significant"].astype(bool).tolist() if name == "comparison"
                  else [False] * len(shown))
        parts.append({"title": header(name), "rows": rows, "note": note, "columns": [str(c) for c in shown.columns],
                      "cells": [[str(c) for c in cells] for cells in shown.itertuples(index=False)],
                      "marked": marked, "more": more, "csv": f"{name}.csv"})
    return md, parts, shown_tables


def write_report(report: Report, out: Path, extra: dict[str, str] | None = None) -> Path:
    """Write the report folder atomically, with `extra` {file name: text} files; returns its path.

    The page opens with its answer (the findings), then how it was run, the figures, the
    tables (folded, readable, key columns first; each in full as CSV) and a glossary.
    Files an earlier report wrote into `out` and this one does not (another scenario's tables
    and figures) are removed; files tyrsim did not write stay (see `output.atomic_folder`).
    """
    s = report.scenario
    findings = report.findings or [NO_FINDINGS]
    run_lines = _run_lines(report)
    with atomic_folder(out) as folder:
        for name, text in (extra or {}).items():
            (folder / name).write_text(text)
        for name, data in report.files.items():
            (folder / name).write_bytes(data)
        md = ["[All reports](../index.md)", "", f"# {s.title}", "", "## Answer", ""]
        md += [f"- {f}" for f in findings] + [""]
        if s.description:
            md += [s.description, ""]
        md += ["## How this was run", ""] + [f"- {line}" for line in run_lines] + [""]
        if report.files:
            md += ["Also in this folder: " + ", ".join(f"[{n}]({n})" for n in report.files) + ".", ""]
        figures_md, figures = _figures_section(report, folder)
        tables_md, tables, shown_tables = _tables_section(report, folder)
        md += figures_md + tables_md
        glossary = _glossary(report, shown_tables)
        if glossary:
            md += ["## Glossary", ""] + [f"- **{h}**: {m}" for h, m in glossary] + [""]
        (folder / "index.md").write_text("\n".join(md))
        (folder / "index.html").write_text(render("scenario.html", title=s.title, findings=findings,
                                                  description=s.description, lines=run_lines, files=list(report.files),
                                                  figures=figures, tables=tables, glossary=glossary))
        (folder / "manifest.json").write_text(json.dumps(manifest(report), indent=1, default=str) + "\n")
    _close(report.figures.values())
    return out


def _close(figures) -> None:
    """Free matplotlib's figures (pyplot keeps each until it is closed)."""
    import matplotlib.pyplot as plt

    for fig in figures:
        plt.close(fig)


@dataclass(frozen=True)
class IndexEntry:
    """One scenario's line in the report index."""

    section: str
    game: str
    folder: str
    title: str
    description: str
    seconds: float
    seed: int
    finding: str  # the first sentence of its answer
    player_files: dict[str, str]  # {file name: what it is} of its files for players (`Analysis.player_files`)

    @property
    def facts(self) -> str:
        """Its seed and time, as the index shows them."""
        return f"seed {self.seed}, {self.seconds:.1f} s"


def index_entry(scenario: Scenario, folder: Path, seconds: float) -> IndexEntry:
    """The index line of a scenario whose report was just written into `folder` (its answer read back)."""
    try:
        manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        manifest = {}
    findings = manifest.get("findings") or []
    return IndexEntry(scenario.section, scenario.game.title, folder.name, scenario.title, scenario.description,
                      seconds, scenario.seed, findings[0] if findings else NO_FINDINGS,
                      manifest.get("player_files") or {})


def write_index(entries: list[IndexEntry], out: Path, *, quick: bool, seconds: float, at_once: int = 1) -> None:
    """OUT/index.html and index.md: the run (date, version, full or quick, time), then each scenario's report,
    grouped by section and game, with its seed, its time and the first sentence of its answer.

    `at_once`: scenarios that ran at the same time, sharing the workers (each one's time counts its waits)."""
    from datetime import UTC, datetime

    when = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    kind = "quick report (cut trial counts: a demo, not for decisions)" if quick else "full report"
    run = f"Run {when}; tyrsim {tyrsim.__version__}; {kind}; {len(entries)} scenarios in {seconds:.0f} s."
    if at_once > 1:
        run += (f" {at_once} scenarios ran at a time, sharing the workers, so a scenario's time below includes "
                "its waits for them.")
    md = ["# tyrsim reports", "", run, ""]
    tools = [(f"{e.folder}/{name}", label) for e in entries for name, label in e.player_files.items()
             if (out / e.folder / name).is_file()]
    if tools:
        md += ["## For players", ""] + [f"- [{label}]({path})" for path, label in tools] + [""]
    sections: dict[str, dict[str, list[IndexEntry]]] = {}
    for e in entries:
        sections.setdefault(e.section, {}).setdefault(e.game, []).append(e)
    for section, games in sections.items():
        md += [f"## {section}", ""]
        for game, items in games.items():
            md += [f"### {game}", ""]
            md += [f"- [{e.title}]({e.folder}/index.md) ({e.facts}): {e.finding}" for e in items]
            md.append("")
    with atomic_folder(out) as folder:  # replaces the two index files only; each scenario's folder stays
        (folder / "index.md").write_text("\n".join(md) + "\n")
        (folder / "index.html").write_text(render("index.html", title="tyrsim reports", run=run, tools=tools,
                                                  sections=sections))
