"""Quitting is immediate, even in the middle of a first run's index build (real terminal).

The real app runs in a shell in tmux on a home with no index, so its start builds the
bundled index. ``q`` (after ``Esc``: the search box has the focus at start) and Ctrl+C
must give the shell prompt back at once, with the terminal restored, and leave no
half-written index: the next start removes what the killed build left and builds a
complete index (a ``paperscope index`` of a three-paper source on the same home: the
clean-up of dead builds' folders does not depend on the catalogue being built). The
moments just after a start are tried on an empty home (a first start ever); the quits
in the middle of the build on a home that holds the bundled catalogue's cache
(``CACHED``), so that the build they cut short is the index's and starts at once. The
time figure (≤ 0.5 s) comes from the benchmark: the waits here are generous and fail
saying what they waited for; that the quit cut the build short shows in the index left
behind (none complete), not in a clock.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from index_builder.paths import HOME_ENV
from index_builder.search import folder as indexfiles
from tests.helpers.faults_cli import forked_cli
from tests.helpers.shared_builds import copy_home
from tests.helpers.tmux import TmuxServer
from tests.helpers.waiting import wait_until

pytestmark = [
    pytest.mark.tmux,
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
]

PROMPT = "READY$ "


class Shell:
    """A bash in a private tmux server (its own socket), 120×36."""

    def __init__(self, home: Path) -> None:
        self.server = TmuxServer()  # paperscope-test-<pid>-<n>: this test's own
        self.socket = self.server.socket
        self.home = home

    def tmux(self, *args: str) -> str:
        """Run a tmux command on this server; return its output."""
        done = subprocess.run(["tmux", "-L", self.socket, *args], capture_output=True,
                              text=True, timeout=30, check=False)  # fmt: skip
        return done.stdout

    def start(self) -> None:
        """Start the shell with a recognisable prompt."""
        self.tmux("kill-server")
        env = f"env -i PATH={shlex.quote(os.environ.get('PATH', ''))} TERM=xterm-256color"
        self.tmux("new-session", "-d", "-s", "main", "-x", "120", "-y", "36",
                  f"{env} PS1={shlex.quote(PROMPT)} bash --norc --noprofile")  # fmt: skip
        assert wait_for(lambda: PROMPT.strip() in self.screen(), 20), self.screen()

    def screen(self) -> str:
        """The visible pane."""
        return self.tmux("capture-pane", "-p", "-t", "main")

    def run_app(self) -> None:
        """Launch PaperScope on the empty home, then print its exit status."""
        app = f"{shlex.quote(sys.executable)} -m tui"
        line = f"clear; {HOME_ENV}={shlex.quote(str(self.home))} {app}; echo EXIT=$?"
        self.tmux("send-keys", "-t", "main", "-l", line)
        self.tmux("send-keys", "-t", "main", "Enter")

    def keys(self, *keys: str) -> None:
        """Send tmux key names."""
        self.tmux("send-keys", "-t", "main", *keys)

    def close(self) -> None:
        """Stop the server (and anything still running in it) and remove its socket."""
        self.server.kill()


def wait_for(
    predicate: Callable[[], bool], seconds: float, what: str | Callable[[], str] = ""
) -> bool:
    """Poll ``predicate`` until it holds; fail, saying what was awaited, after ``seconds``.

    The timeouts are generous on purpose: these tests check that the app quits cleanly at
    each moment, not how fast (the benchmark measures that: ``tests/benchmarks/run.py``).
    """
    return wait_until(predicate, timeout=max(seconds, 30.0), what=what)


def showing(shell: Shell, what: str) -> Callable[[], str]:
    """What a wait for ``what`` says when it gives up: ``what`` and the screen then."""
    return lambda: f"{what}; the screen:\n{shell.screen()}"


def exited(shell: Shell) -> bool:
    """The app ended and the shell printed its status and a new prompt."""
    lines = [line for line in shell.screen().splitlines() if line.strip()]
    return len(lines) >= 2 and "EXIT=" in lines[-2] and lines[-1] == PROMPT.strip()


def processes_using(home: Path) -> list[str]:
    """Command lines of this user's processes that name ``home`` (app or build child)."""
    found = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit() or int(proc.name) == os.getpid():
            continue
        try:
            cmdline = (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode()
            environ = (proc / "environ").read_bytes()
        except OSError:
            continue
        if str(home).encode() in environ or str(home) in cmdline:
            found.append(cmdline)
    return [c for c in found if "tmux" not in c and "bash" not in c]


def pid_exists(pid: int) -> bool:
    """True while ``pid`` names a process (a zombie included)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


CACHED = pytest.mark.parametrize("shell", ["catalogue-cached"], indirect=True)
"""The test's home holds the bundled catalogue's cache (the index is still to build)."""


@pytest.fixture
def shell(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Shell]:
    """A shell in tmux, and an empty home for the app (or one with the catalogue: CACHED)."""
    home = tmp_path / "home"
    if getattr(request, "param", "") == "catalogue-cached":
        copy_home(request.getfixturevalue("warm_home"), home, with_index=False)
    term = Shell(home)
    term.start()
    try:
        yield term
    finally:
        term.close()


def assert_quit_cleanly(shell: Shell) -> None:
    """The prompt is back with status 0, nothing of the app runs, no index half-written."""
    # Far less than the build takes (seconds); the benchmark measures the real figure.
    wait_for(lambda: exited(shell), 30, showing(shell, "the prompt"))
    screen = shell.screen()
    assert "EXIT=0" in screen, screen
    assert "papers" not in screen, screen  # the main screen is back, not the app's
    assert wait_for(lambda: not processes_using(shell.home), 3), processes_using(shell.home)
    index_dir = shell.home / "cache" / "index"
    assert indexfiles.read_marker(index_dir) is None  # no index claims to be complete


NEXT_START_PAPERS = [
    {"event_id": 88101 + i, "title": f"Paper {i} of the next start"} for i in range(3)
]
"""The source of the next start: three papers, so that its index builds in a moment."""


def build_folders(home: Path) -> list[Path]:
    """The temporary folders of index builds under way (or cut short) in ``home``."""
    return list((home / "cache").glob("index.tmp-*"))


def assert_building(shell: Shell) -> None:
    """The index build is under way: its progress on screen and its folder made."""
    wait_for(lambda: "building index" in shell.screen(), 120, showing(shell, "the build"))
    assert wait_for(lambda: bool(build_folders(shell.home)), 30, "the build's folder")


def assert_next_start_builds(home: Path) -> None:
    """The next start removes what the cut-short build left and builds a complete index.

    The next start is ``paperscope --no-bundled --source three.json index`` on the same
    home, in a process forked from the test's (:func:`~tests.helpers.faults_cli.forked_cli`):
    what the killed build left lies beside the index folder whatever catalogue it was of,
    and every build clears away the folders of builds whose process is gone. That the
    build was cut short shows in its folder made before the quit (:func:`assert_building`)
    and no complete index after it; the folder itself may be gone: the quitting app kills
    its build's child and ends at once, and the build's thread, woken by the child's end,
    removes its folder if it gets to run before the process ends (on a loaded machine it
    can, and a check that the folder was left would fail though the build was cut short).
    """
    left = build_folders(home)
    assert indexfiles.read_marker(home / "cache" / "index") is None, "the build was not cut short"
    # A killed app whose shell died too is reaped by init a moment later; until then its
    # pid exists (a zombie) and its folder counts as a build still running.
    pids = [int(p.name.split("-")[1]) for p in left]
    assert wait_for(lambda: not any(pid_exists(pid) for pid in pids), 10)
    source = home.parent / "three.json"
    source.write_text(json.dumps(NEXT_START_PAPERS), encoding="utf-8")
    done = forked_cli("--no-bundled", "--source", str(source), "index", home=home, timeout=600)
    assert done.returncode == 0, done.stderr
    assert not build_folders(home)
    marker = indexfiles.read_marker(home / "cache" / "index")
    assert marker is not None and marker["doc_count"] == len(NEXT_START_PAPERS)


@CACHED
def test_q_during_the_first_build_quits_at_once(shell: Shell) -> None:
    shell.run_app()
    assert_building(shell)
    shell.keys("Escape")
    assert wait_for(lambda: "Search" in shell.screen(), 5)
    shell.keys("q")  # Esc then q: the app reads them as two keys even sent together
    assert_quit_cleanly(shell)
    assert_next_start_builds(shell.home)


def test_esc_q_early_in_a_first_start_gives_the_prompt(shell: Shell) -> None:
    # The search box has the focus at start, where q is a letter of the query: Esc
    # leaves it. Sent in one go, the two reach the app as the bytes of Alt+q (often
    # before it reads its first key), which the box takes as the Esc and q they were.
    shell.run_app()
    # The moment of the test: the app's own code runs (it has forked the child that reads
    # its first papers while Textual is imported) on an empty home. How fast the prompt
    # comes back is the benchmark's figure.
    wait_for(lambda: len(processes_using(shell.home)) >= 2, 30, "the app's first-look child")
    shell.keys("Escape", "q")
    wait_for(lambda: exited(shell), 30, showing(shell, "the prompt"))
    screen = shell.screen()
    assert "EXIT=0" in screen and "Traceback" not in screen, screen
    assert wait_for(lambda: not processes_using(shell.home), 3), processes_using(shell.home)
    assert indexfiles.read_marker(shell.home / "cache" / "index") is None


def test_ctrl_c_early_in_a_first_start_quits(shell: Shell) -> None:
    shell.run_app()
    wait_for(lambda: len(processes_using(shell.home)) >= 2, 30, "the app's first-look child")
    shell.keys("C-c")  # the moment of the test: the app is starting on an empty home
    wait_for(lambda: exited(shell), 30, showing(shell, "the prompt"))
    screen = shell.screen()
    assert "EXIT=" in screen and "Traceback" not in screen, screen
    assert wait_for(lambda: not processes_using(shell.home), 3), processes_using(shell.home)
    assert indexfiles.read_marker(shell.home / "cache" / "index") is None


@CACHED
def test_ctrl_c_in_the_search_box_during_the_build_quits(shell: Shell) -> None:
    shell.run_app()
    wait_for(lambda: "building index" in shell.screen(), 120, showing(shell, "the build"))
    shell.keys("-l", "massart noise")
    shell.keys("C-c")
    assert_quit_cleanly(shell)


@CACHED
def test_closing_the_terminal_mid_build_ends_the_app_and_its_build(shell: Shell) -> None:
    shell.run_app()
    assert_building(shell)
    assert processes_using(shell.home)
    shell.close()  # the terminal goes away: SIGHUP
    assert wait_for(lambda: not processes_using(shell.home), 3), processes_using(shell.home)
    assert indexfiles.read_marker(shell.home / "cache" / "index") is None
    assert_next_start_builds(shell.home)


def test_ctrl_c_during_paperscope_index_ends_it_and_leaves_no_index(
    warm_home: Path, tmp_path: Path
) -> None:
    # The catalogue is cached (SIGINT comes once the index build started, after it).
    home = copy_home(warm_home, tmp_path / "home", with_index=False)
    env = {**os.environ, HOME_ENV: str(home)}
    command = [sys.executable, "-m", "tui", "index"]
    proc = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        cache = home / "cache"
        assert wait_for(lambda: bool(list(cache.glob("index.tmp-*"))), 120), "no build started"
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=10) == 130
    finally:
        if proc.poll() is None:
            proc.kill()
    assert "Traceback" not in proc.stderr.read().decode()  # type: ignore[union-attr]
    assert indexfiles.read_marker(cache / "index") is None
    assert not list(cache.glob("index.tmp-*"))
