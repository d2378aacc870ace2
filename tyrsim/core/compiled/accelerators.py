"""Where an object policy's decisions are made in compiled code: a game registers its compiled search on its
`GameSpec` (`CompiledEngine.search`), and the policy asks here for it, so that object code never imports compiled
code. The module is imported (with numba) only when a decision is first made."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

# policy class -> the module of its compiled search, which offers `choose(policy, state, rng)`: the same decision
# from the same draws as the policy's Python search, or None where it does not play the state's rules
_SEARCHES: dict[type, str] = {}


def register_search(policy: type, module: str) -> None:
    """Make the policy class `policy`'s decisions in `module`'s compiled search."""
    _SEARCHES[policy] = module


def compiled_search(policy: type) -> Callable[[Any, Any, Any], Any] | None:
    """The compiled search's `choose` of the policy class `policy` (or of the class it derives from), or None."""
    for cls in policy.__mro__:
        if cls in _SEARCHES:
            return importlib.import_module(_SEARCHES[cls]).choose
    return None
