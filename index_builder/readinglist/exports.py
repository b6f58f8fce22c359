"""Reading-list exports (BibTeX, Markdown, CSV, JSON, iCalendar, RIS, CSL-JSON) and the
JSON import. Every format carries the tags (BibTeX ``keywords``, RIS ``KW``, CSL-JSON
``keyword``, a CSV and JSON column, a Markdown line); RIS and CSL-JSON the note too.

Every export takes the bookmarks and an optional catalogue lookup: a paper still
in the catalogue is exported from its full record, one that left it from the
bookmark's stored copy. Files are written atomically.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from index_builder.model import Paper
from index_builder.readinglist.bookmark import Bookmark, Lookup, now_iso, paper_of
from index_builder.readinglist.ics import to_ics
from index_builder.readinglist.schedule import slots_of
from index_builder.text.safe import safe
from index_builder.times import DEFAULT_SETTING, describe

FORMATS = ("bibtex", "markdown", "csv", "json", "ics", "ris", "csljson")
SUFFIXES = {
    "bibtex": ".bib", "markdown": ".md", "csv": ".csv", "json": ".json", "ics": ".ics",
    "ris": ".ris", "csljson": ".csl.json",
}  # fmt: skip
JSON_FORMAT = "paperscope-reading-list"
JSON_VERSION = 1
CSV_COLUMNS = (
    "id", "status", "title", "authors", "added_at", "updated_at", "note",
    "session", "starts_at", "ends_at", "url", "openreview_url", "tags",
)  # fmt: skip
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_STATUS_HEADINGS = {"reading": "Reading", "to-read": "To read", "read": "Read"}


def current(bookmarks: Sequence[Bookmark], lookup: Lookup | None) -> list[Bookmark]:
    """The bookmarks with their copies refreshed from the catalogue where it still has them."""
    out = []
    for bm in bookmarks:
        paper = paper_of(bm, lookup)
        out.append(bm.with_paper(paper) if paper else bm)
    return out


def _keyed(
    bookmarks: Sequence[Bookmark], lookup: Lookup | None, all_papers: Sequence[Paper]
) -> list[tuple[Bookmark, Paper, str]]:
    """Each bookmark with its paper (the catalogue's, else its copy) and citation key,
    keys decided over ``all_papers`` plus the papers that left it."""
    from index_builder.citations.keys import CitationKeys

    papers = [paper_of(bm, lookup) or bm.to_paper() for bm in bookmarks]
    known = {p.id for p in all_papers}
    keys = CitationKeys([*all_papers, *(p for p in papers if p.id not in known)])
    return [(bm, p, keys.key(p.id)) for bm, p in zip(bookmarks, papers, strict=True)]


def to_bibtex(
    bookmarks: Sequence[Bookmark],
    lookup: Lookup | None = None,
    all_papers: Sequence[Paper] = (),
) -> str:
    """``@inproceedings`` entries with the tags as ``keywords``."""
    from index_builder.citations.styles import bibtex

    entries = _keyed(bookmarks, lookup, all_papers)
    text = "\n".join(bibtex(p, key, bm.tags).rstrip("\n") + "\n" for bm, p, key in entries)
    return safe(text)  # no escape sequence reaches a terminal that shows the file


def to_exchange(
    bookmarks: Sequence[Bookmark],
    fmt: str,
    lookup: Lookup | None = None,
    all_papers: Sequence[Paper] = (),
) -> str:
    """RIS or CSL-JSON (``fmt``) with each bookmark's note and tags."""
    from index_builder.citations.documents import exchange_text
    from index_builder.citations.exchange import reference

    entries = _keyed(bookmarks, lookup, all_papers)
    refs = [reference(p, key, note=bm.note, tags=bm.tags) for bm, p, key in entries]
    return exchange_text(refs, fmt)


def _md(text: str) -> str:
    """Text safe inside a Markdown list item or link label."""
    text = " ".join(safe(text).split())
    for char in "\\`*_[]<>#|":
        text = text.replace(char, "\\" + char)
    return text


def _md_times(bm: Bookmark, lookup: Lookup | None, setting: str) -> list[str]:
    """One sub-item per presentation: session, time in the chosen zone, board and room."""
    out = []
    for slot in slots_of(bm, lookup):
        ev = slot.event
        if not (ev.session or ev.starts_at):
            continue
        when = describe(ev.starts_at, ev.ends_at, setting, slot.venue, ev.session)
        name = ev.session or ("Talk" if ev.kind == "oral" else "Session")
        out.append(f"  - {_md(', '.join(p for p in (name, when, slot.place) if p))}")
    return out


def to_markdown(
    bookmarks: Sequence[Bookmark], lookup: Lookup | None = None, setting: str = DEFAULT_SETTING
) -> str:
    """A checklist grouped by status (reading, to read, read), sessions and notes under each.

    Session times are in the zone ``setting`` chooses (:mod:`index_builder.times`).
    """
    items = current(bookmarks, lookup)
    lines = ["# Reading list", ""]
    for status in ("reading", "to-read", "read"):
        group = [b for b in items if b.status == status]
        if not group:
            continue
        lines += [f"## {_STATUS_HEADINGS[status]} ({len(group)})", ""]
        for bm in group:
            title = _md(bm.copy.title or bm.paper_id)
            link = safe(bm.copy.openreview_url or bm.copy.url).replace(">", "%3E")
            label = f"[{title}](<{link}>)" if link.startswith(("http://", "https://")) else title
            if bm.copy.title_derived:
                label += " (title derived from the abstract)"
            authors = _md(", ".join(bm.copy.authors)) if bm.copy.authors else "authors unknown"
            lines.append(f"- [{'x' if status == 'read' else ' '}] {label}: {authors}")
            lines += _md_times(bm, lookup, setting)
            if bm.tags:
                lines.append(f"  - tags: {_md(', '.join(bm.tags))}")
            lines += [f"  > {_md(line) or ' '}" for line in bm.note.splitlines()]
        lines.append("")
    if len(lines) == 2:
        lines.append("(empty)")
    return "\n".join(lines).rstrip("\n") + "\n"


def neutralise_cell(cell: str) -> str:
    """A CSV cell a spreadsheet will not run as a formula (a leading ``'`` if needed)."""
    return "'" + cell if cell.startswith(_FORMULA_START) else cell


def to_csv(bookmarks: Sequence[Bookmark], lookup: Lookup | None = None) -> str:
    """UTF-8 CSV with a header row; escape sequences and controls removed, formula-like
    cells neutralised."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(CSV_COLUMNS)
    for bm in current(bookmarks, lookup):
        copy = bm.copy
        row = [
            copy.id, bm.status, copy.title, "; ".join(copy.authors), bm.added_at,
            bm.updated_at, bm.note, copy.session, copy.starts_at, copy.ends_at, copy.url,
            copy.openreview_url, "; ".join(bm.tags),
        ]  # fmt: skip
        writer.writerow([neutralise_cell(safe(cell)) for cell in row])
    return buffer.getvalue()


def to_json(
    bookmarks: Sequence[Bookmark],
    lookup: Lookup | None = None,
    *,
    now: datetime | None = None,
    dismissed: Sequence[dict[str, Any]] = (),
) -> str:
    """A JSON object with the format name, its version, every bookmark and the papers
    dismissed from For you (``{"paper_id", "dismissed_at"}``)."""
    data = {
        "format": JSON_FORMAT,
        "version": JSON_VERSION,
        "exported_at": now_iso() if now is None else now.astimezone(UTC).isoformat(),
        "bookmarks": [bm.to_json() for bm in current(bookmarks, lookup)],
        "dismissed": list(dismissed),
    }
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


def read_json(text: str) -> list[Bookmark]:
    """Bookmarks from a JSON export (or a ``reading-list list --json`` array).

    Raises ``ValueError`` with a readable message for anything else.
    """
    try:
        data: Any = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"not JSON ({exc.msg} at line {exc.lineno})") from exc
    except RecursionError as exc:
        raise ValueError("not a reading-list export (nested too deeply)") from exc
    if isinstance(data, dict):
        if data.get("format") != JSON_FORMAT:
            raise ValueError("not a PaperScope reading-list export (no 'format' field)")
        version = data.get("version")
        if not isinstance(version, int) or version > JSON_VERSION:
            raise ValueError(f"export version {version!r} is newer than this PaperScope reads")
        data = data.get("bookmarks")
    if not isinstance(data, list):
        raise ValueError("expected a list of bookmarks")
    out = []
    for n, item in enumerate(data, 1):
        try:
            out.append(Bookmark.from_json(item))
        except ValueError as exc:
            raise ValueError(f"bookmark {n}: {exc}") from exc
    return out


def read_dismissed(text: str) -> list[dict[str, Any]]:
    """The dismissed papers of a JSON export (none in a bare list or an older export)."""
    try:
        data: Any = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        return []
    found = data.get("dismissed") if isinstance(data, dict) else None
    if not isinstance(found, list):
        return []
    return [d for d in found if isinstance(d, dict) and isinstance(d.get("paper_id"), str)]


def export(
    bookmarks: Sequence[Bookmark],
    fmt: str,
    *,
    lookup: Lookup | None = None,
    all_papers: Sequence[Paper] = (),
    now: datetime | None = None,
    timezone: str = DEFAULT_SETTING,
    dismissed: Sequence[dict[str, Any]] = (),
) -> str:
    """The text of ``bookmarks`` in ``fmt`` (one of :data:`FORMATS`).

    ``timezone`` is the zone setting for times shown to a person (Markdown); the
    calendar stays in UTC. ``dismissed`` (papers dismissed from For you) goes into JSON.
    """
    if fmt == "bibtex":
        return to_bibtex(bookmarks, lookup, all_papers)
    if fmt == "markdown":
        return to_markdown(bookmarks, lookup, timezone)
    if fmt == "csv":
        return to_csv(bookmarks, lookup)
    if fmt == "json":
        return to_json(bookmarks, lookup, now=now, dismissed=dismissed)
    if fmt == "ics":
        return to_ics(current(bookmarks, lookup), now=now, lookup=lookup)
    if fmt in ("ris", "csljson"):
        return to_exchange(bookmarks, fmt, lookup, all_papers)
    raise ValueError(f"unknown format {fmt!r}: use one of {', '.join(FORMATS)}")


def default_export_path(data_dir: Path, fmt: str, *, now: datetime | None = None) -> Path:
    """``<data dir>/exports/reading-list-20261202T193000.bib`` and the like."""
    stamp = (now or datetime.now(UTC)).strftime("%Y%m%dT%H%M%S")
    return Path(data_dir) / "exports" / f"reading-list-{stamp}{SUFFIXES[fmt]}"
