"""A hostile ``config.toml`` (issue 36.4): a named pipe, ``/dev/zero``, TOML nested 1,000 deep.

Before, a pipe hung the first frame and ``doctor``, ``agenda``, ``show`` and ``cite``;
``/dev/zero`` ended ``doctor`` in a MemoryError; the deep nesting in a RecursionError.
Now only a regular file of at most 1 MB is read, and a file that cannot be read or
parsed is named in one line, with the defaults used. Each command runs in a process of
its own (forked from the test's: :func:`~tests.helpers.faults_cli.forked_cli`); a hang is
a ``TimeoutExpired``, the first frame is waited for in tmux.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from index_builder.paths import HOME_ENV, bundled_sources
from tests.helpers.cli import run_cli
from tests.helpers.cli_cut import bundled_cut, cut_flags
from tests.helpers.faults import paperscope
from tests.helpers.faults_cli import forked_cli
from tests.helpers.shared_builds import build_once
from tests.helpers.tmux import TmuxServer
from tests.helpers.waiting import wait_until, wait_until_stable


def _fifo(path: Path) -> None:
    os.mkfifo(path)


def _zero(path: Path) -> None:
    path.symlink_to("/dev/zero")


def _deep(path: Path) -> None:
    path.write_text("a = " + "[" * 1000 + "]" * 1000 + "\n")


def _huge(path: Path) -> None:
    path.write_text("# " + "x" * (2 * 1024 * 1024) + "\n")


CASES: dict[str, tuple[Callable[[Path], None], str]] = {
    "fifo": (_fifo, "not a regular file (a named pipe)"),
    "dev-zero": (_zero, "not a regular file (a device)"),
    "nested": (_deep, "nested too deep"),
    "huge": (_huge, "larger than 1 MB"),
}
PAPER = "64188"
COMMANDS = [["doctor"], ["agenda"], ["show", PAPER], ["cite", PAPER]]


@pytest.fixture
def built_home(warm_home: Path) -> Path:
    """A home whose catalogue and index are built (so each command only reads them): the
    run's warm home, read only (each test copies it)."""
    return warm_home


def _home_with(built_home: Path, tmp_path: Path, case: str) -> Path:
    home = Path(shutil.copytree(built_home, tmp_path / "home", symlinks=True))
    (home / "config").mkdir(exist_ok=True)
    CASES[case][0](home / "config" / "config.toml")
    return home


def _build_cut_home(folder: Path) -> None:
    """A home whose only source is the bundled table's rows of the paper the commands
    name, its catalogue cache and index built (by ``paperscope index``)."""
    done = run_cli(*cut_flags(bundled_cut(folder, [PAPER])), "index", home=folder / "home")
    assert done.returncode == 0, done.stderr


@pytest.fixture
def cut_home(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str]]:
    """The home of :func:`_build_cut_home`, built once per run (read only: each test
    copies it), and the options that make the cut its only source."""
    built = build_once(tmp_path_factory, "faults-config-cut-home", _build_cut_home)
    return built / "home", cut_flags(built / bundled_sources()[0].name)


@pytest.mark.parametrize("case", CASES)
def test_a_bad_config_is_named_and_every_command_runs(
    cut_home: tuple[Path, list[str]], tmp_path: Path, case: str
) -> None:
    """Each of :data:`COMMANDS` on one copy of the home with the bad config. The commands
    leave the home's files as they found them (and never open the pipe), so they share
    it: a copy of the home and a test of their own cost about as much as a command.

    The home's only source is the bundled table's rows of the paper they name: how a
    config is read does not depend on the catalogue, and every command read the 6,628
    papers of the bundled catalogue's cache first (0.1-0.2 s of CPU each, most of it)."""
    built, flags = cut_home
    home = _home_with(built, tmp_path, case)
    for command in COMMANDS:
        try:
            done = forked_cli(*flags, *command, home=home, timeout=60)
        except subprocess.TimeoutExpired:
            pytest.fail(f"paperscope {' '.join(command)} hung on a config that is a {case}")
        assert done.returncode == 0 and "Traceback" not in done.stderr, (command, done.stderr)
        said = [line for line in (done.stdout + done.stderr).splitlines() if "config" in line]
        if command == ["doctor"]:  # doctor names it in its report
            assert any(CASES[case][1] in line and "defaults used" in line for line in said), said
        if command[0] == "show":
            assert PAPER in done.stdout, done.stdout


@pytest.mark.tmux
@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
@pytest.mark.parametrize("case", CASES)
def test_the_first_frame_appears_and_names_the_config(
    built_home: Path, tmp_path: Path, tmux_server: TmuxServer, case: str
) -> None:
    home = _home_with(built_home, tmp_path, case)
    command = " ".join(shlex.quote(x) for x in paperscope())
    shell = f"env {HOME_ENV}={shlex.quote(str(home))} TERM=xterm-256color {command}"
    tmux_server("new-session", "-d", "-s", "app", "-x", "120", "-y", "36", shell)
    seen: set[str] = set()  # the notice may time out before the list has filled

    def shown() -> bool:
        screen = tmux_server.capture("app")
        seen.update(w for w in ("Search papers", "config ignored") if w in screen)
        return len(seen) == 2

    shown_both = wait_until(shown, timeout=60)
    screen = wait_until_stable(lambda: tmux_server.capture("app"))
    assert shown_both, f"waited for the first frame and the config notice, saw {seen}:\n{screen}"
