"""Every command the docs show as runnable runs (exit 0, no traceback) on the bundled data.

A fenced block whose info string is ``sh runnable`` in README.md or docs/*.md is a list of
shell lines; each runs in order, in one home (the bundled data, built once for the run), with
``paperscope`` on the PATH meaning this checkout's command line. Blocks marked only ``sh``
(installing, downloading from a conference site) are shown, not run.

A line that is ``paperscope ARGS``, perhaps with ``> FILE``, and nothing else a shell would
read (no variable, glob, pipe or list) runs in this process (:func:`tests.helpers.cli.run_cli`:
the same parsing and commands, without a Python start-up a line); any other line runs in
``bash``.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from index_builder.paths import HOME_ENV
from tests.helpers.cli import run_cli

ROOT = Path(__file__).resolve().parents[1]
FENCE = re.compile(r"^```sh runnable\n(.*?)^```", re.MULTILINE | re.DOTALL)


def runnable_blocks() -> list[tuple[str, list[str]]]:
    """``(file, lines)`` for each runnable block of the README and the docs."""
    files = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    found = []
    for path in files:
        for number, match in enumerate(FENCE.finditer(path.read_text(encoding="utf-8")), 1):
            lines = [
                ln for ln in match.group(1).splitlines() if ln.strip() and not ln.startswith("#")
            ]
            found.append((f"{path.relative_to(ROOT)}#{number}", lines))
    return found


BLOCKS = runnable_blocks()
SHELL_SYNTAX = set("$`\\*?[]{}~!|;&<()#\n")
"""Characters a shell may read as more than a word, quoted or not: such a line runs in bash."""


def as_command(line: str) -> tuple[list[str], str | None] | None:
    """``(ARGS, FILE)`` when ``line`` is ``paperscope ARGS`` (``> FILE``: its output goes
    to ``FILE``, else ``None``) with nothing else a shell would do; else ``None``."""
    if SHELL_SYNTAX & set(line) or line.count(">") > 1:
        return None
    words = shlex.split(line)
    target = None
    if ">" in line:
        if len(words) < 3 or words[-2] != ">":
            return None
        words, target = words[:-2], words[-1]
    if not words or words[0] != "paperscope":
        return None
    return words[1:], target


def test_the_docs_have_runnable_blocks() -> None:
    assert any(name.startswith("docs/guide.md") for name, _ in BLOCKS), BLOCKS


@pytest.mark.parametrize(("name", "lines"), BLOCKS, ids=[name for name, _ in BLOCKS])
def test_a_runnable_block_runs(
    name: str,
    lines: list[str],
    warm_home_copy: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    shims = tmp_path / "bin"
    shims.mkdir()
    shim = shims / "paperscope"
    shim.write_text(f'#!/bin/sh\nexec {shlex.quote(sys.executable)} -m tui "$@"\n')
    shim.chmod(0o755)
    env = {
        **os.environ,
        HOME_ENV: str(warm_home_copy),
        "PATH": f"{shims}{os.pathsep}{os.environ.get('PATH', '')}",
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
    }
    monkeypatch.chdir(tmp_path)
    for line in lines:
        command = as_command(line)
        if command is not None:
            args, target = command
            ran = run_cli(*args, home=warm_home_copy)
            assert ran.returncode == 0, f"{name}: `{line}` exited {ran.returncode}:\n{ran.stderr}"
            assert "Traceback" not in ran.stderr, f"{name}: `{line}`:\n{ran.stderr}"
            if target is not None:
                (tmp_path / target).write_text(ran.stdout, encoding="utf-8")
            continue
        done = subprocess.run(
            ["bash", "-c", line], cwd=tmp_path, env=env, capture_output=True, text=True,
            timeout=300, check=False,
        )  # fmt: skip
        assert done.returncode == 0, f"{name}: `{line}` exited {done.returncode}:\n{done.stderr}"
        assert "Traceback" not in done.stderr, f"{name}: `{line}`:\n{done.stderr}"
