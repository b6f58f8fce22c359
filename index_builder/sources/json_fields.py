"""The fields of a parsed JSON record, read by type: the one reader every JSON source uses.

A conference feed's records, a dump's or a structured file's papers, a line of the joins
file and a library's CSL-JSON items are data of any shape. Each getter here asks for one
type and says what the wrong type gives: nothing (``""``, ``()``, ``[]``, ``None``), or,
for :func:`text` given ``wrong``, that error naming the field (a user's own file: a broken
field is counted as a bad record rather than read as empty).

Text is a string (lone surrogates replaced, stripped: :func:`clean`) or a number written
out; a field that is absent, ``null`` or ``""`` is passed over for the next key.
"""

from __future__ import annotations

import re
from typing import Any

Record = dict[str, Any]
"""A parsed JSON object."""

_SURROGATE = re.compile("[\ud800-\udfff]")


def clean(value: str) -> str:
    """Text with lone surrogates (possible in JSON escapes) replaced, so it encodes as UTF-8."""
    if value.isascii():  # a flag of the string: no surrogate, no scan (a feed has ~170,000)
        return value.strip()
    return _SURROGATE.sub("\ufffd", value).strip()


def record(value: Any) -> Record | None:
    """``value`` when it is a JSON object, else ``None``."""
    return value if isinstance(value, dict) else None


def lower_keys(data: Record) -> Record:
    """The object with its keys stripped and lowercased (``" Title"`` reads as ``title``)."""
    return {str(k).strip().lower(): v for k, v in data.items()}


def text_of(value: Any) -> str | None:
    """A value as text: a string cleaned or a number written out; ``None`` for another type."""
    if isinstance(value, str):
        return clean(value)
    if isinstance(value, int | float) and not isinstance(value, bool):
        return str(value)
    return None


def text(data: Record, *keys: str, wrong: type[ValueError] | None = None) -> str:
    """The text of the first of ``keys`` present (not absent, ``null`` or ``""``).

    Another type gives ``""``, or raises ``wrong("field 'KEY' is not text")`` when given.
    """
    for key in keys:
        value = data.get(key)
        if value is None or value == "":
            continue
        found = text_of(value)
        if found is None:
            if wrong is not None:
                raise wrong(f"field {key!r} is not text")
            return ""
        return found
    return ""


def items(data: Record, key: str) -> list[Any]:
    """The field's items when it is a list, else none."""
    value = data.get(key)
    return value if isinstance(value, list) else []


def texts(data: Record, *keys: str) -> tuple[str, ...]:
    """The non-empty texts of fields holding a text or a list: other items are dropped,
    and a text met twice is kept once, where it first stands."""
    out: list[str] = []
    for key in keys:
        value = data.get(key)
        for item in value if isinstance(value, list) else [value]:
            found = text_of(item)
            if found:
                out.append(found)
    return tuple(dict.fromkeys(out))


def records(data: Record, key: str, *, first: int | None = None) -> list[Record]:
    """The objects among the field's (``first``) items; anything else is dropped."""
    return [item for item in items(data, key)[:first] if isinstance(item, dict)]


def whole(data: Record, key: str) -> int | None:
    """The field when it is a whole JSON number (not ``true``/``false``), else ``None``."""
    value = data.get(key)
    return value if isinstance(value, int) and not isinstance(value, bool) else None


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
