"""Facet counts and sort orders over papers, computed from the papers themselves.

Facets are counted from per-paper values kept in memory (never from stored fields), so
counting all the matches of a query is one pass over a list of indexes.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from index_builder import venues
from index_builder.model import FacetCount, Paper, SortKey
from index_builder.times import first_event, instant_key

FACETS = ("topic", "kind", "session", "venue", "track", "site")
_KIND_QUERY = {"oral": "is:oral", "spotlight": "is:spotlight -is:oral", "poster": "is:poster"}


def area(topic: str) -> str:
    """The Area part of ``Area->Subarea`` (the whole topic when it has no ``->``)."""
    return topic.split("->", 1)[0].strip()


Values = tuple[str, str, str, str, str, str]


def facet_values(paper: Paper) -> Values:
    """The paper's ``(topic area, kind, session, venue, track, site)``; empty strings are
    not counted. The site is the city of a conference held in several (``NeurIPS 2026 ·
    Paris``), named with its venue so that two venues' cities stay apart."""
    site = venues.site_name(paper.venue, paper.session)
    where = f"{paper.venue} · {site}" if site else ""
    return area(paper.topic), paper.kind, paper.session.strip(), paper.venue, paper.track, where


def _quoted(field: str, value: str) -> str:
    return f'{field}:"{value.replace(chr(34), " ")}"'


def count_facets(values: Iterable[Values]) -> dict[str, tuple[FacetCount, ...]]:
    """Facet counts (largest first), each with the query string that selects it."""
    counters: tuple[Counter[str], ...] = tuple(Counter() for _ in FACETS)
    for triple in values:
        for counter, value in zip(counters, triple, strict=True):
            if value:
                counter[value] += 1
    return facets_from_counts(*counters)


def facets_from_counts(
    topic: Counter[str],
    kind: Counter[str],
    session: Counter[str],
    venue: Counter[str] | None = None,
    track: Counter[str] | None = None,
    site: Counter[str] | None = None,
) -> dict[str, tuple[FacetCount, ...]]:
    """Facet counts from per-value counters (empty values are not counted).

    The venue, track and site facets are empty unless the hits span several of them.
    """
    empty = Counter[str]()
    topic, kind, session, venue, track, site = (
        Counter({k: n for k, n in c.items() if k})
        for c in (topic, kind, session, venue or empty, track or empty, site or empty)
    )
    return {
        "topic": tuple(FacetCount(v, n, _quoted("area", v)) for v, n in _ordered(topic)),
        "kind": tuple(FacetCount(v, n, _KIND_QUERY[v]) for v, n in _ordered(kind)),
        "session": tuple(FacetCount(v, n, _quoted("session", v)) for v, n in _ordered(session)),
        "venue": tuple(FacetCount(v, n, f"venue:{venue_term(v)}") for v, n in _ordered(venue))
        if len(venue) > 1
        else (),
        "track": tuple(FacetCount(v, n, _quoted("track", v)) for v, n in _ordered(track))
        if len(track) > 1
        else (),
        "site": tuple(FacetCount(v, n, _site_query(v)) for v, n in _ordered(site))
        if len(site) > 1
        else (),
    }


def site_term(site: str) -> str:
    """What ``site:`` matches: the city's letters and digits, lower case (``Mexico City`` ->
    ``mexicocity``); ``''`` for no site."""
    return "".join(ch for ch in site.casefold() if ch.isalnum())


def _site_query(value: str) -> str:
    """``venue:neurips2026 site:paris`` for the facet value ``NeurIPS 2026 · Paris``."""
    venue, _, site = value.rpartition(" · ")
    return f"venue:{venue_term(venue)} site:{site_term(site)}"


def venue_term(text: str) -> str:
    """What ``venue:`` matches: a known venue's key (``ICML 2026`` -> ``icml2026``), else the
    name's letters and digits, lower case."""
    known = venues.venue(text) or venues.venue_named(text)
    return known.key if known else "".join(ch for ch in text.casefold() if ch.isalnum())


def _ordered(counter: dict[str, int]) -> list[tuple[str, int]]:
    return sorted(counter.items(), key=lambda item: (-item[1], item[0]))


def sort_key(sort: SortKey, paper: Paper) -> tuple[object, ...]:
    """The key that orders papers for ``sort`` ("title", or "time" with undated papers last).

    Time is the moment of the paper's earliest presentation (an oral's talk when it comes
    before its poster), whatever offset each source wrote it with.
    """
    title = paper.title.casefold()
    if sort == "time":
        return (*instant_key(first_event(paper).starts_at), title)
    return (title, paper.id)


def sorted_indexes(sort: SortKey, papers: Sequence[Paper], indexes: Iterable[int]) -> list[int]:
    """``indexes`` into ``papers`` ordered by ``sort`` (stable for "relevance")."""
    found = list(indexes)
    if sort == "relevance":
        return found
    return sorted(found, key=lambda i: sort_key(sort, papers[i]))


def tag_facet(tags: dict[str, frozenset[str]], matched: Iterable[str]) -> tuple[FacetCount, ...]:
    """The reading list's tags among the ``matched`` paper ids, most first, each with
    its ``tag:`` query (tags live in the reading list, not in the index)."""
    found = frozenset(matched)
    counts = Counter({tag: len(ids & found) for tag, ids in tags.items()})
    return tuple(FacetCount(tag, n, _quoted("tag", tag)) for tag, n in _ordered(counts) if n)
