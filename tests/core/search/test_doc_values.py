"""The per-document columns a share writes in bulk are the bytes Whoosh's writer makes.

The stored fields and every field's length column (:mod:`index_builder.search.doc_values`)
against ``writer.add_document``: documents without stored fields, a field whose lengths
start only in the second share, trailing documents without a length, long fields. The
same documents give the shares fields of their own (terms hashed with other numbers).
"""

from __future__ import annotations

import json
import pickle
from pathlib import Path

import pytest
from whoosh import index as whoosh_index

from index_builder.model import Paper
from index_builder.search import parallel
from index_builder.search.documents import paper_doc
from index_builder.search.schema import make_schema
from tests.helpers.shared_builds import build_once

FIXTURE_PAPERS = Path(__file__).resolve().parents[2] / "fixtures" / "analysis" / "papers.json"


def documents() -> list[dict[str, str]]:
    papers = [Paper.from_json(d) for d in json.loads(FIXTURE_PAPERS.read_text("utf-8"))]
    docs = [paper_doc(p) for p in papers]
    for doc in docs:
        doc.pop("abstract", None)  # abstracts only in the second share, below
    half = len(docs)
    long_abstract = " ".join(f"w{i % 300}" for i in range(70_000))  # past a length byte's 255
    docs += [
        {"id": "a1", "title": "A graph of words", "abstract": "some words of an abstract"},
        {"is": "poster"},  # no stored field, no length
        {"id": "a2", "abstract": long_abstract, "text": long_abstract},
        {"title": "stored nothing", "text": "stored nothing"},
    ]
    docs += [{"id": f"t{i}", "is": "poster"} for i in range(half - 4)]  # trailing: no lengths
    return docs


def columns_of(folder: Path) -> dict[str, bytes]:
    """Each column file's bytes, by its name after the segment's."""
    return {p.name.split(".", 1)[1]: p.read_bytes() for p in folder.glob("*.col")}


def build(folder: Path, docs: list[dict[str, str]], workers: int | None) -> None:
    ix = whoosh_index.create_in(str(folder), make_schema())
    writer = ix.writer(procs=1, compound=False)
    if workers is None:
        for doc in docs:
            writer.add_document(**doc)
        writer.commit(optimize=True)
    else:
        parallel.build(writer, docs, folder, workers=workers)
    ix.close()


def read_back(folder: Path, docs: list[dict[str, str]]) -> tuple[object, ...]:
    """What Whoosh's reader gives of ``folder``: each field's total length, every term's
    postings, and the stored fields of a document that has none."""
    with whoosh_index.open_dir(str(folder)).reader() as r:
        fields = sorted(r.indexed_field_names())
        # Each term looked up through the terms table's hash tables: a share without
        # abstracts numbered its fields otherwise (its hashes are made again).
        postings = [list(r.postings(f, t).all_ids()) for f, t in r.all_terms()]
        return (
            [(f, r.field_length(f)) for f in fields],
            postings,
            r.stored_fields(len(docs) // 2 + 1),
        )


@pytest.fixture(scope="module")
def whoosh_made(
    tmp_path_factory: pytest.TempPathFactory,
) -> tuple[dict[str, bytes], tuple[object, ...]]:
    """Whoosh's own columns of :func:`documents` and its reading of them: the same for
    both tests, made once per run for every worker (its writer takes ~1.6 s of CPU on the
    70,000-word abstract, the read-back ~0.6 s)."""

    def made(folder: Path) -> None:
        docs = documents()
        folder.mkdir()
        build(folder, docs, None)
        (folder / "made.pickle").write_bytes(
            pickle.dumps((columns_of(folder), read_back(folder, docs)))
        )

    shared = build_once(tmp_path_factory, "doc-values-whoosh", made)
    result: tuple[dict[str, bytes], tuple[object, ...]] = pickle.loads(
        (shared / "made.pickle").read_bytes()
    )
    return result


@pytest.mark.parametrize("workers", [1, 2])
def test_the_columns_are_the_bytes_whoosh_writes(
    tmp_path: Path,
    workers: int,
    whoosh_made: tuple[dict[str, bytes], tuple[object, ...]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(parallel, "FORK_FROM", 2)  # two shares for these few documents
    docs = documents()
    build(tmp_path, docs, workers)
    expected, theirs = whoosh_made
    assert {"_stored.col", "_abstract_len.col", "_title_len.col"} <= expected.keys()
    assert columns_of(tmp_path) == expected
    assert theirs[2] == {}
    assert read_back(tmp_path, docs) == theirs
