"""The three engines behind one call, and their indexes built once and cached.

PaperScope is driven through its API (``index_builder.search.engine.SearchIndex``);
the peers are in :mod:`tests.benchmarks.peers`. Built indexes of synthetic
corpora are kept under ``tests/benchmarks/.cache/`` (gitignored), named by
corpus size, seed, generator version and data digest; the product's own
freshness check rebuilds one whose schema or library changed.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from index_builder.model import Paper
from tests.benchmarks.peers import Fts5Index, LinearScan

CACHE = Path(__file__).resolve().parent / ".cache"
SearchFn = Callable[[str, bool], int]
"""``search(query, prefix) -> total hits``; the engine's whole answer is computed."""

LIMIT = 200
HIGHLIGHT_TOP = 200


@dataclass
class Built:
    """An engine ready to query, with what its build cost."""

    name: str
    search: SearchFn
    build_s: float
    size_bytes: int
    cached: bool = False
    built_at: str = ""
    close: Callable[[], None] = lambda: None
    typed: Built | None = None
    """For PaperScope: the same index queried as the TUI does (last word a prefix, always)."""
    index: Any = None
    """For PaperScope: its ``SearchIndex``."""


def folder_bytes(folder: Path) -> int:
    """Bytes of every file under ``folder``."""
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def _record(path: Path) -> dict[str, Any] | None:
    try:
        data: dict[str, Any] = json.loads(path.read_text())
        return data
    except (OSError, ValueError):
        return None


def _write_record(path: Path, data: dict[str, Any]) -> None:
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(data, indent=1))
    os.replace(tmp, path)


def paperscope(papers: Sequence[Paper], folder: Path, fingerprint: str, *, fresh: bool) -> Built:
    """PaperScope's index of ``papers`` in ``folder``: reused when fresh, else built and timed."""
    from index_builder.search.engine import SearchIndex
    from index_builder.search.folder import read_marker

    folder.parent.mkdir(parents=True, exist_ok=True)
    record_path = folder.parent / f"{folder.name}.build.json"
    index = SearchIndex(folder, papers, fingerprint)
    record = _record(record_path)
    # The build time on record counts only for the very index on disk.
    cached = not fresh and record is not None and index.is_fresh()
    cached = cached and record is not None and record.get("marker") == read_marker(folder)
    if not cached:
        started = time.perf_counter()
        index.build()
        record = {
            "seconds": time.perf_counter() - started,
            "papers": len(papers),
            "at": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
            "marker": read_marker(folder),
        }
        _write_record(record_path, record)
    assert record is not None
    index.ensure()

    def search(query: str, prefix: bool) -> int:
        return _shown(index.search(query, limit=LIMIT, prefix=prefix))

    def search_typed(query: str, prefix: bool) -> int:
        return _shown(index.search(query, limit=LIMIT, prefix=True))

    typed = Built("PaperScope, prefix on", search_typed, 0.0, 0)
    return Built(
        "PaperScope",
        search,
        float(record["seconds"]),
        folder_bytes(folder),
        cached,
        str(record["at"]),
        index.close,
        typed,
        index,
    )


def _shown(result: Any) -> int:
    """The total, once the first hit's abstract spans are found (the paper the TUI shows)."""
    if result.hits:
        _ = result.hits[0].abstract_spans
    return int(result.total)


def fts5(papers: Sequence[Paper], path: Path | None, *, fresh: bool) -> Built:
    """The FTS5 peer, in memory (``path`` None) or cached in a file."""
    record_path = path.with_suffix(".build.json") if path else None
    record = _record(record_path) if record_path else None
    if path is not None and record is not None and path.exists() and not fresh:
        index = Fts5Index(path)
        cached = True
    else:
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.unlink(missing_ok=True)
        started = time.perf_counter()
        index = Fts5Index.build(papers, path or ":memory:")
        record = {
            "seconds": time.perf_counter() - started,
            "papers": len(papers),
            "at": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        }
        if record_path is not None:
            _write_record(record_path, record)
        cached = False

    def search(query: str, prefix: bool) -> int:
        return index.search(query, limit=LIMIT, prefix=prefix, highlight_top=HIGHLIGHT_TOP)[0]

    return Built(
        "SQLite FTS5",
        search,
        float(record["seconds"]),
        index.size_bytes(),
        cached,
        str(record["at"]),
        index.close,
    )


def linear(papers: Sequence[Paper]) -> Built:
    """The linear-scan peer (its 'build' is lower-casing every record)."""
    started = time.perf_counter()
    scan = LinearScan(papers)
    elapsed = time.perf_counter() - started

    def search(query: str, prefix: bool) -> int:
        return scan.search(query, limit=LIMIT, prefix=prefix, highlight_top=HIGHLIGHT_TOP)[0]

    return Built("linear scan", search, elapsed, 0)
