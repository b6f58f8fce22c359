"""The catalogue's display order (see :mod:`index_builder.catalogue.merge`)."""

from __future__ import annotations

from datetime import datetime

from index_builder.catalogue.official import TABLE_VENUE
from index_builder.model import Paper


def _start_time(paper: Paper) -> float | None:
    """The session start as a POSIX timestamp, or ``None`` when absent or unreadable."""
    if not paper.starts_at:
        return None
    try:
        return datetime.fromisoformat(paper.starts_at).timestamp()
    except ValueError:
        return None


def display_key(paper: Paper) -> tuple[str, int, float, str, int, str]:
    """The table's venue first: timed papers by time, then untimed table papers, then
    abstract-only papers; then each other venue's papers (by name) the same way."""
    venue = "" if paper.venue in ("", TABLE_VENUE) else paper.venue
    if paper.event_id is None:
        file, _, position = paper.sources[0].rpartition(":") if paper.sources else ("", "", "0")
        return (
            venue,
            2,
            0.0,
            file,
            int(position) if position.isascii() and position.isdigit() else 0,
            paper.id,
        )
    start = _start_time(paper)
    title = paper.title.casefold()
    if start is None:
        return (venue, 1, 0.0, title, 0, paper.id)
    return (venue, 0, start, title, 0, paper.id)
