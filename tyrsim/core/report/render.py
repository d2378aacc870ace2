"""The Jinja2 templates that report pages are made of, and rendering them.

Each page part is one template in `templates/` that a live page can include as it is:
`answer.html` (the opening sentences), `run.html` ("How this was run"), `table.html` (an
interval table), `figure.html`, `glossary.html`; `scenario.html` and `index.html` are whole
pages built on `base.html`. Every value is autoescaped.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape


@cache
def environment() -> Environment:
    """The templates' environment: autoescaped, and an unknown name is an error rather than an empty text."""
    return Environment(loader=PackageLoader("tyrsim.core.report"), autoescape=select_autoescape(),
                       undefined=StrictUndefined, keep_trailing_newline=True)


def render(template: str, **context: Any) -> str:
    """The template called `template` (a page or a page part), filled from `context`."""
    return environment().get_template(template).render(**context)
