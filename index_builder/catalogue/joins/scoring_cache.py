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

The decisions are kept too, in a small file of their own
(``joindecisions-v{SCORING_VERSION}.pickle``, :func:`decided`): what the matcher decides is
a function of the titles and authors (with the code, as above), the abstracts it is handed,
in order, the rows' event ids and the files' orders. A join by hand, a take-apart or an
undo hands it the same ones (the joins by hand and the separations are applied after
it), so such a change reads the matcher's joins and hints from that file, under a digest
of all of those, and never loads the title index and the rankings. The keys of the
official abstracts, against which a list's abstracts are joined with certainty, are kept
by text (:func:`official_keys`, ``joincertain-v{SCORING_VERSION}.pickle``).

A cache file that cannot be read, is damaged or was made for other titles or code is
ignored and written again; one that cannot be written is no error.
"""

from __future__ import annotations

import contextlib
import hashlib
import pickle
import unicodedata
from array import array
from collections.abc import Iterator, Mapping, Sequence
from contextvars import ContextVar
from pathlib import Path
from typing import TYPE_CHECKING, Any

from index_builder.atomic import read_pickle, write_pickle
from index_builder.text.render_cache import text_digest

if TYPE_CHECKING:  # the join's code is imported when a build scores (a warm load does not)
    from index_builder.catalogue.joins.match import AbstractMatcher, Join, Scored
    from index_builder.catalogue.joins.score import TitleIndex

SCORING_VERSION = 1
"""Bump with a change of what is stored (the scoring code's own changes are in the digest)."""
_MAGIC = "paperscope-join-scoring"
_DECIDED = "paperscope-join-decisions"
_CERTAIN = "paperscope-official-keys v2"
_UNICODE = f"unicode {unicodedata.unidata_version}\n".encode()
"""The folding and NFKC that analyse titles and key texts are the Unicode data's:
another Python's may fold a text otherwise."""
_FOLDER: ContextVar[Path | None] = ContextVar("join_scoring_folder", default=None)


def cache_file(folder: Path) -> Path:
    """The scoring cache in ``folder``."""
    return folder / f"joinscore-v{SCORING_VERSION}.pickle"


def official_keys(official: Mapping[int, str]) -> dict[bytes, int | None]:
    """:func:`~index_builder.catalogue.official.official_keys` of ``official``, each text's
    key kept in the folder of the enclosing :func:`using` block under a digest of the text
    (and of the code that keys it): a change that touches no official abstract (a join by
    hand, a take-apart, an undo) keys none again (20,000 texts at three venues), and an
    update that rewrites five abstracts keys those five (all 6,628 before: 0.12 s)."""
    from index_builder.catalogue import official as code

    folder = _FOLDER.get()
    if folder is None:
        return code.official_keys(official)
    code_key = hashlib.blake2b(_UNICODE, digest_size=32)
    code_key.update(Path(str(code.__file__)).read_bytes())
    file = folder / f"joincertain-v{SCORING_VERSION}.pickle"
    kept = _kept_keys(file, code_key.digest())
    used: dict[bytes, bytes | None] = {}

    def key_of(text: str) -> bytes | None:
        digest = text_digest(text)  # the render cache's digest of it, made once a build
        key = kept[digest] if digest in kept else code.text_key(text)
        used[digest] = key
        return key

    keyed = code.official_keys(official, key_of)
    if used != kept:  # texts keyed afresh, or kept ones no longer used
        write_pickle(file, (_CERTAIN, code_key.digest(), used))
    return keyed


def _kept_keys(file: Path, code_key: bytes) -> dict[bytes, bytes | None]:
    """The texts' keys kept in ``file`` for this code (none when missing or damaged)."""
    try:
        magic, stored_key, kept = read_pickle(file)
        if magic == _CERTAIN and stored_key == code_key and isinstance(kept, dict):
            return kept
    except Exception:  # missing or damaged: the texts are keyed again
        pass
    return {}


def decisions_file(folder: Path) -> Path:
    """The kept decisions of the matcher in ``folder``."""
    return folder / f"joindecisions-v{SCORING_VERSION}.pickle"


@contextlib.contextmanager
def using(folder: Path | None) -> Iterator[None]:
    """Serve and keep the join's scoring in ``folder`` (nothing is kept when ``None``)."""
    token = _FOLDER.set(folder)
    try:
        yield
    finally:
        _FOLDER.reset(token)


def decided(
    titles: Sequence[str],
    authors: Sequence[Sequence[str]],
    abstracts: Sequence[str],
    event_ids: Sequence[int],
    files: Sequence[Sequence[int]],
) -> tuple[dict[int, Join], dict[int, int]]:
    """The matcher's joins (:meth:`~index_builder.catalogue.joins.match.AbstractMatcher.join`
    of ``event_ids`` and ``files``) and its possible rows, kept in the folder of the
    enclosing :func:`using` block under a digest of every input (see the module notes)."""
    folder = _FOLDER.get()
    if folder is None:
        matcher = scored(titles, authors, abstracts)
        return matcher.join(event_ids, files), dict(matcher.possible)
    titled = titles_digest(titles, authors)
    key = _decisions_key(titled, abstracts, event_ids, files)
    kept = _load_decisions(decisions_file(folder), key)
    if kept is not None:
        return kept
    matcher = scored(titles, authors, abstracts, titled)
    joins = matcher.join(event_ids, files)
    possible = dict(matcher.possible)
    write_pickle(decisions_file(folder), (_DECIDED, key, joins, possible))
    return joins, possible


def scored(
    titles: Sequence[str],
    authors: Sequence[Sequence[str]],
    abstracts: Sequence[str],
    titled: bytes = b"",
) -> AbstractMatcher:
    """The matcher of ``abstracts`` against the ``titles`` (rows' ``authors`` beside), as yet
    undecided, its scoring from the cache of the enclosing :func:`using` block where it can
    (``titled``: their :func:`titles_digest`, when the caller made it)."""
    from index_builder.catalogue.joins.match import AbstractMatcher, score_one
    from index_builder.catalogue.joins.score import TitleIndex

    folder = _FOLDER.get()
    if folder is None:
        return AbstractMatcher(TitleIndex(titles, authors), abstracts)
    key = titled or titles_digest(titles, authors)
    index, known = _load(cache_file(folder), key)
    if index is None:
        index, known = TitleIndex(titles, authors), {}
    used: dict[bytes, Scored] = {}

    def one(text: str) -> Scored:
        name = text_digest(text)
        done = used.get(name) or known.get(name) or score_one(index, text)
        used[name] = done
        return done

    matcher = AbstractMatcher(index, abstracts, scored=one)
    if used.keys() != known.keys():
        write_pickle(cache_file(folder), (_MAGIC, key, pickle.dumps((index, used), protocol=5)))
    return matcher


def titles_digest(titles: Sequence[str], authors: Sequence[Sequence[str]]) -> bytes:
    """A digest of the titles, their authors and the code that scores against them."""
    digest = hashlib.blake2b(_UNICODE, digest_size=32)
    for source in _code():
        digest.update(Path(source).read_bytes())
    names = [name for row in authors for name in row]
    _strings(digest, titles)
    digest.update(array("q", map(len, authors)).tobytes())
    _strings(digest, names)
    return digest.digest()


def _strings(digest: Any, strings: Sequence[str]) -> None:
    """Add ``strings`` to ``digest`` unambiguously: their count and lengths, then their
    text (a third of the time their ``repr`` took)."""
    digest.update(array("q", [len(strings), *map(len, strings)]).tobytes())
    digest.update("".join(strings).encode("utf-8", "surrogatepass"))


def _decisions_key(
    titled: bytes,
    abstracts: Sequence[str],
    event_ids: Sequence[int],
    files: Sequence[Sequence[int]],
) -> bytes:
    """A digest of the titles' digest and of every other input of the matcher's decisions."""
    digest = hashlib.blake2b(titled, digest_size=32)
    inputs = (list(abstracts), list(event_ids), [list(file) for file in files])
    digest.update(repr(inputs).encode("utf-8", "surrogatepass"))
    return digest.digest()


def _load_decisions(path: Path, key: bytes) -> tuple[dict[int, Join], dict[int, int]] | None:
    """The joins and possible rows kept at ``path`` for ``key``; ``None`` when missing,
    damaged or decided on other inputs."""
    try:
        magic, stored_key, joins, possible = read_pickle(path)
    except Exception:  # a damaged file only costs the decisions made again
        return None
    if magic != _DECIDED or stored_key != key:
        return None
    if not isinstance(joins, dict) or not isinstance(possible, dict):
        return None
    return joins, possible


def _code() -> list[str]:
    """The files whose code decides the scores and the joins (the matcher and its
    thresholds, the title index, the folding)."""
    from index_builder.catalogue.joins import match, score, thresholds
    from index_builder.text import words

    return [str(module.__file__) for module in (match, score, thresholds, words)]


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
