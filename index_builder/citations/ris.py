"""RIS, the tagged format every reference manager imports (Zotero, Mendeley, EndNote, JabRef).

    to_ris([reference(paper, key)])  # -> "TY  - CPAPER\\r\\nTI  - ...\\r\\nER  - \\r\\n"

One record per paper: ``TY  - CPAPER`` (a conference paper; a paper with no venue is
``GEN``), ``TI`` the title, one ``AU`` per author as ``Family, Given`` (``Family, Given,
Jr``), ``PY`` and ``DA`` the year, ``T2`` the conference, ``C3`` the proceedings, ``CY``
the place, ``UR``, ``DO``, ``AB`` the abstract, ``N1`` the user's note, one ``KW`` per
tag, ``ER``. Lines end with CRLF, as RIS files do. A value is one line: the abstract's
line breaks become spaces and the note's ``" / "``, so that no text can start a tag line.
"""

from __future__ import annotations

from collections.abc import Iterable

from index_builder.citations.exchange import Reference
from index_builder.citations.keys import PersonName

CRLF = "\r\n"


def ris_name(person: PersonName) -> str:
    """``Family, Given`` (``Family, Given, Suffix``); a one-word name alone."""
    given = " ".join(person.given)
    parts = [person.family, given, person.suffix] if person.suffix else [person.family, given]
    return ", ".join(p for p in parts if p)


def _line(tag: str, value: str) -> str:
    """One ``TAG  - value`` line; empty when there is no value."""
    return f"{tag}  - {value}{CRLF}" if value else ""


def ris_record(ref: Reference) -> str:
    """The RIS record of one reference, ending with its ``ER`` line."""
    fields = [
        ("TY", "CPAPER" if ref.in_proceedings else "GEN"),
        ("TI", ref.title),
        *(("AU", ris_name(p)) for p in ref.people),
        ("PY", ref.year),
        ("DA", f"{ref.year}///" if ref.year else ""),
        ("T2", ref.conference),
        ("C3", ref.proceedings),
        ("CY", ref.place),
        ("UR", ref.url),
        ("DO", ref.doi),
        ("AB", " ".join(ref.abstract.split())),
        ("N1", " / ".join(line for line in ref.note.splitlines() if line.strip())),
        *(("KW", tag) for tag in ref.tags),
    ]
    return "".join(_line(tag, value) for tag, value in fields) + f"ER  - {CRLF}"


def to_ris(refs: Iterable[Reference]) -> str:
    """Every reference as RIS, records separated by a blank line."""
    return CRLF.join(ris_record(r) for r in refs)
