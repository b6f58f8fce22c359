"""An iCalendar (RFC 5545) file of the presentations of bookmarked papers, written by icalendar.

One VEVENT per presentation with a time (the poster session and, for an oral, its talk:
every event the planner lists), in UTC. The icalendar package writes the file: lines end in
CRLF and are folded under 75 octets, never inside a character or an escape; text values
escape backslash, comma, semicolon and newlines. What we hand it is cleaned first
(:func:`clean_ics_text`): control characters that calendar parsers split lines on are dropped.
A paper whose session overlaps another bookmarked paper's says so in DESCRIPTION.
LOCATION names the session and, when the data has them, the poster board and room;
``X-WR-TIMEZONE`` names the venue's zone so calendar apps can show the conference's time.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from index_builder.model import Event
from index_builder.readinglist.bookmark import Bookmark, Lookup, paper_of
from index_builder.readinglist.schedule import clashes, parse_time, slots_of
from index_builder.times import event_place
from index_builder.venues import session_zone

if TYPE_CHECKING:
    from icalendar import Calendar, vDatetime
    from icalendar import Event as VEvent

PRODID = "-//PaperScope//Reading list//EN"
_MAX_CLASH_NAMES = 5
# icalendar folds a content line of this many octets or more (into lines of at most 74).
_FOLD_AT = 75
# C0 controls but the newline, DEL, C1 controls and the Unicode line separators: parsers
# split lines on some of them (a translation table: one C call per text, not one per char).
_DROPPED = dict.fromkeys(
    c for c in (*range(0x20), 0x7F, *range(0x80, 0xA0), 0x2028, 0x2029) if c != 0x0A
)


def clean_ics_text(value: str) -> str:
    """The text as a calendar will show it: newlines kept, other control characters dropped.

    A backslash before ``N`` is a line break too: RFC 5545 reads ``\\N`` as one, and
    icalendar writes it so.
    """
    value = value.replace("\r\n", "\n").replace("\r", "\n").translate(_DROPPED)
    return value.replace("\\N", "\n")  # after the drop, which can bring \ and N together


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


class _Times(dict[datetime, "vDatetime"]):
    """icalendar's value of each UTC time, made once: a list's events share a few session
    times and one stamp, and making the value (its parameters, its zone) is most of the
    cost of adding it. A value is only read when the calendar is written."""

    def __missing__(self, moment: datetime) -> vDatetime:
        from icalendar import vDatetime

        made = self[moment] = vDatetime(moment.astimezone(UTC))
        return made


def _vevent(
    bm: Bookmark,
    event: Event,
    key: str,
    times: _Times,
    stamp: datetime,
    rival_map: dict[str, tuple[Bookmark, ...]],
) -> VEvent | None:
    """The VEVENT of one presentation (``None`` when it has no start time)."""
    from icalendar import Event as VEvent

    starts = parse_time(event.starts_at)
    if starts is None:
        return None
    ends = parse_time(event.ends_at)
    link = bm.copy.openreview_url or bm.copy.url
    details = [event.session, ", ".join(bm.copy.authors), link]
    if bm.paper_id in rival_map:
        details.append(_clash_note(rival_map[bm.paper_id]))
    title = bm.copy.title or bm.paper_id
    out = VEvent()
    out.add("uid", event_uid(key))
    out.add("dtstamp", times[stamp])
    out.add("dtstart", times[starts])
    if ends is not None and ends > starts:
        out.add("dtend", times[ends])
    out.add("summary", clean_ics_text(f"Talk: {title}" if event.kind == "oral" else title))
    if location := _location(event):
        out.add("location", clean_ics_text(location))
    out.add("description", clean_ics_text("\n".join(d for d in details if d)))
    if link.startswith(("https://", "http://")) and link.isprintable() and " " not in link:
        out.add("url", link)
    return out


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
    # Imported here: ~0.1 s, and most runs of the app export no calendar.
    from icalendar import Calendar, vText

    stamp = (now or datetime.now(UTC)).astimezone(UTC).replace(microsecond=0)
    rival_map = clashes(bookmarks, lookup)
    calendar = Calendar()
    calendar.add("version", "2.0")
    calendar.add("prodid", PRODID)
    calendar.add("calscale", "GREGORIAN")
    calendar.add("method", "PUBLISH")
    if zone := venue_timezone(bookmarks, lookup):
        calendar.add("x-wr-timezone", vText(clean_ics_text(zone)))  # escaped as TEXT
    times = _Times()
    for bm in bookmarks:
        seen: set[str] = set()
        for slot in slots_of(bm, lookup):
            key = _uid_key(bm, slot.event, seen)
            event = _vevent(bm, slot.event, key, times, stamp, rival_map)
            if event is not None:
                calendar.add_component(event)
    return _written(calendar)


def _written(calendar: Calendar) -> str:
    """The calendar's text, as ``calendar.to_ical(sorted=False)`` writes it (the properties
    in the order added, as calendars have had them): each of icalendar's content lines,
    folded by icalendar (``Contentline.to_ical``) when it is 75 octets or longer. A shorter
    line is one icalendar leaves as it is, and folding it a character at a time in Python
    was a quarter of the calendar's cost."""
    out = []
    for line in calendar.content_lines(sorted=False):
        octets = line.encode("utf-8")
        if len(octets) >= _FOLD_AT:
            out.append(line.to_ical())
        elif octets:
            out.append(octets)
    return (b"\r\n".join(out) + b"\r\n").decode("utf-8")
