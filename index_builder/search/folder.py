"""The index folder on disk: build marker, temporary build folders and the swap.

A build writes into a sibling folder ``<name>.tmp-<pid>-<random>``, writes the marker last,
then swaps it into place by renames, so a build killed at any moment leaves either the old
complete index or no index (never a half-written one that looks complete).
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import secrets
import shutil
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from index_builder.atomic import process_running

MARKER = "paperscope-index.json"


def read_marker(index_dir: Path) -> dict[str, Any] | None:
    """The build marker of ``index_dir``, or ``None`` when missing or unreadable."""
    try:
        data = json.loads((index_dir / MARKER).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def write_marker(folder: Path, data: dict[str, Any]) -> None:
    """Write the marker atomically (temp file, then ``os.replace``)."""
    tmp = folder / f".{MARKER}.tmp"
    tmp.write_text(json.dumps(data, indent=2, sort_keys=True), encoding="utf-8")
    os.replace(tmp, folder / MARKER)


def seal(folder: Path, marker: dict[str, Any], known: dict[str, str] | None = None) -> None:
    """Write ``marker`` with the sizes and CRC-32s of every index file: the build is done.
    ``known``: the CRC-32s of files known to be unchanged (not read again)."""
    marker["files"] = file_sizes(folder)
    marker["checksums"] = file_checksums(folder, known)
    write_marker(folder, marker)


@contextlib.contextmanager
def writer_lock(index_dir: Path) -> Iterator[None]:
    """Hold the index's writer lock while building or changing it: a second process waits
    for the first. The lock is an ``flock`` on the folder that holds the index (no file
    to leave behind); the kernel lets go of a process that dies, so a killed writer never
    blocks the next one."""
    index_dir.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(index_dir.parent, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def temp_dir_for(index_dir: Path) -> Path:
    """The name of a new sibling folder for a build, named after this process (not made)."""
    return index_dir.with_name(f"{index_dir.name}.tmp-{os.getpid()}-{secrets.token_hex(4)}")


def make_temp_dir(tmp: Path) -> None:
    """Create the build folder ``tmp`` (and its parent)."""
    tmp.parent.mkdir(parents=True, exist_ok=True)
    tmp.mkdir()


def swap_in(tmp: Path, index_dir: Path) -> None:
    """Replace ``index_dir`` by the finished build in ``tmp``."""
    old = None
    if index_dir.exists():
        old = index_dir.with_name(f"{index_dir.name}.old-{os.getpid()}-{secrets.token_hex(4)}")
        os.replace(index_dir, old)
    os.replace(tmp, index_dir)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)


def clean_stale(index_dir: Path) -> list[Path]:
    """Remove build and swap leftovers of processes that no longer run; return them."""
    removed: list[Path] = []
    parent = index_dir.parent
    if not parent.is_dir():
        return removed
    for entry in parent.iterdir():
        for kind in (".tmp-", ".old-"):
            stem = f"{index_dir.name}{kind}"
            if not entry.name.startswith(stem):
                continue
            pid_text = entry.name[len(stem) :].split("-", 1)[0]
            if (
                pid_text.isascii()
                and pid_text.isdigit()
                and process_running(int(pid_text))
                and kind == ".tmp-"
            ):
                continue
            shutil.rmtree(entry, ignore_errors=True)
            removed.append(entry)
    return removed


def folder_size(folder: Path) -> int:
    """Total size in bytes of the files directly inside ``folder``."""
    try:
        return sum(p.stat().st_size for p in folder.iterdir() if p.is_file())
    except OSError:
        return 0


def file_sizes(folder: Path) -> dict[str, int]:
    """The size of every index file in ``folder`` (not the marker, not lock files).

    Recorded in the marker at build time and checked on opening: segments are
    separate files read lazily, so a truncated one would otherwise only show
    when a query reaches it.
    """
    return {
        p.name: p.stat().st_size
        for p in sorted(folder.iterdir())
        if p.is_file() and p.name != MARKER and not p.name.endswith("LOCK")
    }


def sizes_match(folder: Path, recorded: object) -> bool:
    """True when every file recorded at build time is there with its size.

    Extra files are ignored: a writer killed before its commit leaves the files of
    a segment the table of contents never names. A marker from before sizes were
    recorded has none to check.
    """
    if recorded is None:
        return True
    if not isinstance(recorded, dict):
        return False
    for name, size in recorded.items():
        try:
            if (folder / str(name)).stat().st_size != size:
                return False
        except OSError:
            return False
    return True


def file_checksums(folder: Path, known: dict[str, str] | None = None) -> dict[str, str]:
    """CRC-32 of every index file in ``folder`` (those :func:`file_sizes` lists).

    Recorded in the marker at build time and checked on opening: damage inside a file
    (overwritten blocks) keeps its size and may raise nothing, or quietly find nothing.
    """
    known = known or {}
    return {name: known.get(name) or crc32(folder / name) for name in file_sizes(folder)}


def checksums_match(folder: Path, recorded: object) -> bool:
    """True when every file recorded at build time is there with the same content."""
    if not isinstance(recorded, dict) or not recorded:
        return False
    try:
        return all(crc32(folder / str(name)) == crc for name, crc in recorded.items())
    except OSError:
        return False


def crc32(path: Path) -> str:
    """The CRC-32 of the file at ``path``, as the marker keeps it (8 hex digits)."""
    crc = 0
    with path.open("rb") as fh:
        while block := fh.read(1 << 20):
            crc = zlib.crc32(block, crc)
    return f"{crc:08x}"
