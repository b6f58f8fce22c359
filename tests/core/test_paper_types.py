"""One paper type: other layers hold a ``Paper`` rather than re-declaring its fields."""

from __future__ import annotations

import dataclasses
import importlib
import pkgutil
from dataclasses import MISSING, fields

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import index_builder
from index_builder.model import Event, Paper, filled, replaced
from index_builder.readinglist.bookmark import KEPT, Bookmark

PAPER_FIELDS = {f.name for f in dataclasses.fields(Paper)}


def core_dataclasses() -> list[type]:
    """Every dataclass defined in a module of the core, but ``Paper``."""
    found = []
    for info in pkgutil.walk_packages(index_builder.__path__, "index_builder."):
        module = importlib.import_module(info.name)
        for value in vars(module).values():
            if (
                isinstance(value, type)
                and dataclasses.is_dataclass(value)
                and value.__module__ == module.__name__
                and value is not Paper
            ):
                found.append(value)
    return found


NOT_PAPERS = {
    "JoinLine": "a line of the joins file as it is written, read before any paper exists",
    "Reference": "a paper flattened for an exchange format (CSL-JSON, RIS), made from a Paper",
    "LibraryEntry": "another tool's record of a paper, with ids a Paper has no field for (DOI)",
}
"""Records of another shape that name a few of a paper's fields, each for the reason given."""


def test_no_dataclass_of_the_core_repeats_the_paper_fields() -> None:
    classes = core_dataclasses()
    assert {c.__name__ for c in classes} >= {"TableRow", "PaperRecord", "Bookmark", "Hit"}
    repeated = {
        c.__qualname__: sorted(shared)
        for c in classes
        if c is not Event  # a presentation: Paper repeats its poster's session and times
        and c.__qualname__ not in NOT_PAPERS
        and len(shared := {f.name for f in dataclasses.fields(c)} & PAPER_FIELDS) > 1
    }
    assert repeated == {}, "hold a Paper (or derive from its fields) instead"


def test_paper_json_round_trip_gives_tuples() -> None:
    paper = Paper("7", "T", authors=("A",), aliases=("a1",), events=(Event("poster", "S"),))
    data = paper.to_json()
    assert data["authors"] == ["A"] and data["events"] == [dataclasses.asdict(Event("poster", "S"))]
    assert Paper.from_json(data) == paper


def test_paper_json_is_asdict_with_lists() -> None:
    from tests.helpers.search_papers import PAPERS

    events = (Event("poster", "S", "2026-07-14T10:00:00+09:00", event_id=3), Event("oral"))
    for paper in (*PAPERS, Paper("7", "T", authors=("A", "B"), events=events)):
        expected = {
            k: list(v) if isinstance(v, tuple) else v for k, v in dataclasses.asdict(paper).items()
        }
        assert paper.to_json() == expected
        assert list(paper.to_json()) == list(expected)


def test_cleared_and_filled() -> None:
    paper = Paper("7", "T", title_raw="T", authors=("A",), url="u", oral=True, event_id=7)
    cleared = paper.cleared("authors", "url", "oral", "event_id")
    assert cleared == Paper("7", "T", title_raw="T")
    other = Paper("8", "Other", authors=("B",), url="v", session="S")
    assert filled(cleared, other) == Paper(
        "7", "T", title_raw="T", authors=("B",), url="v", session="S"
    )
    assert filled(cleared, other, url="w", oral=True) == Paper(
        "7", "T", title_raw="T", authors=("B",), url="w", oral=True, session="S"
    )


def test_replaced_is_dataclasses_replace() -> None:
    event = Event("poster", "S", event_id=3)
    paper = Paper("7", "T", authors=("A",), events=(event,), oral=True)
    for changes in ({}, {"id": "8", "oral": False}, {"events": (), "session": "X"}):
        assert replaced(paper, **changes) == dataclasses.replace(paper, **changes)
    assert replaced(event, room="R") == dataclasses.replace(event, room="R")
    with pytest.raises(TypeError):
        replaced(paper, colour="red")
    with pytest.raises(TypeError):
        filled(paper, paper, colour="red")


def test_a_bookmark_keeps_a_copy_of_its_paper_and_the_same_json() -> None:
    paper = Paper(
        "7",
        "T",
        title_raw="{T}",
        abstract="long",
        authors=("A",),
        aliases=("7", "a1"),
        session="S",
        code_urls=("c",),
        venue="ICML 2026",
    )
    bm = Bookmark.from_paper(paper, at="2026-01-01T00:00:00Z")
    assert set(KEPT) < PAPER_FIELDS
    assert bm.copy == Paper("7", "T", authors=("A",), aliases=("a1",), session="S")
    assert list(bm.to_json()) == [
        "paper_id", "title", "authors", "status", "note", "added_at", "updated_at", "tags",
        "aliases", "url", "openreview_url", "session", "starts_at", "ends_at", "title_derived",
    ]  # fmt: skip
    assert bm.to_json()["aliases"] == ["a1"] and Bookmark.from_json(bm.to_json()) == bm


def test_the_cached_types_pickle_as_calls_of_their_class() -> None:
    import pickle

    from index_builder.sources.records import PaperRecord
    from index_builder.sources.types import AbstractEntry, TableRow

    event = Event("oral", "Session 2", "2026-07-14T10:00", "", 7, "Hall A", "#12")
    paper = Paper("7", "T", title_raw="T", authors=("A B",), events=(event,), oral=True)
    values = [
        event,
        paper,
        TableRow(7, "Oral", paper, venue_key="icml2026", related=(8, 9), uid="u"),
        AbstractEntry("list.txt", 3, "An abstract."),
        PaperRecord("joins.jsonl", 2, paper, hand=True),
    ]
    for value in values:
        kind, args = value.__reduce__()
        assert kind is type(value)
        assert args == tuple(getattr(value, f.name) for f in dataclasses.fields(value))
        assert pickle.loads(pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)) == value


def _empty_or_not(default: object) -> st.SearchStrategy[object]:
    """A field's empty value or a filled one of its type (an id may be 0 as well)."""
    if isinstance(default, bool):
        return st.booleans()
    if isinstance(default, tuple):
        return st.sampled_from([(), ("x",), ("x", "y")])
    if default is None:
        return st.sampled_from([None, 0, 7])
    return st.sampled_from(["", "x", "y"])


_PAPERS = st.builds(
    Paper,
    **{f.name: _empty_or_not(f.default if f.default is not MISSING else "") for f in fields(Paper)},
)


@settings(max_examples=300, deadline=None)
@given(_PAPERS, _PAPERS, st.sampled_from([{}, {"url": "w"}, {"oral": True, "event_id": None}]))
def test_filled_is_each_field_or_the_others_and_the_first_when_it_lacks_nothing(
    first: Paper, second: Paper, given_fields: dict[str, object]
) -> None:
    """``filled`` equals the paper made field by field (values and their types); it is
    ``first`` itself exactly when no field's value object changes."""
    expected = {f.name: getattr(first, f.name) or getattr(second, f.name) for f in fields(Paper)}
    expected |= given_fields
    made = filled(first, second, **given_fields)
    assert [(type(v), v) for v in map(made.__getattribute__, expected)] == [
        (type(v), v) for v in expected.values()
    ]
    lacks_nothing = all(expected[n] is getattr(first, n) for n in expected)
    assert (made is first) == lacks_nothing
