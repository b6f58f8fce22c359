"""Writing a user's file atomically: a temp file beside it, fsync, then ``os.replace``.

What sits at the path is respected: a symlink is written through (its target is
replaced, the link stays), a replaced file keeps its mode, a character device or a
named pipe (``/dev/null``, a terminal, ``/dev/stdout``, a FIFO with a reader) is
written directly, and anything else that is not a regular file is refused.

Kept in its own light module so the TUI's config can use it without importing the
exports (and through them the citations) on its way to the first frame.

No temporary file outlives its writer: a process that quits mid-write (the app ends with
``os._exit``) removes those still being written (:func:`remove_temps`), and the temp
file's name holds its writer's pid, so the next write beside it removes the leftovers of
a writer that was killed (``.export.bib.<pid>.<random>.tmp``).
"""

from __future__ import annotations

import contextlib
import errno
import gc
import os
import pickle
import re
import stat
import tempfile
import threading
from collections.abc import Iterator
from contextvars import ContextVar
from pathlib import Path
from typing import Any

_in_progress: set[str] = set()
_in_progress_lock = threading.Lock()
_FREEZING: ContextVar[bool] = ContextVar("freeze_after_pauses", default=False)


def write_atomic(path: Path, text: str) -> Path:
    """Write ``text`` as UTF-8 to ``path``: readers see the old file or the new, never half.

    Returns the path written (a symlink's target). Raises ``OSError`` with a readable
    ``strerror`` for what cannot be written (a folder, a socket, a pipe nobody reads).
    """
    path = Path(path)
    target = Path(os.path.realpath(path))
    try:
        info: os.stat_result | None = os.stat(target)
    except OSError:  # absent (a new file, or a dangling link's target) or unreachable
        info = None
    if str(target).startswith("/proc/") or (info is not None and _is_stream(info)):
        # /dev/stdout resolves to /proc/self/fd/1: a pipe, a terminal or the shell's file.
        _write_directly(path, text.encode("utf-8"), info)
        return path
    if info is not None and not stat.S_ISREG(info.st_mode):
        kind = "a folder" if stat.S_ISDIR(info.st_mode) else "not a regular file"
        raise OSError(errno.EINVAL, f"{target} is {kind}; nothing was written", str(path))
    target.parent.mkdir(parents=True, exist_ok=True)
    _remove_orphans(target)
    fd, tmp = tempfile.mkstemp(
        prefix=f".{target.name}.{os.getpid()}.", suffix=".tmp", dir=target.parent
    )
    with _in_progress_lock:
        _in_progress.add(tmp)
    try:
        os.fchmod(fd, stat.S_IMODE(info.st_mode) if info is not None else 0o666 & ~_umask())
        if info is not None:
            # Not ours to give away: the mode is kept, the owner becomes us.
            with contextlib.suppress(OSError):
                os.fchown(fd, info.st_uid, info.st_gid)
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    finally:
        with _in_progress_lock:
            _in_progress.discard(tmp)
    return target


def write_pickle(path: Path, value: object) -> bool:
    """Pickle ``value`` to a cache file atomically; False (not an error) when it cannot be.

    For caches only: a cache that cannot be written is rebuilt next time.
    """
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        try:
            # Pickling makes a short-lived tuple per object: collections midway free nothing.
            with os.fdopen(fd, "wb") as handle, gc_paused():
                pickle.dump(value, handle, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    except OSError:
        return False
    return True


def read_pickle(source: Path | bytes) -> Any:
    """What a cache file (or its bytes) holds, unpickled with the garbage collector paused.

    A cache is some 100,000 to a million new objects, all kept: collecting midway only
    costs time. Raises what reading or unpickling raises; a caller treats that as a cache
    to rebuild.
    """
    with gc_paused():
        if isinstance(source, bytes):
            return pickle.loads(source)
        with source.open("rb") as handle:
            return pickle.load(handle)


@contextlib.contextmanager
def gc_paused() -> Iterator[None]:
    """The cyclic garbage collector paused for the block (as it was after it).

    For work that makes many objects and keeps nearly all of them (a cache read, a
    catalogue merged): each collection midway walks them all again and frees nothing.
    """
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if _FREEZING.get():
            gc.freeze()
        if collecting:
            gc.enable()


@contextlib.contextmanager
def freezing_after_pauses() -> Iterator[None]:
    """In the block, :func:`gc_paused` freezes (``gc.freeze``) what the process holds when
    each pause ends: for a command's process, which keeps what it loaded until it exits.

    A pause leaves every object it made young: the next collections walked them all (the
    catalogue's 100,000 objects: 35-40 ms of a join's process, 15 ms of the search after
    it) and freed nothing. Frozen objects are still freed when their last reference goes;
    only a cycle among them stays until the process ends, so the app does not freeze.
    """
    token = _FREEZING.set(True)
    try:
        yield
    finally:
        _FREEZING.reset(token)


def remove_temps() -> None:
    """Remove the temporary files of writes still under way (the process is ending now)."""
    with _in_progress_lock:
        pending = list(_in_progress)
        _in_progress.clear()
    for tmp in pending:
        with contextlib.suppress(OSError):
            os.unlink(tmp)


def _remove_orphans(target: Path) -> None:
    """Remove temp files beside ``target`` left by writers that no longer run (killed)."""
    pattern = re.compile(rf"\.{re.escape(target.name)}\.(\d+)\.[^.]+\.tmp")
    try:
        names = os.listdir(target.parent)
    except OSError:
        return
    for name in names:
        found = pattern.fullmatch(name)
        if found and not process_running(int(found.group(1))):
            with contextlib.suppress(OSError):
                os.unlink(target.parent / name)


def process_running(pid: int) -> bool:
    """True while a process ``pid`` exists (this one included)."""
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process: it runs
        return True
    return True


def _is_stream(info: os.stat_result) -> bool:
    """A character device or a named pipe: written in place, never replaced."""
    return stat.S_ISCHR(info.st_mode) or stat.S_ISFIFO(info.st_mode)


def _write_directly(path: Path, data: bytes, info: os.stat_result | None) -> None:
    """Append ``data`` to a device, pipe or already-open stream; never block on a lone FIFO."""
    fifo = info is not None and stat.S_ISFIFO(info.st_mode)
    flags = os.O_WRONLY | os.O_APPEND | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(path, flags | (os.O_NONBLOCK if fifo else 0))
    except OSError as exc:
        if exc.errno == errno.ENXIO:
            raise OSError(
                errno.ENXIO, "a named pipe that no program is reading; nothing was written"
            ) from exc
        raise
    try:
        if fifo:
            os.set_blocking(fd, True)
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
    finally:
        os.close(fd)


def _umask() -> int:
    """The process's umask (read without changing it where Linux allows)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    return 0o022
