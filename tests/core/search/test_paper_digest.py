"""The manifest's paper digest: equal papers digest alike, whatever objects hold their
values, and a change of any one field changes it (else a change in place would miss it)."""

from __future__ import annotations

import pickle
from dataclasses import fields, replace

from index_builder.model import Event, Paper
from index_builder.search.in_place import digest
from tests.core.test_analysis_versions import fixed_papers


def other_value(value: object) -> object:
    """A value of the same type that differs from ``value``."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if value is None:
        return 7
    if isinstance(value, str):
        return value + "x"
    if isinstance(value, tuple):
        if value and isinstance(value[0], Event):
            return (replace(value[0], room=value[0].room + "x"), *value[1:])
        return (*value, "x")
    raise AssertionError(f"a field of a type the test does not know: {value!r}")


def test_equal_papers_digest_alike() -> None:
    for paper in fixed_papers()[:40]:
        copy = pickle.loads(pickle.dumps(paper))
        rebuilt = Paper(**{f.name: getattr(paper, f.name) for f in fields(Paper)})
        same_text = replace(paper, title_raw=paper.title)  # one object in two fields
        again = replace(paper, title_raw="".join(list(paper.title)))  # equal, not the same
        assert digest(copy) == digest(rebuilt) == digest(paper)
        assert digest(same_text) == digest(again)


def test_any_field_changed_changes_the_digest() -> None:
    papers = fixed_papers()
    paper = next(p for p in papers if p.events and p.abstract)
    seen = {digest(paper)}
    for field in fields(Paper):
        changed = replace(paper, **{field.name: other_value(getattr(paper, field.name))})
        assert digest(changed) not in seen, field.name
        seen.add(digest(changed))
    event = paper.events[0]
    for field in fields(Event):
        value = getattr(event, field.name)
        moved = replace(paper, events=(replace(event, **{field.name: other_value(value)}),))
        assert digest(moved) != digest(replace(paper, events=(event,))), field.name
    assert digest(replace(paper, oral=True)) != digest(replace(paper, oral=False))
