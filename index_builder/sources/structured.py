"""Reading the user's structured paper files: JSON, JSONL and BibTeX.

:func:`parse` claims a file by its suffix (``.json``, ``.jsonl``/``.ndjson``,
``.bib``/``.bibtex``) or, for any other suffix, by its content (text that parses
as JSON or JSON lines, or that opens with a BibTeX ``@type{``). It returns the
file's :class:`PaperRecord` list and non-fatal problems, ``None`` when the file
is not one of these formats, and raises :class:`FormatError` when it is but
cannot be read (bad JSON, a bib with no entries). One bad record inside a good
file is skipped and counted.

JSON is a list of paper objects, or an object holding such a list under
``papers``, ``hits`` (``paperscope search --json``) or ``bookmarks`` (a
reading-list export); JSONL is one object per line (``paperscope dump``).
BibTeX is parsed with bibtexparser 2; see :mod:`index_builder.sources.records` for
the fields read.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from index_builder.model import Paper, SourceProblem
from index_builder.sources.records import PaperRecord, RecordError, clean, record_from_json
from index_builder.sources.types import load_json
from index_builder.text import render as text
from index_builder.venues import known as venues_known

if TYPE_CHECKING:
    from bibtexparser.model import Entry

JSON_SUFFIXES = frozenset({".json"})
JSONL_SUFFIXES = frozenset({".jsonl", ".ndjson"})
BIB_SUFFIXES = frozenset({".bib", ".bibtex"})
LIST_KEYS = ("papers", "hits", "bookmarks")
_BIB_START = re.compile(r"\s*(?:%[^\n]*\n\s*)*@[A-Za-z]+\s*[{(]")
_AND = re.compile(r"\s+and\s+", re.IGNORECASE)
_ACCENTS = {'"': "\u0308", "'": "\u0301", "`": "\u0300", "^": "\u0302", "~": "\u0303",
            "=": "\u0304", ".": "\u0307", "c": "\u0327", "v": "\u030c", "u": "\u0306",
            "H": "\u030b", "k": "\u0328", "r": "\u030a"}  # fmt: skip
_ACCENT = re.compile(
    r"\{?\\(?P<accent>[\"'`^~=.]|[cvuHkr](?=[\s{]))\s*\{?(?P<letter>[A-Za-z])\}?\}?"
)


class FormatError(ValueError):
    """A JSON, JSONL or BibTeX file that cannot be read; the message names the reason."""


Parsed = tuple[list[PaperRecord], list[SourceProblem]]
_T = TypeVar("_T")
_BAD_LINE = object()
"""Stands for a JSONL line that is not JSON, so it is counted at its position."""


def parse(path: Path, text: str) -> Parsed | None:
    """The records of a structured file, ``None`` if it is not one; see the module doc."""
    suffix = path.suffix.lower()
    if suffix in JSON_SUFFIXES or suffix in JSONL_SUFFIXES:
        return _json_file(path, text, lines_first=suffix in JSONL_SUFFIXES)
    if suffix in BIB_SUFFIXES:
        return _bib_file(path, text)
    if suffix == ".csv":
        return None
    start = text.lstrip("\ufeff \t\r\n")[:1]
    if start in ("[", "{"):
        try:
            return _json_file(path, text, lines_first=False)
        except FormatError:
            return None  # not JSON after all: an abstract list whose header starts with a bracket
    if _BIB_START.match(text.lstrip("\ufeff")):
        return _bib_file(path, text)
    return None


def _json_file(path: Path, text: str, *, lines_first: bool) -> Parsed:
    """Records of a JSON document, or of JSON lines when the document is not one value."""
    if not lines_first:
        try:
            return _records(path, _paper_list(_loads(text)))
        except FormatError as exc:
            if "Extra data" not in str(exc):
                raise
    return _json_lines(path, text)


def _loads(text: str) -> Any:
    """JSON text as data; every failure (syntax, nesting depth, huge numbers) a FormatError."""
    return load_json(text, FormatError)


def _paper_list(data: Any) -> list[Any]:
    """The list of paper objects inside a JSON document."""
    if isinstance(data, list):
        return data
    if isinstance(data, dict):
        for key in LIST_KEYS:
            if isinstance(data.get(key), list):
                return list(data[key])
        if any(k in data for k in ("title", "abstract", "abstract_raw")):
            return [data]
        raise FormatError("JSON object without a list of papers (" + ", ".join(LIST_KEYS) + ")")
    raise FormatError("JSON that is neither a list of papers nor an object holding one")


def _json_lines(path: Path, text: str) -> Parsed:
    """Records of a JSONL file; a line that is not JSON counts as a bad record."""
    items: list[Any] = []
    for line in text.replace("\r\n", "\n").split("\n"):
        if line.strip():
            try:
                items.append(_loads(line))
            except FormatError:
                items.append(_BAD_LINE)
    if not items:
        raise FormatError("the file holds no JSON lines")
    if all(item is _BAD_LINE for item in items):
        raise FormatError("not JSON lines: no line is valid JSON")
    return _records(path, items)


def _records(path: Path, items: list[Any]) -> Parsed:
    """Records of parsed JSON items (1-based positions); unusable items are counted."""
    return _counted(path, items, _json_record)


def _json_record(item: Any, file: str, position: int) -> PaperRecord:
    """One parsed JSON item as a record; a line that was not JSON is a bad record."""
    if item is _BAD_LINE:
        raise RecordError("not valid JSON")
    return record_from_json(item, file, position)


_Read = Callable[[_T, str, int], PaperRecord]


def _counted(path: Path, items: Sequence[_T], read: _Read[_T]) -> Parsed:
    """``read`` of each item (1-based positions); the items it refuses are counted."""
    records: list[PaperRecord] = []
    reasons: dict[str, int] = {}
    for position, item in enumerate(items, start=1):
        try:
            records.append(read(item, path.name, position))
        except RecordError as exc:
            reasons[str(exc)] = reasons.get(str(exc), 0) + 1
    return records, _skip_problems(path, reasons, len(items), not records)


def _skip_problems(
    path: Path, reasons: dict[str, int], total: int, none_left: bool
) -> list[SourceProblem]:
    """One non-fatal problem counting the skipped records; a fatal error when none is left."""
    skipped = sum(reasons.values())
    if not total:
        return [SourceProblem(str(path), "no papers in the file", fatal=False)]
    if not skipped:
        return []
    why = "; ".join(f"{n} {reason}" for reason, n in sorted(reasons.items()))
    if none_left:
        raise FormatError(f"no usable paper among {total} records ({why})")
    note = f"{skipped} of {total} records skipped ({why})"
    return [SourceProblem(str(path), note, fatal=False)]


def _bib_file(path: Path, text: str) -> Parsed:
    """Records of a BibTeX file; malformed entries and entries without title or abstract counted."""
    try:  # imported here: most runs read no BibTeX and start faster without it
        import bibtexparser
        from bibtexparser.model import Entry
    except ImportError as exc:
        raise FormatError("reading BibTeX needs the bibtexparser package (2.x)") from exc
    import logging  # here, not at the top: a run that reads no BibTeX needs no logging

    # bibtexparser logs every malformed block as a warning; without a handler Python prints
    # them on stderr, so a hostile file would flood the terminal. The count is reported instead.
    quiet = logging.getLogger("bibtexparser")
    if not quiet.handlers:
        quiet.addHandler(logging.NullHandler())
    try:
        library = bibtexparser.parse_string(text)
    except Exception as exc:  # the parser's own failure modes are not documented
        raise FormatError(f"not readable BibTeX ({exc.__class__.__name__})") from exc
    entries: list[Entry | None] = list(library.entries)
    for block in library.failed_blocks:
        # a duplicate key is still a whole entry; other failed blocks are malformed
        kept = getattr(block, "ignore_error_block", None)
        entries.append(kept if isinstance(kept, Entry) else None)
    if not entries:
        raise FormatError("no BibTeX entries in the file")
    return _counted(path, entries, _bib_record)


def bib_field(entry: Entry, name: str) -> str:
    """A field's value as text, without the braces or quotes that enclose it."""
    fields = {f.key.lower(): f.value for f in entry.fields}
    value = fields.get(name)
    return _unwrap(clean(value)) if isinstance(value, str) else ""


def _unwrap(value: str) -> str:
    """``{text}`` or ``"text"`` as ``text`` (the parser leaves them on duplicate-key entries).

    ``{T}$^2${PO}`` stays whole: its first brace closes before the end.
    """
    if len(value) >= 2 and value[0] == value[-1] == '"':
        return value[1:-1].strip()
    if len(value) < 2 or value[0] != "{" or value[-1] != "}":
        return value
    depth = 0
    for char in value[:-1]:
        depth += {"{": 1, "}": -1}.get(char, 0)
        if depth == 0:
            return value
    return value[1:-1].strip()


def _bib_record(entry: Entry | None, file: str, position: int) -> PaperRecord:
    """One BibTeX entry as a record: title, author, abstract, url/pdf/doi, openreview.

    A malformed entry (``None``) is a bad record.
    """
    if entry is None:
        raise RecordError("malformed entry")
    title, abstract = bib_field(entry, "title"), bib_field(entry, "abstract")
    if not title and not abstract:
        raise RecordError("no title and no abstract")
    doi = bib_field(entry, "doi")
    url = (
        bib_field(entry, "url")
        or bib_field(entry, "pdf")
        or (f"https://doi.org/{doi}" if doi else "")
    )
    code = bib_field(entry, "code")
    booktitle = bib_field(entry, "booktitle") or bib_field(entry, "journal")
    paper = Paper(
        id="",
        title="",
        title_raw=title,
        abstract_raw=abstract,
        authors=bib_names(bib_field(entry, "author")),
        url=url,
        openreview_url=bib_field(entry, "openreview"),
        code_urls=(code,) if code else (),
        venue=bib_venue(booktitle, bib_field(entry, "year")),
    )
    return PaperRecord(file, position, paper)


def bib_venue(booktitle: str, year: str) -> str:
    """The known venue (``ICML 2026``) whose proceedings and year an entry names, else ``""``.

    An entry of unknown proceedings is cited without a venue rather than with a guessed one.
    """
    wanted = " ".join(booktitle.replace("{", "").replace("}", "").split()).casefold()
    for known in venues_known():
        if wanted == known.booktitle.casefold() and year.strip() == str(known.year):
            return known.name
    return ""


def bib_names(value: str) -> tuple[str, ...]:
    """BibTeX names (``Last, First and First Last and others``) as ``First Last`` display text.

    ``and`` splits only outside braces, so ``{Barnes and Noble}`` stays one name;
    ``others`` (et al.) is dropped.
    """
    names: list[str] = []
    for part in _split_outside_braces(value, _AND):
        pieces = [p.strip() for p in _split_outside_braces(part, re.compile(","))]
        if len(pieces) == 2:
            pieces = [pieces[1], pieces[0]]
        elif len(pieces) >= 3:
            pieces = [pieces[2], pieces[0], pieces[1]]
        name = " ".join(" ".join(p for p in pieces if p).split()).replace(";", ",")
        if name and name.lower() != "others":
            names.append(name)
    joined = _ACCENT.sub(_accented, "; ".join(names))
    if "\\" in joined:  # a rare macro left: one full render (~1 ms) for all the names
        joined = text.render(joined)
    return tuple(
        n.strip() for n in joined.replace("{", "").replace("}", "").split(";") if n.strip()
    )


def _accented(match: re.Match[str]) -> str:
    """``\\"u`` (with or without braces) as ``ü``: the common accents, without a LaTeX parser."""
    combined = unicodedata.normalize("NFC", match["letter"] + _ACCENTS[match["accent"]])
    return combined if len(combined) == 1 else match[0]


def _split_outside_braces(value: str, separator: re.Pattern[str]) -> list[str]:
    """``value`` split on ``separator`` where it is not inside ``{...}``."""
    depth, start, out = 0, 0, []
    position = 0
    while position < len(value):
        char = value[position]
        if char == "{":
            depth += 1
        elif char == "}":
            depth = max(0, depth - 1)
        elif depth == 0:
            match = separator.match(value, position)
            if match and match.end() > position:
                out.append(value[start:position])
                start = position = match.end()
                continue
        position += 1
    out.append(value[start:])
    return out
