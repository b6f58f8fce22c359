"""A join by hand applied to the catalogue before it: no source merged again.

``paperscope join`` and the app's ``J`` read the catalogue before the join (to plan it),
append one line to ``joins.jsonl`` and build the catalogue again
(:func:`index_builder.search.changed_papers.rebuilt_after`, which offers the catalogue
before: :func:`index_builder.catalogue.kept_papers.offer`). A build from the sources
unpickles every parsed source and merges them all (0.36 s of CPU of a join's 0.83 s on the
bundled home), though the join moves one abstract from "alone" to one row's paper.

:func:`catalogue_after` makes the catalogue after such a join from the one before: the
lone abstract's paper leaves, the row's paper gets the abstract, its places and its id as
an alias (what :func:`index_builder.catalogue.merge.build_papers` gives it), every other
paper is the same object. It applies only when it can prove that the build would give
exactly that, and returns ``None`` otherwise (the caller builds from the sources):

- the sources are the offered catalogue's, but for one line appended to the joins file:
  its fingerprint is the one of the current sources with that line taken off;
- the file's new line is a join by hand (no take-apart) whose reading adds no problem,
  with no id, code link or event of its own;
- the row is a table paper of that event id with no abstract, no listed abstract, no
  record naming it (each of its sources a table's) and no other lone abstract hinting at it;
- the abstract is a lone paper with that very text, one place in an abstract list (no
  record holds it), a derived title, no alias (no twin merged into it), its short id
  (no collision), no other paper's id lengthened by it, no clash named on its id, and no
  lone abstract that might be its longer twin (which would follow it onto the row).

The catalogue is the one a build from nothing gives, field for field
(``tests/core/catalogue/test_after_join.py``: random chains of joins, take-aparts and
undos on a cut of the table, two joins one after the other on the whole bundled table, and
each case of the list above, against builds from nothing).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from index_builder.catalogue import kept_papers
from index_builder.catalogue.papers import Catalogue
from index_builder.model import Paper
from index_builder.paths import JOINS_FILE

if TYPE_CHECKING:
    from index_builder.sources.records import PaperRecord

LIST_MAX_BYTES = 1 << 20
"""An abstract's list read again to check it is a list, not records: a larger file is
left to the build (reading a user's 20 MB of records would cost more than it saves)."""


class Blob(Protocol):
    """A source as the load reads it: its path, bytes and their SHA-256."""

    @property
    def path(self) -> Path:
        """The source's path."""

    @property
    def data(self) -> bytes:
        """Its bytes."""

    @property
    def digest(self) -> bytes:
        """The SHA-256 of its bytes."""


class _Source(NamedTuple):
    path: Path
    data: bytes
    digest: bytes


def catalogue_after(
    blobs: Sequence[Blob], fingerprint: str, fingerprint_of: Callable[[list[Any]], str]
) -> Catalogue | None:
    """The catalogue of the sources ``blobs`` (fingerprint ``fingerprint``) made from the
    offered catalogue when they differ from its sources by one join by hand; else None.

    ``fingerprint_of`` gives the fingerprint of other sources (blobs of the same shape)."""
    before = kept_papers.offered()
    joins = [b for b in blobs if b.path.name == JOINS_FILE]
    if before is None or not before.complete or before.fingerprint == fingerprint:
        return None
    if len(joins) != 1:
        return None
    lines = joins[0].data.split(b"\n")
    if len(lines) < 2 or lines[-1] or not lines[-2].strip():
        return None
    old = b"".join(line + b"\n" for line in lines[:-2])
    others = [b for b in blobs if b is not joins[0]]
    was = others if not old else [*others, _Source(joins[0].path, old, _sha(old))]
    if fingerprint_of(was) != before.fingerprint:
        return None
    record = _new_join(joins[0], old)  # the readers imported only now: most builds are no join
    if record is None:
        return None
    papers = _papers_after(before, record, blobs)
    return None if papers is None else Catalogue(papers, before.problems, fingerprint)


def _sha(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


def _new_join(joins: Blob, old: bytes) -> PaperRecord | None:
    """The join by hand of the file's last line, when the file read with it states what it
    stated without it, and that join, with no problem of its own; else None."""
    from index_builder.sources.reading import read_source
    from index_builder.sources.types import SourceError

    try:
        now = read_source(joins.path, joins.data)
        was = read_source(joins.path, old) if old else None
    except SourceError:
        return None
    records, problems = (was.records, was.problems) if was is not None else ([], [])
    if len(now.records) != len(records) + 1 or now.records[:-1] != records:
        return None
    record = now.records[-1]
    stated = record.paper
    if now.problems != problems or not record.hand or stated.event_id is None:
        return None
    if stated.aliases or stated.code_urls or stated.events or stated.oral:
        return None
    return record


def _papers_after(
    before: Catalogue, record: PaperRecord, blobs: Sequence[Blob]
) -> list[Paper] | None:
    """The papers after the join of ``record``: the row's paper made again, the lone
    abstract's paper gone, every other the same object; None when that is not proven."""
    row, lone = before.get(str(record.paper.event_id)), _lone(before, record.paper.abstract_raw)
    if row is None or lone is None or not _bare_row(before, row, record, lone):
        return None
    place = _list_place(lone, blobs)
    if place is None:
        return None
    joined = _joined_row(row, lone, [place, (record.file, record.position)])
    if joined is None:
        return None
    return [joined if p is row else p for p in before.papers if p is not lone]


def _bare_row(before: Catalogue, row: Paper, record: PaperRecord, lone: Paper) -> bool:
    """True for a table paper of the record's event id with no abstract, no listed
    abstract, no record naming it, no code link, and no lone abstract but ``lone``
    hinting at it (a hint at a joined row is dropped)."""
    from index_builder.catalogue.joins.by_hand import listed_abstract_ids

    if row.event_id != record.paper.event_id or ":" in row.id:
        return False
    if row.abstract_raw or row.abstract or row.code_urls or listed_abstract_ids(row):
        return False
    if any(":" in source for source in row.sources):  # a list's or a record's place
        return False
    lone_papers = (p for p in before.papers if p.event_id is None and p is not lone)
    return not any(row.id in p.possibly_same_as for p in lone_papers)


def _lone(before: Catalogue, text: str) -> Paper | None:
    """The lone abstract's paper of ``text``: one place, a derived title, no alias, its
    short id claimed by no other paper or problem, and no longer twin; else None."""
    from index_builder.sources.records import normalized

    found = [p for p in before.papers if p.event_id is None and p.abstract_raw == text]
    if len(found) != 1:
        return None
    lone = found[0]
    if not lone.title_derived or lone.aliases or len(lone.sources) != 1:
        return None
    if len(lone.id) != 11 or not lone.id.startswith("a"):  # a "b" id, or lengthened
        return None
    if any(p.id.startswith(lone.id) and p is not lone for p in before.papers):
        return None  # an id lengthened because of this one would get it back
    if any(lone.id in p.aliases for p in before.papers):
        return None
    if any(lone.id in problem.message for problem in before.problems):
        return None  # a record declares the id: who keeps it is the build's to say
    bare = " " + normalized(text)
    for paper in before.papers:
        others = paper.event_id is None and paper is not lone and paper.abstract_raw
        if others and normalized(paper.abstract_raw).endswith(bare):
            return None  # its longer twin may stand alone; joined, the pair would move
    return lone


def _list_place(lone: Paper, blobs: Sequence[Blob]) -> tuple[str, int] | None:
    """The abstract's one place ``(file, position)`` when it is in an abstract list (a
    record holding it would give the row its fields); else None."""
    from index_builder.sources.reading import read_source
    from index_builder.sources.types import SourceError

    name, _, number = lone.sources[0].rpartition(":")
    files = [b for b in blobs if b.path.name == name]
    if len(files) != 1 or len(files[0].data) > LIST_MAX_BYTES or not number.isdigit():
        return None
    try:
        parsed = read_source(files[0].path, files[0].data)
    except SourceError:
        return None
    position = int(number)
    if parsed.records or parsed.rows or parsed.official:
        return None
    if not any(e.position == position and e.text == lone.abstract_raw for e in parsed.abstracts):
        return None
    return name, position


def _joined_row(row: Paper, lone: Paper, places: list[tuple[str, int]]) -> Paper | None:
    """The row's paper with the lone abstract joined, as the merge makes it: the abstract
    without its author line, its code links, the places (by file, then position) after
    the tables, its id as the first alias."""
    from index_builder.catalogue.joins.score import without_author_line

    raw = without_author_line(lone.abstract_raw, row.authors)
    if raw == lone.abstract_raw:
        abstract, code = lone.abstract, lone.code_urls
    else:
        from index_builder.text import render

        abstract, code = render.render(raw), tuple(dict.fromkeys(render.extract_code_urls(raw)))
    if lone.id == row.id or lone.id in row.aliases:
        return None
    placed = [f"{file}:{position}" for file, position in sorted(places)]
    return replace(
        row,
        abstract=abstract,
        abstract_raw=raw,
        code_urls=code,
        sources=tuple(dict.fromkeys([*row.sources, *placed])),
        aliases=(lone.id, *row.aliases),
    )
