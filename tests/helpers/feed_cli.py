"""``paperscope update`` against a site on 127.0.0.1, and what it stored.

:func:`update_cli` runs the command as a process, :func:`update_here` in the test's
process (for an update that needs nothing of a process of its own); :func:`stored` reads
the set in use (feed, abstracts, meta) through the venue's link; :func:`pages` cuts a feed
into pages linked by ``next``.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

from index_builder.paths import HOME_ENV
from tests.helpers.cli import run_cli
from tests.helpers.faults import paperscope
from tests.helpers.feed_data import ICML_ABSTRACTS, ICML_FEED
from tests.helpers.feed_server import Answer


def update_cli(
    home: Path,
    *args: str,
    env: dict[str, str] | None = None,
    timeout: float = 120,
    cwd: Path | None = None,
) -> subprocess.CompletedProcess[str]:
    """``paperscope update ARGS`` with ``home`` as PAPERSCOPE_HOME (run in ``cwd``)."""
    full = {**os.environ, HOME_ENV: str(home), **(env or {})}
    return subprocess.run(paperscope("update", *args), env=full, capture_output=True,
                          text=True, timeout=timeout, check=False, cwd=cwd)  # fmt: skip


def update_here(
    home: Path, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """``paperscope update ARGS`` with ``home`` as PAPERSCOPE_HOME, run in this process
    (:func:`tests.helpers.cli.run_cli`: the same parsing, command and output)."""
    return run_cli("update", *args, home=home, env=env)


def feeds(home: Path) -> Path:
    """The folder of the stored feeds."""
    return home / "data" / "feeds"


def stored(home: Path, venue: str = "icml2026") -> dict[str, bytes]:
    """The files of the set in use, by name (empty when nothing is stored)."""
    folder = feeds(home) / venue
    if not folder.is_dir():
        return {}
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


def pair(home: Path) -> tuple[bytes | None, bytes | None]:
    """The stored feed and abstracts (``None`` for a file not there)."""
    files = stored(home)
    return files.get(ICML_FEED), files.get(ICML_ABSTRACTS)


def one_line_error(done: subprocess.CompletedProcess[str], words: str) -> None:
    """Exit 1, nothing on stdout, and one stderr line that holds ``words``."""
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 1, (done.returncode, done.stdout, done.stderr)
    assert len(lines) == 1 and words in lines[0], done.stderr
    assert "Traceback" not in done.stderr


def pages(
    feed: dict[str, Any], size: int, url: str, *, count: Any = None, name: str = ICML_FEED
) -> dict[str, Answer]:
    """The feed in pages of ``size`` records: ``FEED`` then ``FEED?page=2`` … (absolute ``next``
    links under ``url``), each page with its own ETag; ``count`` overrides the count every
    page states; ``name`` is the feed's file name (ICML 2026's by default)."""
    results = feed["results"]
    chunks = [results[i : i + size] for i in range(0, len(results), size)]
    out: dict[str, Answer] = {}
    for n, chunk in enumerate(chunks, start=1):
        page_name = name if n == 1 else f"{name}?page={n}"
        link = f"{url}{name}?page={n + 1}" if n < len(chunks) else None
        page = {"count": feed["count"] if count is None else count, "next": link,
                "previous": None, "results": chunk}  # fmt: skip
        out[page_name] = Answer(json.dumps(page).encode(), etag=f'"p{n}"')
    return out
