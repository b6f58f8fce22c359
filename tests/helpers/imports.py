"""Which packages importing some modules loads, asked of a fresh interpreter."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterable


def loaded_after_importing(names: Iterable[str], tops: Iterable[str]) -> str:
    """The modules under ``tops`` loaded once ``names`` are imported, comma-joined."""
    code = (
        "import importlib, sys\n"
        f"for name in {list(names)!r}:\n"
        "    importlib.import_module(name)\n"
        f"bad = sorted(m for m in sys.modules if m.split('.')[0] in {tuple(tops)!r})\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    return out.stdout.strip()
