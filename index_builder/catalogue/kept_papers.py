"""The table's papers of the last build, kept: a join by hand makes again only the rows
whose inputs changed.

Making each table row's paper (:func:`index_builder.catalogue.merge._table_paper`: its
rendered title and abstract, sources, aliases and events) was the largest part of a
catalogue build once the sources came parsed from the source cache. A row's paper is a
function of its table entry (the rows, talks and tables of the paper), which the sources
other than ``joins.jsonl`` decide, and of what the merge hands it: the joined abstract
and its places, the paper's other abstracts, the records naming it and the official
abstract. A join by hand, a take-apart or an undo changes those for a few rows.

Inside ``with using(file, key):`` the merge asks :func:`kept` for the papers of the last
build. ``key`` (:func:`stage_key`) digests every source that adds rows, abstracts or
records of its own (a file of joins by hand alone adds none), the declared venues and
this code's files: the table entries are the same exactly when it is. Each row's paper is
then served when the inputs the merge hands it equal the stored ones (compared whole,
not by a hash), else made again. The file ``tablepapers-v{CATALOGUE_VERSION}.pickle`` is
written again when the key changed or many rows were made again
(``tests/core/catalogue/test_kept_papers.py``: through the cache equals from nothing).
The papers are stored pickled apart from the key, so a file of another key (a feed
changed) is not unpickled in vain. A damaged file is ignored; one that cannot be written
is no error.

The papers a build served or made are most often in the catalogue it built, unchanged:
:meth:`KeptPapers.went_into` notes beside the file (``.into.pickle``) where each row's
paper stands in that catalogue, by its fingerprint (the last two catalogues of the same
stored papers). A join by hand has just read that catalogue to plan the join: offered
with :func:`offer`, its papers serve the rows (the very objects, equal to the stored ones)
and the file's papers are not unpickled, only the rows' inputs (which are stored apart
from the papers). A row neither served so nor made again unpickles its chunk of
:data:`CHUNK` papers alone.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import pickle
from collections.abc import Iterator, Sequence
from contextvars import ContextVar
from pathlib import Path
from typing import TYPE_CHECKING, Any

from index_builder.atomic import gc_paused, read_pickle, write_pickle
from index_builder.venues import declared_digest

if TYPE_CHECKING:
    from index_builder.catalogue.papers import Catalogue
    from index_builder.model import Paper
    from index_builder.sources.types import SourceData

_MAGIC = "paperscope-kept-table-papers v3"
_INTO = "paperscope-kept-table-papers-into v1"
INTO_KEPT = 2
"""Catalogues whose places are noted for the same stored papers: a join's and the one
before it, which its undo brings back."""
REWRITE_AFTER = 50
"""Rows made again before the file is rewritten: writing 6,000 papers costs more than
making a few dozen again on each build (a join by hand changes one or two rows)."""
CHUNK = 256
"""Papers pickled together: a row served by neither the offered catalogue nor the rows
made again unpickles its chunk alone."""
_KEPT: ContextVar[KeptPapers | None] = ContextVar("kept_table_papers", default=None)
_OFFERED: ContextVar[Catalogue | None] = ContextVar("kept_papers_offered", default=None)
_PACKAGES = ("catalogue", "sources", "text")
"""The code the table papers are made by (with ``model.py``): any change of it is a new key."""


class KeptPapers:
    """The stored table papers for one key, and the ones this build made."""

    def __init__(self, file: Path, key: bytes) -> None:
        self.file, self.key = file, key
        self.stamp, self.inputs, self._pickled = _load(file, key)
        self._chunks: dict[int, list[Paper] | None] = {}
        self._offered = _offered_papers(file, self.stamp, len(self.inputs))
        self.made: list[tuple[Any, Paper]] = []
        self.served: list[bool] = []
        self.again = 0
        self.rewritten = False

    @property
    def stored(self) -> list[tuple[Any, Paper]]:
        """Every stored row's inputs and paper (the papers unpickled)."""
        papers = [p for n in range(len(self.inputs)) if (p := self._stored_paper(n)) is not None]
        whole = len(papers) == len(self.inputs)
        return list(zip(self.inputs, papers, strict=True)) if whole else []

    def paper(self, inputs: Any) -> Paper | None:
        """The stored paper of the next row when ``inputs`` equal the stored inputs."""
        index = len(self.made)
        if index < len(self.inputs) and self.inputs[index] == inputs:
            paper = self._offered[index] if self._offered else None
            if paper is None:
                paper = self._stored_paper(index)
            if paper is not None:
                self.made.append((inputs, paper))
                self.served.append(True)
                return paper
        self.again += 1
        return None

    def add(self, inputs: Any, paper: Paper) -> None:
        """The paper made again for the row whose :meth:`paper` found nothing."""
        self.made.append((inputs, paper))
        self.served.append(False)

    def save(self) -> None:
        """Write this build's papers when the key or enough rows changed."""
        if len(self.made) != len(self.inputs) or self.again >= REWRITE_AFTER:
            with gc_paused():  # a short-lived tuple per object, as in write_pickle
                inputs = pickle.dumps([i for i, _ in self.made], pickle.HIGHEST_PROTOCOL)
                made = [p for _, p in self.made]
                papers = [
                    pickle.dumps(made[n : n + CHUNK], pickle.HIGHEST_PROTOCOL)
                    for n in range(0, len(made), CHUNK)
                ]
            stamp = os.urandom(16)
            self.rewritten = write_pickle(self.file, (_MAGIC, self.key, stamp, inputs, papers))
            if self.rewritten:
                self.stamp = stamp

    def went_into(self, catalogue: Catalogue) -> None:
        """Note where each row's paper stands in ``catalogue`` (the one this build made),
        for the rows whose paper is the stored one (each row's, when the file was just
        written): a later build offered that catalogue is served from it."""
        if not self.made or (not self.rewritten and len(self.made) != len(self.inputs)):
            return
        at = _places(catalogue)
        places = [
            at.get(id(paper), -1) if self.rewritten or served else -1
            for (_, paper), served in zip(self.made, self.served, strict=True)
        ]
        noted = {} if self.rewritten else _read_into(self.file, self.stamp)
        _write_into(self.file, self.stamp, noted, catalogue.fingerprint, places)

    def _stored_paper(self, index: int) -> Paper | None:
        """The stored paper of row ``index``, its chunk unpickled when first asked for;
        None when damaged (the row is then made again)."""
        chunk = index // CHUNK
        if chunk not in self._chunks:
            self._chunks[chunk] = self._stored_chunk(chunk)
        papers = self._chunks[chunk]
        return papers[index % CHUNK] if papers else None

    def _stored_chunk(self, chunk: int) -> list[Paper] | None:
        """The stored papers of rows ``chunk * CHUNK`` on, unpickled; None when damaged."""
        rows = min(CHUNK, len(self.inputs) - chunk * CHUNK)
        try:
            papers = read_pickle(self._pickled[chunk])
        except Exception:  # a damaged file is only a slower build
            return None
        return papers if isinstance(papers, list) and len(papers) == rows else None


@contextlib.contextmanager
def using(file: Path | None, key: bytes) -> Iterator[KeptPapers | None]:
    """Serve the kept papers from ``file`` (nothing is kept when ``None``); save on success.
    The block is given them (to note where they went: :meth:`KeptPapers.went_into`)."""
    kept = KeptPapers(file, key) if file is not None else None
    token = _KEPT.set(kept)
    try:
        yield kept
    finally:
        _KEPT.reset(token)
    if kept is not None:
        kept.save()


@contextlib.contextmanager
def offer(catalogue: Catalogue) -> Iterator[None]:
    """In the block, builds serve the rows kept for ``catalogue`` (read before the change
    by the same process) from its papers instead of unpickling the stored ones."""
    token = _OFFERED.set(catalogue)
    try:
        yield
    finally:
        _OFFERED.reset(token)


def offered() -> Catalogue | None:
    """The catalogue offered to the build under way (:func:`offer`), if any: a join by
    hand may make the catalogue after it from that one
    (:mod:`~index_builder.catalogue.after_join`)."""
    return _OFFERED.get()


def carried_over(file: Path, after: Catalogue) -> None:
    """Note where the stored papers stand in ``after``, a catalogue made from the offered
    one without a build (:mod:`~index_builder.catalogue.after_join`): each at its place in
    ``after`` when it is there as the same object (none where it was made again), so a
    later build offered ``after`` is served from it as from a built one."""
    before = _OFFERED.get()
    stamp, noted = _noted(file)
    places = noted.get(before.fingerprint) if before is not None else None
    if before is None or not isinstance(places, list):
        return
    at = _places(after)
    papers = before.papers
    moved = [
        at.get(id(papers[n]), -1) if isinstance(n, int) and 0 <= n < len(papers) else -1
        for n in places
    ]
    _write_into(file, stamp, noted, after.fingerprint, moved)


def kept() -> KeptPapers | None:
    """The kept papers of the build under way, if any."""
    return _KEPT.get()


def stage_key(sources: Sequence[tuple[Path, bytes, SourceData]]) -> bytes:
    """A digest of what decides the table entries: each source (in the merge's order) that
    adds rows, abstracts or records other than joins by hand, the venues, the code.

    ``sources`` are each source's path, the SHA-256 of its bytes and what reading it gave."""
    digest = hashlib.sha256(f"{_MAGIC}\nvenues {declared_digest()}\n".encode())
    for path in _code_files():
        digest.update(path.read_bytes())
    for path, sha, parsed in sources:
        if adds_papers(parsed):
            where = str(path).encode("utf-8", "surrogateescape")
            digest.update(where + b"\0" + sha)
    return digest.digest()


def adds_papers(parsed: SourceData) -> bool:
    """True for a source that adds rows, abstracts or records of its own: any but a file
    of joins and take-aparts by hand alone (``joins.jsonl``) or an empty one."""
    return bool(parsed.rows or parsed.abstracts or parsed.official) or not _by_hand_only(parsed)


def _by_hand_only(parsed: SourceData) -> bool:
    """True for a file of joins and take-aparts by hand alone (``joins.jsonl``)."""
    return all(record.hand or record.apart for record in parsed.records)


def _code_files() -> list[Path]:
    root = Path(__file__).resolve().parent.parent
    files = [root / "model.py"]
    for package in _PACKAGES:
        files.extend(sorted((root / package).rglob("*.py")))
    return files


def _load(file: Path, key: bytes) -> tuple[bytes, list[Any], list[bytes]]:
    """The stamp, the rows' inputs and the pickled papers (by chunks of :data:`CHUNK`)
    stored for ``key``; none when missing, damaged or made for another key."""
    try:
        magic, stored_key, stamp, inputs, papers = read_pickle(file)
        # The 6,000 rows (22 MB at three venues) are unpickled only for this key.
        if magic != _MAGIC or stored_key != key or not isinstance(papers, list):
            return b"", [], []
        made = read_pickle(inputs)
    except Exception:  # a damaged file is only a slower build
        return b"", [], []
    whole = isinstance(made, list) and made and len(papers) == -(-len(made) // CHUNK)
    return (stamp, made, papers) if whole else (b"", [], [])


def _into_file(file: Path) -> Path:
    return file.with_suffix(".into.pickle")


def _noted(file: Path) -> tuple[bytes, dict[str, list[int]]]:
    """The note's stamp and its places by catalogue fingerprint; ``(b"", {})`` if none."""
    try:
        magic, stamp, noted = read_pickle(_into_file(file))
    except Exception:  # none noted, or damaged: the stored papers serve
        return b"", {}
    ok = magic == _INTO and isinstance(stamp, bytes) and isinstance(noted, dict)
    return (stamp, dict(noted)) if ok else (b"", {})


def _read_into(file: Path, stamp: bytes) -> dict[str, list[int]]:
    """The places noted for the papers stored with ``stamp``, by catalogue fingerprint."""
    noted_stamp, noted = _noted(file)
    return noted if stamp and noted_stamp == stamp else {}


def _write_into(
    file: Path, stamp: bytes, noted: dict[str, list[int]], fingerprint: str, places: list[int]
) -> None:
    """Note ``places`` for ``fingerprint``, the newest of :data:`INTO_KEPT` catalogues."""
    noted.pop(fingerprint, None)
    noted[fingerprint] = places
    kept = dict(list(noted.items())[-INTO_KEPT:])
    write_pickle(_into_file(file), (_INTO, stamp, kept))


def _places(catalogue: Catalogue) -> dict[int, int]:
    """Each paper's place in ``catalogue``, by the paper object's identity."""
    return {id(paper): n for n, paper in enumerate(catalogue.papers)}


def _offered_papers(file: Path, stamp: bytes, rows: int) -> list[Paper | None] | None:
    """Each row's paper in the offered catalogue (None where it is not noted there); None
    when no catalogue is offered or none was noted for it."""
    offered = _OFFERED.get()
    if offered is None or not stamp:
        return None
    places = _read_into(file, stamp).get(offered.fingerprint)
    papers = offered.papers
    if not isinstance(places, list) or len(places) != rows:
        return None
    if not all(isinstance(n, int) and -1 <= n < len(papers) for n in places):
        return None
    return [papers[n] if n >= 0 else None for n in places]
