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
The papers are pickled apart, as bytes after the key: a file made for another key (after
an update, a changed source) is read but its papers are not unpickled. A damaged file is
ignored; one that cannot be written is no error.
"""

from __future__ import annotations

import contextlib
import hashlib
import pickle
from collections.abc import Iterator, Sequence
from contextvars import ContextVar
from pathlib import Path
from typing import TYPE_CHECKING, Any

from index_builder.atomic import gc_paused, read_pickle, write_pickle
from index_builder.venues import declared_digest

if TYPE_CHECKING:
    from index_builder.model import Paper
    from index_builder.sources.types import SourceData

_MAGIC = "paperscope-kept-table-papers"
REWRITE_AFTER = 50
"""Rows made again before the file is rewritten: writing 6,000 papers costs more than
making a few dozen again on each build (a join by hand changes one or two rows)."""
_KEPT: ContextVar[KeptPapers | None] = ContextVar("kept_table_papers", default=None)
_PACKAGES = ("catalogue", "sources", "text")
"""The code the table papers are made by (with ``model.py``): any change of it is a new key."""


class KeptPapers:
    """The stored table papers for one key, and the ones this build made."""

    def __init__(self, file: Path, key: bytes) -> None:
        self.file, self.key = file, key
        self.stored = _load(file, key)
        self.made: list[tuple[Any, Paper]] = []
        self.again = 0

    def paper(self, inputs: Any) -> Paper | None:
        """The stored paper of the next row when ``inputs`` equal the stored inputs."""
        index = len(self.made)
        if index < len(self.stored):
            stored_inputs, paper = self.stored[index]
            if stored_inputs == inputs:
                self.made.append((inputs, paper))
                return paper
        self.again += 1
        return None

    def add(self, inputs: Any, paper: Paper) -> None:
        """The paper made again for the row whose :meth:`paper` found nothing."""
        self.made.append((inputs, paper))

    def save(self) -> None:
        """Write this build's papers when the key or enough rows changed."""
        if len(self.made) != len(self.stored) or self.again >= REWRITE_AFTER:
            with gc_paused():
                papers = pickle.dumps(self.made, protocol=pickle.HIGHEST_PROTOCOL)
            write_pickle(self.file, (_MAGIC, self.key, papers))


@contextlib.contextmanager
def using(file: Path | None, key: bytes) -> Iterator[None]:
    """Serve the kept papers from ``file`` (nothing is kept when ``None``); save on success."""
    kept = KeptPapers(file, key) if file is not None else None
    token = _KEPT.set(kept)
    try:
        yield
    finally:
        _KEPT.reset(token)
    if kept is not None:
        kept.save()


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


def _load(file: Path, key: bytes) -> list[tuple[Any, Paper]]:
    """The papers stored for ``key``; none when missing, damaged or made for another key
    (whose papers are not unpickled)."""
    try:
        magic, stored_key, papers = read_pickle(file)
        if magic != _MAGIC or stored_key != key or not isinstance(papers, bytes):
            return []
        made = read_pickle(papers)
    except Exception:  # a damaged file is only a slower build
        return []
    return made if isinstance(made, list) else []
