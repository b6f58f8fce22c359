"""A quick first look at the papers while the full catalogue is built on a first run.

:func:`quick_table_papers` reads the paper table(s) alone: no abstracts, no join,
no records. It gives the same :class:`~index_builder.model.Paper` ids (event ids),
titles and display order as the table papers of the full catalogue
(:mod:`index_builder.catalogue.merge`), with empty abstracts, in a
:class:`~index_builder.catalogue.load.Catalogue` whose ``complete`` is False. The app
shows it for the second the cold build takes and then replaces it.

:func:`peek_table_papers` is quicker still: the first screen of those papers (the first
``count`` in display order), read through the same code from the few rows that can be
among them, for the app's first frame on a first run.
"""

from __future__ import annotations

import csv
import hashlib
import heapq
import io
import re
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path

from index_builder.catalogue.load import Catalogue
from index_builder.catalogue.merge import _display_key, _table_paper
from index_builder.catalogue.paper_rows import merge_tables
from index_builder.sources.files import read_regular_file
from index_builder.sources.reading import decode
from index_builder.sources.table import read_table
from index_builder.sources.types import SourceData, SourceError, SourceText

PEEK_SIZE = 100
"""Papers in a peek: more than the tallest terminal's first screen shows."""
PLAIN_TITLE = re.compile(r"[A-Za-z0-9,.:;'()?!/+-]+( [A-Za-z0-9,.:;'()?!/+-]+)*")
"""Titles that rendering leaves as they are (their order is the same before and after)."""


def quick_table_papers(sources: Sequence[Path]) -> Catalogue:
    """The table papers of ``sources`` without abstracts (``complete`` is False).

    Files that cannot be read, or are not tables, are passed over silently: the
    full load reports them.
    """
    tables: list[SourceData] = []
    for path, text in _table_texts(sources):
        try:
            parsed = read_table(SourceText(path, text))
        except SourceError:
            continue
        if parsed is not None:
            tables.append(parsed)
    papers = sorted((_table_paper(item, None) for item in merge_tables(tables)), key=_display_key)
    catalogue = Catalogue(papers)
    catalogue.complete = False
    return catalogue


def peek_table_papers(sources: Sequence[Path], count: int = PEEK_SIZE) -> Catalogue | None:
    """The first ``count`` papers of :func:`quick_table_papers`, in a fraction of its time.

    Only the rows that can be among the first ``count`` go through the table reader and
    the merge: every row of the sessions before the ``count``-th poster's (by the same
    time the display order uses), the rows of its session up to its title or with a title
    that rendering may change, and every oral (their posters get the oral mark). An oral
    whose poster is not among them is left out. ``None`` when no source is a table.
    """
    tables: list[SourceData] = []
    for path, text in _table_texts(sources):
        if path.suffix.lower() != ".csv" and not text.lstrip().startswith("event_id,"):
            continue  # not a table (what the table reader checks first)
        try:
            reader = csv.reader(io.StringIO(text, newline=""))
            header = next(reader, [])
            records = list(reader)
        except csv.Error:
            continue
        columns = [name.strip() for name in header]
        if not {"event_id", "event_type", "title"} <= set(columns):
            continue
        chosen = _peek_rows(records, columns, count)
        out = io.StringIO()
        csv.writer(out).writerows([header, *chosen])
        try:
            parsed = read_table(SourceText(path, out.getvalue()))
        except SourceError:
            continue
        if parsed is not None:
            tables.append(parsed)
    if not tables:
        return None
    posters = (item for item in merge_tables(tables) if item.row.event_type.lower() != "oral")
    papers = sorted((_table_paper(item, None) for item in posters), key=_display_key)
    catalogue = Catalogue(papers[:count])
    catalogue.complete = False
    return catalogue


def _peek_rows(records: list[list[str]], columns: list[str], count: int) -> list[list[str]]:
    """The records that can be among the first ``count`` posters, and every oral.

    The edge is the ``count``-th poster with a plain title: those sort the same raw and
    rendered, so every paper before the edge is a plain title up to it or any title of
    a session up to its session.
    """
    wanted = ("event_id", "event_type", "title", "starttime")
    number, kind, title, start = (columns.index(c) if c in columns else -1 for c in wanted)
    width = max(number, kind, title, start) + 1
    times: dict[str, tuple[int, float]] = {}

    def when(record: list[str]) -> tuple[int, float]:
        value = record[start].strip() if start >= 0 else ""
        if value not in times:
            try:
                times[value] = (0, datetime.fromisoformat(value).timestamp())
            except ValueError:
                times[value] = (1, 0.0)  # untimed papers come after the timed ones
        return times[value]

    rows = [
        r
        for r in records
        if len(r) >= width and r[number].strip().isascii() and r[number].strip().isdigit()
    ]
    orals = [r for r in rows if r[kind].strip().lower() == "oral"]
    posters = [r for r in rows if r[kind].strip().lower() != "oral" and r[title].strip()]
    keys = [(*when(r), r[title].strip().casefold()) for r in posters]
    plain = [k for r, k in zip(posters, keys, strict=True) if PLAIN_TITLE.fullmatch(r[title])]
    edges = heapq.nsmallest(count, plain)
    if len(edges) < count:
        return records
    edge = edges[-1]
    chosen = [
        r
        for r, key in zip(posters, keys, strict=True)
        if key[:2] < edge[:2]
        or (key[:2] == edge[:2] and (key[2] <= edge[2] or not PLAIN_TITLE.fullmatch(r[title])))
    ]
    return chosen + orals


def _table_texts(sources: Sequence[Path]) -> list[tuple[Path, str]]:
    """Each readable source decoded, in the full build's canonical order (so that the
    same table row wins an event id); files that cannot be read are passed over."""
    blobs: list[tuple[Path, bytes]] = []
    for path in sources:
        try:
            blobs.append((Path(path), read_regular_file(Path(path))))
        except OSError:
            continue
    names = [path.name for path, _ in blobs]
    if len(set(names)) == len(names):  # the digest only orders files of the same name
        blobs.sort(key=lambda b: b[0].name)
    else:
        blobs.sort(key=lambda b: (b[0].name, hashlib.sha256(b[1]).hexdigest()))
    texts = []
    for path, data in blobs:
        try:
            texts.append((path, decode(path, data)[0]))
        except SourceError:
            continue
    return texts
