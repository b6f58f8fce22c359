"""Computing the paper vectors during an index build, on the core the Whoosh build leaves.

:class:`VectorJob` forks a worker (:class:`~index_builder.search.parallel._Worker`: it dies
with its parent and is killed when the build is interrupted) that computes the TF-IDF
vectors (:mod:`index_builder.vectors.tfidf`) and writes ``vectors.bin`` into the build's
temporary folder while this process builds the Whoosh index. Where a fork is not safe, or
the worker failed, the vectors are computed here after the Whoosh build. The file is in
the folder before the build marker is written, so the marker's sizes and CRC-32s cover it.

Before forking, the memory this process freed is given back to the system
(:func:`give_back_freed`): a first index builds the catalogue in the same process, which
leaves some 85 MB freed but kept by the C allocator at three venues, and both this worker
and the Whoosh build's (:mod:`~index_builder.search.parallel`) would start with it mapped.

The same worker then writes the index's manifest (:func:`~.in_place.save_manifest`: each
paper's digest and combined text, 0.4 s at 6,630 papers), which the Whoosh build would
otherwise write after its own work: the vectors take less time than the Whoosh build.

The worker is forked first but waits until a share of the Whoosh build is gathered
(:meth:`VectorJob.release`, called by :func:`~.parallel.build` in the process whose share
is done). Two cores ran three processes before: the vectors slowed both shares, and the
build's last, serial step (the shares joined, the segment written) left a core idle.
Now the vectors use that core.
"""

from __future__ import annotations

import contextlib
import os
import resource
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from index_builder.atomic import gc_paused
from index_builder.search import parallel
from index_builder.search.parallel import _Worker, can_fork
from index_builder.vectors.storage import VECTORS_FILE

if TYPE_CHECKING:
    from index_builder.model import Paper


def write_vectors_and_manifest(
    papers: Sequence[Paper], folder: Path, kept: dict[str, float] | None = None
) -> dict[str, float]:
    """:func:`write_vectors` (unless ``kept``: the stats of vectors already in ``folder``,
    :mod:`~.kept_vectors`), then the manifest of ``papers`` in ``folder``."""
    from index_builder.search.in_place import save_manifest

    # Paused as the Whoosh build is (search.parallel): the fit and the manifest keep
    # what they make, and each collection walked the catalogue the worker inherited.
    with gc_paused():
        stats = kept if kept is not None else write_vectors(papers, folder)
        save_manifest(folder, papers)
    return stats


def vectors_of_build(
    papers: Sequence[Paper], folder: Path, old_index: Path | None
) -> dict[str, float]:
    """The vectors and manifest of a full build into ``folder``: the vectors of
    ``old_index`` kept when they were made from the same inputs (:mod:`~.kept_vectors`),
    else fitted, with the key that lets the next build keep them."""
    from index_builder.search import kept_vectors

    inputs = kept_vectors.inputs_digest(papers)
    kept = kept_vectors.keep(old_index, folder, inputs) if old_index is not None else None
    stats = write_vectors_and_manifest(papers, folder, kept)
    if kept is None:
        kept_vectors.save_key(folder, inputs, stats)
    return stats


def write_vectors(papers: Sequence[Paper], folder: Path) -> dict[str, float]:
    """Compute and save the vectors of ``papers`` in ``folder``; the seconds and peak MB."""
    from index_builder.vectors.storage import save
    from index_builder.vectors.tfidf import compute

    started = time.perf_counter()
    vectors = compute(papers)
    save(vectors, folder)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {
        "seconds": round(time.perf_counter() - started, 3),
        "peak_mb": round(peak, 1),
        "features": len(vectors.words),
    }


def give_back_freed() -> None:
    """Return the memory freed but kept by the C allocator to the system (glibc's
    ``malloc_trim``; elsewhere nothing). Live objects are not touched."""
    import ctypes

    try:
        trim = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):
        return
    trim(0)


class VectorJob:
    """The vectors and the manifest of ``papers`` written into ``folder``, beside a build
    running here."""

    def __init__(
        self, papers: Sequence[Paper], folder: Path, old_index: Path | None = None
    ) -> None:
        self.papers = papers
        self.folder = Path(folder)
        self.old_index = old_index
        """The index whose vectors are kept when made from the same inputs."""
        self.stats: dict[str, float] = {}
        """What :func:`write_vectors` reported (``seconds``, ``peak_mb``, ``features``)."""
        self._worker: _Worker | None = None
        self._go: int | None = None
        """The pipe whose first byte (or end) lets the worker start."""

    def start(self) -> None:
        """Fork the worker where that is safe and the papers are many enough
        (:data:`~.parallel.FORK_FROM`; else :meth:`finish` does the work); it
        starts on :meth:`release`, or once every process that could release it is done."""
        if can_fork() and len(self.papers) >= parallel.FORK_FROM:
            give_back_freed()
            worker = _Worker(self.folder)
            worker.path = self.folder / ".vectors-worker.pickle"
            papers, folder, old_index = self.papers, self.folder, self.old_index
            wait, self._go = os.pipe()
            go = self._go

            def work() -> dict[str, float]:
                os.close(go)  # its own copy: the pipe ends when the build's are closed
                os.read(wait, 1)
                return vectors_of_build(papers, folder, old_index)

            try:
                worker.start(work)
            finally:
                os.close(wait)
            self._worker = worker

    def release(self) -> None:
        """Let the worker start (from this process or one forked from it since :meth:`start`)."""
        if self._go is not None:
            with contextlib.suppress(OSError):  # the worker is gone: finish() sees it
                os.write(self._go, b"1")

    def _close(self) -> None:
        if self._go is not None:
            with contextlib.suppress(OSError):
                os.close(self._go)
            self._go = None

    def finish(self) -> None:
        """Wait for the worker; write the vectors and the manifest here when it failed or
        never ran."""
        from index_builder.search.in_place import MANIFEST

        self.release()
        self._close()
        worker, self._worker = self._worker, None
        stats = worker.result() if worker is not None else None
        made = all((self.folder / name).is_file() for name in (VECTORS_FILE, MANIFEST))
        if stats is None or not made:
            stats = vectors_of_build(self.papers, self.folder, self.old_index)
        self.stats = stats

    def stop(self) -> None:
        """Kill the worker (the build was interrupted or failed)."""
        self._close()
        if self._worker is not None:
            self._worker.stop()
            self._worker = None
