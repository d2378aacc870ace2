"""What the studio's "Find a balanced variant" asks: the rules the designer marked to vary, the targets and the
budget, read from the page's address beside the variant (`parse_view`) and turned into a `tyrsim balance` study
of the page's rules (`plan`), checked by balance's own functions with the command line's messages.

A marked rule varies around its value on the page: an integer rule over its value +-`STEPS`, clipped to what
the rules allow beside the page's other rules (its declared bounds first); a true/false rule over both; a rule
of listed choices over all of them; a data-file rule (a ruling) over its value and the other readings the game
declares (each only where the rules allow it). A rule holding a list of values cannot be
marked. The targets default to `DEFAULT_TARGETS`; the budget and the study's settings to the command line's,
but for a budget and fresh games a page waits for, each bounded (`MOST_MARKED`; the search games, the fresh
games per finalist and a block at most the games a live job plays, `jobs.MOST_GAMES`, and the fresh games at
most `MOST_FRESH`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

from tyrsim.core.engine.analysis import ArgumentError
from tyrsim.core.engine.rules import RuleError, RuleSet
from tyrsim.core.engine.spec import GameLookup, GameSpec
from tyrsim.core.studies.balance import BalanceSetup, is_skill, parse_skills, parse_targets, plan_balance
from tyrsim.core.studio.jobs import MOST_GAMES
from tyrsim.core.studio.variant import Variant, VariantError, parse_variant, rule_text

VARY, TARGET = "vary", "target"  # the address's fields: vary=RULE (a marked rule), target=TEXT (repeated)
STEPS = 2  # a marked integer rule varies this far either side of its value on the page
DEFAULT_TARGETS = ("largest_seat_gap<=0.05",)  # best minus worst seat's win rate: a fair game, at any player count
MOST_MARKED = 4  # rules marked at once: 5 values each make 625 variants, more than a page's budget plays
MOST_BUDGET = MOST_GAMES  # search games at most: as many as a live job plays under each rule set
MOST_FRESH = 10_000  # fresh games per finalist at most (a search of 4 rules has at most 26 finalists)
FINALISTS = 5  # best candidates re-played on the fresh games (the command line's default)


@dataclass(frozen=True)
class Setting:
    """A whole-number setting of the search: its field in the address, its words, default and bounds (a count of
    `games`: at most the games a studio's job plays, too)."""

    name: str
    words: str
    default: int
    low: int
    high: int
    games: bool = False

    def most(self, most_games: int) -> int:
        return min(self.high, most_games) if self.games else self.high


# the command line's defaults and bounds (`tyrsim balance --games --check-games --block --rungs --batch`), but the
# budget's and the fresh games' (a page waits for them)
SETTINGS = (
    Setting("budget", "search games", 10_000, 1, MOST_BUDGET, games=True),
    Setting("fresh", "fresh games per finalist", 1_000, 2, MOST_FRESH, games=True),
    Setting("block", "games of a candidate's first block", 50, 2, MOST_BUDGET, games=True),
    Setting("rungs", "blocks a candidate plays at most, each doubling its games", 4, 1, 12),
    Setting("batch", "candidates asked for at a time", 8, 1, 256),
)
FIELDS = (VARY, TARGET, *(s.name for s in SETTINGS))  # the address's fields of the search
# the name balance's checks give a problem (`ArgumentError.name`), as the page names its field
_FIELD_OF = {"vary": VARY, "target": TARGET, "skill": TARGET, "games": "budget", "block": "block",
             "policies": "policy"}


@dataclass(frozen=True)
class Search:
    """The search the page asks for: the marked rules, the targets' texts and the settings."""

    marked: tuple[str, ...] = ()
    targets: tuple[str, ...] = DEFAULT_TARGETS
    settings: tuple[int, ...] = tuple(s.default for s in SETTINGS)
    # the settings the address gave (one it did not give is its default, or a smaller studio's bound: not written)
    given: frozenset[str] = field(default=frozenset(), compare=False)

    def setting(self, name: str) -> int:
        return self.settings[[s.name for s in SETTINGS].index(name)]

    def pairs(self) -> list[tuple[str, str]]:
        """The address's fields: the marks, the targets unless the default ones (an empty `target` where none),
        each setting given unless its default."""
        targets = [] if self.targets == DEFAULT_TARGETS else [(TARGET, t) for t in self.targets] or [(TARGET, "")]
        return [*((VARY, name) for name in self.marked), *targets,
                *((s.name, str(v)) for s, v in zip(SETTINGS, self.settings, strict=True)
                  if v != s.default and s.name in self.given)]

    def query(self) -> str:
        return urlencode(self.pairs())


def vary_text(spec: GameSpec, variant_rules: RuleSet, name: str) -> str | None:
    """The marked rule's range as `tyrsim balance --vary` reads it, around its value in `variant_rules`, or None
    where the rule cannot be varied (a list of values; no other value the rules allow). Only values the rules
    allow beside the page's other rules are tried (its declared bounds, and the rules it must agree with: Tyranno
    Ex's die_faces no lower than max_strength); an integer's range stops at the first it does not."""
    declared = {f.name: f for f in dataclasses.fields(spec.rules)}[name]  # type: ignore[arg-type]
    meta, value = declared.metadata, getattr(variant_rules, name)

    def allowed(other: Any) -> bool:
        try:
            variant_rules.replace({name: other})
        except RuleError:
            return False
        return True

    if isinstance(value, tuple):
        return None
    if type(value) is int and not meta.get("choices"):
        low, high = value, value
        while low > value - STEPS and allowed(low - 1):
            low -= 1
        while high < value + STEPS and allowed(high + 1):
            high += 1
        return f"{name}={low}:{high}" if low < high else None
    if isinstance(value, bool):
        values: list[Any] = [True, False]
    elif meta.get("choices"):
        values = list(meta["choices"])
    else:  # a data file: the rulebook's reading and the others the game declares, the page's value among them
        values = list(dict.fromkeys([value, declared.default, *spec.rules.rulings().get(name, ())]))
    values = [v for v in values if v == value or allowed(v)]
    return f"{name}=" + ",".join(rule_text(v) for v in values) if len(values) > 1 else None


def range_words(text: str) -> str:
    """A marked rule's range in words: "1 to 5", or its values listed ("true, false")."""
    values = text.partition("=")[2]
    if ":" in values and "," not in values:
        low, high = values.split(":")
        return f"{low} to {high}"
    return ", ".join(v or "(the bundled file)" for v in values.split(","))


def split_query(query: Sequence[tuple[str, str]]) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """(the variant's fields, the search's fields) of a query string."""
    return [(k, v) for k, v in query if k not in FIELDS], [(k, v) for k, v in query if k in FIELDS]


def _whole(setting: Setting, texts: list[str], most_games: int) -> int:
    """A setting's value from the address (its default where absent), or ValueError saying what is allowed."""
    high = setting.most(most_games)
    if not texts:
        return min(setting.default, high)
    text = texts[-1].strip()
    if len(texts) == 1 and text.isdecimal() and setting.low <= int(text) <= high:
        return int(text)
    raise ValueError(f"{', '.join(map(repr, texts))}: give the {setting.words} once, a whole number from "
                     f"{setting.low:,} to {high:,}")


def _check_targets(spec: GameSpec, players: int, texts: Sequence[str]) -> None:
    """ArgumentError where a target is not one balance reads (a skill target, STRONG>WEAK>=SHARE, too)."""
    on_metrics = [t for t in texts if not is_skill(t)]
    if on_metrics:
        parse_targets(spec, players, on_metrics)
    parse_skills(spec, [t for t in texts if is_skill(t)], TARGET)


def parse_search(pairs: Sequence[tuple[str, str]], variant: Variant | None, most_games: int = MOST_GAMES) -> Search:
    """The search the address's fields ask for, each checked (the marks and targets against the variant's game
    and players where the variant can be played; a count of games against `most_games`, the studio's jobs'),
    or VariantError naming each field that is wrong. No marks and no targets are no error here: the page asks
    for no search until its button is pressed (`plan`)."""
    problems: dict[str, str] = {}
    marked = list(dict.fromkeys(v for k, v in pairs if k == VARY))
    given = [v for k, v in pairs if k == TARGET]
    targets = tuple(t.strip() for t in given if t.strip()) if given else DEFAULT_TARGETS
    settings = []
    for setting in SETTINGS:
        try:
            settings.append(_whole(setting, [v for k, v in pairs if k == setting.name], most_games))
        except ValueError as exc:
            problems[setting.name] = str(exc)
    if len(marked) > MOST_MARKED:
        problems[VARY] = (f"{len(marked)} rules marked; mark at most {MOST_MARKED} (each adds up to five values, "
                          "and the variants multiply)")
    elif variant is not None:
        spec = variant.spec
        names = spec.rules.field_names()
        for name in marked:
            if name not in names:
                problems[VARY] = f"unknown rule {name!r}; the rules are: {', '.join(names)}"
            elif vary_text(spec, variant.rules, name) is None:
                problems[VARY] = (f"rule {name!r} cannot be varied: it holds a list of values, or a file with no "
                                  "other reading")
    if variant is not None and targets:
        try:
            _check_targets(variant.spec, variant.players, targets)
        except ArgumentError as exc:
            problems[TARGET] = exc.detail
    if problems:
        raise VariantError(problems)
    return Search(tuple(marked), targets, tuple(settings), frozenset(k for k, _ in pairs))


def parse_view(query: Sequence[tuple[str, str]], games: GameLookup, names: Sequence[str],
               most_games: int = MOST_GAMES) -> tuple[Variant, Search]:
    """The variant and the search a page's address asks for, or VariantError naming every field that is wrong."""
    view, asked = split_query(query)
    problems: dict[str, str] = {}
    variant = None
    try:
        variant = parse_variant(view, games, names)
    except VariantError as exc:
        problems.update(exc.problems)
    try:
        search = parse_search(asked, variant, most_games)
    except VariantError as exc:
        problems.update(exc.problems)
    if problems or variant is None:
        raise VariantError(problems)
    return variant, search


def plan(variant: Variant, search: Search) -> BalanceSetup:
    """The balance study the search asks for, of the page's rules (the run's rules), policies and seed, checked by
    `plan_balance`; VariantError naming the field at fault in balance's own words."""
    if any("mcts" in policy for policy in variant.policies):
        raise VariantError({"policy": "a search policy plays a game in seconds, and a balance search plays "
                                      "thousands: choose faster policies for the seats to search"})
    vary = [vary_text(variant.spec, variant.rules, name) for name in search.marked]
    try:
        return plan_balance(variant.spec, variant.rules, [v for v in vary if v], search.targets, variant.policies,
                            budget=search.setting("budget"), block=search.setting("block"),
                            rungs=search.setting("rungs"), batch=search.setting("batch"),
                            check_games=search.setting("fresh"), finalists=FINALISTS, seed=variant.seed)
    except ArgumentError as exc:
        detail = exc.detail
        if exc.name == "vary" and not search.marked:
            detail = "no rule is marked; tick \"vary in the search\" beside the rules to search"
        raise VariantError({_FIELD_OF.get(exc.name, exc.name): detail}) from None
