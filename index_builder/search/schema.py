"""The Whoosh schema and analyzers: everything that decides what the index holds.

:data:`ANALYSIS_VERSION` names what the index holds (this schema, the analyzers, the
documents of :mod:`~index_builder.search.documents`, the words of
:mod:`~index_builder.text.words`, the vocabulary file): an index built under another
version is rebuilt, while a change of query-time code (ranking, counting, highlighting),
or of a comment, rebuilds nothing.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from whoosh.analysis import Token, Tokenizer
from whoosh.fields import ID, KEYWORD, TEXT, Schema
from whoosh.lang.porter import stem as porter_stem

from index_builder.search.documents import PART_BOOSTS, PART_SEPARATOR
from index_builder.search.words import POSITION_GAP, iter_words

SCHEMA_VERSION = 5
ANALYSIS_VERSION = 6
"""Bump with any change of the terms, postings or vocabulary built from the same papers.
``tests/core/test_analysis_versions.py`` fails when the index of a fixture changes while
this stays the same."""


@lru_cache(maxsize=200_000)
def stem(word: str) -> str:
    """The Porter stem of a folded word, as the stemmed fields index it."""
    return str(porter_stem(word))


_Word = tuple[str, float, int, int, int]
"""A token's text, boost, position, and start and end in the analyzed value."""


class _WordTokenizer(Tokenizer):
    """Whoosh's tokenizer call over the ``(text, boost, pos, start, end)`` of ``_words``.

    One class per field kind instead of a tokenizer and three filters: indexing is
    Python-bound, and every generator layer costs.
    """

    def _words(self, value: str) -> Iterator[_Word]:
        raise NotImplementedError

    def __call__(
        self,
        value: str,
        positions: bool = False,
        chars: bool = False,
        keeporiginal: bool = False,
        removestops: bool = True,
        start_pos: int = 0,
        start_char: int = 0,
        tokenize: bool = True,
        mode: str = "",
        **kwargs: Any,
    ) -> Iterator[Any]:
        token = Token(positions, chars, removestops=removestops, mode=mode, **kwargs)
        for text, boost, pos, start, end in self._words(value):
            token.text = text
            token.boost = boost
            token.stopped = False
            if keeporiginal:
                token.original = value[start:end]
            if positions:
                token.pos = start_pos + pos
            if chars:
                token.startchar, token.endchar = start_char + start, start_char + end
            yield token


class SearchTokenizer(_WordTokenizer):
    """Words of :func:`iter_words`, folded and optionally stemmed, in one pass.

    Positions jump between the values of a multi-valued field, so a phrase never matches
    across two authors.
    """

    def __init__(self, stemming: bool = False) -> None:
        self.stemming = stemming

    def _words(self, value: str) -> Iterator[_Word]:
        for pos, start, end, folded in iter_words(value):
            yield (stem(folded) if self.stemming else folded), 1.0, pos, start, end


class CombinedTokenizer(_WordTokenizer):
    """The combined field: parts split by :data:`PART_SEPARATOR`, each with its weight.

    A word of the title counts three times and an author's name twice, so one posting
    list per word carries the BM25F field weights. A plain query word is one term
    instead of an OR over five fields: far fewer matchers, and ANDs can skip ahead.
    """

    def _words(self, value: str) -> Iterator[_Word]:
        base, offset = 0, 0
        for part, boost in zip(value.split(PART_SEPARATOR), PART_BOOSTS, strict=False):
            last = -1
            for pos, start, end, folded in iter_words(part):
                last = pos
                yield stem(folded), boost, base + pos, offset + start, offset + end
            base += last + 1 + POSITION_GAP
            offset += len(part) + 1


def make_schema() -> Any:
    """The lean schema: only the paper id is stored; papers stay in memory."""
    plain, stemmed = SearchTokenizer(False), SearchTokenizer(True)
    fields: dict[str, Any] = {
        "id": ID(stored=True),
        "text": TEXT(analyzer=CombinedTokenizer(), phrase=False),
        "title": TEXT(analyzer=stemmed, field_boost=3.0),
        "author": TEXT(analyzer=plain, field_boost=2.0),
        "abstract": TEXT(analyzer=stemmed),
        "topic": TEXT(analyzer=plain),
        "institution": TEXT(analyzer=plain),
        "session": ID(),
        "area": ID(),
        "venue": ID(),
        "track": ID(),
        "site": ID(),
        "is": KEYWORD(scorable=False),
        "has": KEYWORD(scorable=False),
        "day": KEYWORD(scorable=False),
    }
    return Schema(**fields)


WHOOSH_DISTRIBUTIONS = ("whoosh-reloaded", "whoosh-novo", "whoosh-ng", "whoosh")
"""The forks that install the ``whoosh`` package (WHOOSH.md); their indexes may not cross."""


@lru_cache(maxsize=1)
def library_version() -> str:
    """The Whoosh distribution and version, e.g. ``Whoosh-Reloaded 2.7.5``.

    Asks for the known forks by name (:func:`installed_names`): ``packages_distributions()``
    reads every installed package's file list, about 100 ms of CPU at each start.
    """
    import whoosh

    names = installed_names(WHOOSH_DISTRIBUTIONS)
    return f"{'+'.join(sorted(names)) or 'whoosh'} {whoosh.versionstring()}"


def installed_names(wanted: Sequence[str]) -> list[str]:
    """The ``Name`` in the metadata of each of the ``wanted`` distributions installed in a
    folder of ``sys.path`` (the first of each), as ``importlib.metadata.distribution``
    finds them (folder listings, names compared normalized), without importing
    ``importlib.metadata``: that import (and the e-mail parser it brings) cost each search
    process about 14 ms, for one header line. Zip archives on the path are not searched."""
    want = {_normalized(name) for name in wanted}
    found: dict[str, Path] = {}
    for entry in sys.path:
        try:
            children = os.listdir(entry or ".")
        except OSError:  # not a folder (a zip archive), or gone
            continue
        for child in children:
            stem, dot, kind = child.lower().rpartition(".")
            name = _normalized(stem.partition("-")[0])
            if dot and kind in ("dist-info", "egg-info") and name in want and name not in found:
                found[name] = Path(entry or ".", child)
    named = [_metadata_name(where) for where in found.values()]
    return [name for name in named if name]


def _normalized(name: str) -> str:
    """A distribution name as ``importlib.metadata`` compares it (PEP 503, ``_`` for ``-``)."""
    folded = name.lower()
    for sep in ("-", "."):
        folded = folded.replace(sep, "_")
    while "__" in folded:
        folded = folded.replace("__", "_")
    return folded


def _metadata_name(where: Path) -> str | None:
    """The ``Name:`` header of a ``.dist-info`` or ``.egg-info`` folder (or file)."""
    files = [where / "METADATA", where / "PKG-INFO"] if where.is_dir() else [where]
    for file in files:
        try:
            with file.open(encoding="utf-8", errors="replace") as handle:
                for line in handle:
                    if not line.strip():
                        break
                    key, _, value = line.partition(":")
                    if key.strip().lower() == "name":
                        return value.strip() or None
        except OSError:
            continue
    return None
