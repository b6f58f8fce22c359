"""The merged catalogue: every source read, joined and ordered, with an on-disk cache.

``load_catalogue(paths)`` reads each file (a table, an abstract list, or JSON,
JSONL or BibTeX papers, see :mod:`index_builder.sources.reading`), merges them
(:mod:`index_builder.catalogue.merge`)
and returns a :class:`Catalogue`. A file that cannot be read or parsed is
reported as a :class:`SourceProblem` and skipped; the rest loads.

The fingerprint is a SHA-256 over :data:`CATALOGUE_VERSION` and each source's
resolved path and bytes.
With a ``cache_dir`` the built catalogue is pickled to
``catalogue-v{CATALOGUE_VERSION}.pickle`` and reused while the fingerprint
matches; a cache that cannot be read is ignored and rebuilt. Beside it,
``catalogue-v{CATALOGUE_VERSION}.head.pickle`` holds the first :data:`HEAD_SIZE` papers
with each source's size and modification time (taken before the sources were read):
:func:`read_head` hands them out in a millisecond, without reading a source, so the app's
first frame waits neither for the whole catalogue to be unpickled nor for the sources to
be hashed.
"""

from __future__ import annotations

import gc
import hashlib
import os
import pickle
import tempfile
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from index_builder.model import Paper, SourceProblem
from index_builder.sources.files import read_regular_file

if TYPE_CHECKING:
    from index_builder.sources.types import SourceData

HEAD_SIZE = 100
"""Papers in the head cache: more than the tallest terminal's first screen shows."""
CATALOGUE_VERSION = 9
"""The version of what reading, merging and rendering make of the sources: bump it with any
change of the papers built from the same files (every cache is then rebuilt).
``tests/core/test_analysis_versions.py`` fails when the catalogue of a fixture changes
while this stays the same; a change of comments or speed rebuilds nothing."""


class Catalogue:
    """Every paper of the loaded sources, in display order, with lookup by id or alias.

    ``complete`` is False only for a first look at the table papers alone
    (:mod:`index_builder.catalogue.first_look`), shown while the full catalogue is built.
    """

    __slots__ = ("_by_id", "complete", "fingerprint", "loaded_sources", "papers", "problems")

    def __init__(
        self,
        papers: Sequence[Paper],
        problems: Sequence[SourceProblem] = (),
        fingerprint: str = "",
        loaded_sources: Sequence[Path] = (),
    ) -> None:
        """Wrap papers (already in display order) and index their ids and aliases."""
        self.papers = tuple(papers)
        self.problems = tuple(problems)
        self.fingerprint = fingerprint
        self.loaded_sources = tuple(loaded_sources)
        self.complete = True
        self._by_id: dict[str, Paper] = {}
        for paper in self.papers:
            for alias in paper.aliases:
                self._by_id.setdefault(alias, paper)
        self._by_id.update((paper.id, paper) for paper in self.papers)

    def get(self, id_or_alias: str) -> Paper | None:
        """The paper with this id, or whose earlier id (alias) this is; ``None`` if unknown."""
        return self._by_id.get(str(id_or_alias).strip())

    def __len__(self) -> int:
        """The number of papers."""
        return len(self.papers)

    def __iter__(self) -> Iterator[Paper]:
        """The papers in display order."""
        return iter(self.papers)

    def __getstate__(self) -> dict[str, Any]:
        """Pickle the papers as plain tuples: much faster to load than dataclass states."""
        fields = Paper.__dataclass_fields__
        shared: dict[object, object] = {}
        # Equal values made one object, so pickle stores (and loads) each only once.
        return {
            "rows": [
                tuple(shared.setdefault(v, v) for v in (getattr(p, name) for name in fields))
                for p in self.papers
            ],
            "problems": [(p.path, p.message, p.fatal) for p in self.problems],
            "fingerprint": self.fingerprint,
        }

    def __setstate__(self, state: dict[str, Any]) -> None:
        """Rebuild from :meth:`__getstate__` (``loaded_sources`` is set by the loader)."""
        papers = [Paper(*row) for row in state["rows"]]
        problems = [SourceProblem(*p) for p in state["problems"]]
        Catalogue.__init__(self, papers, problems, state["fingerprint"])


def load_catalogue(
    sources: Sequence[Path],
    *,
    cache_dir: Path | None = None,
    on_problem: Callable[[SourceProblem], None] | None = None,
    on_cold: Callable[[], None] | None = None,
) -> Catalogue:
    """Read, merge and join ``sources``; reuse the cache in ``cache_dir`` when it is fresh.

    Every problem (skipped file, guessed encoding) is in ``.problems`` and is
    passed to ``on_problem`` as well, on cold and warm loads alike. ``on_cold`` is
    called (in this thread) just before a build from the sources, when there is no
    fresh cache: the app shows a quick first look meanwhile.
    """
    signature = _signature(sources)
    blobs, read_problems = _read_sources(sources)
    fingerprint = _fingerprint(blobs, read_problems)
    loaded = tuple(path for path, _ in blobs)
    cache_file = _cache_file(cache_dir) if cache_dir else None
    catalogue = _read_cache(cache_file, fingerprint) if cache_file else None
    if catalogue is not None and cache_dir is not None:
        _refresh_head(sources, cache_dir, catalogue, signature)
    if catalogue is None:
        if on_cold is not None:
            on_cold()
        catalogue = _build(blobs, read_problems, fingerprint)
        if cache_file is not None:
            _write_cache(cache_file, catalogue, signature)
    catalogue.loaded_sources = tuple(p for p in loaded if not _skipped(p, catalogue.problems))
    if on_problem is not None:
        for problem in catalogue.problems:
            on_problem(problem)
    return catalogue


def read_head(sources: Sequence[Path], cache_dir: Path) -> Catalogue | None:
    """The first :data:`HEAD_SIZE` papers of the cached catalogue of ``sources``.

    ``None`` unless the head cache was written for exactly these sources, as they are now
    (same paths, sizes and modification times). The result's ``complete`` is False:
    the full catalogue (:func:`load_catalogue`) replaces it.
    """
    try:
        with _head_file(_cache_file(cache_dir)).open("rb") as handle:
            signature, head = pickle.load(handle)
    except Exception:  # no head, or one that cannot be read: the full load follows
        return None
    if signature != _signature(sources) or not isinstance(head, Catalogue):
        return None
    head.complete = False
    return head


def _signature(sources: Sequence[Path]) -> list[tuple[str, int, int]]:
    """Each source's path, size and modification time (-1 when it cannot be seen)."""
    out = []
    for path in sources:
        try:
            info = os.stat(path)
            out.append((str(path), info.st_size, info.st_mtime_ns))
        except OSError:
            out.append((str(path), -1, -1))
    return out


def _read_sources(sources: Sequence[Path]) -> tuple[list[tuple[Path, bytes]], list[SourceProblem]]:
    """Each source's bytes, and a problem for each that cannot be read."""
    blobs: list[tuple[Path, bytes]] = []
    read_problems: list[SourceProblem] = []
    for path in sources:
        try:
            blobs.append((Path(path), read_regular_file(Path(path))))
        except OSError as exc:
            reason = exc.strerror or exc.__class__.__name__
            read_problems.append(SourceProblem(str(path), f"cannot read the file: {reason}"))
    return blobs, read_problems


def _cache_file(cache_dir: Path) -> Path:
    return cache_dir / f"catalogue-v{CATALOGUE_VERSION}.pickle"


def _head_file(cache_file: Path) -> Path:
    return cache_file.with_suffix(".head.pickle")


def _skipped(path: Path, problems: Sequence[SourceProblem]) -> bool:
    """True when a fatal problem names ``path`` (however it was spelled)."""
    return any(p.fatal and _resolved(Path(p.path)) == _resolved(path) for p in problems)


def _build(
    blobs: Sequence[tuple[Path, bytes]], read_problems: Sequence[SourceProblem], fingerprint: str
) -> Catalogue:
    """Parse every readable file (in a canonical order) and merge them."""
    # Imported here: a warm load from the cache needs neither the readers nor
    # pylatexenc, and start-up time is measured.
    from index_builder.catalogue.id_claims import drop_claimed_ids
    from index_builder.catalogue.merge import build_papers
    from index_builder.sources.reading import read_source
    from index_builder.sources.types import SourceError

    problems = list(read_problems)
    parsed: list[SourceData] = []
    ordered = sorted(blobs, key=lambda b: (b[0].name, hashlib.sha256(b[1]).hexdigest()))
    for path, data in ordered:
        try:
            result = read_source(path, data)
        except SourceError as exc:
            problems.append(SourceProblem(str(path), str(exc)))
            continue
        problems.extend(result.problems)
        parsed.append(result)
    papers, clashes = drop_claimed_ids(build_papers(parsed), parsed)
    return Catalogue(papers, [*problems, *clashes], fingerprint)


def _fingerprint(blobs: Sequence[tuple[Path, bytes]], problems: Sequence[SourceProblem]) -> str:
    """SHA-256 over the version and every source (order-independent)."""
    digest = hashlib.sha256(f"catalogue v{CATALOGUE_VERSION}\n".encode())
    entries = sorted(
        [f"{_resolved(p)}\0{hashlib.sha256(data).hexdigest()}" for p, data in blobs]
        + [f"{_resolved(Path(p.path))}\0unreadable" for p in problems]
    )
    for entry in entries:
        digest.update(entry.encode("utf-8", "surrogateescape") + b"\n")
    return digest.hexdigest()


def _resolved(path: Path) -> str:
    """The absolute path, without failing on odd paths."""
    try:
        return str(path.resolve())
    except (OSError, RuntimeError):
        return str(path)


def _read_cache(cache_file: Path, fingerprint: str) -> Catalogue | None:
    """The cached catalogue if it exists, loads and has this fingerprint; else ``None``."""
    collecting = gc.isenabled()
    gc.disable()  # loading makes ~150k objects; collecting midway only costs time
    try:
        with cache_file.open("rb") as handle:
            catalogue = pickle.load(handle)
    except Exception:  # any unreadable cache is simply rebuilt
        return None
    finally:
        if collecting:
            gc.enable()
    if not isinstance(catalogue, Catalogue) or catalogue.fingerprint != fingerprint:
        return None
    return catalogue


def _write_cache(
    cache_file: Path, catalogue: Catalogue, signature: list[tuple[str, int, int]]
) -> None:
    """Pickle the catalogue, then its head; the head is written only after its catalogue."""
    if _write(cache_file, catalogue):
        _write_head(cache_file, catalogue, signature)


def _refresh_head(
    sources: Sequence[Path],
    cache_dir: Path,
    catalogue: Catalogue,
    signature: list[tuple[str, int, int]],
) -> None:
    """A source touched but not changed keeps its catalogue: its head gets the new times."""
    if read_head(sources, cache_dir) is None:
        _write_head(_cache_file(cache_dir), catalogue, signature)


def _write_head(
    cache_file: Path, catalogue: Catalogue, signature: list[tuple[str, int, int]]
) -> None:
    head = Catalogue(catalogue.papers[:HEAD_SIZE], fingerprint=catalogue.fingerprint)
    _write(_head_file(cache_file), (signature, head))


def _write(path: Path, value: object) -> bool:
    """Pickle ``value`` atomically; a cache that cannot be written is not an error (False)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".catalogue-", dir=path.parent)
        try:
            with os.fdopen(fd, "wb") as handle:
                pickle.dump(value, handle, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    except OSError:
        return False
    return True
