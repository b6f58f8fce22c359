"""The paper table: the conference's accepted papers as CSV (``assets/icml2026_events.csv``)."""

from __future__ import annotations

import csv
import html
import io

from index_builder.model import Paper, SourceProblem
from index_builder.sources.types import SourceData, SourceError, SourceText, TableRow
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
    items = (item.strip() for item in unescape_html(value).split(";"))
    return tuple(render(item) if "\\" in item or "{" in item else item for item in items if item)


def read_table(source: SourceText) -> SourceData | None:
    """Read the paper table: a ``.csv`` file, or any file whose first line is its header."""
    first_line = source.text.lstrip().split("\n", 1)[0]
    has_header = first_line.strip().startswith("event_id,")
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
    where = {name: columns.index(name) for name in TABLE_COLUMNS if name in columns}
    skipped = 0
    try:
        for record in reader:
            row = _table_row(record, where)
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


def _table_row(record: list[str], where: dict[str, int]) -> TableRow | None:
    """One CSV record as a :class:`TableRow`, or ``None`` when it has no id or title."""
    width = len(record)

    def cell(name: str) -> str:
        i = where.get(name, width)
        return record[i].strip() if i < width else ""

    event_id, title = cell("event_id"), cell("title")
    if not (event_id.isascii() and event_id.isdigit()) or not title:
        return None
    paper = Paper(
        id="",
        title="",
        title_raw=title,
        decision=cell("decision"),
        topic=cell("topic"),
        session=cell("session"),
        starts_at=cell("starttime"),
        ends_at=cell("endtime"),
        url=cell("url"),
        openreview_url=cell("paper_url"),
        authors=split_list(cell("authors")),
        institutions=split_list(cell("institutions")),
    )
    return TableRow(int(event_id), cell("event_type"), paper)
