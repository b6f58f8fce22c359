"""One paper of the user's own library (a Zotero, Mendeley or JabRef export), and its ids.

A :class:`LibraryEntry` keeps what recognises the paper in a catalogue (DOI, arXiv id,
OpenReview id, folded title and authors) and what describes it to For you (title,
abstract, authors). Its :attr:`~LibraryEntry.key` names it once whatever file it came
from: the arXiv id, else the DOI, else the OpenReview id, else the folded title.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from index_builder.sources.records import title_key
from index_builder.text.words import fold

_ARXIV = re.compile(
    r"(?:arxiv\.org/(?:abs|pdf)/|arxiv[:.]\s*|10\.48550/arxiv\.)"
    r"(?P<id>\d{4}\.\d{4,5}|[a-z-]+(?:\.[a-z]{2})?/\d{7})",
    re.IGNORECASE,
)
_BARE_ARXIV = re.compile(r"(?P<id>\d{4}\.\d{4,5})(?:v\d+)?")
_DOI = re.compile(r"(?:doi\.org/|doi:\s*|^)(?P<doi>10\.\d{4,9}/\S+)", re.IGNORECASE)
_OPENREVIEW = re.compile(r"openreview\.net/(?:forum|pdf)\?id=(?P<id>[A-Za-z0-9_-]+)")


def arxiv_id(*texts: str) -> str:
    """The first arXiv id (``1706.03762``, no version) named in ``texts``, else ``""``."""
    for value in texts:
        found = _ARXIV.search(value or "")
        if found:
            return found["id"].lower()
    return ""


def bare_arxiv_id(value: str) -> str:
    """``value`` when it is an arXiv id alone (Mendeley's ``arxivId``, JabRef's ``eprint``)."""
    found = _BARE_ARXIV.fullmatch((value or "").strip())
    return found["id"] if found else ""


def doi_of(*texts: str) -> str:
    """The first DOI (lower case, no ``https://doi.org/``) named in ``texts``, else ``""``."""
    for value in texts:
        found = _DOI.search((value or "").strip())
        if found:
            return found["doi"].rstrip(".,;").lower()
    return ""


def openreview_id(*texts: str) -> str:
    """The first OpenReview forum id in ``texts`` (URLs), else ``""``."""
    for value in texts:
        found = _OPENREVIEW.search(value or "")
        if found:
            return found["id"]
    return ""


def person_key(name: str) -> str:
    """A name as surname and first initial (``Ashish Vaswani``, ``A. Vaswani`` -> ``vaswani a``).

    Exports write the same person in full or with initials; the surname and the first
    initial agree in both.
    """
    parts = re.findall(r"\w+", fold(name))
    if not parts:
        return ""
    return f"{parts[-1]} {parts[0][0]}" if len(parts) > 1 else parts[0]


@dataclass(frozen=True, slots=True)
class LibraryEntry:
    """One paper of the user's library, as an export file states it (display text)."""

    title: str
    authors: tuple[str, ...] = ()
    abstract: str = ""
    doi: str = ""
    arxiv: str = ""
    openreview: str = ""
    year: str = ""
    source: str = ""
    """The file it was imported from (its name)."""

    @property
    def key(self) -> str:
        """The entry's one name: ``arxiv:…``, ``doi:…``, ``openreview:…`` or ``title:…``."""
        if self.arxiv:
            return f"arxiv:{self.arxiv}"
        if self.doi:
            return f"doi:{self.doi}"
        if self.openreview:
            return f"openreview:{self.openreview}"
        return f"title:{title_key(self.title)}"

    @property
    def title_key(self) -> str:
        """The folded title the catalogue's titles are compared with."""
        return title_key(self.title)

    def richer(self, other: LibraryEntry) -> LibraryEntry:
        """This entry or ``other`` (the same paper twice), whichever says more."""

        def weight(e: LibraryEntry) -> tuple[bool, int, int]:
            return bool(e.abstract), len(e.authors), len(e.title)

        return other if weight(other) > weight(self) else self
