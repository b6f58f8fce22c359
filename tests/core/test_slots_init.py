"""The constructors :func:`~index_builder.slots_init.set_by_slots` makes are the ones
``@dataclass`` wrote: the same parameters, the same object made from the same arguments."""

from __future__ import annotations

import dataclasses
import inspect
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from index_builder.model import Event, Paper
from index_builder.slots_init import DATACLASS_INITS, set_by_slots
from index_builder.sources.types import AbstractEntry, TableRow

KINDS = [Paper, Event, TableRow, AbstractEntry]
_VALUES = st.one_of(
    st.none(), st.booleans(), st.integers(), st.text(max_size=3), st.tuples(st.text(max_size=2))
)


def test_the_cached_types_are_made_by_slots_with_the_dataclass_parameters() -> None:
    assert set(DATACLASS_INITS) >= set(KINDS)
    for kind in KINDS:
        assert kind.__init__ is not DATACLASS_INITS[kind]
        made, written = inspect.signature(kind.__init__), inspect.signature(DATACLASS_INITS[kind])
        assert [(p.name, p.kind, p.default) for p in made.parameters.values()] == [
            (p.name, p.kind, p.default) for p in written.parameters.values()
        ]


def _as_written(kind: type, *args: Any, **kwargs: Any) -> Any:
    made = object.__new__(kind)
    DATACLASS_INITS[kind](made, *args, **kwargs)
    return made


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(KINDS), st.data())
def test_each_field_holds_the_very_value_given_as_the_dataclass_would(
    kind: type, data: st.DataObject
) -> None:
    names = [f.name for f in dataclasses.fields(kind)]
    values = data.draw(st.lists(_VALUES, min_size=len(names), max_size=len(names)))
    required = sum(f.default is dataclasses.MISSING for f in dataclasses.fields(kind))
    given_ = data.draw(st.integers(min_value=required, max_value=len(names)))  # the rest default
    by_place = kind(*values[:given_])
    by_name = kind(**dict(zip(names[:given_], values[:given_], strict=True)))
    written = _as_written(kind, *values[:given_])
    for name in names:
        assert getattr(by_place, name) is getattr(written, name), name
        assert getattr(by_name, name) is getattr(written, name), name
    assert by_place == written and hash(by_place) == hash(written)
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(by_place, names[-1], "x")
    with pytest.raises(TypeError):
        kind(*values, None)  # one argument too many, as the dataclass's
    with pytest.raises(TypeError):
        kind()  # the fields without a default are required


def test_a_constructor_that_does_more_than_set_slots_is_refused() -> None:
    @dataclasses.dataclass(frozen=True)
    class NoSlots:
        a: int

    @dataclasses.dataclass(frozen=True, slots=True)
    class Factory:
        a: tuple[int, ...] = dataclasses.field(default_factory=tuple)

    @dataclasses.dataclass(frozen=True, slots=True)
    class Checked:
        a: int

        def __post_init__(self) -> None:
            pass

    for kind in (NoSlots, Factory, Checked):
        with pytest.raises(TypeError):
            set_by_slots(kind)
