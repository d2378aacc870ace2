"""Rule parameters as data: declare a game's `Rules` dataclass, validate variants.

Every game has one frozen dataclass `Rules` whose fields are declared with
:func:`rule`, carrying the rulebook default, a one-line description and the
allowed values. :class:`RuleSet` gives it validation, overrides from strings or
TOML values, and a description for `tyrsim games`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any, Self


class RuleError(ValueError):
    """A rule variant names an unknown rule or gives it a value that is not allowed."""


# what a rule field is (`rule(kind=...)`), and how `tyrsim games` names it
KINDS = {
    "rule": "",
    "guard": "simulation guard: the rulebook's text has no such rule; it is there so that play ends",
    "choice": "a choice the rulebook leaves to the player, made here by the engine the same way for every player",
}


def rule(
    default: Any,
    doc: str,
    *,
    low: float | None = None,
    high: float | None = None,
    choices: tuple[Any, ...] | None = None,
    data_file: bool = False,
    ruling: bool | tuple[Any, ...] = False,
    kind: str = "rule",
) -> Any:
    """Declare one rule field: its rulebook default, description and allowed values.

    `data_file=True` marks a rule whose value names a data file ("" = the game's bundled
    file): the result store keys a task on the file's content, not only on its path.

    `ruling` marks a rule that encodes a reading of an ambiguous rule or an assumed
    component, so `tyrsim rulings` plays each alternative reading against the default:
    True for every other allowed value (the other `choices`, or the other truth value),
    or a tuple naming the alternatives (a number's or a data file's, e.g. "bundled:NAME.toml").

    `kind` says what the field is, so that `tyrsim games` and the docs never present one thing as another:
    "rule" (the rulebook's rule, or a reading of it), "guard" (a simulation guard: a device the rulebook's text
    does not contain, such as a limit that makes every game end; it should bind as little play as possible) or
    "choice" (a decision the rulebook leaves to the player that the engine makes for every player the same way).
    """
    if kind not in KINDS:
        raise TypeError(f"rule kind {kind!r}: expected one of {', '.join(KINDS)}")
    return dataclasses.field(
        default=default,
        metadata={"doc": doc, "low": low, "high": high, "choices": choices, "data_file": data_file,
                  "ruling": ruling, "kind": kind},
    )


def _alternatives(f: dataclasses.Field) -> tuple[Any, ...]:
    """The alternative readings of a ruling field (empty for a rule that is no ruling)."""
    marked = f.metadata.get("ruling", False)
    if marked is False:
        return ()
    if marked is True:
        if f.metadata.get("choices"):
            return tuple(c for c in f.metadata["choices"] if c != f.default)
        if isinstance(f.default, bool):
            return (not f.default,)
        raise TypeError(f"rule {f.name!r}: ruling=True needs choices or a bool; name the alternatives as a tuple")
    return tuple(marked)


def _allowed(f: dataclasses.Field) -> str:
    meta = f.metadata
    if meta.get("choices"):
        return "one of " + ", ".join(repr(c) for c in meta["choices"])
    kind = type(f.default).__name__
    low, high = meta.get("low"), meta.get("high")
    if low is not None and high is not None:
        return f"{'an integer' if kind == 'int' else 'a number'} from {low} to {high}"
    if low is not None:
        return f"{'an integer' if kind == 'int' else 'a number'} >= {low}"
    if kind == "bool":
        return "true or false"
    return f"a {kind}"


def coerce_value(f: dataclasses.Field, value: Any) -> Any:
    """Convert a TOML or command-line value to the field's type, or raise RuleError."""
    kind = type(f.default)
    bad = RuleError(f"rule {f.name!r}: {value!r} is not allowed; expected {_allowed(f)}")
    if kind is bool:
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.lower() in ("true", "false", "yes", "no", "1", "0"):
            return value.lower() in ("true", "yes", "1")
        raise bad
    if kind is int:
        if isinstance(value, bool):
            raise bad
        if isinstance(value, int):
            return value
        if isinstance(value, str):
            try:
                return int(value)
            except ValueError:
                raise bad from None
        raise bad
    if kind is float:
        if isinstance(value, bool):
            raise bad
        if isinstance(value, int | float):
            return float(value)
        if isinstance(value, str):
            try:
                return float(value)
            except ValueError:
                raise bad from None
        raise bad
    if kind is str:
        if isinstance(value, str):
            return value
        raise bad
    if kind is tuple:
        if isinstance(value, list | tuple):
            return tuple(value)
        if isinstance(value, str):
            parts = [p.strip() for p in value.split(",") if p.strip()]
            try:
                return tuple(type(f.default[0])(p) for p in parts) if f.default else tuple(parts)
            except ValueError:
                raise bad from None
        raise bad
    return value


class RuleSet:
    """Mixin for a game's frozen `Rules` dataclass."""

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):  # type: ignore[arg-type]
            value = getattr(self, f.name)
            meta = f.metadata
            if meta.get("choices") and value not in meta["choices"]:
                raise RuleError(f"rule {f.name!r}: {value!r} is not allowed; expected {_allowed(f)}")
            if isinstance(value, int | float) and not isinstance(value, bool):
                low, high = meta.get("low"), meta.get("high")
                if (low is not None and value < low) or (high is not None and value > high):
                    raise RuleError(
                        f"rule {f.name!r}: {value!r} is out of range; expected {_allowed(f)}"
                    )
        self.check()

    def check(self) -> None:
        """Cross-field checks; a game's Rules overrides this and raises RuleError."""

    def check_file(self, name: str, load: Callable[[str], Any]) -> Any:
        """`load(path)` of the data file the rule `name` names ("" = the bundled file), so a bad file is
        reported when the rules are made; its error (a RuleError naming the file) then names the rule too."""
        try:
            return load(getattr(self, name))
        except RuleError as exc:
            raise type(exc)(f"rule {name!r}: {exc}") from None

    @classmethod
    def data_file_rules(cls) -> list[str]:
        """The rules whose values name data files."""
        return [f.name for f in dataclasses.fields(cls) if f.metadata.get("data_file")]  # type: ignore[arg-type]

    @classmethod
    def rulings(cls) -> dict[str, tuple[Any, ...]]:
        """{rule: its alternative readings} for every rule marked as a ruling, in declaration order."""
        fields = dataclasses.fields(cls)  # type: ignore[arg-type]
        return {f.name: _alternatives(f) for f in fields if f.metadata.get("ruling", False) is not False}

    @classmethod
    def of_kind(cls, kind: str) -> list[str]:
        """The rules of one kind ("rule", "guard" or "choice": `rule`), in declaration order."""
        return [f.name for f in dataclasses.fields(cls) if f.metadata.get("kind", "rule") == kind]  # type: ignore[arg-type]

    @classmethod
    def field_names(cls) -> list[str]:
        return [f.name for f in dataclasses.fields(cls)]  # type: ignore[arg-type]

    @classmethod
    def from_overrides(cls, overrides: Mapping[str, Any] | None = None) -> Self:
        """The rulebook rules with some fields replaced; values may be strings."""
        return cls().replace(overrides or {})

    def replace(self, overrides: Mapping[str, Any]) -> Self:
        fields = {f.name: f for f in dataclasses.fields(self)}  # type: ignore[arg-type]
        changes = {}
        for key, value in overrides.items():
            if key not in fields:
                raise RuleError(
                    f"unknown rule {key!r}; the rules are: {', '.join(sorted(fields))}"
                )
            changes[key] = coerce_value(fields[key], value)
        return dataclasses.replace(self, **changes)  # type: ignore[type-var]

    def differences(self) -> dict[str, Any]:
        """The fields that differ from the rulebook, as {name: value}."""
        base = type(self)()
        return {
            name: getattr(self, name)
            for name in self.field_names()
            if getattr(self, name) != getattr(base, name)
        }

    def as_dict(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.field_names()}

    @classmethod
    def describe(cls) -> list[dict[str, Any]]:
        """One row per rule: name, default, allowed values, description, for a ruling its alternatives, and its
        kind ("rule", "guard" or "choice": `rule`)."""
        return [
            {"rule": f.name, "default": f.default, "allowed": _allowed(f), "description": f.metadata.get("doc", ""),
             "ruling": ", ".join(repr(a) for a in _alternatives(f)), "kind": f.metadata.get("kind", "rule")}
            for f in dataclasses.fields(cls)  # type: ignore[arg-type]
        ]
