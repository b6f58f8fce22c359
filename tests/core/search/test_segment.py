"""The whole-segment writer against Whoosh's own writer: the same index, read back.

Papers: the hand-made search papers (accents, separators, empty fields), the analysis
fixture's (LaTeX, derived titles) and 300 synthetic ones with abstracts (terms with
several 128-posting blocks, and lists cut between the two shares of a split build).
"""

from __future__ import annotations

import json
import os
import pickle
import signal
import threading
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from whoosh import index as whoosh_index
from whoosh import query as Q
from whoosh.codec.whoosh3 import W3LeafMatcher

from index_builder.model import Paper
from index_builder.search import parallel
from index_builder.search.documents import paper_doc
from index_builder.search.schema import make_schema
from index_builder.search.vocabulary import Vocabulary
from index_builder.search.words import iter_words, positioned_words
from tests.benchmarks.corpus import generate
from tests.helpers.fork_signals import sigint_at_next_fork
from tests.helpers.search_papers import PAPERS
from tests.helpers.shared_builds import build_once

FIXTURE_PAPERS = Path(__file__).resolve().parents[2] / "fixtures" / "analysis" / "papers.json"


@pytest.fixture(scope="module")
def docs() -> list[dict[str, str]]:
    fixture = [Paper.from_json(d) for d in json.loads(FIXTURE_PAPERS.read_text("utf-8"))]
    papers = [*PAPERS, *fixture, *generate(300, seed=7).papers]
    return [paper_doc(p) for p in papers]


def whoosh_build(folder: Path, docs: list[dict[str, str]]) -> None:
    ix = whoosh_index.create_in(str(folder), make_schema())
    writer = ix.writer(procs=1, compound=False)
    for doc in docs:
        writer.add_document(**doc)
    writer.commit(optimize=True)
    ix.close()


def our_build(folder: Path, docs: list[dict[str, str]], workers: int) -> Counter[str]:
    ix = whoosh_index.create_in(str(folder), make_schema())
    words = parallel.build(ix.writer(procs=1, compound=False), docs, folder, workers=workers)
    ix.close()
    return words


def term_stats(info: Any) -> tuple[Any, ...]:
    return (info.weight(), info.doc_frequency(), info.min_length(), info.max_length(),
            info.max_weight(), info.min_id(), info.max_id())  # fmt: skip


def postings(reader: Any, field: str, text: bytes) -> list[tuple[Any, ...]]:
    """Every posting, checking each block's statistics against its postings on the way."""
    m = reader.postings(field, text)
    out: list[tuple[Any, ...]] = []
    if type(m) is not W3LeafMatcher:  # a term's postings inlined in its term info
        while m.is_active():
            assert m.weight() <= m.block_max_weight()
            assert m.id() <= m.block_max_id()
            out.append((m.id(), m.weight(), m.value()))
            m.next()
        return out
    # Block by block: what id(), weight() and value() read one posting at a time, the
    # block's postings as Whoosh decoded them (the first posting's calls load them).
    while m.is_active():
        m.id()
        m.weight()
        m.value()
        count = m._blocklength
        ids, weights, values = m._ids[:count], m._weights[:count], m._values[:count]
        assert max(weights) <= m.block_max_weight()
        assert max(ids) <= m.block_max_id()
        out.extend(zip(ids, weights, values, strict=True))
        m._next_block()  # what next() does after the block's last posting
    return out


def read_all(folder: Path) -> dict[str, Any]:
    ix = whoosh_index.open_dir(str(folder))
    with ix.reader() as r:
        items = list(r)  # ((field, text), term info) of every term, in term order
        terms = [term for term, _ in items]
        fields = list(r.indexed_field_names())
        return {
            "docs": r.doc_count_all(),
            "terms": terms,
            "stats": [term_stats(info) for _, info in items],
            "postings": [postings(r, f, t) for f, t in terms],
            "lengths": [
                [r.doc_field_length(d, f) for d in range(r.doc_count_all())] for f in fields
            ],
            "totals": [r.field_length(f) for f in fields],
            "stored": list(r.all_stored_fields()),
            "segments": len(ix._segments()),
        }


@pytest.fixture(scope="module")
def whoosh_built(docs: list[dict[str, str]], tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Whoosh's own index of ``docs`` (``index/``) and all of it read back (``read.pickle``):
    made once per run for every worker (read only)."""

    def build(folder: Path) -> None:
        (folder / "index").mkdir(parents=True)
        whoosh_build(folder / "index", docs)
        (folder / "read.pickle").write_bytes(pickle.dumps(read_all(folder / "index")))

    return build_once(tmp_path_factory, "whoosh-own-segment", build)


@pytest.fixture(scope="module")
def whoosh_folder(whoosh_built: Path) -> Path:
    return whoosh_built / "index"


@pytest.fixture(scope="module")
def whoosh_index_read(whoosh_built: Path) -> dict[str, Any]:
    result: dict[str, Any] = pickle.loads((whoosh_built / "read.pickle").read_bytes())
    return result


def terms_of(folder: Path) -> list[tuple[str, bytes]]:
    with whoosh_index.open_dir(str(folder)).reader() as r:
        return list(r.all_terms())


@pytest.fixture(scope="module")
def our_index(
    docs: list[dict[str, str]], tmp_path_factory: pytest.TempPathFactory
) -> Callable[[int], tuple[Path, Counter[str]]]:
    """Our index of ``docs`` built with ``workers`` (and its word counts): built once per
    ``workers`` for the tests that read it (read only)."""
    built: dict[int, tuple[Path, Counter[str]]] = {}

    def get(workers: int) -> tuple[Path, Counter[str]]:
        if workers not in built:
            folder = tmp_path_factory.mktemp(f"ours-{workers}")
            built[workers] = (folder, our_build(folder, docs, workers))
        return built[workers]

    return get


@pytest.mark.parametrize("workers", [1, 2])
def test_the_index_reads_as_whooshs_own(
    docs: list[dict[str, str]],
    whoosh_index_read: dict[str, Any],
    our_index: Callable[[int], tuple[Path, Counter[str]]],
    workers: int,
) -> None:
    assert len(docs) >= parallel.FORK_FROM, "too few documents for a build in two shares"
    folder, words = our_index(workers)
    ours = read_all(folder)
    assert ours["segments"] == 1
    assert max(len(p) for p in ours["postings"]) > 3 * 128  # several blocks were written
    for key in ("docs", "terms", "stats", "lengths", "totals", "stored"):
        assert ours[key] == whoosh_index_read[key], key
    for term, mine, theirs in zip(
        ours["terms"], ours["postings"], whoosh_index_read["postings"], strict=True
    ):
        assert mine == theirs, term
    assert dict(words) == Vocabulary.from_texts(d.get("text", "") for d in docs).freq
    assert not list(folder.glob(".worker-*"))


def test_the_index_answers_as_whooshs_own(
    whoosh_folder: Path, our_index: Callable[[int], tuple[Path, Counter[str]]]
) -> None:
    """Scores and phrases through Whoosh's searcher, not only the stored postings."""
    folder, _ = our_index(2)
    assert not list(folder.glob(".worker-*"))
    queries = [
        Q.Term("text", "learn"),
        Q.And([Q.Term("text", "model"), Q.Term("text", "diffus")]),
        Q.Phrase("author", ["zi", "wang"]),
        Q.Term("is", "spotlight"),
        Q.Or([Q.Term("title", "graph"), Q.Term("abstract", "network")]),
    ]
    answers = []
    for index_folder in (whoosh_folder, folder):
        with whoosh_index.open_dir(str(index_folder)).searcher() as s:
            answers.append(
                [[(h.docnum, h.score) for h in s.search(q, limit=None)] for q in queries]
            )
    assert answers[0] == answers[1]
    assert all(answers[0])


def test_a_failed_worker_leaves_its_share_to_the_parent(
    docs: list[dict[str, str]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The worker cannot write its result into a folder that does not exist: it fails
    # for real, and the build still holds every document. Sixty documents (a worker
    # forked for them, the hand-made papers among them) make two shares as all of them
    # do; Whoosh's own index of the same sixty is the reference.
    monkeypatch.setattr(parallel, "FORK_FROM", 2)
    some = docs[:60]
    (tmp_path / "ours").mkdir()
    (tmp_path / "whoosh").mkdir()
    ix = whoosh_index.create_in(str(tmp_path / "ours"), make_schema())
    parallel.build(ix.writer(procs=1, compound=False), some, tmp_path / "missing", workers=2)
    ix.close()
    whoosh_build(tmp_path / "whoosh", some)
    assert terms_of(tmp_path / "ours") == terms_of(tmp_path / "whoosh")


def test_an_interrupted_build_leaves_no_worker(docs: list[dict[str, str]], tmp_path: Path) -> None:
    assert parallel.can_fork(), "these tests run with one thread"

    def stop(done: int, total: int) -> None:
        raise KeyboardInterrupt

    before = children()
    ix = whoosh_index.create_in(str(tmp_path), make_schema())
    writer = ix.writer(procs=1, compound=False)
    with pytest.raises(KeyboardInterrupt):
        parallel.build(writer, docs, tmp_path, progress=stop, workers=2)
    writer.cancel()
    ix.close()
    assert children() <= before  # the worker is gone, not even a zombie is left
    assert not list(tmp_path.glob(".worker-*"))


def test_a_ctrl_c_while_forking_the_worker_is_not_lost(
    docs: list[dict[str, str]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A test runner's worker may start a thread of its own for a moment: fork anyway.
    monkeypatch.setattr(parallel, "can_fork", lambda: True)
    before = children()
    ix = whoosh_index.create_in(str(tmp_path), make_schema())
    writer = ix.writer(procs=1, compound=False)
    try:
        with sigint_at_next_fork(), pytest.raises(KeyboardInterrupt):
            parallel.build(writer, docs, tmp_path, workers=2)
    finally:
        if not writer.is_closed:
            writer.cancel()
        ix.close()
    assert children() <= before  # the worker forked meanwhile was ended
    assert not list(tmp_path.glob(".worker-*"))


def test_a_ctrl_c_whose_exception_was_dropped_still_ends_the_build(
    docs: list[dict[str, str]], tmp_path: Path
) -> None:
    # Python drops a KeyboardInterrupt raised where it cannot propagate (an at-fork hook,
    # a finaliser); a handler that returns without raising stands in for that here.
    sent: list[int] = []

    def once(done: int, total: int) -> None:
        if not sent:
            sent.append(done)
            os.kill(os.getpid(), signal.SIGINT)

    previous = signal.signal(signal.SIGINT, lambda signum, frame: None)
    before = children()
    ix = whoosh_index.create_in(str(tmp_path), make_schema())
    writer = ix.writer(procs=1, compound=False)
    try:
        with pytest.raises(KeyboardInterrupt):
            parallel.build(writer, docs, tmp_path, progress=once, workers=2)
        assert not writer.is_closed  # stopped before the commit
    finally:
        signal.signal(signal.SIGINT, previous)
        if not writer.is_closed:
            writer.cancel()
        ix.close()
    assert sent and signal.getsignal(signal.SIGINT) is previous
    assert children() <= before
    assert not list(tmp_path.glob(".worker-*"))


def children() -> set[int]:
    """This process's child processes (zombies included), from /proc."""
    found: set[int] = set()
    for task in Path(f"/proc/{os.getpid()}/task").iterdir():
        found.update(int(c) for c in (task / "children").read_text().split())
    return found


def test_no_fork_while_other_threads_run(docs: list[dict[str, str]], tmp_path: Path) -> None:
    started, release = threading.Event(), threading.Event()
    thread = threading.Thread(target=lambda: (started.set(), release.wait()))
    thread.start()
    started.wait()
    try:
        assert not parallel.can_fork()
        our_build(tmp_path, docs[:50], workers=2)  # built here alone
    finally:
        release.set()
        thread.join()
    with whoosh_index.open_dir(str(tmp_path)).reader() as r:
        assert r.doc_count_all() == 50


@pytest.mark.parametrize(
    "text",
    [
        "",
        "\n",
        "a\n",
        "\nA B",
        "A\n\nB",
        "—\nB",
        "A\n—\nB",
        "e.g. 3.5 x",
        "\u0301 a",
        "Łukasz Kaiser\nZi Wang",
        "x\u0301y z",
        "RL4RLA Wang–Landau",
    ],
)
def test_positioned_words_are_iter_words(text: str) -> None:
    assert positioned_words(text) == [(p, w) for p, _, _, w in iter_words(text)]


def test_positioned_words_on_every_value(docs: list[dict[str, str]]) -> None:
    values = [v for d in docs for v in d.values()]
    assert all(positioned_words(v) == [(p, w) for p, _, _, w in iter_words(v)] for v in values)
