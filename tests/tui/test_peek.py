"""The first papers read in a forked child: the same papers, and nothing left running."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

import tui.lifecycle.peek
from index_builder.catalogue.load import Catalogue
from index_builder.paths import Paths
from tests.helpers.fork_signals import sigint_at_next_fork
from tui.lifecycle.peek import ForkedPeek
from tui.shared.context import Context

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork on this system")


def context(tmp_path: Path) -> Context:
    paths = Paths(tmp_path / "config", tmp_path / "data", tmp_path / "cache").ensure()
    return Context(paths=paths)


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_a_first_run_gets_the_table_peek_from_the_child(tmp_path: Path) -> None:
    ctx = context(tmp_path)
    peek = ForkedPeek(ctx.peek_catalogue)
    got = peek.result()
    expected = ctx.peek_catalogue()
    assert isinstance(got, Catalogue) and expected is not None
    assert not got.complete
    assert list(got.papers) == list(expected.papers)


def test_a_warm_start_gets_the_head_from_the_child(
    tmp_path: Path, warm_home: Path, bundled_catalogue: Catalogue
) -> None:
    paths = Paths(tmp_path / "config", tmp_path / "data", warm_home / "cache").ensure()
    ctx = Context(paths=paths)  # the run's warm cache, read only
    full = bundled_catalogue
    got = ForkedPeek(ctx.peek_catalogue).result()
    assert got is not None and not got.complete
    assert list(got.papers) == list(full.papers[: len(got)])
    assert got.fingerprint == full.fingerprint


def test_a_child_that_fails_gives_nothing_and_prints_nothing(
    capfd: pytest.CaptureFixture[str],
) -> None:
    def broken() -> Catalogue | None:
        raise RuntimeError("the sources cannot be read")

    assert ForkedPeek(broken).result() is None
    assert capfd.readouterr().err == ""


def test_a_child_that_does_not_answer_is_killed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tui.lifecycle.peek, "TIMEOUT_S", 0.2)

    def hangs() -> Catalogue | None:
        time.sleep(60)
        return None

    peek = ForkedPeek(hangs)
    pid = peek._pid
    assert pid is not None and alive(pid)
    assert peek.result() is None
    assert not alive(pid), "killed and reaped"


def test_quitting_kills_a_child_still_reading() -> None:
    def hangs() -> Catalogue | None:
        time.sleep(60)
        return None

    peek = ForkedPeek(hangs)
    pid = peek._pid
    assert pid is not None
    tui.lifecycle.peek.stop()
    os.waitpid(pid, 0)  # the app ends right after; here the test reaps it
    assert not alive(pid)


def test_bare_paperscope_forks_before_the_command_line_is_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``early_peek`` reads the default sources of ``PAPERSCOPE_HOME`` (a first run here)."""
    from tui.__main__ import early_peek

    monkeypatch.setenv("PAPERSCOPE_HOME", str(tmp_path / "home"))
    got = early_peek().result()
    expected = Context(paths=Paths.from_env().ensure()).peek_catalogue()
    assert got is not None and expected is not None
    assert list(got.papers) == list(expected.papers)


def test_a_ctrl_c_while_the_peek_forks_is_not_lost(tmp_path: Path) -> None:
    ctx = context(tmp_path)
    try:
        with sigint_at_next_fork(), pytest.raises(KeyboardInterrupt):
            ForkedPeek(ctx.peek_catalogue)
    finally:
        tui.lifecycle.peek.stop()
    assert not tui.lifecycle.peek._children or all(
        not alive(pid) for pid in tui.lifecycle.peek._children
    )
