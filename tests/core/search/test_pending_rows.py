"""Vector rows left pending by a change in place answer as rows computed at once.

A change of a few papers names their rows in the pending file instead of writing
``vectors.bin``; ``similar`` and ``recommend`` compute them when the vectors are first
read. Each test changes the same index twice over: once leaving the rows pending, once
with the pending limit at 0 (every row computed by the change and written, as before),
and the two must give the same arrays and the same answers. The search after a change
imports no numpy.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from index_builder.model import Paper
from index_builder.search import folder as indexfiles
from index_builder.search import pending_rows, vector_queries
from index_builder.search.engine import SearchIndex
from index_builder.search.pending_rows import PENDING_FILE, read_pending
from index_builder.vectors.storage import VECTORS_FILE
from tests.core.test_analysis_versions import fixed_papers
from tests.helpers.search_builds import fixed_index
from tests.helpers.waiting import wait_until


def first_change(papers: list[Paper]) -> list[Paper]:
    """One paper rewritten, one removed, one added."""
    rewritten = replace(papers[3], abstract="zebrafish quasar " + papers[3].abstract)
    added = replace(papers[9], id="added-1", title="Quasar lattices for graph learning")
    return [*papers[:3], rewritten, *papers[4:20], added, *papers[21:]]


def second_change(papers: list[Paper]) -> list[Paper]:
    """Another paper rewritten (with the first one's words), and another added."""
    rewritten = replace(papers[30], abstract=papers[3].abstract)
    added = replace(papers[40], id="added-2", abstract="zebrafish " + papers[40].abstract)
    return [*papers[:30], rewritten, *papers[31:], added]


def changed_index(
    folder: Path, limit: int, monkeypatch: pytest.MonkeyPatch, factory: pytest.TempPathFactory
) -> SearchIndex:
    """The fixture's index (a copy of its full build) changed in place twice, with
    ``limit`` pending rows at most."""
    monkeypatch.setattr(pending_rows, "PENDING_LIMIT", limit)
    papers = fixed_papers()
    fixed_index(factory, folder)
    for serial, change in enumerate((first_change, second_change), 1):
        papers = change(papers)
        index = SearchIndex(folder, papers, f"v{serial}")
        assert index.ensure() is None
        index.close()
    assert "changed_in_place" in (indexfiles.read_marker(folder) or {})
    return SearchIndex(folder, papers, "v2")


def vectors_crc(folder: Path) -> str:
    """The CRC-32 the marker keeps for ``vectors.bin``."""
    return str((indexfiles.read_marker(folder) or {})["checksums"][VECTORS_FILE])


def assert_same_vectors(lazy: SearchIndex, eager: SearchIndex) -> None:
    """The same arrays, the same similar papers and the same recommendations."""
    got, want = lazy._paper_vectors(), eager._paper_vectors()
    assert got.ids == want.ids == tuple(p.id for p in lazy.papers)
    for part in ("by_paper", "by_word"):
        for field in ("values", "at", "start"):
            x, y = getattr(getattr(got, part), field), getattr(getattr(want, part), field)
            assert np.array_equal(x, y), (part, field)
    ids = [p.id for p in lazy.papers]
    for pid in ["added-1", "added-2", ids[3], ids[30], *ids[50:60]]:
        a, b = lazy.similar(pid, 10), eager.similar(pid, 10)
        assert a.hits and a.total == b.total
        assert [(h.paper.id, h.score) for h in a.hits] == [(h.paper.id, h.score) for h in b.hits]
    picks = ["added-1", ids[3], *ids[60:63]]
    a_rec, b_rec = lazy.recommend(picks, limit=15), eager.recommend(picks, limit=15)
    assert len(b_rec.hits) == 15
    assert [h.paper.id for h in a_rec.hits] == [h.paper.id for h in b_rec.hits]
    assert a_rec.explain == b_rec.explain
    assert lazy.notice is None and eager.notice is None  # no rebuild on either side


def test_pending_rows_answer_as_rows_computed_at_once(
    tmp_path: Path, tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    fixed_index(tmp_path_factory, tmp_path / "built")
    lazy = changed_index(tmp_path / "lazy", 200, monkeypatch, tmp_path_factory)
    eager = changed_index(tmp_path / "eager", 0, monkeypatch, tmp_path_factory)
    ids = [p.id for p in lazy.papers]
    assert read_pending(tmp_path / "lazy") == {ids[3], "added-1", ids[30], "added-2"}
    assert not (tmp_path / "eager" / PENDING_FILE).exists()
    # The lazy index never wrote its vectors (the full build's file); the eager one did.
    assert vectors_crc(tmp_path / "lazy") == vectors_crc(tmp_path / "built")
    assert vectors_crc(tmp_path / "eager") != vectors_crc(tmp_path / "built")
    assert_same_vectors(lazy, eager)
    lazy.close()
    eager.close()


def test_past_the_limit_the_change_writes_every_pending_row(
    tmp_path: Path, tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    capped = changed_index(
        tmp_path / "capped", 3, monkeypatch, tmp_path_factory
    )  # 2 pending, then 4 > 3
    assert not (tmp_path / "capped" / PENDING_FILE).exists()
    marker = indexfiles.read_marker(tmp_path / "capped") or {}
    assert PENDING_FILE not in marker["files"] and VECTORS_FILE in marker["files"]
    eager = changed_index(tmp_path / "eager", 0, monkeypatch, tmp_path_factory)
    assert_same_vectors(capped, eager)
    capped.close()
    eager.close()


def test_a_damaged_pending_file_is_rebuilt(
    tmp_path: Path, tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    index = changed_index(tmp_path / "index", 200, monkeypatch, tmp_path_factory)
    path = tmp_path / "index" / PENDING_FILE
    path.write_text('{"ids": "not a list"}', encoding="utf-8")
    assert index.similar("added-1", 5).hits
    assert index.notice is not None and "rebuilt" in index.notice
    assert not path.exists()  # a full build leaves nothing pending
    index.close()


def test_a_search_after_a_change_imports_no_numpy(
    tmp_path: Path, tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    papers = fixed_papers()
    folder = tmp_path / "index"
    fixed_index(tmp_path_factory, folder)
    papers_file = tmp_path / "after.json"
    papers_file.write_text(json.dumps([p.to_json() for p in first_change(papers)]))
    code = (
        "import json, sys\n"
        "from pathlib import Path\n"
        "from index_builder.model import Paper\n"
        "from index_builder.search.engine import SearchIndex\n"
        "papers = [Paper.from_json(d) for d in json.loads(Path(sys.argv[2]).read_text())]\n"
        "index = SearchIndex(Path(sys.argv[1]), papers, 'v1')\n"
        "hits = [h.paper.id for h in index.search('zebrafish').hits]\n"
        "print(json.dumps([hits, 'numpy' in sys.modules]))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[3])}
    done = subprocess.run(
        [sys.executable, "-c", code, str(folder), str(papers_file)],
        capture_output=True,
        text=True,
        check=True,
        env=env,
    )
    hits, imported = json.loads(done.stdout)
    assert hits == [papers[3].id] and imported is False
    assert "changed_in_place" in (indexfiles.read_marker(folder) or {})
    assert (folder / PENDING_FILE).exists()


class _Watched:
    """A lock that records each try to take it (a thread waiting for the vectors)."""

    def __init__(self, tries: threading.Event) -> None:
        self._lock = threading.Lock()
        self._tries = tries

    def __enter__(self) -> None:
        self._tries.set()
        self._lock.acquire()

    def __exit__(self, *_: object) -> None:
        self._lock.release()


def test_threads_asking_at_once_read_the_vectors_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory
) -> None:
    index = changed_index(tmp_path / "index", 200, monkeypatch, tmp_path_factory)
    index.search("zebrafish")  # opened, so the threads below only read the vectors
    reads: list[str] = []
    second = threading.Event()
    real = vector_queries.load_vectors

    def load(folder: Path, papers: list[Paper]):  # type: ignore[no-untyped-def]
        reads.append(threading.current_thread().name)
        if len(reads) == 2:
            second.set()  # a second read has begun (the vectors held twice)
        else:
            # The first read goes on once the second asker is waiting for it, or reading.
            wait_until(second.is_set, what="the second thread to ask for the vectors")
        return real(folder, papers)

    monkeypatch.setattr(vector_queries, "load_vectors", load)
    index._vectors_lock = _Watched(second)  # type: ignore[assignment]
    found: dict[str, list[str]] = {}

    def ask(name: str) -> None:
        found[name] = [h.paper.id for h in index.similar("added-1", 5).hits]

    threads = [threading.Thread(target=ask, args=(n,), name=n) for n in ("first", "second")]
    threads[0].start()
    wait_until(lambda: bool(reads), what="the first thread to read the vectors")
    threads[1].start()
    for thread in threads:
        wait_until(lambda t=thread: not t.is_alive(), what=f"the {thread.name} thread to end")
    assert reads == ["first"]
    assert found["first"] == found["second"] and found["first"]
    index.close()
