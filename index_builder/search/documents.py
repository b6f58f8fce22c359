"""What the index stores for each paper, and how filter values are spelled (pure Python).

The Whoosh schema in :mod:`index_builder.search.engine` indexes exactly the fields built here.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import lru_cache
from typing import overload

from index_builder.model import Paper
from index_builder.search.facets import area, site_term, venue_term
from index_builder.search.words import VALUE_SEPARATOR, words
from index_builder.times import VENUE, convert, parse_time
from index_builder.venues import site_name

PART_SEPARATOR = "\x1e"
"""Separates the parts of the combined ``text`` field."""
PART_BOOSTS = (3.0, 2.0, 1.0, 1.0, 1.0)
"""Weights of title, authors, topic, institutions and abstract in the combined field."""

_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")


def day_tokens(starts_at: str, venue: str = "", session: str = "") -> list[str]:
    """The ``day:`` values a session start matches (see :func:`_day_tokens`)."""
    return list(_day_tokens(starts_at, venue, session))


@lru_cache(maxsize=1024)
def _day_tokens(starts_at: str, venue: str, session: str = "") -> tuple[str, ...]:
    """The ``day:`` values a session start matches: its day in its site's zone.

    ``2026-07-07T18:30:00-07:00`` at ICML 2026 (Seoul) -> ``2026-07-08``, ``07-08``,
    ``wed``, ``wednesday``. A venue not known keeps the offset the time came with; a time
    that is unknown (no offset, unreadable) matches no day.
    """
    start = parse_time(starts_at)
    if start is None:
        return ()
    day = convert(start, VENUE, venue, session).date()
    weekday = _WEEKDAYS[day.weekday()]
    return (day.isoformat(), day.isoformat()[5:], weekday[:3], weekday)


def normalize_day(value: str) -> str:
    """A typed ``day:`` value as indexed (``Wed``/``WEDNESDAY`` -> ``wed``/``wednesday``)."""
    return value.strip().lower()


def combined_text(paper: Paper) -> str:
    """The combined field's value of ``paper``: title, authors, topic, institutions and
    abstract, parted by :data:`PART_SEPARATOR`."""
    authors = VALUE_SEPARATOR.join(paper.authors)
    institutions = VALUE_SEPARATOR.join(paper.institutions)
    topic = paper.topic.replace("->", VALUE_SEPARATOR)
    return PART_SEPARATOR.join((paper.title, authors, topic, institutions, paper.abstract))


@lru_cache(maxsize=4096)
def _spaced_words(text: str) -> str:
    """The folded words of ``text`` joined by spaces (a topic area, a session, a track:
    a few values that thousands of papers share, so each is tokenized once)."""
    return " ".join(words(text))


def paper_doc(paper: Paper) -> dict[str, str]:
    """The field values indexed for ``paper`` (empty fields left out)."""
    flags_is = [paper.kind]
    if paper.spotlight and paper.kind != "spotlight":
        flags_is.append("spotlight")
    if paper.unjoined:
        flags_is.append("unjoined")
    flags_has = [
        name for name, on in (("abstract", paper.has_abstract), ("code", paper.has_code)) if on
    ]
    authors = VALUE_SEPARATOR.join(paper.authors)
    institutions = VALUE_SEPARATOR.join(paper.institutions)
    topic = paper.topic.replace("->", VALUE_SEPARATOR)
    doc = {
        "id": paper.id,
        "text": combined_text(paper),
        "title": paper.title,
        "author": authors,
        "abstract": paper.abstract,
        "topic": topic,
        "area": _spaced_words(area(paper.topic)),
        "institution": institutions,
        "session": _spaced_words(paper.session),
        "is": " ".join(flags_is),
        "has": " ".join(flags_has),
        "day": " ".join(_day_tokens(paper.starts_at, paper.venue, paper.session)),
        "venue": venue_term(paper.venue) if paper.venue else "",
        "site": site_term(site_name(paper.venue, paper.session)),
        "track": _spaced_words(paper.track),
    }
    return {key: value for key, value in doc.items() if value}


class PaperDocs(Sequence[dict[str, str]]):
    """The documents of ``papers``, each made when it is asked for (a slice is another view).

    A build splits the papers between two processes: each makes only its share's
    documents, and none holds them all.
    """

    def __init__(self, papers: Sequence[Paper]) -> None:
        self.papers = papers

    def __len__(self) -> int:
        return len(self.papers)

    @overload
    def __getitem__(self, index: int) -> dict[str, str]: ...
    @overload
    def __getitem__(self, index: slice) -> PaperDocs: ...
    def __getitem__(self, index: int | slice) -> dict[str, str] | PaperDocs:
        if isinstance(index, slice):
            return PaperDocs(self.papers[index])
        return paper_doc(self.papers[index])

    def __iter__(self) -> Iterator[dict[str, str]]:
        return map(paper_doc, self.papers)
