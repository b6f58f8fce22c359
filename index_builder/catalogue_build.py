"""Merging parsed sources into papers: table rows, orals, abstracts, joins, ids, order.

The rules (see also :mod:`index_builder.catalogue`):

- One paper per Poster row, with the row's event id as its id. An Oral row with
  the same title marks that paper ``oral``; an Oral row without a poster becomes
  a paper of its own. When several tables hold an event id, the first table in
  name order gives the row.
- The same abstract (compared after NFKC, whitespace and case folding) in several
  places is one paper listing every ``FILE:POSITION``.
- A joined abstract's id (``a`` + 10 hex digits of the SHA-256 of its folded
  text) becomes an alias of its table paper, so a bookmark taken before the join
  still resolves; an unjoined abstract keeps that id and gets a derived title.
- Display order: papers with a session start time by that time, then title;
  then table papers without a time, by title; then abstract-only papers in file
  and position order.
"""

from __future__ import annotations

import hashlib
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from index_builder import text
from index_builder.derive import derive_title
from index_builder.join import AbstractMatcher, Join
from index_builder.joinscore import TitleIndex
from index_builder.model import Paper
from index_builder.sources import AbstractEntry, SourceData, TableRow

SPOTLIGHT = "accept (spotlight)"


def normalized(raw: str) -> str:
    """The text used to recognise the same abstract twice: NFKC, spaces collapsed, lowercase."""
    return " ".join(unicodedata.normalize("NFKC", raw).split()).lower()


def abstract_id(raw: str, length: int = 10) -> str:
    """The stable id of an abstract that stands alone: ``a`` + hex of its normalized text."""
    return "a" + hashlib.sha256(normalized(raw).encode("utf-8")).hexdigest()[:length]


@dataclass(slots=True)
class _TablePaper:
    """A table row being merged: its poster row, oral flag and the tables that list it."""

    row: TableRow
    tables: list[str]
    oral: bool = False


@dataclass(slots=True)
class _Abstract:
    """One distinct abstract and every place it appears."""

    raw: str
    entries: list[AbstractEntry] = field(default_factory=list)


def build_papers(parsed: Sequence[SourceData]) -> tuple[Paper, ...]:
    """Merge parsed sources (in a canonical order) into papers in display order."""
    table = _merge_tables(parsed)
    abstracts, files = _merge_abstracts(parsed)
    joins = _join(table, abstracts, files)
    joined = {j.row: a for a, j in joins.items()}
    papers = [
        _table_paper(item, abstracts[joined[i]] if i in joined else None)
        for i, item in enumerate(table)
    ]
    used = {p.id for p in papers}
    for index, item in enumerate(abstracts):
        if index not in joins:
            papers.append(_abstract_paper(item, used))
    papers.sort(key=_display_key)
    return tuple(papers)


def _merge_tables(parsed: Sequence[SourceData]) -> list[_TablePaper]:
    """One entry per poster (first table wins); orals marked, unmatched orals kept."""
    by_id: dict[int, _TablePaper] = {}
    orals: list[tuple[TableRow, str]] = []
    for data in parsed:
        name = data.path.name
        for row in data.rows:
            if row.event_type.lower() == "oral":
                orals.append((row, name))
            elif row.event_id in by_id:
                if name not in by_id[row.event_id].tables:
                    by_id[row.event_id].tables.append(name)
            else:
                by_id[row.event_id] = _TablePaper(row, [name])
    by_title = {normalized(p.row.title): p for p in by_id.values()}
    for row, name in orals:
        poster = by_title.get(normalized(row.title))
        if poster is not None:
            poster.oral = True
        elif row.event_id not in by_id:
            by_id[row.event_id] = _TablePaper(row, [name], oral=True)
            by_title[normalized(row.title)] = by_id[row.event_id]
    return list(by_id.values())


def _merge_abstracts(parsed: Sequence[SourceData]) -> tuple[list[_Abstract], list[list[int]]]:
    """Distinct abstracts, and for each list file the indices of its abstracts in order."""
    by_key: dict[str, int] = {}
    abstracts: list[_Abstract] = []
    files: list[list[int]] = []
    for data in parsed:
        order: list[int] = []
        for entry in data.abstracts:
            key = normalized(entry.text)
            if key not in by_key:
                by_key[key] = len(abstracts)
                abstracts.append(_Abstract(entry.text))
            index = by_key[key]
            abstracts[index].entries.append(entry)
            if index not in order:
                order.append(index)
        if order:
            files.append(order)
    return abstracts, files


def _join(
    table: Sequence[_TablePaper], abstracts: Sequence[_Abstract], files: Sequence[Sequence[int]]
) -> dict[int, Join]:
    """Join abstracts to table entries (indices into ``table``)."""
    if not table or not abstracts:
        return {}
    index = TitleIndex([item.row.title for item in table])
    matcher = AbstractMatcher(index, [a.raw for a in abstracts])
    return matcher.join([item.row.event_id for item in table], files)


def _sources(entries: Sequence[AbstractEntry]) -> tuple[str, ...]:
    """``FILE:POSITION`` for each entry, by file name then position."""
    ordered = sorted(entries, key=lambda e: (e.file, e.position))
    return tuple(dict.fromkeys(e.source for e in ordered))


def _table_paper(item: _TablePaper, abstract: _Abstract | None) -> Paper:
    """The paper of one table entry, with its joined abstract if any."""
    row = item.row
    raw = abstract.raw if abstract else ""
    return Paper(
        id=str(row.event_id),
        title=text.render(row.title),
        title_raw=row.title,
        authors=row.authors,
        institutions=row.institutions,
        abstract=text.render(raw) if raw else "",
        abstract_raw=raw,
        topic=row.topic,
        decision=row.decision,
        oral=item.oral or row.event_type.lower() == "oral",
        spotlight=row.decision.lower() == SPOTLIGHT,
        session=row.session,
        starts_at=row.starts_at,
        ends_at=row.ends_at,
        url=row.url,
        openreview_url=row.openreview_url,
        code_urls=text.extract_code_urls(raw) if raw else (),
        sources=tuple(item.tables) + (_sources(abstract.entries) if abstract else ()),
        aliases=(abstract_id(raw),) if abstract else (),
        event_id=row.event_id,
    )


def _abstract_paper(item: _Abstract, used: set[str]) -> Paper:
    """A paper made of an abstract alone, with a title derived from its text."""
    paper_id = abstract_id(item.raw)
    if paper_id in used:  # a 40-bit prefix collision: lengthen rather than merge
        paper_id = abstract_id(item.raw, 20)
    used.add(paper_id)
    display = text.render(item.raw)
    title = derive_title(display)
    return Paper(
        id=paper_id,
        title=title,
        title_raw=title,
        title_derived=True,
        abstract=display,
        abstract_raw=item.raw,
        code_urls=text.extract_code_urls(item.raw),
        sources=_sources(item.entries),
    )


def _start_time(paper: Paper) -> float | None:
    """The session start as a POSIX timestamp, or ``None`` when absent or unreadable."""
    if not paper.starts_at:
        return None
    try:
        return datetime.fromisoformat(paper.starts_at).timestamp()
    except ValueError:
        return None


def _display_key(paper: Paper) -> tuple[int, float, str, int, str]:
    """Timed papers by time, then untimed table papers, then abstract-only papers."""
    if paper.event_id is None:
        file, _, position = paper.sources[0].rpartition(":") if paper.sources else ("", "", "0")
        return (2, 0.0, file, int(position) if position.isdigit() else 0, paper.id)
    start = _start_time(paper)
    title = paper.title.casefold()
    if start is None:
        return (1, 0.0, title, 0, paper.id)
    return (0, start, title, 0, paper.id)
