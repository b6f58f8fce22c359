"""Reading a library export: BibTeX (Zotero, Mendeley, JabRef), RIS and CSL-JSON.

:func:`read_library` reads one file (a regular file up to the sources' size cap,
UTF-8 or a reported fallback encoding) and returns its :class:`LibraryEntry` list with
one line per kind of trouble (entries without a title, malformed entries, the same
paper twice, a guessed encoding); the good entries are always kept. A file that is
none of the three formats raises :class:`LibraryFormatError` with one clear line.
The format is told by the suffix (``.bib``, ``.ris``, ``.json``) or, for any other,
by the content. A BibTeX file is parsed a block of entries at a time, so a 50 MB
export never holds the parser's model of all its entries at once.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from index_builder.readinglist.library_entry import (
    LibraryEntry,
    arxiv_id,
    bare_arxiv_id,
    doi_of,
    openreview_id,
)
from index_builder.sources import json_fields as fields
from index_builder.sources.files import read_regular_file
from index_builder.sources.reading import decode
from index_builder.sources.records import clean, split_people
from index_builder.sources.structured import bib_field, bib_names
from index_builder.sources.types import SourceError, load_json
from index_builder.text.render import render

logging.getLogger("bibtexparser").addHandler(logging.NullHandler())

FORMATS = ("BibTeX", "RIS", "CSL-JSON")
_BIB_START = re.compile(r"\s*(?:%[^\n]*\n\s*)*@[A-Za-z]+\s*[{(]")
_RIS_START = re.compile(r"^\s*TY  - ", re.MULTILINE)
_ENTRY_AT = re.compile(r"^@", re.MULTILINE)
_MARKUP = re.compile(r"[{}$\\]")
BIB_BLOCK_CHARS = 1 << 20
"""BibTeX is parsed in blocks of about this many characters, cut before an ``@``."""


class LibraryFormatError(ValueError):
    """The file is not a library export that can be read; the message says why in one line."""


@dataclass
class ReadLibrary:
    """What one file held: its entries (each paper once), its format and its problems."""

    entries: list[LibraryEntry]
    format: str
    problems: list[str] = field(default_factory=list)


@dataclass
class _Tally:
    """Entries kept by key (the richer of two copies wins) and what was dropped."""

    kept: dict[str, LibraryEntry] = field(default_factory=dict)
    untitled: int = 0
    malformed: int = 0
    duplicates: int = 0

    def add(self, entry: LibraryEntry | None) -> None:
        if entry is None:
            self.malformed += 1
        elif not entry.title.strip():
            self.untitled += 1
        elif entry.key in self.kept:
            self.duplicates += 1
            self.kept[entry.key] = self.kept[entry.key].richer(entry)
        else:
            self.kept[entry.key] = entry

    def problems(self) -> list[str]:
        out = []
        if self.untitled:
            out.append(f"{self.untitled} entr{_ies(self.untitled)} without a title skipped")
        if self.malformed:
            out.append(f"{self.malformed} malformed entr{_ies(self.malformed)} skipped")
        if self.duplicates:
            out.append(
                f"{self.duplicates} duplicate entr{_ies(self.duplicates)} (same DOI, arXiv id "
                "or title) kept once"
            )
        return out


def _ies(n: int) -> str:
    return "y" if n == 1 else "ies"


def read_library(path: Path) -> ReadLibrary:
    """The entries of the export at ``path``; :class:`LibraryFormatError` if it has none."""
    try:
        data = read_regular_file(path)
        text, note = decode(path, data)
    except (OSError, SourceError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise LibraryFormatError(reason) from exc
    read = parse_library(path.name, text, path.suffix.lower())
    if note is not None:
        read.problems.insert(0, note.message)
    return read


def parse_library(name: str, text: str, suffix: str = "") -> ReadLibrary:
    """The entries of an export's ``text``; ``suffix`` (``.bib``...) picks the format first."""
    text = text.lstrip("\ufeff")
    kind = _format(text, suffix)
    tally = _Tally()
    if kind == "BibTeX":
        entries: Iterable[LibraryEntry | None] = _bib_entries(text, name)
    elif kind == "RIS":
        entries = _ris_entries(text, name)
    else:
        entries = _csl_entries(text, name)
    for entry in entries:
        tally.add(entry)
    if not tally.kept and not (tally.untitled or tally.malformed):
        raise LibraryFormatError(f"no {kind} entries in the file")
    return ReadLibrary(list(tally.kept.values()), kind, tally.problems())


def _format(text: str, suffix: str) -> str:
    """BibTeX, RIS or CSL-JSON, by suffix then content; else :class:`LibraryFormatError`."""
    by_suffix = {".bib": "BibTeX", ".bibtex": "BibTeX", ".ris": "RIS", ".json": "CSL-JSON"}
    start = text.lstrip()[:1]
    if suffix in by_suffix:
        return by_suffix[suffix]
    if _BIB_START.match(text):
        return "BibTeX"
    if _RIS_START.search(text[:4096]):
        return "RIS"
    if start in ("[", "{"):
        return "CSL-JSON"
    raise LibraryFormatError(
        "not a library export (BibTeX, RIS or CSL-JSON, as Zotero, Mendeley or JabRef write)"
    )


def _blocks(text: str) -> Iterator[str]:
    """``text`` in pieces of about :data:`BIB_BLOCK_CHARS`, each cut before a line's ``@``."""
    start = 0
    while start < len(text):
        end = start + BIB_BLOCK_CHARS
        if end < len(text):
            cut = _ENTRY_AT.search(text, end)
            end = cut.start() if cut else len(text)
        yield text[start:end]
        start = end


def _bib_entries(text: str, name: str) -> Iterator[LibraryEntry | None]:
    """Each BibTeX entry as an entry (``None`` for a malformed one)."""
    import bibtexparser
    from bibtexparser.model import Entry

    for block in _blocks(text):
        try:
            parsed = bibtexparser.parse_string(block)
        except Exception as exc:  # the parser's own failures are not documented
            raise LibraryFormatError(f"not readable BibTeX ({exc.__class__.__name__})") from exc
        for entry in parsed.entries:
            yield _bib_entry(entry, name)
        for failed in parsed.failed_blocks:
            kept = getattr(failed, "ignore_error_block", None)  # a duplicate key: still whole
            yield _bib_entry(kept, name) if isinstance(kept, Entry) else None


def _bib_entry(entry: Any, name: str) -> LibraryEntry:
    """One BibTeX entry (Zotero's, Mendeley's ``arxivId``, JabRef's ``eprint``)."""

    def get(key: str) -> str:
        return bib_field(entry, key)

    links = (get("url"), get("eprint"), get("arxivid"), get("note"), get("howpublished"))
    arxiv = arxiv_id(*links, get("doi")) or bare_arxiv_id(get("arxivid"))
    arxiv = arxiv or bare_arxiv_id(get("eprint"))
    return LibraryEntry(
        title=_display(get("title")),
        authors=bib_names(get("author")),
        abstract=_words(get("abstract")),
        doi=doi_of(get("doi")),
        arxiv=arxiv,
        openreview=openreview_id(get("url"), get("openreview"), get("howpublished")),
        year=get("year"),
        source=name,
    )


def _display(raw: str) -> str:
    """A raw (LaTeX) title as display text: rendered when it has macros or math, else
    without the braces that protect capitals (``{Is}``: a full render costs ~10 ms)."""
    raw = clean(raw)
    if "\\" in raw or "$" in raw:
        return render(raw)
    return " ".join(raw.replace("{", "").replace("}", "").split())


def _words(raw: str) -> str:
    """A raw abstract as plain words for For you's vectors (markup characters dropped):
    rendering every abstract of a 50 MB export would take minutes."""
    return " ".join(_MARKUP.sub(" ", clean(raw)).split())


def _ris_entries(text: str, name: str) -> Iterator[LibraryEntry | None]:
    """Each RIS record (Zotero writes ``TI``/``AU``/``AB``/``DO``/``UR``/``N1``)."""
    import rispy

    try:
        records = rispy.loads(text)
    except Exception as exc:  # rispy raises its own errors on a broken record
        raise LibraryFormatError(f"not readable RIS ({exc})") from exc
    for record in records:
        yield _ris_entry(record, name)


def _ris_entry(record: dict[str, Any], name: str) -> LibraryEntry:
    text = partial(fields.text, record)

    links = [*fields.texts(record, "urls", "notes"), text("doi")]
    people = [p for a in fields.texts(record, "authors", "first_authors") for p in split_people(a)]
    return LibraryEntry(
        title=_display(text("title", "primary_title")),
        authors=tuple(dict.fromkeys(people)),
        abstract=_words(text("abstract", "notes_abstract")),
        doi=doi_of(text("doi")),
        arxiv=arxiv_id(*links),
        openreview=openreview_id(*links),
        year=text("year", "publication_year")[:4],
        source=name,
    )


def _csl_entries(text: str, name: str) -> Iterator[LibraryEntry | None]:
    """Each CSL-JSON item (Zotero's "CSL JSON" export: a list of items)."""
    data = load_json(text, LibraryFormatError)
    items = data.get("items") if isinstance(data, dict) else data
    if not isinstance(items, list):
        raise LibraryFormatError("not CSL-JSON (a list of items was expected)")
    for item in items:
        yield _csl_entry(item, name) if isinstance(item, dict) else None


def _csl_entry(item: dict[str, Any], name: str) -> LibraryEntry:
    text = partial(fields.text, item)

    people = []
    for person in fields.records(item, "author"):
        full = fields.text(person, "literal") or " ".join(
            fields.text(person, k) for k in ("given", "non-dropping-particle", "family")
        )
        if full.strip():
            people.append(" ".join(full.split()))
    issued = fields.record(item.get("issued")) or {}
    first = next(iter(fields.items(issued, "date-parts")), None)
    year = (fields.text_of(first[0]) or "") if isinstance(first, list) and first else ""
    links = (text("URL"), text("number"), text("note"), text("DOI"), text("archive_location"))
    return LibraryEntry(
        title=_display(text("title")),
        authors=tuple(people),
        abstract=_words(text("abstract")),
        doi=doi_of(text("DOI")),
        arxiv=arxiv_id(*links),
        openreview=openreview_id(*links),
        year=year,
        source=name,
    )
