"""The paper table: the conference's accepted papers as CSV (``assets/icml2026_events.csv``)."""

from __future__ import annotations

import csv
import html
import io
import operator
from collections.abc import Callable

from index_builder.model import Paper, SourceProblem
from index_builder.sources.types import (
    SharedStrings,
    SourceData,
    SourceError,
    SourceText,
    TableRow,
)
from index_builder.text.render import render

TABLE_COLUMNS = (
    "event_id",
    "event_type",
    "title",
    "decision",
    "topic",
    "session",
    "starttime",
    "endtime",
    "url",
    "paper_url",
    "authors",
    "institutions",
)
REQUIRED_COLUMNS = ("event_id", "event_type", "title")


def unescape_html(value: str) -> str:
    """Undo HTML entities, which the published table holds doubly escaped (``&amp;#x27;``)."""
    for _ in range(3):
        if "&" not in value:
            break
        decoded = html.unescape(value)
        if decoded == value:
            break
        value = decoded
    return value


def split_list(value: str) -> tuple[str, ...]:
    """Split a ``"; "``-separated cell, stripping items and dropping empty ones.

    Entities are decoded first: split raw, ``D&amp;#x27;Angelo`` would become three
    authors. A name written in TeX (``R{\\'e}mi``) is rendered as Unicode.
    """
    if "&" not in value and "\\" not in value and "{" not in value:  # most cells: plain names
        return tuple(filter(None, map(str.strip, value.split(";"))))
    items = (item.strip() for item in unescape_html(value).split(";"))
    return tuple(render(item) if "\\" in item or "{" in item else item for item in items if item)


def read_table(source: SourceText) -> SourceData | None:
    """Read the paper table: a ``.csv`` file, or any file whose first line is its header."""
    # The first line's start alone: splitting it off scanned a one-line 10 MB feed whole
    # (4 ms, for each file read before a reader claims it).
    has_header = source.text.lstrip().startswith("event_id,")
    if source.path.suffix.lower() != ".csv" and not has_header:
        return None
    reader = csv.reader(io.StringIO(source.text, newline=""))
    try:
        columns = [name.strip() for name in next(reader, [])]
    except csv.Error as exc:
        raise SourceError(f"malformed CSV header: {exc}") from exc
    missing = [name for name in REQUIRED_COLUMNS if name not in columns]
    if missing:
        raise SourceError(
            "not the paper table: the CSV header lacks " + ", ".join(missing)
            if any(columns)
            else "not the paper table: the CSV file is empty"
        )
    data = SourceData(source.path)
    absent = [name for name in TABLE_COLUMNS if name not in columns]
    if absent:
        note = "the table lacks columns " + ", ".join(absent) + "; they are left empty"
        data.problems.append(SourceProblem(str(source.path), note, fatal=False))
    # Each row's cells in TABLE_COLUMNS order, by one C-level getter: an absent column
    # reads the empty cell put after the last (index -1).
    cells = operator.itemgetter(*(columns.index(n) if n in columns else -1 for n in TABLE_COLUMNS))
    width = len(columns)
    skipped = 0
    same = SharedStrings().__getitem__
    try:
        for record in reader:
            if len(record) < width:  # a short row: its missing cells are empty
                record.extend([""] * (width - len(record)))
            record.append("")
            row = _table_row([cell.strip() for cell in cells(record)], same)
            if row is None:
                skipped += 1 if any(cell.strip() for cell in record) else 0
            else:
                data.rows.append(row)
    except csv.Error as exc:
        raise SourceError(f"malformed CSV near line {reader.line_num}: {exc}") from exc
    if skipped:
        note = f"{skipped} rows skipped (no numeric event_id or no title)"
        data.problems.append(SourceProblem(str(source.path), note, fatal=False))
    return data


def _table_row(cells: list[str], same: Callable[[str], str]) -> TableRow | None:
    """One CSV record's cells (in :data:`TABLE_COLUMNS` order, stripped) as a
    :class:`TableRow`, or ``None`` when it has no id or title; ``same`` makes the values
    rows repeat one string each (:class:`~index_builder.sources.types.SharedStrings`)."""
    event_id, event_type, title, decision, topic, session, starts, ends, url, forum = cells[:10]
    if not (event_id.isascii() and event_id.isdigit()) or not title:
        return None
    paper = Paper(
        id="",
        title="",
        title_raw=title,
        decision=same(decision),
        topic=same(topic),
        session=same(session),
        starts_at=same(starts),
        ends_at=same(ends),
        url=url,
        openreview_url=forum,
        authors=split_list(cells[10]),
        institutions=tuple(map(same, split_list(cells[11]))),
    )
    return TableRow(int(event_id), same(event_type), paper)
