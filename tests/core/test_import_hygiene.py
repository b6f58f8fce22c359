"""The core never depends on the UI: importing it must not import Textual."""

from __future__ import annotations

import pkgutil
import subprocess
import sys

import index_builder


def core_modules() -> list[str]:
    """Every module of the index_builder package."""
    return [m.name for m in pkgutil.walk_packages(index_builder.__path__, "index_builder.")]


def test_core_has_modules() -> None:
    assert "index_builder.model" in core_modules()


def test_importing_the_core_does_not_import_textual() -> None:
    names = core_modules()
    code = (
        "import importlib, sys\n"
        f"for name in {names!r}:\n"
        "    importlib.import_module(name)\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'tui'))\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert out.stdout.strip() == "", f"index_builder imported: {out.stdout.strip()}"
