"""The merge's shortcuts give what the long way gives: a build through each equals, field
by field (values and their types), a build with the shortcut taken away."""

from __future__ import annotations

import copy
import json
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest

from index_builder.catalogue import official
from index_builder.catalogue.load import Catalogue, load_catalogue
from tests.helpers.cli_cut import bundled_cut
from tests.helpers.feed_data import ICML_FEED, icml_feed


def every_field(catalogue: Catalogue) -> list[Any]:
    """Each paper's fields as (name, type, value), and the problems."""
    papers = [
        [(f.name, type(getattr(p, f.name)).__name__, getattr(p, f.name)) for f in fields(p)]
        for p in catalogue
    ]
    return [papers, [(Path(p.path).name, p.message, p.fatal) for p in catalogue.problems]]


def filled_field_by_field(first: Any, second: Any, **given: Any) -> Any:
    """``model.filled`` the long way: every field made again, none taken whole."""
    values = {f.name: getattr(first, f.name) or getattr(second, f.name) for f in fields(first)}
    return type(first)(**(values | given))


def test_a_feed_row_kept_whole_when_it_lacks_nothing_equals_one_made_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A table row and a feed row of one event merge into the feed's row itself when the
    feed has every field the table has (``model.filled``'s shortcut); a third of the feed's
    40 records here lack a topic, a session, times, authors or a forum, which the table's
    rows of the same events then give."""
    results = copy.deepcopy(icml_feed()["results"][:40])
    for record in results[::3]:
        record.update(topic=None, session=None, starttime=None, authors=[], paper_url=None)
    feed = tmp_path / ICML_FEED
    feed.write_text(json.dumps({"count": len(results), "results": results}), encoding="utf-8")
    one_per_title = {r["name"]: str(r["id"]) for r in results}
    sources = [bundled_cut(tmp_path / "cut", one_per_title.values()), feed]
    shortcut = load_catalogue(sources)
    monkeypatch.setattr(official, "filled", filled_field_by_field)
    long_way = load_catalogue(sources)
    assert every_field(shortcut) == every_field(long_way)
    blanked = {str(r["id"]) for r in results[::3]}
    filled_in = [p for p in shortcut if p.id in blanked]
    assert filled_in and all(p.topic and p.session and p.authors for p in filled_in)
