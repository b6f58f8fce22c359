"""Plain domain types that cross every boundary: papers, hits, search results.

Widgets never see Whoosh objects and Whoosh never sees widgets; these frozen
dataclasses are what passes between them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields, replace
from functools import cache
from operator import attrgetter, is_
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from index_builder.slots_init import set_by_slots

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

_D = TypeVar("_D", bound="DataclassInstance")
_T = TypeVar("_T", bound=type)

Span = tuple[int, int]
"""A highlighted range of characters, ``text[start:end]``, in a display string."""

SortKey = Literal["relevance", "title", "time"]


def _init_fields(kind: type) -> tuple[str, ...]:
    """The names of a dataclass's fields, each of which its constructor takes."""
    found = fields(kind)
    if any(not f.init for f in found):
        raise TypeError(f"{kind.__name__} has a field its constructor does not take")
    return tuple(f.name for f in found)


def field_getter(kind: type) -> Callable[[Any], tuple[Any, ...]]:
    """One C-level getter of a dataclass's field values, as a tuple in field order (for
    a dataclass of two fields or more, each of which its constructor takes)."""
    names = _init_fields(kind)
    if len(names) < 2:  # attrgetter of one name gives the value, not a tuple
        raise TypeError(f"{kind.__name__} has fewer than two fields")
    return attrgetter(*names)


def pickled_as_call(kind: _T) -> _T:
    """Class decorator (above ``@dataclass``): pickle the frozen dataclass as a call of the
    class with its field values, taken by one C-level getter.

    The default dataclass state is a dict rebuilt through ``fields()`` on each load: the
    caches between builds hold tens of thousands of papers, events, rows and records,
    and loading that state was a third of a join by hand's build.
    """
    values = field_getter(kind)

    def __reduce__(self: object) -> tuple[type, tuple[object, ...]]:
        return kind, values(self)

    kind.__reduce__ = __reduce__  # type: ignore[assignment]
    return kind


@pickled_as_call
@set_by_slots
@dataclass(frozen=True, slots=True)
class Event:
    """One scheduled presentation of a paper: its poster session or its talk.

    Times are ISO 8601 strings as the source wrote them (with their offset); what a
    person sees is converted to the venue's zone when shown. ``room`` and
    ``poster_position`` (the board, e.g. ``#2504``) are empty when the data lacks them.
    """

    kind: str
    """``poster`` or ``oral``."""
    session: str = ""
    starts_at: str = ""
    ends_at: str = ""
    event_id: int | None = None
    room: str = ""
    poster_position: str = ""

    def to_json(self) -> dict[str, Any]:
        """The event as JSON-ready data (:func:`dataclasses.asdict`'s result)."""
        return {name: getattr(self, name) for name in _EVENT_FIELDS}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Event:
        """Rebuild an event from its :meth:`to_json` form; unknown keys are ignored."""
        names = set(cls.__dataclass_fields__)
        return cls(**{k: v for k, v in data.items() if k in names})


_EVENT_FIELDS = tuple(f.name for f in fields(Event))


@pickled_as_call
@set_by_slots
@dataclass(frozen=True, slots=True)
class Paper:
    """One paper of the merged catalogue.

    ``title`` and ``abstract`` are display text (LaTeX and Markdown rendered as
    Unicode); ``title_raw`` and ``abstract_raw`` keep the source text for export.
    ``sources`` lists ``FILE:POSITION`` for every abstract list that holds the
    paper (1-based position in that file) and ``FILE`` for tables.
    ``aliases`` are earlier ids of the same paper (e.g. the id an abstract had
    before it was joined to its row) so that bookmarks never orphan; an oral's talk
    event id is one too. ``events`` holds every presentation (poster session and, for
    orals, the talk); ``session``, ``starts_at`` and ``ends_at`` repeat the poster's (or
    the only event's) for filters and sorting. ``venue`` names the conference
    (``ICML 2026``), empty when the source does not say.

    A source's partial paper (what a table row or a record of a file states) has no
    ``id`` and no display text yet: its text is in ``title_raw`` and ``abstract_raw``,
    and the merge gives it its id, ``title`` and ``abstract``.
    """

    id: str
    title: str
    title_raw: str = ""
    title_derived: bool = False
    authors: tuple[str, ...] = ()
    institutions: tuple[str, ...] = ()
    abstract: str = ""
    abstract_raw: str = ""
    topic: str = ""
    decision: str = ""
    oral: bool = False
    spotlight: bool = False
    session: str = ""
    starts_at: str = ""
    ends_at: str = ""
    url: str = ""
    openreview_url: str = ""
    code_urls: tuple[str, ...] = ()
    sources: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()
    event_id: int | None = None
    events: tuple[Event, ...] = ()
    venue: str = ""
    possibly_same_as: tuple[str, ...] = ()
    """Ids of table papers this one (an abstract left unjoined) possibly is: the evidence
    fell short of a join, so both stay, and the paper view and ``show`` say so."""
    track: str = ""
    """The conference track a feed names (``main``, ``position``, ``journal``, or another
    track's name in lower case); empty when the source does not say."""

    @property
    def has_abstract(self) -> bool:
        """True when the abstract is known."""
        return bool(self.abstract)

    @property
    def unjoined(self) -> bool:
        """True for a paper of your own files that no row of a conference's table holds (an
        abstract the join left on its own: ``is:unjoined``)."""
        return self.event_id is None

    @property
    def has_code(self) -> bool:
        """True when the paper links to code."""
        return bool(self.code_urls)

    @property
    def kind(self) -> str:
        """``oral``, ``spotlight`` or ``poster``."""
        if self.oral:
            return "oral"
        if self.spotlight:
            return "spotlight"
        return "poster"

    def cleared(self, *names: str) -> Paper:
        """This paper with the fields ``names`` back at their defaults (empty)."""
        defaults: dict[str, Any] = {n: Paper.__dataclass_fields__[n].default for n in names}
        return replace(self, **defaults)

    def to_json(self) -> dict[str, Any]:
        """The record as JSON-ready data (lists, not tuples): :func:`dataclasses.asdict`'s
        result, built without its deep copy (every value here is immutable; a dump of
        the bundled papers spent most of its time copying)."""
        data: dict[str, Any] = {}
        for name in _PAPER_FIELDS:
            value = getattr(self, name)
            if isinstance(value, tuple):
                value = [v.to_json() if isinstance(v, Event) else v for v in value]
            data[name] = value
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Paper:
        """Rebuild a paper from :meth:`to_json` output; unknown keys are ignored."""
        known = cls.__dataclass_fields__
        kwargs = {k: v for k, v in data.items() if k in known}
        for key, value in kwargs.items():
            if isinstance(known[key].default, tuple):
                kwargs[key] = tuple(value)
        if "events" in kwargs:
            kwargs["events"] = tuple(
                Event.from_json(e) for e in kwargs["events"] if isinstance(e, dict)
            )
        return cls(**kwargs)


def filled(first: _D, second: _D, **given: Any) -> _D:
    """``first`` with each empty field (``""``, ``()``, ``None``, false) taken from ``second``,
    and the fields ``given`` set to their values; ``first`` itself when that changes no
    field's value object (a feed's row and its paper hold every field the table's do: a
    build of the updated home made 13,600 such copies)."""
    kind = type(first)
    values = _named_values(kind)[1]
    kept = values(first)
    merged = [a or b for a, b in zip(kept, values(second), strict=True)]
    if given:
        merged = _with(kind, merged, given)
    return first if all(map(is_, merged, kept)) else kind(*merged)


def replaced(obj: _D, **changes: Any) -> _D:
    """``dataclasses.replace(obj, **changes)`` without its walk over the fields (fast)."""
    kind = type(obj)
    return kind(*_with(kind, list(_named_values(kind)[1](obj)), changes))


def _with(kind: type, values: list[Any], changes: dict[str, Any]) -> list[Any]:
    """A dataclass's field ``values`` (in field order) with the fields ``changes`` names
    set; a name that is no field of ``kind`` is a :class:`TypeError`, as in its call."""
    at = _field_places(kind)
    for name, value in changes.items():
        place = at.get(name)
        if place is None:
            raise TypeError(f"{kind.__name__} has no field {name!r}")
        values[place] = value
    return values


@cache
def _named_values(kind: type) -> tuple[tuple[str, ...], Callable[[Any], tuple[Any, ...]]]:
    """A dataclass's field names and one C-level getter of their values, made once."""
    return _init_fields(kind), field_getter(kind)


@cache
def _field_places(kind: type) -> dict[str, int]:
    """Each field of a dataclass by its place in the field order."""
    return {name: n for n, name in enumerate(_named_values(kind)[0])}


_PAPER_FIELDS = tuple(f.name for f in fields(Paper))


@dataclass(frozen=True, slots=True)
class Hit:
    """A paper found by a query, with its score and the spans to highlight."""

    paper: Paper
    score: float = 0.0
    title_spans: tuple[Span, ...] = ()
    marks: Callable[[str], tuple[Span, ...]] | None = field(default=None, compare=False, repr=False)
    """Finds the query's words in a text (``None``: nothing to highlight)."""

    @property
    def abstract_spans(self) -> tuple[Span, ...]:
        """The query's words in the abstract, found when asked: a list of 200 hits shows
        titles, and only the paper shown asks for its abstract's."""
        return self.marks(self.paper.abstract) if self.marks is not None else ()


@dataclass(frozen=True, slots=True)
class FacetCount:
    """One value of a facet, how many hits have it, and the filter that selects it."""

    value: str
    count: int
    query: str


@dataclass(frozen=True, slots=True)
class SearchResult:
    """The answer to one query."""

    query: str
    total: int
    hits: tuple[Hit, ...]
    suggestion: str | None = None
    elapsed_ms: float = 0.0
    fallback: bool = False
    """True when the query's syntax was malformed and it was read as plain words."""
    fallback_reason: str = ""
    """Why the query was read as plain words (``"too many terms"``...), when it was."""
    facets: dict[str, tuple[FacetCount, ...]] = field(default_factory=dict)
    note: str = ""
    """A line that says what a listing is (For you: the words it ranks by, or what it
    needs), for the status line; empty for a query."""


@dataclass(frozen=True, slots=True)
class SourceProblem:
    """A source file that was skipped or partly read, and why (for stderr and ``doctor``)."""

    path: str
    message: str
    fatal: bool = True


class Marked(frozenset[str]):
    """The ids (and aliases) on the reading list, as a set, with the ids under each tag.

    A plain ``frozenset`` everywhere ``is:bookmarked`` needs one; ``tags`` maps each tag,
    folded to lower case, to the ids of its bookmarks, for ``tag:NAME`` in a query.
    """

    tags: dict[str, frozenset[str]]

    def __new__(
        cls, ids: frozenset[str] = frozenset(), tags: dict[str, frozenset[str]] | None = None
    ) -> Marked:
        made = super().__new__(cls, ids)
        made.tags = dict(tags or {})
        return made


def tagged_ids(marked: object, tag: str) -> frozenset[str]:
    """The ids under ``tag`` (compared case-insensitively) in ``marked``; none for a plain set."""
    tags: dict[str, frozenset[str]] = getattr(marked, "tags", {})
    return tags.get(" ".join(tag.split()).casefold(), frozenset())
