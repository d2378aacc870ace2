"""`tyrsim report --quick` writes a browsable report; a wheel installed away from the source tree holds every file
of the package and runs a scenario into its page.

The quick report is made once (from the source tree, in a fresh process in another folder, its engines loaded from
the run's numba cache) and then looked at three times: its files, its reprs, and in a real headless browser
(tests/browser.py)."""

import html
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from urllib.parse import unquote

import matplotlib.pyplot as plt
import pytest

ROOT = Path(__file__).parent.parent
CLI = "import sys; from tyrsim.cli import main; sys.exit(main())"


@pytest.fixture(scope="module")
def quick_report(tmp_path_factory) -> Path:
    """`tyrsim report --quick` run from another folder."""
    elsewhere = tmp_path_factory.mktemp("elsewhere")
    done = subprocess.run([sys.executable, "-c", CLI, "report", "--quick", "--jobs", "2"], cwd=elsewhere,
                          env=os.environ | {"PYTHONPATH": str(ROOT)}, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return elsewhere / "reports"


# a scenario whose page needs what only package data gives: a game's bundled data file, the page templates
WHEEL_SCENARIO = """
title = "Two boards"
game = "tyros"
analysis = "game"
seed = 5
[args]
policies = ["random", "random", "random"]
games = 4
engine = "object"
[sweep.rules]
board = ["", "bundled:board_alt.toml"]
"""


def package_files(folder: Path) -> set[str]:
    """The files of the package `folder` (its bundled scenarios through their link), bytecode left out."""
    return {str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file() and "__pycache__" not in p.parts} | {
        f"scenarios/{p.name}" for p in (folder / "scenarios").iterdir()}


@pytest.mark.slow
def test_a_wheel_installed_away_from_the_source_tree_holds_the_package_and_runs_a_scenario(tmp_path):
    """A plain wheel install (no source tree): every module, data file, template and bundled scenario of the
    source package is in it, and `tyrsim run` from another folder writes a scenario's page."""
    wheels = tmp_path / "wheels"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(wheels), str(ROOT)],
                   check=True, capture_output=True)
    target = tmp_path / "site"
    wheel = next(wheels.glob("tyrsim-*.whl"))
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "--quiet", "--target", str(target),
                    str(wheel)], check=True, capture_output=True)
    assert package_files(target / "tyrsim") == package_files(ROOT / "tyrsim")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "boards.toml").write_text(WHEEL_SCENARIO)
    env = {"PYTHONPATH": str(target), "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    done = subprocess.run([sys.executable, "-c", CLI, "run", "boards.toml", "--out", "boards", "--jobs", "1"],
                          cwd=elsewhere, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    page = (elsewhere / "boards" / "index.html").read_text()
    assert "<section id='answer'>" in page and "board_alt.toml" in html.unescape(page)
    assert "src='data:image/png;base64," in page
    import tyrsim

    assert str(target) not in tyrsim.__file__  # the test process still uses the source tree


def scenario_pages(out: Path) -> list[Path]:
    links = re.findall(r"href='([^']+/index.html)'", (out / "index.html").read_text())
    assert links
    return [out / link for link in links]


@pytest.mark.slow
def test_quick_report_files_link_open_and_answer_first(quick_report):
    out = quick_report
    figures = 0
    for page in scenario_pages(out):
        assert page.exists(), page
        text = page.read_text()
        for ref in re.findall(r"href='([^']+)'", text):
            assert (page.parent / ref).exists(), ref
        # the answer comes straight after the title, before any figure or table, and says something
        assert text.index("<section id='answer'>") < text.index("<h2>How this was run</h2>")
        answer = text[text.index("<section id='answer'>"):text.index("</section>")]
        assert "<li>" in answer and not re.search(r"\bnan\b", answer, re.IGNORECASE), page
        folder = page.parent
        manifest = json.loads((folder / "manifest.json").read_text())
        assert manifest["seed"] and manifest["versions"]["tyrsim"] and manifest["points"]
        pngs = list(folder.glob("*.png"))
        for png in pngs:
            assert plt.imread(png).shape[0] > 100
            assert "<img alt='" in text and "src='data:image/png;base64," in text  # self-contained
            assert f"href='{png.name}'" in text
        assert list(folder.glob("*.csv"))
        figures += len(pngs)
    assert figures > 0
    index = (out / "index.html").read_text()
    sections = {html.unescape(h) for h in re.findall(r"<h2>([^<]+)</h2>", index)}
    assert {"Analyses", "Designer's dashboard"} <= sections
    assert "quick report" in index and "seed " in index
    assert "<h2>For players</h2>" in index  # the files the combat analysis names for players
    for name in ("odds.html", "cheat_sheet.pdf", "cheat_sheet.png"):
        assert f"href='tyranno_ex_combat_odds/{name}'" in index
    comparison = (out / "tyranno_ex_tie_rule" / "index.md").read_text()
    assert "### comparison" in comparison and "Holm" in comparison
    assert comparison.index("## Answer") < comparison.index("## Tables")


@pytest.mark.slow
def test_quick_report_in_a_real_browser(quick_report, browser):
    """Index and every scenario page: no console errors, every image drawn, every link resolves, answer first."""
    from browser import console_errors

    pages = [quick_report / "index.html", *scenario_pages(quick_report)]
    for page in pages:
        browser.get(page.as_uri())
        assert console_errors(browser) == [], page
        images = browser.execute_script(
            "return Array.from(document.images).map(i => [i.complete, i.naturalWidth]);")
        assert all(done and width > 0 for done, width in images), page
        for href in browser.execute_script("return Array.from(document.links).map(a => a.href);"):
            assert href.startswith("file://"), href  # nothing on the network
            target = Path(unquote(href.removeprefix("file://").split("#")[0]))
            assert target.exists(), (page, href)
        if page.name == "index.html" and page.parent != quick_report:
            first = browser.execute_script(
                "const h = document.querySelector('h1'); let e = h.nextElementSibling;"
                "return e ? e.id : null;")
            assert first == "answer", page
            assert browser.find_element("id", "answer").text.startswith("Answer\n")


def test_figures_a_page_does_not_show_are_closed_and_a_sweeps_many_figures_raise_no_warning(tmp_path):
    """pyplot keeps every figure until it is closed: the figures a scenario's [report] leaves out used to
    stay open, and a sweep's many figures made matplotlib warn (after twenty) on the terminal."""
    import warnings

    from tyrsim.core.report.pages import build_report, write_report
    from tyrsim.core.run.scenario import load_scenario
    from tyrsim.core.run.sweep import run_scenario
    from tyrsim.games import get_game

    plt.close("all")
    for name in ("dashboard_tyranno_ex_metrics", "zooloretto_duell_markers"):
        scenario = load_scenario(ROOT / "scenarios" / f"{name}.toml", games=get_game).quick()
        results = run_scenario(scenario)
        others = [plt.figure() for _ in range(20)]  # another scenario's, under way in the other lane
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            report = build_report(scenario, results, 0.0)
        write_report(report, tmp_path / name)
        assert plt.get_fignums() == [fig.number for fig in others]
        plt.close("all")


@pytest.mark.slow
def test_no_page_prints_an_objects_repr(quick_report):
    """A repr ("<function f at 0x7f...>", "<X object at 0x...>") says nothing to a reader, and differs every run."""
    for page in [quick_report / "index.html", *scenario_pages(quick_report)]:
        assert not re.search(r"\bat 0x[0-9a-f]+", html.unescape(page.read_text())), page


SMALL = {
    # a rule sweep compared with its baseline, played by a bundled tuned policy
    "expert": """
        title = "The expert variant"
        game = "zooloretto-duell"
        analysis = "game"
        seed = 5
        [args]
        policies = ["heuristic:weights=bundled:heuristic_tuned.toml", "heuristic:weights=bundled:heuristic_tuned.toml"]
        games = 40
        engine = "object"
        [sweep.rules]
        expert = [false, true]
        [compare]
        baseline = { expert = false }
        metrics = ["mean_score"]
    """,
    # a data-file rule and a switch swept together
    "boards": """
        title = "Two boards"
        game = "tyros"
        analysis = "game"
        seed = 5
        [args]
        policies = ["random", "random", "random"]
        games = 12
        engine = "object"
        [sweep.rules]
        board = ["", "bundled:board_alt.toml"]
        ships_pass_unclaimed = [false]
    """,
}


@pytest.fixture(scope="module")
def small_pages(tmp_path_factory) -> dict[str, Path]:
    """{name: page} of each SMALL scenario's report."""
    from tyrsim.core.report.pages import build_report, write_report
    from tyrsim.core.run.scenario import load_scenario
    from tyrsim.core.run.sweep import run_scenario
    from tyrsim.games import get_game

    out = tmp_path_factory.mktemp("pages")
    pages = {}
    for name, text in SMALL.items():
        scenario = load_scenario(f"{name}.toml", text=text, games=get_game)
        report = build_report(scenario, run_scenario(scenario, n_jobs=1, progress=False), 0.0)
        pages[name] = write_report(report, out / name) / "index.html"
    return pages


def _parts(page: Path) -> dict[str, str]:
    """The page's answer, "How this was run" and glossary, as text."""
    text = page.read_text()
    answer = text[text.index("<section id='answer'>"):text.index("</section>")]
    run = text[text.index("<h2>How this was run</h2>"):]
    run = run[:run.index("</ul>")]
    return {"answer": html.unescape(answer), "run": html.unescape(run), "page": text}


def test_a_page_names_rules_in_words_and_tuned_policies_by_a_short_name(small_pages):
    parts = _parts(small_pages["expert"])
    answer, run = parts["answer"], parts["run"]
    assert answer.count("<li>") >= 2
    assert "In the expert variant: mean final score" in answer and "two tuned heuristic players" in answer
    assert "expert =" not in answer and "expert=" not in answer and "weights=" not in answer
    # how it was run keeps the exact key and policy text
    assert "`rules.expert` over False, True" in run and "heuristic:weights=bundled:heuristic_tuned.toml" in run
    assert "analysis game (expected final score per seat" in run  # its summary, not its task summary's repr
    assert "<details><summary>comparison" in parts["page"] and "<section id='glossary'>" in parts["page"]
    assert "src='data:image/png;base64," in parts["page"]

    answer = _parts(small_pages["boards"])["answer"]
    assert "With the bundled board and when a ship may not pass through spaces without an empire chip: " in answer
    assert "With the board from board_alt.toml and when a ship may not pass" in answer
    assert "board =" not in answer and "(bundled)" not in answer and "ships_pass_unclaimed" not in answer


def test_figures_of_a_sweep_are_headed_by_their_point_in_words(small_pages):
    text = html.unescape(small_pages["boards"].read_text())
    headings = re.findall(r"<h3>([^<]+)</h3>", text)
    assert any(h.endswith("(with the bundled board and when a ship may not pass through spaces without an empire "
                          "chip)") for h in headings), headings
    assert not any("=" in h for h in headings), headings


def test_page_parts_are_templates_that_escape_what_they_are_given():
    from tyrsim.core.report.render import render

    answer = render("answer.html", findings=["a <b> & c"])
    assert answer.startswith("<section id='answer'><h2>Answer</h2>") and "<li>a &lt;b&gt; &amp; c</li>" in answer
    run = render("run.html", lines=["Game **Tyros**, <seed> 5."])
    assert "<li>Game Tyros, &lt;seed&gt; 5.</li>" in run
    table = render("table.html", table={"title": "t", "rows": "2 rows", "note": "", "columns": ["x"],
                                        "cells": [["1"], ["<2>"]], "marked": [False, True], "more": "all in",
                                        "csv": "t.csv"})
    assert '<tr class="sig"><td>&lt;2&gt;</td></tr>' in table and "<tr><td>1</td></tr>" in table
    assert "<dt>x</dt><dd>y &amp; z</dd>" in render("glossary.html", glossary=[("x", "y & z")])
