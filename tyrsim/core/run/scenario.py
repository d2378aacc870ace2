"""Scenario files: one TOML file says what to run; this module reads and validates it.

The schema (documented with a full example in docs/scenarios.md):

    name, title, description, game, analysis, seed, default_report, section   top-level keys
    [rules]          rule overrides for every point
    [args]           the analysis's arguments
    [sweep.rules]    rule -> list of values      } the run is the product of all lists
    [sweep.args]     argument -> list of values  }
    [compare]        baseline (a table picking one sweep point), metrics (list)
    [precision]      half_width, min_trials, max_trials, metric (instead of a fixed trial count)
    [report]         title, tables, figures, quick_trials, quick_args (argument changes for --quick)

Every problem is a `ScenarioError` naming the file, the key path and what is allowed.
"""

from __future__ import annotations

import itertools
import math
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tyrsim.core.engine.analysis import Analysis, ArgumentError
from tyrsim.core.engine.datafile import DataFileError, is_bundled, read_text
from tyrsim.core.engine.limits import MAX_POINTS, MAX_TOTAL_TRIALS, MAX_TRIALS
from tyrsim.core.engine.rng import MAX_SEED
from tyrsim.core.engine.rules import RuleError, RuleSet
from tyrsim.core.engine.spec import GameLookup, GameSpec, UnknownGame


class ScenarioError(ValueError):
    """A scenario file that cannot be run, with the file and key path in the message. `key` is the key path
    ("args.games", "sweep.rules"; None for a problem of the whole file) and `detail` what is wrong there, so that
    a command line that made the scenario from its options can name the option instead ("--games: DETAIL")."""

    def __init__(self, message: str, *, key: str | None = None, detail: str | None = None):
        super().__init__(message)
        self.key = key
        self.detail = detail if detail is not None else message


TOP_KEYS = {
    "name": str, "title": str, "description": str, "game": str, "analysis": str, "seed": int,
    "default_report": bool, "section": str, "rules": dict, "args": dict, "sweep": dict, "compare": dict,
    "precision": dict, "report": dict,
}
SECTION_KEYS = {
    "sweep": {"rules": dict, "args": dict},
    "compare": {"baseline": dict, "metrics": list},
    "precision": {"half_width": float, "min_trials": int, "max_trials": int, "metric": str},
    "report": {"title": str, "tables": list, "figures": list, "quick_trials": int, "quick_args": dict},
}
REQUIRED = ("game", "analysis", "seed")
DEFAULT_SECTION = "Analyses"
# bytes of a scenario's name, its report folder's: a file system allows 255, and the folder is first written
# under a longer temporary name (`output.py`: a dot, the name, a dot and eight random characters)
LONGEST_NAME = 200


BUNDLED_SHOWN = "(bundled)"


def shown_value(value: Any) -> Any:
    """A swept value as a report shows it: an empty data-file value names the game's bundled file."""
    if isinstance(value, list | tuple):
        return str(value)
    return BUNDLED_SHOWN if value == "" else value


@dataclass(frozen=True)
class Point:
    """One sweep point: its index, resolved rules and arguments, and the swept values that name it."""

    index: int
    rules: RuleSet
    args: dict[str, Any]
    label: dict[str, Any]

    def title(self) -> str:
        return ", ".join(f"{k}={shown_value(v)}" for k, v in self.label.items()) or "base"


@dataclass(frozen=True)
class Precision:
    """Trials until the widest interval of `metric` is at most `half_width`: at least `min_trials` (None: one
    task's), at most `max_trials`."""

    half_width: float
    max_trials: int
    metric: str
    min_trials: int | None = None


@dataclass(frozen=True)
class Scenario:
    path: str
    text: str
    name: str
    title: str
    description: str
    game: GameSpec
    analysis: Analysis
    seed: int
    default_report: bool
    section: str  # heading the scenario is listed under in the default report's index
    rules: RuleSet
    points: list[Point]
    sweep: dict[str, list[Any]]  # "rules.X" / "args.Y" -> values, in file order
    baseline: int | None
    metrics: list[str]
    precision: Precision | None
    tables: list[str] | None
    figures: list[str] | None
    quick_trials: int
    quick_args: dict[str, Any]  # argument changes of a quick run (a smaller search budget), already checked

    def trials(self, point: Point) -> int:
        """The trial count asked for a point (0: computed exactly)."""
        return self.analysis.trial_count(point.args)

    def with_trials(self, trials: int) -> Scenario:
        """The same scenario with every point's trial count capped at `trials` (for --quick)."""
        if self.analysis.trials is None:
            return self
        key = self.analysis.trials
        points = [Point(p.index, p.rules, {**p.args, key: min(trials, p.args[key])}, p.label) for p in self.points]
        precision = None if self.precision is None else Precision(
            self.precision.half_width, min(trials, self.precision.max_trials), self.precision.metric,
            None if self.precision.min_trials is None else min(trials, self.precision.min_trials),
        )
        return Scenario(**{**self.__dict__, "points": points, "precision": precision})

    def quick(self) -> Scenario:
        """The scenario of a quick report: `quick_args` applied to every point, trials capped at `quick_trials`."""
        points = [Point(p.index, p.rules, self.analysis.check_args({**p.args, **self.quick_args}), p.label)
                  for p in self.points]
        return Scenario(**{**self.__dict__, "points": points}).with_trials(self.quick_trials)


def _type_name(kind: type) -> str:
    return {str: "a string", int: "an integer", float: "a number", bool: "true or false",
            dict: "a table", list: "a list"}[kind]


def _check_keys(where: str, table: dict, allowed: dict[str, type], fail) -> None:
    for key, value in table.items():
        if key not in allowed:
            fail(f"{where}{key}", f"unknown key; allowed here: {', '.join(allowed)}")
        kind = allowed[key]
        ok = isinstance(value, kind) and not (kind is int and isinstance(value, bool))
        if kind is float and isinstance(value, int) and not isinstance(value, bool):
            ok = True
        if not ok:
            fail(f"{where}{key}", f"{value!r} is not {_type_name(kind)}")


def load_scenario(path: str | Path, *, games: GameLookup, text: str | None = None) -> Scenario:
    """Read and validate a scenario file; raise ScenarioError on any problem. `games` finds the game the file
    names (the registry's `tyrsim.games.get_game`, passed in by the entry point)."""
    path = Path(path)
    shown = str(path)
    if text is None:
        try:
            text = read_text(path)  # a regular UTF-8 file of sane size: /dev/zero or a FIFO is refused, not read
        except DataFileError as exc:
            raise ScenarioError(str(exc)) from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioError(f"{shown}: not valid TOML: {exc}") from None
    return scenario_from_data(data, shown, text, folder=path.parent, games=games)


def _beside(folder: Path | None, value: Any) -> Any:
    """A data-file rule's value as the run reads it: a relative path is relative to the scenario's folder
    (made absolute, so it names the same file whatever the current folder is when it is read); the
    bundled files (empty, or "bundled:NAME") stay as they are."""
    if folder is None or not isinstance(value, str) or is_bundled(value) or Path(value).is_absolute():
        return value
    return str((folder / value).absolute())


def scenario_from_data(data: dict[str, Any], shown: str, text: str = "", folder: Path | None = None, *,
                       games: GameLookup) -> Scenario:
    """Validate a scenario given as a table (as read from TOML); `shown` names it in errors, `games` finds the
    game it names (raising UnknownGame, whose message lists the games).

    `folder` is the scenario file's folder, against which relative data-file paths in [rules] and
    [sweep.rules] are resolved (None: they stay relative to the current folder, as on the command line).
    The file is read section by section, in this order, so the first problem found is always the same one.
    """
    def fail(key: str, message: str, detail: str | None = None):
        raise ScenarioError(f"{shown}: {key}: {message}", key=key, detail=detail or message)

    _check_keys("", data, TOP_KEYS, fail)
    for key in REQUIRED:
        if key not in data:
            fail(key, "missing; every scenario names its game, analysis and seed")
    for section, keys in SECTION_KEYS.items():
        _check_keys(f"{section}.", data.get(section, {}), keys, fail)
    game, analysis = _game_and_analysis(data, games, fail)
    seed = data["seed"]
    if not 0 <= seed <= MAX_SEED:
        fail("seed", f"{seed} is out of range; a seed is an integer from 0 to {MAX_SEED}")
    base_rules, base_args = _rules_and_args(data, game, analysis, folder, fail)
    sweep = _sweep(data.get("sweep", {}), game, analysis, fail)
    points = _points(sweep, base_rules, base_args, analysis, folder, fail)
    baseline, metrics = _compare(data.get("compare", {}), analysis, points, fail)
    precision = _precision(data, analysis, points, fail)
    _check_trials(analysis, points, precision, sweep, fail)
    report = data.get("report", {})
    quick, quick_args = _report(report, analysis, points, precision, sweep, fail)

    name = data.get("name", Path(shown).stem)
    if (not name or any(c in name for c in "/\\") or name.startswith(".") or name != name.strip()
            or not name.isprintable() or len(name.encode()) > LONGEST_NAME):
        # the report's default folder, reports/NAME: a file system refuses a longer name, or a control character
        fail("name", f"{name!r} is not a usable folder name; a name is printable text of at most {LONGEST_NAME} "
             "bytes, with no / or \\, no leading or trailing space, not starting with '.'")
    return Scenario(
        path=shown, text=text, name=name, title=report.get("title", data.get("title", name)),
        description=data.get("description", ""), game=game, analysis=analysis, seed=seed,
        default_report=data.get("default_report", False), section=data.get("section", DEFAULT_SECTION),
        rules=base_rules, points=points, sweep=sweep,
        baseline=baseline, metrics=metrics, precision=precision, tables=report.get("tables"),
        figures=report.get("figures"), quick_trials=quick, quick_args=quick_args,
    )


def _game_and_analysis(data: dict[str, Any], games: GameLookup, fail) -> tuple[GameSpec, Analysis]:
    """The game and the analysis the top-level keys name."""
    try:
        game = games(data["game"])
    except UnknownGame as exc:
        fail("game", str(exc))
    if data["analysis"] not in game.analyses:
        fail("analysis", f"unknown analysis {data['analysis']!r} for {game.name}; "
             f"its analyses are: {', '.join(game.analyses) or 'none'}")
    return game, game.analyses[data["analysis"]]


def _arguments(analysis: Analysis) -> str:
    return ", ".join(p.name for p in analysis.params)


def _rules_and_args(data: dict[str, Any], game: GameSpec, analysis: Analysis, folder: Path | None, fail
                    ) -> tuple[RuleSet, dict[str, Any]]:
    """[rules] (every point's rules) and [args] (every point's arguments, as given), neither also swept."""
    for kind in ("rules", "args"):
        for key in data.get("sweep", {}).get(kind, {}):
            if key in data.get(kind, {}):
                fail(f"sweep.{kind}.{key}", f"also set in [{kind}]; give it once: in [{kind}] for every point "
                     f"or in [sweep.{kind}] to vary it")
    file_rules = set(game.rules.data_file_rules())
    try:
        base_rules = game.rules.from_overrides(
            {k: _beside(folder, v) if k in file_rules else v for k, v in data.get("rules", {}).items()}
        )
    except RuleError as exc:
        fail("rules", str(exc))
    base_args = data.get("args", {})
    for key in base_args:
        if key not in {p.name for p in analysis.params}:
            fail(f"args.{key}", f"unknown argument; {analysis.name} takes: {_arguments(analysis)}")
    return base_rules, base_args


def _sweep(table: dict[str, Any], game: GameSpec, analysis: Analysis, fail) -> dict[str, list[Any]]:
    """[sweep.rules] and [sweep.args]: "rules.X" / "args.Y" -> the values, in file order."""
    sweep: dict[str, list[Any]] = {}
    for kind, lists in table.items():
        for key, values in lists.items():
            where = f"sweep.{kind}.{key}"
            if not isinstance(values, list) or not values:
                fail(where, "must be a non-empty list of values")
            if kind == "rules" and key not in game.rules.field_names():
                fail(where, f"unknown rule; the rules are: {', '.join(game.rules.field_names())}")
            if kind == "args" and key not in {p.name for p in analysis.params}:
                fail(where, f"unknown argument; {analysis.name} takes: {_arguments(analysis)}")
            if len({repr(v) for v in values}) != len(values):
                fail(where, "lists a value twice")
            sweep[f"{kind}.{key}"] = values
    size = math.prod(len(values) for values in sweep.values())
    if size > MAX_POINTS:
        fail("sweep", f"{size:,} sweep points (the product of the lists' lengths); at most {MAX_POINTS:,}")
    return sweep


def _points(sweep: dict[str, list[Any]], base_rules: RuleSet, base_args: dict[str, Any], analysis: Analysis,
            folder: Path | None, fail) -> list[Point]:
    """One point per combination of the swept values (the product of the lists), its rules and arguments
    checked: an argument the others leave unused is refused (`Analysis.check_given`)."""
    file_rules = set(base_rules.data_file_rules())
    points = []
    for index, combo in enumerate(itertools.product(*sweep.values())):
        label = dict(zip((k.split(".", 1)[1] for k in sweep), combo, strict=True))
        rule_values = {k.split(".", 1)[1]: _beside(folder, v) if k.split(".", 1)[1] in file_rules else v
                       for k, v in zip(sweep, combo, strict=True) if k.startswith("rules.")}
        arg_values = {k.split(".", 1)[1]: v for k, v in zip(sweep, combo, strict=True) if k.startswith("args.")}
        try:
            rules = base_rules.replace(rule_values)
        except RuleError as exc:
            fail("sweep.rules", str(exc))  # only swept rules change here: the base rules passed
        given = {**base_args, **arg_values}
        try:
            args = analysis.check_args(given)
            if analysis.check_given is not None:
                analysis.check_given(args, given)
        except ArgumentError as exc:
            fail(f"{'sweep.args' if exc.name in arg_values else 'args'}.{exc.name}", str(exc), exc.detail)
        points.append(Point(index, rules, args, label))
    return points


def _compare(compare: dict[str, Any], analysis: Analysis, points: list[Point], fail) -> tuple[int | None, list[str]]:
    """[compare]: the baseline point's index and the metrics compared (None and none without the section)."""
    if not compare:
        return None, []
    if len(points) < 2:
        fail("compare", "a comparison needs a sweep with at least two points")
    metrics = compare.get("metrics", [analysis.headline] if analysis.headline else [])
    for m in metrics:
        if m not in analysis.metrics:
            fail("compare.metrics", f"unknown metric {m!r}; {analysis.name} offers: "
                 f"{', '.join(analysis.metrics) or 'none'}")
    if not metrics:
        fail("compare.metrics", "name at least one metric")
    wanted = compare.get("baseline", {})
    for key in wanted:
        if key not in points[0].label:
            fail(f"compare.baseline.{key}", f"not a swept key; the swept keys are: {', '.join(points[0].label)}")
    matches = [p.index for p in points if all(p.label[k] == v for k, v in wanted.items())]
    if len(matches) != 1:
        fail("compare.baseline", f"must pick exactly one sweep point, picks {len(matches)}; "
             "give a value for every swept key")
    return matches[0], metrics


def _precision(data: dict[str, Any], analysis: Analysis, points: list[Point], fail) -> Precision | None:
    """[precision]: the target half-width, the most trials per point and the metric (None without it)."""
    if "precision" not in data:
        return None
    p = data["precision"]
    if analysis.trials is None:
        fail("precision", f"{analysis.name} is computed exactly; it has no trials to add")
    if "half_width" not in p:
        fail("precision.half_width", "missing; the target half-width of the 95% interval")
    if not 0 < p["half_width"] < math.inf:  # also refuses nan, which TOML can write
        fail("precision.half_width", f"{p['half_width']} must be positive and finite")
    metric = p.get("metric", analysis.headline)
    if metric not in analysis.metrics:
        offered = ", ".join(analysis.metrics)
        fail("precision.metric", f"unknown metric {metric!r}; {analysis.name} offers: {offered}")
    max_trials = p.get("max_trials", 100 * max(analysis.trials_per_task(q.rules, q.args) for q in points))
    if not 1 <= max_trials <= MAX_TRIALS:
        fail("precision.max_trials", f"{max_trials} is out of range; from 1 to {MAX_TRIALS:,} trials per point")
    min_trials = p.get("min_trials")
    if min_trials is not None and not 1 <= min_trials <= max_trials:
        fail("precision.min_trials", f"{min_trials} is out of range; from 1 to max_trials ({max_trials:,}) trials "
             "per point")
    return Precision(float(p["half_width"]), max_trials, metric, min_trials)


def _report(report: dict[str, Any], analysis: Analysis, points: list[Point], precision: Precision | None,
            sweep: dict[str, list[Any]], fail) -> tuple[int, dict[str, Any]]:
    """[report]: its tables and figures checked; a quick run's trials and argument changes."""
    for key in ("tables", "figures"):
        for item in report.get(key, []):
            if not isinstance(item, str):
                fail(f"report.{key}", f"{item!r} is not a string")
    _check_report_names(analysis, points, precision, report, fail)
    quick = report.get("quick_trials", analysis.quick_trials)
    if quick < 1:
        fail("report.quick_trials", f"{quick} must be at least 1")
    quick_args = report.get("quick_args", {})
    for key in quick_args:
        if key not in {p.name for p in analysis.params}:
            fail(f"report.quick_args.{key}", f"unknown argument; {analysis.name} takes: {_arguments(analysis)}")
        if f"args.{key}" in sweep:
            fail(f"report.quick_args.{key}", "is swept; a quick run cannot change a swept argument")
    for point in points:
        try:
            analysis.check_args({**point.args, **quick_args})
        except ArgumentError as exc:
            fail(f"report.quick_args.{exc.name}", str(exc), exc.detail)
    return quick, quick_args


def _check_trials(analysis: Analysis, points: list[Point], precision: Precision | None,
                  sweep: dict[str, list[Any]], fail) -> None:
    """Trials per point and in all within the limits (before a task list is made, let alone run)."""
    if analysis.trials is None:
        return
    if precision is not None:
        where, counts = "precision.max_trials", [precision.max_trials] * len(points)
    else:
        where = f"{'sweep.' if f'args.{analysis.trials}' in sweep else ''}args.{analysis.trials}"
        counts = [analysis.trial_count(p.args) for p in points]
    unit = analysis.trial_unit
    if max(counts) > MAX_TRIALS:
        fail(where, f"{max(counts):,} {unit} at one sweep point (from the arguments); at most {MAX_TRIALS:,}")
    if sum(counts) > MAX_TOTAL_TRIALS:
        fail(where, f"{sum(counts):,} {unit} over {len(points):,} sweep points; at most {MAX_TOTAL_TRIALS:,} in all")


def _check_report_names(analysis: Analysis, points: list[Point], precision: Precision | None,
                        report: dict[str, Any], fail) -> None:
    """The tables and figures [report] names are ones the analysis makes."""
    made: dict[str, set[str]] = {"tables": {"precision"} if precision is not None else set(), "figures": set()}
    for point in points:
        tables, figures = analysis.outputs(point.args)
        made["tables"].update(tables)
        made["figures"].update(figures)
    for key, names in made.items():
        for name in report.get(key, []):
            if name not in names:
                offered = ", ".join(sorted(names)) or "none"
                fail(f"report.{key}", f"unknown name {name!r}; {analysis.name} makes: {offered}")


def bundled_scenarios() -> list[Path]:
    """The scenario files shipped with tyrsim, in name order."""
    from importlib import resources

    folder = resources.files("tyrsim") / "scenarios"
    return sorted((Path(str(folder)) / p.name for p in folder.iterdir() if p.name.endswith(".toml")), key=str)
