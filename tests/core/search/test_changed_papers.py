"""The papers a join noted as changed: the next change in place digests those alone and
makes the index and manifest a change without the note makes; a note of other catalogues,
or a damaged one, is not used; the undo's change uses the join's note, reversed."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from index_builder.model import Paper
from index_builder.search import changed_papers, in_place
from index_builder.search import folder as indexfiles
from index_builder.search.engine import SearchIndex
from tests.core.search.test_in_place import assert_same_answers, mutate
from tests.core.test_analysis_versions import fixed_papers
from tests.helpers.change_spies import count_digests
from tests.helpers.search_builds import fixed_index


@pytest.fixture
def digested(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The ids of the papers the change in place digested."""
    return count_digests(monkeypatch)


def changed(index_dir: Path, papers: list[Paper], fingerprint: str) -> SearchIndex:
    index = SearchIndex(index_dir, papers, fingerprint)
    assert index.ensure() is None
    assert "changed_in_place" in (indexfiles.read_marker(index_dir) or {})
    return index


def test_a_noted_change_digests_the_noted_papers_alone(
    tmp_path: Path, tmp_path_factory: pytest.TempPathFactory, digested: list[str]
) -> None:
    papers = fixed_papers()
    after = mutate(papers, random.Random(5), 1)
    noted, plain = tmp_path / "noted" / "index", tmp_path / "plain" / "index"
    fixed_index(tmp_path_factory, noted)
    fixed_index(tmp_path_factory, plain)
    changed_papers.note_changes(noted, ("v0", papers), ("v1", after))
    differ = changed_papers.differing(noted, "v0", "v1")
    assert differ is not None and 0 < len(differ) < len(after) // 10

    with_note = changed(noted, after, "v1")
    assert set(digested) <= differ
    digested.clear()
    without = changed(plain, after, "v1")
    assert len(set(digested)) == len(after)
    assert in_place.load_manifest(noted) == in_place.load_manifest(plain)
    marker = indexfiles.read_marker(noted) or {}
    assert marker["changed_in_place"] == (indexfiles.read_marker(plain) or {})["changed_in_place"]
    assert_same_answers(with_note, without)
    with_note.close()
    without.close()

    digested.clear()  # the undo: the index is the joined catalogue's, the papers the old
    back = changed(noted, papers, "v0")
    assert set(digested) <= differ
    assert in_place.load_manifest(noted) == {p.id: in_place.entry(p) for p in papers}
    fresh = SearchIndex(tmp_path / "fresh", papers, "v0")
    fresh.ensure()
    assert_same_answers(back, fresh)
    back.close()
    fresh.close()


@pytest.mark.parametrize("note", ["other catalogues", b"", b"not a pickle", b"\x80\x05K"])
def test_a_note_of_other_catalogues_or_a_damaged_one_is_not_used(
    tmp_path: Path, tmp_path_factory: pytest.TempPathFactory, digested: list[str], note: object
) -> None:
    papers = fixed_papers()
    after = mutate(papers, random.Random(6), 1)
    index_dir = fixed_index(tmp_path_factory, tmp_path / "index")
    if isinstance(note, bytes):
        (tmp_path / changed_papers.NOTE).write_bytes(note)
    else:  # a note that says nothing changed, between two other catalogues
        changed_papers.note_changes(index_dir, ("v0", papers), ("v9", after))
        (tmp_path / changed_papers.NOTE).write_bytes(
            (tmp_path / changed_papers.NOTE).read_bytes().replace(b"v9", b"v7")
        )
    assert changed_papers.differing(index_dir, "v0", "v1") is None
    changed(index_dir, after, "v1").close()
    assert len(set(digested)) == len(after)
    assert in_place.load_manifest(index_dir) == {p.id: in_place.entry(p) for p in after}


def copy(paper: Paper, **changes: object) -> Paper:
    """Another object with the same fields as ``paper`` (but ``changes``)."""
    fields = {f: getattr(paper, f) for f in paper.__dataclass_fields__}
    return Paper(**{**fields, **changes})  # type: ignore[arg-type]


def test_the_note_names_the_papers_with_other_fields_removed_or_added(tmp_path: Path) -> None:
    """A copy with the same fields is not noted; another field, a removal, an addition are."""
    papers = fixed_papers()[:30]
    after = [*papers[:3], copy(papers[3], title="another title"), copy(papers[4]), *papers[5:]]
    removed = after.pop(7)
    after.append(copy(removed, id="new-paper"))
    index_dir = tmp_path / "index"
    changed_papers.note_changes(index_dir, ("a", papers), ("b", after))
    assert changed_papers.differing(index_dir, "b", "a") == {papers[3].id, removed.id, "new-paper"}


def test_no_note_is_made_of_catalogues_of_copies(tmp_path: Path) -> None:
    """Papers that are all copies (a catalogue read from its cache) would be digested
    twice over: no note is made, and a note made before for the same two stays."""
    papers = fixed_papers()[:30]
    index_dir = tmp_path / "index"
    changed_papers.note_changes(index_dir, ("a", papers), ("b", [*papers[:29]]))
    changed_papers.note_changes(index_dir, ("a", papers), ("b", [copy(p) for p in papers]))
    assert changed_papers.differing(index_dir, "a", "b") == {papers[29].id}
    changed_papers.note_changes(index_dir, ("c", papers), ("d", [copy(p) for p in papers]))
    assert changed_papers.differing(index_dir, "c", "d") is None
