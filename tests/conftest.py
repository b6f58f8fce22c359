"""Fixtures shared by the whole suite: a private PaperScope home per test."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from index_builder.paths import HOME_ENV, Paths


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """An empty PAPERSCOPE_HOME for one test."""
    root = tmp_path / "home"
    monkeypatch.setenv(HOME_ENV, str(root))
    yield root


@pytest.fixture(scope="session")
def warm_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A PAPERSCOPE_HOME whose catalogue cache and index are built once per test session.

    Tests that only read may share it; pass it via ``monkeypatch.setenv(HOME_ENV, ...)``.
    """
    from tui.context import Context

    root = tmp_path_factory.mktemp("warm-home")
    ctx = Context(paths=Paths(root / "config", root / "data", root / "cache").ensure())
    ctx.index().ensure()
    ctx.index().close()
    return root
