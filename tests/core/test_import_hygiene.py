"""The core never depends on the UI: importing it must not import Textual."""

from __future__ import annotations

import pkgutil

import index_builder
from tests.helpers.imports import loaded_after_importing


def core_modules() -> list[str]:
    """Every module of the index_builder package."""
    return [m.name for m in pkgutil.walk_packages(index_builder.__path__, "index_builder.")]


def test_core_has_modules() -> None:
    assert "index_builder.model" in core_modules()


def test_importing_the_core_does_not_import_textual() -> None:
    bad = loaded_after_importing(core_modules(), ("textual", "tui"))
    assert bad == "", f"index_builder imported: {bad}"
