"""When bookmarked papers are presented: sessions grouped by day, and clashes between them.

Two bookmarks clash when their time ranges overlap and they are in different
sessions. Papers of one poster session share a hall and a time, so they do not
clash with each other; an oral in another room at the same hour does. A blank
session name with the same time range as a named one counts as that session.
Days are the conference's local days (the offset written in the data).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime

from index_builder.readinglist.bookmark import Bookmark

_FIRST_YEAR, _LAST_YEAR = 1900, 2999
"""Session times outside these years are treated as unknown."""


def parse_time(value: str) -> datetime | None:
    """An aware datetime from ISO 8601 text with an offset; None if absent or unreadable."""
    if not value:
        return None
    try:
        stamp = datetime.fromisoformat(value.strip())
        if stamp.tzinfo is None:
            return None
        # Year 1 or 9999 overflow when moved to UTC; year 5 would be written "5..." in
        # a calendar: a time outside any plausible conference is unknown, not a crash.
        if not _FIRST_YEAR <= stamp.astimezone(UTC).year <= _LAST_YEAR:
            return None
    except (ValueError, OverflowError):
        return None
    return stamp


@dataclass(frozen=True, slots=True)
class SessionGroup:
    """The bookmarks of one session (or one time range) and the sessions it clashes with."""

    name: str
    starts: datetime | None
    ends: datetime | None
    bookmarks: tuple[Bookmark, ...]
    clashes_with: tuple[str, ...] = ()

    @property
    def day(self) -> date | None:
        """The conference-local day of the session, None when it has no time."""
        return self.starts.date() if self.starts else None

    @property
    def label(self) -> str:
        """The session name and its local time range (e.g. ``Poster Session 1, 18:30–20:15``)."""
        if self.starts is None:
            return self.name or "No session time"
        span = self.starts.strftime("%H:%M")
        if self.ends is not None:
            span += "–" + self.ends.strftime("%H:%M")
        return f"{self.name or 'Session'}, {span}"


def _key(bm: Bookmark) -> tuple[str, str, str]:
    return (bm.session.strip(), bm.starts_at.strip(), bm.ends_at.strip())


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


def group_sessions(bookmarks: Iterable[Bookmark]) -> list[SessionGroup]:
    """Bookmarks grouped by session, in time order (no-time group last), clashes marked."""
    buckets: dict[tuple[str, str, str], list[Bookmark]] = {}
    for bm in bookmarks:
        buckets.setdefault(_key(bm), []).append(bm)
    groups = [
        SessionGroup(
            name=key[0],
            starts=parse_time(key[1]),
            ends=parse_time(key[2]),
            bookmarks=tuple(sorted(items, key=lambda b: b.title.casefold())),
        )
        for key, items in buckets.items()
    ]
    timed = sorted((g for g in groups if g.starts), key=lambda g: (g.starts, g.name))
    untimed = [g for g in groups if g.starts is None]
    if len(untimed) > 1:
        merged = tuple(sorted((b for g in untimed for b in g.bookmarks), key=lambda b: b.title))
        untimed = [SessionGroup("", None, None, merged)]
    result = []
    for group in timed:
        others = tuple(o.label for o in timed if o is not group and _overlap(group, o))
        result.append(SessionGroup(group.name, group.starts, group.ends, group.bookmarks, others))
    return result + untimed


def clashes(bookmarks: Sequence[Bookmark]) -> dict[str, tuple[Bookmark, ...]]:
    """For each bookmark with a clash, by ``paper_id``, the bookmarks it clashes with."""
    groups = [g for g in group_sessions(bookmarks) if g.starts is not None]
    found: dict[str, tuple[Bookmark, ...]] = {}
    for group in groups:
        rivals = tuple(
            b for o in groups if o is not group and _overlap(group, o) for b in o.bookmarks
        )
        if rivals:
            for bm in group.bookmarks:
                found[bm.paper_id] = rivals
    return found
