"""Changing an index in place: only the papers that changed are written again.

Every index folder keeps a manifest (:data:`MANIFEST`): each paper's id, a digest of all
its fields (so of every field that its document,
:func:`~index_builder.search.documents.paper_doc`, and its vectors read) and the
combined text its vocabulary words came from. When the catalogue changes,
:func:`changes_between` compares the new papers with the manifest (by digest, or, when
the command that changed the catalogue noted which papers it changed,
:mod:`~.changed_papers`, those alone); :func:`write_changes` then makes the new index in
a build folder beside the old one: the old files hard-linked (Whoosh never rewrites a
file it wrote; a commit writes a new segment and a new table of contents), the removed
and changed documents deleted by id and the changed and added ones written through
Whoosh's own writer (``delete_by_term``/``add_document``, one new segment, Whoosh's
merge policy), the vocabulary counts moved by the words of those papers alone, and the
vectors' rows of those papers left pending (:mod:`~.pending_rows`: computed with the
stored vocabulary and weights, no refit, when the vectors are first read, so the search
after a change imports no numpy). :func:`prepare` seals the folder with its marker; the
caller swaps it in, as after a full build.

A full build is made instead (:func:`worth_it` says False) when more than
:data:`REBUILD_SHARE` of the papers changed, or when deleted documents would make up
more than that share of the index: writing most papers one by one through Whoosh's
writer costs more than the full build's own writer, and deleted documents stay in the
segment files (and in Whoosh's own statistics, which the scorer corrects) until Whoosh
merges their segment, so an index mostly made of them is larger and slower to read.
"""

from __future__ import annotations

import os
import shutil
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from whoosh import index as whoosh_index

from index_builder.model import Paper
from index_builder.search import folder as indexfiles
from index_builder.search import pending_rows
from index_builder.search.changed_papers import differing, digest
from index_builder.search.doc_map import save_segment_ids
from index_builder.search.documents import paper_doc
from index_builder.search.manifest import (
    MANIFEST,
    Manifest,
    entry,
    load_manifest,
    save_manifest,
    save_manifest_changes,
)
from index_builder.search.vocabulary import (
    CHANGES_FILE,
    CHANGES_LIMIT,
    moved,
    read_counts,
    read_moves,
    write_counts,
    write_moves,
)
from index_builder.search.words import words

REBUILD_SHARE = 0.5
"""A change of more than this share of the papers (or an index with more than this share
of deleted documents) is made by a full build."""

# The manifest's names, re-exported: the full build and the tests know them from here.
__all__ = [
    "MANIFEST",
    "REBUILD_SHARE",
    "Changes",
    "changes_between",
    "deleted_count",
    "digest",
    "entry",
    "link_files",
    "linked_checksums",
    "load_manifest",
    "prepare",
    "save_manifest",
    "worth_it",
    "write_changes",
]


@dataclass(frozen=True)
class Changes:
    """What differs between an index's papers and a catalogue's."""

    written: tuple[Paper, ...]
    """Papers added or changed: written again (the changed ones deleted first)."""
    removed: tuple[str, ...]
    """Ids of papers indexed before that are no longer in the catalogue, or changed."""

    def __len__(self) -> int:
        return len(self.written) + len(self.removed)


def changes_between(
    manifest: Manifest, papers: Sequence[Paper], differ: frozenset[str] | None = None
) -> tuple[Changes, Manifest]:
    """The changes from ``manifest`` to ``papers``, and the new manifest's entries.

    ``differ``: the ids of the only papers that may differ from the manifest's
    (:func:`~.changed_papers.differing`); every other paper the manifest holds keeps its
    entry without a digest. None: every paper is compared by its digest."""
    current: Manifest = {}
    written: list[Paper] = []
    removed: list[str] = []
    for paper in papers:
        before = manifest.get(paper.id)
        if differ is not None and before is not None and paper.id not in differ:
            current[paper.id] = before
            continue
        now = digest(paper)
        if before is not None and before[0] == now:
            current[paper.id] = before
            continue
        current[paper.id] = entry(paper)
        written.append(paper)
        if before is not None:
            removed.append(paper.id)
    removed += [pid for pid in manifest if pid not in current]
    return Changes(tuple(written), tuple(removed)), current


def worth_it(changes: Changes, papers: int, deleted: int) -> bool:
    """True when writing ``changes`` in place beats a full build (see the module notes)."""
    limit = REBUILD_SHARE * max(papers, 1)
    return len(changes.written) <= limit and deleted + len(changes.removed) <= limit


def link_files(source: Path, target: Path) -> None:
    """Every file of ``source`` into ``target`` (hard links; copies where links fail)."""
    for path in source.iterdir():
        if path.is_file() and not path.name.endswith("LOCK"):
            try:
                os.link(path, target / path.name)
            except OSError:
                shutil.copy2(path, target / path.name)


def linked_checksums(old: Path, folder: Path, checked: dict[str, str]) -> dict[str, str]:
    """The CRC-32s of ``checked`` (the old index's, just checked) of the files of ``folder``
    that are still hard links to the same file of ``old``: Whoosh never rewrites a file,
    and every side file is replaced by rename, so their contents are the checked ones."""
    same: dict[str, str] = {}
    for name, crc in checked.items():
        try:
            new, was = os.stat(folder / name), os.stat(old / name)
            if (new.st_dev, new.st_ino) == (was.st_dev, was.st_ino):
                same[name] = crc
        except OSError:
            continue
    return same


def deleted_count(folder: Path) -> int:
    """How many deleted documents the index in ``folder`` still holds."""
    ix = whoosh_index.open_dir(str(folder))
    try:
        return int(ix.doc_count_all() - ix.doc_count())
    finally:
        ix.close()


def prepare(index_dir: Path, papers: Sequence[Paper], expected: dict[str, Any]) -> Path | None:
    """A build folder holding the index of ``papers`` made from the one in ``index_dir``
    by writing only what changed, its marker written; ``None`` when a full build is due:
    the index was made by another schema, analysis, library or vectors version, fails its
    checks, has no manifest, or too much changed (:func:`worth_it`)."""
    marker = indexfiles.read_marker(index_dir)
    if marker is None or any(marker.get(k) != v for k, v in expected.items() if k != "fingerprint"):
        return None
    if not indexfiles.checksums_match(index_dir, marker.get("checksums")):
        return None
    manifest = load_manifest(index_dir)
    if manifest is None:
        return None
    noted = differing(index_dir, marker.get("fingerprint"), str(expected.get("fingerprint")))
    changes, current = changes_between(manifest, papers, noted)
    tmp = indexfiles.temp_dir_for(index_dir)
    try:
        if not worth_it(changes, len(papers), deleted_count(index_dir)):
            return None
        indexfiles.make_temp_dir(tmp)
        write_changes(index_dir, tmp, papers, changes, (manifest, current))
        sealed = dict(expected, doc_count=len(papers), vector_stats=marker.get("vector_stats"))
        sealed["built_at"] = marker.get("built_at")
        sealed["changed_at"] = datetime.now(UTC).isoformat(timespec="seconds")
        sealed["changed_in_place"] = {
            "written": len(changes.written),
            "removed": len(changes.removed),
        }
        indexfiles.seal(tmp, sealed, linked_checksums(index_dir, tmp, marker["checksums"]))
    except Exception:  # anything unexpected in the old index: the full build decides
        shutil.rmtree(tmp, ignore_errors=True)
        return None
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return tmp


def write_changes(
    old: Path,
    folder: Path,
    papers: Sequence[Paper],
    changes: Changes,
    manifests: tuple[Manifest, Manifest],
) -> None:
    """Make in ``folder`` the index of ``papers`` from the one in ``old`` (see the module);
    ``manifests``: ``old``'s and the new one."""
    before, manifest = manifests
    link_files(old, folder)
    ix = whoosh_index.open_dir(str(folder))
    try:
        writer = ix.writer(procs=1, timeout=10.0, compound=False)
        try:
            for pid in changes.removed:
                writer.delete_by_term("id", pid)
            for paper in changes.written:
                writer.add_document(**paper_doc(paper))
        except BaseException:
            writer.cancel()
            raise
        writer.commit()
    finally:
        ix.close()
    save_segment_ids(folder)
    # Each side file is replaced by rename (never written through the old file's link).
    _move_vocabulary(old, folder, changes, before, manifest)
    _move_vectors(old, folder, papers, changes)
    save_manifest_changes(old, folder, papers, (changes.removed, changes.written), manifest)


def _move_vocabulary(
    old: Path, folder: Path, changes: Changes, before: Manifest, after: Manifest
) -> None:
    """The old vocabulary, less the removed papers' words, plus the written papers'.

    Only the changed papers' words are counted. The moves are added to the old index's
    (:data:`~.vocabulary.CHANGES_FILE`) and written alone, the counts left as they are;
    past :data:`~.vocabulary.CHANGES_LIMIT` moved words the counts are written whole."""
    delta: Counter[str] = Counter(read_moves(old))
    for pid in changes.removed:
        delta.subtract(set(words(before[pid][1])) if pid in before else ())
    for paper in changes.written:
        delta.update(set(words(after[paper.id][1])))
    moves = {word: change for word, change in delta.items() if change}
    if len(moves) <= CHANGES_LIMIT:
        write_moves(folder, moves)
        return
    write_counts(folder, moved(read_counts(old, changed=False), moves))
    (folder / CHANGES_FILE).unlink(missing_ok=True)


def _move_vectors(old: Path, folder: Path, papers: Sequence[Paper], changes: Changes) -> None:
    """The written papers' vector rows left pending (:mod:`~.pending_rows`: computed when
    the vectors are first read), or, past :data:`~.pending_rows.PENDING_LIMIT` pending
    rows, every pending row computed and the vectors written whole."""
    ids = {p.id for p in papers}
    pending = (pending_rows.read_pending(old) | {p.id for p in changes.written}) & ids
    if len(pending) <= pending_rows.PENDING_LIMIT:
        pending_rows.write_pending(folder, pending)
        return
    from index_builder.vectors.storage import load, save

    save(pending_rows.with_pending(load(old), papers, pending), folder)
    pending_rows.clear_pending(folder)
