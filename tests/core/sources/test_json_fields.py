"""The JSON record reader: what each getter takes, and what the wrong type gives."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from index_builder.sources import feed
from index_builder.sources import json_fields as fields
from index_builder.sources.records import RecordError, record_from_json
from index_builder.sources.table import unescape_html


def test_text_takes_the_first_present_key_and_writes_numbers_out() -> None:
    data = {"a": None, "b": "", "c": "  Title \ud800 ", "d": "later", "n": 12, "f": 1.5}
    assert fields.text(data, "a", "b", "c", "d") == "Title \ufffd"
    assert fields.text(data, "missing") == ""
    assert fields.text(data, "n") == "12" and fields.text(data, "f") == "1.5"
    assert fields.text({"t": "   "}, "t", "d") == ""  # present, though blank: not passed over


@pytest.mark.parametrize("wrong", [True, False, [], {}, ["x"], {"name": "x"}])
def test_text_of_another_type_is_empty_or_the_error_named(wrong: object) -> None:
    data = {"title": wrong, "name": "fallback"}
    assert fields.text(data, "title", "name") == ""
    with pytest.raises(RecordError, match="field 'title' is not text"):
        fields.text(data, "title", "name", wrong=RecordError)


def test_texts_reads_a_text_or_a_list_and_drops_the_rest() -> None:
    data = {"one": " x ", "many": ["a", "", " a ", 3, None, {"u": 1}, ["b"]], "other": {}}
    assert fields.texts(data, "one", "many", "other", "missing") == ("x", "a", "3")


def test_records_items_and_whole_numbers() -> None:
    data = {"list": [{"k": 1}, 2, "s", {"k": 2}, {"k": 3}], "obj": {"k": 1}, "n": 7, "b": True}
    assert fields.records(data, "list") == [{"k": 1}, {"k": 2}, {"k": 3}]
    assert fields.records(data, "list", first=4) == [{"k": 1}, {"k": 2}]
    assert fields.records(data, "obj") == [] and fields.items(data, "obj") == []
    assert fields.whole(data, "n") == 7 and fields.whole(data, "b") is None
    assert fields.whole({"f": 7.0}, "f") is None
    assert fields.record([1]) is None and fields.record({"a": 1}) == {"a": 1}
    assert fields.lower_keys({" Title ": 1, "ID": 2}) == {"title": 1, "id": 2}


@pytest.mark.parametrize(
    ("value", "expected"),
    [(64335, 64335), (" 64335 ", 64335), ("６４", None), (True, None), (-1, None), (10**12, None)],
)
def test_event_ids(value: object, expected: int | None) -> None:
    assert fields.event_id_of(value) == expected


def test_a_dump_record_read_through_the_reader() -> None:
    found = record_from_json(
        {
            "Title": "A paper",
            "id": 12,
            "aliases": ["e1", "e1", 7, "x" * 65],
            "code": "https://c",
            "code_urls": ["https://c", 5],
            "events": [{"kind": "poster", "session": "S", "event_id": "9"}, {"kind": "x"}, 1],
            "possibly_same_as": ["a0123456789", " "],
        },
        "dump.jsonl",
        1,
    ).paper
    assert found.title_raw == "A paper"
    assert found.aliases == ("12", "e1", "7")
    assert found.code_urls == ("https://c", "5")
    assert [(e.kind, e.session, e.event_id) for e in found.events] == [("poster", "S", 9)]
    assert found.possibly_same_as == ("a0123456789",)
    with pytest.raises(RecordError, match="field 'session' is not text"):
        record_from_json({"title": "T", "session": ["S"]}, "dump.jsonl", 1)


_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=False),
    st.lists(
        st.sampled_from([" ", "\t", "a", "&", "&amp;", "&amp;#x27;", "&lt;", "é", "\ud800"])
    ).map("".join),
    st.text(max_size=8),
    st.lists(st.text(max_size=3), max_size=2),
)


@settings(max_examples=400, deadline=None)
@given(st.dictionaries(st.sampled_from(["a", "b"]), _VALUES), st.sampled_from([("a",), ("a", "b")]))
def test_the_feed_reads_a_field_as_the_reader_and_the_entities_do(
    record: dict[str, object], keys: tuple[str, ...]
) -> None:
    """The feed's shortcut for plain ASCII strings gives what the JSON reader and
    :func:`unescape_html` give for any value."""
    assert feed._text(record, *keys) == unescape_html(fields.text(record, *keys))


_NAMES = st.one_of(
    _VALUES,
    st.lists(
        st.sampled_from([" ", "  ", "\t", "\n", "\u00a0", "\u2003", "Ann", "Lee", "&amp;", "é"])
    ).map("".join),
)


@settings(max_examples=400, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.fixed_dictionaries(
                {}, optional={"fullname": _NAMES, "name": _NAMES, "institution": _NAMES}
            ),
            _VALUES,
        ),
        max_size=4,
    )
)
def test_the_feed_reads_authors_as_their_words_one_space_apart(authors: list[object]) -> None:
    """The feed's names and places: each text's words one space apart (the shortcut for a
    text with single spaces alone gives what splitting and joining give), empty ones out,
    each place once."""
    names = [
        " ".join(feed._text(a, "fullname", "name").split()) for a in authors if isinstance(a, dict)
    ]
    places = [
        " ".join(feed._text(a, "institution").split()) for a in authors if isinstance(a, dict)
    ]
    expected = tuple(n for n in names if n), tuple(dict.fromkeys(p for p in places if p))
    assert feed._people({"authors": authors}) == expected
