"""A change in place killed at any moment loses nothing; two changes at once never tear.

A child process changes the fixture's index in place (one paper edited, one removed, one
added) and stops at a named moment, saying so on stdout and waiting on stdin (a pipe, no
sleep): the test kills it there with SIGKILL. Then the old index must still be whole and
in use for the old papers, and the next start must make the new one (in place again),
answering as a fresh build does. Two processes making the same change: the second waits
for the first's writer lock, then finds the index made and writes nothing.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from index_builder.model import Paper
from index_builder.search import folder as indexfiles
from index_builder.search.engine import SearchIndex
from tests.core.search.test_in_place import assert_same_answers
from tests.core.test_analysis_versions import fixed_papers

CHILD = """
import json, sys
from pathlib import Path
from index_builder.model import Paper
from index_builder.search import folder, in_place
from index_builder.search.engine import SearchIndex

index_dir, papers_file, stop_at = sys.argv[1:4]
papers = [Paper.from_json(d) for d in json.loads(Path(papers_file).read_text())]

def pausing(name, fn):
    def paused(*args, **kwargs):
        result = fn(*args, **kwargs)
        if name == stop_at:
            print(name, flush=True)
            sys.stdin.readline()
        return result
    return paused

in_place.link_files = pausing("linked", in_place.link_files)
in_place._move_vocabulary = pausing("committed", in_place._move_vocabulary)
in_place._move_vectors = pausing("vectors", in_place._move_vectors)
folder.seal = pausing("sealed", folder.seal)
folder.swap_in = pausing("swapped", folder.swap_in)
index = SearchIndex(Path(index_dir), papers, "after")
print("start", flush=True)
index.ensure()
marker = folder.read_marker(Path(index_dir))
print("done", json.dumps(marker.get("changed_in_place")), flush=True)
"""
MOMENTS = ["linked", "committed", "vectors", "sealed", "swapped"]


def changed(papers: list[Paper]) -> list[Paper]:
    """One paper edited, one removed, one added."""
    edited = replace(papers[3], abstract="zebrafish " + papers[3].abstract)
    added = replace(papers[9], id="added-1", title="Quasar lattices for everyone")
    return [*papers[:3], edited, *papers[4:20], added, *papers[21:]]


def child(index_dir: Path, papers_file: Path, stop_at: str) -> subprocess.Popen[str]:
    """The changing process, started with this tree on its path."""
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    command = [sys.executable, "-c", CHILD, str(index_dir), str(papers_file), stop_at]
    return subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env
    )


def wait_for(proc: subprocess.Popen[str], word: str) -> str:
    """The child's stdout up to the line starting with ``word`` (fails if it ends first)."""
    assert proc.stdout is not None
    seen = []
    for line in proc.stdout:
        seen.append(line.strip())
        if line.startswith(word):
            return line.strip()
    raise AssertionError(f"the child ended before saying {word!r}: {seen}")


@pytest.fixture
def setup(tmp_path: Path) -> tuple[Path, Path, list[Paper], list[Paper]]:
    """An index of the fixture's papers, and the changed papers in a file for the child."""
    before = fixed_papers()
    after = changed(before)
    index_dir = tmp_path / "cache" / "index"
    SearchIndex(index_dir, before, "before").ensure()
    papers_file = tmp_path / "after.json"
    papers_file.write_text(json.dumps([p.to_json() for p in after]))
    return index_dir, papers_file, before, after


@pytest.mark.parametrize("moment", MOMENTS)
def test_a_change_killed_at_any_moment_loses_nothing(
    setup: tuple[Path, Path, list[Paper], list[Paper]], tmp_path: Path, moment: str
) -> None:
    index_dir, papers_file, before, after = setup
    proc = child(index_dir, papers_file, moment)
    wait_for(proc, moment)
    os.kill(proc.pid, signal.SIGKILL)
    assert proc.wait(timeout=60) == -signal.SIGKILL
    marker = indexfiles.read_marker(index_dir)
    if moment == "swapped":  # killed after the swap: the new index is whole
        assert marker is not None and marker["fingerprint"] == "after"
    else:  # the old index is whole and in use for the old papers
        old = SearchIndex(index_dir, before, "before")
        assert old.is_fresh() and not old.damaged()
        assert old.search("zebrafish").total == 0
        old.close()
    new = SearchIndex(index_dir, after, "after")
    assert new.ensure() is None
    assert "changed_in_place" in (indexfiles.read_marker(index_dir) or {})
    fresh = SearchIndex(tmp_path / "fresh", after, "after")
    assert_same_answers(new, fresh)
    leftovers = [p.name for p in index_dir.parent.iterdir() if p.name != "index"]
    assert leftovers == []


def test_two_changes_at_once_wait_for_each_other(
    setup: tuple[Path, Path, list[Paper], list[Paper]],
) -> None:
    index_dir, papers_file, _, after = setup
    first = child(index_dir, papers_file, "vectors")
    wait_for(first, "vectors")  # holding the writer lock, halfway through its change
    second = child(index_dir, papers_file, "never")
    wait_for(second, "start")
    assert first.stdin is not None
    first.stdin.write("go on\n")
    first.stdin.flush()
    assert wait_for(first, "done") == 'done {"removed": 2, "written": 2}'
    made = indexfiles.read_marker(index_dir)
    assert wait_for(second, "done")  # it waited, then found the index made
    assert first.wait(timeout=60) == 0 and second.wait(timeout=60) == 0
    assert indexfiles.read_marker(index_dir) == made  # the second wrote nothing
    index = SearchIndex(index_dir, after, "after")
    assert index.ensure() is None and not index.damaged()
    assert [h.paper.id for h in index.search("quasar").hits] == ["added-1"]
