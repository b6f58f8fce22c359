"""The lines of the joins file (``joins.jsonl``): the one parser every reader of it uses.

The catalogue (:func:`index_builder.sources.records.record_from_json`), ``paperscope join
--list``/``--undo``/``--apart`` and ``J`` (:mod:`index_builder.catalogue.joins.by_hand`) read
a line through :func:`join_line`, so a hand-edited line (a quoted event id ``"64335"``,
a key in capitals) means the same thing to all of them. A line holds one of two things::

    {"event_id": 64328, "title": "...", "abstract": "...", "joined": "2026-12-05"}
    {"apart": true, "event_id": 62850, "title": "...", "abstract_ids": ["a63f9df05de"],
     "separated": "2026-12-06"}

a join (an abstract put on the row of an event id) or a separation (a join taken apart).
Every line of a source file named :data:`JOINS_FILE` is read so, and nothing else.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from index_builder.paths import JOINS_FILE

__all__ = ["JOINS_FILE", "JoinLine", "NotAJoin", "event_id_of", "join_line", "parse_text"]


class NotAJoin(ValueError):
    """A line that holds neither a join nor a separation; the message says why."""


def event_id_of(value: Any) -> int | None:
    """An event id from an integer or a string of digits; anything else is no id."""
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 10**12:
        return value
    if (
        isinstance(value, str)
        and value.strip().isascii()
        and value.strip().isdigit()
        and len(value.strip()) < 12
    ):
        return int(value.strip())
    return None


@dataclass(frozen=True, slots=True)
class JoinLine:
    """What one line of the joins file states: a join (``abstract``) or a separation
    (``abstract_ids``), on the row of ``event_id``."""

    event_id: int
    title: str
    abstract: str = ""
    """A join's abstract, as its list writes it (``""`` for a separation)."""
    abstract_ids: tuple[str, ...] = ()
    """A separation's abstracts (``()`` for a join)."""
    day: str = ""
    """The day it was made (``joined`` or ``separated``)."""

    @property
    def apart(self) -> bool:
        """True for a separation."""
        return bool(self.abstract_ids)


def _text(data: dict[str, Any], key: str) -> str:
    value = data.get(key)
    return value.strip() if isinstance(value, str) else ""


def join_line(data: Any) -> JoinLine:
    """The join or separation a parsed JSON line states; :class:`NotAJoin` when none."""
    if not isinstance(data, dict):
        raise NotAJoin("not an object")
    data = {str(k).strip().lower(): v for k, v in data.items()}
    event_id = event_id_of(data.get("event_id"))
    if data.get("apart") is True:
        ids = data.get("abstract_ids")
        found = tuple(
            i.strip() for i in (ids if isinstance(ids, list) else []) if isinstance(i, str)
        )
        if event_id is None or not found or not all(found):
            raise NotAJoin("a join taken apart without its event_id and abstract_ids")
        return JoinLine(event_id, _text(data, "title"), abstract_ids=found,
                        day=_text(data, "separated"))  # fmt: skip
    abstract = data.get("abstract")
    if event_id is None or not isinstance(abstract, str) or not abstract.strip():
        raise NotAJoin("a join without its event_id and abstract")
    return JoinLine(event_id, _text(data, "title"), abstract, day=_text(data, "joined"))


def parse_text(line: str) -> JoinLine | None:
    """The join or separation one line of text states; ``None`` for a line that holds none."""
    try:
        return join_line(json.loads(line))
    except (ValueError, RecursionError):  # NotAJoin and JSONDecodeError are ValueErrors
        return None
