"""What the studio page asks for, read from its address and checked by the command line's own checks.

A `Variant` is a game, its seats' policies, a rule variant and a seed. The page's address holds it as a query
string (`?game=zooloretto-duell&policy=...&policy=...&rule.NAME=VALUE&seed=1`: only the changed rules), so that a
link reproduces the view. Every value is checked where the command line checks it (`GameSpec.seat_policies`,
`RuleSet.replace`, `check_seed`), and every problem is a `VariantError` naming the field and, in the checks' own
one-paragraph words, what is wrong and what is allowed. The page reads no path it is sent: a data-file rule or a
policy's weights may name only a file bundled with the game.

A scenario file opened in the studio (`variant_from_scenario`, from the upload's bytes) is checked as `tyrsim run`
checks it, after its file names are checked to be bundled ones; the studio shows the `game` analysis of one
variant.
"""

from __future__ import annotations

import dataclasses
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from tyrsim.core.engine.analysis import ArgumentError
from tyrsim.core.engine.datafile import BUNDLED, MAX_BYTES, bundled_files
from tyrsim.core.engine.rng import MAX_SEED, check_seed
from tyrsim.core.engine.rules import RuleError, RuleSet
from tyrsim.core.engine.spec import GameLookup, GameSpec, UnknownGame
from tyrsim.core.engine.weights import WEIGHTS
from tyrsim.core.run.scenario import ScenarioError, load_scenario

RULE = "rule."  # a rule's field in the query string: rule.NAME=VALUE
FIELDS = ("game", "players", "policy", "seed")
LONGEST_VALUE = 300  # characters of one query value; longer is no value the page makes
DEFAULT_SEED = 1
TUNED = "_tuned.toml"  # a bundled tuned policy's weights file: NAME_tuned.toml
SCENARIO = "scenario"  # the field of an opened scenario file's problems
OPENED = "the opened file"  # how the messages name an opened scenario file (the page sends no path)
SHOWN_ANALYSIS = "game"  # the analysis the studio plays and shows


class VariantError(ValueError):
    """What the page asked for cannot be played: {field: one-paragraph message}, each shown beside its control."""

    def __init__(self, problems: Mapping[str, str]):
        super().__init__("; ".join(f"{field}: {message}" for field, message in problems.items()))
        self.problems = dict(problems)


@dataclass(frozen=True)
class Variant:
    """A game, one policy per seat, the rules played (the rulebook's with some changed) and the seed."""

    spec: GameSpec
    policies: tuple[str, ...]
    rules: RuleSet
    seed: int = DEFAULT_SEED

    @property
    def players(self) -> int:
        return len(self.policies)

    @property
    def changes(self) -> dict[str, Any]:
        """The rules changed from the rulebook's: {name: value}."""
        return self.rules.differences()

    def query(self) -> str:
        """The address's query string: the game, the seats' policies, the seed and the changed rules."""
        pairs = [("game", self.spec.name), ("players", str(self.players)),
                 *(("policy", p) for p in self.policies), ("seed", str(self.seed)),
                 *((RULE + name, rule_text(value)) for name, value in self.changes.items())]
        return urlencode(pairs)

    def scenario(self, games: int) -> str:
        """The scenario file `tyrsim run` plays for this variant: the `game` analysis of `games` games under the
        changed rules, from the same seed, each game from its own stream (`paired`) as the studio plays it: the
        same games as the page's first `games`, so the same estimates."""
        lines = [f"title = {toml_value(f'{self.spec.title}: a variant from the studio')}",
                 f"description = {toml_value('The rules, players and seed of a studio page, as a scenario.')}",
                 f"game = {toml_value(self.spec.name)}", 'analysis = "game"', f"seed = {self.seed}", "", "[rules]",
                 *(f"{name} = {toml_value(value)}" for name, value in self.changes.items()), "", "[args]",
                 f"policies = {toml_value(list(self.policies))}", f"games = {games}",
                 "paired = true  # game g from its own stream, as the studio plays it: the page's games", ""]
        text = "\n".join(lines)
        tomllib.loads(text)  # what it writes, it can read
        return text


def rule_text(value: Any) -> str:
    """A rule value as the query string and the controls hold it (what `coerce_value` reads back)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple):
        return ",".join(map(str, value))
    return str(value)


def toml_value(value: Any) -> str:
    """A TOML value: a string quoted with its escapes, a bool, a number (nan and inf too), a list of values, or a
    table of them written inline ({key = value, ...})."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{toml_value(str(k))} = {toml_value(v)}" for k, v in value.items()) + "}"
    escaped = str(value).replace("\\", "\\\\").replace('"', '\\"')
    return '"' + "".join(c if c.isprintable() else f"\\u{ord(c):04x}" if ord(c) <= 0xFFFF else f"\\U{ord(c):08x}"
                         for c in escaped) + '"'


def tuned_policies(spec: GameSpec) -> list[str]:
    """The game's tuned policies (a policy with bundled weights NAME_tuned.toml), in the order the game lists its
    policies: "heuristic:weights=bundled:heuristic_tuned.toml"."""
    files = set(bundled_files(spec.package)) if spec.package else set()
    return [f"{name}:{WEIGHTS}={BUNDLED}{name}{TUNED}" for name in spec.policies if f"{name}{TUNED}" in files]


def default_policies(spec: GameSpec, players: int | None) -> list[str]:
    """The seats' policies a page starts with: a tuned policy at every seat where the game has one, else the `game`
    analysis's default table (`GameSpec.seat_policies`)."""
    tuned = tuned_policies(spec)
    if tuned:
        if players is not None and players not in spec.players:
            raise ArgumentError("players", f"{spec.title} is for {spec.player_counts()} players")
        return [tuned[0]] * (players or spec.default_players)
    return spec.seat_policies((), players)


def _bundled_only(spec: GameSpec, what: str, value: str) -> str | None:
    """Why the page may not name this file (a path of this machine, or no file the game bundles), or None."""
    if not value:
        return None
    files = bundled_files(spec.package) if spec.package else []
    if value.startswith(BUNDLED) and value[len(BUNDLED):] in files:
        return None
    bundled = ", ".join(BUNDLED + name for name in files) or "none"
    return (f"{what} {value!r} is not a file bundled with {spec.title}; the studio reads no path it is sent, only "
            f"the game's bundled files: {bundled}")


def _policy_files(spec: GameSpec, policies: Sequence[str]) -> None:
    """ArgumentError("policies") where a policy's weights name a file the game does not bundle."""
    for text in policies:
        for part in text.partition(":")[2].split(","):
            key, _, value = part.partition("=")
            if key.strip() == WEIGHTS and (why := _bundled_only(spec, "weights", value.strip())):
                raise ArgumentError("policies", why)


def parse_variant(query: Sequence[tuple[str, str]], games: GameLookup, names: Sequence[str]) -> Variant:
    """The variant a query string asks for (its (key, value) pairs, in order), or VariantError naming each field
    that is wrong. A missing game is the first of `names`; missing policies are the default ones; seats beyond the
    policies given take the default policy, and policies beyond the players asked for are dropped (the page's
    player count changed)."""
    problems: dict[str, str] = {}
    single: dict[str, str] = {}
    policies: list[str] = []
    rules: dict[str, str] = {}
    for key, value in query:
        if len(value) > LONGEST_VALUE:
            problems[key] = f"{len(value)} characters; a value the studio reads has at most {LONGEST_VALUE}"
        elif key == "policy":
            policies.append(value)
        elif key.startswith(RULE):
            rules[key[len(RULE):]] = value
        elif key in FIELDS:
            if key in single:
                problems[key] = f"given twice; give {key} once"
            single[key] = value
        else:
            problems[key] = f"unknown field {key!r}; the fields are {', '.join(FIELDS)} and {RULE}NAME for a rule"
    if problems:
        raise VariantError(problems)

    name = single.get("game") or names[0]
    try:
        spec = games(name)
    except UnknownGame as exc:
        raise VariantError({"game": str(exc)}) from None
    if spec.make_game is None:
        raise VariantError({"game": f"{spec.title} has no engine that plays whole games; the studio plays games of "
                                    f"{', '.join(names)}"})

    players = None
    if single.get("players"):
        try:
            players = int(single["players"])
        except ValueError:
            problems["players"] = (f"{single['players']!r} is not a number of players; {spec.title} is for "
                                   f"{spec.player_counts()} players")
    seats: list[str] = []
    if "players" not in problems:
        try:
            default = default_policies(spec, players)
            seats = (policies + default[len(policies):])[:len(default)] if policies else default
            _policy_files(spec, seats)
            spec.check_seats(seats)
        except ArgumentError as exc:
            problems["players" if exc.name == "players" else "policy"] = exc.detail

    seed = DEFAULT_SEED
    if single.get("seed"):
        try:
            seed = check_seed(int(single["seed"]))
        except ValueError:
            problems["seed"] = f"{single['seed']!r} is not a seed; a seed is an integer from 0 to {MAX_SEED}"

    fields = {f.name: f for f in dataclasses.fields(spec.rules)}  # type: ignore[arg-type]
    played = spec.rules()
    for rule_name, value in rules.items():
        field = fields.get(rule_name)
        if field is not None and field.metadata.get("data_file") and (why := _bundled_only(spec, "file", value)):
            problems[RULE + rule_name] = why
    if not problems:
        try:
            played = spec.rules.from_overrides(rules)
        except RuleError as joint:
            # beside the control at fault: each rule changed alone; a clash of several rules, beside them all
            for rule_name, value in rules.items():
                try:
                    spec.rules.from_overrides({rule_name: value})
                except RuleError as exc:
                    problems[RULE + rule_name] = str(exc)
            if not problems:
                problems["rules"] = str(joint)
    if problems:
        raise VariantError(problems)
    return Variant(spec, tuple(seats), played, seed)


def _strings(value: Any) -> list[str]:
    """Every string in a TOML value, nested lists and tables too."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [text for item in value for text in _strings(item)]
    if isinstance(value, dict):
        return [text for item in value.values() for text in _strings(item)]
    return []


def _scenario_files(data: dict[str, Any], games: GameLookup) -> None:
    """ArgumentError where an opened scenario names a file the game does not bundle: a data-file rule's value in
    [rules] or [sweep.rules], a policy's weights in [args], [sweep.args] or [report] (checked before the scenario
    is, which would read them). A scenario whose game is not one is left to the scenario's own checks."""
    try:
        spec = games(data["game"]) if isinstance(data.get("game"), str) else None
    except UnknownGame:
        spec = None
    if spec is None:
        return
    sweep = data.get("sweep") if isinstance(data.get("sweep"), dict) else {}
    file_rules = set(spec.rules.data_file_rules())
    for table in (data.get("rules"), sweep.get("rules")):
        for name, value in table.items() if isinstance(table, dict) else ():
            for text in _strings(value) if name in file_rules else ():
                if why := _bundled_only(spec, f"rule {name!r}: file", text):
                    raise ArgumentError("rules", why)
    _policy_files(spec, _strings([data.get("args"), sweep.get("args"), data.get("report")]))


def variant_from_scenario(data: bytes, games: GameLookup, names: Sequence[str]) -> Variant:
    """The variant an opened scenario file holds (the upload's bytes: the page sends no path), checked as
    `tyrsim run` checks a scenario, or VariantError("scenario") saying what is wrong, or what the studio opens:
    the `game` analysis of one variant (no sweep), of a game it plays, with bundled files only."""
    def refuse(message: str) -> VariantError:
        return VariantError({SCENARIO: message})

    if len(data) > MAX_BYTES:
        raise refuse(f"{OPENED}: larger than {MAX_BYTES:,} bytes; a scenario file is a few KB of TOML")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise refuse(f"{OPENED}: not UTF-8 text (byte 0x{data[exc.start]:02x} at offset {exc.start}); save the "
                     "file as UTF-8") from None
    try:
        _scenario_files(tomllib.loads(text), games)
    except tomllib.TOMLDecodeError:
        pass  # the scenario's own check says so, in its words
    except ArgumentError as exc:
        raise refuse(f"{OPENED}: {exc.name}: {exc.detail}") from None
    try:
        scenario = load_scenario(OPENED, games=games, text=text)
    except ScenarioError as exc:
        raise refuse(str(exc)) from None
    if scenario.analysis.name != SHOWN_ANALYSIS or len(scenario.points) != 1:
        what = (f"the {scenario.analysis.name!r} analysis" if scenario.analysis.name != SHOWN_ANALYSIS
                else f"{len(scenario.points)} variants (its [sweep])")
        raise refuse(f"{OPENED} holds {what}; the studio opens a scenario of the {SHOWN_ANALYSIS!r} analysis of "
                     "one variant (no [sweep]): its game, rules, policies and seed")
    point = scenario.points[0]
    policies = point.args["policies"]
    query = [("game", scenario.game.name), ("players", str(len(policies))), *(("policy", p) for p in policies),
             ("seed", str(scenario.seed)),
             *((RULE + name, rule_text(value)) for name, value in point.rules.differences().items())]
    try:
        return parse_variant(query, games, names)
    except VariantError as exc:
        raise refuse(f"{OPENED}: " + "; ".join(f"{field}: {message}" for field, message in exc.problems.items())) \
            from None
