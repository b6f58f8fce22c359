"""What sits at an export's or the config's path is respected (real processes, real files).

The exports run in processes forked from the test's whose standard output is a real pipe
(:func:`~tests.helpers.faults_piped.piped_cli`).

A symlink is written through (the link stays), a replaced file keeps its mode, a
character device and a named pipe are written in place, ``-o -`` and a path to the
process's own standard output print the export, and a named pipe nobody reads gives one
clear line instead of a hang.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import threading
from pathlib import Path

import pytest

from index_builder.atomic import write_atomic
from tests.helpers.faults import paperscope, run
from tests.helpers.faults_piped import piped_cli
from tests.helpers.shared_builds import build_once, copy_listed
from tui.shared.config import save_theme

PAPER_ID = "88002"


def _build_listed(folder: Path) -> None:
    """``rows.json`` (one paper) and ``home``, whose list holds it (real command line)."""
    folder.mkdir(parents=True)
    rows = folder / "rows.json"
    rows.write_text(json.dumps([{"event_id": int(PAPER_ID), "title": "Export Me Please"}]))
    done = run(folder / "home", export_argv(rows, "add", PAPER_ID))
    assert done.returncode == 0, done.stderr


@pytest.fixture(scope="module")
def listed_built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder of :func:`_build_listed`, made once per test run (read only)."""
    return build_once(tmp_path_factory, "faults-write-targets-listed", _build_listed)


@pytest.fixture
def listed(listed_built: Path, tmp_path: Path) -> tuple[Path, Path]:
    """A private copy of a home with one bookmark, and the source that names it."""
    return copy_listed(listed_built, tmp_path)


def export_argv(rows: Path, *args: str) -> list[str]:
    """argv of ``paperscope --no-bundled --source ROWS reading-list ARGS``."""
    return paperscope("--no-bundled", "--source", str(rows), "reading-list", *args)


def export(listed: tuple[Path, Path], target: str) -> subprocess.CompletedProcess[str]:
    """``reading-list export --format markdown -o TARGET`` in a process forked from the
    test's, its standard output a real pipe (a target may be that: ``-``,
    ``/proc/self/fd/1``); its timeout detects a hang."""
    home, rows = listed
    args = export_argv(rows, "export", "--format", "markdown", "-o", target)
    return piped_cli(*args[len(paperscope()) :], home=home)


def test_export_through_a_symlink_keeps_the_link(listed: tuple[Path, Path], tmp_path: Path) -> None:
    real = tmp_path / "dotfiles" / "list.md"
    real.parent.mkdir()
    real.write_text("old")
    real.chmod(0o644)
    link = tmp_path / "list.md"
    link.symlink_to(real)
    done = export(listed, str(link))
    assert done.returncode == 0, done.stderr
    assert link.is_symlink() and link.resolve() == real
    assert "Export Me Please" in real.read_text()
    assert stat.S_IMODE(real.stat().st_mode) == 0o644  # the mode of the replaced file


def test_export_keeps_the_mode_of_the_file_it_replaces(
    listed: tuple[Path, Path], tmp_path: Path
) -> None:
    target = tmp_path / "shared.md"
    target.write_text("old")
    target.chmod(0o640)
    assert export(listed, str(target)).returncode == 0
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    assert "Export Me Please" in target.read_text()


@pytest.mark.parametrize("target", ["-", "/proc/self/fd/1", "stdout-link"])
def test_export_to_standard_output(listed: tuple[Path, Path], tmp_path: Path, target: str) -> None:
    if target == "stdout-link":  # what /dev/stdout is: a link to /proc/self/fd/1
        link = tmp_path / "stdout"
        link.symlink_to("/proc/self/fd/1")
        target = str(link)
    done = export(listed, target)
    assert done.returncode == 0, done.stderr
    assert "Export Me Please" in done.stdout
    if target.endswith("stdout"):
        assert Path(target).is_symlink()


def test_export_to_a_character_device_writes_it_in_place(
    listed: tuple[Path, Path], tmp_path: Path
) -> None:
    null = tmp_path / "null"
    try:
        os.mknod(null, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    except (PermissionError, OSError) as exc:
        pytest.skip(f"cannot make a device node here: {exc}")
    done = export(listed, str(null))
    assert done.returncode == 0, done.stderr
    assert stat.S_ISCHR(null.stat().st_mode)  # still the device, not a regular file


def test_export_to_a_fifo_with_a_reader(listed: tuple[Path, Path], tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()), daemon=True)
    reader.start()
    done = export(listed, str(fifo))
    if done.returncode != 0:  # unblock the reader before failing
        with open(fifo, "wb"):
            pass
    reader.join(timeout=60)
    assert done.returncode == 0, done.stderr
    assert b"Export Me Please" in got[0]
    assert stat.S_ISFIFO(fifo.stat().st_mode)


def test_export_to_a_fifo_nobody_reads_does_not_hang(
    listed: tuple[Path, Path], tmp_path: Path
) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    done = export(listed, str(fifo))  # a hang is the fork's timeout: the test fails
    assert done.returncode == 1
    assert "Traceback" not in done.stderr and "no program is reading" in done.stderr
    assert stat.S_ISFIFO(fifo.stat().st_mode)


def test_export_to_a_folder_is_refused(listed: tuple[Path, Path], tmp_path: Path) -> None:
    folder = tmp_path / "folder"
    folder.mkdir()
    (folder / "mine.txt").write_text("mine")
    done = export(listed, str(folder))
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert (folder / "mine.txt").read_text() == "mine"


def test_saving_the_theme_writes_through_a_symlinked_config(tmp_path: Path) -> None:
    real = tmp_path / "dotfiles" / "paperscope.toml"
    real.parent.mkdir()
    real.write_text('# mine\n[keys]\nquit = "q"\n')
    real.chmod(0o644)
    link = tmp_path / "config.toml"
    link.symlink_to(real)
    save_theme(link, "nord")
    assert link.is_symlink()
    text = real.read_text()
    assert 'theme = "nord"' in text and "# mine" in text and 'quit = "q"' in text
    assert stat.S_IMODE(real.stat().st_mode) == 0o644


def test_a_new_file_gets_the_umask_mode(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        write_atomic(tmp_path / "new.txt", "x")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "new.txt").stat().st_mode) == 0o644
