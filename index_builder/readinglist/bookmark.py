"""The reading list's record: one bookmarked paper with a copy of what it needs to survive.

A :class:`Bookmark` keeps the title, authors, links and session of its paper so
that it can still be shown, exported and cited after the paper leaves the data.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import asdict, dataclass, replace
from datetime import UTC, datetime
from typing import Any, Literal

from index_builder.model import Paper
from index_builder.venues import venue_of_id

Status = Literal["to-read", "reading", "read"]
STATUSES: tuple[Status, ...] = ("to-read", "reading", "read")
Lookup = Callable[[str], Paper | None]
"""Finds a paper of the catalogue by id or alias (``Catalogue.get``)."""


def now_iso() -> str:
    """The current time in UTC as ISO 8601 with milliseconds and a ``Z``."""
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def parse_iso(value: str) -> datetime:
    """Parse a stored timestamp; an empty or unreadable one sorts first (the epoch)."""
    try:
        stamp = datetime.fromisoformat(value)
    except (TypeError, ValueError):
        return datetime.fromtimestamp(0, UTC)
    return stamp if stamp.tzinfo else stamp.replace(tzinfo=UTC)


def check_status(status: str) -> Status:
    """Return ``status`` when it is one of :data:`STATUSES`, else raise ``ValueError``."""
    for known in STATUSES:
        if status == known:
            return known
    raise ValueError(f"unknown status {status!r}: use one of {', '.join(STATUSES)}")


@dataclass(frozen=True, slots=True)
class Bookmark:
    """One paper on the reading list, its status and note, and a copy of the paper's data."""

    paper_id: str
    title: str = ""
    authors: tuple[str, ...] = ()
    status: Status = "to-read"
    note: str = ""
    added_at: str = ""
    updated_at: str = ""
    aliases: tuple[str, ...] = ()
    url: str = ""
    openreview_url: str = ""
    session: str = ""
    starts_at: str = ""
    ends_at: str = ""
    title_derived: bool = False

    @classmethod
    def from_paper(cls, paper: Paper, *, at: str | None = None) -> Bookmark:
        """A fresh ``to-read`` bookmark of ``paper`` added ``at`` (default: now)."""
        stamp = at or now_iso()
        return cls(
            paper_id=paper.id,
            title=paper.title,
            authors=tuple(paper.authors),
            added_at=stamp,
            updated_at=stamp,
            aliases=tuple(a for a in paper.aliases if a != paper.id),
            url=paper.url,
            openreview_url=paper.openreview_url,
            session=paper.session,
            starts_at=paper.starts_at,
            ends_at=paper.ends_at,
            title_derived=paper.title_derived,
        )

    @property
    def ids(self) -> frozenset[str]:
        """The id and every alias this bookmark answers to."""
        return frozenset((self.paper_id, *self.aliases))

    def with_paper(self, paper: Paper) -> Bookmark:
        """This bookmark re-keyed to ``paper.id`` with its copy refreshed from ``paper``."""
        aliases = [*self.aliases, self.paper_id, *paper.aliases]
        return replace(
            self,
            paper_id=paper.id,
            aliases=tuple(dict.fromkeys(a for a in aliases if a and a != paper.id)),
            title=paper.title or self.title,
            authors=tuple(paper.authors) or self.authors,
            url=paper.url or self.url,
            openreview_url=paper.openreview_url or self.openreview_url,
            session=paper.session or self.session,
            starts_at=paper.starts_at or self.starts_at,
            ends_at=paper.ends_at or self.ends_at,
            title_derived=paper.title_derived if paper.title else self.title_derived,
        )

    def to_paper(self) -> Paper:
        """A minimal :class:`Paper` from the stored copy (for a paper that left the data)."""
        return Paper(
            id=self.paper_id,
            title=self.title,
            title_raw=self.title,
            authors=self.authors,
            url=self.url,
            openreview_url=self.openreview_url,
            session=self.session,
            starts_at=self.starts_at,
            ends_at=self.ends_at,
            aliases=self.aliases,
            title_derived=self.title_derived,
            venue=venue_of_id(self.paper_id),
        )

    def to_json(self) -> dict[str, Any]:
        """The bookmark as JSON-ready data (lists, not tuples)."""
        data = asdict(self)
        data["authors"] = list(self.authors)
        data["aliases"] = list(self.aliases)
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Bookmark:
        """Rebuild a bookmark from :meth:`to_json` output; raise ``ValueError`` if unusable.

        ``id`` is accepted for ``paper_id`` (the ``list --json`` shape); unknown
        keys are ignored.
        """
        if not isinstance(data, dict):
            raise ValueError("a bookmark must be a JSON object")
        paper_id = data.get("paper_id", data.get("id"))
        if not isinstance(paper_id, str) or not paper_id.strip():
            raise ValueError("a bookmark needs a non-empty paper_id")
        _text(paper_id, "paper_id")
        texts = {}
        for key in ("title", "note", "added_at", "updated_at", "url", "openreview_url"):
            texts[key] = _text(data.get(key), key)
        for key in ("session", "starts_at", "ends_at"):
            texts[key] = _text(data.get(key), key)
        return cls(
            paper_id=paper_id,
            title_derived=data.get("title_derived") is True,
            status=check_status(str(data.get("status", "to-read"))),
            authors=_strings(data.get("authors"), "authors"),
            aliases=_strings(data.get("aliases"), "aliases"),
            **texts,
        )


def _text(value: object, key: str) -> str:
    if value is None:
        return ""
    if not isinstance(value, str):
        raise ValueError(f"{key} must be a string")
    _encodable(value, key)
    return value


def _encodable(value: str, key: str) -> None:
    """Raise ``ValueError`` for text that cannot be stored (a lone surrogate, say)."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise ValueError(f"{key} holds a character that is not valid text") from exc


def _strings(value: object, key: str) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str):
        # Accept the stored (JSON text) form too.
        try:
            value = json.loads(value)
        except ValueError as exc:
            raise ValueError(f"{key} must be a list of strings") from exc
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValueError(f"{key} must be a list of strings")
    for item in value:
        _encodable(item, key)
    return tuple(value)


def merge_notes(mine: str, theirs: str) -> str:
    """Both notes when they differ (mine first); one when the other is empty or contains it."""
    mine, theirs = mine.strip(), theirs.strip()
    if not theirs or theirs in mine:
        return mine
    if not mine or mine in theirs:
        return theirs
    return f"{mine}\n\n{theirs}"


def merge_bookmarks(mine: Bookmark, theirs: Bookmark) -> Bookmark:
    """``mine`` merged with an imported ``theirs`` of the same paper.

    The status of whichever was updated last, both notes when they differ, the
    aliases united, the earlier ``added_at``; the stored copy keeps ``mine`` first.
    """
    newer = parse_iso(theirs.updated_at) > parse_iso(mine.updated_at)
    aliases = [*mine.aliases, *theirs.aliases, theirs.paper_id]
    added = min(mine.added_at, theirs.added_at, key=parse_iso) or mine.added_at
    return replace(
        mine,
        status=theirs.status if newer else mine.status,
        note=merge_notes(mine.note, theirs.note),
        aliases=tuple(dict.fromkeys(a for a in aliases if a != mine.paper_id)),
        added_at=added,
        updated_at=max(mine.updated_at, theirs.updated_at, key=parse_iso),
        title=mine.title or theirs.title,
        title_derived=mine.title_derived if mine.title else theirs.title_derived,
        authors=mine.authors or theirs.authors,
        url=mine.url or theirs.url,
        openreview_url=mine.openreview_url or theirs.openreview_url,
        session=mine.session or theirs.session,
        starts_at=mine.starts_at or theirs.starts_at,
        ends_at=mine.ends_at or theirs.ends_at,
    )


def merge_twins(found: list[Bookmark], prefer: tuple[str, ...] = ()) -> Bookmark:
    """One bookmark from several stored for the same paper ("twins"), losing nothing.

    The kept id is the first of ``prefer`` that one of them is stored under, else
    the earliest added; both notes are kept, the more advanced status wins
    (read > reading > to-read), every id becomes an alias.
    """
    by_id = {b.paper_id: b for b in found}
    keep = next((by_id[p] for p in prefer if p in by_id), None)
    if keep is None:
        keep = min(found, key=lambda b: (parse_iso(b.added_at), b.paper_id))
    merged = keep
    for other in found:
        if other is not keep:
            status = max(merged.status, other.status, key=STATUSES.index)
            merged = replace(merge_bookmarks(merged, other), status=status)
    return merged


def paper_of(bm: Bookmark, lookup: Lookup | None) -> Paper | None:
    """The catalogue's paper for ``bm`` (by its id, then its aliases), or None."""
    if lookup is None:
        return None
    for key in (bm.paper_id, *bm.aliases):
        paper = lookup(key)
        if paper is not None:
            return paper
    return None
