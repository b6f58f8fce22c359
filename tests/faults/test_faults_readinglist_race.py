"""Two processes creating the same new reading list at the same moment (issue 29, item 2).

The first process to switch a new list file to WAL holds its write lock while the header
is written and synced (tens of ms here); a second process that then switched it too, or
read it to identify it, failed at once with "locked": SQLite does not call the busy
handler when a read upgrades to a write, so the 5-second wait never applied. Nobody held
the list for 5 s: every add must succeed.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from index_builder.readinglist.store import ReadingList

CREATOR = """
import sqlite3, sys, time
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("BEGIN IMMEDIATE")  # the file exists, empty, its first write under way
print("creating", flush=True)
time.sleep(float(sys.argv[2]))
conn.execute("COMMIT")
"""

ADDER = """
import sys
from pathlib import Path
from index_builder.model import Paper
from index_builder.readinglist.store import ReadingList, ReadingListError

folder, tag = Path(sys.argv[1]), sys.argv[2]
rounds, adds = int(sys.argv[3]), int(sys.argv[4])
for r in range(rounds):
    print(f"ready {r}", flush=True)
    if sys.stdin.readline().strip() != "go":  # the test releases both processes at once
        break
    try:
        for i in range(adds):
            with ReadingList(folder / f"list-{r}.sqlite3") as rl:
                rl.add(Paper(id=f"{tag}{i}", title=f"paper {tag}{i}"))
    except ReadingListError as exc:
        print(f"round {r}: {exc}", flush=True)
"""


def adder(*args: object) -> subprocess.Popen[str]:
    """A process running :data:`ADDER` with ``args``: before each round it prints
    ``ready R`` and waits for a ``go`` line on its standard input."""
    return subprocess.Popen(
        [sys.executable, "-c", ADDER, *map(str, args)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


def run_rounds(procs: list[subprocess.Popen[str]], rounds: int) -> list[str]:
    """Release ``procs`` together for each round, once all say they are ready; their output
    other than the ``ready`` lines (the failures) is returned."""
    failures: list[str] = []
    for r in range(rounds + 1):
        for proc in procs:
            assert proc.stdout is not None
            while (line := proc.stdout.readline()) and line.strip() != f"ready {r}":
                failures.append(line.strip())  # a failure the round before printed
            assert line or r == rounds, f"an adder ended before round {r}: {failures}"
        if r == rounds:
            break
        for proc in procs:
            assert proc.stdin is not None
            proc.stdin.write("go\n")
            proc.stdin.flush()
    for proc in procs:
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.close()
        failures += [line.strip() for line in proc.stdout if line.strip()]
        proc.wait(timeout=120)
    return failures


def test_an_add_waits_while_another_process_creates_the_list(tmp_path: Path) -> None:
    """The moment of the race, held open: the other process is creating the file."""
    path = tmp_path / "list-0.sqlite3"
    creator = subprocess.Popen(
        [sys.executable, "-c", CREATOR, str(path), "1.0"], stdout=subprocess.PIPE, text=True
    )
    assert creator.stdout is not None and creator.stdout.readline().strip() == "creating"
    try:
        done = adder(tmp_path, "a", 1, 3)
        failures = run_rounds([done], 1)
    finally:
        creator.wait(timeout=30)
    assert done.returncode == 0 and failures == [], failures
    with ReadingList(path) as rl:
        assert sorted(b.paper_id for b in rl.all()) == ["a0", "a1", "a2"]


@pytest.mark.slow
def test_two_processes_adding_the_first_bookmarks_of_a_new_list_both_succeed(
    tmp_path: Path,
) -> None:
    """The race itself: two processes, one new list per round, both starting at once.

    The window is a few ms wide, so this catches the old failure only in some rounds
    (1 to 3 of 60 here under load); the test above holds the moment open.
    """
    rounds, adds = 60, 2
    procs = [adder(tmp_path, tag, rounds, adds) for tag in ("a", "b")]
    failures = run_rounds(procs, rounds)
    assert all(p.returncode == 0 for p in procs), failures
    assert failures == [], f"{len(failures)} of {rounds} rounds failed: {failures[:3]}"
    for r in range(rounds):
        with ReadingList(tmp_path / f"list-{r}.sqlite3") as rl:
            assert len(rl) == 2 * adds


def test_a_second_connection_in_one_process_keeps_the_first_ones_files(tmp_path: Path) -> None:
    """Opening the list again in a process that has it open (the reading list screen's
    writer does) must not drop that process's locks: when another process then closes
    its connection, it must not take the list for unused and remove its -wal and -shm."""
    from index_builder.model import Paper

    path = tmp_path / "list.sqlite3"
    with ReadingList(path) as first:
        first.add(Paper(id="a1", title="first"))
        holder = subprocess.Popen(
            [sys.executable, "-c", CREATOR.replace("BEGIN IMMEDIATE", "BEGIN EXCLUSIVE"),
             str(path), "0.5"],
            stdout=subprocess.PIPE, text=True,
        )  # fmt: skip
        assert holder.stdout is not None and holder.stdout.readline().strip() == "creating"
        with ReadingList(path) as second:
            second.add(Paper(id="a2", title="second"))  # waits for the holder
        holder.wait(timeout=30)
        assert sorted(p.name for p in tmp_path.iterdir()) == [
            "list.sqlite3", "list.sqlite3-shm", "list.sqlite3-wal",
        ]  # fmt: skip
        with ReadingList(path) as third:
            third.add(Paper(id="a3", title="third"))
        assert sorted(first.paper_ids()) == ["a1", "a2", "a3"]
