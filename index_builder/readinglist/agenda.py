"""What's on: the bookmarked sessions by conference day, and what runs at a given moment.

Built on :func:`index_builder.readinglist.schedule.group_sessions`, so days and hours are
in the chosen zone. A moment typed by a person (a day and an hour) is read in the zone
the sessions are shown in: the venue's by default.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta, tzinfo

from index_builder.model import Paper
from index_builder.readinglist.schedule import SessionGroup
from index_builder.times import (
    LOCAL,
    VENUE,
    format_span,
    local_zone,
    long_day,
    normal_setting,
    parse_time,
    short_day,
    zone_label,
    zone_named,
)
from index_builder.venues import DEFAULT

WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
MARKS = {"to-read": "[ ]", "reading": "[~]", "read": "[x]"}


@dataclass(frozen=True, slots=True)
class WhatsOn:
    """The sessions running at ``moment`` and the first one starting after it."""

    moment: datetime
    running: tuple[SessionGroup, ...]
    next: SessionGroup | None


def whats_on(groups: Sequence[SessionGroup], moment: datetime) -> WhatsOn:
    """The running sessions at ``moment`` (an aware datetime) and the next to start."""
    timed = [g for g in groups if g.starts is not None]
    running = tuple(g for g in timed if g.running_at(moment))
    upcoming = [g for g in timed if g.starts is not None and g.starts > moment]
    first = min(upcoming, key=lambda g: g.starts or moment, default=None)
    return WhatsOn(moment, running, first)


def by_day(groups: Sequence[SessionGroup]) -> list[tuple[date | None, list[SessionGroup]]]:
    """The groups under their conference day, in order; the no-time group last (day None).

    A conference in several cities has a day per site (:func:`day_heading` names it): each
    session is under its own city's day, in its city's time.
    """
    days: dict[tuple[date | None, str], list[SessionGroup]] = {}
    for group in groups:
        days.setdefault((group.day, group.site if group.day else ""), []).append(group)
    order = sorted(days, key=lambda k: (k[0] is None, k[0] or date.min))  # sites: first seen
    return [(day, days[day, site]) for day, site in order]


def day_heading(day: date | None, groups: Sequence[SessionGroup] = ()) -> str:
    """``Wednesday 9 December 2026 · Paris`` (the site when the sessions have one), or the
    heading of the sessions without a time."""
    if day is None:
        return "Without a session time"
    site = groups[0].site if groups else ""
    return f"{long_day(day)} · {site}" if site else long_day(day)


def of_site(groups: Sequence[SessionGroup], site: str) -> list[SessionGroup]:
    """The groups held at ``site`` (any case; ``Mexico City`` or ``mexico city``)."""
    wanted = " ".join(site.split()).casefold()
    return [g for g in groups if g.site.casefold() == wanted]


def agenda_zone(groups: Sequence[SessionGroup], setting: str) -> tzinfo:
    """The zone a typed day and hour are read in: the one the sessions are shown in.

    A zone with its rules (``local`` is this computer's zone, not an offset): a day in
    December is read in winter time even when the first session is in July.
    """
    setting = normal_setting(setting)
    if setting == LOCAL:
        return local_zone()
    if setting != VENUE:
        return zone_named(setting) or _utc()
    for group in groups:  # the venue's zone, or the offset of a venue not known
        if group.starts is not None and group.starts.tzinfo is not None:
            return group.starts.tzinfo
    return zone_named(DEFAULT.timezone) or _utc()


def _utc() -> tzinfo:
    from datetime import UTC

    return UTC


def conference_days(papers: Iterable[Paper], zone: tzinfo) -> tuple[date, ...]:
    """The days, in ``zone``, on which any of ``papers`` is presented, in order."""
    starts = {p.starts_at for p in papers} | {e.starts_at for p in papers for e in p.events}
    moments = (parse_time(s) for s in starts if s)
    return tuple(sorted({m.astimezone(zone).date() for m in moments if m is not None}))


def moment_from(
    day: str | None,
    at: str | None,
    zone: tzinfo,
    now: datetime,
    days: Sequence[date] = (),
    shown: date | None = None,
) -> datetime:
    """The moment ``day`` at ``at`` (``HH:MM``) in ``zone``; ``days``: the conference's.

    ``day`` is ``YYYY-MM-DD`` or a weekday's name (``wed``, ``Wednesday``: that day of
    the conference). With no day, an hour is on the conference day ``shown`` (else today
    during the conference, else its next day, else its first): never a date far from
    it. Neither given: ``now``. A day without an hour is its start (00:00). Raises
    ``ValueError`` with a readable message for a bad day or hour.
    """
    here = now.astimezone(zone)
    if day is None and at is None:
        return here
    which = _day(day, days, here.date()) if day else _day_for_an_hour(days, shown, here.date())
    return datetime.combine(which, _hour(at) if at else time(0, 0), tzinfo=zone)


def check_day_and_hour(day: str | None, at: str | None) -> None:
    """Raise :func:`moment_from`'s ``ValueError`` for a ``day`` or ``at`` that is wrong
    whatever the conference's days: a command can refuse it before reading the catalogue."""
    if day is not None and _weekday(day) is None:
        _iso_day(day)
    if at:
        _hour(at)


def _day(text: str, days: Sequence[date], today: date) -> date:
    """The date ``text`` names: ISO, or a weekday within the conference ``days``."""
    weekday = _weekday(text)
    if weekday is None:
        return _iso_day(text)
    if not days:  # no conference dates known: that weekday from today on
        return today + timedelta(days=(weekday - today.weekday()) % 7)
    found = [d for d in days if d.weekday() == weekday]
    if not found:
        span = f"{short_day(days[0])} to {short_day(days[-1])}"
        raise ValueError(
            f"--day {text!r}: no day of the conference ({span}) is a {WEEKDAYS[weekday].title()}"
        )
    return next((d for d in found if d >= today), found[0])


def _day_for_an_hour(days: Sequence[date], shown: date | None, today: date) -> date:
    """The day a bare hour is on (see :func:`moment_from`)."""
    for candidate in (shown, today):
        if candidate is not None and (not days or candidate in days):
            return candidate
    return next((d for d in days if d >= today), days[0])


def _weekday(text: str) -> int | None:
    """The weekday (0 for Monday) ``text`` names (``wed``, ``Wednesday.``), else ``None``."""
    named = text.strip().lower().rstrip(".")
    found = (i for i, n in enumerate(WEEKDAYS) if len(named) >= 3 and n.startswith(named))
    return next(found, None)


def _iso_day(text: str) -> date:
    try:
        return date.fromisoformat(text.strip())
    except ValueError:
        raise ValueError(f"--day {text!r} is not a day like wed or 2026-07-08") from None


def _hour(text: str) -> time:
    hours, sep, minutes = text.strip().partition(":")
    digits = (hours + minutes).isascii() and hours.isdigit() and minutes.isdigit()
    try:
        if sep and digits and len(minutes) == 2:
            return time(int(hours), int(minutes))
    except ValueError:  # 25:00
        pass
    raise ValueError(f"--at {text!r} is not an hour like 10:30")


def group_lines(group: SessionGroup, lead: str = "  ") -> list[str]:
    """A session line (name, time, clash) and a line per bookmarked paper (board, room)."""
    head = group.label if group.starts else group.name or "Sessions without a time"
    if group.clashes_with:
        head += "   clash: " + "; ".join(group.clashes_with)
    lines = [lead + head]
    pad = " " * len(lead) + "    "
    for slot in group.slots:
        bm = slot.bookmark
        talk = "  (talk)" if slot.event.kind == "oral" else ""
        place = f"  · {slot.place}" if slot.place else ""
        title = " ".join((bm.copy.title or "(untitled)").split())
        lines.append(f"{pad}{MARKS[bm.status]} {bm.paper_id}  {title}{talk}{place}")
    return lines


def now_lines(now: WhatsOn) -> list[str]:
    """``At Wed 8 Jul 2026, 11:00 KST:``, the sessions running, and the next one."""
    m = now.moment
    lines = [f"At {short_day(m)} {m.year}, {m:%H:%M} {zone_label(m)}:"]
    if not now.running:
        lines.append("  nothing on your list is running")
    for group in now.running:
        lines += group_lines(group, lead="  now: ")
    nxt = now.next
    if nxt is not None and nxt.starts is not None:
        count = len(nxt.bookmarks)
        papers = f" ({count} bookmarked paper{'s' if count != 1 else ''})"
        when = format_span(nxt.starts, nxt.ends)
        lines.append(f"  next: {nxt.name or 'Session'}, {when}{papers}")
    else:
        lines.append("  next: nothing later on your list")
    return lines


Days = Sequence[tuple[date | None, Sequence[SessionGroup]]]


def agenda_lines(days: Days, now: WhatsOn) -> list[str]:
    """The agenda as text: each day and its sessions, then what's on at the moment."""
    lines: list[str] = []
    for day, groups in days:
        lines.append(day_heading(day, groups))
        for group in groups:
            lines += group_lines(group)
        lines.append("")
    return lines + now_lines(now)
