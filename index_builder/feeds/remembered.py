"""Venues taken for one run (``update KEY --host HOST``), remembered beside their feed.

The feed of a venue that no release and no config knows is stored like any other; its
description (host, name, zone) is written to ``<data>/feeds/.<key>/venue.json`` so that
the next runs read its papers as that venue's (times, citations, ``venue:``) instead of
as papers of no venue. The config's ``[venues.KEY]`` and the built-in venues take
precedence. A description that cannot be read or checked is ignored.
"""

from __future__ import annotations

import json
from pathlib import Path

from index_builder.atomic import write_atomic
from index_builder.feeds.store import feeds_dir, sets_dir
from index_builder.paths import Paths
from index_builder.venue_config import VenueError, make_venue
from index_builder.venues import Venue

VENUE_FILE = "venue.json"


def remember(paths: Paths, venue: Venue) -> Path:
    """Write ``venue``'s description beside its stored sets; returns the file."""
    data = {
        "key": venue.key,
        "host": venue.host,
        "name": venue.name,
        "timezone": venue.timezone or None,
        "sites": {s.name: s.timezone for s in venue.sites} or None,
        "booktitle": venue.booktitle,
    }
    path = sets_dir(paths, venue) / VENUE_FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, json.dumps(data, indent=2, ensure_ascii=False) + "\n")
    return path


def remembered(paths: Paths) -> list[Venue]:
    """The venues remembered by :func:`remember` that still have a stored feed."""
    root = feeds_dir(paths)
    try:
        found = sorted(root.glob(f".*/{VENUE_FILE}"))
    except OSError:
        return []
    out: list[Venue] = []
    for path in found:
        venue = _read(path)
        if venue is not None and (root / venue.key).exists():
            out.append(venue)
    return out


def _read(path: Path) -> Venue | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(data, dict) or path.parent.name != f".{data.get('key')}":
            return None
        fields = {k: data.get(k) for k in ("name", "timezone", "sites", "booktitle")}
        return make_venue(str(data["key"]), data.get("host"), **fields)
    except (OSError, ValueError, KeyError, VenueError):
        return None
