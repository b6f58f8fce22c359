"""Reading source files: the paper table (CSV) and abstract lists (plain text).

Each format is one reader function ``(SourceText) -> SourceData | None``: it
returns ``None`` when the file is not its format, raises :class:`SourceError`
when the file is its format but broken, and otherwise returns the records it
read. :data:`READERS` is tried in order; adding a format means writing one
function and listing it there (JSON, JSONL and BibTeX: :func:`read_structured`).
"""

from __future__ import annotations

import csv
import html
import io
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from index_builder import readers_structured
from index_builder.model import SourceProblem
from index_builder.records import PaperRecord
from index_builder.text import render

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
HEADER_MAX_CHARS = 160
"""A first line longer than this is an abstract, not a list's header."""


class SourceError(Exception):
    """A file that is a known format but cannot be read; the message names the reason."""


@dataclass(frozen=True, slots=True)
class TableRow:
    """One row of the paper table, as written (strings, ``""`` when empty)."""

    event_id: int
    event_type: str
    title: str
    decision: str = ""
    topic: str = ""
    session: str = ""
    starts_at: str = ""
    ends_at: str = ""
    url: str = ""
    openreview_url: str = ""
    authors: tuple[str, ...] = ()
    institutions: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class AbstractEntry:
    """One abstract of a list: its text and where it was found (1-based position)."""

    file: str
    position: int
    text: str

    @property
    def source(self) -> str:
        """``FILE:POSITION`` as shown in a paper's ``sources``."""
        return f"{self.file}:{self.position}"


@dataclass(frozen=True, slots=True)
class SourceText:
    """A decoded source file handed to the readers."""

    path: Path
    text: str


@dataclass(slots=True)
class SourceData:
    """What one file contributed, with any non-fatal problems met while reading it."""

    path: Path
    rows: list[TableRow] = field(default_factory=list)
    abstracts: list[AbstractEntry] = field(default_factory=list)
    problems: list[SourceProblem] = field(default_factory=list)
    records: list[PaperRecord] = field(default_factory=list)


Reader = Callable[[SourceText], SourceData | None]


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


def decode(path: Path, data: bytes) -> tuple[str, SourceProblem | None]:
    """Decode a file's bytes: UTF-8 (BOM allowed) or UTF-16 with a BOM, else cp1252/latin-1.

    Raises :class:`SourceError` for binary data. The fallback returns a non-fatal
    problem naming the file, since a guessed encoding may garble some letters.
    """
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16"), None
        except UnicodeDecodeError as exc:
            raise SourceError(f"not valid UTF-16 ({exc.reason})") from exc
    if b"\x00" in data[:8192]:
        raise SourceError("not a text file (binary data)")
    try:
        return data.decode("utf-8-sig"), None
    except UnicodeDecodeError:
        pass
    for encoding in ("cp1252", "latin-1"):
        try:
            text = data.decode(encoding)
        except UnicodeDecodeError:
            continue
        if _looks_binary(text):
            raise SourceError("not a text file (binary data)")
        note = f"not UTF-8; read as {encoding}, some characters may be wrong"
        return text, SourceProblem(str(path), note, fatal=False)
    raise SourceError("cannot decode the file")  # pragma: no cover - latin-1 never fails


def _looks_binary(text: str) -> bool:
    """True when many characters are control characters other than whitespace."""
    sample = text[:4096]
    controls = sum(1 for ch in sample if ord(ch) < 32 and ch not in "\t\n\r\f")
    return controls > max(2, len(sample) // 100)


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
    if not event_id.isdigit() or not title:
        return None
    return TableRow(
        event_id=int(event_id),
        event_type=cell("event_type"),
        title=title,
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


def read_abstract_list(source: SourceText) -> SourceData | None:
    """Read an abstract list: a header line, then one abstract per blank-line-separated paragraph.

    Lines inside a paragraph are joined. A first line too long to be a header is
    taken as the first abstract's text.
    """
    paragraphs = _paragraphs(source.text)
    data = SourceData(source.path)
    if not paragraphs:
        raise SourceError("the file is empty")
    first = paragraphs[0]
    if len(first[0]) <= HEADER_MAX_CHARS:
        rest = first[1:]
        paragraphs = ([rest] if rest else []) + paragraphs[1:]
    name = source.path.name
    for position, lines in enumerate(paragraphs, start=1):
        data.abstracts.append(AbstractEntry(name, position, _join_lines(lines)))
    if not data.abstracts:
        note = "no abstracts after the header line"
        data.problems.append(SourceProblem(str(source.path), note, fatal=False))
    return data


def _paragraphs(text: str) -> list[list[str]]:
    """Split text into paragraphs of stripped, non-empty lines."""
    text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\ufeff", "")
    paragraphs: list[list[str]] = []
    current: list[str] = []
    for line in text.split("\n"):
        stripped = line.strip()
        if stripped:
            current.append(stripped)
        elif current:
            paragraphs.append(current)
            current = []
    if current:
        paragraphs.append(current)
    return paragraphs


def _join_lines(lines: list[str]) -> str:
    """Join a paragraph's lines with spaces; a line ending in a hyphen joins without one."""
    out = lines[0]
    for line in lines[1:]:
        if out.endswith("-") and len(out) > 1 and out[-2].isalpha():
            out += line
        else:
            out += " " + line
    return " ".join(out.split())


def read_structured(source: SourceText) -> SourceData | None:
    """The user's JSON, JSONL or BibTeX papers (:mod:`index_builder.readers_structured`)."""
    try:
        parsed = readers_structured.parse(source.path, source.text)
    except readers_structured.FormatError as exc:
        raise SourceError(str(exc)) from exc
    return (
        None if parsed is None else SourceData(source.path, records=parsed[0], problems=parsed[1])
    )


READERS: tuple[Reader, ...] = (read_table, read_structured, read_abstract_list)
"""Readers tried in order; the first that does not return ``None`` owns the file."""


def read_source(path: Path, data: bytes) -> SourceData:
    """Parse one file's bytes with the first reader that claims it.

    Raises :class:`SourceError` when the file cannot be decoded or parsed.
    """
    text, problem = decode(path, data)
    source = SourceText(path, text)
    for reader in READERS:
        parsed = reader(source)
        if parsed is not None:
            if problem is not None:
                parsed.problems.insert(0, problem)
            return parsed
    raise SourceError("no reader understands this file")
