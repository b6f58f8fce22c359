"""A change in place killed at any moment loses nothing; two changes at once never tear.

A child process (forked from the test's) changes the fixture's index in place (one paper
edited, one removed, one added) and stops at a named moment, saying so on a pipe and
waiting for a line on another (no sleep): the test kills it there with SIGKILL. Then the
old index must still be whole and in use for the old papers, and the next start must make
the new one (in place again), answering as a fresh build does (one build of the changed
papers, shared by the module). Two processes making the same change: the second waits
for the first's writer lock, then finds the index made and writes nothing.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any, NoReturn

import pytest

from index_builder.model import Paper
from index_builder.search import folder as indexfiles
from index_builder.search import in_place
from index_builder.search.engine import SearchIndex
from tests.core.search.test_in_place import assert_same_answers
from tests.core.test_analysis_versions import fixed_papers
from tests.helpers.search_builds import FIXED_FINGERPRINT, fixed_index
from tests.helpers.shared_builds import build_once
from tests.helpers.waiting import wait_until


def _change_and_exit(
    index_dir: Path, papers: list[Paper], stop_at: str, out: int, into: int
) -> NoReturn:
    """In a forked child: change the index at ``index_dir`` to ``papers`` in place, saying
    ``start``, the moment ``stop_at`` (then waiting for a line on ``into``) and ``done``
    with the marker's ``changed_in_place`` on ``out``; never returns."""
    status = 1
    try:
        with os.fdopen(out, "w") as said, os.fdopen(into) as told:

            def pausing(name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
                def paused(*args: Any, **kwargs: Any) -> Any:
                    result = fn(*args, **kwargs)
                    if name == stop_at:
                        print(name, file=said, flush=True)
                        told.readline()
                    return result

                return paused

            in_place.link_files = pausing("linked", in_place.link_files)
            in_place._move_vocabulary = pausing("committed", in_place._move_vocabulary)
            in_place._move_vectors = pausing("vectors", in_place._move_vectors)
            indexfiles.seal = pausing("sealed", indexfiles.seal)
            indexfiles.swap_in = pausing("swapped", indexfiles.swap_in)
            index = SearchIndex(index_dir, papers, "after")
            print("start", file=said, flush=True)
            index.ensure()
            marker = indexfiles.read_marker(index_dir) or {}
            print("done", json.dumps(marker.get("changed_in_place")), file=said, flush=True)
            status = 0
    finally:
        os._exit(status)  # never back into pytest


class Child:
    """The changing process: forked from this one (the papers and libraries are loaded
    here), its ``stdout`` and ``stdin`` pipes, and its exit."""

    def __init__(self, index_dir: Path, papers: list[Paper], stop_at: str) -> None:
        out_read, out_write = os.pipe()
        in_read, in_write = os.pipe()
        self.pid = os.fork()
        if self.pid == 0:
            os.close(out_read)
            os.close(in_write)
            _change_and_exit(index_dir, papers, stop_at, out_write, in_read)
        os.close(out_write)
        os.close(in_read)
        self.stdout = os.fdopen(out_read)
        self.stdin = os.fdopen(in_write, "w")
        self.status: int | None = None

    def poll(self) -> int | None:
        """The exit status as ``subprocess`` gives it (``-9`` when killed), or None."""
        if self.status is None:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.status = (
                    -os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status)
                )
        return self.status

    def wait(self) -> int:
        """The exit status, once the child has ended (fails after 60 s)."""
        wait_until(lambda: self.poll() is not None, timeout=60, what=f"child {self.pid} to end")
        self.stdout.close()
        self.stdin.close()
        assert self.status is not None
        return self.status


MOMENTS = ["linked", "committed", "vectors", "sealed", "swapped"]


def changed(papers: list[Paper]) -> list[Paper]:
    """One paper edited, one removed, one added."""
    edited = replace(papers[3], abstract="zebrafish " + papers[3].abstract)
    added = replace(papers[9], id="added-1", title="Quasar lattices for everyone")
    return [*papers[:3], edited, *papers[4:20], added, *papers[21:]]


def wait_for(proc: Child, word: str) -> str:
    """The child's stdout up to the line starting with ``word`` (fails if it ends first)."""
    seen = []
    for line in proc.stdout:
        seen.append(line.strip())
        if line.startswith(word):
            return line.strip()
    raise AssertionError(f"the child ended before saying {word!r}: {seen}")


def _build_fresh(folder: Path) -> None:
    index = SearchIndex(folder / "index", changed(fixed_papers()), "after")
    index.ensure()
    index.close()


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """An index of the fixture's papers (a copy of the run's full build of them,
    ``fixed_index``, which the search tests' changes in place start from) and a fresh build
    of the changed papers, made once per run (read only: each test copies the first)."""
    before = fixed_index(tmp_path_factory, tmp_path_factory.mktemp("in-place") / "before")
    return before, build_once(tmp_path_factory, "faults-in-place-fresh", _build_fresh) / "index"


@pytest.fixture
def setup(built: tuple[Path, Path], tmp_path: Path) -> tuple[Path, Path, list[Paper], list[Paper]]:
    """A copy of the index of the fixture's papers, the fresh build of the changed papers
    (shared, searched only), and the papers before and after."""
    before = fixed_papers()
    index_dir = tmp_path / "cache" / "index"
    shutil.copytree(built[0], index_dir)
    return index_dir, built[1], before, changed(before)


@pytest.mark.parametrize("moment", MOMENTS)
def test_a_change_killed_at_any_moment_loses_nothing(
    setup: tuple[Path, Path, list[Paper], list[Paper]], tmp_path: Path, moment: str
) -> None:
    index_dir, fresh_dir, before, after = setup
    proc = Child(index_dir, after, moment)
    wait_for(proc, moment)
    os.kill(proc.pid, signal.SIGKILL)
    assert proc.wait() == -signal.SIGKILL
    marker = indexfiles.read_marker(index_dir)
    if moment == "swapped":  # killed after the swap: the new index is whole
        assert marker is not None and marker["fingerprint"] == "after"
    else:  # the old index is whole and in use for the old papers
        old = SearchIndex(index_dir, before, FIXED_FINGERPRINT)
        assert old.is_fresh() and not old.damaged()
        assert old.search("zebrafish").total == 0
        old.close()
    new = SearchIndex(index_dir, after, "after")
    assert new.ensure() is None
    assert "changed_in_place" in (indexfiles.read_marker(index_dir) or {})
    fresh = SearchIndex(fresh_dir, after, "after")
    assert fresh.is_fresh()  # the shared build, opened: never built again here
    assert_same_answers(new, fresh)
    fresh.close()
    leftovers = [p.name for p in index_dir.parent.iterdir() if p.name != "index"]
    assert leftovers == []


def test_two_changes_at_once_wait_for_each_other(
    setup: tuple[Path, Path, list[Paper], list[Paper]],
) -> None:
    index_dir, _, _, after = setup
    first = Child(index_dir, after, "vectors")
    wait_for(first, "vectors")  # holding the writer lock, halfway through its change
    second = Child(index_dir, after, "never")
    wait_for(second, "start")
    first.stdin.write("go on\n")
    first.stdin.flush()
    assert wait_for(first, "done") == 'done {"removed": 2, "written": 2}'
    made = indexfiles.read_marker(index_dir)
    assert wait_for(second, "done")  # it waited, then found the index made
    assert first.wait() == 0 and second.wait() == 0
    assert indexfiles.read_marker(index_dir) == made  # the second wrote nothing
    index = SearchIndex(index_dir, after, "after")
    assert index.ensure() is None and not index.damaged()
    assert [h.paper.id for h in index.search("quasar").hits] == ["added-1"]
