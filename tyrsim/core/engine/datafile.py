"""Reading the files a user names: data files (a deck, a board, ...) and scenario files.

One reader for every game, so every file is checked the same way before it is
parsed: it must be a regular file (a directory, a device such as /dev/zero or a
FIFO is refused without reading from it, so nothing hangs), at most
`MAX_BYTES` long, UTF-8 text and, for data, valid TOML. Every problem is a
`DataFileError` whose message starts with the file's name. It is a RuleError
because a data file is named by a rule: a bad file is a bad rule value.
"""

from __future__ import annotations

import functools
import inspect
import os
import stat
import tomllib
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

from tyrsim.core.engine.rules import RuleError

MAX_BYTES = 1_000_000  # a data or scenario file is a few KB; anything over 1 MB is not one
# a data-file rule's value "bundled:NAME" names another file of the game's bundled data folder
# (an alternative component a ruling plays against the default one)
BUNDLED = "bundled:"


class DataFileError(RuleError):
    """A data file that cannot be read, is not UTF-8 TOML, or breaks its format; the message names the file."""


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def integer(shown: str, key: str, value: Any, low: int = 0, high: int | None = None) -> int:
    """`value`, the integer at `key` of the data file `shown`, if it is from `low` to `high` (no upper
    limit when `high` is None); else a DataFileError naming the file, the key, the value and what is allowed.
    A boolean is no integer here, though Python counts it as one."""
    if isinstance(value, bool) or not isinstance(value, int) or value < low or (high is not None and value > high):
        allowed = f"from {low} to {high}" if high is not None else f"of at least {low}"
        raise DataFileError(f"{shown}: key {key!r}: {value!r} is not allowed; expected an integer {allowed}")
    return value


def read_text(path: str | Path) -> str:
    """The text of the regular file `path`: at most MAX_BYTES, UTF-8; DataFileError otherwise."""
    shown = str(path)
    try:
        # O_NONBLOCK: opening a FIFO must not wait for a writer; fstat then refuses it
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise DataFileError(f"{shown}: cannot read the file ({exc.strerror})") from None
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        raise DataFileError(f"{shown}: cannot read the file ({_kind(mode)}); name a regular file")
    with os.fdopen(fd, "rb") as handle:
        data = handle.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        raise DataFileError(f"{shown}: larger than {MAX_BYTES:,} bytes; a data or scenario file is a few KB of TOML")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise DataFileError(f"{shown}: not UTF-8 text (byte 0x{data[exc.start]:02x} at offset {exc.start}); "
                            "save the file as UTF-8") from None


def parse_toml(text: str, shown: str) -> dict[str, Any]:
    """The TOML table in `text`; DataFileError naming `shown` when it is not valid TOML."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DataFileError(f"{shown}: not valid TOML ({exc})") from None


def load_data(path: str | Path | None, package: str, bundled: str) -> tuple[str, dict[str, Any]]:
    """(name to quote in messages, parsed TOML) of the user's file `path`, of the bundled
    `package`/data/`bundled` when `path` is empty, or of the bundled file NAME when `path` is "bundled:NAME"."""
    if not path or is_bundled(path):
        name = str(path)[len(BUNDLED):] if path else bundled
        file = resources.files(package).joinpath("data", name)
        if "/" in name or "\\" in name or not file.is_file():
            raise DataFileError(f"{path}: no such bundled data file; the bundled files are: "
                                + ", ".join(f"{BUNDLED}{n}" for n in bundled_files(package)))
        shown = str(path or bundled)
        return shown, parse_toml(file.read_text(encoding="utf-8"), shown)
    return str(path), parse_toml(read_text(path), str(path))


def is_bundled(path: str | Path | None) -> bool:
    """True for a data-file rule value that names a bundled file: empty, or "bundled:NAME"."""
    return not path or str(path).startswith(BUNDLED)


def bundled_files(package: str) -> list[str]:
    """The names of the TOML files in `package`'s bundled data folder."""
    return sorted(item.name for item in resources.files(package).joinpath("data").iterdir()
                  if item.name.endswith(".toml"))


Loader = TypeVar("Loader", bound=Callable[..., Any])


def file_stamp(path: str | Path | None) -> tuple[int, int, int] | None:
    """(modification time in ns, size, inode) of the user's file `path`; None for a bundled file
    (see `is_bundled`) or a file that cannot be read (its loader then reports why)."""
    if is_bundled(path):
        return None
    try:
        info = os.stat(path)
    except OSError:
        return None
    return info.st_mtime_ns, info.st_size, info.st_ino


def data_file_cache(maxsize: int) -> Callable[[Loader], Loader]:
    """`functools.lru_cache` for a loader whose first argument names a data file, keyed also on the
    file's stamp: a file edited while tyrsim runs (a notebook, a long-lived worker) is read again,
    as the result store's task keys, which hash the file's content, expect. A stat per call is
    cheap beside a game; reading and hashing the file on every call would not be."""

    def decorate(load: Loader) -> Loader:
        first = next(iter(inspect.signature(load).parameters.values()))

        @functools.lru_cache(maxsize=maxsize)
        def cached(stamp, *args, **kwargs):
            return load(*args, **kwargs)

        @functools.wraps(load)
        def loader(*args, **kwargs):
            path = args[0] if args else kwargs.get(first.name, first.default)
            return cached(file_stamp(path), *args, **kwargs)

        return loader  # type: ignore[return-value]

    return decorate
