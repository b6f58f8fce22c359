"""Which catalogue papers the user's library already holds.

A catalogue paper is in the library when an entry names the same DOI, arXiv id or
OpenReview id (read from the paper's links), or has the same folded title
(:func:`~index_builder.sources.records.title_key`) and shares an author (surname and
first initial, :func:`~index_builder.readinglist.library_entry.person_key`): a title
alone is not enough, two papers may share a short title.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from index_builder.model import Paper
from index_builder.readinglist.library_entry import (
    LibraryEntry,
    arxiv_id,
    doi_of,
    openreview_id,
    person_key,
)
from index_builder.sources.records import title_key


@dataclass(frozen=True)
class LibraryMatch:
    """The catalogue papers the library holds, and the entries no catalogue paper is."""

    paper_ids: frozenset[str]
    """Ids of the catalogue papers that are in the library."""
    rows: tuple[int, ...]
    """Their positions in the catalogue's paper order."""
    outside: tuple[LibraryEntry, ...]
    """The entries that match no catalogue paper."""


def match_library(papers: Sequence[Paper], entries: Iterable[LibraryEntry]) -> LibraryMatch:
    """The catalogue papers among ``papers`` that ``entries`` hold (see the module doc)."""
    entries = list(entries)
    if not entries:
        return LibraryMatch(frozenset(), (), ())
    by_id: dict[str, int] = {}
    by_title: dict[str, list[int]] = {}
    for n, entry in enumerate(entries):
        for name in (entry.doi and f"doi:{entry.doi}", entry.arxiv and f"arxiv:{entry.arxiv}",
                     entry.openreview and f"openreview:{entry.openreview}"):  # fmt: skip
            if name:
                by_id.setdefault(name, n)
        by_title.setdefault(entry.title_key, []).append(n)
    matched: dict[int, int] = {}
    for row, paper in enumerate(papers):
        hit = _by_ids(paper, by_id)
        if hit is None:
            hit = _by_title(paper, by_title.get(title_key(paper.title), ()), entries)
        if hit is not None:
            matched[row] = hit
    used = set(matched.values())
    return LibraryMatch(
        frozenset(papers[r].id for r in matched),
        tuple(sorted(matched)),
        tuple(e for n, e in enumerate(entries) if n not in used),
    )


def _by_ids(paper: Paper, by_id: dict[str, int]) -> int | None:
    links = (paper.url, paper.openreview_url, *paper.code_urls)
    for name in (f"doi:{doi_of(*links)}", f"arxiv:{arxiv_id(*links)}",
                 f"openreview:{openreview_id(*links)}"):  # fmt: skip
        if not name.endswith(":") and name in by_id:
            return by_id[name]
    return None


def _by_title(paper: Paper, candidates: Iterable[int], entries: list[LibraryEntry]) -> int | None:
    candidates = list(candidates)
    if not candidates:
        return None
    people = {person_key(a) for a in paper.authors} - {""}
    for n in candidates:
        if people & {person_key(a) for a in entries[n].authors}:
            return n
    return None
