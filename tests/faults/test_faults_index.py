"""Index faults on real files and real processes: SIGKILLed builds, stale locks, damage.

Builds of the whole bundled catalogue take seconds, so most cases work on a slice of
it (the two Massart papers and 40 others) built once per module and copied
per test; the acceptance scenario of issue 6 (a first build killed midway, then every
index file overwritten with garbage) and the killed rebuilds run the real CLI on the whole
catalogue, in a child forked from the test's process and killed at a moment of the build
seen in its files (:mod:`tests.helpers.faults_killed`), not at a moment of the clock.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import NoReturn

import pytest

from index_builder.catalogue.load import Catalogue
from index_builder.model import Paper
from index_builder.paths import Paths
from index_builder.search import folder as indexfiles
from index_builder.search.engine import SearchIndex
from tests.helpers.cli import run_cli
from tests.helpers.faults_killed import fork_cli
from tests.helpers.shared_builds import build_once, copy_home
from tests.helpers.waiting import wait_until
from tui.shared.context import Context

MASSART = "massart noise"
SLICE = 40
"""Papers of the slice besides the two Massart papers: enough for a build with phases to
kill it in (a progress report for each paper gathered) and every file to damage. Each of
the ~30 builds here costs ~0.14 s of CPU (150 papers: ~0.35 s)."""


def massart_titles(index: SearchIndex) -> list[str]:
    """Titles of the hits for ``massart noise`` that mention Massart."""
    result = index.search(MASSART)
    return [h.paper.title for h in result.hits if "Massart" in h.paper.title]


def cli(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``paperscope ARGS`` on ``home``, in this process (the killed builds are processes of
    their own); a rebuild's vectors worker forks from here, where its libraries are loaded."""
    return run_cli(*args, home=home, env={"COLUMNS": "200"})


def build_folders(cache: Path) -> list[Path]:
    """The temporary folders of index builds under way (or killed) in ``cache``."""
    return sorted(cache.glob("index.tmp-*"))


def holding(*patterns: str) -> Callable[[Path], bool]:
    """A moment of a build: its temporary folder holds a non-empty file of each pattern
    (none: the folder is made)."""

    def moment(cache: Path) -> bool:
        return any(
            all(any(f.stat().st_size for f in folder.glob(p)) for p in patterns)
            for folder in build_folders(cache)
        )

    return moment


def kill_when(args: tuple[str, ...], home: Path, moment: Callable[[Path], bool], what: str) -> int:
    """``paperscope ARGS`` on ``home`` in a forked child, SIGKILLed as soon as ``moment``
    holds for its cache folder (an event of the build's own, whatever the load does to its
    speed); its status as ``subprocess`` gives it (``-9`` when killed)."""
    cache = home / "cache"
    command = fork_cli(*args, home=home)
    try:
        wait_until(lambda: moment(cache) or command.ended(), timeout=300, every=0.01, what=what)
    finally:
        command.kill()
    return command.wait(timeout=30)


@pytest.fixture(scope="module")
def bundled(bundled_catalogue: Catalogue) -> tuple[tuple[Paper, ...], str]:
    """The bundled catalogue's papers and fingerprint (from the warm cache)."""
    return bundled_catalogue.papers, bundled_catalogue.fingerprint


@pytest.fixture(scope="module")
def small(bundled: tuple[tuple[Paper, ...], str]) -> tuple[Paper, ...]:
    """A slice of the bundled papers that holds both Massart papers."""
    papers = bundled[0]
    massart = [p for p in papers if "Massart" in p.title]
    assert len(massart) == 2
    others = [p for p in papers if p not in massart][:SLICE]
    return (*others[: SLICE // 2], massart[0], *others[SLICE // 2 :], massart[1])


@pytest.fixture(scope="module")
def pristine(small: tuple[Paper, ...], tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A complete index of the slice, built once per run (not once per worker that runs a
    test of this module); tests copy it."""

    def build(folder: Path) -> None:
        index = SearchIndex(folder / "index", small, "slice")
        assert index.ensure() is None
        index.close()

    return build_once(tmp_path_factory, "faults-index-slice", build) / "index"


@pytest.fixture
def copy(pristine: Path, tmp_path: Path) -> Iterator[Path]:
    """A private copy of the pristine slice index."""
    dest = tmp_path / "cache" / "index"
    shutil.copytree(pristine, dest)
    yield dest


def reopen(folder: Path, papers: tuple[Paper, ...], fingerprint: str = "slice") -> SearchIndex:
    """A fresh SearchIndex over ``folder`` (as the next start of the app would make)."""
    return SearchIndex(folder, papers, fingerprint)


# -- killed builds ------------------------------------------------------------------------


CLI_MOMENTS = {"folder-made": holding(), "gathering": holding("_MAIN_*.toc")}
"""Where ``paperscope index --rebuild`` is killed, seen in its temporary folder: just made;
Whoosh's table of contents written, the documents being gathered. (It was killed 0.5, 1
and 2 s after its start, which on a loaded machine was often before its build began; the
writing phase is killed on the slice, :func:`test_build_killed_at_many_moments_recovers`.)"""


@pytest.mark.slow
@pytest.mark.parametrize("moment", CLI_MOMENTS)
def test_killed_cli_rebuild_leaves_the_old_index_usable(
    warm_home: Path, tmp_path: Path, moment: str
) -> None:
    home = copy_home(warm_home, tmp_path / "home")
    status = kill_when(("index", "--rebuild"), home, CLI_MOMENTS[moment], f"the rebuild {moment}")
    assert status == -signal.SIGKILL, f"the rebuild ended ({status}) before {moment}"
    assert build_folders(home / "cache"), "the kill left no half-built folder to clean"
    root = home
    ctx = Context(paths=Paths(root / "config", root / "data", root / "cache").ensure())
    index = ctx.index()
    index.ensure()
    assert len(massart_titles(index)) == 2
    index.close()
    leftovers = [
        p.name for p in (home / "cache").iterdir() if ".tmp-" in p.name or ".old-" in p.name
    ]
    assert leftovers == []


MOMENTS = (0.0, 0.3, 0.6, 0.9)
"""Where the builds are killed: the share of the build's own progress reached (0: the
temporary folder is made; the gathering of documents, then the writing, follow)."""


def _build_and_exit(folder: Path, papers: tuple[Paper, ...], out: int) -> NoReturn:
    """In a forked child: build the index of ``papers`` into ``folder``, reporting on the
    pipe ``out`` (``building``, ``progress DONE TOTAL`` lines, ``built``); never returns."""
    status = 1
    try:
        with os.fdopen(out, "w") as lines:
            index = SearchIndex(folder, papers, "slice")
            print("building", file=lines, flush=True)
            index.build(lambda done, total: print("progress", done, total, file=lines, flush=True))
            print("built", file=lines, flush=True)
            status = 0
    finally:
        os._exit(status)  # never back into pytest


def kill_at_progress(folder: Path, papers: tuple[Paper, ...], share: float) -> tuple[int, str]:
    """Build the index of ``papers`` into ``folder`` in a process of its own and SIGKILL it
    as soon as it reports ``share`` of its work.

    The process is forked from this one, where the libraries and the papers are loaded
    (a fresh Python spent a second starting and two more importing what the vectors need
    before each kill). Returns its status as ``subprocess`` gives it (``-9`` when killed)
    and the last line it printed: the moment is the build's own, whatever the load on
    the machine does to its speed.
    """
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        _build_and_exit(folder, papers, write)
    os.close(write)
    last = ""
    with os.fdopen(read) as lines:
        for line in lines:
            last = line.strip()
            words = last.split()
            if words[:1] == ["progress"] and int(words[1]) >= share * int(words[2]):
                os.kill(pid, signal.SIGKILL)
                break
    _, status = os.waitpid(pid, 0)
    return -os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status), last


@pytest.mark.slow
@pytest.mark.parametrize("with_old", [False, True], ids=["first-build", "rebuild"])
def test_build_killed_at_many_moments_recovers(
    small: tuple[Paper, ...], pristine: Path, tmp_path: Path, with_old: bool
) -> None:
    folder = tmp_path / "cache" / "index"
    folder.parent.mkdir(parents=True)
    for share in MOMENTS:
        if with_old and not folder.exists():
            shutil.copytree(pristine, folder)
        status, last = kill_at_progress(folder, small, share)
        moment = f"killed at {share:.0%} of the build ({last})"
        assert status == -signal.SIGKILL, f"the build was not killed: it ended ({moment})"
        assert any(p.name != "index" for p in folder.parent.iterdir()), moment  # mid-build
        index = reopen(folder, small)
        index.ensure()
        assert len(massart_titles(index)) == 2, moment
        assert index.is_fresh()
        index.close()
        leftovers = [p.name for p in folder.parent.iterdir() if p.name != "index"]
        assert leftovers == [], moment
        if not with_old:
            shutil.rmtree(folder)


@pytest.mark.slow
def test_first_build_killed_then_garbage_cli_still_finds_massart(
    warm_home: Path, tmp_path: Path
) -> None:
    """Issue 6, "done when": the first build killed midway (it was: after 2 s; now once it
    is gathering the documents, whatever the load), then every index file garbage."""
    home = copy_home(warm_home, tmp_path / "home", with_index=False)
    status = kill_when(("index",), home, holding("_MAIN_*.toc"), "the first build gathering")
    assert status == -signal.SIGKILL, f"the first build ended ({status}) before it was killed"
    assert build_folders(home / "cache"), "the kill left no half-built folder"
    first = cli(home, "search", "massart", "noise")
    assert first.returncode == 0, first.stderr
    assert "Traceback" not in first.stderr
    assert first.stdout.count("Massart") == 2
    index_dir = home / "cache" / "index"
    files = [p for p in index_dir.iterdir() if p.is_file()]
    assert files
    for path in files:
        path.write_bytes(os.urandom(max(64, path.stat().st_size)))
    second = cli(home, "search", "massart", "noise")
    assert second.returncode == 0, second.stderr
    assert "Traceback" not in second.stderr
    assert second.stdout.count("Massart") == 2


# -- stale locks ---------------------------------------------------------------------------

HOLD_LOCK = """
import sys, time
from whoosh import index
ix = index.open_dir(sys.argv[1])
writer = ix.writer()
print("locked", flush=True)
time.sleep(60)
"""


def hold_lock(folder: Path) -> subprocess.Popen[str]:
    """A process that holds the Whoosh write lock of ``folder`` until killed."""
    proc = subprocess.Popen(
        [sys.executable, "-c", HOLD_LOCK, str(folder)], stdout=subprocess.PIPE, text=True
    )
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "locked"
    return proc


def test_lock_of_a_killed_writer_does_not_block(copy: Path, small: tuple[Paper, ...]) -> None:
    proc = hold_lock(copy)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=10)
    assert (copy / "MAIN_WRITELOCK").exists()  # the lock file stays behind
    index = reopen(copy, small)
    assert index.ensure() is None
    assert len(massart_titles(index)) == 2
    index.build()  # a rebuild is not blocked either
    assert len(massart_titles(index)) == 2
    index.close()


def test_lock_held_by_a_live_process_blocks_neither_search_nor_rebuild(
    copy: Path, small: tuple[Paper, ...]
) -> None:
    proc = hold_lock(copy)
    try:
        index = reopen(copy, small)
        index.ensure()
        assert len(massart_titles(index)) == 2
        index.build()
        assert len(massart_titles(index)) == 2
        index.close()
    finally:
        proc.kill()
        proc.wait(timeout=10)


def test_leftover_build_folders_of_dead_processes_are_removed(
    copy: Path, small: tuple[Paper, ...]
) -> None:
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)  # fmt: skip
    pid = int(dead.stdout)
    for name in (f"index.tmp-{pid}-dead", f"index.old-{pid}-dead"):
        junk = copy.parent / name
        junk.mkdir()
        (junk / "_MAIN_1.toc").write_bytes(b"half a build")
    index = reopen(copy, small)
    index.ensure()
    assert sorted(p.name for p in copy.parent.iterdir()) == ["index"]
    assert len(massart_titles(index)) == 2
    index.close()


# -- damaged files -------------------------------------------------------------------------


def _garbage(path: Path) -> None:
    path.write_bytes(os.urandom(max(64, path.stat().st_size)))


def _truncate(path: Path) -> None:
    with path.open("r+b") as handle:
        handle.truncate(path.stat().st_size // 2)


def _empty(path: Path) -> None:
    path.write_bytes(b"")


DAMAGES = {"garbage": _garbage, "truncated": _truncate, "emptied": _empty}


def index_files(folder: Path, *, marker: bool) -> list[Path]:
    """The files of an index folder, with or without the build marker."""
    return [
        p
        for p in sorted(folder.iterdir())
        if p.is_file() and p.name != "MAIN_WRITELOCK" and (marker or p.name != indexfiles.MARKER)
    ]


@pytest.mark.parametrize("damage", sorted(DAMAGES))
def test_damaged_index_files_are_rebuilt_with_a_notice(
    copy: Path, small: tuple[Paper, ...], damage: str
) -> None:
    """Every file but the build marker damaged: the next start rebuilds and says so."""
    for path in index_files(copy, marker=False):
        DAMAGES[damage](path)
    index = reopen(copy, small)
    notice = index.ensure()
    assert notice and "rebuilt" in notice
    assert len(massart_titles(index)) == 2
    index.close()


@pytest.mark.parametrize("damage", sorted(DAMAGES))
def test_every_index_file_damaged_is_rebuilt(
    copy: Path, small: tuple[Paper, ...], damage: str
) -> None:
    """The marker damaged too: rebuilt with a notice, and search works."""
    for path in index_files(copy, marker=True):
        DAMAGES[damage](path)
    index = reopen(copy, small)
    notice = index.ensure()
    assert notice and "rebuilt" in notice  # the user is told
    assert len(massart_titles(index)) == 2
    assert index.is_fresh()
    index.close()


@pytest.mark.parametrize("victim", ["toc", "segment", "vocabulary", "marker", "all", "folder"])
def test_deleted_index_files_are_rebuilt(copy: Path, small: tuple[Paper, ...], victim: str) -> None:
    patterns = {
        "toc": "_MAIN_*.toc",
        "segment": "*.pst",
        "vocabulary": "paperscope-vocabulary.json",
        "marker": indexfiles.MARKER,
        "all": "*",
    }
    if victim == "folder":
        shutil.rmtree(copy)
    else:
        for path in copy.glob(patterns[victim]):
            path.unlink()
    index = reopen(copy, small)
    index.ensure()
    assert len(massart_titles(index)) == 2
    assert index.is_fresh()
    index.close()


def test_damage_while_open_is_recovered_by_the_next_search(
    copy: Path, small: tuple[Paper, ...]
) -> None:
    """Files damaged under a running app: a search fails once inside, rebuilds, answers."""
    index = reopen(copy, small)
    index.ensure()
    index.close()  # drop the open handles, as a crashed reader would have
    for path in index_files(copy, marker=False):
        _garbage(path)
    index = reopen(copy, small)
    result = index.search(MASSART)  # opens (and so rebuilds) on demand
    assert sum("Massart" in h.paper.title for h in result.hits) == 2
    assert index.notice and "rebuilt" in index.notice
    index.close()


# -- markers that lie ------------------------------------------------------------------------


def _edit_marker(folder: Path, **changes: object) -> None:
    path = folder / indexfiles.MARKER
    data = json.loads(path.read_text())
    data.update(changes)
    path.write_text(json.dumps(data))


def test_marker_with_another_fingerprint_rebuilds(copy: Path, small: tuple[Paper, ...]) -> None:
    _edit_marker(copy, fingerprint="someone-else")
    index = reopen(copy, small)
    assert not index.is_fresh()
    index.ensure()
    assert index.is_fresh()
    assert json.loads((copy / indexfiles.MARKER).read_text())["fingerprint"] == "slice"
    assert len(massart_titles(index)) == 2
    index.close()


def test_marker_claiming_other_papers_rebuilds(
    copy: Path, small: tuple[Paper, ...], bundled: tuple[tuple[Paper, ...], str]
) -> None:
    """The marker says "fresh" for a different paper set: the mismatch is caught on open."""
    others = tuple(bundled[0][SLICE + 10 : SLICE + 50]) + small[-1:]
    _edit_marker(copy, fingerprint="other", doc_count=len(others))
    index = reopen(copy, others, "other")
    assert index.is_fresh()  # only the marker is consulted here
    notice = index.ensure()
    assert notice and "rebuilt" in notice
    assert index.search(MASSART).total == 1
    assert index.state()["doc_count"] == len(others)
    index.close()


def test_marker_with_same_count_but_other_ids_rebuilds(
    copy: Path, small: tuple[Paper, ...], bundled: tuple[tuple[Paper, ...], str]
) -> None:
    mine = {p.id for p in small}
    others = tuple(p for p in bundled[0] if p.id not in mine)[: len(small)]
    index = reopen(copy, others, "slice")
    notice = index.ensure()
    assert notice and "rebuilt" in notice
    assert index.search(MASSART).total == sum("Massart" in p.title for p in others)
    index.close()


def test_marker_with_a_wrong_doc_count_is_corrected(copy: Path, small: tuple[Paper, ...]) -> None:
    _edit_marker(copy, doc_count=len(small) + 1000)
    index = reopen(copy, small)
    index.ensure()
    assert len(massart_titles(index)) == 2
    assert index.state()["doc_count"] == len(small)
    index.close()


# -- the CLI tells the user ------------------------------------------------------------------


@pytest.mark.parametrize("with_marker", [False, True], ids=["index-files", "every-file"])
@pytest.mark.parametrize("damage", sorted(DAMAGES))
def test_cli_reports_a_damaged_index_on_stderr(
    small_home: tuple[Path, Path], damage: str, with_marker: bool
) -> None:
    home, small_table = small_home
    args = ("--no-bundled", "--source", str(small_table), "search", "massart", "noise", "--json")
    for path in index_files(home / "cache" / "index", marker=with_marker):
        DAMAGES[damage](path)
    done = cli(home, *args)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert "rebuilt" in done.stderr
    hits = json.loads(done.stdout)["hits"]
    assert sum("Massart" in h["title"] for h in hits) == 2


# -- the catalogue cache -----------------------------------------------------------------------


def _build_small_home(folder: Path) -> None:
    """``small.csv`` (the bundled table cut down to its header, 30 rows and the Massart
    rows) and ``home``, made by ``--no-bundled --source small.csv search massart noise``."""
    from index_builder.paths import bundled_sources

    lines = bundled_sources()[0].read_text(encoding="utf-8").splitlines(keepends=True)
    keep = [*lines[:31], *(line for line in lines[31:] if "Massart" in line)]
    folder.mkdir(parents=True)
    table = folder / "small.csv"
    table.write_text("".join(keep), encoding="utf-8")
    args = ("--no-bundled", "--source", str(table), "search", "massart", "noise", "--json")
    done = cli(folder / "home", *args)
    assert done.returncode == 0, done.stderr
    assert sum("Massart" in h["title"] for h in json.loads(done.stdout)["hits"]) == 2


@pytest.fixture(scope="module")
def small_built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder of :func:`_build_small_home`, made once per test run (read only)."""
    return build_once(tmp_path_factory, "faults-small-table-home", _build_small_home)


@pytest.fixture
def small_home(small_built: Path, tmp_path: Path) -> tuple[Path, Path]:
    """A private copy of the small table's home (catalogue cache and index), and the table.

    The table stays where the home was made from it: the catalogue's fingerprint, and so
    the index marker's, names the source's path.
    """
    home = Path(shutil.copytree(small_built / "home", tmp_path / "home", symlinks=True))
    return home, small_built / "small.csv"


@pytest.mark.parametrize(
    "content",
    [
        b"garbage" * 1000,
        b"",
        b"\x80\x05\x95",  # a pickle header and nothing else
        b"\x80\x04K\x01.",  # a valid pickle of the wrong type (the int 1)
    ],
    ids=["garbage", "empty", "truncated", "wrong-type"],
)
def test_corrupt_catalogue_cache_is_rebuilt(small_home: tuple[Path, Path], content: bytes) -> None:
    home, small_table = small_home
    args = ("--no-bundled", "--source", str(small_table), "search", "massart", "noise")
    caches = list((home / "cache").glob("catalogue-*.pickle"))
    assert caches
    for path in caches:
        path.write_bytes(content)
    done = cli(home, *args)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert done.stdout.count("Massart") == 2
    assert all(path.stat().st_size > 1000 for path in caches)  # written again
