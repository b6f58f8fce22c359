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
from index_builder.sources import json_fields as fields
from index_builder.sources.json_fields import event_id_of

__all__ = ["JOINS_FILE", "JoinLine", "NotAJoin", "event_id_of", "join_line", "parse_text"]


class NotAJoin(ValueError):
    """A line that holds neither a join nor a separation; the message says why."""


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


def join_line(data: Any) -> JoinLine:
    """The join or separation a parsed JSON line states; :class:`NotAJoin` when none."""
    found = fields.record(data)
    if found is None:
        raise NotAJoin("not an object")
    line = fields.lower_keys(found)
    event_id = event_id_of(line.get("event_id"))
    title = fields.text(line, "title")
    if line.get("apart") is True:
        ids = fields.texts(line, "abstract_ids")
        if event_id is None or not ids:
            raise NotAJoin("a join taken apart without its event_id and abstract_ids")
        return JoinLine(event_id, title, abstract_ids=ids, day=fields.text(line, "separated"))
    abstract = fields.text(line, "abstract")
    if event_id is None or not abstract:
        raise NotAJoin("a join without its event_id and abstract")
    return JoinLine(event_id, title, abstract, day=fields.text(line, "joined"))


def parse_text(line: str) -> JoinLine | None:
    """The join or separation one line of text states; ``None`` for a line that holds none."""
    try:
        return join_line(json.loads(line))
    except (ValueError, RecursionError):  # NotAJoin and JSONDecodeError are ValueErrors
        return None
