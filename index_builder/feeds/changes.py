"""What an update changed: papers added and removed, and the talks and posters of
bookmarked papers that moved (another session, room or time).

Papers are named by their catalogue id (a poster's event id; ``neurips2025:119718``
for other venues); an Oral row whose poster is in the feed belongs to that paper.
Times are compared as instants (a feed mixes offsets) and shown in the venue's zone.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime
from zoneinfo import ZoneInfo

from index_builder import venues
from index_builder.sources.feed import Feed
from index_builder.sources.types import TableRow
from index_builder.venues import Venue


@dataclass(frozen=True, slots=True)
class Event:
    """Where and when one talk or poster of a paper is."""

    session: str
    room: str
    starts: datetime | None
    ends: datetime | None


@dataclass(frozen=True, slots=True)
class State:
    """One paper as a feed has it: title, abstract or not, and its events by kind."""

    title: str
    abstract: bool
    events: dict[str, Event]


def paper_id(row: TableRow, event_id: int | None) -> str:
    """The catalogue's id of the paper ``event_id`` (default: the row's own) stands for."""
    number = row.event_id if event_id is None else event_id
    own = row.venue_key in ("", venues.DEFAULT.key)
    return str(number) if own else f"{row.venue_key}:{number}"


def _instant(text: str) -> datetime | None:
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        return None
    return moment if moment.tzinfo is not None else None


def papers(feed: Feed, abstracts: dict[int, str]) -> dict[str, State]:
    """Every paper of a feed by id."""
    ids = {r.event_id for r in feed.rows}
    out: dict[str, State] = {}
    for row in feed.rows:
        poster = (
            next((i for i in row.related if i in ids), None) if row.event_type == "Oral" else None
        )
        key = paper_id(row, poster)
        has = bool(row.paper.abstract_raw or abstracts.get(row.event_id))
        event = Event(row.paper.session, row.room, _instant(row.paper.starts_at),
                      _instant(row.paper.ends_at))  # fmt: skip
        old = out.get(key)
        events = dict(old.events) if old else {}
        events.setdefault(row.event_type, event)
        title = old.title if old and poster is not None else row.paper.title_raw
        out[key] = State(title, (old.abstract if old else False) or has, events)
    return out


def _when(moment: datetime | None, zone: ZoneInfo) -> str:
    return moment.astimezone(zone).strftime("%a %d %b %H:%M") if moment else "no time"


def moved(
    before: dict[str, State], after: dict[str, State], bookmarked: Collection[str], venue: Venue
) -> list[str]:
    """One line per bookmarked paper whose session, room or time changed."""
    zone = ZoneInfo(venue.timezone)
    lines: list[str] = []
    for key in sorted(set(bookmarked) & before.keys() & after.keys()):
        old, new = before[key], after[key]
        what: list[str] = []
        for kind in sorted(old.events.keys() & new.events.keys()):
            a, b = old.events[kind], new.events[kind]
            label = kind.lower()
            if a.session != b.session:
                what.append(f"{label} session {a.session or '-'} → {b.session or '-'}")
            if a.room != b.room:
                what.append(f"{label} room {a.room or '-'} → {b.room or '-'}")
            if (a.starts, a.ends) != (b.starts, b.ends):
                what.append(f"{label} {_when(a.starts, zone)} → {_when(b.starts, zone)}")
        if what:
            title = new.title if len(new.title) <= 50 else new.title[:49] + "…"
            lines.append(f"{key} {title}: " + "; ".join(what))
    return lines
