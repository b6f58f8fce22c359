"""What a conference's official feed brings to the merge: venues, ids, official abstracts.

- A row's venue key (``TableRow.venue_key``) puts it in a namespace: ``""`` for the table's
  conference (ICML 2026, whose feed describes the same events as the bundled table),
  the key otherwise. Papers of other venues get ids ``<key>:<event id>``
  (``neurips2025:119718``), which cannot collide with the table's numbers.
- The same event in a feed and a table is one row; the feed's value wins wherever
  both have one (:func:`combine`).
- A paper's official abstract is its feed record's inline ``abstract`` or the entry
  of its venue's abstracts file. A list abstract whose text equals an official
  abstract once whitespace and markup are set aside is that paper's, with certainty
  (:func:`certain_joins`).
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Callable, Mapping, Sequence

from index_builder import venues
from index_builder.model import filled
from index_builder.sources.types import SourceData, TableRow

TABLE_KEY = venues.DEFAULT.key
TABLE_VENUE = venues.DEFAULT.name
"""The conference of the paper table (the bundled one, and tables in its format)."""
_WORDS = re.compile(r"[^\W_]+")
_ASCII_MARKUP = bytes(c if c < 128 and chr(c).isalnum() else 0x20 for c in range(256))
"""Bytes table: an ASCII letter or digit stays, anything else (``_`` too) becomes a space."""

Official = dict[tuple[str, int], tuple[str, str]]
"""``(namespace, event id) -> (official abstract, file name)``."""


def namespace(row: TableRow) -> str:
    """``""`` for the table's venue, else the row's venue key."""
    return "" if row.venue_key in ("", TABLE_KEY) else row.venue_key


def paper_id(row: TableRow, event_id: int | None = None) -> str:
    """The id of the paper (or alias of the talk ``event_id``) this row stands for."""
    ns, number = namespace(row), row.event_id if event_id is None else event_id
    return f"{ns}:{number}" if ns else str(number)


def venue_name(row: TableRow) -> str:
    """What the paper's ``venue`` says: ``ICML 2026`` for the table's rows."""
    ns = namespace(row)
    known = venues.venue(ns) if ns else venues.DEFAULT
    return known.name if known else ns


def combine(first: TableRow, second: TableRow) -> TableRow:
    """One event seen twice: a feed's values win where both have one; two tables: the first."""
    if first.venue_key:
        feed, other = first, second
    elif second.venue_key:
        feed, other = second, first
    else:
        return first
    return filled(feed, other, paper=filled(feed.paper, other.paper))


def add_talk(talks: list[TableRow], poster_id: int, row: TableRow) -> None:
    """Add an oral's talk to its paper's talks; the same talk from a feed and a table is one."""
    if row.event_id == poster_id:
        return
    for n, talk in enumerate(talks):
        if talk.event_id == row.event_id:
            talks[n] = combine(talk, row)
            return
    talks.append(row)


def official_abstracts(parsed: Sequence[SourceData]) -> Official:
    """Every abstracts file's entries, keyed by namespace and event id (first file wins)."""
    out: Official = {}
    for data in parsed:
        ns = "" if data.venue in ("", TABLE_KEY) else data.venue
        for event_id, text in data.official.items():
            out.setdefault((ns, event_id), (text, data.path.name))
    return out


def official_of(row: TableRow, talks: Sequence[TableRow], files: Official) -> tuple[str, str]:
    """A paper's official abstract and the file that gave it (``""`` for inline/none)."""
    if row.paper.abstract_raw:
        return row.paper.abstract_raw, ""
    ns = namespace(row)
    for event_id in (row.event_id, *(t.event_id for t in talks)):
        if (ns, event_id) in files:
            return files[(ns, event_id)]
    for talk in talks:
        if talk.paper.abstract_raw:
            return talk.paper.abstract_raw, ""
    return "", ""


def markup_key(raw: str) -> str:
    """Text with whitespace, punctuation and markup characters set aside, case folded:
    its runs of letters and digits, lowercased, one space apart."""
    # Nearly every abstract is ASCII, where NFKC changes nothing and the bytes table
    # does what the expression does, a few times faster (a build keys ~13,000 texts).
    if raw.isascii():
        return " ".join(raw.encode().translate(_ASCII_MARKUP).decode().lower().split())
    return " ".join(_WORDS.findall(unicodedata.normalize("NFKC", raw))).casefold()


def text_key(raw: str) -> bytes | None:
    """A text's key for the certain joins: a 128-bit BLAKE2 digest of its
    :func:`markup_key` (``None`` when nothing is left of it). A digest stands for the
    key: 16 bytes kept rather than the text, and two keys of 20,000 texts meet by chance
    with a probability under 10^-29."""
    key = markup_key(raw)
    return _key_digest(key) if key else None


def official_keys(
    official: Mapping[int, str], key_of: Callable[[str], bytes | None] = text_key
) -> dict[bytes, int | None]:
    """Each official text's key (``key_of``: :func:`text_key`, or the same kept) and its
    row (``None``: two rows share the text)."""
    by_key: dict[bytes, int | None] = {}
    for row, text in official.items():
        digest = key_of(text)
        if digest is not None:
            by_key[digest] = None if digest in by_key else row
    return by_key


def certain_joins(
    official: Mapping[int, str],
    pool: Sequence[str],
    keyed: Mapping[bytes, int | None] | None = None,
) -> dict[int, int]:
    """``{pool index: row}`` for abstracts equal to exactly one row's official abstract.

    An official text that two rows share decides nothing; a row takes only the first
    pool abstract equal to its own (a second is left to the usual join). ``keyed``: the
    :func:`official_keys` of ``official``, when the caller has them (kept between builds).
    """
    by_key = official_keys(official) if keyed is None else keyed
    out: dict[int, int] = {}
    taken: set[int] = set()
    for index, raw in enumerate(pool):
        digest = text_key(raw)
        found = by_key.get(digest) if digest is not None else None
        if found is not None and found not in taken:
            out[index] = found
            taken.add(found)
    return out


def _key_digest(key: str) -> bytes:
    return hashlib.blake2b(key.encode("utf-8", "surrogatepass"), digest_size=16).digest()
