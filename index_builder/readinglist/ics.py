"""An iCalendar (RFC 5545) file of the presentations of bookmarked papers, written by hand.

One VEVENT per presentation with a time (the poster session and, for an oral, its talk:
every event the planner lists), in UTC; lines end in CRLF and are
folded at 75 octets; text values escape backslash, comma, semicolon and newlines.
A paper whose session overlaps another bookmarked paper's says so in DESCRIPTION.
LOCATION names the session and, when the data has them, the poster board and room;
``X-WR-TIMEZONE`` names the venue's zone so calendar apps can show the conference's time.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from datetime import UTC, datetime

from index_builder.model import Event
from index_builder.readinglist.bookmark import Bookmark, Lookup, paper_of
from index_builder.readinglist.schedule import clashes, parse_time, slots_of
from index_builder.times import event_place
from index_builder.venues import session_zone

PRODID = "-//PaperScope//Reading list//EN"
_MAX_CLASH_NAMES = 5
# C0 controls but the newline, DEL, C1 controls and the Unicode line separators: parsers
# split lines on some of them (a translation table: one C call per text, not one per char).
_DROPPED = dict.fromkeys(
    c for c in (*range(0x20), 0x7F, *range(0x80, 0xA0), 0x2028, 0x2029) if c != 0x0A
)


def clean_ics_text(value: str) -> str:
    """The text as a calendar will show it: newlines kept, other control characters dropped."""
    value = value.replace("\r\n", "\n").replace("\r", "\n")
    return value.translate(_DROPPED)


def escape_text(value: str) -> str:
    """Escape a TEXT value: ``\\`` ``;`` ``,`` and newlines (other controls dropped)."""
    value = clean_ics_text(value)
    return value.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,").replace("\n", "\\n")


def fold(line: str) -> str:
    """Fold a content line into CRLF-joined pieces of at most 75 octets, whole characters."""
    data = line.encode("utf-8")
    if len(data) <= 75:
        return line
    pieces: list[bytes] = []
    start, limit = 0, 75  # a continuation line's leading space counts: 74 octets after it
    while len(data) - start > limit:
        end = start + limit
        while data[end] & 0xC0 == 0x80:  # never cut inside a character
            end -= 1
        pieces.append(data[start:end])
        start, limit = end, 74
    pieces.append(data[start:])
    return "\r\n ".join(piece.decode("utf-8") for piece in pieces)


def utc_stamp(moment: datetime) -> str:
    """``20260708T013000Z`` for an aware datetime."""
    return moment.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")


def event_uid(paper_id: str) -> str:
    """A UID that stays the same for a paper across exports."""
    digest = hashlib.sha256(paper_id.encode("utf-8")).hexdigest()[:24]
    return f"{digest}@paperscope"


def _clash_note(rivals: Sequence[Bookmark]) -> str:
    names = [
        f"{r.copy.title or r.paper_id} ({r.copy.session or 'no session name'})" for r in rivals
    ]
    shown = "; ".join(names[:_MAX_CLASH_NAMES])
    more = len(names) - _MAX_CLASH_NAMES
    return f"Clashes with: {shown}" + (f"; and {more} more" if more > 0 else "")


def _location(event: Event) -> str:
    """The session, then the poster board and room when the data has them."""
    return ", ".join(part for part in (event.session, event_place(event)) if part)


def _uid_key(bm: Bookmark, event: Event, seen: set[str]) -> str:
    """The paper's id for its (first) poster session, as in earlier exports; the id and
    the kind (and a number when repeated) for its talk and any further event."""
    key = bm.paper_id if event.kind == "poster" else f"{bm.paper_id}/{event.kind}"
    n = 1
    while key in seen:
        n += 1
        key = f"{bm.paper_id}/{event.kind}/{n}"
    seen.add(key)
    return key


def _vevent(
    bm: Bookmark, event: Event, key: str, stamp: str, rival_map: dict[str, tuple[Bookmark, ...]]
) -> list[str]:
    """The VEVENT lines of one presentation (none when it has no start time)."""
    starts = parse_time(event.starts_at)
    if starts is None:
        return []
    ends = parse_time(event.ends_at)
    link = bm.copy.openreview_url or bm.copy.url
    details = [event.session, ", ".join(bm.copy.authors), link]
    if bm.paper_id in rival_map:
        details.append(_clash_note(rival_map[bm.paper_id]))
    title = bm.copy.title or bm.paper_id
    lines = ["BEGIN:VEVENT", f"UID:{event_uid(key)}", f"DTSTAMP:{stamp}"]
    lines.append(f"DTSTART:{utc_stamp(starts)}")
    if ends is not None and ends > starts:
        lines.append(f"DTEND:{utc_stamp(ends)}")
    summary = f"Talk: {title}" if event.kind == "oral" else title
    lines.append(f"SUMMARY:{escape_text(summary)}")
    if location := _location(event):
        lines.append(f"LOCATION:{escape_text(location)}")
    lines.append(f"DESCRIPTION:{escape_text(chr(10).join(d for d in details if d))}")
    if link.startswith(("https://", "http://")) and link.isprintable() and " " not in link:
        lines.append(f"URL:{link}")
    lines.append("END:VEVENT")
    return lines


def venue_timezone(bookmarks: Sequence[Bookmark], lookup: Lookup | None) -> str:
    """The IANA zone of the first bookmarked paper from a known venue ('' when none is):
    the zone of its session's site when the venue is held in several cities."""
    for bm in bookmarks:
        paper = paper_of(bm, lookup)
        zone = session_zone(paper.venue, bm.copy.session) if paper is not None else ""
        if zone:
            return zone
    return ""


def to_ics(
    bookmarks: Sequence[Bookmark],
    *,
    now: datetime | None = None,
    lookup: Lookup | None = None,
) -> str:
    """The calendar text of every presentation with a start time of the bookmarked papers."""
    stamp = utc_stamp(now or datetime.now(UTC))
    rival_map = clashes(bookmarks, lookup)
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", f"PRODID:{PRODID}", "CALSCALE:GREGORIAN"]
    lines.append("METHOD:PUBLISH")
    zone = venue_timezone(bookmarks, lookup)
    if zone:
        lines.append(f"X-WR-TIMEZONE:{escape_text(zone)}")
    for bm in bookmarks:
        seen: set[str] = set()
        for slot in slots_of(bm, lookup):
            lines += _vevent(bm, slot.event, _uid_key(bm, slot.event, seen), stamp, rival_map)
    lines.append("END:VCALENDAR")
    return "".join(fold(line) + "\r\n" for line in lines)
