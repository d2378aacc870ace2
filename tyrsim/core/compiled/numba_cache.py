"""numba's cache kept true to every file a compiled engine reads.

numba stamps a cached function with a hash of its own source file only. A game's compiled
policies call its compiled rules and fold in constants from its other modules, so after an
upgrade that changed only `compiled.py`, `compiled_policies.play_games` would load from the
cache compiled against the old rules, and play them. A compiled module therefore starts with

    keep_fresh(__file__)

before its first `@njit(cache=True)`: the functions of that file are then stamped with one hash
over every `.py` file of its folder (the game package) and the core files compiled code reads
(`FOLDER_READS`), so a change to any of them compiles the engine afresh. Where numba keeps the
cache (the package's `__pycache__`, `NUMBA_CACHE_DIR`, or the user cache folder when the install
is read-only) is numba's own choice, unchanged.
"""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path

from numba.core.caching import CacheImpl, _CacheLocator

COMPILED = Path(__file__).resolve().parent
# the core modules whose code or constants compiled engines read: the compiled ones (chance, search), the
# uniform block's size and this stamp
FOLDER_READS = (COMPILED / "chance.py", COMPILED / "search.py", COMPILED.parent / "engine" / "rng.py",
                COMPILED / "numba_cache.py")

_KEPT: set[Path] = set()


def keep_fresh(module_file: str) -> None:
    """Stamp the compiled functions of `module_file` (a module's `__file__`) with every file its folder holds."""
    _KEPT.add(Path(module_file).resolve().parent)
    if EngineStamp not in CacheImpl._locator_classes:
        CacheImpl._locator_classes.insert(0, EngineStamp)


@cache
def folder_stamp(folder: Path) -> str:
    """One hash over the `.py` files of `folder` and `FOLDER_READS`, by name and contents (computed once a
    process: the files do not change under a running engine)."""
    digest = hashlib.sha256()
    for path in sorted({*folder.glob("*.py"), *FOLDER_READS}):
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


class EngineStamp(_CacheLocator):
    """numba's own locator for the function (where the cache lives, which file name), with the folder's stamp."""

    def __init__(self, located: _CacheLocator, folder: Path, py_func, py_file):
        self._located, self._folder = located, folder
        # what numba's own warnings read of a locator (a function it cannot cache names its file and line)
        self._py_file, self._lineno = py_file, py_func.__code__.co_firstlineno

    @classmethod
    def from_function(cls, py_func, py_file):
        folder = Path(py_file).resolve().parent
        if folder not in _KEPT:
            return None
        for locator in CacheImpl._locator_classes:
            if locator is not cls and (located := locator.from_function(py_func, py_file)) is not None:
                return cls(located, folder, py_func, py_file)
        return None

    def ensure_cache_path(self):
        self._located.ensure_cache_path()

    def get_cache_path(self):
        return self._located.get_cache_path()

    def get_source_stamp(self):
        return folder_stamp(self._folder)

    def get_disambiguator(self):
        return self._located.get_disambiguator()
