"""Helpers of the fault tests: running ``paperscope`` in a subprocess and mount namespaces."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from index_builder.paths import HOME_ENV


def paperscope(*args: str) -> list[str]:
    """The argv of ``paperscope ARGS`` run from this checkout."""
    return [sys.executable, "-m", "tui", *args]


def run(
    home: Path, argv: list[str], timeout: float = 120, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """Run ``argv`` with ``home`` as PAPERSCOPE_HOME (and ``env`` added)."""
    full = {**os.environ, HOME_ENV: str(home), **(env or {})}
    return subprocess.run(
        argv, env=full, capture_output=True, text=True, timeout=timeout, check=False
    )


def namespace_problem() -> str | None:
    """None when ``unshare -m`` plus a read-only tmpfs work here, else why not."""
    if shutil.which("unshare") is None:
        return "no unshare(1) here"
    probe = subprocess.run(
        ["unshare", "-m", "--propagation", "private", "sh", "-c",
         "mount -t tmpfs -o size=64k tmpfs /mnt && mount -o remount,ro /mnt"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    return None if probe.returncode == 0 else f"cannot make a mount namespace: {probe.stderr}"


def in_namespace(setup: str, argv: list[str]) -> list[str]:
    """``argv`` run after the shell commands ``setup`` in a private mount namespace."""
    script = f'{setup} && exec "$@"'
    return ["unshare", "-m", "--propagation", "private", "sh", "-c", script, "sh", *argv]
