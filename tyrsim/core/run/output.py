"""Writing results: output folders, checked first and written atomically (tables as text are
`tyrsim.core.report.table_text`'s).

A folder tyrsim writes holds `.tyrsim-files.json`, the list of the files its last
write put there. The next write into the same folder removes the listed files it
does not write again (another scenario's tables and figures), and nothing else:
files tyrsim did not write are never touched, and a folder that holds such
files and was not written by tyrsim is refused before any work starts.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path

RECORD = ".tyrsim-files.json"  # the files tyrsim's last write into a folder put there
STORE = ".store"  # the result store inside a report folder
INDEX_FILES = ("index.md", "index.html")


class OutFolderError(ValueError):
    """An output folder tyrsim cannot or may not write into; the message names it and why."""


def _recorded_files(folder: Path) -> list[str] | None:
    """The files tyrsim's last write into `folder` put there, or None when it has no readable record."""
    try:
        data = json.loads((folder / RECORD).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    files = data.get("files") if isinstance(data, dict) and data.get("written_by") == "tyrsim" else None
    if not isinstance(files, list) or not all(isinstance(f, str) for f in files):
        return None
    return files


def _written_by_tyrsim_before_records(folder: Path) -> bool:
    """A report folder from a tyrsim that kept no record: its manifest.json names a tyrsim version."""
    try:
        manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    versions = manifest.get("versions") if isinstance(manifest, dict) else None
    return isinstance(versions, dict) and "tyrsim" in versions


def check_out_folder(path: str | os.PathLike, *, collection: bool = False) -> None:
    """Raise OutFolderError unless tyrsim may write its output into the folder `path`.

    The folder (or, when it does not exist yet, its nearest existing parent) must be a folder
    tyrsim can create files in. An existing folder must be empty or written by tyrsim before
    (a record, a result store, or a manifest of an older tyrsim). With `collection` (the folder
    of `tyrsim report`, which holds one folder per scenario) only the index files must not be
    someone else's.
    """
    path = Path(path)
    existing = path
    while not existing.exists() and not existing.is_symlink() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        if existing == path:
            raise OutFolderError(f"{path} is a file, not a folder")
        raise OutFolderError(f"{path} cannot be made: {existing} is a file, not a folder")
    try:  # the one sure test, for root too: make a file there, and remove it
        probe = tempfile.mkdtemp(prefix=".tyrsim-check-", dir=existing)
        os.rmdir(probe)
    except OSError as exc:
        raise OutFolderError(f"{path}: cannot write in {existing} ({exc.strerror})") from None
    if existing != path:
        return  # a new folder
    if (path / RECORD).exists() or (path / STORE).is_dir() or _written_by_tyrsim_before_records(path):
        return
    entries = sorted(p.name for p in path.iterdir())
    if collection:
        entries = [e for e in entries if e in (*INDEX_FILES, "manifest.json")]
    if entries:
        raise OutFolderError(f"{path} holds files tyrsim did not write (such as {entries[0]}); "
                             "give a new or empty folder, or one tyrsim wrote before")


def _remove_stale(target: Path, old: list[str], new: set[str]) -> None:
    """Remove the files of `old` (a record) that are not in `new`: regular files inside `target` only."""
    root = target.resolve()
    for name in old:
        if name in new or name == RECORD:
            continue
        path = target / name
        try:
            inside = (not Path(name).is_absolute() and ".." not in Path(name).parts
                      and path.resolve().is_relative_to(root))
            if inside and stat.S_ISREG(path.lstat().st_mode):
                path.unlink()
        except OSError:
            continue  # already gone, or not ours to remove


def _write_record(folder: Path, files: list[str]) -> None:
    tmp = folder / f".{RECORD}.tmp"
    tmp.write_text(json.dumps({"written_by": "tyrsim", "files": files}, indent=1) + "\n", encoding="utf-8")
    os.replace(tmp, folder / RECORD)


@contextlib.contextmanager
def atomic_folder(target: str | os.PathLike) -> Iterator[Path]:
    """Yield a temporary folder beside `target`; on success its files replace `target`'s.

    A new target is created by one rename. In an existing target each written file
    replaces its old version by rename, and the files tyrsim wrote there last time and
    did not write again are removed (see the module's docstring); other files stay.
    On an error nothing is written and the temporary folder is removed.
    """
    target = Path(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{target.name}.", dir=target.parent))
    try:
        yield tmp
        written = sorted(p.relative_to(tmp).as_posix() for p in tmp.rglob("*") if p.is_file())
        if not target.exists():
            _write_record(tmp, written)
            tmp.rename(target)
            return
        old = _recorded_files(target) or []
        # record every file that may be there before moving any, so an interrupted write leaves nothing unlisted
        _write_record(target, sorted(set(old) | set(written)))
        for item in sorted(tmp.rglob("*")):
            dest = target / item.relative_to(tmp)
            if item.is_dir():
                dest.mkdir(exist_ok=True)
            else:
                os.replace(item, dest)
        _remove_stale(target, old, set(written))
        _write_record(target, written)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
