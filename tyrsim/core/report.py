"""Reports: a scenario's tables and figures as a folder a person can browse.

A report folder holds `index.md` and `index.html` (one self-contained page:
title, what was run, the rules that differ from the rulebook, the tables, the
figures, the comparison with significance marked, the run time), one CSV per
table, one PNG per figure, and `manifest.json` (scenario text, seed, resolved
rules, versions, trial counts, wall time, git commit) so any number can be
reproduced. It is written into a temporary folder and renamed into place.
"""

from __future__ import annotations

import base64
import html
import json
import platform
import re
import subprocess
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

import pandas as pd

import tyrsim
from tyrsim.core.output import atomic_folder, csv_text, markdown_table, text_cells
from tyrsim.core.scenario import Scenario, shown_value
from tyrsim.core.sweep import PointResult, comparison_table

PAGE_ROWS = 60  # rows of a table shown on the page; the CSV has them all
DEPENDENCIES = ("numpy", "pandas", "scipy", "matplotlib", "joblib", "click", "dask", "distributed")


@dataclass
class Report:
    """What a scenario run produced, ready to be written."""

    scenario: Scenario
    results: list[PointResult]
    tables: dict[str, pd.DataFrame]
    figures: dict[str, Any] = field(default_factory=dict)  # name -> matplotlib Figure
    comparison: pd.DataFrame = field(default_factory=pd.DataFrame)
    wall_time: float = 0.0


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.=-]+", "_", text).strip("_")


def build_report(scenario: Scenario, results: list[PointResult], wall_time: float) -> Report:
    """Tables (points stacked, swept values as leading columns) and figures (one set per point)."""
    import matplotlib

    matplotlib.use("Agg")
    analysis = scenario.analysis
    stacked: dict[str, list[pd.DataFrame]] = {}
    figures: dict[str, Any] = {}
    for result in results:
        point = result.point
        tables = analysis.tables(result.raw, point.rules, point.args)
        for name, table in tables.items():
            table = table.copy()
            swept = [(k, v) for k, v in point.label.items() if k not in table.columns]  # else the table shows it
            for i, (key, value) in enumerate(swept):
                table.insert(i, key, shown_value(value))
            stacked.setdefault(name, []).append(table)
        if analysis.figures is not None:
            for name, fig in analysis.figures(tables, point.rules, point.args).items():
                figures[name if len(results) == 1 else f"{name}__{_slug(point.title())}"] = fig
    tables = {name: pd.concat(parts, ignore_index=True) for name, parts in stacked.items()}
    if scenario.precision is not None:
        tables["precision"] = pd.DataFrame(
            [{**r.point.label, "trials": r.trials, "half_width": r.half_width, "target": scenario.precision.half_width,
              "met": r.met} for r in results]
        )
    # the [report] names were checked against the analysis's declared outputs when the scenario was read
    if scenario.tables is not None:
        order = [*scenario.tables, "precision"]
        tables = {k: tables[k] for k in order if k in tables}
    if scenario.figures is not None:
        figures = {k: v for k, v in figures.items() if k.split("__")[0] in scenario.figures}
    return Report(scenario, results, tables, figures, comparison_table(scenario, results), wall_time)


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
             "data_files_sha256": r.data_files}
            for r in report.results
        ],
        "versions": _versions(),
        "git_commit": _git_commit(),
        "wall_time_seconds": round(report.wall_time, 3),
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
        lines.append(f"Precision target: 95% half-width {s.precision.half_width} on `{s.precision.metric}`, "
                     f"at most {s.precision.max_trials:,} {s.analysis.trial_unit}; "
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
    lines.append(f"Run time {report.wall_time:.1f} s.")
    return lines


def _as_list(value: Any) -> list:
    return list(value) if isinstance(value, list | tuple) else [value]


def _html_table(table: pd.DataFrame, highlight: str | None = None) -> str:
    cells = text_cells(table.head(PAGE_ROWS))
    head = "".join(f"<th>{html.escape(str(c))}</th>" for c in table.columns)
    rows = []
    flags = table[highlight].head(PAGE_ROWS).tolist() if highlight in table.columns else [False] * len(cells)
    for row, flag in zip(cells, flags, strict=True):
        cls = ' class="sig"' if flag else ""
        rows.append(f"<tr{cls}>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>")
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"


STYLE = """body{font-family:system-ui,sans-serif;max-width:1200px;margin:2em auto;padding:0 1em;color:#222}
table{border-collapse:collapse;font-size:12px;margin:.5em 0 1.5em;display:block;overflow-x:auto}
th,td{border:1px solid #ccc;padding:2px 6px;text-align:right}th{background:#f0f0f0}
tr.sig td{background:#fff3c4;font-weight:600}img{max-width:100%;border:1px solid #eee}
.note{color:#666;font-size:90%}"""


def write_report(report: Report, out: Path, extra: dict[str, str] | None = None) -> Path:
    """Write the report folder atomically, with `extra` {file name: text} files; returns its path.

    Files an earlier report wrote into `out` and this one does not (another scenario's tables
    and figures) are removed; files tyrsim did not write stay (see `output.atomic_folder`).
    """
    s = report.scenario
    with atomic_folder(out) as folder:
        for name, text in (extra or {}).items():
            (folder / name).write_text(text)
        md = [f"# {s.title}", ""]
        if s.description:
            md += [s.description, ""]
        md += [f"- {line}" for line in _run_lines(report)] + [""]
        body = [f"<h1>{html.escape(s.title)}</h1>"]
        if s.description:
            body.append(f"<p>{html.escape(s.description)}</p>")
        body.append("<ul>" + "".join(f"<li>{html.escape(line).replace('**', '')}</li>" for line in _run_lines(report))
                    + "</ul>")
        sections = list(report.tables.items())
        if len(report.comparison):
            sections.append(("comparison", report.comparison))
        for name, table in sections:
            (folder / f"{name}.csv").write_text(csv_text(table))
            more = f" (first {PAGE_ROWS} of {len(table)} rows; all in `{name}.csv`)" if len(table) > PAGE_ROWS else ""
            note = ""
            if name == "comparison":
                note = ("Each variant against the baseline point; p-values Holm-adjusted across all rows; "
                        "significant rows (adjusted p < 0.05) are marked.")
            md += [f"## {name}", "", note, "", markdown_table(table.head(PAGE_ROWS)), "",
                   f"[{name}.csv]({name}.csv){more}", ""]
            body += [f"<h2>{html.escape(name)}</h2>", f"<p class='note'>{html.escape(note)}</p>" if note else "",
                     _html_table(table, "significant" if name == "comparison" else None),
                     f"<p class='note'><a href='{name}.csv'>{name}.csv</a>{html.escape(more)}</p>"]
        if report.figures:
            md += ["## figures", ""]
            body.append("<h2>figures</h2>")
        for name, fig in report.figures.items():
            png = folder / f"{name}.png"
            fig.savefig(png, dpi=100)
            data = base64.b64encode(png.read_bytes()).decode()
            md += [f"![{name}]({name}.png)", ""]
            body.append(f"<h3>{html.escape(name)}</h3>"
                        f"<img alt='{html.escape(name)}' src='data:image/png;base64,{data}'>"
                        f"<p class='note'><a href='{name}.png'>{name}.png</a></p>")
        (folder / "index.md").write_text("\n".join(md))
        page = (f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(s.title)}</title>"
                f"<style>{STYLE}</style></head><body>{''.join(body)}</body></html>\n")
        (folder / "index.html").write_text(page)
        (folder / "manifest.json").write_text(json.dumps(manifest(report), indent=1, default=str) + "\n")
    import matplotlib.pyplot as plt

    for fig in report.figures.values():
        plt.close(fig)
    return out


def write_index(entries: list[tuple[str, str, str, str, str]], out: Path) -> None:
    """OUT/index.html and index.md linking each scenario's report, grouped by section and game.

    An entry is (section, game title, folder, title, description).
    """
    md = ["# tyrsim reports", ""]
    body = ["<h1>tyrsim reports</h1>"]
    sections: dict[str, dict[str, list[tuple[str, str, str]]]] = {}
    for section, game, folder, title, description in entries:
        sections.setdefault(section, {}).setdefault(game, []).append((folder, title, description))
    for section, games in sections.items():
        md += [f"## {section}", ""]
        body.append(f"<h2>{html.escape(section)}</h2>")
        for game, items in games.items():
            md += [f"### {game}", ""]
            md += [f"- [{t}]({f}/index.md){' — ' + d if d else ''}" for f, t, d in items]
            md.append("")
            body.append(f"<h3>{html.escape(game)}</h3><ul>")
            body += [f"<li><a href='{html.escape(f)}/index.html'>{html.escape(t)}</a>"
                     f"{' — ' + html.escape(d) if d else ''}</li>" for f, t, d in items]
            body.append("</ul>")
    page = (f"<!doctype html><html><head><meta charset='utf-8'><title>tyrsim reports</title><style>{STYLE}</style>"
            f"</head><body>{''.join(body)}</body></html>\n")
    with atomic_folder(out) as folder:  # replaces the two index files only; each scenario's folder stays
        (folder / "index.md").write_text("\n".join(md) + "\n")
        (folder / "index.html").write_text(page)
