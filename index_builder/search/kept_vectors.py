"""The vectors a full build already has: the last build's ``vectors.bin``, when its inputs
are the same.

The vectors' fit (:func:`~index_builder.vectors.tfidf.compute`) reads each paper's id,
title, abstract and authors, in catalogue order, and nothing else of the catalogue. A
``paperscope index --rebuild`` of a catalogue whose papers kept those fields fits the same
vectors again: on the bundled home a core's worth of CPU (importing numpy and scipy, the
fit) beside the two processes building the Whoosh segment. So a full build writes, beside
``vectors.bin``, the digest of what made it (:func:`inputs_digest`: those fields, the
vectors' code, the stop words, the numpy and scipy releases, Python's version) and the
file's CRC-32. The next full build with the same digest links that file into its folder
(:func:`keep`) instead of fitting, when the old index's marker and the file's own bytes
still agree with that CRC-32.

A change in place (:mod:`~.in_place`) links the key file with ``vectors.bin``; when it
rewrites ``vectors.bin`` (its pending rows folded in) the CRC-32 no longer matches, and the
next full build fits again. ``tests/core/search/test_kept_vectors.py`` checks that a kept
file has the bytes a fit makes, and that a change of any input fits again.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import json
import marshal
import os
import shutil
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from index_builder.search import folder as indexfiles
from index_builder.vectors.storage import VECTORS_FILE, VECTORS_VERSION

if TYPE_CHECKING:
    from index_builder.model import Paper

_VECTOR_BUILD = Path(__file__).with_name("vector_build.py")
"""The build's vectors' code (read, not imported: it runs this module's checks)."""
KEY_FILE = "paperscope-vectors-key.json"
"""What made the folder's ``vectors.bin``: ``{"inputs", "crc32", "stats"}``."""


def inputs_digest(papers: Sequence[Paper]) -> str:
    """A digest of everything the vectors of ``papers`` are made from."""
    from index_builder.text import words
    from index_builder.vectors import tfidf

    digest = hashlib.blake2b(digest_size=20)
    digest.update(f"{VECTORS_VERSION}\n{sys.version}\n".encode())
    code = sorted(Path(tfidf.__file__).parent.glob("*.py"))
    for path in (*code, Path(words.__file__), _VECTOR_BUILD, *_releases()):
        digest.update(path.read_bytes())
    digest.update(marshal.dumps(tfidf.english_stop_words(), 2))
    for paper in papers:
        # marshal version 2: equal values give equal bytes, and each value says its length
        digest.update(marshal.dumps((paper.id, paper.title, paper.abstract, paper.authors), 2))
    return digest.hexdigest()


def _releases() -> list[Path]:
    """The version files of numpy and scipy (found without importing them)."""
    found = []
    for name in ("numpy", "scipy"):
        spec = importlib.util.find_spec(name)
        if spec is not None and spec.origin:
            found.append(Path(spec.origin).parent / "version.py")
    return found


def keep(old_index: Path, folder: Path, inputs: str) -> dict[str, Any] | None:
    """Link (or copy) ``old_index``'s vectors into ``folder`` when they were made from
    ``inputs`` and are whole; their fit's stats with ``kept``, or ``None`` (then: fit)."""
    try:
        key = json.loads((old_index / KEY_FILE).read_text(encoding="utf-8"))
        marker = indexfiles.read_marker(old_index) or {}
        recorded = (marker.get("checksums") or {}).get(VECTORS_FILE)
        if not isinstance(key, dict) or key.get("inputs") != inputs or not recorded:
            return None
        source = old_index / VECTORS_FILE
        if key.get("crc32") != recorded or indexfiles.crc32(source) != recorded:
            return None
        target = folder / VECTORS_FILE
        try:
            os.link(source, target)
        except OSError:
            shutil.copyfile(source, target)
        stats = key.get("stats")
        stats = stats if isinstance(stats, dict) else {}
        save_key(folder, inputs, stats)
        return {**stats, "kept": True}  # the marker says these are the last fit's figures
    except (OSError, ValueError):
        with contextlib.suppress(OSError):
            (folder / VECTORS_FILE).unlink()
        return None


def save_key(folder: Path, inputs: str, stats: dict[str, Any]) -> None:
    """Write what made ``folder``'s ``vectors.bin`` beside it (by rename)."""
    key = {"inputs": inputs, "crc32": indexfiles.crc32(folder / VECTORS_FILE), "stats": stats}
    tmp = folder / f".{KEY_FILE}.tmp"
    tmp.write_text(json.dumps(key, sort_keys=True), encoding="utf-8")
    os.replace(tmp, folder / KEY_FILE)
