"""Where downloaded feeds live: one venue's files and ``meta.json`` form one set, swapped whole.

``<data>/feeds/<venue key>`` is a symbolic link to one numbered set folder in
``<data>/feeds/.<venue key>/`` holding the files as the site names them
(``icml-2026-orals-posters.json``, ``icml-2026-abstracts.json``) and ``meta.json``
(where they came from, their ETag and Last-Modified, when, what changed). An update
writes a new set folder (every file fsynced, ``meta.json`` last), then replaces the
link in one ``rename``: readers and a kill -9 at any moment see the old set or the new
one, whole. The set it replaced is kept as the backup that :func:`undo` restores;
older sets, and folders of updates that died half-way, are removed by the next
update. Every change happens under :func:`lock`, one ``flock`` per venue.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import shutil
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from index_builder import venues
from index_builder.atomic import write_atomic
from index_builder.paths import Paths
from index_builder.venues import Venue

META = "meta.json"
LOCK = "lock"
SEEN = "seen"
"""Names the set whose changes the TUI has shown (:mod:`.changes`)."""
QUIET = "quiet"
"""Names the set in use when a later update found nothing changed: its papers are no
longer new (``is:new``: a paper is new until the next update that does not add it)."""
NEW = ".new-"


class Busy(Exception):
    """Another process holds the venue's lock for longer than we wait."""


def feeds_dir(paths: Paths) -> Path:
    """The folder of every stored feed."""
    return paths.data_dir / "feeds"


def venue_dir(paths: Paths, venue: Venue) -> Path:
    """The path of one venue's stored set (a link to the set in use)."""
    return feeds_dir(paths) / venue.key


def sets_dir(paths: Paths, venue: Venue) -> Path:
    """The folder of a venue's numbered sets, its lock and its half-written sets."""
    return feeds_dir(paths) / f".{venue.key}"


def _complete(folder: Path) -> bool:
    """True for a set whose ``meta.json`` was written (it is written last)."""
    return folder.name.isascii() and folder.name.isdigit() and (folder / META).is_file()


def sets(paths: Paths, venue: Venue) -> list[Path]:
    """A venue's complete sets, oldest first."""
    try:
        found = [p for p in sets_dir(paths, venue).iterdir() if _complete(p)]
    except OSError:
        return []
    return sorted(found, key=lambda p: int(p.name))


def current(paths: Paths, venue: Venue) -> Path | None:
    """The folder of the set in use: the link's target, a folder of an older version, or
    (when an update died between moving that folder and making the link) the newest set."""
    link = venue_dir(paths, venue)
    if link.is_symlink():
        target = link.resolve()
        return target if target.is_dir() else None
    if link.is_dir():
        return link
    done = sets(paths, venue)
    return done[-1] if done else None


def backup(paths: Paths, venue: Venue) -> Path | None:
    """What :func:`undo` restores: the set the one in use replaced, else the newest other."""
    now = current(paths, venue)
    others = [s for s in sets(paths, venue) if now is None or s.resolve() != now]
    replaced = read_meta(paths, venue, now).get("previous_set") if now else None
    named = [s for s in others if s.name == replaced]
    return named[0] if named else (others[-1] if others else None)


def stored_sources(paths: Paths) -> list[Path]:
    """Every stored feed file (catalogue sources), by venue and name.

    Each venue's files are taken from the one set its link named when this ran, so a
    swap at the same moment never gives one set's feed with another's abstracts.
    """
    root = feeds_dir(paths)
    try:
        names = sorted(p.name for p in root.iterdir() if not p.name.startswith("."))
    except OSError:
        return []
    out: list[Path] = []
    for name in names:
        link = root / name
        folder = link.resolve() if link.is_symlink() else link
        if not folder.is_dir():
            continue
        out.extend(
            sorted(
                p
                for p in folder.glob("*.json")
                if p.name != META and not p.name.startswith(".") and p.is_file()
            )
        )
    return out


def read_meta(paths: Paths, venue: Venue, folder: Path | None = None) -> dict[str, Any]:
    """The ``meta.json`` of a set (default: the one in use), ``{}`` when absent or unreadable."""
    folder = folder or current(paths, venue)
    if folder is None:
        return {}
    try:
        data = json.loads((folder / META).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def added_ids(paths: Paths) -> frozenset[str]:
    """The ids of the papers each venue's last update added (``is:new``); none after an
    update that found nothing changed (:func:`mark_quiet`)."""
    out: set[str] = set()
    for venue in venues.known():
        if not venue_dir(paths, venue).exists():
            continue
        folder = current(paths, venue)
        if folder is None or _quiet(paths, venue) == folder.name:
            continue
        added = read_meta(paths, venue, folder).get("added")
        out.update(a for a in added or () if isinstance(a, str))
    return frozenset(out)


def _quiet(paths: Paths, venue: Venue) -> str:
    try:
        return (sets_dir(paths, venue) / QUIET).read_text(encoding="utf-8").strip()
    except OSError:
        return ""


def mark_quiet(paths: Paths, venue: Venue) -> None:
    """Record that an update added nothing to the set in use (under the venue's lock)."""
    folder = current(paths, venue)
    if folder is not None:
        write_atomic(sets_dir(paths, venue) / QUIET, folder.name + "\n")


def read_stored(paths: Paths, venue: Venue, name: str, folder: Path | None = None) -> bytes | None:
    """A stored file's bytes (default: of the set in use), or ``None``."""
    folder = folder or current(paths, venue)
    if folder is None:
        return None
    try:
        return (folder / name).read_bytes()
    except OSError:
        return None


@contextlib.contextmanager
def lock(
    paths: Paths,
    venue: Venue,
    *,
    wait: float = 600.0,
    cancel: threading.Event | None = None,
    waiting: Callable[[], None] | None = None,
) -> Iterator[None]:
    """Hold the venue's lock (an ``flock``, let go by the kernel when a process dies).

    Waits up to ``wait`` seconds for another update (calling ``waiting`` once when it
    must), then raises :class:`Busy`.
    """
    folder = sets_dir(paths, venue)
    folder.mkdir(parents=True, exist_ok=True)
    fd = os.open(folder / LOCK, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        end = time.monotonic() + wait
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if waiting is not None:
                    waiting()
                    waiting = None
                if time.monotonic() > end or (cancel is not None and cancel.is_set()):
                    raise Busy(f"another update of {venue.key} is running") from None
                time.sleep(0.05)
        yield
    finally:
        os.close(fd)


def clean(paths: Paths, venue: Venue) -> None:
    """Remove what updates that died left (half-written sets) and sets older than the backup.

    Call it holding :func:`lock`. A folder of an older version (a plain folder where the
    link goes) is moved in as a set and the link made, so it is kept as it was.
    """
    folder = sets_dir(paths, venue)
    link = venue_dir(paths, venue)
    if link.is_dir() and not link.is_symlink():
        number = _next_number(paths, venue)
        if not (link / META).is_file():
            (link / META).write_text("{}\n", encoding="utf-8")
        os.rename(link, folder / str(number))
        _point(paths, venue, folder / str(number))
    elif not link.is_symlink() and (done := sets(paths, venue)):
        _point(paths, venue, done[-1])
    keep = {p for p in (current(paths, venue), backup(paths, venue)) if p is not None}
    for kept in keep:  # an older version's half-written temp files (``.name.xyz.tmp``)
        for leftover in kept.glob(".*.tmp"):
            leftover.unlink(missing_ok=True)
    for entry in folder.iterdir():
        if entry.name in (LOCK, SEEN, QUIET) or entry.resolve() in keep:
            continue
        if entry.is_dir() and not entry.is_symlink():
            shutil.rmtree(entry, ignore_errors=True)
        else:
            entry.unlink(missing_ok=True)
    (feeds_dir(paths) / f".{venue.key}.swap").unlink(missing_ok=True)


def _next_number(paths: Paths, venue: Venue) -> int:
    numbers = [
        int(p.name)
        for p in sets_dir(paths, venue).iterdir()
        if p.name.isascii() and p.name.isdigit()
    ]
    return max(numbers, default=0) + 1


def new_set(paths: Paths, venue: Venue) -> Path:
    """An empty folder for a new set (hidden until :func:`commit` names and links it)."""
    folder = sets_dir(paths, venue) / f"{NEW}{os.getpid()}"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    return folder


def write_file(folder: Path, name: str, data: bytes) -> None:
    """Write one file of a new set and fsync it."""
    fd = os.open(folder / name, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
        os.fsync(fd)
    finally:
        os.close(fd)


def commit(paths: Paths, venue: Venue, folder: Path, meta: dict[str, Any]) -> Path:
    """Finish a new set (``meta.json`` last), give it its number and make it the one in use.

    The set it replaces becomes the backup (named in the new ``meta.json``).
    """
    replaced = current(paths, venue)
    meta = {**meta, "previous_set": replaced.name if replaced else None}
    write_file(folder, META, (json.dumps(meta, indent=2, ensure_ascii=False) + "\n").encode())
    _fsync_dir(folder)
    final = sets_dir(paths, venue) / str(_next_number(paths, venue))
    os.rename(folder, final)
    _fsync_dir(final.parent)
    _point(paths, venue, final)
    return final


def _point(paths: Paths, venue: Venue, target: Path) -> None:
    """Make the venue's link name ``target``, in one rename."""
    root = feeds_dir(paths)
    swap = root / f".{venue.key}.swap"
    swap.unlink(missing_ok=True)
    os.symlink(os.path.relpath(target, root), swap)
    os.replace(swap, venue_dir(paths, venue))
    _fsync_dir(root)


def undo(paths: Paths, venue: Venue) -> Path | None:
    """Put the backup back in use (the set it replaces becomes the backup); ``None`` if none.

    Call it holding :func:`lock`.
    """
    older = backup(paths, venue)
    if older is None:
        return None
    _point(paths, venue, older)
    return older


def _fsync_dir(folder: Path) -> None:
    """Make a folder's new names durable."""
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
