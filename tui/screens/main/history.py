"""Search history: the queries a user ran, recalled with Up/Down in the search box.

Kept in ``search_history.json`` in the per-user data folder (a JSON list, oldest
first), at most :data:`LIMIT` queries, written atomically off the event loop
(:class:`~tui.shared.background.LatestWrite`: a write with its fsync never delays a key;
pending writes are finished when the app quits). A missing or broken file is an empty
history: the app never fails over it. The file is read when the history is first used,
not while the app draws its first frame. Plain Python, no Textual.
"""

from __future__ import annotations

from pathlib import Path

from tui.shared.background import LatestWrite

LIMIT = 200
"""Most queries kept; the oldest go first."""
MAX_QUERY = 500
"""Longer queries (a stray paste) are not kept."""
FILE_NAME = "search_history.json"


class SearchHistory:
    """The queries of earlier searches and a cursor for stepping through them."""

    def __init__(self, path: Path | None, limit: int = LIMIT) -> None:
        self.path = path
        self.limit = limit
        self._queries: list[str] | None = None if path is not None else []
        self._at: int | None = None
        self._draft = ""
        self.saver = LatestWrite(self._save)
        """Writes the file in a thread of its own, the newest history last."""

    def _save(self, text: str) -> None:
        """Write the history file (in the saver's thread; ``OSError`` drops the write)."""
        from index_builder.atomic import write_atomic

        if self.path is not None:
            write_atomic(self.path, text)

    @property
    def queries(self) -> list[str]:
        """The queries kept, oldest first (the file is read on first use)."""
        if self._queries is None:
            self._queries = _read(self.path)[-self.limit :] if self.path is not None else []
        return self._queries

    @property
    def browsing(self) -> bool:
        """True while Up has stepped into the history (Down then steps back out)."""
        return self._at is not None

    def older(self, current: str) -> str | None:
        """The query before the one shown (the newest first time), or None at the oldest."""
        if not self.queries:
            return None
        if self._at is None:
            self._draft = current
            self._at = len(self.queries)
        if self._at == 0:
            return None
        self._at -= 1
        return self.queries[self._at]

    def newer(self) -> str | None:
        """The query after the one shown, the text typed before Up past the newest, or None."""
        if self._at is None:
            return None
        self._at += 1
        if self._at >= len(self.queries):
            self._at = None
            return self._draft
        return self.queries[self._at]

    def reset(self) -> None:
        """Stop browsing (the user typed): the next Up starts from the newest again."""
        self._at = None

    def add(self, query: str) -> None:
        """Remember ``query`` as the newest (once: an earlier copy moves up) and save."""
        text = " ".join(query.split())
        self._at = None
        if not text or len(text) > MAX_QUERY or text.lower().startswith("like:"):
            return
        if self.queries and self.queries[-1] == text:
            return
        kept = [q for q in self.queries if q != text][-(self.limit - 1) :]
        self._queries = [*kept, text]
        if self.path is not None:
            import json

            # Off the event loop; a read-only data folder loses only the history.
            self.saver.submit(json.dumps(self.queries, ensure_ascii=False, indent=0))


def _read(path: Path) -> list[str]:
    """The queries stored at ``path``; nothing for a missing, unreadable or foreign file."""
    import json  # on first use of the history, after the first frame

    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return []
    if not isinstance(data, list):
        return []
    from index_builder.text.safe import safe  # a hand-edited file may hold escapes

    return [safe(q) for q in data if isinstance(q, str) and q.strip() and len(q) <= MAX_QUERY]
