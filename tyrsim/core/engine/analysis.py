"""Named analyses a game registers, so scenarios, sweeps and reports can run them.

An analysis says which arguments it takes (`Param`), how to compute one chunk of
trials (`run`), how to turn all chunks into tables (`tables`) and figures, and
which metrics a variant comparison or a precision target can use (`Metric`).
The sweep machinery calls `run` once per (sweep point, chunk), with the chunk's
own generator, and concatenates the chunks in index order before `tables`; or,
for an analysis with a summary form (`TaskSummary`), summarises each chunk's
rows in its worker and adds the summaries up (`Totals`) before `tables`.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

from tyrsim.core.stats import intervals as stats

if TYPE_CHECKING:
    import pandas as pd

    from tyrsim.core.engine.spec import GameSpec
    from tyrsim.core.run.substitutions import Substitution


class SummaryError(ValueError):
    """A task summary that is not what its analysis declares (parts, key columns, numeric sums)."""


@dataclass(frozen=True)
class Totals:
    """A point's task summaries added up: {part: table}, each part's key columns first, then its sums."""

    parts: Mapping[str, pd.DataFrame]

    def __getitem__(self, part: str) -> pd.DataFrame:
        return self.parts[part]


@dataclass(frozen=True)
class TaskSummary:
    """An analysis's summary of one task's rows: small tables that add up over tasks, in place of the rows.

    `summarize(rows, rules, args)` gives {part: table}; in part p the columns `keys[p]` name a row (a policy,
    a seat, one value of an integer quantity) and every other column is a count or a sum (of a quantity, of
    its squares, of products) that adds up over tasks. The analysis's `tables` and its metrics' `from_totals`
    read the added-up parts (`add_up`). See docs/scenarios.md, "What a task returns".
    """

    keys: Mapping[str, tuple[str, ...]]
    summarize: Callable[[pd.DataFrame, Any, Mapping[str, Any]], dict[str, pd.DataFrame]]

    def __add__(self, other: TaskSummary) -> TaskSummary:
        """Both summaries' parts (a game's own beside the core's); their part names must differ."""
        if common := set(self.keys) & set(other.keys):
            raise ValueError(f"both task summaries have the parts {sorted(common)}")
        return TaskSummary({**self.keys, **other.keys},
                           lambda rows, rules, args: {**self.summarize(rows, rules, args),
                                                      **other.summarize(rows, rules, args)})

    def check(self, parts: Any) -> None:
        """SummaryError unless `parts` has exactly the declared parts, each with its key columns and
        numeric (int or float) sums."""
        import pandas as pd

        if not isinstance(parts, Mapping) or set(parts) != set(self.keys):
            found = sorted(parts) if isinstance(parts, Mapping) else type(parts).__name__
            raise SummaryError(f"a task summary has the parts {sorted(self.keys)}, not {found}")
        for name, table in parts.items():
            if not isinstance(table, pd.DataFrame):
                raise SummaryError(f"part {name!r} of a task summary is a table, not {type(table).__name__}")
            keys = self.keys[name]
            if missing := [k for k in keys if k not in table.columns]:
                raise SummaryError(f"part {name!r} of a task summary lacks its key columns {missing}")
            for column in table.columns:
                dtype = table[column].dtype
                if column not in keys and not (isinstance(dtype, np.dtype) and dtype.kind in "iuf"):
                    raise SummaryError(f"part {name!r} of a task summary: {column!r} is a sum, so int or float, "
                                       f"not {dtype}")

    def add_up(self, summaries: Sequence[Mapping[str, pd.DataFrame]]) -> Totals:
        """The tasks' summaries (in chunk order) added up key by key; a part's rows sorted by its keys."""
        import pandas as pd

        parts = {}
        for name, keys in self.keys.items():
            table = pd.concat([s[name] for s in summaries], ignore_index=True)
            if keys:
                table = table.groupby(list(keys), sort=True, dropna=False).sum().reset_index()
            else:
                table = table.sum().to_frame().T.astype(table.dtypes.to_dict())
            parts[name] = table
        return Totals(parts)


def moments(values: Any) -> tuple[int, float, float]:
    """(n, sum, sum of squares) of a sample: what `moment_estimates` reads, added up over tasks."""
    values = np.asarray(values, dtype=float)
    return values.size, float(values.sum()), float((values * values).sum())


def moment_estimates(n: Any, total: Any, squares: Any) -> tuple[np.ndarray, np.ndarray]:
    """(mean, sd with ddof 1) from a sample's size, sum and sum of squares (arrays broadcast); NaN where n
    is 0 (the mean) or below 2 (the sd), as from the sample itself."""
    n, total, squares = (np.asarray(x, dtype=float) for x in (n, total, squares))
    with np.errstate(divide="ignore", invalid="ignore"):
        mean = np.where(n > 0, total / n, np.nan)
        # the squares about the mean; rounding can leave a constant sample a hair below 0
        spread = np.clip(squares - total * np.where(n > 0, mean, 0.0), 0.0, None)
        sd = np.where(n > 1, np.sqrt(spread / (n - 1)), np.nan)
    return mean, sd


def moment_interval(n: Any, total: Any, squares: Any) -> tuple[float, float, float]:
    """(mean, low, high) by the t interval from a sample's size, sum and sum of squares (`stats.mean_interval`
    of the sample itself, to rounding)."""
    mean, sd = moment_estimates(n, total, squares)
    low, high = stats.t_interval(mean, sd, n)
    return float(mean), float(low), float(high)


class ArgumentError(ValueError):
    """An analysis argument with an unknown name or a value that is not allowed: `name` names the argument and
    `detail` says what is wrong with it and what is allowed; the message is "argument 'NAME': DETAIL". A command
    line names its own option beside the detail."""

    def __init__(self, name: str, detail: str):
        super().__init__(f"argument {name!r}: {detail}")
        self.name = name
        self.detail = detail


@dataclass(frozen=True)
class Param:
    """One argument of an analysis, with its default and allowed values."""

    name: str
    default: Any
    doc: str
    low: float | None = None
    high: float | None = None
    choices: tuple[Any, ...] | None = None
    item: type | None = None  # element type when the argument is a list
    # validate(value) raises ArgumentError for values the type and range cannot rule out (e.g. policy names)
    validate: Callable[[Any], None] | None = None

    def allowed(self) -> str:
        if self.choices:
            return "one of " + ", ".join(repr(c) for c in self.choices)
        elif self.low is not None and self.high is not None:
            what = f"from {self.low} to {self.high}"
        elif self.low is not None:
            what = f">= {self.low}"
        else:
            what = ""
        if self.item is not None:
            return f"a list of {self.item.__name__} {what}".rstrip()
        kind = type(self.default).__name__
        return f"{kind} {what}".strip()

    def check(self, value: Any) -> Any:
        """Return the validated value (ints accepted for floats), or raise ArgumentError."""
        bad = ArgumentError(self.name, f"{value!r} is not allowed; expected {self.allowed()}")
        if self.item is not None:
            if not isinstance(value, list | tuple) or not value:
                raise bad
            checked = tuple(
                self._scalar(v, self.item, ArgumentError(
                    self.name, f"{v!r} in the list is not allowed; expected {self.allowed()}"))
                for v in value
            )
        else:
            checked = self._scalar(value, type(self.default), bad)
        if self.validate is not None:
            self.validate(checked)
        return checked

    def _scalar(self, value: Any, kind: type, bad: ArgumentError) -> Any:
        if kind is float and isinstance(value, int) and not isinstance(value, bool):
            value = float(value)
        if not isinstance(value, kind) or (kind is not bool and isinstance(value, bool)):
            raise bad
        if self.choices and value not in self.choices:
            raise bad
        if isinstance(value, float) and not math.isfinite(value):
            raise bad  # nan passes every comparison with a bound; inf is no count or size
        if isinstance(value, int | float) and not isinstance(value, bool):
            if (self.low is not None and value < self.low) or (self.high is not None and value > self.high):
                raise bad
        return value


@dataclass(frozen=True)
class Metric:
    """A quantity a comparison or a precision target can use.

    `compute(raw, rules, args)` returns one row per item (matchup, policy, seat...)
    with the `keys` columns and, for a proportion, `successes` and `n`; for a
    mean, `mean`, `sd` and `n`. `from_totals(totals, rules, args)` returns the
    same rows from the added-up task summaries of an analysis with a summary
    form (`TaskSummary`); without it the analysis keeps its rows.
    """

    kind: Literal["proportion", "mean"]
    keys: tuple[str, ...]
    compute: Callable[[pd.DataFrame, Any, Mapping[str, Any]], pd.DataFrame]
    doc: str = ""
    from_totals: Callable[[Totals, Any, Mapping[str, Any]], pd.DataFrame] | None = None

    def estimate(self, raw: pd.DataFrame | Totals, rules: Any, args: Mapping[str, Any]) -> pd.DataFrame:
        """The metric per item with its estimate, interval and half-width, from the rows or their Totals."""
        if isinstance(raw, Totals):
            if self.from_totals is None:
                raise SummaryError(f"the metric {self.doc!r} has no form for task summaries")
            table = self.from_totals(raw, rules, args).reset_index(drop=True)
        else:
            table = self.compute(raw, rules, args).reset_index(drop=True)
        if self.kind == "proportion":
            with np.errstate(divide="ignore", invalid="ignore"):
                table["estimate"] = table["successes"] / table["n"]
            table["ci_low"], table["ci_high"] = stats.wilson_interval(table["successes"], table["n"])
        else:
            table["estimate"] = table["mean"]
            table["ci_low"], table["ci_high"] = stats.t_interval(table["mean"], table["sd"], table["n"])
        table["half_width"] = (table["ci_high"] - table["ci_low"]) / 2
        return table


@dataclass(frozen=True)
class Analysis:
    """A named analysis of one game."""

    name: str
    summary: str
    params: tuple[Param, ...]
    # run(rules, args, first_trial, n_trials, rng) -> raw rows of one chunk
    run: Callable[[Any, Mapping[str, Any], int, int, np.random.Generator], pd.DataFrame]
    # tables(raw of all chunks, or their added-up `Totals` where `task_summary` is set, rules, args)
    # -> {table name: DataFrame}
    tables: Callable[[pd.DataFrame, Any, Mapping[str, Any]], dict[str, pd.DataFrame]]
    # outputs(args) -> (table names, figure names) the run makes, so a scenario's [report] names are checked
    # before running (a figure of no data is left out: combat draws none when no matchup can end)
    outputs: Callable[[Mapping[str, Any]], tuple[tuple[str, ...], tuple[str, ...]]]
    # figures(tables, rules, args) -> {figure name: matplotlib Figure}
    figures: Callable[[dict[str, pd.DataFrame], Any, Mapping[str, Any]], dict[str, Any]] | None = None
    trials: str | None = None  # the argument holding the trial count; None: computed exactly, one task
    trial_unit: str = "trials"
    chunk_size: int = 10_000  # trials per task; fixed, so results never depend on --jobs
    # task_size(rules, args) -> trials per task where a point calls for other than `chunk_size` (an engine that
    # plays games in compiled code wants large tasks); fixed by the point, so never by --jobs either
    task_size: Callable[[Any, Mapping[str, Any]], int] | None = None
    quick_trials: int = 200  # trials per sweep point in a quick report
    # count(args) -> trials actually needed (e.g. 0 when an argument asks for exact values only)
    count: Callable[[Mapping[str, Any]], int] | None = None
    metrics: Mapping[str, Metric] = field(default_factory=dict)
    headline: str | None = None  # the metric a precision target is set on
    # validate(args) raises ArgumentError for combinations of arguments no single Param rules out (a size limit)
    validate: Callable[[Mapping[str, Any]], None] | None = None
    # check_given(args, given) raises ArgumentError for an argument the user gave (its name in `given`) that the
    # other arguments leave unused, so that it is refused rather than ignored (a fight count asked of exact odds,
    # which simulate no fights); `args` are all the arguments, defaults filled in
    check_given: Callable[[Mapping[str, Any], Collection[str]], None] | None = None
    # findings(tables, rules, args) -> two to five plain sentences, each number with its interval, that open
    # the report page's answer section ("Hunter wins 58.0% [53.1, 62.7] of games against breeder.")
    findings: Callable[[dict[str, pd.DataFrame], Any, Mapping[str, Any]], list[str]] | None = None
    # the most sentences a page's answer shows (the comparison's and then the findings; all are in findings.csv):
    # five, but for an analysis whose answer has more parts than that (the balance study's)
    answer_sentences: int = 5
    # files(tables, rules, args) -> {file name: bytes}: extra files a report or --out folder holds beside the
    # tables and figures (a printable sheet, a self-contained calculator page)
    files: Callable[[dict[str, pd.DataFrame], Any, Mapping[str, Any]], dict[str, bytes]] | None = None
    # {file name: what it is}: files of `files` a player would want, listed on the report index "For players"
    player_files: Mapping[str, str] = field(default_factory=dict)
    # what each column a table of this analysis adds means, for the page's glossary ({column: meaning})
    glossary: Mapping[str, str] = field(default_factory=dict)
    # substitutions(rules, args) -> what a point's tasks play in place of what was asked, and why (an engine
    # that cannot play a rule or a policy: `tyrsim.core.run.substitutions`); called in the main process before any
    # task is sent, from the point's rules and arguments alone, so every task plays what it says
    substitutions: Callable[[Any, Mapping[str, Any]], Sequence[Substitution]] | None = None
    # prepare(rules, args): called in the main process before a point's tasks are sent (a compiled engine compiles
    # here, or loads numba's cache, so that worker processes load the cache rather than each compiling)
    prepare: Callable[[Any, Mapping[str, Any]], None] | None = None
    # command(rules, options, seed, given, progress, out) -> the table printed by the analysis's own command
    # (`tyrsim combat`), computed at once in this process, its trials drawn from one generator seeded `seed`:
    # `options` are the command's, `given` the names of those the user set, progress(total) -> (update(n), done())
    # follows the trials, and `out` (None: none) is a folder to write the table and its files into. A bad option
    # is an ArgumentError naming it. The command line only parses the options and prints the table.
    command: Callable[..., pd.DataFrame] | None = None
    # the summary form of a task's rows (see TaskSummary): with it, and `from_totals` on every metric, a task's
    # result is its summary and `tables` is handed the summaries added up, unless the rows are asked for
    task_summary: TaskSummary | None = None

    def summarises(self) -> bool:
        """Whether a run can keep task summaries in place of rows: a summary form for the tables and every metric."""
        return self.task_summary is not None and all(m.from_totals is not None for m in self.metrics.values())

    def trials_per_task(self, rules: Any, args: Mapping[str, Any]) -> int:
        """The trials each task of a point with these rules and arguments holds."""
        return self.chunk_size if self.task_size is None else self.task_size(rules, args)

    def point_substitutions(self, rules: Any, args: Mapping[str, Any]) -> tuple[Substitution, ...]:
        """What a point with these rules and arguments plays in place of what was asked (empty: nothing)."""
        return () if self.substitutions is None else tuple(self.substitutions(rules, args))

    def param(self, name: str) -> Param:
        for p in self.params:
            if p.name == name:
                return p
        raise ArgumentError(
            name,
            f"unknown for analysis {self.name!r}; the arguments are: "
            + ", ".join(p.name for p in self.params)
        )

    def trial_count(self, args: Mapping[str, Any]) -> int:
        """Trials a run with these arguments needs (0: nothing is simulated)."""
        if self.trials is None:
            return 0
        return self.count(args) if self.count is not None else int(args[self.trials])

    def check_args(self, given: Mapping[str, Any]) -> dict[str, Any]:
        """All arguments, defaults filled in, each validated."""
        args = {p.name: p.default for p in self.params}
        for name, value in given.items():
            args[name] = self.param(name).check(value)
        if self.validate is not None:
            self.validate(args)
        return args


@dataclass(frozen=True)
class ForGame:
    """An analysis that plays the game it belongs to (its engine, policies, rules): `build(spec)` makes it.

    The studies every game gets (`tyrsim.core.studies`: game, rate, explore, rulings, ladder and trace) are
    written once for any game and return a ForGame; the game's `GameSpec` builds each when it
    is made, handing it the spec, so an analysis never looks its game up by name.
    """

    build: Callable[[GameSpec], Analysis]

    def then(self, change: Callable[[Analysis], Analysis]) -> ForGame:
        """This analysis, once built, changed by `change` (a game's own tables or engine added to a study)."""
        return ForGame(lambda spec: change(self.build(spec)))


def for_game(build: Callable[..., Analysis]) -> Callable[..., ForGame]:
    """`build(spec, *args, **kwargs) -> Analysis` as a factory of `ForGame`s: `f(*args, **kwargs)` in a game's
    analyses table is built with that game's spec when its GameSpec is made."""

    @functools.wraps(build)
    def bind(*args: Any, **kwargs: Any) -> ForGame:
        return ForGame(lambda spec: build(spec, *args, **kwargs))

    return bind
