"""What ties the rows of one paper together in a table or a feed.

A paper can have several rows: its poster, an oral's talk, a spotlight's talk. They share
the feed's ``uid`` or the OpenReview forum id of ``paper_url``; talks are the rows of any
event type but Poster (in a table, orals only). The catalogue's merge and ``update``'s
account of what changed both group rows with these rules.
"""

from __future__ import annotations

import re

from index_builder.sources.types import TableRow

_FORUM = re.compile(r"openreview\.net/forum\?(?:[^#\s]*&)?id=([^&#/\s]+)")


def is_talk(row: TableRow) -> bool:
    """True for a talk's row (an oral, a feed's spotlight), false for a poster's."""
    kind = row.event_type.lower()
    return kind == "oral" or (bool(row.venue_key) and kind not in ("poster", ""))


def oral_row(row: TableRow) -> bool:
    """True for an oral's row."""
    return row.event_type.lower() == "oral"


def row_keys(row: TableRow) -> list[tuple[str, str]]:
    """The row's feed ``uid`` and OpenReview forum id, as ``(kind, value)`` pairs."""
    keys: list[tuple[str, str]] = []
    if row.uid:
        keys.append(("uid", row.uid.lower()))
    found = _FORUM.search(row.paper.openreview_url)
    if found:
        keys.append(("forum", found[1]))
    return keys
