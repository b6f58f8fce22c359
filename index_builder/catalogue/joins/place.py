"""The join's entry point: every abstract of the pool placed on a table entry, or left alone.

:func:`place_abstracts` runs the join's steps in order: an abstract equal to a row's
official (feed) abstract joins it (:func:`~index_builder.catalogue.official.certain_joins`);
twins (an abstract that is another under an extra opening) are found so that only the
longer one is scored; the automatic join (:mod:`index_builder.catalogue.joins.match`)
places the rest; joins the user took apart are dropped; records' event ids and titles
settle the final rows (:meth:`~index_builder.catalogue.merge_records.RecordMerge.settle`);
and each bare twin lands on its longer twin's row.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import replace
from typing import NamedTuple, Protocol

from index_builder.catalogue.joins import scoring_cache
from index_builder.catalogue.joins.match import Join
from index_builder.catalogue.joins.thresholds import TWIN_HEAD, TWIN_MAX_WORDS, TWIN_MIN_CHARS
from index_builder.catalogue.merge_records import RecordMerge
from index_builder.catalogue.official import certain_joins, namespace
from index_builder.catalogue.paper_rows import TablePaper
from index_builder.sources.records import abstract_id, normalized
from index_builder.sources.types import AbstractEntry


class _Abstract(Protocol):
    """One distinct abstract of the pool and every place it appears (the merge's own type)."""

    @property
    def raw(self) -> str:
        """The abstract's text as first read."""

    @property
    def entries(self) -> Sequence[AbstractEntry]:
        """Every place the abstract appears."""

    @property
    def rank(self) -> int:
        """Where its first place not written by a join by hand comes (-1: none)."""


class Placement(NamedTuple):
    """What the join decided, by index into the pool of abstracts and into the table."""

    joins: dict[int, int]
    """``{abstract: table entry}``: the final joins."""
    possible: dict[int, int]
    """``{abstract: table entry}``: abstracts left alone that are possibly that entry."""
    twins: dict[int, int]
    """``{longer: bare}``: abstracts that are another under an extra opening."""


def place_abstracts(
    table: Sequence[TablePaper],
    abstracts: Sequence[_Abstract],
    files: Sequence[Sequence[int]],
    merge: RecordMerge,
    official: Sequence[tuple[str, str]],
    apart: set[tuple[str, int | None]],
) -> Placement:
    """Join the pool's ``abstracts`` to ``table`` entries; ``files``: per file, its untitled
    abstracts in order; ``official``: each entry's feed abstract and file; ``apart``:
    ``(abstract id, event id)`` pairs the user took apart."""
    texts = {i: text for i, (text, _) in enumerate(official) if text}
    keyed = scoring_cache.official_keys(texts)
    certain = certain_joins(texts, [a.raw for a in abstracts], keyed)
    possible: dict[int, int] = {}
    twins = _twins(abstracts)
    longer_of = {bare: longer for longer, bare in twins.items()}
    in_order = [list(dict.fromkeys(longer_of.get(i, i) for i in file)) for file in files]
    guessed = _join(table, abstracts, in_order, merge, possible, skip=longer_of)
    if apart:  # joins the user took apart: neither joined nor hinted again
        kept = _apart(abstracts, table, apart)
        guessed = {a: j for a, j in guessed.items() if kept(a, j.row)}
        possible = {a: row for a, row in possible.items() if kept(a, row)}
    possible.update({b: possible[a] for b, a in longer_of.items() if a in possible})
    rows = set(certain.values())
    matched = {a: j for a, j in guessed.items() if a not in certain and j.row not in rows}
    matched.update((a, Join(row, 1.0, 0.0, "strong")) for a, row in certain.items())
    joins = merge.settle(
        [item.row.paper.title_raw for item in table],
        [-1 if namespace(item.row) else item.row.event_id for item in table],
        [a.entries for a in abstracts],
        {a: join.row for a, join in matched.items()},
    )
    _settle_twins(twins, joins, merge)
    return Placement(joins, possible, twins)


def _twins(abstracts: Sequence[_Abstract]) -> dict[int, int]:
    """``{longer: bare}``: abstracts that are another abstract under an extra opening.

    A list copied with author lines (or titles) beside one without holds each paper twice:
    the longer text is joined, as it carries more evidence, and the bare one lands on the
    same paper (:func:`_settle_twins`) instead of contesting its row or standing alone.
    """
    texts = [normalized(a.raw) for a in abstracts]
    by_text = {t: i for i, t in enumerate(texts)}
    heads = {t[:TWIN_HEAD] for t in texts}
    out: dict[int, int] = {}
    for index, norm in enumerate(texts):
        start = 0
        for _ in range(TWIN_MAX_WORDS):
            start = norm.find(" ", start) + 1
            if not start or len(norm) - start < TWIN_MIN_CHARS:
                break
            if norm[start : start + TWIN_HEAD] not in heads:
                continue
            bare = by_text.get(norm[start:])
            if bare is not None and bare != index:
                out[index] = bare
                break
    bares = set(out.values())
    return {longer: bare for longer, bare in out.items() if longer not in bares}


def _settle_twins(twins: dict[int, int], joins: dict[int, int], merge: RecordMerge) -> None:
    """Put each bare twin on its longer twin's row, shown there, the longer one folded in;
    and a longer twin whose bare one is on a row (by the feed's text) into that row."""
    for longer, bare in twins.items():
        if bare in merge.folded or longer in merge.folded:
            continue
        if longer in joins and bare not in joins:
            joins[bare] = joins.pop(longer)
        elif not (bare in joins and longer not in joins):
            continue
        merge.alternates[joins[bare]].append(longer)
        merge.folded.add(longer)


def _apart(
    abstracts: Sequence[_Abstract], table: Sequence[TablePaper], apart: set[tuple[str, int | None]]
) -> Callable[[int, int], bool]:
    """Whether abstract ``a`` may go to table entry ``row``: not when the user took them apart."""

    def kept(a: int, row: int) -> bool:
        return (abstract_id(abstracts[a].raw), table[row].row.event_id) not in apart

    return kept


def _join(
    table: Sequence[TablePaper],
    abstracts: Sequence[_Abstract],
    files: Sequence[Sequence[int]],
    merge: RecordMerge | None = None,
    possible: dict[int, int] | None = None,
    skip: Collection[int] = (),
) -> dict[int, Join]:
    """Join abstracts to table entries (indices into ``table``), all but those in ``skip``.

    Abstracts that only titled records hold join by title alone, so they are not scored.
    ``possible`` receives the abstracts left unjoined that are possibly a table entry.
    """
    keep = [
        i
        for i, a in enumerate(abstracts)
        if i not in skip and (merge is None or not all(merge.titled_entry(e) for e in a.entries))
    ]
    # In the order of their places other than joins by hand (the pool's own order when
    # there are none): a join by hand, which the matcher does not decide, puts its
    # abstract first in the pool (joins.jsonl sorts first) but hands the matcher the
    # abstracts in the same order, so its kept decisions serve (scoring_cache.decided).
    keep.sort(key=lambda i: abstracts[i].rank)
    ours = [item for item in table if not namespace(item.row)]  # lists are the table's venue's
    if not ours or not keep:
        return {}
    at = {id(item): n for n, item in enumerate(table)}
    position = {i: n for n, i in enumerate(keep)}
    ordered = [[position[i] for i in file if i in position] for file in files]
    joins, hinted = scoring_cache.decided(
        [item.row.paper.title_raw for item in ours],
        [item.row.paper.authors for item in ours],
        [abstracts[i].raw for i in keep],
        [item.row.event_id for item in ours],
        ordered,
    )
    if possible is not None:
        possible.update({keep[n]: at[id(ours[r])] for n, r in hinted.items()})
    return {keep[n]: replace(j, row=at[id(ours[j.row])]) for n, j in joins.items()}
