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


HEAVY = ("numpy", "scipy", "sklearn")
"""The vectors' libraries: imported when vectors are first used, never on the way to the
first frame (about 1 s of imports and 40 MB together; README, "For you")."""


def test_importing_the_core_does_not_import_numpy_scipy_or_sklearn() -> None:
    bad = loaded_after_importing(core_modules(), HEAVY)
    assert bad == "", f"index_builder imported: {bad}"


def test_the_app_and_the_command_line_do_not_import_them_before_use() -> None:
    bad = loaded_after_importing(["tui.app", "tui.cli.main", "tui.__main__"], HEAVY)
    assert bad == "", f"the app imported: {bad}"
