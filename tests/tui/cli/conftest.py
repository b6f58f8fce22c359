"""Fixtures of the command-line tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from index_builder.paths import HOME_ENV


@pytest.fixture
def own_home(warm_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A home of the test's own (its reading list, its config) on the session's built cache."""
    root = tmp_path / "own-home"
    root.mkdir()
    (root / "cache").symlink_to(warm_home / "cache", target_is_directory=True)
    monkeypatch.setenv(HOME_ENV, str(root))
    return root
