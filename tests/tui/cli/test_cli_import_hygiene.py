"""The command line and what it shares with the app import no Textual (issue 28)."""

from __future__ import annotations

import pkgutil
import subprocess
import sys

import tui.cli
import tui.shared

TEXTUAL_FREE = ["tui.lifecycle.peek", "tui.lifecycle.exiting"]
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
    code = (
        "import importlib, sys\n"
        f"for name in {textual_free_modules()!r}:\n"
        "    importlib.import_module(name)\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'rich'))\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert out.stdout.strip() == "", f"the command line imported: {out.stdout.strip()}"
