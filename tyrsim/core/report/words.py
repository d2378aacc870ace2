"""Numbers in words: how a report's findings write an estimate with its interval, and how
every game's sentences count and list things.

Every finding on a report page writes its numbers through these helpers, so that a share
reads "58.0% [53.1, 62.7]", a difference of shares "4.1 points [3.9, 4.3]", a mean
"12.4 [12.1, 12.7]", a p-value "3e-12", and a number that could not be computed reads
"not computable" rather than "nan". The play logs and findings of every game say "1 coin",
"3 dice" (`count`), "an antelope" (`a`) and "sun, water and leaf" (`listing`) through the
helpers at the end.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from typing import Any

NOT_COMPUTABLE = "not computable"


def _finite(*values: float | None) -> bool:
    return all(v is not None and math.isfinite(float(v)) for v in values)


def fixed(value: float, digits: int) -> str:
    """A number with a fixed count of decimals and thousands separators, never "-0.0"."""
    text = f"{value:,.{digits}f}"
    return "0" + text[2:] if text.startswith("-0") and float(text.replace(",", "")) == 0 else text


def percent(share: float, low: float | None = None, high: float | None = None, digits: int = 1) -> str:
    """A share in [0, 1] as a percentage, with its interval when given: "58.0% [53.1, 62.7]"."""
    if not _finite(share):
        return NOT_COMPUTABLE
    text = f"{fixed(100 * share, digits)}%"
    if _finite(low, high):
        text += f" [{fixed(100 * low, digits)}, {fixed(100 * high, digits)}]"
    return text


def points(difference: float, low: float | None = None, high: float | None = None, digits: int = 1) -> str:
    """A difference of two shares in percentage points, unsigned: "4.1 points [3.9, 4.3]".

    The caller says the direction in words ("raises", "lowers"); the interval keeps its signs."""
    if not _finite(difference):
        return NOT_COMPUTABLE
    text = f"{fixed(abs(100 * difference), digits)} points"
    if _finite(low, high):
        lo, hi = (low, high) if difference >= 0 else (-high, -low)
        text += f" [{fixed(100 * lo, digits)}, {fixed(100 * hi, digits)}]"
    return text


def digits_for(half_width: float | None, default: int = 2, value: float | None = None) -> int:
    """Decimals enough to show an interval of this half-width: its first significant digit and one more,
    at most two decimals (four for a value below 0.1 in size, where two would show nothing)."""
    if not _finite(half_width) or half_width <= 0:
        return default
    most = 4 if value is not None and _finite(value) and abs(value) < 0.1 else 2
    return max(0, min(most, 1 - math.floor(math.log10(half_width))))


def number(value: float, low: float | None = None, high: float | None = None, digits: int | None = None) -> str:
    """A mean or count with its interval: "12.4 [12.1, 12.7]"; decimals follow the interval's width."""
    if not _finite(value):
        return NOT_COMPUTABLE
    if digits is None:
        digits = digits_for((high - low) / 2 if _finite(low, high) else None, value=value)
    text = fixed(value, digits)
    if _finite(low, high):
        text += f" [{fixed(low, digits)}, {fixed(high, digits)}]"
    return text


def row_percent(row: Mapping[str, Any], column: str, own: bool = False) -> str:
    """A table row's share in `column` with its interval (`percent`): the interval's columns are "ci_low" and
    "ci_high", or with `own` the column's own ("survival_low" and "survival_high" for "survival") in a table
    with several shares a row; a row without them gives the share alone."""
    low, high = (f"{column}_low", f"{column}_high") if own else ("ci_low", "ci_high")
    return percent(row[column], row.get(low), row.get(high))


def p_value(p: float) -> str:
    """A p-value: "0.031", "3e-12", "below 1e-300"; NaN reads "not computable"."""
    if not _finite(p):
        return NOT_COMPUTABLE
    if p == 0:
        return "below 1e-300"
    if p >= 0.001:
        return f"{p:.3f}".rstrip("0").rstrip(".") if p < 1 else "1"
    return f"{p:.0e}".replace("e-0", "e-")


def verdict(significant: bool | None, p_holm: float | None = None) -> str:
    """How a comparison fares after the Holm correction, in words."""
    if p_holm is not None and not _finite(p_holm):
        return "no test possible"
    return "significant after the Holm correction" if significant else "not significant after the Holm correction"


def listing(names: Sequence[str]) -> str:
    """Names in a sentence: "sun", "sun and water", "sun, water and leaf" ("nothing" for none)."""
    if not names:
        return "nothing"
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


# a bundled tuned policy, "heuristic:weights=bundled:heuristic_tuned.toml": a sentence says "tuned heuristic"
TUNED = re.compile(r"\b(?P<name>[\w-]+):weights=bundled:(?P=name)_tuned\.toml\b")


def policy_name(policy: str) -> str:
    """A policy as a sentence names it: a bundled tuned policy by a short name ("tuned heuristic"), any other
    policy text as given ("ismcts:iterations=400")."""
    tuned = TUNED.fullmatch(policy)
    return f"tuned {tuned['name']}" if tuned else policy


def policy_names(sentence: str) -> str:
    """The sentence with every bundled tuned policy it names by its short name (`policy_name`)."""
    return TUNED.sub(r"tuned \g<name>", sentence)


NUMBER_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def players(policies: Sequence[str]) -> str:
    """Who played, in a sentence: "four greedy players", "heuristic against greedy", "2 greedy, aggressive and
    builder", "two tuned heuristic players" (each policy by `policy_name`)."""
    policies = [policy_name(policy) for policy in policies]
    counts: dict[str, int] = {}
    for policy in policies:
        counts[policy] = counts.get(policy, 0) + 1
    if len(counts) == 1:
        (policy, n), = counts.items()
        return f"{NUMBER_WORDS[n] if n < len(NUMBER_WORDS) else n} {policy} player{'s' if n > 1 else ''}"
    if len(policies) == 2:
        return f"{policies[0]} against {policies[1]}"
    return listing([f"{n} {policy}" if n > 1 else policy for policy, n in counts.items()])


def count(n: int, thing: str, things: str | None = None) -> str:
    """ "1 coin", "0 coins", "3 dice", "1,200 games" (`things` for an irregular plural)."""
    return f"{n:,} {thing if n == 1 else things or thing + 's'}"


def a(name: str) -> str:
    """ "a gorilla", "an antelope": the article by the first letter."""
    return f"{'an' if name[:1].lower() in 'aeiou' else 'a'} {name}"
