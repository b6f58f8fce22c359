"""Each segment's ids are kept beside it, so an index changed in place opens without
reading every document's stored id; the map they give is the one the stored ids give."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from whoosh import index as whoosh_index

from index_builder.search import doc_map as doc_map_module
from index_builder.search.doc_map import IDS_PREFIX, doc_map
from index_builder.search.engine import SearchIndex
from tests.core.test_analysis_versions import fixed_papers
from tests.helpers.search_builds import fixed_index


def changed_twice(folder: Path, factory: pytest.TempPathFactory) -> SearchIndex:
    """The fixture's index (a copy of its full build), changed in place twice (a paper
    rewritten, one removed, one added; then another rewritten)."""
    papers = fixed_papers()
    fixed_index(factory, folder)
    papers = [
        *papers[:3],
        replace(papers[3], abstract="zebrafish " + papers[3].abstract),
        *papers[5:],
        replace(papers[9], id="added-1", title="Quasar lattices"),
    ]
    SearchIndex(folder, papers, "v1").ensure()
    papers = [replace(papers[0], title="Quasar " + papers[0].title), *papers[1:]]
    index = SearchIndex(folder, papers, "v2")
    index.ensure()
    return index


def maps(folder: Path, index: SearchIndex, kept: bool) -> tuple[list[int], dict[int, int]]:
    """The document map of the index in ``folder``, from the kept ids or the stored ones."""
    ix = whoosh_index.open_dir(str(folder))
    try:
        with ix.reader() as reader:
            return doc_map(reader, index.papers, index._by_id, folder if kept else None)
    finally:
        ix.close()


def test_the_kept_ids_give_the_stored_ids_map(
    tmp_path: Path, tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "index"
    index = changed_twice(folder, tmp_path_factory)
    files = sorted(folder.glob(f"{IDS_PREFIX}*.json"))
    ix = whoosh_index.open_dir(str(folder))
    with ix.reader() as reader:
        segments = [leaf.segment().segment_id() for leaf, _ in reader.leaf_readers()]
        assert reader.has_deletions()
    ix.close()
    # One file per segment of the index, none left from a segment Whoosh merged away.
    assert [f.name for f in files] == sorted(f"{IDS_PREFIX}{s}.json" for s in segments)
    expected = maps(folder, index, kept=False)
    read: list[object] = []
    monkeypatch.setattr(doc_map_module, "_stored_ids", lambda leaf: read.append(leaf) or [])
    assert maps(folder, index, kept=True) == expected
    assert read == []  # no segment was read document by document
    assert [h.paper.id for h in index.search("zebrafish").hits] == [index.papers[3].id]
    index.close()


def test_an_ids_file_of_another_length_is_not_trusted(
    tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    folder = tmp_path / "index"
    index = changed_twice(folder, tmp_path_factory)
    expected = maps(folder, index, kept=False)
    for path in folder.glob(f"{IDS_PREFIX}*.json"):
        ids = json.loads(path.read_text(encoding="utf-8"))
        path.write_text(json.dumps(ids[1:]), encoding="utf-8")
    assert maps(folder, index, kept=True) == expected
    index.close()
