"""The automatic join's scoring, kept: a change of the sources re-applies the join's
decisions instead of scoring every abstract against every title again.

Analysing every title (the :class:`~index_builder.catalogue.joins.score.TitleIndex`) and
every abstract, and ranking each abstract against the titles
(:func:`~index_builder.catalogue.joins.match.score_one`), is most of a catalogue build's
join. The index depends on the titles and their authors alone, an abstract's ranking on
that index and the abstract's text alone: a join by hand, a take-apart or its undo
changes none of them (only which rows the decisions may take), and an update that
rewrites five abstracts changes five rankings. Inside ``with using(folder):``,
:func:`scored` serves the index and the rankings from ``joinscore-v{SCORING_VERSION}.pickle``
when a digest of the titles, the authors and the scoring code matches, computes what is
missing, and keeps the index with the rankings this build used. The decisions are made
again each time, by the same code on the same scores: what a build from nothing makes
(``tests/core/catalogue/test_join_scoring_cache.py``).

A cache file that cannot be read, is damaged or was made for other titles or code is
ignored and written again; one that cannot be written is no error.
"""

from __future__ import annotations

import contextlib
import hashlib
import pickle
from collections.abc import Iterator, Sequence
from contextvars import ContextVar
from pathlib import Path
from typing import TYPE_CHECKING, Any

from index_builder.atomic import read_pickle, write_pickle

if TYPE_CHECKING:  # the join's code is imported when a build scores (a warm load does not)
    from index_builder.catalogue.joins.match import AbstractMatcher, Scored
    from index_builder.catalogue.joins.score import TitleIndex

SCORING_VERSION = 1
"""Bump with a change of what is stored (the scoring code's own changes are in the digest)."""
_MAGIC = "paperscope-join-scoring"
_FOLDER: ContextVar[Path | None] = ContextVar("join_scoring_folder", default=None)


def cache_file(folder: Path) -> Path:
    """The scoring cache in ``folder``."""
    return folder / f"joinscore-v{SCORING_VERSION}.pickle"


@contextlib.contextmanager
def using(folder: Path | None) -> Iterator[None]:
    """Serve and keep the join's scoring in ``folder`` (nothing is kept when ``None``)."""
    token = _FOLDER.set(folder)
    try:
        yield
    finally:
        _FOLDER.reset(token)


def scored(
    titles: Sequence[str], authors: Sequence[Sequence[str]], abstracts: Sequence[str]
) -> AbstractMatcher:
    """The matcher of ``abstracts`` against the ``titles`` (rows' ``authors`` beside), as yet
    undecided, its scoring from the cache of the enclosing :func:`using` block where it can."""
    from index_builder.catalogue.joins.match import AbstractMatcher, score_one
    from index_builder.catalogue.joins.score import TitleIndex

    folder = _FOLDER.get()
    if folder is None:
        return AbstractMatcher(TitleIndex(titles, authors), abstracts)
    key = titles_digest(titles, authors)
    index, known = _load(cache_file(folder), key)
    if index is None:
        index, known = TitleIndex(titles, authors), {}
    used: dict[bytes, Scored] = {}

    def one(text: str) -> Scored:
        name = hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()
        done = used.get(name) or known.get(name) or score_one(index, text)
        used[name] = done
        return done

    matcher = AbstractMatcher(index, abstracts, scored=one)
    if used.keys() != known.keys():
        write_pickle(cache_file(folder), (_MAGIC, key, pickle.dumps((index, used), protocol=5)))
    return matcher


def titles_digest(titles: Sequence[str], authors: Sequence[Sequence[str]]) -> bytes:
    """A digest of the titles, their authors and the code that scores against them."""
    digest = hashlib.blake2b(digest_size=32)
    for source in _code():
        digest.update(Path(source).read_bytes())
    # repr of lists and tuples of strings: unambiguous, and made in C
    digest.update(
        repr((list(titles), [tuple(names) for names in authors])).encode("utf-8", "surrogatepass")
    )
    return digest.digest()


def _code() -> list[str]:
    """The files whose code decides the scores (the matcher, the title index, the folding)."""
    from index_builder.catalogue.joins import match, score
    from index_builder.text import words

    return [str(module.__file__) for module in (match, score, words)]


def _load(path: Path, key: bytes) -> tuple[TitleIndex | None, dict[bytes, Any]]:
    """The index and rankings stored at ``path`` for ``key``; nothing when missing, damaged
    or made for other titles."""
    from index_builder.catalogue.joins.score import TitleIndex

    try:
        magic, stored_key, blob = read_pickle(path)
        if magic != _MAGIC or stored_key != key:
            return None, {}
        index, rankings = read_pickle(blob)
    except Exception:  # a damaged cache is only a slower build
        return None, {}
    if not isinstance(index, TitleIndex) or not isinstance(rankings, dict):
        return None, {}
    return index, rankings
