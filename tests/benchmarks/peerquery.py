"""The query set's syntax read the simple way the peers would read it.

Only what the fixed query set uses: words, ``"phrases"``, ``field:value``,
``OR`` between two terms, ``NOT``/``-`` before a term, ``word*``, and the
filters ``is:oral``, ``is:spotlight``, ``has:abstract``, ``has:code``. With
``prefix`` the last plain word is a prefix, as while typing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

FILTERS = {"is:oral": "oral", "is:spotlight": "spotlight", "has:abstract": "has_abstract"}
FILTERS["has:code"] = "has_code"
FIELD_NAMES = {"title": "title", "author": "author", "authors": "author", "abstract": "abstract"}
FIELD_NAMES |= {"topic": "topic", "institution": "institution"}
_TOKEN = re.compile(r'(?P<neg>-|NOT\s+)?(?:(?P<field>\w+):)?(?:"(?P<phrase>[^"]*)"?|(?P<word>\S+))')


@dataclass(frozen=True)
class Term:
    """One word or phrase, maybe in one field; ``prefix`` for ``word*`` or the typed last word."""

    text: str
    field: str | None = None
    phrase: bool = False
    prefix: bool = False


@dataclass
class PeerQuery:
    """AND of OR-groups, minus the excluded terms, within the filters."""

    must: list[list[Term]] = field(default_factory=list)
    must_not: list[Term] = field(default_factory=list)
    flags: set[str] = field(default_factory=set)

    @property
    def positive(self) -> list[Term]:
        """Every term that can match (for scores and highlights)."""
        return [t for group in self.must for t in group]


def parse(query: str, *, prefix: bool = False) -> PeerQuery:
    """Read ``query``; unknown fields are read as words."""
    out = PeerQuery()
    pending_or = False
    for m in _TOKEN.finditer(query):
        raw = m.group(0).strip()
        if raw == "OR":
            pending_or = True
            continue
        if raw.lower() in FILTERS:
            out.flags.add(FILTERS[raw.lower()])
            continue
        name = (m.group("field") or "").lower()
        text = (m.group("phrase") if m.group("phrase") is not None else m.group("word")) or ""
        if name and name not in FIELD_NAMES:
            text = f"{name} {text}"
        is_prefix = text.endswith("*")
        text = text.rstrip("*").strip()
        if not text:
            continue
        term = Term(text, FIELD_NAMES.get(name), m.group("phrase") is not None, is_prefix)
        if m.group("neg"):
            out.must_not.append(term)
        elif pending_or and out.must:
            out.must[-1].append(term)
        else:
            out.must.append([term])
        pending_or = False
    if prefix and out.must and query[-1:].strip():
        last = out.must[-1][-1]
        if not last.phrase:
            out.must[-1][-1] = Term(last.text, last.field, False, True)
    return out
