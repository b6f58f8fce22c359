"""The reading list's record: one bookmarked paper with a copy of what it needs to survive.

A :class:`Bookmark` keeps a copy of its paper (a :class:`~index_builder.model.Paper`
with the title, authors, links and session: :data:`KEPT`) so that it can still be
shown, exported and cited after the paper leaves the data.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any, Literal

from index_builder.model import Paper, filled
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


def utc_iso(value: str) -> str:
    """A stored timestamp as the instant it names, in UTC (``…T01:00:00Z``).

    ``…T10:00:00+09:00`` and ``…T01:00:00Z`` are one instant and are written alike, so
    that stored times compare as moments. Text that is not a timestamp is kept as it is
    (nothing a user imported is dropped); a time without an offset is read as UTC.
    """
    if not value or not isinstance(value, str) or value.endswith("Z"):
        return value  # already UTC (or, if unreadable, kept as it is)
    try:
        stamp = datetime.fromisoformat(value.strip())
        stamp = (stamp if stamp.tzinfo else stamp.replace(tzinfo=UTC)).astimezone(UTC)
    except (ValueError, OverflowError):
        return value
    micro = stamp.microsecond
    spec = "seconds" if not micro else "milliseconds" if micro % 1000 == 0 else "microseconds"
    return stamp.isoformat(timespec=spec).replace("+00:00", "Z")


def check_status(status: str) -> Status:
    """Return ``status`` when it is one of :data:`STATUSES`, else raise ``ValueError``."""
    for known in STATUSES:
        if status == known:
            return known
    raise ValueError(f"unknown status {status!r}: use one of {', '.join(STATUSES)}")


KEPT = (
    "title",
    "authors",
    "aliases",
    "url",
    "openreview_url",
    "session",
    "starts_at",
    "ends_at",
    "title_derived",
)
"""The fields of a :class:`Paper` a bookmark keeps a copy of (with its id)."""


def snapshot(paper: Paper) -> Paper:
    """The copy of ``paper`` a bookmark keeps: its id and the :data:`KEPT` fields."""
    kept: dict[str, Any] = {name: getattr(paper, name) for name in KEPT}
    kept["aliases"] = tuple(a for a in paper.aliases if a != paper.id)
    return Paper(id=paper.id, **kept)


@dataclass(frozen=True, slots=True)
class Bookmark:
    """One paper on the reading list: a copy of the paper (:func:`snapshot`), status and note."""

    copy: Paper
    """The paper as it was when last seen: its id and the :data:`KEPT` fields."""
    status: Status = "to-read"
    note: str = ""
    added_at: str = ""
    updated_at: str = ""
    tags: tuple[str, ...] = ()
    """The user's tags (:func:`normal_tag`), sorted case-insensitively, none twice."""
    place: int | None = field(default=None, compare=False)
    """Where a removed bookmark stood (its row), set by ``ReadingList.remove`` so that an
    undo puts it back in its place: bookmarks added in the same millisecond are ordered by
    it."""

    @classmethod
    def from_paper(cls, paper: Paper, *, at: str | None = None) -> Bookmark:
        """A fresh ``to-read`` bookmark of ``paper`` added ``at`` (default: now)."""
        stamp = at or now_iso()
        return cls(snapshot(paper), added_at=stamp, updated_at=stamp)

    @property
    def paper_id(self) -> str:
        """The id the bookmark is stored under."""
        return self.copy.id

    @property
    def ids(self) -> frozenset[str]:
        """The id and every alias this bookmark answers to."""
        return frozenset((self.copy.id, *self.copy.aliases))

    def with_paper(self, paper: Paper) -> Bookmark:
        """This bookmark re-keyed to ``paper.id`` with its copy refreshed from ``paper``."""
        old = self.copy
        # The snapshot of ``paper`` with each empty field taken from the old copy, in one
        # step: a field outside KEPT is empty in a snapshot, so the old copy's value stays.
        values: dict[str, Any] = {name: getattr(paper, name) or getattr(old, name) for name in KEPT}
        aliases = (*old.aliases, old.id, *paper.aliases)
        values["id"] = paper.id or old.id
        values["aliases"] = tuple(dict.fromkeys(a for a in aliases if a and a != paper.id))
        values["title_derived"] = (paper if paper.title else old).title_derived
        copy = replace(old, **values)
        return Bookmark(copy, self.status, self.note, self.added_at, self.updated_at, self.tags)

    def to_paper(self) -> Paper:
        """A minimal :class:`Paper` from the stored copy (for a paper that left the data)."""
        copy = self.copy
        return replace(copy, title_raw=copy.title, venue=venue_of_id(copy.id))

    def to_json(self) -> dict[str, Any]:
        """The bookmark as JSON-ready data (lists, not tuples)."""
        kept = {n: list(v) if isinstance(v := getattr(self.copy, n), tuple) else v for n in KEPT}
        return {
            "paper_id": self.copy.id,
            "title": kept.pop("title"),
            "authors": kept.pop("authors"),
            "status": self.status,
            "note": self.note,
            "added_at": self.added_at,
            "updated_at": self.updated_at,
            "tags": list(self.tags),
            **kept,
        }

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
        note, added_at, updated_at = (
            _text(data.get(k), k) for k in ("note", "added_at", "updated_at")
        )
        kept: dict[str, Any] = {}
        for key in KEPT:
            default = Paper.__dataclass_fields__[key].default
            if isinstance(default, bool):
                kept[key] = data.get(key) is True
            elif isinstance(default, tuple):
                kept[key] = _strings(data.get(key), key)
            else:
                kept[key] = _text(data.get(key), key)
        return cls(
            Paper(id=paper_id, **kept),
            status=check_status(str(data.get("status", "to-read"))),
            note=note,
            added_at=added_at,
            updated_at=updated_at,
            tags=tag_set(_strings(data.get("tags"), "tags")),
        )


def normal_tag(text: str) -> str:
    """A tag as stored: whitespace collapsed; ``ValueError`` for an empty one or a comma
    (CSL-JSON joins the tags with commas, so one would split on the way out)."""
    tag = " ".join(str(text).split())
    if not tag:
        raise ValueError("a tag cannot be empty")
    if "," in tag:
        raise ValueError(f"a tag cannot hold a comma: {tag!r}")
    _encodable(tag, "tag")
    return tag


def tag_set(tags: Iterable[str]) -> tuple[str, ...]:
    """The tags, normalised, each once (the first spelling of a case-insensitive match
    kept), sorted case-insensitively."""
    kept: dict[str, str] = {}
    for tag in tags:
        tag = normal_tag(tag)
        kept.setdefault(tag.casefold(), tag)
    return tuple(sorted(kept.values(), key=lambda t: (t.casefold(), t)))


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
    aliases = [*mine.copy.aliases, *theirs.copy.aliases, theirs.copy.id]
    added = min(mine.added_at, theirs.added_at, key=parse_iso) or mine.added_at
    copy = replace(
        filled(mine.copy, theirs.copy),
        aliases=tuple(dict.fromkeys(a for a in aliases if a != mine.copy.id)),
        title_derived=(mine if mine.copy.title else theirs).copy.title_derived,
    )
    return replace(
        mine,
        copy=copy,
        status=theirs.status if newer else mine.status,
        note=merge_notes(mine.note, theirs.note),
        tags=tag_set((*mine.tags, *theirs.tags)),
        added_at=added,
        updated_at=max(mine.updated_at, theirs.updated_at, key=parse_iso),
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
    for key in (bm.copy.id, *bm.copy.aliases):
        paper = lookup(key)
        if paper is not None:
            return paper
    return None
