"""Render once: rendered titles and abstracts kept by a hash of their raw text.

Inside ``with using(folder):`` every :func:`~index_builder.text.render.render` and
:func:`~index_builder.text.render.extract_code_urls` call of this thread looks its raw
text up first (the kind and a BLAKE2 digest of the text, in a file named for
:data:`RENDER_VERSION`) and remembers what it makes. A text's digest is made once in the
block (:func:`text_digest`): its rendering, its code links and the join's key of an
official abstract (:mod:`~index_builder.catalogue.joins.scoring_cache`) share it. On
leaving, the entries no call asked for are dropped (so the file holds what the catalogue
uses, bounded by :data:`MAX_ENTRIES`) and the file is written atomically when anything
changed. A cache file that cannot be read or is damaged is ignored and rebuilt; one that
cannot be written is no error.
"""

from __future__ import annotations

import contextlib
import hashlib
import pickle
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from pathlib import Path
from typing import TypeVar

from index_builder.atomic import write_pickle

RENDER_VERSION = 1
"""Bump with any change of what ``render`` or ``extract_code_urls`` make of a text:
the cache file is named for it, so older entries are never served."""
MAX_ENTRIES = 250_000
"""At most this many texts are kept: two per paper at ~100,000 papers."""
_MAGIC = "paperscope-render-cache v2"
"""v2: keys are the kind and the text's own digest (v1 hashed the kind with the text)."""
_AS_WRITTEN = b""
"""Kept for a text made into itself (most titles and abstracts render as written): the
file then holds its key alone, not the text again."""
Value = str | tuple[str, ...] | bytes
_V = TypeVar("_V", str, tuple[str, ...])


class RenderCache:
    """Rendered texts by hash: what was loaded, and which of them this build used."""

    def __init__(self, entries: dict[bytes, Value] | None = None) -> None:
        self.entries = entries or {}
        self.used: dict[bytes, Value] = {}
        self.hits = 0
        self.keep_loaded = False
        """Keep the loaded entries no call asked for (their texts' sources were served
        already parsed, so they are still in use)."""
        self.spans: dict[str, str] = {}
        """Math spans rendered in this block, by their source (never written: a text
        rendered before is served whole)."""
        self.digests: dict[str, bytes] = {}
        """Each text's :func:`digest_of`, made in this block (never written)."""

    def get(self, kind: str, raw: str, make: Callable[[str], _V]) -> _V:
        """``make(raw)``, from the cache when this ``kind`` of ``raw`` was made before."""
        key = kind.encode() + b"\0" + self.digest(raw)
        done = self.used.get(key)
        if done is None:
            done = self.entries.get(key)
            if done is None:
                made = make(raw)
                done = _AS_WRITTEN if made == raw else made
            else:
                self.hits += 1
            self.used[key] = done
        # One kind, one type (the key holds the kind); a text made into itself is its raw.
        return raw if isinstance(done, bytes) else done  # type: ignore[return-value]

    def digest(self, raw: str) -> bytes:
        """:func:`digest_of` ``raw``, made once in this block (an abstract's 1.3 KB was
        hashed three times a build: rendered, its code links, its join key)."""
        found = self.digests.get(raw)
        if found is None:
            found = self.digests[raw] = digest_of(raw)
        return found

    def kept(self) -> dict[bytes, Value]:
        """The entries to write: those used, and the loaded ones when they are kept."""
        return {**self.entries, **self.used} if self.keep_loaded else self.used


def digest_of(raw: str) -> bytes:
    """The 128-bit BLAKE2b digest of a text's UTF-8 (lone surrogates kept as they are)."""
    return hashlib.blake2b(raw.encode("utf-8", "surrogatepass"), digest_size=16).digest()


def text_digest(raw: str) -> bytes:
    """:func:`digest_of` ``raw``, made once per text inside a :func:`using` block."""
    cache = _ACTIVE.get()
    return digest_of(raw) if cache is None else cache.digest(raw)


_ACTIVE: ContextVar[RenderCache | None] = ContextVar("render_cache", default=None)


def active() -> RenderCache | None:
    """The cache of the enclosing :func:`using` block in this thread, if any."""
    return _ACTIVE.get()


def cache_file(folder: Path) -> Path:
    """The render cache in ``folder``."""
    return folder / f"render-v{RENDER_VERSION}.pickle"


@contextlib.contextmanager
def using(folder: Path | None) -> Iterator[RenderCache]:
    """Serve and keep rendered texts in ``folder`` (only in memory when it is ``None``)."""
    cache = RenderCache(_load(cache_file(folder)) if folder is not None else None)
    token = _ACTIVE.set(cache)
    try:
        yield cache
    finally:
        _ACTIVE.reset(token)
    kept = cache.kept()
    if folder is not None and kept.keys() != cache.entries.keys() and len(kept) <= MAX_ENTRIES:
        write_pickle(cache_file(folder), (_MAGIC, kept))


def _load(path: Path) -> dict[bytes, Value] | None:
    """The entries stored at ``path``; ``None`` when missing, unreadable or damaged."""
    try:
        with path.open("rb") as handle:
            magic, entries = pickle.load(handle)
    except Exception:  # a damaged cache is only a slower build
        return None
    if magic != _MAGIC or not isinstance(entries, dict):
        return None
    if not all(
        isinstance(k, bytes) and (isinstance(v, str | tuple) or v == _AS_WRITTEN)
        for k, v in entries.items()
    ):
        return None
    return entries
