"""Where downloaded feeds live: ``<data>/feeds/<venue key>/`` beside their HTTP validators.

Each venue's folder holds the files as the site names them
(``icml-2026-orals-posters.json``, ``icml-2026-abstracts.json``) and ``meta.json``
(where they came from, their ETag and Last-Modified, when). Files are replaced
atomically and only after a complete, valid download, so what is stored is always
whole and in use.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from index_builder.atomic import write_atomic
from index_builder.paths import Paths
from index_builder.venues import Venue

META = "meta.json"


def feeds_dir(paths: Paths) -> Path:
    """The folder of every stored feed."""
    return paths.data_dir / "feeds"


def venue_dir(paths: Paths, venue: Venue) -> Path:
    """The folder of one venue's stored feed."""
    return feeds_dir(paths) / venue.key


def stored_sources(paths: Paths) -> list[Path]:
    """Every stored feed file (catalogue sources), by venue and name."""
    root = feeds_dir(paths)
    if not root.is_dir():
        return []
    return sorted(
        p
        for p in root.glob("*/*.json")
        if p.name != META and not p.name.startswith(".") and p.is_file()
    )


def read_meta(paths: Paths, venue: Venue) -> dict[str, Any]:
    """The stored ``meta.json`` of a venue, ``{}`` when absent or unreadable."""
    try:
        data = json.loads((venue_dir(paths, venue) / META).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def read_stored(paths: Paths, venue: Venue, name: str) -> bytes | None:
    """A stored file's bytes, or ``None``."""
    try:
        return (venue_dir(paths, venue) / name).read_bytes()
    except OSError:
        return None


def save(paths: Paths, venue: Venue, files: dict[str, str], meta: dict[str, Any]) -> None:
    """Replace the given files (name -> text), the abstracts before the feed, then the meta."""
    folder = venue_dir(paths, venue)
    for name in sorted(files, key=lambda n: n == venue.feed_name):
        write_atomic(folder / name, files[name])
    write_atomic(folder / META, json.dumps(meta, indent=2, ensure_ascii=False) + "\n")
