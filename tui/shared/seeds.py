"""What For you ranks by, shared by ``paperscope recommend`` and the browser's ``R``.

:func:`seeds_line` says it (``by your library (312) and 5 bookmarks``); :func:`as_paper`
turns a library entry that no catalogue paper is into a paper the vectors can read.
"""

from __future__ import annotations

from pathlib import Path

from index_builder.model import Paper
from index_builder.readinglist.library_entry import LibraryEntry


def seeds_line(library: int, bookmarks: int, like: Path | None = None) -> str:
    """What For you ranked by: ``by your library (312) and 5 bookmarks``."""
    if like is not None:
        return f"by {like.name} ({library})"
    parts = [f"your library ({library})"] if library else []
    if bookmarks:
        parts.append(f"{bookmarks} bookmark{'s' if bookmarks != 1 else ''}")
    return "by " + (" and ".join(parts) or "nothing yet")


def as_paper(entry: LibraryEntry) -> Paper:
    """A library entry outside the catalogue as a paper For you can vectorize."""
    return Paper(id=entry.key, title=entry.title, title_raw=entry.title, authors=entry.authors,
                 abstract=entry.abstract, abstract_raw=entry.abstract)  # fmt: skip
