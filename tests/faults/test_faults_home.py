"""An unusable PaperScope home: a clear message and a non-zero exit, never a traceback.

The tests run as root, which ignores file modes, so "no permission" is made with what
stops root too: a file in the way, a path under ``/proc``, a name too long for the file
system, and a read-only bind mount in a private mount namespace (skipped, with the
reason, where one cannot be made).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from index_builder.paths import HOME_ENV
from tests.helpers.faults import namespace_problem
from tests.helpers.faults_cli import forked_cli

COMMANDS = {
    "bare": [],
    "search": ["search", "massart"],
    "show": ["show", "66407"],
    "dump": ["dump"],
    "index": ["index"],
    "doctor": ["doctor"],
    "cite": ["cite", "66407"],
    "reading-list": ["reading-list", "list"],
}


def paperscope(argv: list[str], home: str | Path) -> subprocess.CompletedProcess[str]:
    """``paperscope ARGV`` on ``home`` in a forked process (stdin closed: no TUI by mistake)."""
    return forked_cli(*argv, home=Path(home))


def spawned(
    argv: list[str], env: dict[str, str], prefix: tuple[str, ...] = ()
) -> subprocess.CompletedProcess[str]:
    """Start ``paperscope ARGV`` afresh with ``env`` (stdin closed), after ``prefix``."""
    return subprocess.run(
        [*prefix, sys.executable, "-m", "tui", *argv],
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def assert_clear_failure(done: subprocess.CompletedProcess[str], *words: str) -> None:
    """Non-zero exit, one ``paperscope:`` message that mentions ``words``, no traceback."""
    assert done.returncode != 0, done.stdout
    assert "Traceback" not in done.stderr, done.stderr
    assert done.stderr.startswith("paperscope: "), done.stderr
    for word in words:
        assert word in done.stderr, done.stderr


def env_with(home: str) -> dict[str, str]:
    """The environment with PAPERSCOPE_HOME set to ``home``."""
    return {**os.environ, HOME_ENV: home}


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_home_is_a_file(tmp_path: Path, command: str) -> None:
    home = tmp_path / "home"
    home.write_text("not a folder")
    done = paperscope(COMMANDS[command], home)
    assert_clear_failure(done, "home", "file is in the way")
    assert home.read_text() == "not a folder"


@pytest.mark.parametrize("sub", ["config", "data", "cache"])
def test_a_file_in_place_of_one_folder(tmp_path: Path, sub: str) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (home / sub).write_text("mine")
    done = paperscope(COMMANDS["search"], home)
    assert_clear_failure(done, sub)
    assert (home / sub).read_text() == "mine"


@pytest.mark.parametrize("command", ["bare", "search", "reading-list"])
@pytest.mark.parametrize(
    "home",
    ["/proc/paperscope-home", "/proc/self/status/home", "/dev/null", "/dev/null/home"],
)
def test_home_where_nothing_can_be_created(command: str, home: str) -> None:
    done = paperscope(COMMANDS[command], home)
    assert_clear_failure(done, "home")


def test_home_name_too_long(tmp_path: Path) -> None:
    home = tmp_path / ("h" * 300)
    done = paperscope(COMMANDS["search"], home)
    assert_clear_failure(done, "home")


def test_platform_dirs_unusable_without_paperscope_home(tmp_path: Path) -> None:
    """No PAPERSCOPE_HOME and the XDG folders blocked by files: the same clear error."""
    blocker = tmp_path / "xdg"
    blocker.write_text("a file")
    env = {k: v for k, v in os.environ.items() if k != HOME_ENV}
    for name in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME"):
        env[name] = str(blocker)
    for command in ("bare", "search"):
        done = spawned(COMMANDS[command], env)
        assert_clear_failure(done, "home")


NO_NAMESPACE = namespace_problem()


@pytest.mark.skipif(NO_NAMESPACE is not None, reason=str(NO_NAMESPACE))
@pytest.mark.parametrize("command", ["bare", "search", "reading-list"])
@pytest.mark.parametrize("existing", [True, False], ids=["folders-exist", "empty-home"])
def test_read_only_home(tmp_path: Path, command: str, existing: bool) -> None:
    home = tmp_path / "home"
    home.mkdir()
    if existing:
        for sub in ("config", "data", "cache"):
            (home / sub).mkdir()
    setup = f'mount --bind -o ro {home} {home} && exec "$@"'
    prefix = ("unshare", "-m", "--propagation", "private", "sh", "-c", setup, "sh")
    done = spawned(COMMANDS[command], env_with(str(home)), prefix)
    assert_clear_failure(done, "home")
