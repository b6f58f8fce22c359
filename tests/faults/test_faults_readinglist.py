"""Reading-list faults through the real command line: damaged, foreign, locked, read-only, full.

Every case runs ``paperscope reading-list ...`` in a subprocess and checks three things:
a clear message (no traceback), the exit status, and that the bytes or bookmarks that
were there before are still on disk. Read-only files and full disks are simulated in a
private mount namespace (``unshare -m``), because the tests run as root and root ignores
file modes; where the namespace cannot be made the test is skipped and says why.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from index_builder.paths import HOME_ENV, bundled_sources
from index_builder.readinglist.store import ReadingList
from tests.helpers.cli_cut import bundled_cut, cut_flags
from tests.helpers.faults import namespace_problem
from tests.helpers.faults_cli import forked_cli
from tests.helpers.shared_builds import build_once

FIRST, SECOND = "66407", "62914"  # the two Massart papers of the bundled table


FLAGS: list[str] = []
"""The options that make the home's cut of the bundled table its only source (set for
each test by :func:`rl_home`)."""


def rl_cmd(*args: str) -> list[str]:
    """The argv of ``paperscope reading-list ARGS``."""
    return [sys.executable, "-m", "tui", *FLAGS, "reading-list", *args]


def run(home: Path, argv: list[str], timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """Run ``argv`` with ``home`` as PAPERSCOPE_HOME."""
    env = {**os.environ, HOME_ENV: str(home)}
    return subprocess.run(
        argv, env=env, capture_output=True, text=True, timeout=timeout, check=False
    )


def rl(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``paperscope reading-list ARGS`` on ``home``, in a process forked from this one."""
    return forked_cli(*FLAGS, "reading-list", *args, home=home)


def _build_home(folder: Path) -> None:
    """``folder/home``, whose only source is the bundled table's rows of both Massart
    papers (``folder``'s table), with a list holding both, made by the command line."""
    flags = cut_flags(bundled_cut(folder, [FIRST, SECOND]))
    for args in (("add", FIRST, SECOND), ("note", FIRST, "keep me")):
        done = forked_cli(*flags, "reading-list", *args, home=folder / "home")
        assert done.returncode == 0, done.stderr


@pytest.fixture
def rl_home(
    tmp_path_factory: pytest.TempPathFactory, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Path:
    """A private copy of a home built once per run (it holds no path of its own) whose
    list holds both Massart papers; its only source is the bundled table's rows of them:
    what the list's file does is checked, not the catalogue, and every command read the
    6,628 papers of the bundled catalogue's cache first (0.1-0.2 s of CPU each)."""
    built = build_once(tmp_path_factory, "faults-reading-list-cut-home", _build_home)
    monkeypatch.setattr(f"{__name__}.FLAGS", cut_flags(built / bundled_sources()[0].name))
    return Path(shutil.copytree(built / "home", tmp_path / "home", symlinks=True))


def db(home: Path) -> Path:
    """The reading-list file of ``home``."""
    return home / "data" / "reading_list.sqlite3"


def checkpoint(path: Path) -> None:
    """Fold the WAL into the main file so that the file alone holds every bookmark."""
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")


def stored(home: Path) -> dict[str, str]:
    """paper id -> note, read straight from the file."""
    with ReadingList(db(home)) as store:
        return {b.paper_id: b.note for b in store.all()}


def clean(done: subprocess.CompletedProcess[str]) -> None:
    """No traceback and a ``paperscope:`` message on stderr."""
    assert "Traceback" not in done.stderr
    assert "paperscope:" in done.stderr


# -- damaged and foreign files ---------------------------------------------------------------


@pytest.mark.parametrize("damage", ["garbage", "truncated", "zeroed-pages"])
def test_damaged_list_gives_a_clear_message_and_keeps_the_bytes(rl_home: Path, damage: str) -> None:
    path = db(rl_home)
    checkpoint(path)
    good = path.read_bytes()
    if damage == "garbage":
        bad = os.urandom(len(good))
    elif damage == "truncated":
        bad = good[: len(good) // 3]
    else:  # a valid header, then pages of zeros
        bad = good[:100] + b"\x00" * (len(good) - 100)
    path.write_bytes(bad)
    for side in ("-wal", "-shm"):
        Path(f"{path}{side}").unlink(missing_ok=True)
    done = rl(rl_home, "list")
    clean(done)
    assert "damaged" in done.stderr or "not a reading-list database" in done.stderr
    kept = [p for p in path.parent.iterdir() if p.read_bytes() == bad]
    assert kept, "the damaged bytes are gone"
    if kept[0] != path:
        assert "corrupt" in kept[0].name  # the new name says why
        assert str(kept[0].name) in done.stderr  # and the user is told where it went
    assert FIRST not in done.stdout  # nothing was made up


def test_garbage_wal_beside_a_good_list_loses_nothing(rl_home: Path) -> None:
    path = db(rl_home)
    checkpoint(path)
    Path(f"{path}-wal").write_bytes(os.urandom(8192))
    done = rl(rl_home, "list")
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert FIRST in done.stdout and SECOND in done.stdout


def test_foreign_sqlite_database_is_not_changed(rl_home: Path) -> None:
    """A SQLite file of another program where the list should be: refused, left as it was."""
    path = db(rl_home)
    for side in ("", "-wal", "-shm"):
        Path(f"{path}{side}").unlink(missing_ok=True)
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE bookmarks (url TEXT, folder TEXT)")
        conn.execute("INSERT INTO bookmarks VALUES ('https://example.org', 'news')")
    conn.close()
    before = path.read_bytes()
    done = rl(rl_home, "add", FIRST)
    assert "Traceback" not in done.stderr
    if done.returncode == 0:
        # Accepted by migrating: the other program's rows must then still be somewhere.
        kept = [p for p in path.parent.iterdir() if p.is_file() and p.read_bytes() == before]
        assert kept or path.read_bytes() == before
    else:
        clean(done)
        assert "not a PaperScope reading list" in done.stderr
        with sqlite3.connect(path) as conn:
            rows = conn.execute("SELECT url, folder FROM bookmarks").fetchall()
        conn.close()
        assert rows == [("https://example.org", "news")]


def test_directory_in_place_of_the_list(rl_home: Path) -> None:
    path = db(rl_home)
    for side in ("", "-wal", "-shm"):
        Path(f"{path}{side}").unlink(missing_ok=True)
    path.mkdir()
    (path / "precious.txt").write_text("mine")
    done = rl(rl_home, "add", FIRST)
    assert done.returncode != 0
    clean(done)
    assert (path / "precious.txt").read_text() == "mine"


# -- locks ---------------------------------------------------------------------------------------

HOLDER = """
import sqlite3, sys, time
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("BEGIN EXCLUSIVE")
conn.execute("UPDATE bookmarks SET note = 'holder' WHERE paper_id = 'none'")
print("locked", flush=True)
time.sleep(float(sys.argv[2]))
conn.execute("COMMIT")
"""


def hold(path: Path, seconds: float) -> subprocess.Popen[str]:
    """A process that holds an exclusive lock on ``path`` for ``seconds``."""
    proc = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(path), str(seconds)], stdout=subprocess.PIPE, text=True
    )
    assert proc.stdout is not None and proc.stdout.readline().strip() == "locked"
    return proc


@pytest.mark.slow
def test_a_short_lock_is_waited_for(rl_home: Path) -> None:
    holder = hold(db(rl_home), 2.5)
    try:
        done = rl(rl_home, "note", SECOND, "written after the wait")
    finally:
        holder.wait(timeout=30)
    assert done.returncode == 0, done.stderr
    assert stored(rl_home)[SECOND] == "written after the wait"


@pytest.mark.slow
def test_a_long_lock_gives_a_clear_error_and_changes_nothing(rl_home: Path) -> None:
    holder = hold(db(rl_home), 30)
    try:
        done = rl(rl_home, "note", FIRST, "lost?")
    finally:
        holder.kill()
        holder.wait(timeout=30)
    assert done.returncode == 1
    clean(done)
    assert "locked" in done.stderr
    assert stored(rl_home) == {FIRST: "keep me", SECOND: ""}


# -- read-only and full (private mount namespaces) -------------------------------------------


NO_NAMESPACE = namespace_problem()
needs_namespace = pytest.mark.skipif(NO_NAMESPACE is not None, reason=str(NO_NAMESPACE))


def in_namespace(setup: str, argv: list[str]) -> list[str]:
    """``argv`` run after the shell commands ``setup`` in a private mount namespace."""
    script = f'{setup} && exec "$@"'
    return ["unshare", "-m", "--propagation", "private", "sh", "-c", script, "sh", *argv]


@needs_namespace
def test_read_only_list_file(rl_home: Path) -> None:
    path = db(rl_home)
    checkpoint(path)
    ro = f"mount --bind -o ro {path} {path}"
    done = run(rl_home, in_namespace(ro, rl_cmd("note", FIRST, "lost?")))
    assert done.returncode == 1
    clean(done)
    assert "read-only" in done.stderr
    listed = run(rl_home, in_namespace(ro, rl_cmd("list")))
    assert listed.returncode == 0 and FIRST in listed.stdout  # reading still works
    assert stored(rl_home) == {FIRST: "keep me", SECOND: ""}


@needs_namespace
def test_read_only_data_folder(rl_home: Path) -> None:
    data = db(rl_home).parent
    checkpoint(db(rl_home))
    ro = f"mount --bind -o ro {data} {data}"
    done = run(rl_home, in_namespace(ro, rl_cmd("note", FIRST, "lost?")))
    assert done.returncode != 0
    clean(done)
    assert "writable" in done.stderr or "read-only" in done.stderr
    assert stored(rl_home) == {FIRST: "keep me", SECOND: ""}


FULL_DISK = """
set -e
data="$1"; shift
cp -a "$data" "$data.copy"
mount -t tmpfs -o size=160k tmpfs "$data"
cp -a "$data.copy/." "$data/"
# fill what is left of the small disk
dd if=/dev/zero of="$data/filler" bs=4k 2>/dev/null || true
set +e
"$@" note {first} "$(head -c 100000 /dev/zero | tr '\\0' x)"
echo "exit=$?"
rm -f "$data/filler"
"$@" list --json
"""


@needs_namespace
def test_full_disk_write_fails_cleanly_and_loses_nothing(rl_home: Path) -> None:
    data = db(rl_home).parent
    checkpoint(db(rl_home))
    script = FULL_DISK.replace("{first}", FIRST)
    base = rl_cmd()
    argv = ["unshare", "-m", "--propagation", "private", "sh", "-c", script, "sh", str(data)]
    done = run(rl_home, [*argv, *base], timeout=120)
    shutil.rmtree(f"{data}.copy", ignore_errors=True)
    assert "exit=1" in done.stdout, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    assert "full" in done.stderr
    assert '"note": "keep me"' in done.stdout  # read back inside the full disk
