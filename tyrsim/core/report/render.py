"""The Jinja2 templates that report pages are made of, and rendering them.

Each page part is one template in `templates/` that a live page can include as it is:
`answer.html` (the opening sentences), `run.html` ("How this was run"), `table.html` (an
interval table), `figure.html`, `glossary.html`; `scenario.html` and `index.html` are whole
pages built on `base.html`. A game's own page lives in its package's `templates/` and extends
these parts (`render(..., templates_of=the game's package)`). Every value is autoescaped.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from jinja2 import Environment

CORE = "tyrsim.core.report"  # the package whose `templates/` hold the page parts


@cache
def environment(templates_of: str = CORE) -> Environment:
    """The templates' environment: autoescaped, and an unknown name is an error rather than an empty text.

    `templates_of`: a package whose own `templates/` are looked in first, then the page parts'."""
    from jinja2 import ChoiceLoader, Environment, PackageLoader, StrictUndefined, select_autoescape  # on first use

    packages = dict.fromkeys([templates_of, CORE])
    env = Environment(loader=ChoiceLoader([PackageLoader(package) for package in packages]),
                      autoescape=select_autoescape(), undefined=StrictUndefined, keep_trailing_newline=True)
    env.policies["json.dumps_kwargs"] = {"sort_keys": True, "separators": (",", ":")}  # `tojson` data, compact
    return env


def render(template: str, /, templates_of: str = CORE, **context: Any) -> str:
    """The template called `template` (a page or a page part), filled from `context`; a game's own page from the
    `templates/` of the package `templates_of`."""
    return environment(templates_of).get_template(template).render(**context)
