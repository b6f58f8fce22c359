"""Merging the records of JSON, JSONL and BibTeX files into the catalogue.

The rules (the table stays authoritative; a wrong join is worse than none):

- A record with an ``event_id`` and a title (``paperscope dump`` output) is a
  table row, ranked after every real table: it keeps its id on a round trip.
- A record whose title equals a table row's title exactly (after
  :func:`~index_builder.sources.records.title_key`: rendered, folded, case and
  punctuation out) joins that row: the row gets the record's abstract and its
  ``FILE:POSITION``, and keeps its own id, title and authors. When several
  records bring different abstracts for one row, the first (canonical file order)
  is shown and the others are folded in (their sources and ids kept, their text
  not shown): they are the same paper, so they must not become duplicates.
- Record abstracts share the pool of list abstracts (the same text is one
  paper). The abstract matcher of :mod:`index_builder.catalogue.joins.match` may join a pooled
  abstract only if a list or an untitled record holds it: a titled record joins
  a row by its exact title or not at all. A matcher join onto a row that a title
  already gave an abstract folds the list abstract into that row likewise.
- An abstract left alone is a paper with the ``a`` id of its text; a titled
  record among its holders gives it a real title (``title_derived`` false),
  authors and links. A titled record without abstract or row is a paper with
  the ``b`` id of its title. Ids declared in a file (``id``, ``paper_id``,
  ``aliases``) become aliases of the paper the record lands in.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace

from index_builder.catalogue.official import namespace
from index_builder.model import Paper, SourceProblem
from index_builder.sources.records import PaperRecord, normalized, title_id, title_key
from index_builder.sources.types import AbstractEntry, SourceData, TableRow
from index_builder.text import render as text

_NOT_STATED = ("abstract_raw", "aliases", "code_urls", "events", "possibly_same_as")
"""What a record says that lands on a paper by its own path, not as part of its row or title."""


def record_row(record: PaperRecord) -> TableRow:
    """The table row a record with an event id stands for.

    What a row does not state (the abstract, ids, code links, events, venue and the
    paper's doubts) reaches the paper as the record's own, through :class:`RecordMerge`.
    """
    stated = record.paper
    assert stated.event_id is not None
    return TableRow(
        stated.event_id,
        "Oral" if stated.oral and not stated.events else "Poster",
        stated.cleared(*_NOT_STATED, "event_id", "oral", "spotlight", "venue"),
    )


class RecordMerge:
    """The records of every parsed file and where each one lands."""

    def __init__(self, parsed: Sequence[SourceData]) -> None:
        """Collect the records (canonical order) and their abstracts as pool entries."""
        self.records = [r for data in parsed for r in data.records]
        self.holder: dict[AbstractEntry, PaperRecord] = {}
        self.entries: dict[int, list[AbstractEntry]] = {}
        for index, data in enumerate(parsed):
            found = self.entries.setdefault(index, [])
            for record in data.records:
                if record.paper.abstract_raw:
                    entry = AbstractEntry(record.file, record.position, record.paper.abstract_raw)
                    self.holder.setdefault(entry, record)
                    found.append(entry)
        self.shared = _shared_abstracts(self.records)
        self.on_row: dict[int, list[PaperRecord]] = defaultdict(list)
        self.on_abstract: dict[int, list[PaperRecord]] = defaultdict(list)
        self.alternates: dict[int, list[int]] = defaultdict(list)
        """Per row, the other abstracts of the same paper (their ids become aliases)."""
        self.folded: set[int] = set()
        self._placed: set[int] = set()
        self.title_only: list[list[PaperRecord]] = []

    def pool_key(self, entry: AbstractEntry) -> str:
        """What makes entries one abstract: the text, plus the title when titles share the text."""
        key = normalized(entry.text)
        record = self.holder.get(entry)
        if record is not None and not record.hand and record.paper.title_raw and key in self.shared:
            return key + "\0" + title_key(record.paper.title_raw)
        return key

    def paper_id(self, raw: str, records: Sequence[PaperRecord]) -> str | None:
        """A lone abstract's id when its text is shared by titles: the title's ``b`` id."""
        titled = next((r.paper.title_raw for r in records if r.paper.title_raw), None)
        return title_id(titled) if titled and normalized(raw) in self.shared else None

    def rows(self) -> list[tuple[TableRow, str]]:
        """Rows stated by records (with their ``FILE:POSITION``), to merge after real tables."""
        return [
            (record_row(r), r.source)
            for r in self.records
            if r.paper.event_id is not None and not r.hand
        ]

    def settle(
        self,
        titles: Sequence[str],
        event_ids: Sequence[int],
        pool: Sequence[Sequence[AbstractEntry]],
        joins: Mapping[int, int],
    ) -> dict[int, int]:
        """The final ``{abstract index: row index}``: title joins first, then allowed matcher joins.

        ``titles`` and ``event_ids`` describe the table entries, ``pool`` lists
        every place each distinct abstract appears, ``joins`` is the matcher's answer
        (``{abstract index: row index}``).
        """
        row_of = self._title_rows(titles, event_ids)
        final: dict[int, int] = {}
        for index, entries in enumerate(pool):
            self.on_abstract[index] = self._holders(entries)
            rows = [row_of[r] for r in self.on_abstract[index] if r in row_of]
            if rows:
                self._place(index, rows[0], final)
        titled_rows = set(final.values())
        for index, row in sorted(joins.items()):
            if index in final or index in self.folded:
                continue
            if not all(self.titled_entry(e) for e in pool[index]):
                if row in titled_rows:
                    self._place(index, row, final)
                else:
                    final[index] = row
        self._group_title_only(row_of)
        return final

    def _place(self, index: int, row: int, final: dict[int, int]) -> None:
        """Join abstract ``index`` to ``row``, or fold it into the row if it has an abstract."""
        if row in self._placed:
            self.alternates[row].append(index)
            self.folded.add(index)
        else:
            final[index] = row
            self._placed.add(row)

    def _holders(self, entries: Iterable[AbstractEntry]) -> list[PaperRecord]:
        """The records among an abstract's entries, in order."""
        return [r for r in (self.holder.get(e) for e in entries) if r is not None]

    def _title_rows(
        self, titles: Sequence[str], event_ids: Sequence[int]
    ) -> dict[PaperRecord, int]:
        """Titled records whose event id and title, or title alone, name exactly one row."""
        titled = [r for r in self.records if r.paper.title_raw]
        if not titled:
            return {}
        by_event = {event_id: row for row, event_id in enumerate(event_ids)}
        out: dict[PaperRecord, int] = {}
        keys: list[str] = []
        by_key: dict[str, int | None] = {}
        for record in titled:
            event_id = record.paper.event_id
            found = by_event.get(event_id) if event_id is not None else None
            if record.hand:  # bound to its row by the event id alone: a retitle keeps it
                if found is not None:
                    out[record] = found
                continue
            if not keys and titles:  # only records matched by title need every row's key
                keys = [title_key(t) for t in titles]
                for row, row_key in enumerate(keys):
                    by_key[row_key] = None if row_key in by_key else row
            key = title_key(record.paper.title_raw)
            if found is None or keys[found] != key:
                found = by_key.get(key)
            if found is not None and key:
                out[record] = found
        return out

    def _group_title_only(self, row_of: dict[PaperRecord, int]) -> None:
        """Records without abstract: on their row, else grouped by title into papers."""
        groups: dict[str, list[PaperRecord]] = {}
        for record in self.records:
            if record.paper.abstract_raw:
                continue
            if record in row_of:
                self.on_row[row_of[record]].append(record)
            else:
                groups.setdefault(title_key(record.paper.title_raw), []).append(record)
        self.title_only = list(groups.values())

    def by_hand(self, entry: AbstractEntry) -> bool:
        """True when a join by hand (a line of ``joins.jsonl``) holds ``entry``."""
        record = self.holder.get(entry)
        return record is not None and record.hand

    def titled_entry(self, entry: AbstractEntry) -> bool:
        """True when a record with a title of its own holds ``entry``."""
        record = self.holder.get(entry)
        return record is not None and bool(record.paper.title_raw)

    def records_of(self, row: int | None, abstract: int | None) -> list[PaperRecord]:
        """The records that landed on a row, on its joined abstract and its other abstracts."""
        on_row = self.on_row.get(row, []) if row is not None else []
        others = self.alternates.get(row, []) if row is not None else []
        if abstract is None and not others:  # most table rows: no abstract holds records
            return [*on_row]
        held = [abstract] if abstract is not None else []
        return [*on_row, *(r for a in (*held, *others) for r in self.on_abstract.get(a, []))]


def without_gone_joins(parsed: Sequence[SourceData]) -> list[SourceProblem]:
    """Drop the joins by hand whose row is in no table (the paper left the feed): their
    abstract stands on its own, no paper is made of the line; one problem names each."""
    rows = {r.event_id for data in parsed for r in data.rows if not namespace(r)}
    rows.update(
        r.paper.event_id for data in parsed for r in data.records if r.paper.event_id and not r.hand
    )
    problems: list[SourceProblem] = []
    for data in parsed:
        gone = [r for r in data.records if r.hand and r.paper.event_id not in rows]
        if not gone:
            continue
        data.records = [r for r in data.records if r not in gone]
        problems.extend(
            SourceProblem(
                str(data.path),
                f"line {r.position}: your join to {r.paper.event_id} ({r.paper.title_raw or '?'}) "
                "is not in force: that paper is no longer in the table, so the abstract "
                f"stands on its own (paperscope join --undo {r.paper.event_id} removes the line)",
                fatal=False,
            )
            for r in gone
        )
    return problems


def _shared_abstracts(records: Sequence[PaperRecord]) -> set[str]:
    """Abstract texts that titled records with different titles share (a placeholder, say).

    Such records are different papers: they must not collapse into one.
    """
    titles: dict[str, set[str]] = defaultdict(set)
    for record in records:
        if record.paper.title_raw and record.paper.abstract_raw and not record.hand:
            titles[normalized(record.paper.abstract_raw)].add(title_key(record.paper.title_raw))
    return {text for text, keys in titles.items() if len(keys) > 1}


def aliases(paper_id: str, *groups: Iterable[str]) -> tuple[str, ...]:
    """Distinct aliases from ``groups`` in order, without the paper's own id."""
    return tuple(dict.fromkeys(a for g in groups for a in g if a and a != paper_id))


def record_ids(records: Iterable[PaperRecord]) -> list[str]:
    """Every id the records declare."""
    return [i for r in records for i in r.paper.aliases]


def record_code(records: Iterable[PaperRecord]) -> list[str]:
    """Every code link the records state."""
    return [u for r in records for u in r.paper.code_urls]


def titled_paper(record: PaperRecord) -> Paper:
    """What a titled record gives a paper that has no table row: its paper with display title.

    Its id, abstract, aliases, code links and sources are the caller's to give.
    """
    stated = record.paper.cleared(*_NOT_STATED, "event_id")
    return replace(stated, title=text.render(stated.title_raw))


def title_only_paper(records: Sequence[PaperRecord], used: set[str]) -> Paper:
    """A paper known only by its title (and what its records say), with a ``b`` id."""
    first = records[0]
    paper_id = title_id(first.paper.title_raw)
    if paper_id in used:  # a 40-bit prefix collision: lengthen rather than merge
        paper_id = title_id(first.paper.title_raw, 20)
    used.add(paper_id)
    return replace(
        titled_paper(first),
        id=paper_id,
        code_urls=tuple(dict.fromkeys(record_code(records))),
        sources=tuple(dict.fromkeys(r.source for r in records)),
        aliases=aliases(paper_id, record_ids(records)),
    )


def add_title_only(papers: list[Paper], merge: RecordMerge, used: set[str]) -> None:
    """Add the title-only records: to the lone paper with the same real title, else as papers."""
    by_key = {
        title_key(p.title_raw): i
        for i, p in enumerate(papers)
        if p.event_id is None and not p.title_derived
    }
    for records in merge.title_only:
        index = by_key.get(title_key(records[0].paper.title_raw))
        if index is None:
            papers.append(title_only_paper(records, used))
            continue
        paper = papers[index]
        papers[index] = replace(
            paper,
            sources=tuple(dict.fromkeys([*paper.sources, *(r.source for r in records)])),
            aliases=aliases(paper.id, paper.aliases, record_ids(records)),
            code_urls=tuple(dict.fromkeys([*paper.code_urls, *record_code(records)])),
        )
