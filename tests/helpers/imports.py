"""Which packages importing some modules loads, asked of a fresh interpreter."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterable


def modules_after(code: str) -> list[str]:
    """Every module a fresh interpreter has loaded once it has run ``code``, sorted."""
    script = code + "\nimport sys\nprint(','.join(sorted(sys.modules)))\n"
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=60
    )
    return out.stdout.strip().split(",")


def loaded_after_importing(names: Iterable[str], tops: Iterable[str]) -> str:
    """The modules under ``tops`` loaded once ``names`` are imported, comma-joined."""
    code = "import importlib\n" + "".join(f"importlib.import_module({n!r})\n" for n in names)
    wanted = tuple(tops)
    return ",".join(m for m in modules_after(code) if m.split(".")[0] in wanted)
