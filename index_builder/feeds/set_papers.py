"""A stored set's papers as its update saw them, kept beside its files for the next update.

Each update compares the papers of the new feed with those of the set in use
(:func:`index_builder.feeds.changes.papers`) and counts the stored feed's records. On
the updated home that meant reading the 20 MB the last update had already read: a
third of the update's time. The update that stores a set now writes, beside its files,
what it made of them (``.papers-v1.json``: the number of feed records and every paper's
:class:`~index_builder.feeds.changes.State`) under the SHA-256 of the feed's and the
abstracts file's bytes. The next update takes them from there when those bytes are
still the set's, and reads the files otherwise (a set stored by an older version, a
file changed by hand, a summary that cannot be read).

The name starts with a dot: :func:`~index_builder.feeds.store.stored_sources` lists no
such file, so the catalogue never reads it as a source.
"""

from __future__ import annotations

import hashlib
import json
from datetime import datetime
from pathlib import Path
from typing import Any

from index_builder.feeds import checks
from index_builder.feeds.changes import Event, State, papers
from index_builder.feeds.download import FeedError
from index_builder.sources.feed import abstracts_source, feed_source, venue_of
from index_builder.sources.types import SourceData
from index_builder.venues import Venue

Read = tuple[Path, bytes, SourceData]
"""A stored file's path, the SHA-256 of its bytes, and what reading it gives."""

NAME = ".papers-v1.json"


def digest(body: bytes | None) -> str | None:
    """The SHA-256 of a stored file's bytes (``None`` for a file the set does not hold)."""
    return None if body is None else hashlib.sha256(body).hexdigest()


def sums(files: dict[str, bytes]) -> dict[str, bytes]:
    """The SHA-256 of each of a new set's ``files``, computed once for its summary and
    for the source cache (:func:`encode`, :func:`as_read`: 20 MB hashed twice cost 18 ms)."""
    return {name: hashlib.sha256(body).digest() for name, body in files.items()}


def encode(records: int, states: dict[str, State], files: dict[str, bytes]) -> bytes:
    """The summary of a set whose feed holds ``records`` and these papers; ``files``:
    the SHA-256 of each of its files by name (:func:`sums`)."""
    papers = {
        key: [s.name, s.described, {k: _event(e) for k, e in s.events.items()}]
        for key, s in states.items()
    }
    data = {"files": {n: sha.hex() for n, sha in files.items()}, "records": records}
    return json.dumps({**data, "papers": papers}, ensure_ascii=False).encode("utf-8")


def as_read(
    venue: Venue, folder: Path, files: dict[str, bytes], checked: checks.Checked
) -> tuple[Read, ...]:
    """The set's feed and abstracts (stored in ``folder``: ``checked``; ``files``, the
    SHA-256 of each by name, :func:`sums`) as the catalogue's reader makes them of those
    bytes, for its source cache: the update parsed them already, with the same
    functions, on the same text (:func:`.pages.parse`).

    None when the file names name another venue than ``venue`` (the reader would read
    the rows as that one's), and no abstracts when the check gave none.
    """
    key = venue_of(venue.feed_name)
    if key != venue.key:
        return ()
    where = folder.resolve()  # as the catalogue's sources name it, through the link
    found = [(venue.feed_name, feed_source(where / venue.feed_name, checked.feed, key))]
    if checked.abstracts and venue.abstracts_name in files:
        path = where / venue.abstracts_name
        found.append((venue.abstracts_name, abstracts_source(path, checked.abstracts, key)))
    return tuple((d.path, files[n], d) for n, d in found)


def previous(
    venue: Venue, folder: Path | None, files: dict[str, bytes | None]
) -> tuple[int | None, dict[str, State] | None]:
    """The stored feed's record count and papers (``None``: read the files for them with
    :func:`stored_papers`) for the set ``folder`` holding ``files``."""
    try:
        return read(folder, files)
    except ValueError:
        return checks.record_count(files.get(venue.feed_name)), None


def stored_papers(venue: Venue, stored: dict[str, bytes | None]) -> dict[str, State]:
    """The papers of the stored files (empty when none is stored or it cannot be read)."""
    body = stored.get(venue.feed_name)
    if body is None:
        return {}
    try:
        checked = checks.check_feed(venue, body, stored=None, force=True)
        raw = stored.get(venue.abstracts_name)
        ids = {r.event_id for r in checked.feed.rows}
        abstracts = checks.check_abstracts(venue, raw, ids) if raw is not None else {}
    except FeedError:
        return {}
    return papers(checked.feed, abstracts)


def read(folder: Path | None, files: dict[str, bytes | None]) -> tuple[int, dict[str, State]]:
    """The stored feed's record count and papers, from the summary of the set ``folder``
    whose files now hold the bytes ``files`` (``None``: absent).

    Raises ``ValueError`` when there is no summary, it cannot be read, or it was written
    for other bytes: the caller reads the files.
    """
    if folder is None:
        raise ValueError("no set")
    try:
        data = json.loads((folder / NAME).read_bytes())
    except (OSError, UnicodeDecodeError) as exc:
        raise ValueError(str(exc)) from None
    stored = {n: digest(b) for n, b in files.items() if b is not None}
    if not isinstance(data, dict) or data.get("files") != stored:
        raise ValueError("a summary of other files")
    records = data.get("records")
    if not isinstance(records, int):
        raise ValueError("no record count")
    try:
        return records, {str(k): _state(v) for k, v in data["papers"].items()}
    except (KeyError, TypeError, AttributeError) as exc:
        raise ValueError(f"a damaged summary ({exc})") from None


def _event(event: Event) -> list[Any]:
    return [event.session, event.room, _moment(event.starts), _moment(event.ends)]


def _moment(moment: datetime | None) -> str | None:
    # isoformat keeps the offset and the microseconds: fromisoformat gives the same instant
    # with the same tzinfo back.
    return None if moment is None else moment.isoformat()


def _state(value: Any) -> State:
    name, described, events = value
    if not isinstance(name, str) or not isinstance(described, bool):
        raise TypeError("not a paper")
    return State(name, described, {str(k): _event_of(e) for k, e in events.items()})


def _event_of(value: Any) -> Event:
    session, room, starts, ends = value
    if not isinstance(session, str) or not isinstance(room, str):
        raise TypeError("not an event")
    return Event(session, room, _instant(starts), _instant(ends))


def _instant(text: Any) -> datetime | None:
    if text is None:
        return None
    if not isinstance(text, str):
        raise TypeError("not a time")
    return datetime.fromisoformat(text)
