"""Shared data for the catalogue tests: the bundled sources, their truth, cached builds.

The bundled catalogue itself is the session fixture ``bundled_catalogue`` (``tests/conftest.py``).
"""

from __future__ import annotations

import csv
import io
import json
from functools import lru_cache
from pathlib import Path

from index_builder.catalogue.joins.match import AbstractMatcher
from index_builder.catalogue.joins.score import TitleIndex
from index_builder.catalogue.merge import abstract_id
from index_builder.paths import bundled_sources
from index_builder.sources.reading import read_source
from index_builder.sources.types import AbstractEntry, TableRow
from tests.helpers.paths import FIXTURES

TABLE = bundled_sources()[0]
LISTS = bundled_sources()[1:]


@lru_cache(maxsize=1)
def truth() -> dict[str, int]:
    """Abstract id -> the event id of its row, checked by hand."""
    doc = json.loads((FIXTURES / "catalogue_truth.json").read_text(encoding="utf-8"))
    return {key: value["event_id"] for key, value in doc["truth"].items()}


@lru_cache(maxsize=1)
def posters() -> tuple[TableRow, ...]:
    """The Poster rows of the bundled table."""
    rows = read_source(TABLE, TABLE.read_bytes()).rows
    return tuple(r for r in rows if r.event_type == "Poster")


@lru_cache(maxsize=1)
def lists() -> tuple[tuple[AbstractEntry, ...], ...]:
    """The abstracts of each bundled list, in file order."""
    return tuple(tuple(read_source(p, p.read_bytes()).abstracts) for p in LISTS)


@lru_cache(maxsize=1)
def title_index() -> TitleIndex:
    """The title index of the bundled table, with its authors (as the catalogue builds it)."""
    return TitleIndex([r.paper.title_raw for r in posters()], [r.paper.authors for r in posters()])


def event_ids() -> list[int]:
    """Event ids of the bundled posters, aligned with :func:`title_index`."""
    return [r.event_id for r in posters()]


@lru_cache(maxsize=1)
def matcher() -> AbstractMatcher:
    """All 76 bundled abstracts scored against the bundled table."""
    texts = [e.text for entries in lists() for e in entries]
    return AbstractMatcher(title_index(), texts)


def bundled_files() -> list[list[int]]:
    """The bundled lists as index sequences into :func:`matcher`'s abstracts."""
    out, start = [], 0
    for entries in lists():
        out.append(list(range(start, start + len(entries))))
        start += len(entries)
    return out


def expected_rows() -> list[int]:
    """For each abstract of :func:`matcher`, the row index of its true paper."""
    row_of = {eid: i for i, eid in enumerate(event_ids())}
    return [row_of[truth()[abstract_id(e.text)]] for entries in lists() for e in entries]


LONE_ABSTRACT, LONE_HINT = "a17a1964769", "64328"
"""A bundled abstract that, listed without its neighbours, stays on its own with a right
"possibly the same as" hint (HeRo, of "Selective Disclosure Watermarking for LLMs")."""
JOINED_ABSTRACT, JOINED_ROW = "a63f9df05de", "62850"
"""A bundled abstract that joins its row by itself (ProEval's)."""
UNHINTED_ABSTRACT, UNHINTED_ROW = "a79714f934f", "64318"
"""A bundled abstract left on its own without a hint, its paper the likeliest candidate
(Adaptive Sharpness-Aware Minimization with a Polyak-type Step size)."""


def write_lone_list(path: Path, *, marked: bool = False) -> Path:
    """A list of three bundled abstracts: one that joins by itself, one left with a hint,
    one left without; ``marked``: the first with its opening word in Markdown bold (the
    same text as the conference's own once markup is set aside, but another id)."""
    texts = {abstract_id(e.text): " ".join(e.text.split()) for entries in lists() for e in entries}
    if marked:
        first, rest = texts[JOINED_ABSTRACT].split(" ", 1)
        texts[JOINED_ABSTRACT] = f"**{first}** {rest}"
    body = "\n\n".join(texts[a] for a in (JOINED_ABSTRACT, LONE_ABSTRACT, UNHINTED_ABSTRACT))
    path.write_text(f"My papers\n\n{body}\n", encoding="utf-8")
    return path


NEW_TITLE = "Watermarks Disclosed Selectively, Retitled by the Feed"
"""The title :func:`table_copy` gives a row, as an update of the feed may."""


def table_copy(folder: Path, *, retitle: str = "", drop: str = "", table: Path = TABLE) -> Path:
    """The real table (or the cut ``table``) with row ``retitle`` given :data:`NEW_TITLE`,
    or row ``drop`` left out."""
    text = table.read_text(encoding="utf-8")
    reader = csv.DictReader(io.StringIO(text))
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(reader.fieldnames or ()), lineterminator="\n")
    writer.writeheader()
    for row in reader:
        if row["event_id"] == drop:
            continue
        if row["event_id"] == retitle:
            row["title"] = NEW_TITLE
        writer.writerow(row)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / table.name
    path.write_text(out.getvalue(), encoding="utf-8")
    return path
