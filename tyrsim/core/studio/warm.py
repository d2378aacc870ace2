"""The compiled engines a studio's process has ready, and a fresh process compiling each other game's engine into
numba's cache meanwhile, so that a job's first games need not wait for the compile (a minute or more for a game
after an install): until its game's engine is ready, a job plays the object engine, the same games from the same
draws, and then goes on with the compiled engine.

`Engines.ready(spec)` says whether the game's compiled engine plays in this process now. The first time a game is
asked for, a fresh process compiles its engine into numba's cache (`compile_engine`; the game's package named by
`GameSpec.package`), or loads it where the cache holds it already; once that process has ended, the next ask
loads the engine here from the cache (seconds) and the game is ready from then on. A compile that fails leaves
the game on the object engine and keeps the process's last words (`failed`).
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import threading

from tyrsim.core.compiled.engines import compile_engine
from tyrsim.core.engine.spec import GameSpec

COMPILE = ("import importlib, sys; from tyrsim.core.compiled.engines import compile_engine; "
           "compile_engine(importlib.import_module(sys.argv[1]).SPEC)")


class Engines:
    """Which games' compiled engines this process has ready, and the processes compiling the others."""

    def __init__(self) -> None:
        self._ready: set[str] = set()
        self._compiling: dict[str, tuple[subprocess.Popen, object]] = {}  # game -> (process, its stderr file)
        self.failed: dict[str, str] = {}  # game -> the end of its compile's error output
        self._lock = threading.Lock()

    def ready(self, spec: GameSpec) -> bool:
        """Whether the game `spec`'s compiled engine plays in this process now (asking starts its compile in a
        fresh process the first time, and loads it here from numba's cache once that process has ended)."""
        with self._lock:
            if spec.name in self._ready:
                return True
            if spec.name in self.failed:
                return False
            if spec.package is not None and spec.name not in self._compiling:
                errors = tempfile.TemporaryFile("w+")
                self._compiling[spec.name] = (subprocess.Popen(
                    [sys.executable, "-c", COMPILE, spec.package], stdout=subprocess.DEVNULL, stderr=errors,
                    text=True), errors)
                return False
            if spec.package is not None:
                process, errors = self._compiling[spec.name]
                if process.poll() is None:
                    return False
                del self._compiling[spec.name]
                if process.returncode != 0:
                    errors.seek(0)
                    self.failed[spec.name] = errors.read()[-500:]
                    errors.close()
                    return False
                errors.close()
        compile_engine(spec)  # from the cache the process filled (or compiled here, for a game no package holds)
        with self._lock:
            self._ready.add(spec.name)
        return True


ENGINES = Engines()  # this process's: what is ready is a fact of the process, whichever studio asks
