"""Is this plausibly the venue's feed? The checks a download passes before it is stored.

A feed must be a whole document (a ``results`` list, a whole-number ``count`` that its
records reach, no ``next`` page left over), hold no record that cannot be read, at most
:data:`~index_builder.feeds.pages.MAX_RECORDS` records, and (unless forced) between half
and twice the records stored before. An abstracts file must map event ids (ASCII
digits) to text, and at least half of its ids must name an event of the feed.
Every refusal is a :class:`FeedError` of one line.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from index_builder.feeds.download import FeedError
from index_builder.feeds.pages import MAX_RECORDS, not_beyond_count, parse, whole_count
from index_builder.sources.feed import (
    NOT_A_FEED,
    Feed,
    feed_document,
    parse_abstracts,
    parse_feed,
    skipped_note,
)
from index_builder.sources.json_fields import event_id_of
from index_builder.sources.types import SourceError
from index_builder.venues import Venue

FORCE_HINT = "--force stores it anyway"


@dataclass(slots=True)
class Checked:
    """A feed that passed, its abstracts, and notes for the user."""

    feed: Feed
    abstracts: dict[int, str] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


def refuse_html(body: bytes, content_type: str, name: str) -> None:
    """Refuse an HTML page (a bot check, an error page) before parsing anything."""
    head = body.lstrip()[:64].lower()
    if "html" in content_type.lower() or head.startswith(b"<"):
        raise FeedError(
            f"{name}: the server sent an HTML page, not the JSON feed "
            "(a bot check or an error page)"
        )


def record_count(body: bytes | None) -> int | None:
    """How many records a stored feed holds (``None`` when it cannot be read)."""
    if body is None:
        return None
    try:
        data = json.loads(body)
    except ValueError:
        return None
    document = feed_document(data)
    return None if document is None else len(document["results"])


def check_feed(
    venue: Venue, body: bytes, *, stored: int | None, force: bool, document: Any = None
) -> Checked:
    """The feed in ``body`` (``document``: parsed already by :func:`.pages.parse`),
    checked whole (see the module doc)."""
    name = venue.feed_name
    data = feed_document(document if document is not None else parse(body, name))
    if data is None:
        raise FeedError(f"{name}: {NOT_A_FEED}")
    count, results = data.get("count"), data["results"]
    if not isinstance(count, int) or not whole_count(count):
        shown = "missing" if "count" not in data else json.dumps(count)[:20]
        raise FeedError(f'{name}: no whole-number "count" ({shown}): not the venue\'s feed; '
                        "refused")  # fmt: skip
    if data.get("next") not in (None, ""):
        raise FeedError(f"{name} is one page of a paged feed ({len(results):,} of {count:,} "
                        "records); give the site's folder so every page is fetched")  # fmt: skip
    not_beyond_count(name, len(results), count)
    if max(count, len(results)) > MAX_RECORDS:
        raise FeedError(f"{name}: {max(count, len(results)):,} records, more than the "
                        f"{MAX_RECORDS:,} a venue may have; refused")  # fmt: skip
    try:
        feed = parse_feed(data, venue.key)
    except SourceError as exc:
        raise FeedError(f"{name}: {exc}") from exc
    if count > feed.received:
        raise FeedError(f"{name} is partial: {feed.received:,} of {count:,} records came")
    if feed.skipped:
        raise FeedError(f"{name}: {skipped_note(feed)}")
    if not feed.rows:
        raise FeedError(f"{name} holds no records")
    if stored and not force and not stored / 2 <= feed.received <= stored * 2:
        raise FeedError(f"{name} holds {feed.received:,} records where {stored:,} are stored: "
                        f"not plausibly the same venue's feed; {FORCE_HINT}")  # fmt: skip
    out = Checked(feed)
    twice = Counter(r.event_id for r in feed.rows)
    repeated = sorted(i for i, n in twice.items() if n > 1)
    if repeated:
        shown = ", ".join(map(str, repeated[:5])) + (", …" if len(repeated) > 5 else "")
        extra = sum(twice[i] - 1 for i in repeated)
        out.notes.append(f"{name}: {extra:,} record(s) repeat the id of an earlier one "
                         f"({shown}); the first of each is used")  # fmt: skip
    return out


def check_abstracts(venue: Venue, body: bytes, ids: set[int]) -> dict[int, str]:
    """The abstracts in ``body`` (``{}`` for an empty file), checked against the feed's ids."""
    name = venue.abstracts_name
    data = parse(body, name)
    if not isinstance(data, dict):
        raise FeedError(f"{name}: {_not_object()}")
    if not data:
        return {}
    odd = sum(1 for v in data.values() if not (isinstance(v, str) or v is None))
    if odd:
        raise FeedError(f"{name}: {odd:,} of {len(data):,} values are not text: "
                        "not the venue's abstracts; refused")  # fmt: skip
    matched = sum(1 for k in data if event_id_of(k) in ids)
    if matched * 2 < len(data):
        raise FeedError(f"{name}: only {matched:,} of {len(data):,} of its ids name an event "
                        "of the feed: not the venue's abstracts; refused")  # fmt: skip
    try:
        return parse_abstracts(data)
    except SourceError as exc:
        raise FeedError(f"{name}: {exc}") from exc


def _not_object() -> str:
    return "the abstracts file is not a JSON object of id: abstract"
