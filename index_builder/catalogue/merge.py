"""Merging parsed sources into papers: table rows, orals, abstracts, joins, ids, order.

The rules (see also :mod:`index_builder.catalogue.load`):

- One paper per paper: rows with the same feed ``uid`` or OpenReview forum id, and
  talks (orals, spotlights) tied to a poster by ``related_events_ids`` or their title,
  are one paper whose events they are. Its id is its Poster row's event id (the lowest
  of several); every other row's id is an alias (``show`` and bookmarks find it). A talk
  without a poster becomes a paper of its own. When several tables hold an event id,
  the first table in name order gives the row.
- The same abstract (compared after NFKC, whitespace and case folding) in several
  places is one paper listing every ``FILE:POSITION``.
- A joined abstract's id (``a`` + 10 hex digits of the SHA-256 of its folded
  text) becomes an alias of its table paper, so a bookmark taken before the join
  still resolves; an unjoined abstract keeps that id and gets a derived title
  (or the real title of a record that holds it).
- Records of JSON, JSONL and BibTeX files join by event id or exact title, or
  stand alone (see :mod:`index_builder.catalogue.merge_records`).
- Display order: papers with a session start time by that time, then title;
  then table papers without a time, by title; then abstract-only papers in file
  and position order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from index_builder.catalogue import kept_papers
from index_builder.catalogue.derived_title import derive_title
from index_builder.catalogue.joins.place import place_abstracts
from index_builder.catalogue.joins.score import without_author_line
from index_builder.catalogue.merge_records import (
    RecordMerge,
    add_title_only,
    aliases,
    record_code,
    record_ids,
    titled_paper,
)
from index_builder.catalogue.official import (
    official_abstracts,
    official_of,
    paper_id,
    venue_name,
)
from index_builder.catalogue.order import display_key as _display_key
from index_builder.catalogue.paper_rows import TablePaper, merge_tables
from index_builder.model import Event, Paper, replaced
from index_builder.sources.records import PaperRecord, abstract_id, normalized
from index_builder.sources.row_keys import is_talk, oral_row
from index_builder.sources.types import AbstractEntry, SourceData, TableRow
from index_builder.text import render as text

__all__ = ["abstract_id", "build_papers", "normalized"]

SPOTLIGHT = "accept (spotlight)"
ORAL = "accept (oral)"


@dataclass(slots=True)
class _Abstract:
    """One distinct abstract and every place it appears."""

    raw: str
    entries: list[AbstractEntry] = field(default_factory=list)
    rank: int = -1
    """Where its first place not written by a join by hand comes among all such places
    (-1: none): the order the automatic join is handed the abstracts in."""


def build_papers(parsed: Sequence[SourceData]) -> tuple[Paper, ...]:
    """Merge parsed sources (in a canonical order) into papers in display order."""
    apart = {
        (i, r.paper.event_id) for d in parsed for r in d.records if r.apart for i in r.paper.aliases
    }
    parsed = [replace(d, records=[r for r in d.records if not r.apart]) for d in parsed]
    merge = RecordMerge(parsed)
    table = merge_tables(parsed, merge.rows())
    abstracts, files = _merge_abstracts(parsed, merge)
    known = official_abstracts(parsed)
    official = [official_of(item.row, item.talks, known) for item in table]
    joins, possible, twins = place_abstracts(table, abstracts, files, merge, official, apart)
    joined = {row: a for a, row in joins.items()}
    papers = _table_papers(table, abstracts, joined, merge, official)
    used = {p.id for p in papers}
    alone = {i for i in range(len(abstracts)) if i not in joins and i not in merge.folded}
    paired = {
        bare: longer
        for longer, bare in twins.items()
        if {bare, longer} <= alone and not merge.records_of(None, longer)
    }
    for index in sorted(alone - set(paired.values())):
        item = abstracts[index]
        held = merge.records_of(None, index)
        paper = _abstract_paper(item, used, held, merge.paper_id(item.raw, held))
        if index in paired:  # one paper, shown bare, the longer twin's places and id kept
            twin = abstracts[paired[index]]
            paper = replace(
                paper,
                sources=tuple(dict.fromkeys([*paper.sources, *_sources(twin.entries)])),
                aliases=(*paper.aliases, abstract_id(twin.raw)),
            )
        row = possible.get(index)
        if row is not None and row not in joined:
            paper = replace(paper, possibly_same_as=(papers[row].id,))
        papers.append(paper)
    add_title_only(papers, merge, used)
    papers.sort(key=_display_key)
    return tuple(papers)


def _table_papers(
    table: Sequence[TablePaper],
    abstracts: Sequence[_Abstract],
    joined: dict[int, int],
    merge: RecordMerge,
    official: Sequence[tuple[str, str]],
) -> list[Paper]:
    """Each table entry's paper: kept from the last build when its inputs are the same
    (:mod:`~index_builder.catalogue.kept_papers`), else made."""
    kept = kept_papers.kept()
    papers: list[Paper] = []
    for i, item in enumerate(table):
        abstract = abstracts[joined[i]] if i in joined else None
        records = merge.records_of(i, joined.get(i))
        others = [abstracts[a] for a in merge.alternates.get(i, ())]
        held = [*map(_held, others)]
        inputs = (item.row.event_id, _held(abstract), tuple(records), held, official[i])
        paper = kept.paper(inputs) if kept is not None else None
        if paper is None:
            paper = _table_paper(item, abstract, records, others, official[i])
            if kept is not None:
                kept.add(inputs, paper)
        papers.append(paper)
    return papers


def _held(abstract: _Abstract | None) -> tuple[str, tuple[AbstractEntry, ...]] | None:
    """What a row's paper takes of an abstract: its text and its places."""
    return (abstract.raw, tuple(abstract.entries)) if abstract is not None else None


def _merge_abstracts(
    parsed: Sequence[SourceData], merge: RecordMerge | None = None
) -> tuple[list[_Abstract], list[list[int]]]:
    """Distinct abstracts (lists, then records), and per file the untitled ones in order."""
    by_key: dict[str, int] = {}
    abstracts: list[_Abstract] = []
    files: list[list[int]] = []
    ranked = 0
    for number, data in enumerate(parsed):
        order: list[int] = []
        held = merge.entries.get(number, []) if merge else []
        for entry in (*data.abstracts, *held):
            key = merge.pool_key(entry) if merge else normalized(entry.text)
            if key not in by_key:
                by_key[key] = len(abstracts)
                abstracts.append(_Abstract(entry.text))
            index = by_key[key]
            abstracts[index].entries.append(entry)
            if abstracts[index].rank < 0 and not (merge and merge.by_hand(entry)):
                abstracts[index].rank, ranked = ranked, ranked + 1
            if index not in order and not (merge and merge.titled_entry(entry)):
                order.append(index)
        if order:
            files.append(order)
    return abstracts, files


def _sources(entries: Sequence[AbstractEntry]) -> tuple[str, ...]:
    """``FILE:POSITION`` for each entry, by file name then position."""
    ordered = sorted(entries, key=lambda e: (e.file, e.position))
    return tuple(dict.fromkeys(e.source for e in ordered))


def _table_paper(
    item: TablePaper,
    abstract: _Abstract | None,
    records: Sequence[PaperRecord] = (),
    others: Sequence[_Abstract] = (),
    official: tuple[str, str] = ("", ""),
) -> Paper:
    """The paper of one table entry: its joined abstract, other abstracts and records naming it.

    ``official`` is the feed's abstract and the file that gave it: it wins over a list's.
    """
    row, stated, talks = item.row, item.row.paper, item.talks
    bare = without_author_line(abstract.raw, stated.authors) if abstract else ""
    raw = official[0] or bare
    # Most rows hold no list abstract, no record and no talk: each part of the paper
    # below skips what those would add (6,628 rows of the updated home).
    held = [abstract, *others] if abstract else list(others)
    listed = [*item.tables, official[1], *(s for a in held for s in _sources(a.entries))]
    code = text.extract_code_urls(raw) if raw else ()
    if records:
        code = (*code, *record_code(records))
        listed.extend(r.source for r in records)
    decision, own_id = stated.decision.lower(), paper_id(row)
    return replaced(
        stated,
        id=own_id,
        title=text.render(stated.title_raw),
        abstract=text.render(raw) if raw else "",
        abstract_raw=raw,
        oral=item.oral or oral_row(row) or any(r.paper.oral for r in records) or decision == ORAL,
        spotlight=decision == SPOTLIGHT or any(is_talk(t) and not oral_row(t) for t in talks),
        code_urls=tuple(dict.fromkeys(code)) if code else (),
        sources=tuple(dict.fromkeys(filter(None, listed))),
        aliases=aliases(
            own_id,
            [abstract_id(a.raw) for a in held],
            record_ids(records),
            [paper_id(t) for t in talks],
        )
        if held or records or talks
        else (),
        event_id=row.event_id,
        events=_events([_event(row), *map(_event, talks)], records),
        venue=venue_name(row),
    )


def _events(table: Sequence[Event], records: Sequence[PaperRecord]) -> tuple[Event, ...]:
    """The table's events, then those only the records state (a dump keeps a paper's talks)."""
    if not records:
        return tuple(table)
    seen = {e.event_id for e in table}
    stated = [e for r in records for e in r.paper.events if e.event_id not in seen]
    return tuple(table) + tuple(dict.fromkeys(stated))


def _event(row: TableRow) -> Event:
    """The presentation a table row describes: a poster session, or an oral's talk."""
    kind = "oral" if is_talk(row) else "poster"  # a spotlight's talk is a talk too
    stated = row.paper
    return Event(
        kind,
        stated.session,
        stated.starts_at,
        stated.ends_at,
        row.event_id,
        row.room,
        row.poster_position,
    )


def _abstract_paper(
    item: _Abstract,
    used: set[str],
    records: Sequence[PaperRecord] = (),
    paper_id: str | None = None,
) -> Paper:
    """A paper made of an abstract alone: a record's real title, else one derived from its text."""
    paper_id = paper_id or abstract_id(item.raw)
    if paper_id in used:  # a 40-bit prefix collision: lengthen rather than merge
        paper_id = abstract_id(item.raw, 20)
    used.add(paper_id)
    display = text.render(item.raw)
    titled = next((r for r in records if r.paper.title_raw), None)
    if titled is not None:
        base = titled_paper(titled)
    else:
        title = derive_title(display)
        base = Paper(paper_id, title, title_raw=title, title_derived=True)
    code = text.extract_code_urls(item.raw)
    doubts = (r.paper.possibly_same_as for r in records if r.paper.possibly_same_as)
    return replace(
        base,
        id=paper_id,
        abstract=display,
        abstract_raw=item.raw,
        code_urls=tuple(dict.fromkeys([*code, *record_code(records)])),
        sources=_sources(item.entries),
        aliases=aliases(paper_id, record_ids(records)),
        possibly_same_as=next(doubts, ()),
    )
