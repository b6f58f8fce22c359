"""Which papers a change touched: each paper's digest, and the papers two catalogues differ
in, noted by the command that made the change for the next change in place.

A change in place (:mod:`~index_builder.search.in_place`) compares every paper of the
catalogue with the index's manifest by :func:`digest`: 6,630 digests, 40 ms of the search
after a join by hand. The join command holds both catalogues, the one before the join and
the one after, whose table papers are mostly the very same objects (served from the one
before, :func:`index_builder.catalogue.kept_papers.offer`). :func:`note_changes` writes the
ids in which they differ (the same paper object is the same paper; any other pair is
compared by :func:`digest`) under both fingerprints, beside the index folder (not when
most papers are copies, as when the catalogue after came from its cache: the note a
join made of the same two catalogues before then stays);
:func:`differing` hands them to the change in place when the index is the one catalogue's
and the papers the other's (either way round: an undo's change is the join's, reversed).
The manifest's entries of every other paper are then kept without a digest.
:func:`rebuilt_after` is the one way a change by hand builds its catalogue: ``paperscope
join`` and the app's ``J`` (a join, a take-apart, an undo) both call it. Importing this
module imports no Whoosh (the join command's process does not need it).
"""

from __future__ import annotations

import hashlib
import marshal
from collections.abc import Callable, Sequence
from dataclasses import fields
from pathlib import Path
from typing import TYPE_CHECKING

from index_builder.atomic import read_pickle, write_pickle
from index_builder.catalogue import kept_papers
from index_builder.model import Event, Paper, field_getter

if TYPE_CHECKING:
    from index_builder.catalogue.papers import Catalogue

NOTE = "paperscope-changed-papers.pickle"
"""The note of :func:`note_changes`, in the folder that holds the index folder."""
_MAGIC = "paperscope-changed-papers v1"
_PAPER_FIELDS = field_getter(Paper)
_EVENT_FIELDS = field_getter(Event)
_EVENTS = [f.name for f in fields(Paper)].index("events")


def digest(paper: Paper) -> bytes:
    """A digest of every field of ``paper``: the same for equal papers.

    The field values (the events' as tuples) are serialized by ``marshal`` in its
    version 2, which has no references between objects, so equal values give equal bytes
    whatever objects hold them; half the time the paper's ``repr`` took (0.1 s of the
    search after a join). A value ``marshal`` cannot write falls back to the ``repr``."""
    values = _PAPER_FIELDS(paper)
    events = tuple(map(_EVENT_FIELDS, values[_EVENTS]))
    try:
        data = marshal.dumps((values[:_EVENTS], events, values[_EVENTS + 1 :]), 2)
    except ValueError:  # a type of value marshal does not know (no field has one today)
        data = repr(paper).encode("utf-8", "surrogatepass")
    return hashlib.blake2b(data, digest_size=16).digest()


def rebuilt_after(index_dir: Path, before: Catalogue, build: Callable[[], Catalogue]) -> Catalogue:
    """The catalogue ``build`` makes after a change of the sources by hand, ``before`` the
    catalogue read before it (in this process): the kept table papers are served from
    ``before``'s papers (:func:`~index_builder.catalogue.kept_papers.offer`, none of the
    kept file unpickled), and the papers the two differ in are noted beside ``index_dir``
    (:func:`note_changes`), so the next change in place digests those alone."""
    with kept_papers.offer(before):
        after = build()
    note_changes(index_dir, (before.fingerprint, before.papers), (after.fingerprint, after.papers))
    return after


def note_changes(
    index_dir: Path, before: tuple[str, Sequence[Paper]], after: tuple[str, Sequence[Paper]]
) -> None:
    """Note beside ``index_dir`` the ids of the papers in which two catalogues differ
    (``(fingerprint, papers)`` each): in one and not the other, or with other fields."""
    (first, old), (second, new) = before, after
    was = {paper.id: paper for paper in old}
    if first == second or len(was) != len(old):
        return  # no change, or ids that are not one paper each: nothing is noted
    if 2 * sum(was.get(paper.id) is paper for paper in new) < len(new):
        return  # mostly copies (read from a cache, not built from these): digesting them
        # all would cost the search's comparison twice over; a note made before stays
    differ: set[str] = set()
    for paper in new:
        other = was.pop(paper.id, None)
        if other is not paper and (other is None or digest(other) != digest(paper)):
            differ.add(paper.id)
    differ.update(was)
    write_pickle(index_dir.parent / NOTE, (_MAGIC, sorted((first, second)), sorted(differ)))


def differing(index_dir: Path, indexed: object, wanted: str) -> frozenset[str] | None:
    """The ids noted (:func:`note_changes`) as differing between the catalogue the index in
    ``index_dir`` was made for (fingerprint ``indexed``) and the ``wanted`` one; None when
    no note names these two catalogues (every paper is then compared by its digest)."""
    try:
        magic, pair, ids = read_pickle(index_dir.parent / NOTE)
    except Exception:  # no note, or a damaged one: every paper is compared
        return None
    if magic != _MAGIC or pair != sorted((str(indexed), wanted)) or indexed == wanted:
        return None
    return frozenset(ids) if all(isinstance(i, str) for i in ids) else None
