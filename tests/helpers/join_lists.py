"""Shuffled abstract lists with a known answer, for the join tests and the join benchmark.

Two sources of real text:

- the 76 bundled abstracts (``tests/fixtures/catalogue_truth.json`` says which row each
  belongs to), split by file: ``000`` and ``002`` to tune, ``003`` and ``004`` held out;
- the real arXiv sample (``/work/shared/data/arxiv_sample.jsonl.gz`` or
  ``$PAPERSCOPE_ARXIV_SAMPLE``), split by a hash of the arXiv id into a tuning half and a
  held-out half. A table is made of the ICML 2026 titles (distractors), the listed papers'
  titles and, for every listed paper, the two arXiv titles closest to its own (near-duplicate
  decoys: same topic, overlapping title words). arXiv papers whose title resembles an ICML
  title (half their title words shared, or the same name such as ``LLM4Cov``) are left out:
  many are the same paper, renamed. So are the sample's few papers that share their
  abstract's opening with another one (companion papers with one abstract: no text can
  tell them apart).

Every list is shuffled: its order says nothing. Each list can also be written as a list
copied with its author lines (:func:`with_author_lines`): each entry's authors on the line
before its abstract.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import cache, lru_cache
from pathlib import Path

from index_builder.catalogue.joins.match import AbstractMatcher, Join, Scored, score_one
from index_builder.catalogue.joins.score import (
    STOPWORDS,
    AbstractTerms,
    TitleIndex,
    stems,
    title_names,
)
from index_builder.catalogue.joins.thresholds import STRONG_TIERS
from tests.helpers.catalogue_data import bundled_files, expected_rows, lists, posters

ARXIV = Path(os.environ.get("PAPERSCOPE_ARXIV_SAMPLE", "/work/shared/data/arxiv_sample.jsonl.gz"))
TUNE, HELD_OUT = 0, 1


@dataclass(frozen=True)
class Case:
    """A table of titles, a shuffled list of abstracts and each abstract's true row."""

    name: str
    titles: tuple[str, ...]
    abstracts: tuple[str, ...]
    truth: tuple[int | None, ...]
    """Per abstract, its row (``None``: its paper is not in the table)."""
    authors: tuple[tuple[str, ...], ...] = ()
    """Per row, its authors."""
    written_by: tuple[tuple[str, ...], ...] = ()
    """Per abstract, its paper's authors (those of an absent paper too)."""

    def part(self, cut: slice) -> Case:
        """The same table with a slice of the abstracts."""
        return replace(
            self,
            abstracts=self.abstracts[cut],
            truth=self.truth[cut],
            written_by=self.written_by[cut],
        )


@dataclass(frozen=True)
class Score:
    """How a join did: right, wrong and unjoined abstracts."""

    right: int
    wrong: int
    unjoined: int

    @property
    def joined_share(self) -> float:
        """The share of abstracts joined to their own row."""
        total = self.right + self.wrong + self.unjoined
        return self.right / total if total else 0.0


def score(case: Case, joins: dict[int, Join]) -> Score:
    """Count a join's answers against the truth."""
    right = sum(1 for a, j in joins.items() if case.truth[a] == j.row)
    return Score(right, len(joins) - right, len(case.abstracts) - len(joins))


def run(
    case: Case,
    seed: int = 0,
    tiers: Sequence[tuple[float, float]] = STRONG_TIERS,
    *,
    scored_once: bool = False,
) -> Score:
    """Join the case's list, shuffled with ``seed``, as one file (no helpful order).

    ``scored_once``: the table's index and each abstract's ranking come from
    :func:`scoring_of`, made once in this process for every case on the same table (the
    tests' choice; the benchmark times the scoring of each run).
    """
    order = list(range(len(case.abstracts)))
    random.Random(seed).shuffle(order)
    if scored_once:
        index, scored = scoring_of(case.titles, case.authors)
        matcher = AbstractMatcher(index, case.abstracts, tiers, scored)
    else:
        matcher = AbstractMatcher(TitleIndex(case.titles, case.authors), case.abstracts, tiers)
    return score(case, matcher.join(list(range(len(case.titles))), [order]))


@lru_cache(maxsize=4)
def scoring_of(
    titles: tuple[str, ...], authors: tuple[tuple[str, ...], ...]
) -> tuple[TitleIndex, Callable[[str], Scored]]:
    """The title index of a table, and each abstract's analysis and ranking against it,
    made once (both are functions of the titles, their authors and the text alone, which
    is why the catalogue's scoring cache may keep them)."""
    index = TitleIndex(titles, authors)
    return index, cache(lambda text: score_one(index, text))


def with_author_lines(case: Case) -> Case:
    """The case's list as copied with author lines: each entry's authors, then its abstract."""
    texts = tuple(
        f"{', '.join(names)}\n{text}"
        for names, text in zip(case.written_by, case.abstracts, strict=True)
    )
    return replace(case, name=f"{case.name} with authors", abstracts=texts)


def bundled_case(part: int) -> Case:
    """The bundled abstracts of the tuning files (``part`` 0) or the held-out ones (1)."""
    files = bundled_files()[:2] if part == TUNE else bundled_files()[2:]
    texts = [e.text for entries in lists() for e in entries]
    expected = expected_rows()
    picked = [a for f in files for a in f]
    authors = tuple(tuple(r.paper.authors) for r in posters())
    return Case(
        f"bundled {'000+002' if part == TUNE else '003+004'}",
        tuple(r.paper.title_raw for r in posters()),
        tuple(texts[a] for a in picked),
        tuple(expected[a] for a in picked),
        authors,
        tuple(authors[expected[a]] for a in picked),
    )


@lru_cache(maxsize=1)
def _arxiv() -> tuple[dict[str, object], ...]:
    with gzip.open(ARXIV, "rt", encoding="utf-8") as handle:
        return tuple(json.loads(line) for line in handle)


def _opening(paper: dict[str, object]) -> str:
    """The first 200 characters of a paper's abstract, spacing normalised."""
    return " ".join(str(paper["abstract"]).split())[:200]


def _content(title: str) -> set[str]:
    return {s for s in stems(title) if s not in STOPWORDS}


def _like_icml(title: str, index: TitleIndex, icml_names: set[str]) -> bool:
    """True when the title shares half its words with one of its closest ICML titles, or
    a name (``LLM4Cov``) with any ICML title."""
    if {n.lower() for n in title_names(title)} & icml_names:
        return True
    mine = _content(title)
    for _, row in index.ranked(AbstractTerms.of(title), 3):
        theirs = _content(index.titles[row])
        if len(mine & theirs) >= 0.5 * len(mine | theirs):
            return True
    return False


def arxiv_case(part: int, size: int, absent: int = 0) -> Case:
    """``size`` arXiv abstracts of one half, their titles, decoys and the ICML titles.

    ``absent`` more abstracts are listed whose papers are not in the table (their decoys
    are): each must stay unjoined.
    """
    icml = tuple(r.paper.title_raw for r in posters())
    icml_index = TitleIndex(icml)
    icml_names = {n.lower() for title in icml for n in title_names(title)}
    openings = Counter(_opening(p) for p in _arxiv())
    half = [
        p
        for p in _arxiv()
        if int(hashlib.sha256(str(p["id"]).encode()).hexdigest(), 16) % 2 == part
        and openings[_opening(p)] == 1
        and not _like_icml(str(p["title"]), icml_index, icml_names)
    ]
    random.Random(part).shuffle(half)
    listed, gone, pool = half[:size], half[size : size + absent], half[size + absent :]
    pool_index = TitleIndex([str(p["title"]) for p in pool])
    decoys: set[int] = set()
    for paper in (*listed, *gone):
        decoys.update(r for _, r in pool_index.ranked(AbstractTerms.of(str(paper["title"])), 2))
    titles = (
        *icml,
        *(str(p["title"]) for p in listed),
        *(pool_index.titles[r] for r in sorted(decoys)),
    )
    authors = (
        *(tuple(r.paper.authors) for r in posters()),
        *(_names(p) for p in listed),
        *(_names(pool[r]) for r in sorted(decoys)),
    )
    truth = tuple([len(icml) + n for n in range(len(listed))] + [None] * len(gone))
    abstracts = tuple(str(p["abstract"]) for p in (*listed, *gone))
    kind = "tuning" if part == TUNE else "held-out"
    written_by = tuple(_names(p) for p in (*listed, *gone))
    return Case(
        f"arXiv {kind} {size}+{absent} absent", titles, abstracts, truth, authors, written_by
    )


@lru_cache(maxsize=1)
def held_out_arxiv() -> Case:
    """``arxiv_case(HELD_OUT, 600, 150)``, made once in this process (the join tests run it
    with and without author lines)."""
    return arxiv_case(HELD_OUT, 600, 150)


def _names(paper: dict[str, object]) -> tuple[str, ...]:
    authors = paper.get("authors")
    return tuple(str(a) for a in authors) if isinstance(authors, list) else ()
