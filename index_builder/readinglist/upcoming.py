"""Each bookmark's next presentation, for the reading list's "Next" column and its time sort.

A paper's presentations are its poster session and, for an oral, its talk
(:func:`~index_builder.readinglist.schedule.slots_of`). The next one is the first that has
not ended at ``now``; when all have (the conference is over), the first of them, marked
past. Sorted by it: the coming ones in time order, then the past ones, then the papers
with no known time.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from index_builder.readinglist.bookmark import Bookmark, Lookup
from index_builder.readinglist.schedule import Slot, slots_of
from index_builder.times import DEFAULT_SETTING, convert, parse_time


@dataclass(frozen=True, slots=True)
class Next:
    """A bookmark's next presentation: its slot and start, and whether all are past."""

    slot: Slot
    starts: datetime
    past: bool = False

    def label(self, setting: str = DEFAULT_SETTING) -> str:
        """``Wed 10:30 #2504`` (a poster's board) or ``Mon 18:15 talk``, in the chosen zone."""
        when = convert(self.starts, setting, self.slot.venue)
        board = self.slot.event.poster_position.strip()
        where = "talk" if self.slot.event.kind == "oral" else board
        return f"{when:%a %H:%M} {where}".strip()


def next_presentation(bm: Bookmark, lookup: Lookup | None, now: datetime) -> Next | None:
    """The presentation of ``bm``'s paper the reader goes to next (None: no time known)."""
    timed = []
    for slot in slots_of(bm, lookup):
        starts = parse_time(slot.event.starts_at)
        if starts is not None:
            ends = parse_time(slot.event.ends_at) or starts
            timed.append((starts, max(ends, starts), slot))
    if not timed:
        return None
    timed.sort(key=lambda t: t[0].astimezone(UTC))
    coming = next((t for t in timed if t[1] >= now), None)
    starts, _, slot = coming or timed[0]
    return Next(slot, starts, past=coming is None)


def by_next(
    bookmarks: Sequence[Bookmark], lookup: Lookup | None, now: datetime | None = None
) -> list[Bookmark]:
    """``bookmarks`` by their next presentation (see the module docstring), then by title."""
    moment = now or datetime.now(UTC)

    def key(bm: Bookmark) -> tuple[int, float, str, str]:
        found = next_presentation(bm, lookup, moment)
        if found is None:
            return (2, 0.0, bm.copy.title.casefold(), bm.paper_id)
        return (int(found.past), found.starts.timestamp(), bm.copy.title.casefold(), bm.paper_id)

    return sorted(bookmarks, key=key)


def ordered(
    rows: list[Bookmark], sort: str, lookup: Lookup | None, now: datetime
) -> list[Bookmark]:
    """``rows`` as the store sorted them, or by next presentation for the ``time`` sort."""
    return by_next(rows, lookup, now) if sort == "time" else rows
