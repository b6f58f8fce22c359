"""Reading one source file: decode its bytes, then hand it to the first reader that claims it.

Each format is one reader function ``(SourceText) -> SourceData | None``: it
returns ``None`` when the file is not its format, raises :class:`SourceError`
when the file is its format but broken, and otherwise returns the records it
read. :data:`READERS` is tried in order; adding a format means writing one
function in its own module and listing it here.
"""

from __future__ import annotations

from pathlib import Path

from index_builder.model import SourceProblem
from index_builder.sources import structured as readers_structured
from index_builder.sources.abstract_lists import read_abstract_list
from index_builder.sources.feed import read_feed
from index_builder.sources.table import read_table
from index_builder.sources.types import Reader, SourceData, SourceError, SourceText
from index_builder.text.safe import safe


def decode(path: Path, data: bytes) -> tuple[str, SourceProblem | None]:
    """A file's bytes as terminal-safe text (:func:`~index_builder.text.safe.safe`; the
    strings JSON escapes are made safe by :func:`~index_builder.sources.types.load_json`).

    Safe here, where outside text enters, so no title, room or abstract can carry an
    escape sequence to any later widget, notice, print or export.
    """
    text, problem = _decoded(path, data)
    # Read as UTF-8, the file's bytes are the text's: its controls are looked for in them.
    return safe(text, data if problem is None and not _utf16(data) else None), problem


def _decoded(path: Path, data: bytes) -> tuple[str, SourceProblem | None]:
    """Decode a file's bytes: UTF-8 (BOM allowed) or UTF-16 with a BOM, else cp1252/latin-1.

    Raises :class:`SourceError` for binary data. The fallback returns a non-fatal
    problem naming the file, since a guessed encoding may garble some letters.
    """
    if _utf16(data):
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


def _utf16(data: bytes) -> bool:
    """True when the bytes start with a UTF-16 byte order mark."""
    return data.startswith((b"\xff\xfe", b"\xfe\xff"))


def _looks_binary(text: str) -> bool:
    """True when many characters are control characters other than whitespace."""
    sample = text[:4096]
    controls = sum(1 for ch in sample if ord(ch) < 32 and ch not in "\t\n\r\f")
    return controls > max(2, len(sample) // 100)


def read_structured(source: SourceText) -> SourceData | None:
    """The user's JSON, JSONL or BibTeX papers (:mod:`index_builder.sources.structured`)."""
    try:
        parsed = readers_structured.parse(source.path, source.text)
    except readers_structured.FormatError as exc:
        raise SourceError(str(exc)) from exc
    return (
        None if parsed is None else SourceData(source.path, records=parsed[0], problems=parsed[1])
    )


READERS: tuple[Reader, ...] = (read_table, read_feed, read_structured, read_abstract_list)
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
