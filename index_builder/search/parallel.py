"""A build on two cores: a forked worker gathers and encodes the second share of the documents.

The documents are split in two shares; this process gathers and encodes the first while
a worker forked once the documents are ready does the second (numbering its documents
after the first share's), and returns its :class:`~index_builder.search.segment.Gathered`
through a file in the index's temporary folder. The shares are joined term by term and
written as one segment (:func:`~index_builder.search.segment.join`). The shares are
equal: this process writes its share's per-document values while the worker hands its
result over, and both ends take about as long (measured: a 55 % share here kept the
worker idle for a tenth of the build).

A fork is used only where it is safe and cheap: on a platform that has it, from a process
with one thread (the app's build child, the command line, the benchmark); elsewhere the
build runs here alone. A worker that fails or is killed is not fatal: its share is then
built here. The worker asks Linux to end it with its parent, and the parent kills it when
it is interrupted.

A Ctrl+C during the build always ends it: Python drops a KeyboardInterrupt raised where
it cannot propagate (in an at-fork hook, a finaliser, a weakref callback), so the build
also notes each SIGINT it sees and stops at its next step when one was noted
(:func:`noticed_interrupts`).
"""

from __future__ import annotations

import contextlib
import os
import pickle
import signal
import sys
import threading
import traceback
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, NoReturn

from index_builder.atomic import gc_paused
from index_builder.forking import signals_held
from index_builder.search.segment import (
    Gathered,
    Progress,
    SegmentBuilder,
    join,
    write,
    write_docs,
)

OWN_SHARE = 0.5
"""The part of the documents this process gathers when a worker takes the rest."""
GATHER_SHARE = 0.6
"""The part of a build's progress given to gathering documents; writing gets the rest."""
FORK_FROM = 500
"""The fewest documents a build shares with a forked worker, and the fewest papers whose
vectors a worker of their own computes: a smaller build runs in this process alone.

Forking costs CPU at every size (copied pages, the share handed back through a file); it
pays only where the second core saves more wall time than that. Measured (2026-12-06,
``tests.benchmarks.build_fork``, medians of 5, CPU of the build and its workers, then of
this process alone: the longest path on two idle cores): 239 papers 0.25 s in one process
against 0.43 s forked, 0.23 s of it here (0.02 s of wall saved for 70 % more CPU); 400
papers 0.33 s against 0.53 s (0.28 s here); 800 papers 0.58 s against 0.88 s (0.47 s
here); 1,600 papers 1.15 s against 1.64 s, 0.83 s here: from there a third of the wall.
"""


def die_with_parent(parent: int) -> bool:
    """Ask Linux to kill this process when its parent ends (elsewhere: nothing); False
    when ``parent`` (its pid, read before) ended before the request took effect."""
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            pr_set_pdeathsig = 1
            libc.prctl(pr_set_pdeathsig, signal.SIGKILL)
        except (OSError, AttributeError):
            pass
    return os.getppid() == parent


def can_fork() -> bool:
    """True where forking a worker is safe: the platform forks and one thread runs."""
    return hasattr(os, "fork") and threading.active_count() == 1


def build(
    writer: Any,
    docs: Sequence[dict[str, str]],
    scratch: Path,
    progress: Progress | None = None,
    *,
    workers: int = 2,
    gathered: Callable[[], None] | None = None,
) -> Counter[str]:
    """Write ``docs`` as one segment through ``writer`` and commit; return the word counts.

    ``scratch`` is a folder for the worker's result (the index's temporary folder).
    ``gathered`` is called in each process as soon as its share is gathered (a core is
    then free for other work: :class:`~index_builder.search.vector_build.VectorJob`).
    """
    total = len(docs)
    split = int(total * OWN_SHARE) if workers > 1 and total >= FORK_FROM and can_fork() else total
    # The garbage collector is paused for the build (in the worker too: forked after):
    # each share keeps nearly every object it makes, and the collections of a build
    # walked them and the catalogue again and again, freeing a few hundred objects. The
    # build's objects are gone (its frame returned) before the collector runs again.
    with gc_paused():
        return _build(writer, docs, scratch, progress, split, gathered or _nothing)


def _build(
    writer: Any,
    docs: Sequence[dict[str, str]],
    scratch: Path,
    progress: Progress | None,
    split: int,
    done: Callable[[], None],
) -> Counter[str]:
    """:func:`build`, this process gathering the documents before ``split``."""
    schema = writer.schema
    total = len(docs)
    forked = _Worker(scratch) if split < total else None
    with noticed_interrupts() as checkpoint:
        try:
            if forked is not None:
                forked.start(lambda: _gather(schema, docs, split, total, done))
            builder = SegmentBuilder(schema)
            step = max(1, split // 50)
            for i, doc in enumerate(docs[:split], 1):
                builder.add(doc)
                if i % step == 0:
                    checkpoint()
                    if progress:
                        progress(int(total * GATHER_SHARE * i / split), total)
            gathered = builder.gathered()
            done()
            write_docs(writer, gathered.docs)  # while the worker may still be busy
            if forked is not None:
                theirs = forked.result()
                if theirs is None:  # the worker failed: its share is built here
                    theirs = _gather(schema, docs, split, total)
                gathered = join(gathered, theirs)
            checkpoint()
            if progress:
                progress(int(total * GATHER_SHARE), total)

            def writing(done: int, of: int) -> None:
                checkpoint()
                if progress:
                    share = GATHER_SHARE + (1 - GATHER_SHARE) * done / max(1, of)
                    progress(min(total - 1, int(total * share)), total)

            write(writer, gathered, writing)
        finally:
            if forked is not None:
                forked.stop()
    return gathered.words


@contextlib.contextmanager
def noticed_interrupts() -> Iterator[Callable[[], None]]:
    """Note every SIGINT while the block runs; yields a check that raises KeyboardInterrupt
    once one was noted, whether or not its own exception got through.

    The handler in place still runs (it raises KeyboardInterrupt by default). Outside the
    main thread, or where SIGINT is ignored or left to the system, nothing changes.
    """
    seen: list[int] = []

    def checkpoint() -> None:
        if seen:
            raise KeyboardInterrupt

    previous = signal.getsignal(signal.SIGINT)
    if threading.current_thread() is not threading.main_thread() or not callable(previous):
        yield checkpoint
        return

    def noting(signum: int, frame: Any) -> Any:
        seen.append(signum)
        return previous(signum, frame)

    signal.signal(signal.SIGINT, noting)
    try:
        yield checkpoint
    finally:
        signal.signal(signal.SIGINT, previous)


def _nothing() -> None:
    """No one to tell that a share is gathered."""


def _gather(
    schema: Any,
    docs: Sequence[dict[str, str]],
    start: int,
    end: int,
    done: Callable[[], None] = _nothing,
) -> Gathered:
    builder = SegmentBuilder(schema, docbase=start)
    for doc in docs[start:end]:
        builder.add(doc)
    gathered = builder.gathered()
    done()
    return gathered


class _Worker:
    """A forked child computing one result into a file."""

    def __init__(self, scratch: Path) -> None:
        self.pid = 0
        self.path = scratch / f".worker-{os.getpid()}-{threading.get_ident()}.pickle"
        self._done = False

    def start(self, work: Callable[[], Any]) -> None:
        """Fork the child running ``work``. A signal that comes meanwhile is delivered
        once the child's pid is known here (so :meth:`stop` can end it)."""
        parent = os.getpid()
        with signals_held() as held:
            pid = os.fork()
            if pid == 0:  # the child: never returns
                self._run(work, held, parent)
            self.pid = pid

    def _run(
        self, work: Callable[[], Any], held: set[int | signal.Signals], parent: int
    ) -> NoReturn:
        code = 1
        try:
            # Ctrl+C reaches the whole process group: the parent answers it and ends
            # this child, which must not print a traceback of its own.
            signal.signal(signal.SIGINT, signal.SIG_IGN)
            signal.pthread_sigmask(signal.SIG_SETMASK, held)
            if not die_with_parent(parent):
                os._exit(1)
            result = work()
            tmp = self.path.with_suffix(".tmp")
            with open(tmp, "wb") as out:
                pickle.dump(result, out, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(tmp, self.path)
            code = 0
        except BaseException:  # reported; the parent builds these fields instead
            traceback.print_exc()
        finally:
            os._exit(code)

    def result(self) -> Any | None:
        """Wait for the child; its result, or None when it failed."""
        _, status = os.waitpid(self.pid, 0)
        self._done = True
        try:
            if os.waitstatus_to_exitcode(status) != 0:
                return None
            with open(self.path, "rb") as found:
                return pickle.load(found)
        except (OSError, pickle.UnpicklingError, EOFError):
            return None
        finally:
            with contextlib.suppress(OSError):
                self.path.unlink()

    def stop(self) -> None:
        """Kill and reap the child if it is still running (the build was interrupted)."""
        if self._done or not self.pid:
            return
        with contextlib.suppress(OSError):
            os.kill(self.pid, signal.SIGKILL)
        with contextlib.suppress(OSError):
            os.waitpid(self.pid, 0)
        self._done = True
        for leftover in (self.path, self.path.with_suffix(".tmp")):
            with contextlib.suppress(OSError):
                leftover.unlink()
