"""Each source parsed once: what reading a file gave, kept by the file's path and bytes.

When one source changes (a line of ``joins.jsonl``, a stored feed, a ``--source`` file),
the catalogue is merged again from every source, but only the changed file is read and
rendered again: the others' :class:`~index_builder.sources.types.SourceData` come from
this cache (``sources-v{CATALOGUE_VERSION}.pickle`` in the cache folder), each stored as
its own pickle so that the merge can never change a cached copy. Entries of files no
longer read are dropped when the file is written (atomically, after a build); a damaged
file is ignored and rebuilt.
"""

from __future__ import annotations

import hashlib
import pickle
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from index_builder.atomic import read_pickle, write_pickle
from index_builder.venues import declared_digest

if TYPE_CHECKING:
    from index_builder.sources.types import SourceData

_MAGIC = "paperscope-parsed-sources"


class SourceCache:
    """Parsed sources by (resolved path, SHA-256 of the bytes); see the module notes.

    Callers hand the SHA-256 (``digest``) of the file's bytes, which they computed once.
    """

    def __init__(self, file: Path | None) -> None:
        self.file = file
        self.entries = _load(file) if file is not None else {}
        self.used: dict[tuple[str, str], bytes] = {}
        self.hits = 0

    def get(self, path: Path, digest: bytes) -> SourceData | None:
        """The parsed source for ``path`` whose bytes hash to ``digest``, if parsed before."""
        key = _key(path, digest)
        stored = self.entries.get(key)
        if stored is None:
            return None
        try:
            parsed: SourceData = read_pickle(stored)
        except Exception:  # a damaged entry: the file is read again
            return None
        self.used[key] = stored
        self.hits += 1
        return parsed

    def put(self, path: Path, digest: bytes, parsed: SourceData) -> None:
        """Keep what reading ``path`` gave (a copy, before anything else touches it)."""
        self.used[_key(path, digest)] = pickle.dumps(parsed, protocol=pickle.HIGHEST_PROTOCOL)

    def save(self) -> None:
        """Write the entries this build used (when they changed)."""
        if self.file is not None and self.used.keys() != self.entries.keys():
            write_pickle(self.file, (_MAGIC, self.used))

    def add(self, read: Iterable[tuple[Path, bytes, SourceData]]) -> None:
        """Keep sources parsed elsewhere (an update parsed the feed it stored) beside the
        entries of files that still exist, and write them (no build is under way)."""
        for path, digest, parsed in read:
            self.put(path, digest, parsed)
        kept = {k: v for k, v in self.entries.items() if Path(k[0]).exists()}
        if self.file is not None:
            write_pickle(self.file, (_MAGIC, kept | self.used))


def _key(path: Path, digest: bytes) -> tuple[str, str]:
    """The file's resolved path, and a digest of its bytes' SHA-256 and of the declared
    venues (a feed's records are read as the venue the config declares for its file name)."""
    try:
        where = str(path.resolve())
    except (OSError, RuntimeError):
        where = str(path)
    return where, hashlib.sha256(digest + declared_digest().encode()).hexdigest()


def _load(file: Path) -> dict[tuple[str, str], bytes]:
    try:
        with file.open("rb") as handle:
            magic, entries = pickle.load(handle)
    except Exception:  # missing or damaged: every source is read
        return {}
    if magic != _MAGIC or not isinstance(entries, dict):
        return {}
    return entries
