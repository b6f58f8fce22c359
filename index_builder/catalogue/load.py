"""The merged catalogue: every source read, joined and ordered, with an on-disk cache.

The :class:`Catalogue` type is :mod:`~index_builder.catalogue.papers`'s and the cache
files are :mod:`~index_builder.catalogue.cache`'s (both re-exported here); this module
reads the sources, fingerprints them and decides when the cache serves.

``load_catalogue(paths)`` reads each file (a table, an abstract list, or JSON,
JSONL or BibTeX papers, see :mod:`index_builder.sources.reading`), merges them
(:mod:`index_builder.catalogue.merge`)
and returns a :class:`Catalogue`. A file that cannot be read or parsed is
reported as a :class:`SourceProblem` and skipped; the rest loads.

The fingerprint is a SHA-256 over :data:`CATALOGUE_VERSION`, the venues the user declared
(:func:`index_builder.venues.declared_digest`) and each source's resolved path and bytes.
With a ``cache_dir``, each source's parsed records are kept by its bytes
(:mod:`~index_builder.catalogue.source_cache`: a change of one source reads that source
alone) and rendered texts by their raw text (:mod:`~index_builder.text.render_cache`);
the built catalogue is pickled to
``catalogue-v{CATALOGUE_VERSION}.pickle`` and reused while the fingerprint
matches; a cache that cannot be read is ignored and rebuilt. Beside it,
``catalogue-v{CATALOGUE_VERSION}.head.pickle`` holds the first :data:`HEAD_SIZE` papers
with each source's size and modification time (taken before the sources were read):
:func:`read_head` hands them out in a millisecond, without reading a source, so the app's
first frame waits neither for the whole catalogue to be unpickled nor for the sources to
be hashed.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from index_builder import venues
from index_builder.atomic import gc_paused
from index_builder.catalogue import after_join, cache, kept_papers
from index_builder.catalogue.cache import HEAD_SIZE
from index_builder.catalogue.joins import scoring_cache
from index_builder.catalogue.papers import Catalogue
from index_builder.catalogue.source_cache import SourceCache
from index_builder.model import SourceProblem
from index_builder.sources.files import read_regular_file
from index_builder.text import render_cache

if TYPE_CHECKING:
    from index_builder.sources.types import SourceData

__all__ = [
    "CATALOGUE_VERSION",
    "HEAD_SIZE",
    "Catalogue",
    "keep_parsed",
    "load_catalogue",
    "read_head",
]

CATALOGUE_VERSION = 12
"""The version of what reading, merging and rendering make of the sources: bump it with any
change of the papers built from the same files (every cache is then rebuilt).
``tests/core/test_analysis_versions.py`` fails when the catalogue of a fixture changes
while this stays the same; a change of comments or speed rebuilds nothing."""


class _Blob(NamedTuple):
    """A source's path and bytes, and the SHA-256 of the bytes, computed once: the
    fingerprint, the merge's order, the source cache and the kept papers' key all use it
    (hashing 50 MB of feeds again for each cost 0.1 s at three venues)."""

    path: Path
    data: bytes
    digest: bytes


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
    signature = cache.signature_of(sources)
    blobs, read_problems = _read_sources(sources)
    fingerprint = _fingerprint(blobs, read_problems)
    loaded = tuple(blob.path for blob in blobs)
    cache_file = _cache_file(cache_dir) if cache_dir else None
    catalogue = cache.read_cache(cache_file, fingerprint) if cache_file else None
    if catalogue is not None and cache_file is not None:
        cache.refresh_head(sources, cache_file, catalogue, signature)
    if catalogue is None and cache_file is not None:  # a join by hand: no source merged again
        catalogue = after_join.catalogue_after(blobs, fingerprint, _fingerprint_with(read_problems))
        if catalogue is not None:
            kept_papers.carried_over(_kept_file(cache_file.parent), catalogue)
            cache.write_cache(cache_file, catalogue, signature)
    if catalogue is None:
        if on_cold is not None:
            on_cold()
        parsed = SourceCache(_sources_file(cache_dir)) if cache_dir else None
        with render_cache.using(cache_dir) as rendered, scoring_cache.using(cache_dir):
            kept = _kept_file(cache_dir) if cache_dir else None
            # Reading the sources makes and keeps some 100,000 objects as the merge does
            # (the feed's rows): collections midway walk them all and free nothing.
            with gc_paused():
                catalogue = _build(blobs, read_problems, fingerprint, parsed, kept)
            # Texts of the sources served parsed were not asked for: they stay cached.
            rendered.keep_loaded = parsed is not None and parsed.hits > 0
        if parsed is not None:
            parsed.save()
        if cache_file is not None:
            cache.write_cache(cache_file, catalogue, signature)
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
    return cache.read_head(sources, _cache_file(cache_dir))


def keep_parsed(cache_dir: Path, read: Sequence[tuple[Path, bytes, SourceData]]) -> None:
    """Keep files parsed elsewhere in ``cache_dir``'s source cache, each with the SHA-256 of
    its bytes and what :func:`~index_builder.sources.reading.read_source` gives for them
    (an update's stored feed: the next build does not parse its 20 MB again)."""
    SourceCache(_sources_file(cache_dir)).add(read)


def _cache_file(cache_dir: Path) -> Path:
    return cache_dir / f"catalogue-v{CATALOGUE_VERSION}.pickle"


def _kept_file(cache_dir: Path) -> Path:
    return cache_dir / f"tablepapers-v{CATALOGUE_VERSION}.pickle"


def _sources_file(cache_dir: Path) -> Path:
    return cache_dir / f"sources-v{CATALOGUE_VERSION}.pickle"


def _read_sources(sources: Sequence[Path]) -> tuple[list[_Blob], list[SourceProblem]]:
    """Each source's bytes, and a problem for each that cannot be read."""
    blobs: list[_Blob] = []
    read_problems: list[SourceProblem] = []
    for path in sources:
        try:
            data = read_regular_file(Path(path))
            blobs.append(_Blob(Path(path), data, hashlib.sha256(data).digest()))
        except OSError as exc:
            reason = exc.strerror or exc.__class__.__name__
            read_problems.append(SourceProblem(str(path), f"cannot read the file: {reason}"))
    return blobs, read_problems


def _skipped(path: Path, problems: Sequence[SourceProblem]) -> bool:
    """True when a fatal problem names ``path`` (however it was spelled)."""
    return any(p.fatal and _resolved(Path(p.path)) == _resolved(path) for p in problems)


def _build(
    blobs: Sequence[_Blob],
    read_problems: Sequence[SourceProblem],
    fingerprint: str,
    parsed_before: SourceCache | None = None,
    kept: Path | None = None,
) -> Catalogue:
    """Parse every readable file (in a canonical order) and merge them (the table papers of
    the last build kept in ``kept``, see :mod:`~index_builder.catalogue.kept_papers`)."""
    # Imported here: a warm load from the cache needs neither the readers nor
    # pylatexenc, and start-up time is measured.
    from index_builder.catalogue.id_claims import drop_claimed_ids
    from index_builder.catalogue.merge import build_papers
    from index_builder.catalogue.merge_records import without_gone_joins
    from index_builder.sources.reading import read_source
    from index_builder.sources.types import SourceError

    problems = list(read_problems)
    parsed: list[SourceData] = []
    read: list[tuple[Path, bytes, SourceData]] = []
    ordered = sorted(blobs, key=lambda b: (b.path.name, b.digest))
    for path, data, digest in ordered:
        result = parsed_before.get(path, digest) if parsed_before is not None else None
        if result is None:
            try:
                result = read_source(path, data)
            except SourceError as exc:
                problems.append(SourceProblem(str(path), str(exc)))
                continue
            # A file of joins by hand is read again in no time; kept, it would have the
            # whole source cache rewritten at each join.
            if parsed_before is not None and kept_papers.adds_papers(result):
                parsed_before.put(path, digest, result)
        problems.extend(result.problems)
        parsed.append(result)
        read.append((path, digest, result))
    problems.extend(without_gone_joins(parsed))
    # The merge makes some 100,000 objects and keeps them: a collection midway frees nothing.
    key = kept_papers.stage_key(read) if kept else b""
    with kept_papers.using(kept, key) as table_papers, gc_paused():
        built = build_papers(parsed)
    papers, clashes = drop_claimed_ids(built, parsed)
    catalogue = Catalogue(papers, [*problems, *clashes], fingerprint)
    if table_papers is not None:
        table_papers.went_into(catalogue)
    return catalogue


def _fingerprint(blobs: Sequence[_Blob], problems: Sequence[SourceProblem]) -> str:
    """SHA-256 over the version and every source (order-independent)."""
    digest = hashlib.sha256(f"catalogue v{CATALOGUE_VERSION}\n".encode())
    # Declared venues decide which feed files are a venue's and how its papers are cited.
    digest.update(f"venues {venues.declared_digest()}\n".encode())
    entries = sorted(
        [f"{_resolved(b.path)}\0{b.digest.hex()}" for b in blobs]
        + [f"{_resolved(Path(p.path))}\0unreadable" for p in problems]
    )
    for entry in entries:
        digest.update(entry.encode("utf-8", "surrogateescape") + b"\n")
    return digest.hexdigest()


def _fingerprint_with(problems: Sequence[SourceProblem]) -> Callable[[list[_Blob]], str]:
    """The fingerprint of other sources with the same unreadable ones."""
    return lambda blobs: _fingerprint(blobs, problems)


def _resolved(path: Path) -> str:
    """The absolute path, without failing on odd paths."""
    try:
        return str(path.resolve())
    except (OSError, RuntimeError):
        return str(path)
