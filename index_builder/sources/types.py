"""What the source readers hand on: table rows, abstract entries, and each file's data.

Imports only :mod:`index_builder.model` and the records of structured files. Also the
one JSON loader of the readers (:func:`load_json`), failures translated to their error:
with :func:`~index_builder.sources.reading.decode`, one of the two doors through which
outside text enters, both making it terminal-safe.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from index_builder.model import Paper, SourceProblem, field_getter, pickled_as_call
from index_builder.slots_init import set_by_slots
from index_builder.sources.records import PaperRecord
from index_builder.text.safe import json_escapes_safe, json_strings_safe, safe_json


class SourceError(Exception):
    """A file that is a known format but cannot be read; the message names the reason."""


def load_json(
    text: str | bytes, error: type[Exception] = SourceError, *, made_safe: bool = False
) -> Any:
    """JSON text as data, every string in it made terminal-safe (:func:`safe_json`); every
    failure (syntax, nesting depth, huge numbers) is an ``error``. ``made_safe``: ``text``
    is a whole file already :func:`~index_builder.text.safe.safe` (no raw control is
    left in it to look for), as :func:`~index_builder.sources.reading.decode` gives it.

    The message says why: ``not valid JSON (Expecting value at line 3)``.
    """
    try:
        data = json.loads(text)
        # A 10 MB feed has ~340,000 strings; checking its text once spares visiting each.
        check = json_escapes_safe if made_safe else json_strings_safe
        return data if isinstance(text, str) and check(text) else safe_json(data)
    except json.JSONDecodeError as exc:
        raise error(f"not valid JSON ({exc.msg} at line {exc.lineno})") from exc
    except (ValueError, RecursionError) as exc:
        raise error(f"not valid JSON ({exc.__class__.__name__})") from exc


class SharedStrings(dict[str, str]):
    """Each text met, as the first string of its value (``shared[text]``): a reader makes
    the values many rows repeat (a session, a time, a room) one object, so the caches
    that pickle the rows and their papers store each once."""

    def __missing__(self, text: str) -> str:
        self[text] = text
        return text


@pickled_as_call
@set_by_slots
@dataclass(frozen=True, slots=True)
class TableRow:
    """One row of a paper table or a conference feed: the paper it states, and its event.

    ``paper`` is the row's partial :class:`~index_builder.model.Paper` as written
    (strings ``""`` when empty; the raw title in ``title_raw``, the official abstract a
    feed gives inline in ``abstract_raw``); the row's own fields describe its event.
    """

    event_id: int
    event_type: str
    paper: Paper
    venue_key: str = ""
    """The venue key of a conference feed's row (``neurips2025``); ``""`` for a table's."""
    room: str = ""
    poster_position: str = ""
    related: tuple[int, ...] = ()
    """A feed's ``related_events_ids``: an oral's poster event and back."""
    uid: str = ""
    """A feed's ``uid``: the same on every row (poster, oral, spotlight) of one paper."""


@pickled_as_call
@set_by_slots
@dataclass(frozen=True, slots=True)
class AbstractEntry:
    """One abstract of a list: its text and where it was found (1-based position)."""

    file: str
    position: int
    text: str

    @property
    def source(self) -> str:
        """``FILE:POSITION`` as shown in a paper's ``sources``."""
        return f"{self.file}:{self.position}"


@dataclass(frozen=True, slots=True)
class SourceText:
    """A decoded source file handed to the readers."""

    path: Path
    text: str


@dataclass(slots=True)
class SourceData:
    """What one file contributed, with any non-fatal problems met while reading it."""

    path: Path
    rows: list[TableRow] = field(default_factory=list)
    abstracts: list[AbstractEntry] = field(default_factory=list)
    problems: list[SourceProblem] = field(default_factory=list)
    records: list[PaperRecord] = field(default_factory=list)
    official: dict[int, str] = field(default_factory=dict)
    """A conference's abstracts file: event id -> official abstract (raw)."""
    venue: str = ""
    """The venue key the rows and ``official`` abstracts belong to (``""``: the table's)."""

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Pickle the rows as columns of plain values, their papers' too (as the
        catalogue is pickled): pickled as calls, each of the 27,000 rows and papers of
        the updated home cost a Python call of its ``__reduce__``, a quarter of the
        source cache's pickling."""
        columns: list[Any] = list(zip(*map(_ROW_VALUES, self.rows), strict=True))
        if columns:
            columns[_PAPER_AT] = tuple(zip(*map(_PAPER_VALUES, columns[_PAPER_AT]), strict=True))
        kept = (self.abstracts, self.problems, self.records, self.official, self.venue)
        return _source_data, (self.path, columns, *kept)


def _source_data(path: Path, columns: list[Any], *kept: Any) -> SourceData:
    """A :class:`SourceData` from what its ``__reduce__`` gave."""
    if columns:
        columns[_PAPER_AT] = map(Paper, *columns[_PAPER_AT])
    return SourceData(path, list(map(TableRow, *columns)) if columns else [], *kept)


_ROW_VALUES = field_getter(TableRow)
_PAPER_VALUES = field_getter(Paper)
_PAPER_AT = tuple(TableRow.__dataclass_fields__).index("paper")


Reader = Callable[[SourceText], SourceData | None]
