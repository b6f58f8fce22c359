"""The manifest of an index folder: each paper's id, a digest of all its fields
(:func:`~.changed_papers.digest`) and the combined text its vocabulary words came from.

A full build writes it whole (:data:`MANIFEST`); a change in place
(:mod:`~.in_place`) writes only the entries it changed, added to the old index's
(:data:`MANIFEST_CHANGES`, a new file beside the base one, which stays hard-linked):
writing the 2 MB manifest again was a tenth of the change in the search after a join.
:func:`load_manifest` reads both.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from index_builder.atomic import read_pickle, write_pickle
from index_builder.model import Paper
from index_builder.search.changed_papers import digest
from index_builder.search.documents import combined_text

MANIFEST = "paperscope-papers.pickle"
MANIFEST_CHANGES = "paperscope-papers-changes.pickle"
"""The entries the changes in place made since :data:`MANIFEST` was written (None for a
paper removed): written alone, so a change does not write the 2 MB manifest again."""
MANIFEST_CHANGES_LIMIT = 1000
"""Entries in :data:`MANIFEST_CHANGES` past which the manifest is written whole."""
Manifest = dict[str, tuple[bytes, str]]
_MAGIC = "paperscope-index-papers v3"


def entry(paper: Paper) -> tuple[bytes, str]:
    """A paper's manifest entry: its digest and the combined text its words come from."""
    return digest(paper), combined_text(paper)


def save_manifest(folder: Path, papers: Sequence[Paper], known: Manifest | None = None) -> None:
    """Write the manifest of ``papers`` (entries of ``known`` reused by id) into ``folder``."""
    known = known or {}
    manifest = {p.id: known.get(p.id) or entry(p) for p in papers}
    if not write_pickle(folder / MANIFEST, (_MAGIC, manifest)):
        raise OSError(f"cannot write {folder / MANIFEST}")


def load_manifest(folder: Path) -> Manifest | None:
    """The manifest in ``folder`` (with the changes in place since it was written); ``None``
    when missing or unreadable (then: full build)."""
    try:
        magic, manifest = read_pickle(folder / MANIFEST)
        changed = _manifest_changes(folder)
    except Exception:  # no manifest (an older index) or a damaged one: a full build
        return None
    if magic != _MAGIC or not isinstance(manifest, dict):
        return None
    for pid, now in changed.items():
        if now is None:
            manifest.pop(pid, None)
        else:
            manifest[pid] = now
    return manifest


def _manifest_changes(folder: Path) -> dict[str, tuple[bytes, str] | None]:
    """The entries of :data:`MANIFEST_CHANGES` in ``folder`` (none without the file);
    raises on a damaged one."""
    try:
        magic, changed = read_pickle(folder / MANIFEST_CHANGES)
    except FileNotFoundError:
        return {}
    if magic != _MAGIC or not isinstance(changed, dict):
        raise ValueError(f"{folder / MANIFEST_CHANGES} is not the manifest's changes")
    return changed


def save_manifest_changes(
    old: Path,
    folder: Path,
    papers: Sequence[Paper],
    change: tuple[Sequence[str], Sequence[Paper]],
    manifest: Manifest,
) -> None:
    """The old index's manifest changes, and this change's (``change``: the ids removed and
    the papers written), written alone into ``folder``
    (a new file, never through the old one's link); past :data:`MANIFEST_CHANGES_LIMIT`
    entries the manifest is written whole."""
    changed = _manifest_changes(old)
    removed, written = change
    changed.update(dict.fromkeys(removed))
    changed.update((paper.id, manifest[paper.id]) for paper in written)
    if len(changed) > MANIFEST_CHANGES_LIMIT:
        (folder / MANIFEST_CHANGES).unlink(missing_ok=True)
        save_manifest(folder, papers, manifest)
    elif not write_pickle(folder / MANIFEST_CHANGES, (_MAGIC, changed)):
        raise OSError(f"cannot write {folder / MANIFEST_CHANGES}")
