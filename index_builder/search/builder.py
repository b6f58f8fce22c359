"""Building the index in a child process, so that the caller can quit at any moment.

An interactive program that builds its index in a thread cannot end before the build
does (Python waits for the thread, and the build holds the interpreter lock most of the
time, which slows every key). :func:`write_in_child` runs the same build
(:meth:`IndexStore._write <index_builder.search.store.IndexStore._write>`) in a child
Python that writes the temporary folder and reports its progress; the caller swaps the
finished folder in as before. :func:`stop_children` ends every child at once; a child
also dies with its parent (Linux), and a folder left by a killed child is removed by the
next build (:func:`index_builder.search.folder.clean_stale`). The child's side is
:mod:`index_builder.search.build_child`.

Protocol: the parent writes ``pickle((index_dir, papers, fingerprint))`` to the child's
stdin; the child prints ``done total`` lines, then ``ok``, and exits 0.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import subprocess
import sys
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING

from index_builder import venues

if TYPE_CHECKING:
    from index_builder.model import Paper

Progress = Callable[[int, int], None]

_children: set[subprocess.Popen[bytes]] = set()
_children_lock = threading.Lock()


class ChildBuildError(RuntimeError):
    """The child process did not finish the build (killed, or it failed)."""


def write_in_child(
    index_dir: Path,
    folder: Path,
    papers: Sequence[Paper],
    fingerprint: str,
    progress: Progress | None,
) -> None:
    """Build the index of ``papers`` into ``folder`` in a child process; wait for it."""
    package_root = str(Path(__file__).resolve().parents[2])
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (package_root, env.get("PYTHONPATH")) if p)
    command = [sys.executable, "-m", "index_builder.search.build_child", str(folder)]
    child = subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env
    )
    with _children_lock:
        _children.add(child)
    try:
        assert child.stdin is not None and child.stdout is not None and child.stderr is not None
        try:
            job = (str(index_dir), tuple(papers), fingerprint, venues.declared())
            pickle.dump(job, child.stdin, protocol=5)
            child.stdin.close()
        except BrokenPipeError:
            pass
        finished = _follow(child.stdout, progress)
        errors = child.stderr.read().decode("utf-8", "replace")
        status = child.wait()
    finally:
        with _children_lock:
            _children.discard(child)
        if child.poll() is None:
            child.kill()
            child.wait()
    if status != 0 or not finished:
        tail = errors.strip().splitlines()[-1:] or [f"exit status {status}"]
        raise ChildBuildError(f"the index build stopped: {tail[0]}")


def _follow(stdout: IO[bytes], progress: Progress | None) -> bool:
    """Pass the child's progress lines on; True when it reported success."""
    for raw in stdout:
        line = raw.decode("ascii", "replace").split()
        if line == ["ok"]:
            return True
        if (
            progress
            and len(line) == 2
            and line[0].isascii()
            and line[0].isdigit()
            and line[1].isascii()
            and line[1].isdigit()
        ):
            progress(int(line[0]), int(line[1]))
    return False


def stop_children() -> None:
    """Kill every build child of this process now (the caller is quitting)."""
    with _children_lock:
        children = list(_children)
    for child in children:
        with contextlib.suppress(OSError):
            child.kill()
