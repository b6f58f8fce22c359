"""What each watch matches now and which of its matches are new (``is:new``).

Shared by ``paperscope watch list``, the summary of ``paperscope update`` and the
browser's watches pane: each runs a watch's query, and the same query joined to
``is:new`` (the papers the last update of their venue added).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from index_builder.readinglist.watches import Watch

if TYPE_CHECKING:
    from index_builder.search.engine import SearchIndex

MAX_NEW = 10_000
"""At most this many new ids are listed for one watch (a whole feed is far fewer)."""


@dataclass(frozen=True)
class WatchCount:
    """One watch, how many papers it matches and the ids of the new ones."""

    watch: Watch
    total: int
    new: tuple[str, ...]

    def as_json(self) -> dict[str, object]:
        """``{"name", "query", "total", "new": [ids]}``, as ``watch list --json`` prints."""
        return {"name": self.watch.name, "query": self.watch.query, "total": self.total,
                "new": list(self.new)}  # fmt: skip


def new_query(query: str) -> str:
    """``query`` limited to the new papers (the box takes it too)."""
    return f"({query}) is:new"


def count_watches(index: SearchIndex, watches: Sequence[Watch]) -> list[WatchCount]:
    """Each watch's total and new matches, over an index that is ready."""
    out = []
    for watch in watches:
        total = index.search(watch.query, limit=0).total
        new = index.search(new_query(watch.query), limit=MAX_NEW, sort="title") if total else None
        out.append(WatchCount(watch, total, tuple(h.paper.id for h in new.hits) if new else ()))
    return out


def news_line(counts: Sequence[WatchCount]) -> str:
    """``2 new for author:"Yann LeCun"; 5 new for diffusion`` ('' when nothing is new)."""
    return "; ".join(f"{len(c.new)} new for {c.watch.name}" for c in counts if c.new)
