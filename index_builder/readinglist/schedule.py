"""When bookmarked papers are presented: sessions grouped by day, and clashes between them.

Every presentation counts: a paper's poster session and, for an oral, its talk (from the
catalogue's ``Paper.events`` when a lookup is given; a bookmark alone knows its poster).
Times are shown in the chosen zone (:mod:`index_builder.times`: by default the zone of the
session's site, the venue's for a conference in one city), so a day is the conference day
in that zone, not the day of the offset the data carries.

Two sessions clash when their time ranges overlap and they are different sessions.
Papers of one poster session share a hall and a time, so they do not clash with each
other; an oral in another room at the same hour does. A blank session name with the same
time range as a named one counts as that session.

A session's papers come in walking order: by board (``poster_position``), numbers compared
as numbers (``#301`` before ``#2504``), so a hall is walked once; papers without a board
follow, by title.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime

from index_builder.model import Event
from index_builder.readinglist.bookmark import Bookmark, Lookup, paper_of
from index_builder.times import (
    DEFAULT_SETTING,
    clock_span,
    convert,
    event_place,
    paper_events,
    parse_span,
    parse_time,
    zone_label,
)
from index_builder.venues import site_name

__all__ = ["SessionGroup", "Slot", "clashes", "group_sessions", "parse_time", "slots_of"]


@dataclass(frozen=True, slots=True)
class Slot:
    """One presentation of one bookmarked paper: the bookmark and its event."""

    bookmark: Bookmark
    event: Event
    venue: str = ""

    @property
    def place(self) -> str:
        """``board #2504, Hall C`` when the data says where ('' otherwise)."""
        return event_place(self.event)


@dataclass(frozen=True, slots=True)
class SessionGroup:
    """The bookmarks of one session (or one time range) and the sessions it clashes with.

    ``starts`` and ``ends`` are in the zone chosen for display.
    """

    name: str
    starts: datetime | None
    ends: datetime | None
    bookmarks: tuple[Bookmark, ...]
    clashes_with: tuple[str, ...] = ()
    slots: tuple[Slot, ...] = ()
    kind: str = "poster"
    site: str = ""
    """The city of a conference held in several (``Paris``) the session is at; '' for one."""

    @property
    def day(self) -> date | None:
        """The conference day of the session in the display zone, None when it has no time."""
        return self.starts.date() if self.starts else None

    @property
    def label(self) -> str:
        """The session name and its time (e.g. ``Poster Session 3, 10:30–12:15 KST``)."""
        if self.starts is None:
            return self.name or "No session time"
        return f"{self.name or 'Session'}, {clock_span(self.starts, self.ends)} " + zone_label(
            self.starts
        )

    def running_at(self, moment: datetime) -> bool:
        """True when ``moment`` falls within the session (its start when it has no end)."""
        if self.starts is None:
            return False
        ends = self.ends if self.ends is not None else self.starts
        return self.starts <= moment < ends or moment == self.starts


def slots_of(bm: Bookmark, lookup: Lookup | None = None) -> list[Slot]:
    """Every presentation of ``bm``'s paper (the stored poster session when not in the data)."""
    paper = paper_of(bm, lookup)
    if paper is not None and paper.events:
        return [Slot(bm, ev, paper.venue) for ev in paper_events(paper)]
    if not (bm.copy.session or bm.copy.starts_at):
        return [Slot(bm, Event("poster"))]
    venue = paper.venue if paper is not None else ""
    return [Slot(bm, Event("poster", bm.copy.session, bm.copy.starts_at, bm.copy.ends_at), venue)]


def _range(group: SessionGroup) -> tuple[datetime, datetime] | None:
    if group.starts is None:
        return None
    return group.starts, group.ends if group.ends and group.ends > group.starts else group.starts


def _same_session(a: SessionGroup, b: SessionGroup) -> bool:
    same_times = (a.starts, a.ends) == (b.starts, b.ends)
    return same_times and (not a.name or not b.name or a.name == b.name)


def _overlap(a: SessionGroup, b: SessionGroup) -> bool:
    ra, rb = _range(a), _range(b)
    if ra is None or rb is None or _same_session(a, b):
        return False
    if ra[0] == ra[1] or rb[0] == rb[1]:
        # A time without an end: a clash only if it falls inside the other range.
        return ra[0] <= rb[1] and rb[0] <= ra[1]
    return ra[0] < rb[1] and rb[0] < ra[1]


def _key(slot: Slot) -> tuple[str, object, object]:
    span = parse_span(slot.event.starts_at, slot.event.ends_at)
    if span is None:
        return (slot.event.session.strip(), None, None)
    start, end = span
    return (slot.event.session.strip(), start.astimezone(UTC), end and end.astimezone(UTC))


def _group(slots: list[Slot], setting: str) -> SessionGroup:
    first = slots[0]
    span = parse_span(first.event.starts_at, first.event.ends_at)
    starts = ends = None
    if span is not None:
        session = first.event.session
        starts = convert(span[0], setting, first.venue, session)
        ends = convert(span[1], setting, first.venue, session) if span[1] is not None else None
    slots = sorted(slots, key=walking_order)
    kinds = {s.event.kind for s in slots}
    return SessionGroup(
        name=first.event.session.strip(),
        starts=starts,
        ends=ends,
        bookmarks=_marks(slots),
        slots=tuple(slots),
        kind=kinds.pop() if len(kinds) == 1 else "mixed",
        site=site_name(first.venue, first.event.session),
    )


_DIGITS = re.compile(r"(\d+)")


def board_key(position: str) -> tuple[int, tuple[str | int, ...]]:
    """A board (``#2504``, ``A-12``) as a key that compares its numbers as numbers;
    no board sorts last."""
    text = position.strip().casefold()
    if not text:
        return (1, ())
    parts = _DIGITS.split(text)  # text, number, text, ...: the same types at each place
    return (0, tuple(int(p) if i % 2 else p for i, p in enumerate(parts)))


def walking_order(slot: Slot) -> tuple[object, ...]:
    """A session's papers by board, then (no board, or the same one) by title and id."""
    board = board_key(slot.event.poster_position)
    return (board, slot.bookmark.copy.title.casefold(), slot.bookmark.paper_id)


def group_sessions(
    bookmarks: Iterable[Bookmark],
    lookup: Lookup | None = None,
    setting: str = DEFAULT_SETTING,
) -> list[SessionGroup]:
    """Bookmarks grouped by session, in time order (no-time group last), clashes marked."""
    buckets: dict[tuple[str, object, object], list[Slot]] = {}
    for bm in bookmarks:
        for slot in slots_of(bm, lookup):
            buckets.setdefault(_key(slot), []).append(slot)
    groups = [_group(slots, setting) for slots in buckets.values()]
    timed = sorted((g for g in groups if g.starts), key=_when)
    untimed = [g for g in groups if g.starts is None]
    if len(untimed) > 1:
        merged = sorted((s for g in untimed for s in g.slots), key=lambda s: s.bookmark.copy.title)
        untimed = [replace(untimed[0], name="", bookmarks=_marks(merged), slots=tuple(merged))]
    result = []
    for group in timed:
        others = tuple(o.label for o in timed if o is not group and _overlap(group, o))
        result.append(replace(group, clashes_with=others))
    return result + untimed


def _when(group: SessionGroup) -> tuple[datetime, str]:
    assert group.starts is not None
    return group.starts.astimezone(UTC), group.name


def _marks(slots: Iterable[Slot]) -> tuple[Bookmark, ...]:
    return tuple(dict.fromkeys(s.bookmark for s in slots))


def clashes(
    bookmarks: Sequence[Bookmark], lookup: Lookup | None = None
) -> dict[str, tuple[Bookmark, ...]]:
    """For each bookmark with a clash, by ``paper_id``, the bookmarks it clashes with."""
    groups = [g for g in group_sessions(bookmarks, lookup) if g.starts is not None]
    found: dict[str, tuple[Bookmark, ...]] = {}
    # Each bookmark's rivals' ids as a set beside the tuple: with a whole list bookmarked,
    # a scan of the tuple for each rival made the calendar's export quadratic. Ids, not
    # bookmarks: a list holds one bookmark a paper, and a bookmark's hash is its paper's.
    seen: dict[str, set[str]] = {}
    for group in groups:
        rivals = tuple(
            b for o in groups if o is not group and _overlap(group, o) for b in o.bookmarks
        )
        if rivals:
            for bm in group.bookmarks:
                known = seen.setdefault(bm.paper_id, set())
                new = tuple(
                    r for r in rivals if r.paper_id not in known and r.paper_id != bm.paper_id
                )
                if new:
                    found[bm.paper_id] = found.get(bm.paper_id, ()) + new
                    known.update(r.paper_id for r in new)
    return found
