"""The SQLite reading list: behaviour, migrations, faults and concurrent writers."""

from __future__ import annotations

import errno
import json
import multiprocessing
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import threading
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import pytest

from index_builder.model import Paper
from index_builder.readinglist.bookmark import Bookmark
from index_builder.readinglist.database import put_bookmark, translate
from index_builder.readinglist.store import (
    SCHEMA_VERSION,
    ReadingList,
    ReadingListError,
    open_or_recover,
    quarantine,
)


def rl_paper(n: int, **kw: object) -> Paper:
    """A small synthetic paper numbered ``n``."""
    fields: dict[str, object] = {
        "id": f"p{n}",
        "title": f"Paper number {n}",
        "authors": (f"Ada {n}", "Bo Li"),
        "session": "Poster Session 1",
        "starts_at": "2026-07-06T18:30:00-07:00",
        "ends_at": "2026-07-06T20:15:00-07:00",
        "url": f"https://icml.cc/virtual/2026/poster/{n}",
    }
    fields.update(kw)
    return Paper(**fields)  # type: ignore[arg-type]


@pytest.fixture
def rl_path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "reading_list.sqlite3"


@pytest.fixture
def rl(rl_path: Path):
    store = ReadingList(rl_path)
    yield store
    store.close()


def test_add_get_toggle_remove_restore(rl: ReadingList) -> None:
    assert rl.add(rl_paper(1)) is True
    assert rl.add(rl_paper(1)) is False
    assert rl.ids() == frozenset({"p1"})
    got = rl.get("p1")
    assert (
        got is not None
        and got.copy.title == "Paper number 1"
        and got.copy.authors == ("Ada 1", "Bo Li")
    )
    assert got.status == "to-read" and got.added_at.endswith("Z")
    assert rl.toggle(rl_paper(2)) is True
    assert rl.toggle(rl_paper(2)) is False
    removed = rl.remove("p1")
    assert removed == got
    assert rl.remove("p1") is None
    assert not rl.is_bookmarked("p1")
    rl.restore(removed)
    assert rl.get("p1") == got


def test_undo_puts_a_bookmark_back_in_its_place_among_same_instant_ones(rl: ReadingList) -> None:
    # Bookmarks added within one millisecond share added_at; the row order breaks the tie,
    # and an undo once re-inserted the bookmark as the newest (a flaky screen test).
    same = "2026-07-06T10:00:00.000Z"
    with rl.transaction() as conn:
        for n in (1, 2, 3):
            bm = Bookmark.from_paper(rl_paper(n))
            put_bookmark(conn, replace(bm, added_at=same, updated_at=same))
    assert [b.paper_id for b in rl.all()] == ["p3", "p2", "p1"]
    removed = rl.remove("p2")
    assert removed is not None and [b.paper_id for b in rl.all()] == ["p3", "p1"]
    rl.restore(removed)
    assert [b.paper_id for b in rl.all()] == ["p3", "p2", "p1"]
    assert rl.get("p2") == removed
    # A place taken since (or a bookmark never removed here) falls back to a new row.
    rl.restore(replace(removed, note="again"))
    assert rl.get("p2").note == "again"  # type: ignore[union-attr]


def test_bookmark_survives_reopen_and_keeps_its_copy(rl_path: Path) -> None:
    with ReadingList(rl_path) as first:
        first.add(rl_paper(7, title="Gone & $x$ soon"))
        first.set_note("p7", "ask about\nthe proof")
    with ReadingList(rl_path) as again:
        bm = again.get("p7")
    assert bm is not None
    assert bm.copy.title == "Gone & $x$ soon" and bm.note == "ask about\nthe proof"
    assert bm.to_paper().authors == ("Ada 7", "Bo Li")


def test_alias_matches_and_rekeys(rl: ReadingList) -> None:
    # Bookmarked while the abstract was a paper of its own; later joined to its row.
    rl.add(Paper(id="abs-123", title="Derived title"))
    joined = rl_paper(9, aliases=("abs-123",))
    assert rl.find(joined) is not None
    assert rl.toggle(joined) is False  # it was bookmarked: toggling removes it
    rl.add(Paper(id="abs-123", title="Derived title"))
    assert rl.add(joined) is False  # already there: re-keyed instead
    bm = rl.get("p9")
    assert bm is not None and bm.copy.aliases == ("abs-123",) and bm.copy.title == "Paper number 9"
    assert rl.get("abs-123") == bm and rl.ids() == {"p9", "abs-123"}
    assert rl.paper_ids() == ["p9"]  # the key each bookmark is stored under, no alias


def test_reconcile_rekeys_only_changed(rl: ReadingList) -> None:
    rl.add(Paper(id="old", title="t"))
    rl.add(rl_paper(2))
    assert rl.reconcile([rl_paper(1, aliases=("old",)), rl_paper(2)]) == 1
    assert {b.paper_id for b in rl.all()} == {"p1", "p2"}
    assert rl.reconcile([rl_paper(1, aliases=("old",))]) == 0


def test_status_note_and_errors(rl: ReadingList) -> None:
    rl.add(rl_paper(1))
    before = rl.get("p1")
    after = rl.set_status("p1", "reading")
    assert after.status == "reading" and before is not None
    assert after.updated_at >= before.updated_at
    assert rl.set_note("p1", "n").note == "n"
    with pytest.raises(ValueError, match="unknown status"):
        rl.set_status("p1", "done")
    with pytest.raises(KeyError):
        rl.set_status("nope", "read")
    with pytest.raises(KeyError):
        rl.set_note("nope", "x")


def test_all_filters_and_sorts(rl: ReadingList) -> None:
    rl.add(rl_paper(1, title="beta", starts_at="2026-07-07T18:30:00-07:00"))
    rl.add(rl_paper(2, title="Alpha", starts_at=""))
    rl.add(rl_paper(3, title="gamma"))
    rl.set_status("p3", "read")
    rl.set_status("p2", "reading")
    assert [b.paper_id for b in rl.all(sort="title")] == ["p2", "p1", "p3"]
    assert rl.all(sort="status")[0].paper_id == "p2"
    assert [b.paper_id for b in rl.all(sort="time")] == ["p3", "p1", "p2"]
    assert [b.paper_id for b in rl.all(status="read")] == ["p3"]
    assert [b.paper_id for b in rl.all(sort="added")] == ["p3", "p2", "p1"]
    assert len(rl) == 3
    with pytest.raises(ValueError):
        rl.all(sort="colour")


def test_ids_cache_sees_other_connections(rl_path: Path) -> None:
    with ReadingList(rl_path) as one, ReadingList(rl_path) as two:
        assert one.ids() == frozenset()
        two.add(rl_paper(5))
        assert one.ids() == {"p5"}
        one.remove("p5")
        assert two.ids() == frozenset()


def test_merge_keeps_newer_status_and_both_notes(rl: ReadingList) -> None:
    rl.add(rl_paper(1))
    rl.set_note("p1", "mine")
    mine = rl.set_status("p1", "reading")
    newer = Bookmark(
        Paper("p1", "", aliases=("x1",)),
        status="read",
        note="theirs",
        added_at="2020-01-01T00:00:00Z",
        updated_at="2099-01-01T00:00:00Z",
    )
    older = Bookmark(Paper("p2", "Brand new"), updated_at="2000-01-01T00:00:00Z")
    assert rl.merge([newer, older]) == (1, 1)
    got = rl.get("p1")
    assert got is not None
    assert got.status == "read" and got.note == "mine\n\ntheirs"
    assert got.added_at == "2020-01-01T00:00:00Z" and got.copy.aliases == ("x1",)
    assert got.copy.title == mine.copy.title  # the local copy wins
    stale = Bookmark(
        Paper("p1", ""), status="to-read", note="mine", updated_at="2001-01-01T00:00:00Z"
    )
    assert rl.merge([stale, newer]) == (0, 0)  # importing again changes nothing
    assert rl.get("p1") == got


def test_migrates_a_legacy_v0_file(rl_path: Path) -> None:
    rl_path.parent.mkdir(parents=True)
    con = sqlite3.connect(rl_path)
    con.execute("CREATE TABLE bookmarks (paper_id TEXT PRIMARY KEY, added_at TEXT)")
    con.executemany(
        "INSERT INTO bookmarks VALUES (?, ?)",
        [("p1", "2026-01-01T00:00:00Z"), ("p2", "2026-01-02T00:00:00Z")],
    )
    con.commit()
    con.close()
    with ReadingList(rl_path) as rl:
        assert rl.ids() == {"p1", "p2"}
        assert rl.get("p2") == Bookmark(
            Paper("p2", ""), added_at="2026-01-02T00:00:00Z", updated_at="2026-01-02T00:00:00Z"
        )
        rl.set_status("p1", "read")
    con = sqlite3.connect(rl_path)
    assert con.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION >= 2
    con.close()


def test_refuses_a_newer_schema_and_leaves_it(rl_path: Path) -> None:
    rl_path.parent.mkdir(parents=True)
    con = sqlite3.connect(rl_path)
    con.execute("PRAGMA user_version = 99")
    con.commit()
    con.close()
    before = rl_path.read_bytes()
    with pytest.raises(ReadingListError, match="newer") as info:
        ReadingList(rl_path)
    assert info.value.kind == "newer" and rl_path.read_bytes() == before


def test_garbage_file_is_reported_and_quarantined(rl_path: Path) -> None:
    rl_path.parent.mkdir(parents=True)
    garbage = os.urandom(8192)
    rl_path.write_bytes(garbage)
    with pytest.raises(ReadingListError, match="not a reading-list database") as info:
        ReadingList(rl_path)
    assert info.value.kind == "corrupt"
    assert rl_path.read_bytes() == garbage  # nothing was touched
    when = datetime(2026, 12, 2, 19, 30, tzinfo=UTC)
    moved = quarantine(rl_path, now=when)
    assert moved.name == "reading_list.sqlite3.corrupt-20261202T193000"
    assert moved.read_bytes() == garbage and not rl_path.exists()
    rl_path.write_bytes(b"more garbage")
    second = quarantine(rl_path, now=when)  # same second: a new name, nothing overwritten
    assert second != moved and moved.read_bytes() == garbage
    with ReadingList(rl_path) as fresh:
        assert fresh.add(rl_paper(1))


def test_truncated_file_is_corrupt(rl_path: Path) -> None:
    with ReadingList(rl_path) as rl:
        rl.merge(Bookmark(Paper(f"p{i}", ""), note="x" * 500) for i in range(400))
    data = rl_path.read_bytes()
    assert len(data) > 100_000
    rl_path.write_bytes(data[: len(data) // 2])
    with pytest.raises(ReadingListError) as info:
        ReadingList(rl_path)
    assert info.value.kind == "corrupt"


def test_locked_database_gives_a_clear_error_then_works(rl_path: Path) -> None:
    with ReadingList(rl_path) as setup:
        setup.add(rl_paper(1))
    holder = sqlite3.connect(rl_path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        with ReadingList(rl_path, timeout=0.2) as rl:
            with pytest.raises(ReadingListError, match="locked by another process") as info:
                rl.add(rl_paper(2))
            assert info.value.kind == "locked"
            assert rl.ids() == {"p1"}  # readers are not blocked under WAL
            holder.execute("ROLLBACK")
            assert rl.add(rl_paper(2))
    finally:
        holder.close()


def test_locked_database_is_waited_for(rl_path: Path) -> None:
    ReadingList(rl_path).close()
    holder = sqlite3.connect(rl_path, isolation_level=None, check_same_thread=False)
    holder.execute("BEGIN IMMEDIATE")
    holder.execute("INSERT INTO bookmarks (paper_id, added_at, updated_at) VALUES ('h', '', '')")
    release = threading.Timer(0.3, lambda: holder.execute("COMMIT"))
    release.start()
    try:
        with ReadingList(rl_path, timeout=30) as rl:
            assert rl.add(rl_paper(1))
            assert rl.ids() == {"h", "p1"}
    finally:
        release.join()
        holder.close()


def test_failed_write_leaves_previous_state(rl: ReadingList) -> None:
    rl.add(rl_paper(1))
    rl.set_note("p1", "kept")
    before = rl.all()
    pages = rl._conn.execute("PRAGMA page_count").fetchone()[0]
    rl._conn.execute(f"PRAGMA max_page_count = {pages}")  # the disk is now "full"
    big = [Bookmark(Paper(f"q{i}", ""), note="y" * 4000) for i in range(50)]
    with pytest.raises(ReadingListError, match="disk is full") as info:
        rl.merge(big)
    assert info.value.kind == "full"
    with pytest.raises(ReadingListError):
        rl.set_note("p1", "z" * 100_000)
    assert rl.all() == before
    rl._conn.execute("PRAGMA max_page_count = 1073741823")
    assert rl.merge(big) == (50, 0)


def test_directory_in_the_way(tmp_path: Path) -> None:
    (tmp_path / "reading_list.sqlite3").mkdir()
    with pytest.raises(ReadingListError, match="folder"):
        ReadingList(tmp_path / "reading_list.sqlite3")


def _add_twenty(path: str, start: int, barrier: multiprocessing.synchronize.Barrier) -> None:
    with ReadingList(Path(path), timeout=30) as rl:
        barrier.wait()
        for n in range(start, start + 20):
            rl.add(rl_paper(n))


def test_two_processes_adding_twenty_each_keep_forty(rl_path: Path) -> None:
    ReadingList(rl_path).close()
    # Forked, not spawned: each child opens the list itself (nothing of this process's
    # connection crosses), and a spawned one spent ~0.4 s of CPU starting Python again.
    ctx = multiprocessing.get_context("fork")
    barrier = ctx.Barrier(2)
    procs = [ctx.Process(target=_add_twenty, args=(str(rl_path), s, barrier)) for s in (0, 100)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(120)
    assert [p.exitcode for p in procs] == [0, 0]
    with ReadingList(rl_path) as rl:
        assert len(rl) == 40
        assert rl.ids() == {f"p{n}" for n in [*range(20), *range(100, 120)]}


_KILLED_WRITER = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    from index_builder.model import Paper
    from index_builder.readinglist.store import ReadingList
    rl = ReadingList(Path(sys.argv[1]))
    for n in range(5):
        rl.add(Paper(id=f"c{n}", title=f"committed {n}"))
    with rl.transaction() as conn:
        conn.execute("DELETE FROM bookmarks")
        conn.execute("INSERT INTO bookmarks (paper_id, added_at, updated_at) VALUES ('u', '', '')")
        print("inside", flush=True)
        time.sleep(600)
    """
)


def test_writer_killed_mid_transaction_loses_nothing_committed(rl_path: Path) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-c", _KILLED_WRITER, str(rl_path)],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == "inside"
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(30)
    assert proc.returncode == -signal.SIGKILL
    with ReadingList(rl_path, timeout=10) as rl:
        assert rl.ids() == {f"c{n}" for n in range(5)}
        assert rl.add(Paper(id="after", title="writable again"))


def test_threads_share_one_store(rl: ReadingList) -> None:
    def work(start: int) -> None:
        for n in range(start, start + 25):
            rl.add(rl_paper(n))
            rl.ids()

    threads = [threading.Thread(target=work, args=(s,)) for s in (0, 100, 200, 300)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(rl) == 100 and len(rl.ids()) == 100


def test_unusable_folder_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "afile").write_text("x")
    with pytest.raises(ReadingListError, match="cannot open") as info:
        ReadingList(tmp_path / "afile" / "reading_list.sqlite3")
    assert info.value.kind == "io"


def test_an_error_is_told_by_its_cause_not_by_the_words_in_its_path(tmp_path: Path) -> None:
    # A folder whose name holds "full", "locked", "busy" and "readonly": an OSError's text
    # ends with the path, and the path's words once made this a full disk.
    folder = tmp_path / "full locked busy readonly corrupt"
    folder.mkdir()
    (folder / "afile").write_text("x")
    with pytest.raises(ReadingListError, match="cannot open") as info:
        ReadingList(folder / "afile" / "reading_list.sqlite3")
    assert info.value.kind == "io"
    full = translate(OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), "x"), folder, "write")
    assert (full.kind, full.reason) == ("full", "disk full")


def test_bookmark_json_round_trip() -> None:
    bm = Bookmark.from_paper(rl_paper(3, aliases=("a", "p3")), at="2026-01-01T00:00:00.000Z")
    assert bm.copy.aliases == ("a",)
    assert Bookmark.from_json(json.loads(json.dumps(bm.to_json()))) == bm
    with pytest.raises(ValueError):
        Bookmark.from_json({"paper_id": "x", "note": 3})


def test_open_or_recover(rl_path: Path) -> None:
    store, notice = open_or_recover(rl_path)
    store.close()
    assert notice is None
    rl_path.write_bytes(b"\x00garbage" * 100)
    store, notice = open_or_recover(rl_path)
    store.close()
    assert notice is not None and "kept as" in notice
    kept = Path(notice.split("kept as ")[1].split(" and a new")[0])
    assert kept.read_bytes() == b"\x00garbage" * 100


def test_rekey_onto_an_existing_bookmark_merges_them(rl: ReadingList) -> None:
    rl.add(Paper(id="abs", title="Derived"))
    rl.set_note("abs", "from the abstract")
    rl.add(rl_paper(9))
    rl.set_note("p9", "from the row")
    assert rl.reconcile([rl_paper(9, aliases=("abs",))]) == 1
    [bm] = rl.all()
    assert bm.paper_id == "p9" and bm.copy.aliases == ("abs",)
    assert bm.note == "from the row\n\nfrom the abstract"
    assert rl.ids() == {"p9", "abs"}


def test_merged_bookmark_without_times_gets_them(rl: ReadingList) -> None:
    assert rl.merge([Bookmark(Paper("z", "no times"))]) == (1, 0)
    got = rl.get("z")
    assert got is not None and got.added_at.endswith("Z") and got.updated_at == got.added_at


def test_read_only_database_refuses_writes_and_keeps_state(rl: ReadingList) -> None:
    rl.add(rl_paper(1))
    before = rl.all()
    rl._conn.execute("PRAGMA query_only = 1")  # SQLite's own read-only refusal
    with pytest.raises(ReadingListError, match="read-only") as info:
        rl.toggle(rl_paper(1))
    assert info.value.kind == "readonly"
    with pytest.raises(ReadingListError):
        rl.merge([Bookmark(Paper("x", ""))])
    assert rl.all() == before
