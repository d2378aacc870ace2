"""A rule or an analysis argument with its value, as a sentence says it.

A page names a sweep point, a variant or a reading of the rulebook in words made from the
setting's declaration (its one-line description, its type, its allowed values), never as
`name = value`: "in the expert variant", "when a ship may not pass through spaces without an
empire chip", "with the bundled board", "with 'defender' for a round with equal hits", "with
won combat rounds that end a fight set to 3", "played by two tuned heuristic players". A figure
labels them shorter (`label`): "expert variant", "a ship may not pass through spaces without an
empire chip". Tables and "How this was run" keep the exact names and values.
"""

from __future__ import annotations

import dataclasses
import re
import textwrap
from collections.abc import Sequence
from typing import Any

from tyrsim.core.engine.analysis import Analysis
from tyrsim.core.engine.datafile import BUNDLED
from tyrsim.core.engine.rules import RuleSet, coerce_value
from tyrsim.core.report import words
from tyrsim.core.report.readable import header

# how a true statement is denied, in the order they are tried: a modal verb first (it carries the rule), then a
# main verb of the description's own sentence
DENIALS = ((r"\bmay\b", "may not"), (r"\bmust\b", "need not"), (r"\bcan\b", "cannot"),
           (r"\bcounts\b", "does not count"), (r"\bhas\b", "does not have"))
MODAL = re.compile(r"\b(may|must|can)\b")
LONGEST_TOPIC = 60  # characters of a description's opening, before its colon, that still name a choice's topic
POLICY_KEYS = ("policies", "policy")
LABEL_WIDTH = 45  # characters of a figure label's line


def _plain(doc: str) -> str:
    """The description without its asides in brackets, a value it quotes in words ('phase_end' -> 'phase end')."""
    return re.sub(r"'\w+'", lambda quoted: quoted[0].replace("_", " "), re.sub(r" \([^()]*\)", "", doc))


def _clause(doc: str) -> str:
    """The description's statement, without its asides: what is in brackets, a quotation from the rulebook after a
    colon, what follows a semicolon, or, after a colon that follows a statement with a modal verb, the
    explanation."""
    text = _plain(doc).split(": '", 1)[0].split("; ", 1)[0]
    before, colon, _ = text.partition(": ")
    if colon and MODAL.search(before):
        text = before
    return text.strip().rstrip(".,;:")


def _deny(clause: str) -> str | None:
    """The statement denied by its modal or main verb ("may" -> "may not"), or None where it has neither."""
    for pattern, denied in DENIALS:
        if re.search(pattern, clause):
            return re.sub(pattern, denied, clause, count=1)
    return None


def _switch(doc: str, on: bool) -> str:
    """A true-or-false rule: "in the expert variant", "when a ship may pass ...", "when a ship may not pass ...",
    "in the variable set-up, when empires may not start ..."."""
    clause = _clause(doc)
    topic, colon, statement = clause.partition(": ")
    if doc.split(":", 1)[0].endswith("variant"):
        return f"{'in' if on else 'without'} the {doc.split(':', 1)[0]}"
    if colon and MODAL.search(statement):  # "variable set-up: empires may start ..."
        return f"in the {topic}, when {statement if on else _deny(statement)}"
    if on:
        return f"when {clause}"
    denied = _deny(clause)
    return f"when {denied}" if denied else f"without the rule that {clause}"


def _file(name: str, value: str) -> str:
    """A data file: "with the bundled board", "with the board from board_alt.toml"."""
    thing = header(name.removesuffix("_file"))
    if value == "":
        return f"with the bundled {thing}"
    return f"with the {thing} from {value.removeprefix(BUNDLED)}"


def _value(value: Any) -> str:
    """A value in words: a list as a listing ("4, 3 and 1"), a text without its underscores."""
    if isinstance(value, list | tuple):
        return words.listing([_value(v) for v in value]) if value else "nothing"
    return str(value).replace("_", " ")


def setting(name: str, doc: str, value: Any, *, choices: Sequence[Any] | None = None, data_file: bool = False) -> str:
    """A setting (a rule or an argument) with its value, as a phrase that follows a sentence's subject or opens it:
    a switch by its statement, a data file by what it holds, a named choice by the choice and its topic, anything
    else by its description "set to" the value."""
    if isinstance(value, bool):
        return _switch(doc, value)
    if data_file:
        return _file(name, str(value))
    if choices and isinstance(value, str):
        # the topic a choice decides: its description's opening, before a colon ("a round with equal hits: 'reroll'
        # ..."), or all of a short one ("empire set-up"); else (too long, or naming the choices) the rule's name
        topic = _plain(doc).partition(":")[0].strip()
        if len(topic) > LONGEST_TOPIC or any(f"'{_value(c)}'" in topic for c in choices):
            topic = header(name)
        return f"with '{_value(value)}' for {topic}"
    clause = _clause(doc).split(": ", 1)[0]
    if re.search(r"\bthis\b", clause):  # the description names the value "this": "rounds 1 to this", "every this many"
        return "when " + re.sub(r"\bthis( many)?\b", _value(value), clause, count=1)
    if value == () and "() = " in doc:  # an empty list that stands for something: "() = the file's"
        return f"with {clause.split(', ', 1)[0]} as {re.split(r'[;,.]', doc.split('() = ', 1)[1])[0]}"
    return f"with {clause.split(', ', 1)[0]} set to {_value(value)}"


def rule(rules: type[RuleSet], name: str, value: Any) -> str:
    """A rule of `rules` with a value (as played, or as a table writes it: "False", "3") in words."""
    field = {f.name: f for f in dataclasses.fields(rules)}[name]  # type: ignore[arg-type]
    if isinstance(value, str) and not isinstance(field.default, str):
        value = coerce_value(field, value)
    return setting(name, field.metadata["doc"], value, choices=field.metadata.get("choices"),
                   data_file=field.metadata.get("data_file", False))


def argument(analysis: Analysis, name: str, value: Any) -> str:
    """An analysis argument with a value in words; the policies that played by who they are."""
    if name in POLICY_KEYS:
        return f"played by {words.players(value if isinstance(value, list | tuple) else [value])}"
    param = analysis.param(name)
    return setting(name, param.doc, value, choices=param.choices)


def point(rules: RuleSet, args: dict[str, Any], analysis: Analysis, label: dict[str, Any]) -> str:
    """A sweep point (its swept values `label`) in words: "in the expert variant", "with the bundled board and
    when ...". A name both an argument and a rule is the argument where the point's argument has the value."""
    params, fields = {p.name for p in analysis.params}, set(rules.field_names())
    parts = [argument(analysis, k, v) if k in params and (k not in fields or _same(args.get(k), v))
             else rule(type(rules), k, v) for k, v in label.items()]
    return words.listing(parts) if parts else "at the baseline"


def _same(played: Any, swept: Any) -> bool:
    """Whether a checked argument (lists as tuples) is the swept value (lists as the file gave them)."""
    return _as_tuple(played) == _as_tuple(swept)


def _as_tuple(value: Any) -> Any:
    return tuple(value) if isinstance(value, list | tuple) else value


def label(phrase: str, width: int = LABEL_WIDTH) -> str:
    """A setting's phrase (`rule`, `point`) as a figure labels it: without the opening "in the", "when" or "with"
    that fits it into a sentence ("expert variant", "bundled board", "'defender' for a round with equal hits"), in
    lines of at most `width` characters."""
    return textwrap.fill(re.sub(r"^(in the|when|with the|with) ", "", phrase), width)
