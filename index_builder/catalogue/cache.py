"""The catalogue's on-disk cache: the whole catalogue pickled, and a head beside it.

:func:`write_cache` pickles a :class:`~index_builder.catalogue.papers.Catalogue` to its
file, then the first :data:`HEAD_SIZE` papers with each source's size and modification
time (taken before the sources were read) to the head file beside it. :func:`read_head`
hands the head out without reading a source; :func:`read_cache` the whole catalogue when
its fingerprint matches. Every file is written atomically, and one that cannot be read
or written is no error: the catalogue is built from the sources instead.

The catalogue it replaces is kept beside it (:func:`previous_file`): an undone change
(``join --undo``, a feed put back) brings back the sources of the catalogue before, and
:func:`read_cache` serves it from there instead of merging and joining every source
again. The two files swap places on such a hit, so the cache holds the last two sets of
sources. The previous catalogue's fingerprint is written beside it
(:func:`previous_hint_file`), so a change that is no undo does not unpickle it in vain.
"""

from __future__ import annotations

import contextlib
import os
import pickle
from collections.abc import Sequence
from pathlib import Path

from index_builder.atomic import read_pickle, write_pickle
from index_builder.catalogue.papers import Catalogue

HEAD_SIZE = 100
"""Papers in the head cache: more than the tallest terminal's first screen shows."""
Signature = list[tuple[str, int, int]]


def read_head(sources: Sequence[Path], cache_file: Path) -> Catalogue | None:
    """The head cached beside ``cache_file``, if written for ``sources`` as they are now.

    ``None`` unless the head cache was written for exactly these sources (same paths,
    sizes and modification times). The result's ``complete`` is False.
    """
    try:
        with head_file(cache_file).open("rb") as handle:
            signature, head = pickle.load(handle)
    except Exception:  # no head, or one that cannot be read: the full load follows
        return None
    if signature != signature_of(sources) or not isinstance(head, Catalogue):
        return None
    head.complete = False
    return head


def signature_of(sources: Sequence[Path]) -> Signature:
    """Each source's path, size and modification time (-1 when it cannot be seen)."""
    out = []
    for path in sources:
        try:
            info = os.stat(path)
            out.append((str(path), info.st_size, info.st_mtime_ns))
        except OSError:
            out.append((str(path), -1, -1))
    return out


def head_file(cache_file: Path) -> Path:
    """The head cache beside the catalogue's cache file."""
    return cache_file.with_suffix(".head.pickle")


def previous_file(cache_file: Path) -> Path:
    """Where the catalogue that the one in ``cache_file`` replaced is kept."""
    return cache_file.with_suffix(".previous.pickle")


def previous_hint_file(cache_file: Path) -> Path:
    """The fingerprint of the catalogue kept in :func:`previous_file`, as text."""
    return cache_file.with_suffix(".previous.fingerprint")


def read_cache(cache_file: Path, fingerprint: str) -> Catalogue | None:
    """The cached catalogue with this fingerprint, from ``cache_file`` or the previous one
    kept beside it (which then becomes the current one); else ``None``."""
    hint = _head_fingerprint(cache_file)
    # The head is written after its catalogue: when it names another catalogue, the
    # current file is not unpickled in vain (were the head behind, a rebuild follows).
    catalogue = _read(cache_file, fingerprint) if hint in (None, fingerprint) else None
    if catalogue is None and _previous_hint(cache_file) in (None, fingerprint):
        catalogue = _read(previous_file(cache_file), fingerprint)
        if catalogue is not None:
            _forget_previous_hint(cache_file)
            _swap(cache_file, previous_file(cache_file))
            _write_previous_hint(cache_file, hint)
    return catalogue


def _previous_hint(cache_file: Path) -> str | None:
    """The previous catalogue's fingerprint as written beside it; ``None`` when unknown."""
    try:
        return previous_hint_file(cache_file).read_text(encoding="ascii").strip() or None
    except (OSError, ValueError):  # no hint (or a damaged one): the file is read to see
        return None


def _forget_previous_hint(cache_file: Path) -> None:
    """Remove the hint before the previous file changes: a stale hint could only cost a
    rebuild, no hint costs an unpickling."""
    with contextlib.suppress(OSError):
        previous_hint_file(cache_file).unlink()


def _write_previous_hint(cache_file: Path, fingerprint: str | None) -> None:
    """Name the previous file's catalogue (nothing when it is not known). Written in
    place: a torn hint names no catalogue, which costs a rebuild at worst."""
    if fingerprint is not None:
        with contextlib.suppress(OSError):
            previous_hint_file(cache_file).write_text(fingerprint, encoding="ascii")


def _head_fingerprint(cache_file: Path) -> str | None:
    """The fingerprint of the catalogue whose head is beside ``cache_file``, if readable."""
    try:
        with head_file(cache_file).open("rb") as handle:
            _, head = pickle.load(handle)
    except Exception:  # no head, or one that cannot be read: no hint
        return None
    return head.fingerprint if isinstance(head, Catalogue) else None


def _swap(first: Path, second: Path) -> None:
    """Exchange two cache files (each stays whole; a failed step only costs a rebuild)."""
    parked = first.with_suffix(".swap.pickle")
    with contextlib.suppress(OSError):
        os.replace(first, parked)
        os.replace(second, first)
        os.replace(parked, second)


def _read(cache_file: Path, fingerprint: str) -> Catalogue | None:
    """The catalogue in ``cache_file`` if it loads and has this fingerprint."""
    try:
        catalogue = read_pickle(cache_file)
    except Exception:  # any unreadable cache is simply rebuilt
        return None
    if not isinstance(catalogue, Catalogue) or catalogue.fingerprint != fingerprint:
        return None
    return catalogue


def write_cache(cache_file: Path, catalogue: Catalogue, signature: Signature) -> None:
    """Pickle the catalogue, then its head; the head is written only after its catalogue.

    The catalogue in ``cache_file`` before (another set of sources) is kept as the
    previous one."""
    hint = _head_fingerprint(cache_file)
    _forget_previous_hint(cache_file)
    with contextlib.suppress(OSError):
        os.replace(cache_file, previous_file(cache_file))
        _write_previous_hint(cache_file, hint)
    if _write(cache_file, catalogue):
        _write_head(cache_file, catalogue, signature)


def refresh_head(
    sources: Sequence[Path], cache_file: Path, catalogue: Catalogue, signature: Signature
) -> None:
    """A source touched but not changed keeps its catalogue: its head gets the new times."""
    if read_head(sources, cache_file) is None:
        _write_head(cache_file, catalogue, signature)


def _write_head(cache_file: Path, catalogue: Catalogue, signature: Signature) -> None:
    """Pickle the first :data:`HEAD_SIZE` papers with the sources' signature."""
    head = Catalogue(catalogue.papers[:HEAD_SIZE], fingerprint=catalogue.fingerprint)
    _write(head_file(cache_file), (signature, head))


def _write(path: Path, value: object) -> bool:
    """Pickle ``value`` atomically; a cache that cannot be written is not an error (False)."""
    return write_pickle(path, value)
