"""What an update changed: papers added and removed, and the talks and posters of
bookmarked papers that moved (another session, room or time).

The lines are kept in the new set's ``meta.json``; :func:`unseen` gives them to the TUI,
which shows each set's once (:func:`mark_seen`).

Papers are named by their catalogue id (a poster's event id; ``neurips2025:119718``
for other venues); rows of one paper (its poster, an oral's or a spotlight's talk) are
grouped by the rules the catalogue uses (:mod:`index_builder.sources.row_keys`).
Times are compared as instants (a feed mixes offsets) and shown in the zone of each
session's site (the venue's when it has one city; UTC for a venue with no zone).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from datetime import UTC, datetime, tzinfo
from functools import lru_cache

from index_builder import venues
from index_builder.atomic import write_atomic
from index_builder.feeds import store
from index_builder.paths import Paths
from index_builder.sources.feed import Feed
from index_builder.sources.records import normalized
from index_builder.sources.row_keys import is_talk, row_keys
from index_builder.sources.types import TableRow
from index_builder.times import zone_named
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
    """One paper as a feed has it: its name, whether it has an abstract, its events by kind."""

    name: str
    described: bool
    events: dict[str, Event]


def paper_id(row: TableRow, event_id: int | None) -> str:
    """The catalogue's id of the paper ``event_id`` (default: the row's own) stands for."""
    number = row.event_id if event_id is None else event_id
    own = row.venue_key in ("", venues.DEFAULT.key)
    return str(number) if own else f"{row.venue_key}:{number}"


@lru_cache(maxsize=4096)
def _instant(text: str) -> datetime | None:
    """The aware instant ``text`` names (``None`` for no time or one without an offset);
    kept by text: a feed's 13,000 times are a few hundred sessions' starts and ends."""
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        return None
    return moment if moment.tzinfo is not None else None


def _owners(feed: Feed) -> dict[int, int | None]:
    """For each row's event id, the event id of the poster whose paper it belongs to.

    Rows of one paper share a ``uid``, an OpenReview forum, a ``related_events_ids`` link
    or (a talk with none of those) the title; the poster with the lowest id stands for it.
    ``None`` for a row with no poster in the feed: it is a paper of its own.
    """
    owner: dict[int, int | None] = {}
    keyed: dict[tuple[str, str], int] = {}
    titles: dict[str, int] = {}
    posters = sorted((r for r in feed.rows if not is_talk(r)), key=lambda r: r.event_id)
    for row in posters:
        keys = row_keys(row)
        found = next((keyed[k] for k in keys if k in keyed), None)
        owner[row.event_id] = found
        paper = row.event_id if found is None else found
        keyed.update((k, paper) for k in keys if k not in keyed)
        titles.setdefault(normalized(row.paper.title_raw), paper)
    for row in feed.rows:
        if not is_talk(row):
            continue
        linked = [i for i in row.related if i in owner]
        poster = (owner[linked[0]] or linked[0]) if linked else None
        poster = poster or next((keyed[k] for k in row_keys(row) if k in keyed), None)
        owner[row.event_id] = poster or titles.get(normalized(row.paper.title_raw))
    return owner


def papers(feed: Feed, abstracts: dict[int, str]) -> dict[str, State]:
    """Every paper of a feed by id (rows of one paper, as the catalogue groups them, as one)."""
    owners = _owners(feed)
    out: dict[str, State] = {}
    for row in sorted(feed.rows, key=lambda r: (is_talk(r), r.event_id)):
        poster = owners.get(row.event_id)
        key = paper_id(row, poster)
        has = bool(row.paper.abstract_raw or abstracts.get(row.event_id))
        event = Event(row.paper.session, row.room, _instant(row.paper.starts_at),
                      _instant(row.paper.ends_at))  # fmt: skip
        old = out.get(key)
        events = dict(old.events) if old else {}
        events.setdefault(row.event_type, event)
        name = old.name if old and poster is not None else row.paper.title_raw
        out[key] = State(name, (old.described if old else False) or has, events)
    return out


def _when(moment: datetime | None, zone: tzinfo) -> str:
    return moment.astimezone(zone).strftime("%a %d %b %H:%M") if moment else "no time"


def moved(
    before: dict[str, State], after: dict[str, State], bookmarked: Collection[str], venue: Venue
) -> list[str]:
    """One line per bookmarked paper whose session, room or time changed."""
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
                zone = zone_named(venue.zone_of(b.session)) or UTC
                what.append(f"{label} {_when(a.starts, zone)} → {_when(b.starts, zone)}")
        if what:
            name = new.name if len(new.name) <= 50 else new.name[:49] + "…"
            lines.append(f"{key} {name}: " + "; ".join(what))
    return lines


def unseen(paths: Paths, most: int = 8) -> list[tuple[str, str]]:
    """``(venue key, message)`` for each venue whose set in use has changes not yet shown."""
    out: list[tuple[str, str]] = []
    for venue in venues.known():
        folder = store.current(paths, venue)
        if folder is None:
            continue
        meta = store.read_meta(paths, venue, folder)
        added, removed, moved = (meta.get(k) or [] for k in ("added", "removed", "moved"))
        if not (added or removed or moved) or _seen(paths, venue) == folder.name:
            continue
        when = str(meta.get("updated", "?"))[:16].replace("T", " ")
        lines = [f"{venue.name}, updated {when} UTC: "
                 f"{len(added):,} papers added, {len(removed):,} removed"]  # fmt: skip
        if moved:
            lines.append(f"{len(moved)} bookmarked paper(s) moved:")
            lines.extend(str(m) for m in moved[:most])
            if len(moved) > most:
                lines.append(f"… and {len(moved) - most} more (paperscope update lists them)")
        out.append((venue.key, "\n".join(lines)))
    return out


def _seen(paths: Paths, venue: Venue) -> str:
    try:
        return (store.sets_dir(paths, venue) / store.SEEN).read_text(encoding="utf-8").strip()
    except OSError:
        return ""


def mark_seen(paths: Paths, key: str) -> None:
    """Remember that the changes of venue ``key``'s set in use were shown."""
    venue = venues.venue(key)
    folder = store.current(paths, venue) if venue else None
    if venue is not None and folder is not None:
        write_atomic(store.sets_dir(paths, venue) / store.SEEN, folder.name + "\n")
