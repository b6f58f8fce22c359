"""``paperscope update``: download a venue's feeds, check them, store them, say what changed.

From the conference site (``https://{host}/static/virtual/data/``), another base URL,
or a local folder holding the same file names (``--from``). A venue of 2026 on needs
its abstracts file; earlier feeds carry their abstracts inline. Conditional requests
(ETag, Last-Modified) make a second update download nothing that has not changed.
Every fault raises :class:`FeedError` with one line, before anything is written: the
stored feed stays whole and in use.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from index_builder.feeds import store
from index_builder.feeds.download import FeedError, Fetched, Progress, fetch
from index_builder.paths import Paths
from index_builder.sources.feed import Feed, loads, parse_abstracts, parse_feed, skipped_note
from index_builder.sources.types import SourceError
from index_builder.venues import Venue

__all__ = ["Change", "FeedError", "update"]


@dataclass(frozen=True, slots=True)
class Change:
    """What one venue's update did (``downloaded`` counts bytes actually received)."""

    venue: Venue
    papers: int
    added: int
    removed: int
    abstracts: int
    abstracts_added: int
    downloaded: int
    unchanged: bool

    def summary(self) -> str:
        """One line for the user."""
        if self.unchanged:
            return f"{self.venue.name}: unchanged ({self.papers:,} papers, nothing downloaded)"
        return (
            f"{self.venue.name}: {self.papers:,} papers ({self.added:,} added, "
            f"{self.removed:,} removed), {self.abstracts:,} with an abstract "
            f"({self.abstracts_added:+,}); {self.downloaded / 1e6:.1f} MB downloaded"
        )


def update(
    venue: Venue,
    paths: Paths,
    *,
    source: str | None = None,
    cancel: threading.Event | None = None,
    progress: Callable[[str], Progress] | None = None,
) -> Change:
    """Bring ``venue``'s stored feed up to date from ``source`` (default: the site)."""
    base = source or venue.base_url
    remote = base.startswith(("https://", "http://"))
    if not remote and not Path(base).expanduser().is_dir():
        raise FeedError(f"--from {base}: neither an http(s):// URL nor a folder")
    meta = store.read_meta(paths, venue)
    names = [venue.feed_name] + ([venue.abstracts_name] if venue.year >= 2026 else [])
    got: dict[str, bytes | None] = {}
    validators: dict[str, dict[str, str]] = {}
    for name in names:
        old = meta.get("files", {}).get(name, {}) if meta.get("base") == base else {}
        stored = store.read_stored(paths, venue, name)
        if remote:
            url = base.rstrip("/") + "/" + name
            on = progress(name) if progress else None
            answer = fetch(url, etag=old.get("etag", "") if stored else "",
                           last_modified=old.get("last_modified", "") if stored else "",
                           cancel=cancel, progress=on)  # fmt: skip
        else:
            answer = _local(Path(base).expanduser() / name)
        _check_type(answer, name)
        unchanged = answer.body is None or answer.body == stored
        got[name] = None if unchanged else answer.body
        validators[name] = (
            old
            if answer.body is None
            else {"etag": answer.etag, "last_modified": answer.last_modified}
        )
    new = {n: b if b is not None else store.read_stored(paths, venue, n) for n, b in got.items()}
    feed, abstracts = _validate(venue, new)
    before = _counts(venue, paths)
    after = _papers(feed, abstracts)
    downloaded = sum(len(b) for b in got.values() if b is not None)
    changed = {n: _utf8(b, n) for n, b in got.items() if b is not None}
    if changed or meta.get("base") != base:
        stamp = datetime.now(UTC).isoformat(timespec="seconds")
        store.save(paths, venue, changed, {"base": base, "updated": stamp, "files": validators})
    return Change(
        venue, len(after), len(after.keys() - before.keys()), len(before.keys() - after.keys()),
        sum(after.values()), sum(after.values()) - sum(before.values()), downloaded,
        unchanged=not changed,
    )  # fmt: skip


def _local(path: Path) -> Fetched:
    """A file of a local ``--from`` folder, as if downloaded."""
    try:
        return Fetched(path.read_bytes(), content_type="application/json")
    except FileNotFoundError:
        raise FeedError(f"{path.name} is missing from {path.parent}") from None
    except OSError as exc:
        raise FeedError(f"cannot read {path}: {exc.strerror or exc}") from exc


def _check_type(answer: Fetched, name: str) -> None:
    """Refuse an HTML page (a bot check, an error page) before parsing anything."""
    if answer.body is None:
        return
    head = answer.body.lstrip()[:64].lower()
    if "html" in answer.content_type.lower() or head.startswith((b"<!doctype", b"<html", b"<")):
        raise FeedError(
            f"{name}: the server sent an HTML page, not the JSON feed "
            "(a bot check or an error page)"
        )


def _utf8(body: bytes, name: str) -> str:
    """The body as text; a feed is UTF-8 JSON."""
    try:
        return body.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise FeedError(f"{name} is not UTF-8 text") from exc


def _validate(venue: Venue, files: dict[str, bytes | None]) -> tuple[Feed, dict[int, str]]:
    """The feed and abstracts, checked whole: partial, broken or empty files are faults."""
    body = files.get(venue.feed_name)
    if body is None:
        raise FeedError(f"{venue.feed_name}: nothing stored and nothing downloaded")
    try:
        feed = parse_feed(loads(_utf8(body, venue.feed_name)), venue.key)
    except SourceError as exc:
        raise FeedError(f"{venue.feed_name}: {exc} (cut short?)") from exc
    if feed.count is not None and feed.count > feed.received:
        raise FeedError(
            f"{venue.feed_name} is partial: {feed.received:,} of {feed.count:,} records came"
        )
    if feed.skipped:
        raise FeedError(f"{venue.feed_name}: {skipped_note(feed)}")
    if not feed.rows:
        raise FeedError(f"{venue.feed_name} holds no records")
    abstracts: dict[int, str] = {}
    if venue.abstracts_name in files:
        raw = files[venue.abstracts_name]
        if raw is None:
            raise FeedError(f"{venue.abstracts_name}: nothing stored and nothing downloaded")
        try:
            data = loads(_utf8(raw, venue.abstracts_name))
            abstracts = parse_abstracts(data)
        except SourceError as exc:
            raise FeedError(f"{venue.abstracts_name}: {exc}") from exc
        if not abstracts:
            raise FeedError(f"{venue.abstracts_name} is empty: no abstracts in it")
    return feed, abstracts


def _papers(feed: Feed, abstracts: dict[int, str]) -> dict[int, bool]:
    """Each paper's id (its poster's event id) and whether it has an abstract."""
    ids = {r.event_id for r in feed.rows}
    out: dict[int, bool] = {}
    for row in feed.rows:
        poster = (
            next((i for i in row.related if i in ids), None) if row.event_type == "Oral" else None
        )
        paper = poster if poster is not None else row.event_id
        has = bool(row.paper.abstract_raw or abstracts.get(row.event_id))
        out[paper] = out.get(paper, False) or has
    return out


def _counts(venue: Venue, paths: Paths) -> dict[int, bool]:
    """The papers of the stored feed (empty when none is stored or it cannot be read)."""
    files: dict[str, Any] = {
        n: store.read_stored(paths, venue, n) for n in (venue.feed_name, venue.abstracts_name)
    }
    if files[venue.feed_name] is None:
        return {}
    if venue.year < 2026 or files[venue.abstracts_name] is None:
        files.pop(venue.abstracts_name)
    try:
        return _papers(*_validate(venue, files))
    except FeedError:
        return {}
