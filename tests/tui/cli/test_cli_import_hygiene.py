"""The command line and what it shares with the app import no Textual (issue 28)."""

from __future__ import annotations

import pkgutil

import tui.cli
import tui.shared
from tests.helpers.imports import loaded_after_importing

TEXTUAL_FREE = ["tui.lifecycle.peek", "tui.lifecycle.exiting", "tui.lifecycle.startup"]
"""Lifecycle modules the bare command uses before Textual is imported."""


def textual_free_modules() -> list[str]:
    """Every module of tui.shared and tui.cli, and the lifecycle modules the CLI imports."""
    names = [m.name for m in pkgutil.walk_packages(tui.shared.__path__, "tui.shared.")]
    names += [m.name for m in pkgutil.walk_packages(tui.cli.__path__, "tui.cli.")]
    return ["tui.shared", "tui.cli", *names, *TEXTUAL_FREE]


def test_the_list_covers_the_shared_package_and_the_cli() -> None:
    names = textual_free_modules()
    assert {"tui.shared.context", "tui.shared.config", "tui.shared.clipboard"} <= set(names)
    assert {"tui.cli.main", "tui.cli.cite", "tui.cli.doctor"} <= set(names)


def test_importing_the_cli_and_the_shared_package_does_not_import_textual() -> None:
    bad = loaded_after_importing(textual_free_modules(), ("textual", "rich"))
    assert bad == "", f"the command line imported: {bad}"
