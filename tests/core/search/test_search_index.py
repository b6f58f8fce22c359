"""Index lifecycle: first build, freshness, stale and damaged indexes, killed builds, threads."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from index_builder.model import Paper
from index_builder.search import folder as indexfiles
from index_builder.search.engine import DAMAGED_NOTICE, SearchIndex
from index_builder.search.vocabulary import Vocabulary, read_counts
from tests.helpers.search_papers import PAPERS
from tests.helpers.shared_builds import build_once
from tests.helpers.waiting import wait_until

Built = Callable[[Path], SearchIndex]


def build_here(path: Path) -> SearchIndex:
    """The papers' index built at ``path`` (the build is what the test checks), opened."""
    ix = SearchIndex(path, PAPERS, "fp")
    ix.ensure()
    return ix


@pytest.fixture
def built(tmp_path_factory: pytest.TempPathFactory) -> Built:
    """``built(path)``: the papers' index at ``path``, opened: a copy of their full build,
    made once per run. For the tests whose subject is what happens to a built index
    (stale, damaged, rebuilt, killed while rebuilding), not the first build; no file of
    an index names its folder, so the copy is the folder a build leaves."""

    def write(folder: Path) -> None:
        build_here(folder / "index").close()

    source = build_once(tmp_path_factory, "search-index-papers-fp", write) / "index"

    def copy(path: Path) -> SearchIndex:
        shutil.copytree(source, path)
        ix = SearchIndex(path, PAPERS, "fp")
        assert ix.ensure() is None and ix.is_fresh()
        return ix

    return copy


def marker(path: Path) -> dict[str, object]:
    return json.loads((path / indexfiles.MARKER).read_text())


def test_first_ensure_builds_with_progress_then_reopens(tmp_path: Path) -> None:
    path = tmp_path / "index"
    seen: list[tuple[int, int]] = []
    ix = SearchIndex(path, PAPERS, "fp")
    assert not ix.is_fresh()
    assert ix.ensure(lambda done, total: seen.append((done, total))) is None
    assert seen[0] == (0, len(PAPERS)) and seen[-1] == (len(PAPERS), len(PAPERS))
    assert ix.is_fresh()
    state = ix.state()
    assert state["exists"] and state["fresh"]
    assert state["doc_count"] == len(PAPERS)
    assert int(state["size_bytes"]) > 0
    assert "2.7" in str(state["library"])
    first = marker(path)
    assert first["fingerprint"] == "fp" and first["schema_version"]
    ix.close()
    again = SearchIndex(path, PAPERS, "fp")
    assert again.ensure() is None
    assert marker(path)["built_at"] == first["built_at"]
    assert again.search("proeval").total == 1
    again.close()


def test_a_build_opens_with_the_vocabulary_it_wrote(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The build's own vocabulary is searched with, not read back from the file it wrote;
    it holds the counts of that file (what opening the index again reads)."""
    path = tmp_path / "index"
    reads: list[Path] = []
    real_load = Vocabulary.load.__func__  # type: ignore[attr-defined]

    def load(cls: type[Vocabulary], folder: Path) -> Vocabulary:
        reads.append(folder)
        return real_load(cls, folder)  # type: ignore[no-any-return]

    monkeypatch.setattr(Vocabulary, "load", classmethod(load))
    ix = SearchIndex(path, PAPERS, "fp")
    ix.build()
    assert reads == []
    built = ix._vocab
    ix.close()
    assert built.freq == read_counts(path) and built.sorted == sorted(read_counts(path))
    again = SearchIndex(path, PAPERS, "fp")
    assert again.ensure() is None and reads == [path]
    assert again._vocab.freq == built.freq and again._vocab.sorted == built.sorted
    assert again.search("proeval").total == ix.search("proeval").total == 1
    again.close()
    ix.close()


def test_state_without_contents_reads_no_file_of_the_index(tmp_path: Path, built: Built) -> None:
    """``state(contents=False)`` (the ``index`` command's report) leaves the files' bytes
    unread: a byte changed in place is seen by ``state()`` alone."""
    path = tmp_path / "index"
    built(path).close()
    ix = SearchIndex(path, PAPERS, "fp")
    postings = next(path.glob("*.pst"))
    data = bytearray(postings.read_bytes())
    data[len(data) // 2] ^= 0xFF
    postings.write_bytes(bytes(data))
    full, light = ix.state(), ix.state(contents=False)
    assert not full["fresh"] and light["fresh"]
    assert {**full, "fresh": None} == {**light, "fresh": None}
    assert light["doc_count"] == len(PAPERS)


def test_missing_index_state(tmp_path: Path) -> None:
    state = SearchIndex(tmp_path / "none", PAPERS, "fp").state()
    assert state["exists"] is False and state["fresh"] is False and state["doc_count"] is None


@pytest.mark.parametrize(
    "key, value",
    [
        ("fingerprint", "other"),
        ("schema_version", -1),
        ("analysis", "x"),
        ("library", "whoosh 0.1"),
    ],
)
def test_stale_marker_means_rebuild(tmp_path: Path, built: Built, key: str, value: object) -> None:
    path = tmp_path / "index"
    built(path).close()
    data = marker(path)
    data[key] = value
    (path / indexfiles.MARKER).write_text(json.dumps(data))
    ix = SearchIndex(path, PAPERS, "fp")
    assert not ix.is_fresh()
    assert ix.ensure() is None
    assert ix.is_fresh()
    assert marker(path)[key] != value
    ix.close()


def test_new_fingerprint_rebuilds_with_new_papers(tmp_path: Path, built: Built) -> None:
    path = tmp_path / "index"
    built(path).close()
    fewer = SearchIndex(path, PAPERS[:3], "fp2")
    assert not fewer.is_fresh()
    fewer.ensure()
    assert fewer.search("").total == 3
    assert fewer.search("massart").total == 0
    fewer.close()


def _segment_file(path: Path) -> Path:
    """The postings file of the index (segments are written as separate files)."""
    return next(path.glob("*.pst"))


def _damage_seg(path: Path) -> None:
    seg = _segment_file(path)
    seg.write_bytes(seg.read_bytes()[: seg.stat().st_size // 2])


def _damage_toc(path: Path) -> None:
    next(path.glob("*.toc")).write_bytes(b"\x00garbage" * 40)


def _damage_vocabulary(path: Path) -> None:
    (path / "paperscope-vocabulary.json").write_text("{")


def _remove_seg(path: Path) -> None:
    next(path.glob("*.trm")).unlink()


@pytest.mark.parametrize("damage", [_damage_seg, _damage_toc, _damage_vocabulary, _remove_seg])
def test_damaged_index_is_rebuilt_with_a_notice(
    tmp_path: Path, built: Built, damage: object
) -> None:
    path = tmp_path / "index"
    built(path).close()
    damage(path)  # type: ignore[operator]
    ix = SearchIndex(path, PAPERS, "fp")
    assert ix.ensure() == DAMAGED_NOTICE
    assert ix.search("massart noise").total == 2
    ix.close()


def test_files_without_marker_are_not_an_index(tmp_path: Path, built: Built) -> None:
    path = tmp_path / "index"
    built(path).close()
    (path / indexfiles.MARKER).unlink()
    ix = SearchIndex(path, PAPERS, "fp")
    assert not ix.is_fresh()
    assert ix.ensure() is None
    assert ix.is_fresh()
    ix.close()


def test_leftovers_of_killed_builds_are_cleaned(tmp_path: Path) -> None:
    path = tmp_path / "index"
    dead = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        capture_output=True,
        text=True,
        check=True,
    )
    pid = int(dead.stdout)
    leftovers = [tmp_path / f"index.tmp-{pid}-abcd", tmp_path / f"index.old-{pid}-ef01"]
    for folder in leftovers:
        folder.mkdir()
        (folder / "junk").write_text("x")
    build_here(path).close()
    assert not any(folder.exists() for folder in leftovers)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["index"]


def test_failed_build_keeps_the_old_index(
    tmp_path: Path, built: Built, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "index"
    ix = built(path)
    before = marker(path)

    def boom(paper: object) -> dict[str, str]:
        raise RuntimeError("disk full")

    monkeypatch.setattr("index_builder.search.documents.paper_doc", boom)
    with pytest.raises(RuntimeError):
        ix.build()
    assert marker(path) == before
    assert ix.search("proeval").total == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["index"]
    ix.close()


def big_papers() -> list[Paper]:
    """3,600 papers (the test papers' titles and authors 200 times): a build that is still
    running at each moment the tests kill it."""
    return [
        Paper(id=f"{p.id}-{i}", title=p.title, authors=p.authors)
        for i in range(200)
        for p in PAPERS
    ]


def rebuild_in_fork(path: Path) -> tuple[int, int]:
    """Fork a child that builds ``path`` again from :func:`big_papers` (fingerprint "big"),
    then writes a line on a pipe and waits to be killed; its pid and the pipe's end.

    Forked from this process, where the index's modules and the vector libraries are
    loaded: a fresh interpreter spent ~0.5 s of CPU importing before its build began."""
    papers = big_papers()
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never back into pytest, whatever happens
        try:
            os.close(read)
            SearchIndex(path, papers, "big").build()
            os.write(write, b"done\n")
            signal.pause()  # until the test's SIGKILL
        finally:
            os._exit(70)
    os.close(write)
    return pid, read


def build_folder_holds(pattern: str | None) -> Callable[[Path], bool]:
    """A moment of the build: its temporary folder exists and holds ``pattern``."""

    def holds(parent: Path) -> bool:
        return any(pattern is None or any(tmp.glob(pattern)) for tmp in parent.glob("*.tmp-*"))

    return holds


KILL_MOMENTS = {
    "folder-made": build_folder_holds(None),
    "gathering": build_folder_holds("_MAIN_*.toc"),  # Whoosh's table of contents written
}


@pytest.mark.slow
@pytest.mark.parametrize("moment", [*KILL_MOMENTS, "done"])
def test_killed_build_leaves_old_index_or_none(tmp_path: Path, built: Built, moment: str) -> None:
    path = tmp_path / "index"
    built(path).close()
    pid, pipe = rebuild_in_fork(path)
    with os.fdopen(pipe, "rb") as said:
        if moment == "done":  # killed once its build is complete (it says so), every time
            assert said.readline() == b"done\n"
        else:  # killed at a moment of the build, seen in its temporary folder
            wait_until(
                lambda: KILL_MOMENTS[moment](tmp_path), timeout=120, every=0.005, what=moment
            )
        os.kill(pid, signal.SIGKILL)
        _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == -signal.SIGKILL
    data = indexfiles.read_marker(path)
    if path.exists():
        assert data is not None and data["fingerprint"] in ("fp", "big")
    if moment == "done":
        assert data is not None and data["fingerprint"] == "big"
    ix = SearchIndex(path, PAPERS, "fp")
    ix.ensure()
    assert ix.search("massart noise").total == 2
    ix.close()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["index"]


def test_searches_from_threads_while_rebuilding(tmp_path: Path, built: Built) -> None:
    ix = built(tmp_path / "index")
    errors: list[BaseException] = []
    totals: set[int] = set()

    def searcher() -> None:
        try:
            for _ in range(40):
                totals.add(ix.search("diffusion OR massart", facets=True).total)
                ix.search("water", prefix=True)
                ix.more_like_this("p12")
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=searcher) for _ in range(6)]
    for thread in threads:
        thread.start()
    ix.build()
    for thread in threads:
        thread.join()
    assert errors == []
    assert totals == {5}
    ix.close()


def test_searching_while_the_first_build_runs_does_not_deadlock(tmp_path: Path) -> None:
    papers = [
        PAPERS[i % len(PAPERS)].__class__(id=f"x{i}", title=PAPERS[i % len(PAPERS)].title)
        for i in range(3000)
    ]
    ix = SearchIndex(tmp_path / "index", papers, "fp")
    results: list[int] = []
    builder = threading.Thread(target=ix.ensure)
    builder.start()
    started = lambda: any(tmp_path.glob("index.tmp-*")) or (tmp_path / "index").exists()  # noqa: E731
    assert wait_until(started, every=0.005), "the build never started"
    searchers = [
        threading.Thread(target=lambda: results.append(ix.search("massart").total))
        for _ in range(3)
    ]
    for thread in searchers:
        thread.start()
    for thread in [builder, *searchers]:
        thread.join(timeout=60)
        assert not thread.is_alive(), "deadlock"
    expected = sum("Massart" in p.title for p in papers)
    assert results == [expected] * 3
    ix.close()
