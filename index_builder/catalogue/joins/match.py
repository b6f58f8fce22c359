"""Joining abstracts to rows of the paper table, only when the evidence is clear.

A wrong join puts a wrong author list under an abstract, which is far worse than
no join, so every rule here errs towards leaving an abstract on its own.

0. **Author joins**: when the table knows its authors and an entry writes every author
   of a free row in full (two authors at least, and more than any other row so named;
   see :meth:`~index_builder.catalogue.joins.score.TitleIndex.named_by`), and that row's
   title scores at least :data:`AUTHOR_MIN_SCORE`, the entry joins it. A row so named by
   two entries goes to neither, and a strong join (below) onto a row an author join took
   is dropped.
1. **Strong joins** need no context: the best title scores at least
   :data:`STRONG_SCORE` (see :mod:`index_builder.catalogue.joins.score`) and at least
   :data:`STRONG_RATIO` times the runner-up. A row claimed by two abstracts goes
   to neither unless one claim is clearly stronger. A list's abstracts are distinct
   papers: a near rival (:data:`RIVAL_SHARE`) taken by another abstract's join is then
   set aside and the abstract judged again, by the same thresholds.
2. **Ordered joins** use the order of a file. When the strong joins of a file
   appear in increasing event-id order (as in the bundled lists), an abstract
   between two of them must belong to a row whose id lies between theirs. The
   best such row is taken only when it also ranks high among *all* titles for
   that abstract: its rank times the number of rows in the gap is at most
   :data:`ORDER_BUDGET`, so a gap of many rows needs a near-top rank, and a row
   that merely sits in the gap is never enough. Before a file's first join and
   after its last, the gap extends as far as the file's pace suggests. Files
   whose strong joins are not in order get no ordered joins.
3. **Dominant joins** are ordered joins in a gap too wide for that budget (up to
   :data:`DOMINANT_GAP` rows): the row must be the abstract's best title in the
   whole table *and* score :data:`DOMINANT_RATIO` times the gap's next best row.

Ids never come from here: the catalogue keeps an abstract's own id as an alias
of the paper it joins, so a join that appears or disappears moves no bookmark. The
numbers, and the measurements that set them, are in
:mod:`index_builder.catalogue.joins.thresholds`.
"""

from __future__ import annotations

import bisect
import itertools
import math
from collections import defaultdict
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Literal

from index_builder.catalogue.joins.score import AbstractTerms, TitleIndex
from index_builder.catalogue.joins.thresholds import (
    AUTHOR_MIN_SCORE,
    DOMINANT_GAP,
    DOMINANT_RATIO,
    EDGE_REACH,
    EXCLUDE_SLACK,
    NAME_MISS,
    ORDER_BUDGET,
    ORDER_MIN_ANCHORS,
    ORDER_MIN_SCORE,
    ORDER_MIN_SHARE,
    ORDER_RATIO,
    POSSIBLE_LEAD,
    POSSIBLE_MIN_SCORE,
    POSSIBLE_RATIO,
    POSSIBLE_SCORE,
    RANK_LIMIT,
    RIVAL_SHARE,
    SCAN_LIMIT,
    STRONG_RATIO,
    STRONG_TIERS,
)


@dataclass(frozen=True, slots=True)
class Join:
    """An abstract joined to a row, with the evidence that decided it."""

    row: int
    score: float
    runner_up: float
    evidence: Literal["authors", "strong", "ordered"]


Scored = tuple[AbstractTerms, list[tuple[float, int]]]
"""An abstract analysed, and its best titles as ``(score, row)``."""


def score_one(index: TitleIndex, text: str) -> Scored:
    """One abstract analysed and ranked against every title of ``index``."""
    terms = AbstractTerms.of(text)
    return terms, index.ranked(terms, RANK_LIMIT + EXCLUDE_SLACK)


class AbstractMatcher:
    """Abstracts scored against the titles once, ready to be joined (and re-joined cheaply)."""

    def __init__(
        self,
        index: TitleIndex,
        abstracts: Sequence[str],
        tiers: Sequence[tuple[float, float]] = STRONG_TIERS,
        scored: Callable[[str], Scored] | None = None,
    ) -> None:
        """Analyse and rank every abstract against every title; ``tiers``: the strong joins'
        ``(score, lead)`` thresholds; ``scored``: where each abstract's analysis and ranking
        come from (:func:`score_one` by default; a cache of its results, see
        :mod:`~index_builder.catalogue.joins.scoring_cache`)."""
        self.index = index
        self.tiers = tuple(tiers)
        done = [(scored or (lambda text: score_one(index, text)))(text) for text in abstracts]
        self.terms = [terms for terms, _ in done]
        self._ranked = [ranked for _, ranked in done]
        self.possible: dict[int, int] = {}
        """After :meth:`join`: abstracts left unjoined and the row each is possibly of."""
        self.by_title: set[int] = set()
        """After :meth:`join`: the abstracts of :attr:`possible` that the titles alone
        point at (see :meth:`_possible_by_title`), not a list's order."""

    def _named(self, abstract: int, row: int) -> bool:
        """False when the row's title has a name that the abstract never writes."""
        return not self.index.lacks_name(self.terms[abstract], row)

    def candidates(self, abstract: int, exclude: Collection[int] = ()) -> list[tuple[float, int]]:
        """The best titles for one abstract as ``(score, row)``, best first."""
        ranked = self._ranked[abstract]
        if exclude:
            ranked = [(s, r) for s, r in ranked if r not in exclude]
        return ranked[:RANK_LIMIT]

    def join(
        self,
        event_ids: Sequence[int],
        files: Sequence[Sequence[int]] = (),
        exclude: Collection[int] = (),
    ) -> dict[int, Join]:
        """Join the abstracts; returns ``{abstract index: Join}``.

        ``files`` lists, for each source file, the indices of its abstracts in
        file order (for ordered joins). Rows in ``exclude`` are treated as absent
        (the rankings made at construction are reused, minus those rows).
        """
        ranked = [self.candidates(a, exclude) for a in range(len(self.terms))]
        joins = self._one_to_one(ranked, set(exclude))
        ordered = [f for f in files if _is_ordered(f, joins, event_ids)]
        self.possible = {}
        if ordered:
            gaps = _Gaps(self.index, event_ids, self.terms, ranked, set(exclude))
            gaps.fill(ordered, joins)
            taken = {j.row for j in joins.values()}
            self.possible = {
                a: r for a, r in gaps.possible.items() if a not in joins and r not in taken
            }
        self._possible_by_title(ranked, joins)
        return joins

    def _one_to_one(
        self, ranked: Sequence[Sequence[tuple[float, int]]], exclude: set[int]
    ) -> dict[int, Join]:
        """Author joins, then strong joins, then again without the rows taken, until no more come.

        A list's abstracts are distinct papers, so a row taken by one abstract's clear
        join is no rival for the others: an abstract that had such a row among its near
        rivals (:func:`_rival_taken`) is judged again against the rest, by the same
        thresholds. Measured on the shuffled arXiv lists (1,300 abstracts each): 1 more
        right join per half and no wrong one; setting aside any taken row, not only near
        rivals, gave 3 and 7 more but 1 more wrong join per half. An abstract whose *best*
        title was taken stays as it is: its text points at another paper's row, so the
        next title down is no safe guess.
        """
        by_authors = self._author_joins(exclude)
        named_rows = {j.row for j in by_authors.values()}
        joins = {
            a: j
            for a, j in _strong_joins(ranked, self._named, self.tiers).items()
            if a not in by_authors and j.row not in named_rows
        }
        joins.update(by_authors)
        while True:
            taken = exclude | {j.row for j in joins.values()}
            rest = [
                self.candidates(a, taken) if a not in joins and _rival_taken(c, taken) else []
                for a, c in enumerate(ranked)
            ]
            more = _strong_joins(rest, self._named, self.tiers)
            if not more:
                return joins
            joins.update(more)

    def _author_joins(self, exclude: Collection[int]) -> dict[int, Join]:
        """Entries that write the author line of one free row whose title fits a little.

        A row so named by two entries goes to neither: they cannot both be its abstract.
        """
        claims: dict[int, list[int]] = defaultdict(list)
        scores: dict[int, float] = {}
        for abstract, terms in enumerate(self.terms):
            row = self.index.named_by(terms, exclude)
            if row is None:
                continue
            score = self.index.score(terms, row)
            if score >= AUTHOR_MIN_SCORE:
                claims[row].append(abstract)
                scores[abstract] = score
        return {
            abstracts[0]: Join(row, scores[abstracts[0]], 0.0, "authors")
            for row, abstracts in claims.items()
            if len(abstracts) == 1
        }

    def _possible_by_title(
        self, ranked: Sequence[Sequence[tuple[float, int]]], joins: dict[int, Join]
    ) -> None:
        """Unjoined abstracts whose best title leads clearly, short of a join: "possibly".

        Whatever the list's order. On the shuffled tuning lists such a title was the
        abstract's own for 7 of 7 bundled abstracts and 108 of 124 arXiv ones (some of
        whose papers are absent from the table): a hint, never a join.
        """
        taken = {j.row for j in joins.values()} | set(self.possible.values())
        self.by_title = set()
        for abstract, candidates in enumerate(ranked):
            if abstract in joins or abstract in self.possible or not candidates:
                continue
            best, row = candidates[0]
            if row in taken or not self._named(abstract, row):
                continue
            if best >= POSSIBLE_SCORE and best >= POSSIBLE_LEAD * _runner_up(
                abstract, candidates, self._named
            ):
                self.possible[abstract] = row
                self.by_title.add(abstract)
                taken.add(row)


def join_abstracts(
    index: TitleIndex,
    event_ids: Sequence[int],
    abstracts: Sequence[str],
    files: Sequence[Sequence[int]] = (),
) -> dict[int, Join]:
    """Join ``abstracts`` to the rows of ``index``; see :meth:`AbstractMatcher.join`."""
    return AbstractMatcher(index, abstracts).join(event_ids, files)


def _strong_joins(
    ranked: Sequence[Sequence[tuple[float, int]]],
    named: Callable[[int, int], bool] = lambda abstract, row: True,
    tiers: Sequence[tuple[float, float]] = STRONG_TIERS,
) -> dict[int, Join]:
    """Joins decided by the titles alone; contested rows go to a clear winner or to nobody.

    ``named(abstract, row)`` is false when the row's title has a name the abstract lacks;
    the best title must pass one of ``tiers`` (a score and a lead over the runner-up).
    """
    claims: dict[int, list[tuple[float, int, float]]] = defaultdict(list)
    for abstract, candidates in enumerate(ranked):
        if not candidates:
            continue
        best, row = candidates[0]
        runner_up = _runner_up(abstract, candidates, named)
        clear = any(best >= score and best >= lead * runner_up for score, lead in tiers)
        if clear and named(abstract, row):
            claims[row].append((best, abstract, runner_up))
    joins = {}
    for row, contenders in claims.items():
        contenders.sort(reverse=True)
        best, abstract, runner_up = contenders[0]
        if len(contenders) > 1 and best < STRONG_RATIO * contenders[1][0]:
            continue
        joins[abstract] = Join(row, best, runner_up, "strong")
    return joins


def _rival_taken(candidates: Sequence[tuple[float, int]], taken: Collection[int]) -> bool:
    """True when the best title is free and a close rival (:data:`RIVAL_SHARE`) is taken."""
    if not candidates or candidates[0][1] in taken:
        return False
    best = candidates[0][0]
    return any(r in taken for s, r in candidates[1:] if s >= RIVAL_SHARE * best)


def _runner_up(
    abstract: int, candidates: Sequence[tuple[float, int]], named: Callable[[int, int], bool]
) -> float:
    """The best rival score of the top title: the second title's, or more.

    A title set back for lacking its name still counts at its full score: it is often
    the abstract's own paper (a name the abstract spells otherwise).
    """
    runner_up = candidates[1][0] if len(candidates) > 1 else 0.0
    muted = [s / NAME_MISS for s, r in candidates[1:] if not named(abstract, r)]
    return max([runner_up, *muted])


def _longest_increasing(values: Sequence[int]) -> list[int]:
    """Indices of one longest strictly increasing subsequence of ``values``."""
    tails: list[int] = []
    tail_at: list[int] = []
    previous = [-1] * len(values)
    for i, value in enumerate(values):
        k = bisect.bisect_left(tails, value)
        if k == len(tails):
            tails.append(value)
            tail_at.append(i)
        else:
            tails[k] = value
            tail_at[k] = i
        previous[i] = tail_at[k - 1] if k else -1
    out = []
    i = tail_at[-1] if tail_at else -1
    while i >= 0:
        out.append(i)
        i = previous[i]
    return out[::-1]


def _anchors(file: Sequence[int], joins: dict[int, Join], event_ids: Sequence[int]) -> list[int]:
    """Positions in ``file`` of the joins that agree with the file's order."""
    positions = [p for p, a in enumerate(file) if a in joins]
    ids = [event_ids[joins[file[p]].row] for p in positions]
    return [positions[i] for i in _longest_increasing(ids)]


def _is_ordered(file: Sequence[int], joins: dict[int, Join], event_ids: Sequence[int]) -> bool:
    """True when enough of the file's strong joins appear in increasing event-id order."""
    joined = sum(1 for a in file if a in joins)
    if joined < ORDER_MIN_ANCHORS:
        return False
    return len(_anchors(file, joins, event_ids)) >= ORDER_MIN_SHARE * joined


class _Gaps:
    """Ordered joins: the rows between two joins of an ordered file, searched gap by gap."""

    def __init__(
        self,
        index: TitleIndex,
        event_ids: Sequence[int],
        terms: Sequence[AbstractTerms],
        ranked: Sequence[Sequence[tuple[float, int]]],
        exclude: set[int],
    ) -> None:
        """Remember the data; rows are sorted by event id once."""
        self.index, self.event_ids, self.terms, self.ranked = index, event_ids, terms, ranked
        self.exclude = exclude
        self.possible: dict[int, int] = {}
        self.by_id = sorted(range(len(event_ids)), key=lambda r: event_ids[r])
        self.sorted_ids = [event_ids[r] for r in self.by_id]

    def fill(self, files: Sequence[Sequence[int]], joins: dict[int, Join]) -> None:
        """Add ordered joins to ``joins``, one per gap per pass, until no gap yields one."""
        while True:
            taken = self.exclude | {j.row for j in joins.values()}
            added = False
            for file in files:
                anchors = _anchors(file, joins, self.event_ids)
                bounds = [-1, *anchors, len(file)]
                for left, right in itertools.pairwise(bounds):
                    if right - left < 2:
                        continue
                    gap = self._rows_between(file, anchors, left, right, joins, taken)
                    best = self._best(file[left + 1 : right], gap, joins)
                    if best is not None:
                        joins[best[0]] = best[1]
                        taken.add(best[1].row)
                        added = True
            if not added:
                return

    def _rows_between(
        self,
        file: Sequence[int],
        anchors: Sequence[int],
        left: int,
        right: int,
        joins: dict[int, Join],
        taken: set[int],
    ) -> list[int]:
        """Free rows whose ids lie strictly between the joins at ``left`` and ``right``.

        Before the first join or after the last, the gap reaches only as far as
        the file's pace (ids per position between its joins) times EDGE_REACH.
        """
        first, last = anchors[0], anchors[-1]
        first_id = self.event_ids[joins[file[first]].row]
        last_id = self.event_ids[joins[file[last]].row]
        pace = (last_id - first_id) / max(1, last - first)
        if left >= 0:
            lo = self.event_ids[joins[file[left]].row]
        else:
            lo = first_id - math.ceil(pace * right * EDGE_REACH) - EDGE_REACH
        if right < len(file):
            hi = self.event_ids[joins[file[right]].row]
        else:
            hi = last_id + math.ceil(pace * (len(file) - 1 - left) * EDGE_REACH) + EDGE_REACH
        start = bisect.bisect_right(self.sorted_ids, lo)
        stop = bisect.bisect_left(self.sorted_ids, hi)
        return [r for r in self.by_id[start:stop] if r not in taken]

    def _best(
        self, members: Sequence[int], gap: Sequence[int], joins: dict[int, Join]
    ) -> tuple[int, Join] | None:
        """The most convincing (abstract, row) of one gap, or ``None`` if none convinces."""
        if not gap:
            return None
        gap_set = set(gap)
        best: tuple[float, float, int, Join] | None = None
        for abstract in members:
            if abstract in joins:
                continue
            ranked = self.ranked[abstract]
            if len(gap) <= SCAN_LIMIT:
                terms = self.terms[abstract]
                scores = sorted(((self.index.score(terms, r), r) for r in gap), reverse=True)
            else:
                scores = [(s, r) for s, r in ranked if r in gap_set]
            if not scores:
                continue
            score, row = scores[0]
            runner_up = scores[1][0] if len(scores) > 1 else 0.0
            rank = 1 + sum(1 for s, _ in ranked if s > score)
            cost = rank * len(gap)
            clear = score >= DOMINANT_RATIO * runner_up
            if score >= POSSIBLE_MIN_SCORE and score >= POSSIBLE_RATIO * runner_up:
                self.possible[abstract] = row
            if score < ORDER_MIN_SCORE or score < ORDER_RATIO * runner_up:
                continue
            dominant = rank == 1 and len(gap) <= DOMINANT_GAP and clear
            if rank > len(ranked) or (cost > ORDER_BUDGET and not dominant):
                continue
            if best is None or (cost, -score) < (best[0], best[1]):
                best = (cost, -score, abstract, Join(row, score, runner_up, "ordered"))
        return None if best is None else (best[2], best[3])
