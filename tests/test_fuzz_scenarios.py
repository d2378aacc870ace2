"""`tyrsim run` under generated scenario files: exit 0, or exit 2 with a message naming what is wrong, never a
traceback. Hypothesis starts from the bundled scenarios and mutates them: values of the wrong type, unknown keys,
values out of range, missing keys and tables, huge numbers, unknown games, analyses, policies and rules, and text
that is no longer TOML. Each file is run in process through click's CliRunner; a scenario that passes the checks
is played with its trials capped at a few (as a quick report caps them), so that a huge count the checks allow
is not played in full. Derandomized and bounded: CI runs the same files every time, in well under a minute."""

from __future__ import annotations

import contextlib
import re
import tempfile
import tomllib
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tyrsim.cli as cli
from tyrsim.core.run.scenario import SECTION_KEYS
from tyrsim.core.studio.variant import toml_value
from tyrsim.games import game_names, get_game

# a long check (a few hundred runs of `tyrsim run`): the default run and CI fuzz, `pytest -m "not slow"` does not
pytestmark = pytest.mark.slow

TRIALS = 3  # trials per point a scenario that passes the checks is played with
EXAMPLES = 50
SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"
# bundled scenarios whose run takes a second or two at a few trials, one or more of each cheap analysis: game,
# zoo-ev, survival, empire-sizes, rulings, combat, herd-growth (the search policies' and the balance analysis's
# runs take minutes even at a few trials)
BASES = ["tyranno_ex_fighting", "tyros_policies", "tyranno_ex_game_base", "tiny_epic_dinosaurs_breed_every_three",
         "zooloretto_duell_ev", "tyranno_ex_survival", "tyros_map_balance", "rulings_tyranno_ex_fewer_players",
         "tyranno_ex_tie_rule", "tiny_epic_dinosaurs_herd_growth"]

# the bases whose analyses are numpy kernels (survival, empire sizes, combat, herd growth): they play no game and
# take no engine, so their files are cut and spliced as they are
UNPLAYED = ["tyranno_ex_survival", "tyros_map_balance", "tyranno_ex_tie_rule", "tiny_epic_dinosaurs_herd_growth"]
NAMES = st.sampled_from([*game_names(), "chess", "", "game", "combat", "rulings", "explore", "balance", "greedy",
                         "random", "wizard", "greedy:weights=/etc/passwd", "bundled:", "bundled:../../x.toml",
                         "/etc/passwd", "../x.toml", "/dev/zero", "heuristic:weights=bundled:heuristic_tuned.toml",
                         "reroll", "defender", "first-game", "mc", "exact", "x=1", "1:4", "mean_margin<=4",
                         "x" * 300, "a\nb", " ", "\x00", "..", "a/b", "é" * 101])
NUMBERS = st.one_of(st.integers(-3, 12), st.sampled_from([10**9, 10**9 + 1, 10**10, 2**63 - 1, 2**63, 2**64, 10**30,
                                                          -(2**63)]),
                    st.floats(allow_nan=True, allow_infinity=True))
SCALARS = st.one_of(NUMBERS, st.booleans(), st.text(max_size=12), NAMES)
WILD = st.one_of(SCALARS, st.lists(SCALARS, max_size=4), st.dictionaries(st.text(max_size=6), SCALARS, max_size=2),
                 st.lists(st.lists(SCALARS, max_size=2), max_size=2))
KEYS = st.one_of(st.sampled_from(["game", "analysis", "seed", "rules", "args", "sweep", "compare", "precision",
                                  "report", "games", "policies", "players", "half_width", "max_trials", "metric",
                                  "baseline", "metrics", "quick_trials", "quick_args", "tables", "figures",
                                  "tie_rule", "die_faces", "chips_per_player", "name"]),
                 st.text(min_size=1, max_size=10))


def base(name: str) -> dict[str, Any]:
    """A bundled scenario as a table, played by the object engine where the analysis takes an engine: a compiled
    engine's first games in a process wait tens of seconds for numba's cache (a mutation may still name one)."""
    data = tomllib.loads((SCENARIOS / f"{name}.toml").read_text())
    if "engine" in {p.name for p in get_game(data["game"]).analyses[data["analysis"]].params}:
        data.setdefault("args", {})["engine"] = "object"
    return data


def key_paths(table: dict[str, Any], prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """Every key of the scenario, nested tables' keys too, as paths from the top."""
    paths = []
    for key, value in table.items():
        paths.append((*prefix, key))
        if isinstance(value, dict):
            paths += key_paths(value, (*prefix, key))
    return paths


def table_at(data: dict[str, Any], path: tuple[str, ...]) -> dict[str, Any]:
    for key in path:
        data = data[key]
    return data


@st.composite
def mutated(draw) -> dict[str, Any]:
    """A bundled scenario with one to three changes, each where the checks must catch it: a rule of its game, an
    argument of its analysis, a swept list, a key of [precision], [compare] or [report] set to any value (or an
    unknown one added), or a key anywhere removed or replaced."""
    data = base(draw(st.sampled_from(BASES)))
    spec = get_game(data["game"])
    analysis = spec.analyses[data["analysis"]]
    rules, args = list(spec.rules.field_names()), [p.name for p in analysis.params]
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(["rule", "arg", "sweep", "section", "remove", "replace"]))
        if kind in ("rule", "arg"):
            table = data.setdefault("rules" if kind == "rule" else "args", {})
            if not isinstance(table, dict):
                continue
            table[draw(st.one_of(st.sampled_from(rules if kind == "rule" else args), KEYS))] = draw(WILD)
        elif kind == "sweep":
            sweep = data.setdefault("sweep", {})
            which = draw(st.sampled_from(["rules", "args"]))
            if not isinstance(sweep, dict) or not isinstance(sweep.setdefault(which, {}), dict):
                continue
            name = draw(st.one_of(st.sampled_from(rules if which == "rules" else args), KEYS))
            sweep[which][name] = draw(st.one_of(st.lists(SCALARS, min_size=1, max_size=3), WILD))
        elif kind == "section":
            section = draw(st.sampled_from(list(SECTION_KEYS)))
            table = data.setdefault(section, {})
            if isinstance(table, dict):
                table[draw(st.one_of(st.sampled_from(list(SECTION_KEYS[section])), KEYS))] = draw(WILD)
        else:
            path = draw(st.sampled_from(key_paths(data) or [("game",)]))
            parent = table_at(data, path[:-1])
            if kind == "remove":
                parent.pop(path[-1], None)
            else:
                parent[path[-1]] = draw(WILD)
    if isinstance(data.setdefault("args", {}), dict) and "engine" in {p.name for p in analysis.params}:
        data["args"].setdefault("engine", "object")  # an engine removed is the default one, a compiled engine
    return data


def scenario_text(data: dict[str, Any]) -> str:
    return "".join(f"{toml_value(str(key))} = {toml_value(value)}\n" for key, value in data.items())


@st.composite
def broken_text(draw) -> str:
    """A bundled scenario's own text (comments, tables, arrays over several lines) cut, spliced or with a line
    doubled: mostly no longer TOML."""
    text = (SCENARIOS / f"{draw(st.sampled_from(UNPLAYED))}.toml").read_text()
    at = draw(st.integers(0, len(text)))
    kind = draw(st.sampled_from(["cut", "splice", "double"]))
    if kind == "cut":
        return text[:at]
    if kind == "splice":
        return text[:at] + draw(st.sampled_from(["=", "[", "]", '"', "\n[rules]\n", "\x00", "\ufeff", "= =", "{"]))\
            + text[at:]
    lines = text.splitlines(keepends=True)
    line = draw(st.integers(0, len(lines) - 1))
    return "".join(lines[:line + 1] + lines[line:])


def run(text: str, out: bool = True) -> None:
    """`tyrsim run` on the text as a file, with --out or into reports/NAME: exit 0, or exit 2 with the
    one-paragraph message; no traceback."""
    original = cli.load_or_fail
    runner = CliRunner()
    with tempfile.TemporaryDirectory() as folder, contextlib.chdir(folder), \
            mock.patch.object(cli, "load_or_fail", lambda path: original(path).with_trials(TRIALS)):
        path = Path(folder) / "fuzzed.toml"
        path.write_text(text, encoding="utf-8")
        result = runner.invoke(cli.main, ["run", str(path), "--jobs", "1",
                                          *(["--out", str(Path(folder) / "out")] if out else [])])
    assert result.exit_code in (0, 2), f"exit {result.exit_code}: {result.exception!r}\n{text}"
    assert "Traceback" not in result.output
    if result.exit_code == 2:
        message = result.output.split("Error: ", 1)[-1].strip()
        assert "Error: " in result.output and message and "\n\n" not in message, result.output
        assert re.search(r"fuzzed\.toml|--", message), result.output  # it names the file (and its key) or option


@settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=mutated(), out=st.booleans())
def test_a_mutated_scenario_runs_or_is_refused_with_a_message(data, out):
    run(scenario_text(data), out)


@settings(max_examples=EXAMPLES // 2 - 5, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(text=broken_text())
def test_a_broken_scenario_file_runs_or_is_refused_with_a_message(text):
    run(text)


@pytest.mark.parametrize("name", ["x" * 201, "é" * 101, "a\nb", "a\x00b", " a", ".hidden", "a/b"])
def test_a_name_no_report_folder_can_have_is_refused(name):
    # the report goes to reports/NAME: a name longer than a file system allows was an OSError's traceback
    data = {**base("tyranno_ex_fighting"), "name": name}
    runner = CliRunner()
    with tempfile.TemporaryDirectory() as folder, contextlib.chdir(folder):
        Path("named.toml").write_text(scenario_text(data), encoding="utf-8")
        result = runner.invoke(cli.main, ["run", "named.toml", "--jobs", "1"])
    assert result.exit_code == 2 and "name: " in result.output and "not a usable folder name" in result.output


def test_the_bases_are_written_back_as_they_are_read():
    """The bases the mutations start from, written as TOML, read back the same: a refusal of a mutated file is the
    mutation's doing."""
    for name in BASES:
        assert tomllib.loads(scenario_text(base(name))) == base(name)
