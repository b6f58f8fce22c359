"""The search index on disk: build, open, notice a swap, rebuild when stale or damaged.

:class:`IndexStore` owns the Whoosh index and its searcher; :class:`SearchIndex` in
:mod:`index_builder.search.engine` adds the queries. A build writes into a temporary folder and
swaps it in (:mod:`indexfiles`), so a killed build never leaves a half-written index.
"""

from __future__ import annotations

import contextlib
import pickle
import shutil
import struct
import threading
import time
import zlib
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from whoosh import index as whoosh_index
from whoosh.scoring import BM25F

from index_builder.model import Paper
from index_builder.search import folder as indexfiles
from index_builder.search import in_place, parallel
from index_builder.search.builder import write_in_child
from index_builder.search.columns import load_numpy
from index_builder.search.doc_map import doc_map, save_segment_ids
from index_builder.search.documents import PaperDocs
from index_builder.search.highlight import StemForms
from index_builder.search.ordering import Ranks
from index_builder.search.schema import (
    ANALYSIS_VERSION,
    SCHEMA_VERSION,
    library_version,
    make_schema,
    stem,
)
from index_builder.search.scoring import FastScorer
from index_builder.search.vector_build import VectorJob
from index_builder.search.vocabulary import Vocabulary
from index_builder.vectors.storage import VECTORS_VERSION

Progress = Callable[[int, int], None]
DAMAGED_NOTICE = "The search index was damaged and has been rebuilt."
# Errors a damaged index is known to raise. Whoosh raises plain Exception too ("Block tag
# error") for overwritten posting blocks: engine.search rebuilds after any error, but only
# when the files show damage (IndexStore.damaged); any other error is a bug, raised.
DAMAGE_ERRORS = (
    OSError,
    EOFError,
    ValueError,
    KeyError,
    IndexError,
    zlib.error,
    struct.error,
    pickle.UnpicklingError,
    whoosh_index.IndexError,
)
_MARKER_CHECK_S = 2.0


class IndexStore:
    """A Whoosh index of ``papers`` in ``index_dir``, tagged with the catalogue ``fingerprint``.

    Subclassed by :class:`~index_builder.search.engine.SearchIndex`, which answers queries.

    Thread-safe: one searcher is shared under a lock; a build writes elsewhere and only
    takes the lock to swap the finished index in.
    """

    def __init__(self, index_dir: Path, papers: Sequence[Paper], fingerprint: str) -> None:
        self.index_dir = Path(index_dir)
        self.papers = tuple(papers)
        self.fingerprint = fingerprint
        self._by_id: dict[str, int] = {}
        for i, paper in enumerate(self.papers):
            for key in (paper.id, *paper.aliases):
                self._by_id.setdefault(key, i)
        self._lock = threading.RLock()
        self._build_lock = threading.RLock()
        self._ix: Any = None
        self._searcher: Any = None
        self._doc_paper: list[int] = []
        self._paper_doc: dict[int, int] = {}
        self._opened_marker: dict[str, Any] | None = None
        self._marker_checked = 0.0
        self._vocab = Vocabulary({})
        self._forms = StemForms(self._vocab.sorted, stem)
        self._paper_ranks = Ranks(self.papers, range(len(self.papers)))
        self._ranks = self._paper_ranks
        self._scorer: Any = None
        self._vectors: Any = None
        """The paper vectors, read from the index folder when first needed."""
        self._vectors_lock = threading.Lock()
        """Held while the vectors are read: one thread reads them, the others wait for them."""
        self.notice: str | None = None
        """The last notice from a rebuild done during a search (for the UI to show)."""
        self.build_in_child = False
        """Build in a child process (:mod:`~index_builder.search.builder`) that a quitting
        app can kill at once; the app sets this, scripts and the CLI build in-process."""
        self.new_ids: frozenset[str] = frozenset()
        """Ids of the papers the last feed update added, for ``is:new`` (set by the owner)."""
        self.library_ids: frozenset[str] = frozenset()
        """Ids of the papers the user's library holds, for ``is:library`` (set by the owner)."""
        self._held_current: dict[int, tuple[object, Any]] = {}

    # -- freshness and building -------------------------------------------------------

    def _expected_marker(self) -> dict[str, Any]:
        return {
            "fingerprint": self.fingerprint,
            "schema_version": SCHEMA_VERSION,
            "analysis": ANALYSIS_VERSION,
            "library": library_version(),
            "vectors": VECTORS_VERSION,
        }

    def is_fresh(self) -> bool:
        """True when a complete index of these papers, schema and library is on disk."""
        marker = indexfiles.read_marker(self.index_dir)
        if marker is None or any(marker.get(k) != v for k, v in self._expected_marker().items()):
            return False
        if "checksums" not in marker:  # built before content checks: rebuilt once, quietly
            return False
        return any(self.index_dir.glob("_MAIN_*.toc"))

    def on_disk(self) -> bool:
        """True when an index was built here before, fresh or not (a change may be made in it)."""
        return indexfiles.read_marker(self.index_dir) is not None

    def ensure(self, progress: Progress | None = None) -> str | None:
        """Open the index, building it when missing or stale and rebuilding it when damaged.

        Returns a notice for the user when the index had to be rebuilt because it was
        damaged, else ``None``.
        """
        with self._build_lock:
            if self._searcher is not None and self.is_fresh():
                return None
            indexfiles.clean_stale(self.index_dir)
            if not self.is_fresh():
                # A marker that is there but unreadable is damage, not a first build.
                marker = self.index_dir / indexfiles.MARKER
                damaged = marker.exists() and indexfiles.read_marker(self.index_dir) is None
                with indexfiles.writer_lock(self.index_dir):
                    if self.is_fresh():  # another process made it while we waited
                        with contextlib.suppress(Exception):
                            self._open()
                            return None
                    if damaged or not self._change_in_place():
                        self._build(progress)
                return DAMAGED_NOTICE if damaged else None
            try:
                self._open()
            except Exception:
                self.build(progress)
                return DAMAGED_NOTICE
            return None

    def build(self, progress: Progress | None = None) -> None:
        """Build the index from scratch in a temporary folder and swap it into place."""
        with self._build_lock, indexfiles.writer_lock(self.index_dir):
            self._build(progress)

    def _change_in_place(self) -> bool:
        """Write only the papers that changed (:mod:`~.in_place`); False when a full build
        is due instead (or the index cannot be changed in place)."""
        made = in_place.prepare(self.index_dir, self.papers, self._expected_marker())
        if made is None:
            return False
        try:
            self._swap(made)
        finally:
            shutil.rmtree(made, ignore_errors=True)
        return True

    def _swap(self, tmp: Path, vocab: Vocabulary | None = None) -> None:
        """Put the finished index in ``tmp`` in place and open it (``vocab``: its
        vocabulary, when this process made it)."""
        with self._lock:
            self._close()
            indexfiles.swap_in(tmp, self.index_dir)
            self._open(sealed=True, vocab=vocab)

    def _build(self, progress: Progress | None) -> None:
        """:meth:`build`, holding the locks."""
        with self._build_lock:
            indexfiles.clean_stale(self.index_dir)
            # Named before it exists and made inside the try: an interrupt (Ctrl+C) that
            # lands just after the folder is made must still remove it.
            tmp = indexfiles.temp_dir_for(self.index_dir)
            try:
                indexfiles.make_temp_dir(tmp)
                vocab = None
                if self.build_in_child:
                    write_in_child(self.index_dir, tmp, self.papers, self.fingerprint, progress)
                else:
                    vocab = self._write(tmp, progress)
                self._swap(tmp, vocab)
            except OSError as exc:  # a full disk, say: named in one line, errno kept
                raise OSError(exc.errno, f"cannot write the search index in {self.index_dir}: "
                              f"{exc.strerror or exc}") from exc  # fmt: skip
            finally:
                if tmp.exists():
                    shutil.rmtree(tmp, ignore_errors=True)

    def _write(self, folder: Path, progress: Progress | None) -> Vocabulary:
        """Write the whole index into ``folder`` and seal it; its vocabulary."""
        total = len(self.papers)
        if progress:
            progress(0, total)
        ix = whoosh_index.create_in(str(folder), make_schema())
        # Separate segment files, not one compound file: Whoosh copies a compound file into
        # memory on opening (+300 MB at 50k papers). The segment is written whole by
        # index_builder.search.segment, on two cores where it can (search.parallel).
        writer = ix.writer(procs=1, timeout=10.0, compound=False)
        load_numpy()  # before the workers are forked: they share it
        # On a core the Whoosh build leaves; kept from the last build when they can be.
        vectors = VectorJob(self.papers, folder, self.index_dir)
        try:
            vectors.start()
            words = parallel.build(
                writer, PaperDocs(self.papers), folder, progress, gathered=vectors.release
            )
            vectors.finish()
        except BaseException:
            vectors.stop()
            if not writer.is_closed:
                writer.cancel()
            raise
        finally:
            ix.close()
        vocab = Vocabulary(dict(words))
        vocab.save(folder)
        save_segment_ids(folder, [p.id for p in self.papers])
        marker = self._expected_marker()
        marker["doc_count"] = total
        marker["built_at"] = datetime.now(UTC).isoformat(timespec="seconds")
        marker["vector_stats"] = vectors.stats
        indexfiles.seal(folder, marker)
        if progress:
            progress(total, total)
        return vocab

    # -- opening ----------------------------------------------------------------------

    def _open(self, *, sealed: bool = False, vocab: Vocabulary | None = None) -> None:
        """Open the index in the folder; ``sealed``: this process has just sealed it, so
        the file contents are the ones whose CRC-32s the marker holds (not read again),
        and ``vocab`` is the vocabulary it wrote there, when given (not read either)."""
        with self._lock:
            self._close()
            ix = whoosh_index.open_dir(str(self.index_dir))
            try:
                searcher = ix.searcher(weighting=BM25F())
                reader = searcher.reader()
                self._doc_paper, self._paper_doc = doc_map(
                    reader, self.papers, self._by_id, self.index_dir
                )
                marker = indexfiles.read_marker(self.index_dir) or {}
                if marker.get("doc_count") != len(self.papers):
                    raise ValueError("the build marker disagrees with the index")
                if not indexfiles.sizes_match(self.index_dir, marker.get("files")):
                    raise ValueError("index files changed since the build")
                checksums = marker.get("checksums")
                if not sealed and not indexfiles.checksums_match(self.index_dir, checksums):
                    raise ValueError("index file contents changed since the build")
                self._vocab = Vocabulary.load(self.index_dir) if vocab is None else vocab
                self._forms = StemForms(self._vocab.sorted, stem)
            except BaseException:
                ix.close()
                raise
            self._ix, self._searcher = ix, searcher
            self._vectors = None  # this index's vectors are read when first needed
            # Decoded postings belong to this searcher: a new index starts an empty cache.
            self._scorer = FastScorer(searcher)
            self._ranks = Ranks(self.papers, self._doc_paper)
            self._opened_marker = indexfiles.read_marker(self.index_dir)
            self._marker_checked = time.monotonic()

    def _close(self) -> None:
        with self._lock:
            if self._searcher is not None:
                self._searcher.close()
            if self._ix is not None:
                self._ix.close()
            self._searcher = self._ix = self._scorer = None

    def close(self) -> None:
        """Release the searcher and the index files."""
        self._close()

    def _ready(self) -> None:
        """Open (or build) the index before taking the search lock.

        Lock order is always build lock, then search lock: a search never waits for a
        build while holding the search lock, which the build needs to swap its index in.
        """
        if self._searcher is None:
            notice = self.ensure()
            if notice:
                self.notice = notice

    def _current_searcher(self) -> Any:
        """The open searcher (call with the search lock held).

        When another process swapped in a new index, it is reopened: the old files are
        gone from the folder, so ``refresh()`` would keep reading the replaced index.
        """
        now = time.monotonic()
        if self._searcher is not None and now - self._marker_checked > _MARKER_CHECK_S:
            self._marker_checked = now
            if indexfiles.read_marker(self.index_dir) != self._opened_marker and self.is_fresh():
                self._open()
        if self._searcher is None:
            raise ValueError("the search index is not open")
        return self._searcher

    def damaged(self) -> bool:
        """True when the index files are not what the build wrote: a marker that cannot be
        read, or a file gone, resized or changed (the CRC-32 the marker keeps)."""
        marker = indexfiles.read_marker(self.index_dir)
        return marker is None or not (
            indexfiles.sizes_match(self.index_dir, marker.get("files"))
            and indexfiles.checksums_match(self.index_dir, marker.get("checksums"))
        )

    def _recover(self) -> None:
        """Rebuild after the index failed while being read."""
        self._close()
        self.build()
        self.notice = DAMAGED_NOTICE

    def state(self, *, contents: bool = True) -> dict[str, Any]:
        """What ``doctor`` shows: where the index is, whether it is fresh, its size.

        ``contents=False``: fresh by the marker alone, the files' CRC-32s not read (every
        byte of the index: for a report right after a build or an open that checked them)."""
        marker = indexfiles.read_marker(self.index_dir) or {}
        return {
            "path": str(self.index_dir),
            "exists": self.index_dir.is_dir() and any(self.index_dir.glob("_MAIN_*.toc")),
            "fresh": self.is_fresh()
            and (
                not contents or indexfiles.checksums_match(self.index_dir, marker.get("checksums"))
            ),
            "doc_count": marker.get("doc_count"),
            "built_at": marker.get("built_at"),
            "size_bytes": indexfiles.folder_size(self.index_dir),
            "library": library_version(),
            "index_library": marker.get("library"),
            "schema_version": marker.get("schema_version"),
        }
