"""What a reference manager needs to know of one paper, gathered once for RIS and CSL-JSON.

    ref = reference(paper, key="huang2026proeval", note="read first", tags=("thesis",))
    ref.people      # PersonName for each author, split by keys.split_name (the one rule)
    ref.proceedings # "Proceedings of the 43rd International Conference on Machine Learning"

The same decisions as the other styles (:mod:`~index_builder.citations.styles`): the
display title (a derived one in brackets), nobody invented when no author is known, the
OpenReview URL, a known venue's proceedings, its year and its place, and no year or venue
for a paper that names none. A DOI is given only when the paper's URL is a DOI link.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from index_builder.citations.keys import PersonName, base_key, paper_year, split_name
from index_builder.citations.styles import citation_url, clean_line, display_title
from index_builder.model import Paper
from index_builder.text.safe import safe
from index_builder.venues import venue_named, venue_place

_DOI_URL = re.compile(r"https?://(?:dx\.)?doi\.org/(10\.\d{4,9}/\S+)$", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Reference:
    """One paper as an exchange format sees it; ``""`` or ``()`` for what is not known."""

    key: str
    title: str
    people: tuple[PersonName, ...]
    year: str
    proceedings: str
    conference: str
    place: str
    url: str
    doi: str
    abstract: str
    note: str
    tags: tuple[str, ...]

    @property
    def in_proceedings(self) -> bool:
        """True for a paper of a named venue (a conference paper), False for a bare record."""
        return bool(self.proceedings or self.conference)


def plain_text(text: str) -> str:
    """Multi-line text (an abstract, a note) kept as lines, each one cleaned."""
    lines = [clean_line(line) for line in safe(text).splitlines()]
    return "\n".join(lines).strip()


def reference(
    paper: Paper, key: str | None = None, *, note: str = "", tags: Sequence[str] = ()
) -> Reference:
    """The :class:`Reference` of ``paper``; ``key`` defaults to its base citation key."""
    known = venue_named(paper.venue) if paper.venue else None
    people = tuple(split_name(name) for a in paper.authors if (name := clean_line(a)))
    url = citation_url(paper)
    doi = found.group(1) if (found := _DOI_URL.match(url)) else ""
    return Reference(
        key=key or base_key(paper),
        title=display_title(paper),
        people=tuple(p for p in people if p.family),
        year=paper_year(paper),
        proceedings=known.booktitle if known else "",
        conference=known.name if known else clean_line(paper.venue),
        place=venue_place(known) if known else "",
        url=url,
        doi=doi,
        abstract=plain_text(paper.abstract),
        note=plain_text(note),
        tags=tuple(t for t in (clean_line(t) for t in tags) if t),
    )


def particle_split(family: str) -> tuple[str, str]:
    """``("van der", "Schaar")`` for ``van der Schaar``; ``("", family)`` without a
    lower-case particle in front (``Van Valen`` keeps its particle in the family name)."""
    words = family.split()
    lead = 0
    while lead < len(words) - 1 and words[lead].islower():
        lead += 1
    return " ".join(words[:lead]), " ".join(words[lead:])
