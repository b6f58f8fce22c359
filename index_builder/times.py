"""Session times as a person reads them: parsed safely, put in the chosen zone, written as a
programme writes them (``Wed 8 Jul, 10:30–12:15 KST``).

The data's times are ISO 8601 text with the offset of the site that published them, not
of the venue (ICML 2026 writes ``-07:00`` for sessions in Seoul). The zone setting says
where a person wants them: ``venue`` (the default: the IANA zone of the session's site,
from :mod:`index_builder.venues`: a conference in several cities shows each session in its
own city's time; a venue not known keeps the offset its times came with),
``local`` (this computer's zone) or an IANA name (``Europe/Berlin``).

Anything doubtful is "time unknown", never a guess: a time with no offset, one that does
not parse, an end before its start, a year at the edge of the calendar (1 or 9999, where
converting to a zone would overflow).
"""

from __future__ import annotations

import os
from datetime import UTC, date, datetime, tzinfo
from pathlib import Path
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from index_builder.model import Event, Paper
from index_builder.venues import session_zone

VENUE = "venue"
LOCAL = "local"
DEFAULT_SETTING = VENUE
UNKNOWN = "time unknown"
_MIN_YEAR, _MAX_YEAR = 1900, 2999
_LOCALTIME = Path("/etc/localtime")


def parse_time(value: str | None) -> datetime | None:
    """An aware datetime from ISO 8601 text with an offset; None if absent or doubtful."""
    if not value or not isinstance(value, str):
        return None
    try:
        stamp = datetime.fromisoformat(value.strip())
    except ValueError:
        return None
    if stamp.tzinfo is None or stamp.utcoffset() is None:
        return None
    try:
        # Year 1 or 9999 overflow when moved to UTC, year 5 would be written "5..." in a
        # calendar: a time outside any plausible conference is unknown, not a crash.
        if not _MIN_YEAR <= stamp.astimezone(UTC).year <= _MAX_YEAR:
            return None
    except OverflowError:
        return None
    return stamp


def parse_span(starts_at: str, ends_at: str = "") -> tuple[datetime, datetime | None] | None:
    """The start and (when readable) end of a session; None when its time is unknown.

    An end before its start makes the whole span unknown: one of the two is wrong and
    nothing tells which. An unreadable end leaves the start alone.
    """
    start = parse_time(starts_at)
    if start is None:
        return None
    end = parse_time(ends_at)
    if end is not None and end < start:
        return None
    return start, end


def zone_named(name: str) -> ZoneInfo | None:
    """The IANA zone ``name`` (``Asia/Seoul``, or ``asia/seoul``), None when there is none."""
    name = canonical_zone(name) or ""
    try:
        return ZoneInfo(name) if name else None
    except (ZoneInfoNotFoundError, ValueError, OSError):
        return None


def canonical_zone(name: str) -> str | None:
    """The IANA spelling of zone ``name`` (any case), or None when there is no such zone."""
    name = name.strip()
    if not name or name.lower() in (VENUE, LOCAL):
        return None
    try:
        ZoneInfo(name)
        return name
    except (ZoneInfoNotFoundError, ValueError, OSError):
        pass
    folded = name.casefold()
    return next((z for z in available_timezones() if z.casefold() == folded), None)


def check_setting(value: object) -> str | None:
    """Why ``value`` is not a usable ``timezone`` setting, or None when it is."""
    if isinstance(value, str) and (value.strip().lower() in (VENUE, LOCAL) or zone_named(value)):
        return None
    return (
        f'timezone = {value!r} is not a time zone: use "venue", "local" or an IANA '
        f'name such as "Europe/Berlin"; using "{DEFAULT_SETTING}"'
    )


def normal_setting(value: str | None) -> str:
    """The setting as used: ``venue``, ``local`` or a zone name; a bad one is the default."""
    if value is None or check_setting(value) is not None:
        return DEFAULT_SETTING
    lowered = value.strip().lower()
    return lowered if lowered in (VENUE, LOCAL) else canonical_zone(value) or DEFAULT_SETTING


def venue_zone(venue: str, session: str = "") -> ZoneInfo | None:
    """The IANA zone of a session of the venue a paper names (``ICML 2026``): the zone of
    the site the session's name begins with, else the venue's; None when not known."""
    zone = session_zone(venue, session)
    return zone_named(zone) if zone else None


def local_zone() -> tzinfo:
    """This computer's zone with its rules (summer time included), not today's offset.

    ``TZ`` when it names a zone, else the zone ``/etc/localtime`` is (or links to); when
    neither can be read, the offset in force now, as the C library gives it.
    """
    name = os.environ.get("TZ", "").strip().removeprefix(":")
    if name:
        found = zone_named(name) if not name.startswith("/") else _zone_file(Path(name))
        if found is not None:
            return found
    else:
        found = _zone_file(_LOCALTIME)
        if found is not None:
            return found
    return datetime.now().astimezone().tzinfo or UTC


def _zone_file(path: Path) -> tzinfo | None:
    """The zone a TZif file holds (named after its zoneinfo path when it has one)."""
    try:
        target = str(path.resolve())
        _, sep, tail = target.partition("/zoneinfo/")
        named = zone_named(tail) if sep else None
        if named is not None:
            return named
        with path.open("rb") as fh:
            return ZoneInfo.from_file(fh, key=tail or None)
    except (OSError, ValueError):
        return None


def convert(
    moment: datetime, setting: str = DEFAULT_SETTING, venue: str = "", session: str = ""
) -> datetime:
    """``moment`` in the zone the setting chooses for a session of a paper of ``venue``."""
    setting = normal_setting(setting)
    if setting == LOCAL:
        return moment.astimezone(local_zone())
    zone = venue_zone(venue, session) if setting == VENUE else zone_named(setting)
    return moment.astimezone(zone) if zone is not None else moment


def zone_label(moment: datetime) -> str:
    """The zone's abbreviation (``KST``, ``CEST``) or its offset (``UTC-07:00``)."""
    name = moment.tzname() or ""
    if name and not name.startswith(("+", "-")):
        return name
    offset = moment.strftime("%z")
    return f"UTC{offset[:3]}:{offset[3:]}" if offset else "UTC"


def short_day(moment: datetime | date) -> str:
    """``Wed 8 Jul``."""
    return f"{moment:%a} {moment.day} {moment:%b}"


def long_day(day: date) -> str:
    """``Wednesday 8 July 2026``."""
    return f"{day:%A} {day.day} {day:%B %Y}"


def clock_span(start: datetime, end: datetime | None) -> str:
    """``10:30–12:15`` in ``start``'s zone (``22:30–00:15`` past midnight; the day is the
    start's); an end a day or more later names its day."""
    text = f"{start:%H:%M}"
    if end is not None:
        end = end.astimezone(start.tzinfo)
        long = (end - start).total_seconds() >= 86_400
        text += f"–{short_day(end)} {end:%H:%M}" if long else f"–{end:%H:%M}"
    return text


def format_span(start: datetime, end: datetime | None) -> str:
    """``Wed 8 Jul, 10:30–12:15 KST`` for times already in the zone to show."""
    return f"{short_day(start)}, {clock_span(start, end)} {zone_label(start)}"


def describe(
    starts_at: str,
    ends_at: str = "",
    setting: str = DEFAULT_SETTING,
    venue: str = "",
    session: str = "",
) -> str:
    """A session's time as a programme writes it, in the chosen zone (by default the zone
    of the session's site), or ``time unknown``."""
    span = parse_span(starts_at, ends_at)
    if span is None:
        return UNKNOWN
    start = convert(span[0], setting, venue, session)
    end = convert(span[1], setting, venue, session) if span[1] is not None else None
    return format_span(start, end)


def paper_events(paper: Paper) -> tuple[Event, ...]:
    """Every presentation of ``paper`` in time order (unknown times last).

    A paper from a source without ``events`` gets one from its ``session`` fields.
    """
    events = paper.events
    if not events and (paper.session or paper.starts_at):
        kind = "oral" if paper.oral else "poster"
        events = (Event(kind, paper.session, paper.starts_at, paper.ends_at, paper.event_id),)
    return tuple(sorted(events, key=lambda e: instant_key(e.starts_at)))


def first_event(paper: Paper) -> Event:
    """The paper's earliest presentation (an oral's talk when it comes before its poster
    session); one made of the paper's own session fields when none has a known time."""
    events = paper_events(paper)
    if events and parse_time(events[0].starts_at) is not None:
        return events[0]
    return Event("oral" if paper.oral else "poster", paper.session, paper.starts_at, paper.ends_at)


def instant_key(starts_at: str) -> tuple[bool, float]:
    """A sort key by the moment (zone-independent), unknown times last."""
    start = parse_time(starts_at)
    return (start is None, start.astimezone(UTC).timestamp() if start else 0.0)


def event_place(event: Event) -> str:
    """``board #2504, Hall C`` from the event's poster position and room ('' when unknown)."""
    parts = []
    if event.poster_position.strip():
        parts.append(f"board {event.poster_position.strip()}")
    if event.room.strip():
        parts.append(event.room.strip())
    return ", ".join(parts)


def event_kind(event: Event) -> str:
    """``Talk`` for an oral's talk, ``Poster`` otherwise."""
    return "Talk" if event.kind == "oral" else "Poster"


def event_line(event: Event, setting: str = DEFAULT_SETTING, venue: str = "") -> str:
    """``Poster Session 3 · Wed 8 Jul, 10:30–12:15 KST · board #2504, Hall C``."""
    when = describe(event.starts_at, event.ends_at, setting, venue, event.session)
    return " · ".join(part for part in (event.session.strip(), when, event_place(event)) if part)
