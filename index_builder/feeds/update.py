"""``paperscope update``: download a venue's feeds, check them, store them, say what changed.

From the conference site (``https://{host}/static/virtual/data/``), another base URL,
or a local folder holding the same file names (``--from``). A venue of 2026 on has an
abstracts file; earlier feeds carry their abstracts inline. Conditional requests
(ETag, Last-Modified) make a second update download nothing that has not changed.
The whole update runs under the venue's lock (:func:`store.lock`) and ends by swapping
in a new set of files (:mod:`.store`); every fault raises :class:`FeedError` with one
line before the swap, so the stored set stays whole and in use. An abstracts file that
is missing (404) or empty keeps the abstracts stored before, with a note.
"""

from __future__ import annotations

import os
import shutil
import threading
import time
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from index_builder.atomic import gc_paused
from index_builder.feeds import changes, checks, pages, set_papers, store
from index_builder.feeds.download import FeedError, Progress, deadline_seconds
from index_builder.paths import Paths
from index_builder.venues import Venue

__all__ = ["Change", "FeedError", "undo", "update"]

Step = Callable[[str], None]


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
    notes: tuple[str, ...] = ()
    moved: tuple[str, ...] = ()
    """One line per bookmarked paper whose session, room or time changed."""
    parsed: tuple[set_papers.Read, ...] = field(default=(), compare=False, repr=False)
    """The stored files as the catalogue reads them (:func:`.set_papers.as_read`)."""

    def summary(self) -> str:
        """One line for the user."""
        if self.unchanged and self.downloaded:  # read again (--force, a folder): same bytes
            return f"{self.venue.name}: unchanged ({self.papers:,} papers, the same as stored)"
        if self.unchanged:
            return f"{self.venue.name}: unchanged ({self.papers:,} papers, nothing downloaded)"
        return (
            f"{self.venue.name}: {self.papers:,} papers ({self.added:,} added, "
            f"{self.removed:,} removed), {self.abstracts:,} with an abstract "
            f"({self.abstracts_added:+,}); {self.downloaded / 1e6:.1f} MB downloaded"
        )

    def details(self) -> list[str]:
        """The notes, then the bookmarked papers that moved, one line each."""
        lines = [f"note: {n}" for n in self.notes]
        if self.moved:
            lines.append(f"{len(self.moved)} bookmarked paper(s) moved:")
            lines.extend(f"  {m}" for m in self.moved)
        return lines


def resolve_source(source: str | None, venue: Venue) -> str:
    """The folder to read: the site's, an http(s) URL, or a local folder made absolute."""
    if source is None:
        return venue.base_url
    if not source.strip():
        raise FeedError("--from needs an http(s):// folder or a local folder, not ''")
    if source.startswith(("https://", "http://")):
        return source
    folder = Path(source).expanduser()
    if not folder.is_dir():
        raise FeedError(f"--from {source}: neither an http(s):// URL nor a folder")
    return str(folder.resolve())


def update(
    venue: Venue,
    paths: Paths,
    *,
    source: str | None = None,
    cancel: threading.Event | None = None,
    progress: Callable[[str], Progress] | None = None,
    force: bool = False,
    bookmarked: Collection[str] = (),
    step: Step | None = None,
) -> Change:
    """Bring ``venue``'s stored feed up to date from ``source`` (default: the site)."""
    base = resolve_source(source, venue)
    step = step or (lambda _: None)
    try:
        wait = lambda: step(f"waiting for another update of {venue.key} to end")  # noqa: E731
        with store.lock(paths, venue, cancel=cancel, waiting=wait):
            step("locked")
            store.clean(paths, venue)
            return _update(venue, paths, base, cancel, progress, force, bookmarked, step)
    except store.Busy as exc:
        raise FeedError(f"{exc}; try again when it ends") from None
    except OSError as exc:  # the lock or the clean-up of old sets, on a full or read-only disk
        raise FeedError(f"cannot write in {store.sets_dir(paths, venue)}: "
                        f"{exc.strerror or exc}") from None  # fmt: skip


def _get(
    name: str, asking: pages.Asking, old: dict[str, Any], kept: bool, paged: bool
) -> pages.Got:
    """One file from the folder (conditional on a remote one when a copy is kept and the
    update is not forced: ``kept`` is False then)."""
    base = asking.folder
    if not base.startswith(("https://", "http://")):
        return pages.local_file(Path(base) / name)
    url = base.rstrip("/") + "/" + name
    if paged:
        return pages.remote_feed(url, asking, known=pages.stored_validators(old) if kept else ())
    etag = old.get("etag", "") if kept else ""
    since = old.get("last_modified", "") if kept else ""
    return pages.remote_file(url, asking, etag=str(etag), last_modified=str(since))


def _update(
    venue: Venue,
    paths: Paths,
    base: str,
    cancel: threading.Event | None,
    progress: Callable[[str], Progress] | None,
    force: bool,
    bookmarked: Collection[str],
    step: Step,
) -> Change:
    folder = store.current(paths, venue)
    meta = store.read_meta(paths, venue, folder)
    names = [venue.feed_name] + ([venue.abstracts_name] if venue.year >= 2026 else [])
    stored = {n: store.read_stored(paths, venue, n, folder) for n in names}
    known = meta.get("files", {}) if meta.get("base") == base else {}
    deadline = time.monotonic() + deadline_seconds()
    asking = pages.Asking(base, cancel, progress, deadline, step)
    got: dict[str, pages.Got] = {}
    for name in names:
        old = known.get(name, {}) if isinstance(known.get(name), dict) else {}
        kept = stored[name] is not None and not force  # --force always fetches
        got[name] = _get(name, asking, old, kept, name == venue.feed_name)
        if got[name].body is not None:
            checks.refuse_html(got[name].body or b"", got[name].content_type, name)
        step(f"downloaded {name}")
    # The feeds' records and what is made of them live until the update ends: each
    # collection midway walked them all and freed nothing (351 of them, 0.15 s). Not
    # paused while downloading, which can take minutes while the app runs.
    with gc_paused():
        records, before = set_papers.previous(venue, folder, stored)
        files, checked, exact = _checked(venue, base, stored, got, force, records)
        step("checked")
        before = before if before is not None else set_papers.stored_papers(venue, stored)
        after = changes.papers(checked.feed, checked.abstracts)
        moved = changes.moved(before, after, bookmarked, venue)
        unchanged = files == {n: b for n, b in stored.items() if b is not None}
        described = sum(s.described for s in after.values())
        summary = (
            venue, len(after), len(after.keys() - before.keys()),
            len(before.keys() - after.keys()), described,
            described - sum(s.described for s in before.values()),
            sum(len(g.body) for g in got.values() if g.body is not None),
        )  # fmt: skip
        if unchanged and meta.get("base") == base:
            store.mark_quiet(paths, venue)  # this update added nothing: nothing is new now
            return Change(*summary, unchanged=True, notes=tuple(checked.notes))
        validators = {
            n: _validators(known, n, g) for n, g in got.items() if n in files and not g.absent
        }
        new_meta = {
            "base": base, "updated": datetime.now(UTC).isoformat(timespec="seconds"),
            "files": validators,
            "added": sorted(after.keys() - before.keys()),  # none when unchanged: nothing new
            "removed": sorted(before.keys() - after.keys()) if not unchanged else [],
            "moved": moved, "notes": checked.notes,
        }  # fmt: skip
        # Only what reading the stored files would give the next update again is kept.
        sums = set_papers.sums(files) if exact else {}
        summary_file = set_papers.encode(checked.feed.received, after, sums) if exact else None
        stored_in = _store(paths, venue, files, new_meta, step, summary_file)
        read = set_papers.as_read(venue, stored_in, sums, checked) if exact else ()
        return Change(*summary, unchanged=False, notes=tuple(checked.notes),
                      moved=tuple(moved), parsed=read)  # fmt: skip


def _store(
    paths: Paths,
    venue: Venue,
    files: dict[str, bytes],
    meta: dict[str, Any],
    step: Step,
    papers: bytes | None = None,
) -> Path:
    """Write the new set (with the summary ``papers`` of its files, when given) and swap it
    in; on a full disk (any write failing) remove what was written and raise
    :class:`FeedError`: the set stored before stays in use. Returns the set's folder."""
    new = store.sets_dir(paths, venue) / f"{store.NEW}{os.getpid()}"
    try:
        new = store.new_set(paths, venue)
        for name, body in files.items():
            step(f"writing {name}")
            store.write_file(new, name, body)
        if papers is not None:
            store.write_file(new, set_papers.NAME, papers)
        step("writing meta.json")
        folder = store.commit(paths, venue, new, meta)
    except OSError as exc:
        shutil.rmtree(new, ignore_errors=True)  # gone already once commit renamed it
        raise FeedError(f"cannot store the new feed in {store.sets_dir(paths, venue)}: "
                        f"{exc.strerror or exc}") from None  # fmt: skip
    step("stored")
    return folder


def _validators(known: dict[str, Any], name: str, got: pages.Got) -> dict[str, Any]:
    """The ETag and Last-Modified to send next time (the kept ones after a 304)."""
    if got.body is None:
        old = known.get(name, {})
        return old if isinstance(old, dict) else {}
    fresh: dict[str, Any] = {"etag": got.etag, "last_modified": got.last_modified}
    if got.validators:
        fresh["pages"] = [list(v) for v in got.validators]
    return fresh


def _checked(
    venue: Venue,
    base: str,
    stored: dict[str, bytes | None],
    got: dict[str, pages.Got],
    force: bool,
    records: int | None,
) -> tuple[dict[str, bytes], checks.Checked, bool]:
    """The files of the new set, checked; raises :class:`FeedError` for any fault.

    ``records`` is the stored feed's record count. The flag is False when the papers of
    the check differ from what reading the new set's files again would give (kept
    abstracts that fail their check are read as none here, and the set as no papers there).
    """
    name = venue.feed_name
    if got[name].absent:
        raise FeedError(f"{name} is missing from {base}")
    body = got[name].body if got[name].body is not None else stored[name]
    if body is None:
        raise FeedError(f"{name}: nothing stored and nothing downloaded")
    document = got[name].document if got[name].body is not None else None
    checked = checks.check_feed(venue, body, stored=records, force=force, document=document)
    checked.notes[:0] = got[name].notes
    files = {name: body}
    if venue.year < 2026:
        return files, checked, True
    ids = {r.event_id for r in checked.feed.rows}
    aname = venue.abstracts_name
    a = got[aname]
    abody = a.body if a.body is not None else (None if a.absent else stored[aname])
    abstracts = checks.check_abstracts(venue, abody, ids) if abody is not None else {}
    if abstracts:
        checked.abstracts = abstracts
        files[aname] = abody or b""
        return files, checked, True
    why = "not in the folder" if a.absent else "empty"
    kept = stored[aname]
    exact = True
    if kept is not None:
        try:
            checked.abstracts = checks.check_abstracts(venue, kept, ids)
        except FeedError:
            checked.abstracts = {}
            exact = False
        files[aname] = kept
        checked.notes.append(f"{aname} is {why}: the {len(checked.abstracts):,} abstracts "
                             "stored before are kept")  # fmt: skip
    else:
        checked.notes.append(f"{aname} is {why}: the papers have no abstracts until it is "
                             "published")  # fmt: skip
    return files, checked, exact


def undo(venue: Venue, paths: Paths) -> str:
    """Put back the set the last update replaced; one line saying which."""
    try:
        with store.lock(paths, venue, wait=30):
            store.clean(paths, venue)
            restored = store.undo(paths, venue)
    except store.Busy as exc:
        raise FeedError(f"{exc}; try again when it ends") from None
    if restored is None:
        raise FeedError("no earlier feed is kept to go back to")
    meta = store.read_meta(paths, venue, restored)
    count = checks.record_count(store.read_stored(paths, venue, venue.feed_name, restored))
    return (
        f"{venue.name}: the feed stored {meta.get('updated', '?')} from "
        f"{meta.get('base', '?')} is back in use ({count or 0:,} records); "
        "`paperscope update --undo` again goes back"
    )
