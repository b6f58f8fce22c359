"""A conference site's official feeds (FEEDS.md): the events feed and the abstracts file.

``{conf}-{year}-orals-posters.json`` is ``{"count": N, "results": [record, ...]}``, one
record per event (a paper with a talk has a Poster and an Oral record);
``{conf}-{year}-abstracts.json`` maps each event id (a string) to its abstract. The
file name names the venue (:mod:`index_builder.venues`): a known venue's records
become table rows of that venue (merged with the bundled table for ICML 2026); a
feed whose venue is unknown (a renamed download given with ``--source``) gives
plain records, which join by title and are cited without a venue.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from index_builder import venues
from index_builder.model import Paper, SourceProblem
from index_builder.sources import json_fields as fields
from index_builder.sources.json_fields import Record, event_id_of
from index_builder.sources.records import PaperRecord
from index_builder.sources.table import unescape_html
from index_builder.sources.types import (
    SharedStrings,
    SourceData,
    SourceError,
    SourceText,
    TableRow,
    load_json,
)

_TRACK = re.compile(r"[?&]id=[^/&#]+/\d{4}/(?P<group>[^/?&#]+)")
_MAIN_GROUP = "conference"
_UID = re.compile(r"^[0-9a-fA-F]{8,64}$")
FEED_FILE = re.compile(r"^(?P<conf>[a-z]+)-(?P<year>\d{4})-orals-posters\.json$")
ABSTRACTS_FILE = re.compile(r"^(?P<conf>[a-z]+)-(?P<year>\d{4})-abstracts\.json$")
_DIGIT_KEY = re.compile(r'\s*\{\s*"\d+"\s*:')


NOT_A_FEED = 'not a conference feed (no "results" list)'
"""What a document without a ``results`` list is told, wherever it is read."""


def feed_document(data: Any) -> Record | None:
    """The top level of a feed document (an object with a ``results`` list), else ``None``."""
    found = fields.record(data)
    return found if found is not None and isinstance(found.get("results"), list) else None


@dataclass(slots=True)
class Feed:
    """The usable records of an events feed, with what was skipped and the stated count."""

    rows: list[TableRow] = field(default_factory=list)
    count: int | None = None
    received: int = 0
    skipped: dict[str, int] = field(default_factory=dict)


def venue_of(file_name: str) -> str:
    """The key of the known venue a feed file's name names (``icml2026``), else ``""``."""
    match = FEED_FILE.match(file_name) or ABSTRACTS_FILE.match(file_name)
    if match is None:
        return ""
    known = venues.venue(match["conf"] + match["year"])
    return known.key if known else ""


def loads(text: str | bytes, *, made_safe: bool = False) -> Any:
    """JSON text as data; every failure is a :class:`SourceError` saying why (``made_safe``:
    see :func:`~index_builder.sources.types.load_json`)."""
    return load_json(text, SourceError, made_safe=made_safe)


_Same = Callable[[str], str]


def _alone(text: str) -> str:
    return text


def _text(data: Record, key: str, *more: str) -> str:
    """A field (else the first of ``more`` present) as display-ready text
    (:func:`.json_fields.text`), entities undone (even doubly escaped)."""
    value = data.get(key)
    # A feed has ~170,000 fields, nearly all plain ASCII strings: for those the reader
    # and the entities change nothing but the strip, and the calls cost most of a parse.
    if value.__class__ is str and value and value.isascii() and "&" not in value:
        return value.strip()
    return unescape_html(fields.text(data, key, *more))


def _people(data: Record, same: _Same = _alone) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Author names and their distinct institutions from a record's ``authors`` list
    (each institution made one string with its equals by ``same``)."""
    names: list[str] = []
    places: list[str] = []
    for item in fields.records(data, "authors"):
        if name := _text(item, "fullname", "name"):
            names.append(_one_spaced(name))
        if place := _text(item, "institution"):
            places.append(same(_one_spaced(place)))
    return tuple(names), tuple(dict.fromkeys(places))


def _one_spaced(text: str) -> str:
    """A stripped text's words one space apart: the text itself when it holds no space but
    single ``" "`` (printable: no tab, newline or other space), without splitting it
    (a feed's 77,000 names and places, two thirds of :func:`_people`'s time)."""
    return text if "  " not in text and text.isprintable() else " ".join(text.split())


def track_of(source_url: str) -> str:
    """The track a record's ``sourceurl`` (its OpenReview group) names.

    ``.../group?id=ICML.cc/2026/Conference`` -> ``main``, ``.../Position_Paper_Track``
    -> ``position``, ``.../Journal_Track`` -> ``journal``, ``.../Datasets_and_Benchmarks_Track``
    -> ``datasets and benchmarks``; ``""`` when it names no group.
    """
    match = _TRACK.search(source_url)
    if match is None:
        return ""
    words = match["group"].replace("_", " ").split()
    if [w.casefold() for w in words] == [_MAIN_GROUP]:
        return "main"
    while words and words[-1].casefold() in ("track", "paper"):
        words.pop()
    if len(words) > 1 and words[-1].casefold() == "paper":
        words.pop()
    return " ".join(words).casefold()


def event_type(data: Record) -> str:
    """A record's ``eventtype``: ``Poster`` (also when missing), ``Oral``, or the talk's kind
    as the feed names it (``Spotlight``), each a talk of its paper's."""
    kind = _text(data, "eventtype").strip()
    if not kind or kind.casefold() == "poster":
        return "Poster"
    return "Oral" if kind.casefold() == "oral" else kind


def feed_row(value: Any, venue_key: str, same: _Same = _alone) -> TableRow:
    """One feed record as a table row; raises :class:`SourceError` naming what it lacks.

    ``same`` gives the one string kept for each value of the fields many records share
    (a session, a time, a room): parse_feed's makes them one object, so the caches that
    pickle the rows and their papers store each value once."""
    record = fields.record(value)
    if record is None:
        raise SourceError("not an object")
    event_id = event_id_of(record.get("id"))
    if event_id is None:
        raise SourceError("no id")
    title = _text(record, "name")
    if not title:
        raise SourceError("no name")
    known = venues.venue(venue_key)
    page = _text(record, "virtualsite_url")
    url = f"https://{known.host}{page}" if known and page.startswith("/") else ""
    paper_url = _text(record, "paper_url")
    authors, institutions = _people(record, same)
    paper = Paper(
        id="",
        title="",
        title_raw=title,
        decision=same(_text(record, "decision")),
        topic=same(_text(record, "topic")),
        session=same(_text(record, "session")),
        starts_at=same(_text(record, "starttime")),
        ends_at=same(_text(record, "endtime")),
        url=url or _text(record, "url"),
        openreview_url=paper_url if "openreview.net" in paper_url else "",
        authors=authors,
        institutions=institutions,
        abstract_raw=fields.text(record, "abstract"),
        track=same(track_of(_text(record, "sourceurl"))),
    )
    uid = _text(record, "uid").strip()
    related = map(event_id_of, fields.items(record, "related_events_ids"))
    return TableRow(
        event_id,
        event_type(record),
        paper,
        venue_key=venue_key,
        room=same(_text(record, "room_name")),
        poster_position=_text(record, "poster_position"),
        related=tuple(i for i in related if i),
        uid=uid if _UID.match(uid) else "",
    )


def parse_feed(data: Any, venue_key: str) -> Feed:
    """The rows of an events feed document; raises :class:`SourceError` if it is not one."""
    document = feed_document(data)
    if document is None:
        raise SourceError(NOT_A_FEED)
    feed = Feed(count=fields.whole(document, "count"), received=len(document["results"]))
    same = SharedStrings().__getitem__
    for record in document["results"]:
        try:
            feed.rows.append(feed_row(record, venue_key, same))
        except SourceError as exc:
            feed.skipped[str(exc)] = feed.skipped.get(str(exc), 0) + 1
    return feed


def parse_abstracts(data: Any) -> dict[int, str]:
    """An abstracts file as ``{event id: abstract}``; :class:`SourceError` if it is not one."""
    if not isinstance(data, dict):
        raise SourceError("the abstracts file is not a JSON object of id: abstract")
    out: dict[int, str] = {}
    for key in data:
        event_id = event_id_of(key)
        if event_id is not None and (abstract := fields.text(data, key)):
            out[event_id] = abstract
    if data and not out:
        raise SourceError("the abstracts file holds no id: abstract pair")
    return out


def skipped_note(feed: Feed) -> str:
    """``3 of 120 records skipped (2 no id; 1 no name)``, or ``""``."""
    skipped = sum(feed.skipped.values())
    if not skipped:
        return ""
    why = "; ".join(f"{n} {reason}" for reason, n in sorted(feed.skipped.items()))
    return f"{skipped} of {feed.received} records skipped ({why})"


def _records(rows: Iterable[TableRow], file: str) -> list[PaperRecord]:
    """Rows of a feed whose venue is unknown as plain records (no event id, no venue)."""
    return [
        PaperRecord(file, n, replace(r.paper, oral=r.event_type == "Oral", spotlight=_spot(r)))
        for n, r in enumerate(rows, start=1)
    ]


def _spot(row: TableRow) -> bool:
    """True for a row whose decision is a spotlight."""
    return row.paper.decision.lower() == "accept (spotlight)"


def read_feed(source: SourceText) -> SourceData | None:
    """A conference feed or abstracts file (see the module doc); ``None`` for other files."""
    name = source.path.name
    named_feed, named_abstracts = FEED_FILE.match(name), ABSTRACTS_FILE.match(name)
    text = source.text
    if not (named_feed or named_abstracts or '"results"' in text or _DIGIT_KEY.match(text)):
        return None
    try:
        data = loads(text, made_safe=True)  # decode made the file's text safe
    except SourceError:
        if named_feed or named_abstracts:
            raise
        return None
    venue_key = venue_of(name)
    if named_abstracts or (not named_feed and isinstance(data, dict) and "results" not in data):
        return abstracts_source(source.path, parse_abstracts(data), venue_key)
    if feed_document(data) is None:
        if named_feed:
            raise SourceError(NOT_A_FEED)
        return None
    return feed_source(source.path, parse_feed(data, venue_key), venue_key)


def abstracts_source(path: Path, official: dict[int, str], venue_key: str) -> SourceData:
    """What reading an abstracts file whose entries are ``official`` gives."""
    out = SourceData(path, venue=venue_key, official=official)
    if not official:
        out.problems.append(SourceProblem(str(path), "no abstracts in it", fatal=False))
    return out


def feed_source(path: Path, feed: Feed, venue_key: str) -> SourceData:
    """What reading a feed file that gave ``feed`` (parsed as ``venue_key``'s) gives: its
    rows, or plain records when its venue is unknown, with notes of what is missing;
    :class:`SourceError` when no record is usable."""
    if feed.received and not feed.rows:
        raise SourceError(f"no usable record: {skipped_note(feed)}")
    out = SourceData(path, venue=venue_key)
    if feed.count is not None and feed.count > feed.received:
        note = f"a partial feed: {feed.received} of {feed.count} records"
        out.problems.append(SourceProblem(str(path), note, fatal=False))
    if note := skipped_note(feed):
        out.problems.append(SourceProblem(str(path), note, fatal=False))
    if venue_key:
        out.rows = feed.rows
    else:
        out.records = _records(feed.rows, path.name)
    return out
