"""Sources and import files that are not regular files, or are huge: refused, never a hang.

A named pipe, ``/dev/zero`` or ``/dev/urandom`` given as ``--source`` (or to
``reading-list import``) would block forever or be read until memory runs out; each is
named as skipped and the rest loads. A file past the size cap is skipped with the cap
stated. Every command runs in a subprocess with a timeout, so a hang fails the test.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from index_builder.sources.files import MAX_FILE_BYTES
from tests.helpers.faults import paperscope
from tests.helpers.faults_cli import run_forked


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    """A named pipe that no program writes."""
    path = tmp_path / "papers.fifo"
    os.mkfifo(path)
    return path


@pytest.fixture
def rows(tmp_path: Path) -> Path:
    """A one-paper source that loads."""
    path = tmp_path / "rows.json"
    path.write_text(json.dumps([{"event_id": 88003, "title": "Rethinking Pipes"}]))
    return path


def test_pipe_and_device_sources_are_skipped(tmp_path: Path, fifo: Path, rows: Path) -> None:
    bad = [str(fifo), "/dev/zero", "/dev/urandom"]
    sources = [arg for path in (rows, *bad) for arg in ("--source", str(path))]
    home = tmp_path / "home"
    for command in (["search", "rethinking"], ["doctor"]):
        done = run_forked(home, paperscope("--no-bundled", *sources, *command), timeout=120)
        assert "Traceback" not in done.stderr
        out = done.stdout + done.stderr
        for path in bad:
            assert f"{path}: cannot read the file: not a regular file" in out
        if command[0] == "search":
            assert done.returncode == 0, done.stderr
            assert "88003" in done.stdout


def test_a_huge_source_is_skipped_with_the_cap_named(tmp_path: Path, rows: Path) -> None:
    huge = tmp_path / "huge.json"
    with huge.open("wb") as fh:  # sparse: no disk is used
        fh.truncate(MAX_FILE_BYTES + 1)
    argv = paperscope("--no-bundled", "--source", str(rows), "--source", str(huge))
    done = run_forked(tmp_path / "home", [*argv, "search", "rethinking"])
    assert done.returncode == 0, done.stderr
    assert "huge.json" in done.stderr and f"{MAX_FILE_BYTES // (1024 * 1024)} MB" in done.stderr
    assert "88003" in done.stdout


def test_import_from_a_pipe_does_not_hang(tmp_path: Path, fifo: Path) -> None:
    done = run_forked(tmp_path / "home", paperscope("reading-list", "import", str(fifo)))
    assert done.returncode == 1
    assert "Traceback" not in done.stderr and "not a regular file" in done.stderr
