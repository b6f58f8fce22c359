"""Parsed JSON made terminal-safe: the one check of a document's text
(:func:`safe.json_strings_safe`) answers as making each string :func:`safe` would.

``load_json`` skips visiting every string when the check says they are all safe; if the
check ever said so wrongly, an escape or a control of a feed would reach the screen.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from index_builder.sources.reading import read_source
from index_builder.sources.types import load_json
from index_builder.text.safe import json_escapes_safe, json_strings_safe, safe, safe_json
from tests.benchmarks.updated import feed_files

_CHARS = st.characters(max_codepoint=0x206F) | st.sampled_from(
    '\x1b\x07\x9b\x85\r\n\t\b\f\x7f\u202e\u2066\\"/ab'
)
_STRINGS = st.text(alphabet=_CHARS, max_size=12)
_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | _STRINGS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_STRINGS, inner, max_size=4),
    max_leaves=12,
)


def _changed(data: Any) -> bool:
    """True when making the parsed document safe changes any string of it."""
    return safe_json(data) != data


@settings(max_examples=600, deadline=None)
@given(_JSON, st.booleans(), st.sampled_from([None, 1, "\r\n"]))
def test_the_check_says_safe_exactly_when_no_string_changes(
    data: Any, ascii_only: bool, layout: int | str | None
) -> None:
    text = json.dumps(data, ensure_ascii=ascii_only, indent=1 if layout else None)
    if layout == "\r\n":
        text = text.replace("\n", "\r\n")
    parsed = json.loads(text)
    assert json_strings_safe(text) == (not _changed(parsed))
    assert load_json(text) == safe_json(parsed)


def test_escaped_backslashes_are_not_read_as_escapes() -> None:
    assert json_strings_safe(json.dumps(["\\frac \\bar \\rho \\u00e9"]))
    assert not json_strings_safe(json.dumps(["a\fb"]))
    assert not json_strings_safe(json.dumps(["\\\r"]))
    assert not json_strings_safe(json.dumps({"k\u202e": 1}, ensure_ascii=False))


def test_a_real_feed_is_checked_once_and_given_back_as_parsed() -> None:
    """The updated home's feed (real abstracts, LaTeX escapes) takes the shortcut."""
    for name, answer in feed_files().items():
        text = answer.body.decode("utf-8")
        assert "\\\\" in text, name
        assert json_strings_safe(text), name
        assert load_json(text) == json.loads(text)


_TEXT = st.text(alphabet=_CHARS, max_size=40)


@settings(max_examples=600, deadline=None)
@given(_TEXT, st.booleans())
def test_safe_given_the_bytes_answers_as_safe_of_the_text(text: str, bom: bool) -> None:
    """A whole file read as UTF-8 is checked in its own bytes (a BOM before them too)."""
    if any("\ud800" <= c <= "\udfff" for c in text):
        return  # no file decoded as UTF-8 holds a lone surrogate
    utf8 = ("\ufeff" if bom else "").encode() + text.encode("utf-8")
    assert safe(text, utf8) == safe(text)


@settings(max_examples=300, deadline=None)
@given(_JSON, st.booleans())
def test_a_document_made_safe_whole_needs_its_escapes_checked_alone(
    data: Any, ascii_only: bool
) -> None:
    """What a source file's reader hands on (decoded, made safe whole, then parsed)
    equals the parsed document with each string made safe."""
    text = json.dumps(data, ensure_ascii=ascii_only)
    if any("\ud800" <= c <= "\udfff" for c in text):
        return
    made_safe = safe(text, text.encode("utf-8"))
    try:
        json.loads(made_safe)
    except ValueError:
        return  # a control dropped from between values broke nothing JSON needs
    assert load_json(made_safe, made_safe=True) == safe_json(json.loads(made_safe))
    assert json_escapes_safe(made_safe) == json_strings_safe(made_safe)


def test_a_feed_file_with_raw_controls_is_read_safe(tmp_path: Path) -> None:
    """A feed on one line, UTF-8 with raw C1 controls and bidi overrides in its strings:
    the file's bytes are scanned, not its text, and nothing reaches the rows."""
    odd = "Caf\u00e9 \u202eevil\u202c \u009b31m done"
    feed = {"count": 1, "results": [{"id": 7, "name": odd, "eventtype": "Poster"}]}
    path = tmp_path / "icml-2026-orals-posters.json"
    path.write_bytes(json.dumps(feed, ensure_ascii=False).encode("utf-8"))
    (row,) = read_source(path, path.read_bytes()).rows
    assert row.paper.title_raw == safe(odd) == "Caf\u00e9 evil  done"
