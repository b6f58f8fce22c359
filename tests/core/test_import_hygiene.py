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


HEAVY = ("numpy", "scipy", "sklearn")
"""The vectors' libraries: imported when vectors are first used, never on the way to the
first frame (together about 1 s of imports and 40 MB)."""


def _imported_after(statement: str) -> list[str]:
    code = (
        f"import sys\n{statement}\n"
        f"print(','.join(sorted({{m.split('.')[0] for m in sys.modules}} & set({HEAVY!r}))))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    return [name for name in out.stdout.strip().split(",") if name]


def test_importing_the_core_does_not_import_numpy_scipy_or_sklearn() -> None:
    names = core_modules()
    statement = f"import importlib\nfor name in {names!r}:\n    importlib.import_module(name)"
    assert _imported_after(statement) == []


def test_the_app_and_the_command_line_do_not_import_them_before_use() -> None:
    statement = "import tui.app, tui.cli.main, tui.__main__"
    assert _imported_after(statement) == []
