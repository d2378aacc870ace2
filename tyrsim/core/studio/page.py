"""The studio page's parts filled in: the controls, built from the game's rule declarations (each with its mark
"vary in the search") and the search's form; the live answer, in sentences and paired tables; and a balance
search's progress and answer. Rendered from the studio's templates and the report's (`answer.html`,
`base.html`, `style.css`), in the report's environment.
"""

from __future__ import annotations

import dataclasses
import json
import math
import shlex
from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from jinja2 import ChoiceLoader, Environment, PackageLoader

from tyrsim.core.engine.datafile import BUNDLED, bundled_files
from tyrsim.core.engine.rules import RuleSet
from tyrsim.core.engine.spec import GameSpec
from tyrsim.core.report import words
from tyrsim.core.report.render import environment as report_environment
from tyrsim.core.report.rule_words import rule as rule_words
from tyrsim.core.stats.anytime import ALPHA
from tyrsim.core.studies.balance import SKILL_PREFIX, metric_names
from tyrsim.core.studio.jobs import Job, SearchJob
from tyrsim.core.studio.measures import COUNTER, FIRST_SEAT, MEANS_FROM, Row
from tyrsim.core.studio.search import (
    DEFAULT_TARGETS,
    FIELDS,
    MOST_MARKED,
    SETTINGS,
    STEPS,
    TARGET,
    VARY,
    Search,
    range_words,
    vary_text,
)
from tyrsim.core.studio.variant import RULE, Variant, rule_text, tuned_policies

FIGURE_BINS, FIGURE_WIDTH, FIGURE_HEIGHT = 60, 640, 150  # the score figure: most bars, its size in pixels
MOST_SENTENCES = 4  # the answer's sentences: the headline, the verdict, and at most two more stated differences
MOST_COUNTERS = 3  # the game's own counters one sentence names (the clearest differences), the rest counted
# htmx swaps a 4xx answer too: its page shows the problem beside the control (the default leaves the page as it was)
HTMX_CONFIG = json.dumps({"responseHandling": [{"code": "204", "swap": False}, {"code": "[23]..", "swap": True},
                                               {"code": "4..", "swap": True, "error": False},
                                               {"code": "...", "swap": False, "error": True}]})


@cache
def environment() -> Environment:
    """The report's environment, reading the studio's templates first and then the report's."""
    return report_environment().overlay(loader=ChoiceLoader([PackageLoader("tyrsim.core.studio"),
                                                             PackageLoader("tyrsim.core.report")]))


def render(template: str, **context: Any) -> str:
    return environment().get_template(template).render(**context)


def _rule_controls(spec: GameSpec, values: Mapping[str, Any], rules: RuleSet, marked: Sequence[str]
                   ) -> list[dict[str, Any]]:
    """One control per rule, in declaration order: its value, whether it differs from the rulebook's, the
    widget its declaration asks for (a list of choices, a number with its bounds, or text), and its mark "vary
    in the search" with the values the search would try around its value in `rules` (none: it cannot vary)."""
    rulings = spec.rules.rulings()
    files = [""] + [BUNDLED + name for name in bundled_files(spec.package)] if spec.package else [""]
    controls = []
    for f, row in zip(dataclasses.fields(spec.rules), spec.rules.describe(), strict=True):  # type: ignore[arg-type]
        meta, default = f.metadata, f.default
        value = values.get(f.name, default)
        options = None
        if meta.get("choices"):
            options = [(rule_text(c), str(c)) for c in meta["choices"]]
        elif isinstance(default, bool):
            options = [("true", "true"), ("false", "false")]
        elif meta.get("data_file"):
            options = [(name, name or "(the bundled file)") for name in files]
        number = isinstance(default, int | float) and not isinstance(default, bool)
        searched = vary_text(spec, rules, f.name)
        controls.append({
            "name": f.name, "value": rule_text(value), "default": rule_text(default) if default != "" else "(bundled)",
            "changed": rule_text(value) != rule_text(default), "options": options, "number": number,
            "step": 1 if isinstance(default, int) else "any", "low": meta.get("low"), "high": meta.get("high"),
            "description": row["description"], "allowed": row["allowed"], "kind": row["kind"],
            "readings": words.listing([rule_text(a) or "(the bundled file)" for a in rulings[f.name]])
            if f.name in rulings else "",
            "reset": json.dumps({RULE + f.name: rule_text(default)}),
            "markable": searched is not None, "marked": f.name in marked,
            "range": range_words(searched) if searched else "",
        })
    return controls


def _seat_options(spec: GameSpec, policy: str) -> list[tuple[str, str]]:
    """A seat's choice of policies: the tuned ones first, then every policy of the game, and the seat's own."""
    options = [(text, words.policy_name(text)) for text in tuned_policies(spec)]
    options += [(name, name) for name in spec.policies]
    if policy not in dict(options):
        options.append((policy, policy))
    return options


def search_form(search: Search | None, asked: Sequence[tuple[str, str]] = ()) -> dict[str, Any]:
    """The search's form: the page's search as parsed, or, where it cannot be, its fields as sent (`asked`)."""
    if search is not None:
        marked, targets = list(search.marked), list(search.targets)
        values = {s.name: str(search.setting(s.name)) for s in SETTINGS}
    else:
        marked = [v for k, v in asked if k == VARY]
        given = [v for k, v in asked if k == TARGET]
        targets = [t for t in given if t.strip()] if given else list(DEFAULT_TARGETS)
        values = {s.name: next((v for k, v in asked if k == s.name), str(s.default)) for s in SETTINGS}
    return {"marked": marked, "targets": targets,
            "settings": [{"name": s.name, "words": s.words, "value": values[s.name], "low": s.low, "high": s.high,
                          "default": s.default} for s in SETTINGS]}


def controls_context(games: Sequence[GameSpec], spec: GameSpec | None, variant: Variant | None,
                     asked: Mapping[str, Any], problems: Mapping[str, str],
                     search: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The controls' template context: `variant` as played, or, where the page asked for something that cannot
    be played, what it asked for (`asked`: the seats' policies, the rules' values as sent) beside the problems;
    and the search's form (`search_form`)."""
    search = search or search_form(Search())
    policies = list(variant.policies) if variant else list(asked.get("policies", []))
    rule_values = variant.rules.as_dict() if variant else dict(asked.get("rules", {}))
    searching = [name for name in (spec.policies if spec else ()) if name.endswith("mcts")]
    note = ("Tuned policies play at every seat unless you choose others. " +
            (f"A search policy ({', '.join(searching)}) plays a game in seconds, not milliseconds: its answers come "
             "a thousand times more slowly." if searching else ""))
    rules = _rule_controls(spec, rule_values, variant.rules if variant else spec.rules(), search["marked"]) \
        if spec else []
    players = len(policies) or (spec.default_players if spec else 0)
    beside = {"game", "players", "policy", "seed", "rules", *FIELDS, *(f"{RULE}{r['name']}" for r in rules)}
    return {
        "game_choices": [(g.name, g.title) for g in games], "game": spec.name if spec else "",
        "player_counts": list(spec.players) if spec else [],
        "seats": [{"policy": p, "options": _seat_options(spec, p)} for p in policies] if spec else [],
        "seed": variant.seed if variant else asked.get("seed", ""),
        "rules": rules, "changed": sum(r["changed"] for r in rules),
        "problems": dict(problems), "policy_note": note.strip(),
        # a part of the address that no control shows (an unknown field, a rule the game does not have)
        "elsewhere": {name: message for name, message in problems.items() if name not in beside},
        "busy": "",  # why a playable variant's job was refused for now (`jobs.JobsBusy`), or nothing
        "search": search, "marked_ranges": [(r["name"], r["range"]) for r in rules if r["marked"]],
        "metrics": metric_names(spec, players) if spec and players in spec.players else [],
        "steps": STEPS, "most_marked": MOST_MARKED,
        "search_panel": None, "search_problems": {},  # the session's search (`search_context`), or why none started
    }


def _change_words(variant: Variant) -> str:
    return words.listing([rule_words(type(variant.rules), name, value) for name, value in variant.changes.items()])


def findings(variant: Variant, rows: list[Row], games: int) -> list[str]:
    """The answer's sentences: the headline (the first seat's win rate under both rule sets), whether a difference
    can be stated, and the other measures whose difference is clear."""
    if not rows:
        return [f"Playing the first games of {variant.spec.title}..."]
    by_name = {row.measure: row for row in rows}
    first = by_name[FIRST_SEAT]
    if not variant.changes:
        return [f"Under the rulebook's rules the first seat wins {first.shown('variant')} of games "
                f"({words.count(games, 'game')}). Change a rule to see what it does."]
    out = [f"This change ({_change_words(variant)}) moves the first seat's win rate from {first.shown('rulebook')} "
           f"to {first.shown('variant')}."]
    if first.differs:
        direction = "raises" if first.difference[0] > 0 else "lowers"
        out.append(f"It {direction} the first seat's win rate by "
                   f"{words.points(*first.difference)} on the same {words.count(games, 'game')}: the interval "
                   "excludes zero.")
    else:
        out.append(f"No difference in the first seat's win rate can be stated yet: on the same "
                   f"{words.count(games, 'game')} it is {first.shown('difference')}, an interval that still holds "
                   "zero.")
    for row in rows:
        if len(out) >= MOST_SENTENCES:
            break
        if row.differs and row.measure != FIRST_SEAT and row.kind != COUNTER:
            out.append(f"It also moves the {row.measure} from {row.shown('rulebook')} to {row.shown('variant')}.")
    counters = [row for row in rows if row.kind == COUNTER]
    if counters and games >= MEANS_FROM:
        out.append(_counter_sentence(counters))
    return out


def _clearness(row: Row) -> float:
    """How far a difference's interval lies from zero, in half-widths (the clearest difference first)."""
    value, low, high = row.difference
    return abs(value) / max((high - low) / 2, 1e-300)


def _counter_sentence(counters: list[Row]) -> str:
    """What the change does to the game's own counters: the clearest differences, stated only where the
    interval excludes zero."""
    moved = sorted((row for row in counters if row.differs), key=_clearness, reverse=True)
    if not moved:
        return (f"None of the game's {len(counters)} own counters (means per player and game) differs clearly "
                "yet: each difference's interval still holds zero.")
    named = [f"{row.measure} from {row.shown('rulebook')} to {row.shown('variant')} "
             f"({'+' if row.difference[0] >= 0 else ''}{row.shown('difference')})" for row in moved[:MOST_COUNTERS]]
    more = len(moved) - len(named)
    rest = f" and {words.count(more, 'other')}" if more else ""
    return (f"Of the game's {len(counters)} own counters (means per player and game), it clearly moves "
            f"{words.listing(named)}{rest}; {'its interval excludes' if len(moved) == 1 else 'each interval excludes'} "
            "zero.")


def score_figure(variant: Mapping[int, int], rulebook: Mapping[int, int], compared: bool) -> dict[str, Any] | None:
    """The score distribution under both rule sets as bars of an inline SVG (drawn anew with every answer): per bin
    of whole points (a bin spans several where the scores range over more than FIGURE_BINS), the share of seats'
    final scores in it; None before the first games."""
    if not variant:
        return None
    keys = [*variant, *rulebook]
    low, high = min(keys), max(keys)
    span = max(1, math.ceil((high - low + 1) / FIGURE_BINS))
    bins = math.ceil((high - low + 1) / span)

    def shares(counts: Mapping[int, int]) -> list[float]:
        per_bin = [0] * bins
        for score, n in counts.items():
            per_bin[(score - low) // span] += n
        total = sum(per_bin)
        return [n / total for n in per_bin]

    drawn = [("variant", shares(variant))] + ([("rulebook", shares(rulebook))] if compared else [])
    tallest = max(max(values) for _, values in drawn)
    width = FIGURE_WIDTH / bins
    bars = []
    for k, (name, values) in enumerate(drawn):
        for b, share in enumerate(values):
            height = FIGURE_HEIGHT * share / tallest
            bars.append({"x": round(b * width + k * width / len(drawn), 2), "y": round(FIGURE_HEIGHT - height, 2),
                         "width": round(width / len(drawn), 2), "height": round(height, 2), "kind": name,
                         "title": f"{low + b * span}" + (f" to {low + b * span + span - 1}" if span > 1 else "")
                         + f": {100 * share:.1f}% of seats' scores"})
    return {"bars": bars, "low": low, "high": high, "width": FIGURE_WIDTH, "height": FIGURE_HEIGHT,
            "compared": compared}


def live_context(variant: Variant, job: Job) -> dict[str, Any]:
    """The live answer's template context after the games the job has played so far."""
    _, rows, games = job.snapshot()
    if job.error:
        status = f"The games stopped: {job.error}"
    elif job.cancelled:
        status = f"Stopped after {words.count(games, 'game')}: a newer edit replaced these games."
    elif job.ended:
        status = f"Done: {words.count(games, 'game')} under each rule set (the most one page plays)."
    else:
        status = f"Playing: {words.count(games, 'game')} so far under each rule set..."
        if job.waiting and job.compile_failed:
            last = job.compile_failed.strip().splitlines()[-1:] or ["no message"]
            status += (" The object engine plays them: the game's compiled engine did not compile "
                       f"({last[0]}).")
        elif job.waiting:
            status += (" The object engine plays them while the game's compiled engine compiles (the first time "
                       "after an install): the same games, more slowly.")
    return {
        "findings": findings(variant, rows, games), "status": status, "games": games, "query": variant.query(),
        "means_from": MEANS_FROM, "confidence": 1 - ALPHA,
        "figure": score_figure(*job.score_counts(), compared=bool(variant.changes)),
        "rows": [_shown_row(r, variant) for r in rows if r.kind != COUNTER],
        "counters": [_shown_row(r, variant) for r in rows if r.kind == COUNTER],
    }


def _shown_row(row: Row, variant: Variant) -> dict[str, Any]:
    return {"measure": row.measure, "rulebook": row.shown("rulebook"), "variant": row.shown("variant"),
            "difference": row.shown("difference") if variant.changes else "", "marked": row.differs}


def _command(job: SearchJob) -> str:
    """The `tyrsim balance` command that runs the same study (the same seed, so the same answer)."""
    setup, variant = job.setup, job.variant
    skills = [t for t in setup.targets if t.metric.startswith(SKILL_PREFIX)]
    parts = ["tyrsim", "balance", setup.game, *(part for d in setup.space for part in ("--vary", d.text())),
             *(f"--target={t.metric}{t.op}{t.value}" for t in setup.targets if t not in skills),
             *(f"--skill={t.metric.removeprefix(SKILL_PREFIX)}{t.op}{t.value}" for t in skills),
             *(part for p in setup.policies for part in ("--policy", p)),
             "--games", str(setup.budget), "--block", str(setup.block), "--rungs", str(setup.rungs),
             "--batch", str(setup.batch), "--check-games", str(setup.check_games), "--finalists",
             str(setup.finalists), *(part for name, value in variant.changes.items()
                                     for part in ("--rule", f"{name}={rule_text(value)}")),
             "--seed", str(setup.seed), "--out", f"reports/{setup.game}_balance"]
    return shlex.join(parts)


def search_context(job: SearchJob) -> dict[str, Any]:
    """A search's panel after the games it has played so far: its progress, then its answer in the balance
    page's sentences (`balance_page.findings`) with a link opening the best variant in the page."""
    setup, variant = job.setup, job.variant
    played, spent, batches, least, fresh = job.snapshot()
    start = f"the page's rules ({_change_words(variant)})" if variant.changes else "the rulebook's rules"
    question = (f"The question: {words.listing([d.text() for d in setup.space])}, for "
                f"{words.listing([t.text() for t in setup.targets])}, around {start}, played by "
                f"{words.players(variant.policies)}, seed {setup.seed}. \"The run's rules\" below are these.")
    progress, best = None, None
    if job.error:
        status = f"The search stopped: {job.error}"
    elif job.cancelled:
        status = f"Stopped after {words.count(played, 'game')}: a newer search replaced this one."
    elif job.result is not None:
        status = (f"Done: {words.count(job.result.spent, 'search game')} on "
                  f"{words.count(len(job.result.candidates) - 1, 'candidate')}, then "
                  f"{words.count(fresh or 0, 'fresh game')} of the finalists.")
        values = job.result.finalists[job.result.best].values
        chosen = Variant(variant.spec, variant.policies, setup.variant(values), variant.seed)
        best = {"query": "&".join(q for q in (chosen.query(), job.asked) if q),
                "words": _change_words(chosen) if chosen.changes else "the rulebook's rules"}
    elif fresh is None:
        progress = {"value": min(played, setup.budget), "max": setup.budget}
        done = (f"; {words.count(batches, 'batch', 'batches')} of {setup.batch} candidates done, the least distance "
                f"from the targets so far {least:.3g}" if batches else "")
        status = (f"Searching: {played:,} of the budget's {setup.budget:,} search games played{done}...")
    else:
        progress = {"value": played - spent, "max": fresh}
        status = (f"The search is done ({spent:,} search games); the finalists play their fresh games, from a "
                  f"stream the search never drew from: {played - spent:,} of {fresh:,}...")
    return {"search_id": job.id, "question": question, "status": status, "progress": progress,
            "findings": job.findings if job.result is not None else [], "best": best, "command": _command(job),
            "ended": job.ended}
