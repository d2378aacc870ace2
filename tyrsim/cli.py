"""The `tyrsim` command line: thin click commands that parse, call the library, print or write."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import click

from tyrsim.core.engine.limits import MAX_JOBS, MAX_MATCHUPS, MAX_TRIALS
from tyrsim.core.engine.rules import RuleError
from tyrsim.core.run.output import STORE, OutFolderError, check_out_folder

FORMATS = ("table", "csv", "json", "markdown")


class IntSet(click.ParamType):
    """An integer option given as one value (3), a range (1-6) or a list (0,2,4), or a mix (0,2-4).

    It reads as (low, high) spans, not yet expanded: the command checks the bounds first (the combat
    analysis's `side_values`), so 1-10000000 is refused without building ten million values.
    """

    name = "values"

    def convert(self, value, param, ctx):
        if isinstance(value, tuple):
            return value
        spans: list[tuple[int, int]] = []
        try:
            for part in str(value).split(","):
                part = part.strip()
                low, sep, high = part.partition("-")
                if sep and low:
                    lo, hi = int(low), int(high)
                    if hi < lo:
                        raise ValueError
                    spans.append((lo, hi))
                else:
                    spans.append((int(part), int(part)))
        except ValueError:
            self.fail(
                f"{value!r} is not a value, a range or a list; write e.g. 3, 1-6 or 0,2,4", param, ctx
            )
        return tuple(spans)


def rule_overrides(items: tuple[str, ...]) -> dict[str, str]:
    """{KEY: VALUE} from repeated --rule KEY=VALUE options."""
    overrides = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise click.BadParameter(f"{item!r} is not KEY=VALUE", param_hint="--rule")
        if key.strip() in overrides:
            raise click.BadParameter(f"rule {key.strip()!r} is given twice; give each rule once", param_hint="--rule")
        overrides[key.strip()] = value.strip()
    return overrides


def parse_rules(rules_cls, items: tuple[str, ...]):
    """A Rules object from repeated --rule KEY=VALUE options (usage error on a bad one)."""
    try:
        return rules_cls.from_overrides(rule_overrides(items))
    except RuleError as exc:
        raise click.BadParameter(str(exc), param_hint="--rule") from None


def progress_reporter(total: int, label: str) -> tuple[Callable[[int], None] | None, Callable[[], None]]:
    """A progress bar on a terminal; elsewhere (a log) a plain line at most every progress.LOG_INTERVAL seconds."""
    if total <= 0:
        return None, lambda: None
    from tyrsim.core.run.progress import Progress

    meter = Progress(total, label, what=label)
    return lambda n: meter.update(n, n), meter.close


def out_folder_or_fail(path: Path, *, collection: bool = False) -> Path:
    """`path` if tyrsim can and may write its output there, else a usage error naming --out."""
    try:
        check_out_folder(path, collection=collection)
    except OutFolderError as exc:
        raise click.BadParameter(str(exc), param_hint="--out") from None
    return path


class OutFolder(click.ParamType):
    """An --out folder, checked when the command line is read, before any work: see output.check_out_folder."""

    name = "folder"

    def __init__(self, collection: bool = False):
        self.collection = collection

    def convert(self, value, param, ctx):
        try:
            check_out_folder(value, collection=self.collection)
        except OutFolderError as exc:
            self.fail(str(exc), param, ctx)
        return Path(value)


@click.group()
@click.version_option(package_name="tyrsim")
def main() -> None:
    """Monte Carlo strategy analysis for Tyranno Ex, Zooloretto Duell, Tyros and Tiny Epic Dinosaurs."""


@main.command()
@click.option("--attacker-strength", type=IntSet(), default="1-6", show_default=True,
              help="Attacker strength die value(s); 1 = no strength die.")
@click.option("--attacker-dice", type=IntSet(), default="0-30", show_default=True,
              help=f"Attacker dice count(s), 0 to the max_dice rule (30); at most {MAX_MATCHUPS:,} matchups in all.")
@click.option("--defender-strength", type=IntSet(), default="1-6", show_default=True,
              help="Defender strength die value(s); 1 = no strength die.")
@click.option("--defender-dice", type=IntSet(), default="0-30", show_default=True,
              help=f"Defender dice count(s), 0 to the max_dice rule (30); at most {MAX_MATCHUPS:,} matchups in all.")
@click.option("--method", type=click.Choice(["exact", "mc", "both"]), default="exact", show_default=True,
              help="Exact odds, Monte Carlo, or one row of each per matchup.")
@click.option("--fights", type=click.IntRange(1, MAX_TRIALS), default=10_000, show_default=True,
              help=f"Simulated fights per matchup (mc, both), at most {MAX_TRIALS:,}.")
@click.option("--seed", type=click.IntRange(0, 2**63 - 1), default=0, show_default=True, help="Seed for mc.")
@click.option("--rule", "rule_items", multiple=True, metavar="KEY=VALUE",
              help="Change a rule (repeatable); `tyrsim games` lists them.")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="table", show_default=True,
              help="How to print the table.")
@click.option("--out", type=OutFolder(),
              help="Also write odds.csv, odds.md, PNG figures, the printable cheat sheet (cheat_sheet.pdf, .png; "
                   "every strength, dice 1-12) and the odds calculator page (odds.html) into this folder.")
def combat(attacker_strength, attacker_dice, defender_strength, defender_dice, method, fights, seed,
           rule_items, fmt, out) -> None:
    """Tyranno Ex combat odds for every combination of the given strengths and dice.

    \b
    Examples:
      tyrsim combat --attacker-strength 3 --attacker-dice 2 --defender-strength 1 --defender-dice 7
      tyrsim combat --attacker-strength 1-6 --defender-strength 1 --defender-dice 5 --method both
      tyrsim combat --rule tie_rule=defender --format csv > odds.csv
    """
    from click.core import ParameterSource

    from tyrsim.core.engine.analysis import ArgumentError

    spec = game_spec("tyranno-ex")
    rules = parse_rules(spec.rules, rule_items)
    context = click.get_current_context()
    given = {name for name in context.params if context.get_parameter_source(name) is not ParameterSource.DEFAULT}
    options = {"attacker_strength": attacker_strength, "attacker_dice": attacker_dice,
               "defender_strength": defender_strength, "defender_dice": defender_dice, "method": method,
               "fights": fights}
    try:
        odds = spec.analyses["combat"].command(rules, options, seed, given,
                                               lambda total: progress_reporter(total, "fights"), out)
    except ArgumentError as exc:
        raise click.BadParameter(exc.detail, param_hint=f"--{exc.name.replace('_', '-')}") from None
    from tyrsim.core.report.table_text import csv_text, json_records, markdown_table, terminal_table

    if fmt == "table":
        click.echo(terminal_table(odds))
    elif fmt == "csv":
        click.echo(csv_text(odds), nl=False)
    elif fmt == "json":
        click.echo(json_records(odds))
    else:
        click.echo(markdown_table(odds))


def load_or_fail(path: Path):
    from tyrsim.core.run.scenario import ScenarioError, load_scenario
    from tyrsim.games import get_game

    try:
        return load_scenario(path, games=get_game)
    except ScenarioError as exc:
        raise click.UsageError(str(exc)) from None


def say_substitutions(notes, game: str, label: str | None = None) -> None:
    """One line on stderr for each thing the run plays in place of what was asked (`sweep.run_substitutions`)."""
    for note in notes:
        click.echo(f"{label + ': ' if label else ''}note: {note.line(game)}", err=True)


def execute(scenario, out: Path, jobs: int | None, backend: str, scheduler: str | None, fresh: bool, *,
            pool=None, label: str | None = None, page_lock=None) -> Path:
    """Run one scenario into `out` (finished tasks in OUT/.store) and write its report; usage errors for bad input.

    `jobs`: the worker processes asked for (None: every core). For scenarios run side by side (`report`):
    their shared worker processes `pool`, a `label` for the progress lines, and a `page_lock` held while
    tables, figures and the page are made (matplotlib's pyplot keeps global state). What the run plays in
    place of what was asked is printed once, before any task is sent, and listed in the report.
    """
    import contextlib
    import time

    from tyrsim.core.report.pages import build_report, write_report
    from tyrsim.core.run.sweep import run_and_build, run_substitutions
    from tyrsim.core.run.workers import SchedulerError, default_jobs

    lock = page_lock if page_lock is not None else contextlib.nullcontext()
    notes = run_substitutions(scenario, jobs=jobs if pool is None else None)  # a shared pool is not the run's own
    say_substitutions(notes, scenario.game.name, label)

    def build(results):
        with lock:
            return build_report(scenario, results, time.perf_counter() - start, notes)

    start = time.perf_counter()
    try:
        report = run_and_build(scenario, build, store_folder=out / STORE, fresh=fresh, n_jobs=jobs or default_jobs(),
                               backend_name=backend, scheduler=scheduler, pool=pool, label=label, summaries=True)
    except KeyboardInterrupt:
        if (out / STORE).is_dir():
            click.echo(f"\ninterrupted: finished tasks are kept in {out / STORE}; run the same command again "
                       "to complete the work", err=True)
        else:
            click.echo("\ninterrupted before any task finished", err=True)
        sys.exit(130)
    except SchedulerError as exc:
        raise click.BadParameter(str(exc), param_hint="--scheduler") from None
    except (ValueError, RuleError) as exc:
        raise click.UsageError(f"{scenario.path}: {exc}") from None
    with lock:
        return write_report(report, out)


JOBS = click.option("--jobs", type=click.IntRange(1, MAX_JOBS), default=None,
                    help=f"Worker processes, 1 to {MAX_JOBS}; never more than there are tasks [default: all cores].")


BACKEND = click.option("--backend", type=click.Choice(["loky", "dask"]), default="loky", show_default=True,
                       help="joblib's local processes, or a Dask cluster.")
SCHEDULER = click.option("--scheduler", metavar="ADDRESS", help="Dask scheduler address (tcp://host:8786), given up "
                         "on after 10 s without an answer; without it --backend dask starts a local cluster.")


def check_backend(backend: str, scheduler: str | None, jobs: int | None) -> None:
    """A usage error where --scheduler is given without --backend dask, beside --jobs, or is no address."""
    if scheduler is None:
        return
    from tyrsim.core.run.workers import SchedulerError, check_scheduler

    if backend != "dask":
        raise click.BadParameter("needs --backend dask", param_hint="--scheduler")
    if jobs is not None:  # the cluster's workers play the tasks; --jobs would be ignored
        raise click.BadParameter("counts local worker processes, and with --scheduler the cluster's own "
                                 "workers play the tasks; leave --jobs out (start as many `dask worker`s "
                                 "as you want)", param_hint="--jobs")
    try:
        check_scheduler(scheduler)
    except SchedulerError as exc:
        raise click.BadParameter(str(exc), param_hint="--scheduler") from None


@main.command()
@click.argument("scenario_file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@JOBS
@click.option("--out", type=OutFolder(), help="Report folder [default: reports/<scenario name>].")
@BACKEND
@SCHEDULER
@click.option("--fresh", is_flag=True, help="Recompute everything instead of reusing finished tasks.")
def run(scenario_file, jobs, out, backend, scheduler, fresh) -> None:
    """Run a scenario file and write its report.

    Finished tasks are kept in the report folder, so a rerun after an
    interruption completes the work, and a changed scenario recomputes only
    what changed. Same seed, same tables, whatever --jobs or --backend.
    """
    check_backend(backend, scheduler, jobs)
    scenario = load_or_fail(scenario_file)
    out = out_folder_or_fail(out or Path("reports") / scenario.name)
    folder = execute(scenario, out, jobs, backend, scheduler, fresh)
    click.echo(f"wrote {folder / 'index.html'}")


@main.command()
@click.option("--out", type=OutFolder(collection=True), default="reports", show_default=True,
              help="Folder for the reports (one folder per scenario) and their index.")
@click.option("--quick", is_flag=True, help="Cut every scenario's trials (a demo or a test).")
@JOBS
def report(out, quick, jobs) -> None:
    """Run every bundled scenario of the default report and write OUT/index.html linking them.

    Each scenario is numbered k/N on stderr when it starts and when it finishes (with its time).
    Two scenarios are under way at once, sharing the worker processes: while one waits on its
    last tasks or writes its page, the next one's tasks keep the workers busy.
    """
    from tyrsim.core.run.default_report import report_scenarios, run_report
    from tyrsim.core.run.progress import clock_text
    from tyrsim.core.run.scenario import bundled_scenarios
    from tyrsim.core.run.workers import default_jobs

    scenarios = report_scenarios([load_or_fail(path) for path in bundled_scenarios()])
    for scenario in scenarios:  # every folder is checked before the first game is played
        out_folder_or_fail(out / scenario.name)
    if quick:
        scenarios = [scenario.quick() for scenario in scenarios]
    jobs = jobs or default_jobs()

    def run_one(scenario, folder: Path, **shared) -> Path:
        return execute(scenario, folder, jobs, "loky", None, False, **shared)

    try:
        took = run_report(scenarios, out, jobs, run_one, lambda line: click.echo(line, err=True), quick=quick)
    except KeyboardInterrupt:
        click.echo("\ninterrupted: each scenario's finished tasks are kept in its folder's .store; run the same "
                   "command again to complete the work", err=True)
        sys.exit(130)
    click.echo(f"wrote {out / 'index.html'}: {len(scenarios)} scenarios in {clock_text(took)} ({took:.0f} s)")


def game_spec(name: str):
    from tyrsim.games import UnknownGame, get_game

    try:
        return get_game(name)
    except UnknownGame as exc:
        raise click.BadParameter(str(exc), param_hint="GAME") from None


def seat_policies(spec, policies: tuple[str, ...], players: int | None, analysis: str = "game") -> list[str]:
    """One policy per seat (`GameSpec.seat_policies`): the --policy options, or the default table of `analysis`
    cycled round --players seats; a usage error naming the option."""
    from tyrsim.core.engine.analysis import ArgumentError

    if spec.make_game is None:
        raise click.BadParameter(f"{spec.name} has no full game engine yet", param_hint="GAME")
    try:
        return spec.seat_policies(policies, players, analysis)
    except ArgumentError as exc:
        raise click.BadParameter(exc.detail, param_hint={"players": "--players"}.get(exc.name, "--policy")) from None


POLICY = click.option("--policy", "policies", multiple=True, metavar="NAME[:KEY=VALUE,...]",
                      help="One per seat, in seat order (repeat); `tyrsim games GAME` lists them.")
PLAYERS = click.option("--players", type=click.IntRange(min=1), help="Player count when no --policy is given.")
RULE = click.option("--rule", "rule_items", multiple=True, metavar="KEY=VALUE", help="Change a rule (repeatable).")
SEED = click.option("--seed", type=click.IntRange(0, 2**63 - 1), default=0, show_default=True, help="Run seed.")


@main.command()
@click.argument("game")
@click.option("--games", "n_games", type=click.IntRange(1, MAX_TRIALS), default=1000, show_default=True,
              help=f"Games to play (seats rotate from game to game), at most {MAX_TRIALS:,}.")
@POLICY
@PLAYERS
@RULE
@SEED
@JOBS
@click.option("--out", type=OutFolder(), help="Write the per-game CSV, the summary tables and figures here.")
@click.option("--engine", type=click.Choice(["auto", "compiled", "object"]),
              help="For a game with a compiled engine (every bundled game has one): 'compiled' plays in compiled code "
                   "(policies with a compiled form only), 'object' plays the readable reference engine; 'auto' "
                   "(the default) the compiled engine wherever it can, and it says so when a policy or a rule "
                   "keeps it out. Both play the same games from the same seed.")
def simulate(game, n_games, policies, players, rule_items, seed, jobs, out, engine) -> None:
    """Play many games of GAME with the given policies and summarise them with intervals."""
    spec = full_game(game)
    parse_rules(spec.rules, rule_items)
    texts = seat_policies(spec, policies, players)
    args = {"policies": texts, "games": n_games}
    if engine is not None:
        if not has_engine_choice(spec):
            from tyrsim.games import game_names

            with_one = [name for name in game_names() if has_engine_choice(game_spec(name))]
            raise click.BadParameter(f"{spec.title} has no compiled engine yet; games with one: {', '.join(with_one)}",
                                     param_hint="--engine")
        args["engine"] = engine
    try:
        run_inline(spec, "game", args, rule_items, seed, jobs, out,
                   {"policies": "--policy", "games": "--games", "engine": "--engine"}, per_game_csv="games.csv",
                   header=f"{spec.title}: {n_games} games, policies {', '.join(texts)} (seats rotate), seed {seed}")
    except RuleError as exc:  # a rule value the chosen engine cannot play (the rules themselves were checked)
        raise click.UsageError(str(exc)) from None


def has_engine_choice(spec) -> bool:
    """Whether GAME's `game` analysis lets the run choose its engine (a game with a compiled engine)."""
    return "engine" in {p.name for p in spec.analyses["game"].params}


def full_game(name: str):
    spec = game_spec(name)
    if spec.make_game is None or "game" not in spec.analyses:
        raise click.BadParameter(f"{spec.name} has no full game engine yet", param_hint="GAME")
    return spec


def scenario_usage_error(exc, option_names: dict[str, str]) -> click.UsageError:
    """The usage error of a command whose scenario was refused: naming the command's option where the problem is
    one of its arguments (`option_names`: argument -> option), else the scenario's own message."""
    argument = exc.key.removeprefix("args.") if exc.key is not None and exc.key.startswith("args.") else None
    if argument in option_names:
        return click.UsageError(f"{option_names[argument]}: {exc.detail}")
    return click.UsageError(str(exc))


def run_inline(spec, analysis: str, args: dict, rule_items: tuple[str, ...], seed: int, jobs: int | None,
               out: Path | None, option_names: dict[str, str], per_game_csv: str | None = None,
               header: str = "", shown: tuple[str, ...] | None = None):
    """Run one analysis given on the command line: print `header` once it is checked, then its tables
    (those named in `shown`, if given); write a report to `out` if given (with the raw per-trial rows
    as `per_game_csv`, if named)."""
    from tyrsim.core.report.pages import write_report
    from tyrsim.core.report.table_text import csv_text, terminal_table
    from tyrsim.core.run.command import run_command
    from tyrsim.core.run.scenario import ScenarioError
    from tyrsim.games import get_game

    def ready(scenario, notes) -> None:
        if header:
            click.echo(header)
        if scenario.rules.differences():
            click.echo("rules changed: " + ", ".join(f"{k}={v}" for k, v in scenario.rules.differences().items()))
        say_substitutions(notes, spec.name)

    try:
        done = run_command(spec, analysis, args, rule_overrides(rule_items), seed, games=get_game,
                           jobs=jobs, keep_rows=out is not None and per_game_csv is not None,
                           ready=ready)
    except ScenarioError as exc:
        raise scenario_usage_error(exc, option_names) from None
    for name, table in done.report.tables.items():
        if shown is not None and name not in shown:
            continue
        click.echo(f"\n{name}")
        click.echo(terminal_table(table, digits=3))
    if out is not None:
        extra = {per_game_csv: csv_text(done.results[0].raw)} if per_game_csv else None
        write_report(done.report, out, extra)
        click.echo(f"\nwrote {out / 'index.html'}" + (f" and {out / per_game_csv}" if per_game_csv else ""))


@main.command()
@click.argument("game")
@POLICY
@click.option("--players", type=click.IntRange(min=2), help="Players at each table [default: the game's most].")
@click.option("--games", "n_games", type=click.IntRange(1, MAX_TRIALS), default=200, show_default=True,
              help=f"Games per ordered pairing of two policies; at most {MAX_TRIALS:,} games in all.")
@RULE
@SEED
@JOBS
@click.option("--out", type=OutFolder(), help="Also write a report here.")
def rate(game, policies, players, n_games, rule_items, seed, jobs, out) -> None:
    """Rate GAME's policies: a round robin in all seat orders, fitted to Bradley-Terry.

    Without --policy every policy of the game takes part.
    """
    spec = full_game(game)
    parse_rules(spec.rules, rule_items)
    players = players or spec.default_players
    if players not in spec.players:
        raise click.BadParameter(f"{spec.title} is for {', '.join(map(str, spec.players))} players",
                                 param_hint="--players")
    texts = list(policies) or list(spec.policies)
    run_inline(spec, "rate", {"policies": texts, "players": players, "games": n_games}, rule_items, seed, jobs, out,
               {"policies": "--policy", "games": "--games"},
               header=f"{spec.title}: {len(texts) * (len(texts) - 1)} pairings x {n_games} games at {players}-player "
               f"tables, seed {seed}")


@main.command()
@click.argument("game")
@click.option("--param", "params", multiple=True, required=True, metavar="KEY=LOW:HIGH",
              help="A numeric rule and its range (repeat).")
@click.option("--metric", "metrics", multiple=True, metavar="NAME",
              help="Metric to rank the rules on (repeat) [default: mean_margin, largest_seat_gap, mean_rounds].")
@click.option("--points", type=click.IntRange(min=4), default=16, show_default=True,
              help="Base samples N of the Sobol' design, a power of two from 4 to 4096: N x (rules + 2) rule points.")
@click.option("--games", "n_games", type=click.IntRange(2, MAX_TRIALS), default=250, show_default=True,
              help=f"Games per rule point; at most {MAX_TRIALS:,} games in all.")
@POLICY
@PLAYERS
@RULE
@SEED
@JOBS
@click.option("--out", type=OutFolder(), help="Also write a report here.")
def explore(game, params, metrics, points, n_games, policies, players, rule_items, seed, jobs, out) -> None:
    """Which rules matter: vary numeric rules of GAME together over their ranges (a Sobol' design) and rank
    them by total Sobol' index on each metric, with the standardised regression coefficient beside it."""
    spec = full_game(game)
    parse_rules(spec.rules, rule_items)
    fixed = rule_overrides(rule_items)
    for text in params:
        key = text.partition("=")[0].strip()
        if key in fixed:
            raise click.BadParameter(f"rule {key!r} is both varied (--param) and fixed (--rule {key}=...); "
                                     "give it one or the other", param_hint="--param")
    texts = seat_policies(spec, policies, players, "explore")
    args = {"params": list(params), "points": points, "games": n_games, "policies": texts}
    if metrics:
        args["metrics"] = list(metrics)
    run_inline(spec, "explore", args, rule_items, seed, jobs, out,
               {"params": "--param", "metrics": "--metric", "policies": "--policy", "points": "--points",
                "games": "--games"},
               header=f"{spec.title}: {points * (len(params) + 2)} rule points x {n_games} games, policies "
               f"{', '.join(texts)}, seed {seed}")


@main.command()
@click.argument("game")
@click.option("--games", "n_games", type=click.IntRange(2, MAX_TRIALS), default=400, show_default=True,
              help=f"Games per reading; the same games are played under every reading. At most {MAX_TRIALS:,} "
              "games in all.")
@click.option("--ruling", "ruling_names", multiple=True, metavar="NAME",
              help="Play only this ruling's readings (repeat) [default: every ruling of GAME].")
@POLICY
@PLAYERS
@RULE
@SEED
@JOBS
@click.option("--out", type=OutFolder(), help="Also write a report here (with rulings.csv and a figure).")
def rulings(game, n_games, ruling_names, policies, players, rule_items, seed, jobs, out) -> None:
    """Which readings of the rulebook change the answer: play each alternative reading of every ruling of
    GAME against the default on the same games, and rank the readings by their largest significant effect
    on the answers (win rates, score, seat balance, margin, game length), then on the game's own counters."""
    from tyrsim.core.studies.rulings import readings

    spec = full_game(game)
    rules = parse_rules(spec.rules, rule_items)
    args: dict = {"games": n_games}
    if ruling_names:
        args["rulings"] = list(ruling_names)
    if policies or players is not None:
        args["policies"] = seat_policies(spec, policies, players, "rulings")
    texts = args.get("policies") or spec.analyses["rulings"].param("policies").default
    played = readings(rules, tuple(ruling_names) or ("all",))  # shown once the names are checked
    run_inline(spec, "rulings", args, rule_items, seed, jobs, out,
               {"rulings": "--ruling", "policies": "--policy", "games": "--games"},
               header=f"{spec.title}: {len(played)} alternative readings against the baseline x {n_games} games "
               f"each, policies {', '.join(texts)}, seed {seed}", shown=("ruling_ranking", "findings"))


@main.command()
@click.argument("game")
@click.option("--policy", "policy", required=True, metavar="NAME",
              help="The policy whose weights to tune (one with tunable weights: `tyrsim games GAME` marks them).")
@click.option("--opponent", "pool", multiple=True, metavar="NAME[:KEY=VALUE,...]",
              help="A policy of the fixed pool in the other seats (repeat, at most once per other seat; cycled "
              "round the table) [default: the untuned policy].")
@PLAYERS
@click.option("--budget", type=click.IntRange(1, MAX_TRIALS), default=6000, show_default=True,
              help="Games the tuner may play, split into generations of --population candidates x --games games.")
@click.option("--games", "n_games", type=click.IntRange(2, MAX_TRIALS), default=50, show_default=True,
              help="Games per candidate and generation (every candidate of a generation plays the same games).")
@click.option("--population", type=click.IntRange(2, 1000), default=None,
              help="Candidates per generation [default: CMA-ES's own, 4 + 3 ln(number of weights)].")
@click.option("--check-games", type=click.IntRange(2, MAX_TRIALS), default=400, show_default=True,
              help="Games of the tuned weights against the untuned policy, to check they beat it.")
@RULE
@SEED
@JOBS
@click.option("--out", type=OutFolder(), required=True,
              help="Write NAME.toml (the weights), tune_history.csv and check.csv here; finished games are kept "
              "in OUT/.store, so the same command resumes an interrupted run.")
@click.option("--fresh", is_flag=True, help="Replay every game instead of reusing finished ones.")
def tune(game, policy, pool, players, budget, n_games, population, check_games, rule_items, seed, jobs, out,
         fresh) -> None:
    """Tune the named weights of a policy of GAME by CMA-ES, in self-play against a fixed pool.

    Use the result as --policy NAME:weights=OUT/NAME.toml."""
    from tyrsim.core.engine import weights
    from tyrsim.core.engine.analysis import ArgumentError
    from tyrsim.core.run.progress import Progress
    from tyrsim.core.run.store import ResultStore
    from tyrsim.core.run.substitutions import Noted
    from tyrsim.core.run.workers import default_jobs
    from tyrsim.core.studies.tune import TuneError, plan_tune, write_tuned
    from tyrsim.core.studies.tune import tune as run_tune

    spec = full_game(game)
    rules = parse_rules(spec.rules, rule_items)
    try:
        plan = plan_tune(spec, policy, rules, pool, players, budget=budget, games=n_games, population=population,
                         check_games=check_games, seed=seed)
    except ArgumentError as exc:
        raise click.BadParameter(exc.detail, param_hint={"pool": "--opponent"}.get(exc.name, f"--{exc.name}")) from None
    setup = plan.setup
    click.echo(f"{spec.title}: tuning {policy} ({', '.join(weights.tunable(spec.policies[policy]))}) against "
               f"{', '.join(setup.pool)} at {setup.players} players: {setup.generations} generations x "
               f"{setup.population} candidates x {n_games} games, then {check_games} check games; seed {seed}")
    if (unfilled := plan.substitution()) is not None:
        say_substitutions([Noted(unfilled)], spec.name)
    tasks = Progress(0, "games", what="tasks")

    def generation_done(generation: int, best: float) -> None:
        click.echo(f"generation {generation + 1}/{setup.generations}: best candidate's win share {best:.3f}",
                   err=True)

    try:
        result = run_tune(spec, setup, n_jobs=jobs or default_jobs(), store=ResultStore(out / STORE, read=not fresh),
                          progress=tasks, on_generation=generation_done)
    except TuneError as exc:
        raise click.BadParameter(str(exc), param_hint="--policy") from None
    except KeyboardInterrupt:
        click.echo(f"\ninterrupted: finished games are kept in {out / STORE}; run the same command again to "
                   "resume", err=True)
        sys.exit(130)
    finally:
        tasks.close()
    mean, low, high = result.beats
    command = " ".join(["tyrsim tune", spec.name, "--policy", policy, *(f"--opponent {o}" for o in pool),
                        f"--players {setup.players} --budget {budget} --games {n_games} --population "
                        f"{setup.population}",
                        f"--check-games {check_games} --seed {seed}", *(f"--rule {r}" for r in rule_items)])
    write_tuned(out, setup, result, command)
    click.echo("tuned weights: " + ", ".join(f"{k}={v:g}" for k, v in result.weights.items()))
    click.echo(f"check: tuned {policy} {result.verdict} the untuned one: it finished ahead in {100 * mean:.1f}% "
               f"[{100 * low:.1f}, {100 * high:.1f}] of seat pairs over {check_games} games")
    click.echo(f"wrote {out / (policy + '.toml')}; use it as --policy {policy}:weights={out / (policy + '.toml')}")


@main.command()
@click.argument("game")
@click.option("--vary", "vary", multiple=True, metavar="KEY=LOW:HIGH|KEY=a,b,c",
              help="A rule to vary: an integer rule over LOW..HIGH, or any rule over the values listed (a "
              "ruling's readings among them) (repeat).")
@click.option("--target", "targets", multiple=True, metavar="METRIC=V|METRIC<=V|METRIC>=V",
              help="A target on a game metric: first_seat_win_rate, largest_seat_gap, balance, mean_rounds, "
              "mean_margin, share_decided_by_tiebreak, mean_score, mean_actions or mean_COUNTER (repeat).")
@click.option("--skill", "skills", multiple=True, metavar="STRONG>WEAK>=SHARE",
              help="A skill target: policy STRONG, in one seat against WEAK in the others, takes at least (<=: at "
              "most; =: about) SHARE of the wins, e.g. 'heuristic>random>=0.9' (repeat).")
@POLICY
@PLAYERS
@click.option("--games", "budget", type=click.IntRange(1, MAX_TRIALS), default=20_000, show_default=True,
              help="Games the search may play (the run's rules' games included; the fresh games apart).")
@click.option("--block", type=click.IntRange(2, MAX_TRIALS), default=50, show_default=True,
              help="Games of a candidate's first block; each further block doubles its games.")
@click.option("--rungs", type=click.IntRange(1, 12), default=4, show_default=True,
              help="Blocks a candidate plays at most (block x 2^(rungs-1) games), unless racing stops it.")
@click.option("--batch", type=click.IntRange(1, 256), default=8, show_default=True,
              help="Candidates asked of the sampler at a time (played together over the jobs).")
@click.option("--check-games", type=click.IntRange(2, MAX_TRIALS), default=2000, show_default=True,
              help="Fresh games of each finalist: the answer is read from these only.")
@click.option("--finalists", type=click.IntRange(1, 100), default=5, show_default=True,
              help="Best candidates re-played on fresh games (beside the least distance per number of rules "
              "changed and the best's neighbours).")
@click.option("--time-limit", type=click.FloatRange(min=0, min_open=True), default=None, metavar="SECONDS",
              help="Stop the search after this long (between batches; the answer then depends on the machine).")
@RULE
@SEED
@JOBS
@BACKEND
@SCHEDULER
@click.option("--out", type=OutFolder(), required=True,
              help="Write the page, tables and figures here; finished games and the sampler's journal are kept "
              "in OUT/.store, so the same command resumes an interrupted run.")
@click.option("--fresh", is_flag=True, help="Replay every game and start the search again.")
def balance(game, vary, targets, skills, policies, players, budget, block, rungs, batch, check_games, finalists,
            time_limit, rule_items, seed, jobs, backend, scheduler, out, fresh) -> None:
    """Search GAME's rules for the variants that meet the --target's, and certify them on fresh games."""
    import time

    from tyrsim.core.engine.analysis import ArgumentError
    from tyrsim.core.report.balance_page import findings, write_balance
    from tyrsim.core.run.progress import Progress
    from tyrsim.core.run.store import ResultStore
    from tyrsim.core.run.workers import default_jobs
    from tyrsim.core.studies.balance import balance as run_balance
    from tyrsim.core.studies.balance import plan_balance

    check_backend(backend, scheduler, jobs)
    spec = full_game(game)
    rules = parse_rules(spec.rules, rule_items)
    texts = seat_policies(spec, policies, players)
    try:
        setup = plan_balance(spec, rules, vary, targets, texts, budget=budget, block=block, rungs=rungs, batch=batch,
                             check_games=check_games, finalists=finalists, seed=seed, skills=skills,
                             time_limit=time_limit)
    except ArgumentError as exc:
        option = {"policies": "--policy", "games": "--games"}.get(exc.name, f"--{exc.name}")
        raise click.BadParameter(exc.detail, param_hint=option) from None
    click.echo(f"{spec.title}: searching {', '.join(d.text() for d in setup.space)} for "
               f"{'; '.join(t.text() for t in setup.targets)}; policies {', '.join(texts)}; {budget:,} search "
               f"games, {check_games:,} fresh games per finalist; seed {seed}")
    tasks = Progress(0, "games", what="tasks")

    def batch_done(number: int, spent: int, distance: float) -> None:
        click.echo(f"batch {number + 1}: {spent:,} games spent, least distance {distance:.3g}", err=True)

    start = time.perf_counter()
    try:
        result = run_balance(spec, setup, n_jobs=jobs or default_jobs(), backend=backend, scheduler=scheduler,
                             store=ResultStore(out / STORE, read=not fresh), progress=tasks, on_batch=batch_done)
    except KeyboardInterrupt:
        click.echo(f"\ninterrupted: finished games are kept in {out / STORE}; run the same command again to "
                   "resume", err=True)
        sys.exit(130)
    finally:
        tasks.close()
    command = " ".join(["tyrsim balance", spec.name, *(f"--vary {v}" for v in vary),
                        *(f"'--target={t}'" for t in targets), *(f"'--skill={k}'" for k in skills),
                        *(f"--policy {p}" for p in texts),
                        f"--games {budget} --block {block} --rungs {rungs} --batch {batch} --check-games "
                        f"{check_games} --finalists {finalists}", *(f"--rule {r}" for r in rule_items),
                        f"--seed {seed}"] + ([f"--time-limit {time_limit:g}"] if time_limit else []))
    write_balance(out, result, command, time.perf_counter() - start)
    for sentence in findings(result):
        click.echo(f"- {sentence}")
    click.echo(f"wrote {out / 'index.html'}")


@main.command()
@click.argument("game")
@POLICY
@PLAYERS
@RULE
@SEED
def play(game, policies, players, rule_items, seed) -> None:
    """Play one game of GAME and print it move by move."""
    from tyrsim.core.engine.rng import task_rng
    from tyrsim.core.engine.runner import play as play_game

    spec = game_spec(game)
    rules = parse_rules(spec.rules, rule_items)
    texts = seat_policies(spec, policies, players)
    record = play_game(spec.make_game(rules, len(texts)), [spec.make_policy(t) for t in texts],
                       task_rng(seed, 0, 0), log=click.echo)
    click.echo("")
    for seat, (text, score) in enumerate(zip(texts, record.scores, strict=True)):
        mark = "  winner" if seat in record.winners else ""
        click.echo(f"P{seat} ({text}): {score:g}{mark}")


@main.command()
@click.argument("game", required=False)
def games(game) -> None:
    """List the games, their analyses, policies and rule parameters (what a scenario can name)."""
    from tyrsim.core.engine.rules import KINDS
    from tyrsim.games import game_names, get_game

    names = game_names()
    if game is not None:
        names = [game_spec(game).name]
    for name in names:
        spec = get_game(name)
        click.echo(f"{spec.name}  ({spec.title}; {', '.join(map(str, spec.players))} players)")
        click.echo("  analyses:")
        for analysis in spec.analyses.values():
            click.echo(f"    {analysis.name}: {analysis.summary}")
            for p in analysis.params:
                click.echo(f"      {p.name} = {p.default!r}  ({p.allowed()}) {p.doc}")
        if spec.policies:
            from tyrsim.core.engine.weights import defaults, tunable

            click.echo("  policies: " + ", ".join(spec.policies))
            for policy, cls in spec.policies.items():
                if tunable(cls):
                    click.echo(f"    {policy}: tunable weights (`tyrsim tune`): " + ", ".join(
                        f"{k} = {v!r} ({lo:g} to {hi:g})" for (k, (lo, hi)), v in
                        zip(tunable(cls).items(), defaults(cls).values(), strict=True)))
        click.echo("  rules:")
        for row in spec.rules.describe():
            click.echo(f"    {row['rule']} = {row['default']!r}  ({row['allowed']}) {row['description']}")
            if KINDS[row["kind"]]:
                click.echo(f"      {KINDS[row['kind']]}")
            if row["ruling"]:
                click.echo(f"      ruling; the other readings: {row['ruling']}")
        click.echo("")


@main.command()
@click.option("--half-width", type=click.FloatRange(min=0, min_open=True), required=True,
              help=f"Target half-width of the 95% interval; one that needs more than {MAX_TRIALS:,} trials is "
              "refused.")
@click.option("--p", "p", type=click.FloatRange(0, 1), default=0.5, show_default=True,
              help="Expected proportion (0.5 is the worst case).")
@click.option("--sd", type=click.FloatRange(min=0, min_open=True), help="Per-trial sd: plan for a mean instead.")
def plan(half_width, p, sd) -> None:
    """How many trials a target interval half-width needs."""
    import math

    from tyrsim.core.stats import intervals as stats

    # FloatRange lets nan through (it fails no comparison with a bound), and inf where there is no upper bound
    for option, value, allowed in (("--half-width", half_width, "above 0"), ("--p", p, "from 0 to 1"),
                                   ("--sd", sd, "above 0")):
        if value is not None and not math.isfinite(value):
            raise click.BadParameter(f"{value} is not a finite number; give a number {allowed}", param_hint=option)
    if sd is None and half_width >= 1:
        raise click.BadParameter(f"{half_width} is not below 1; a proportion's half-width is between 0 and 1",
                                 param_hint="--half-width")
    try:
        trials = stats.trials_for_mean(half_width, sd) if sd is not None else stats.trials_for_proportion(half_width, p)
    except OverflowError:  # the count is beyond a float: far beyond any cap
        trials = math.inf
    if trials > MAX_TRIALS:
        raise click.BadParameter(f"{half_width:g} needs {'over 10^308' if trials == math.inf else f'{trials:,}'} "
                                 f"trials, more than the {MAX_TRIALS:,} one sweep point may run; ask for a wider "
                                 "half-width", param_hint="--half-width")
    if sd is not None:
        click.echo(f"{trials} trials for a mean with sd {sd} to +/- {half_width}")
    else:
        click.echo(f"{trials} trials for a proportion near {p} to +/- {half_width}")


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on; anything but this machine's own lets other machines play on it.")
@click.option("--port", type=click.IntRange(1, 65535), default=8765, show_default=True, help="Port to listen on.")
@click.option("--no-browser", is_flag=True, help="Print the address without opening a browser.")
def studio(host, port, no_browser) -> None:
    """A live page in the browser: change a rule and watch what it does, against the rulebook's rules."""
    from tyrsim.core.studio.app import serve
    from tyrsim.games import game_names, get_game

    if host not in ("127.0.0.1", "localhost", "::1"):
        click.echo(f"warning: --host {host} lets other machines reach the studio and start games on this one",
                   err=True)
    serve(get_game, game_names(), host=host, port=port, open_browser=not no_browser)


if __name__ == "__main__":  # pragma: no cover
    main()
