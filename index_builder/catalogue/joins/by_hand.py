"""Joins made by hand: the user's word that an abstract left on its own is a table paper.

The automatic join (:mod:`index_builder.catalogue.joins.match`) never guesses, so some of a
list's abstracts stay on their own, many with a "possibly the same as" hint. The user
settles one with ``paperscope join ABSTRACT_ID PAPER_ID`` or ``J`` in the app, and takes
it back with ``paperscope join --undo ID`` (or ``J`` again). Each join is one line of
``joins.jsonl`` in the data folder, a record any reader of JSONL understands::

    {"event_id": 64328, "title": "Selective Disclosure ...", "abstract": "Watermarking ...",
     "joined": "2026-12-05"}

That file is read as a source like the user's other record files (see
:mod:`index_builder.catalogue.merge_records`): the event id puts the abstract on its row,
the same text in a list is the same paper, and the abstract's own id becomes an alias
of the row's paper, so a bookmark taken on the lone abstract still resolves.

The automatic join may also be wrong. ``paperscope join --apart PAPER_ID`` (or ``J`` on a
table paper whose abstract a list gave it) writes a separation to the same file
(:class:`Apart`, ``"apart": true``): the catalogue reads it as a record that is no paper
(:attr:`index_builder.sources.records.PaperRecord.apart`) and never joins, nor hints at,
those abstracts and that row again; ``--undo`` removes it as it removes a join.

A line this module cannot read (a hand edit gone wrong) is kept as it is whenever the
file is written again; the catalogue names it and skips it, as for any record file.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from index_builder.atomic import write_atomic
from index_builder.catalogue.joins.match import RANK_LIMIT
from index_builder.catalogue.joins.score import AbstractTerms, TitleIndex
from index_builder.model import Paper
from index_builder.sources.files import read_regular_file
from index_builder.sources.join_lines import event_id_of, parse_text
from index_builder.venues import known

Lookup = Callable[[str], Paper | None]
"""A catalogue's ``get``: the paper with an id or alias."""
CANDIDATES = 5
"""How many papers :class:`Candidates` offers for one abstract."""


class JoinRefused(ValueError):
    """A join (or an undo) that cannot be made; the message says why, to the user."""


KEEPS_ITS_ABSTRACT = (
    "{id} keeps its abstract: the conference's own abstract of the paper is the same text "
    "as your list's, which no separation overrides"
)
"""Why a certain join is not taken apart (``id``: the paper's)."""


@dataclass(frozen=True, slots=True)
class _OnRow:
    """A line of the file about one row of the table: what it states, as a partial paper."""

    paper: Paper

    @property
    def event_id(self) -> int:
        """The row's event id."""
        return self.paper.event_id or 0

    @property
    def title(self) -> str:
        """The row's title, as the table writes it."""
        return self.paper.title_raw


@dataclass(frozen=True, slots=True)
class HandJoin(_OnRow):
    """One join of the file: an abstract's text put on the row of an event id.

    Its :attr:`paper` states the row's ``event_id`` and ``title_raw``, and the ``abstract_raw``.
    """

    joined: str = ""
    """The day it was made (``YYYY-MM-DD``), for the user reading the file."""

    @classmethod
    def of(cls, event_id: int, title: str, abstract: str, joined: str = "") -> HandJoin:
        """The join of ``abstract`` to the row ``event_id`` (titled ``title``)."""
        stated = Paper("", "", title_raw=title, abstract_raw=abstract, event_id=event_id)
        return cls(stated, joined)

    @property
    def abstract(self) -> str:
        """The abstract, as its list writes it."""
        return self.paper.abstract_raw

    @property
    def abstract_id(self) -> str:
        """The id the abstract had on its own (an alias of the paper once joined)."""
        from index_builder.sources.records import abstract_id  # renders LaTeX: not at import

        return abstract_id(self.abstract)

    def line(self) -> str:
        """The join as one JSONL line (no newline)."""
        data = {
            "event_id": self.event_id,
            "title": self.title,
            "abstract": self.abstract,
            "joined": self.joined,
        }
        return json.dumps(data, ensure_ascii=False)


@dataclass(frozen=True, slots=True)
class Apart(_OnRow):
    """One join taken apart: the row of ``event_id`` is not the paper of these abstracts.

    Its :attr:`paper` states the row's ``event_id`` and ``title_raw``, and the abstracts'
    ids as its ``aliases``.

    For a join the automatic join got wrong. Its line is a record the catalogue reads
    (:func:`index_builder.sources.records.record_from_json`)::

        {"apart": true, "event_id": 62850, "title": "ProEval: ...",
         "abstract_ids": ["a63f9df05de"], "separated": "2026-12-06"}
    """

    separated: str = ""
    """The day it was made (``YYYY-MM-DD``), for the user reading the file."""

    @classmethod
    def of(cls, event_id: int, title: str, ids: Sequence[str], separated: str = "") -> Apart:
        """The separation of the row ``event_id`` (titled ``title``) and the abstracts ``ids``."""
        stated = Paper("", "", title_raw=title, event_id=event_id, aliases=tuple(ids))
        return cls(stated, separated)

    @property
    def abstract_ids(self) -> tuple[str, ...]:
        """The ids of the abstracts that are not the row's."""
        return self.paper.aliases

    @property
    def abstract_id(self) -> str:
        """The id the (first) abstract has on its own once apart."""
        return self.abstract_ids[0]

    def line(self) -> str:
        """The separation as one JSONL line (no newline)."""
        data = {
            "apart": True,
            "event_id": self.event_id,
            "title": self.title,
            "abstract_ids": list(self.abstract_ids),
            "separated": self.separated,
        }
        return json.dumps(data, ensure_ascii=False)


_ABSTRACT_ID = re.compile(r"a[0-9a-f]{10}")


def listed_abstract_ids(paper: Paper) -> tuple[str, ...]:
    """The ids of the listed abstracts joined to a table paper (its ``a…`` aliases)."""
    return tuple(a for a in paper.aliases if _ABSTRACT_ID.fullmatch(a))


def conference_text(paper: Paper) -> bool:
    """True when the paper's abstract is its conference's own (from a venue's abstracts
    feed) and one of its listed abstracts is that same text: a certain join, which no
    separation overrides.

    Whitespace and case aside; a copy that differs only in markup is found after the
    rebuild instead (:func:`apart_took`).
    """
    from index_builder.sources.records import abstract_id  # renders LaTeX: not at import

    feeds = {venue.abstracts_name for venue in known()}
    if not paper.abstract_raw or feeds.isdisjoint(paper.sources):
        return False
    return abstract_id(paper.abstract_raw) in listed_abstract_ids(paper)


def parse_apart(line: str) -> Apart | None:
    """The separation one line of the file holds; ``None`` for a line that holds none."""
    stated = parse_text(line)
    if stated is None or not stated.apart:
        return None
    return Apart.of(stated.event_id, stated.title, stated.abstract_ids, stated.day)


def read_aparts(path: Path, *, strict: bool = False) -> list[Apart]:
    """Every separation the file holds (none when it cannot be read and not ``strict``:
    the catalogue names it; ``strict`` raises :class:`JoinRefused` instead)."""
    try:
        lines = read_lines(path)
    except JoinRefused:
        if strict:
            raise
        return []
    return [a for a in map(parse_apart, lines) if a is not None]


def parse_line(line: str) -> HandJoin | None:
    """The join one line of the file holds; ``None`` for a line that holds none."""
    stated = parse_text(line)
    if stated is None or stated.apart:
        return None
    return HandJoin.of(stated.event_id, stated.title, stated.abstract, stated.day)


def read_lines(path: Path) -> list[str]:
    """The file's non-blank lines as written (none when there is no file).

    Read as the catalogue reads its sources (:func:`read_regular_file`): a named pipe, a
    device or a file over the size cap is refused at once, in one line.
    """
    try:
        data = read_regular_file(path)
    except FileNotFoundError:
        return []
    except OSError as exc:
        raise JoinRefused(f"cannot read {path}: {exc.strerror or exc}; mend or move it") from exc
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise JoinRefused(f"{path} is not UTF-8 text ({exc.reason}); mend or move it") from exc
    return [line for line in text.splitlines() if line.strip()]


def read_joins(path: Path) -> list[HandJoin]:
    """Every join the file holds, in its order (lines it cannot read are left out)."""
    return [j for j in map(parse_line, read_lines(path)) if j is not None]


def joinable(paper: Paper) -> bool:
    """True for a paper a join by hand may give an abstract: a table paper without one."""
    return paper.event_id is not None and ":" not in paper.id and not paper.abstract_raw


class Candidates:
    """What a join by hand may pair, likeliest first, for the user to pick from.

    For a lone abstract, the table papers a join may fill (:func:`joinable`); for such a
    paper, the lone abstracts. Both are ranked by the join's own title scores
    (:mod:`index_builder.catalogue.joins.score`), and what a "possibly the same as" hint
    names comes first. Indexing the titles takes about 0.3 s for the 6,628 papers:
    build one per catalogue and keep it.
    """

    def __init__(self, papers: Sequence[Paper], aparts: Sequence[Apart] = ()) -> None:
        """Index the titles of the joinable papers among ``papers``; note the lone abstracts.

        A pair the user took apart (``aparts``) is never offered again.
        """
        self._apart = {(i, a.event_id) for a in aparts for i in a.abstract_ids}
        self.papers = [p for p in papers if joinable(p)]
        self.lone = [p for p in papers if p.event_id is None and p.abstract_raw]
        self._index = TitleIndex([p.title_raw or p.title for p in self.papers])
        self._row = {p.id: row for row, p in enumerate(self.papers)}
        self._terms: dict[str, AbstractTerms] = {}

    def _terms_of(self, abstract: Paper) -> AbstractTerms:
        terms = self._terms.get(abstract.id)
        if terms is None:
            terms = self._terms[abstract.id] = AbstractTerms.of(abstract.abstract_raw)
        return terms

    def of(self, abstract: Paper, limit: int = CANDIDATES) -> list[Paper]:
        """Up to ``limit`` papers for the lone ``abstract`` (its hint before all)."""
        hinted = [self.papers[self._row[i]] for i in abstract.possibly_same_as if i in self._row]
        # Ranked as the join ranks (its breadth of nominated titles), then cut.
        ranked = self._index.ranked(self._terms_of(abstract), RANK_LIMIT)
        found: dict[str, Paper] = {}
        for paper in [*hinted, *(self.papers[row] for score, row in ranked if score > 0)]:
            if len(found) == limit:
                break
            if not self._taken_apart(abstract, paper):
                found.setdefault(paper.id, paper)
        return list(found.values())

    def _taken_apart(self, abstract: Paper, paper: Paper) -> bool:
        return (abstract.id, paper.event_id) in self._apart

    def abstracts_for(self, paper: Paper, limit: int = CANDIDATES) -> list[Paper]:
        """Up to ``limit`` lone abstracts for the joinable ``paper`` (those hinted at it first)."""
        row = self._row.get(paper.id)
        if row is None:
            return []
        lone = [a for a in self.lone if not self._taken_apart(a, paper)]
        hinted = [a for a in lone if paper.id in a.possibly_same_as]
        scored = [
            (score, a)
            for a in lone
            if paper.id not in a.possibly_same_as
            and (score := self._index.score(self._terms_of(a), row)) > 0
        ]
        scored.sort(key=lambda pair: -pair[0])
        return [*hinted, *(a for _, a in scored)][:limit]


def plan_join(lookup: Lookup, abstract: str, paper: str, today: dt.date | None = None) -> HandJoin:
    """The join of the lone abstract ``abstract`` (an id) to the table paper ``paper``.

    Raises :class:`JoinRefused` unless the first is an abstract on its own and the
    second a paper of the table (this conference's) that has no abstract yet: a join by
    hand fills a gap, it never replaces an abstract or moves one between papers.
    """
    lone, row = lookup(abstract), lookup(paper)
    if lone is None:
        raise JoinRefused(f"no paper with id {abstract!r} (try: paperscope search WORDS)")
    if row is None:
        raise JoinRefused(f"no paper with id {paper!r} (try: paperscope search WORDS)")
    if lone.event_id is not None:
        if lone.id != abstract.strip() and abstract.strip().startswith("a"):
            raise JoinRefused(f"{abstract} is already joined to {lone.id} ({lone.title})")
        raise JoinRefused(
            f"{abstract} is a table paper ({lone.title}), not an abstract on its own: "
            "give the abstract's id first"
        )
    if not lone.abstract_raw:
        raise JoinRefused(f"{lone.id} has no abstract to join")
    if row.event_id is None or ":" in row.id:
        raise JoinRefused(f"{row.id} is not a paper of the ICML 2026 table, which alone joins")
    if not joinable(row):
        raise JoinRefused(
            f"{row.id} ({row.title}) already has an abstract; a join never replaces one"
        )
    assert row.event_id is not None
    day = (today or dt.date.today()).isoformat()
    return HandJoin.of(row.event_id, row.title_raw or row.title, lone.abstract_raw, day)


def plan_apart(lookup: Lookup, paper: str, path: Path, today: dt.date | None = None) -> Apart:
    """Taking apart the automatic join of the table paper ``paper`` (an id) and its abstract.

    Raises :class:`JoinRefused` unless the paper is a table paper whose abstract a list
    gave and the join is not one made by hand (``--undo`` takes such a join back).
    """
    row = lookup(paper)
    if row is None:
        raise JoinRefused(f"no paper with id {paper!r} (try: paperscope search WORDS)")
    ids = listed_abstract_ids(row)
    if row.event_id is None or ":" in row.id:
        raise JoinRefused(
            f"{row.id} is not a paper of the ICML 2026 table: nothing is joined to take apart"
        )
    if is_hand_joined(row, path):
        raise JoinRefused(
            f"you joined {row.id} by hand: paperscope join --undo {row.id} takes that back"
        )
    if not ids:
        raise JoinRefused(f"{row.id} ({row.title}) holds no abstract of your lists to take apart")
    if conference_text(row):
        raise JoinRefused(KEEPS_ITS_ABSTRACT.format(id=row.id))
    day = (today or dt.date.today()).isoformat()
    return Apart.of(row.event_id, row.title_raw or row.title, ids, day)


def add_join(path: Path, join: HandJoin | Apart) -> None:
    """Append ``join`` to the file, written whole and atomically (every other line kept).

    Raises :class:`JoinRefused` for a second join of one abstract, or of one row: one
    abstract is one paper, and a row has one abstract.
    """
    lines = read_lines(path)
    if isinstance(join, HandJoin):
        for number, line in enumerate(lines, 1):
            made = parse_line(line)
            if made is not None and made.abstract_id == join.abstract_id:
                raise JoinRefused(
                    f"{join.abstract_id} is already joined by hand to {made.event_id} "
                    f"({made.title or 'line ' + str(number)}): one abstract is one paper; "
                    f"paperscope join --undo {join.abstract_id} takes that join back first"
                )
            if made is not None and made.event_id == join.event_id:
                raise JoinRefused(
                    f"{join.event_id} already has an abstract joined by hand "
                    f"({made.abstract_id}); paperscope join --undo {join.event_id} takes it back"
                )
    _write(path, [*lines, join.line()])


def remove_joins(path: Path, lookup: Lookup, wanted: str) -> list[HandJoin | Apart]:
    """Take back the joins on ``wanted`` (the abstract's id or its paper's), or when there
    is none, its separations; returns what was taken back.

    A join by hand of an abstract that was taken apart from another paper is taken back
    alone: the separation holds until it is taken back in turn.

    Raises :class:`JoinRefused` when no line of the file is on that id.
    """
    paper = lookup(wanted)
    ids = {wanted.strip(), *((paper.id, *paper.aliases) if paper is not None else ())}
    # A join whose paper left the table is still taken back by its event id.
    event_id = paper.event_id if paper is not None else event_id_of(wanted)
    lines = read_lines(path)
    stated = [parse_line(line) or parse_apart(line) for line in lines]
    on = [
        n
        for n, found in enumerate(stated)
        if found is not None and (found.event_id == event_id or found.abstract_id in ids)
    ]
    joins = [n for n in on if isinstance(stated[n], HandJoin)]
    taken = set(joins or on)
    kept = [line for n, line in enumerate(lines) if n not in taken]
    removed = [found for n, found in enumerate(stated) if n in taken and found is not None]
    if not removed:
        raise JoinRefused(f"no join you made is on {wanted!r} (paperscope join --list shows them)")
    if kept:
        _write(path, kept)
    else:  # an empty record file is a bad source; no file is no joins
        try:
            path.unlink()
        except OSError as exc:
            raise JoinRefused(f"cannot remove {path}: {exc.strerror or exc}") from exc
    return removed


def apart_took(path: Path, lookup: Lookup, apart: Apart) -> bool:
    """After the rebuild: True when the separation took (its abstract stands alone).

    Else the conference's own abstract of the paper is the same text (a join no separation
    overrides): the separation's line is taken out of the file again.
    """
    alone = lookup(apart.abstract_id)
    if alone is not None and alone.event_id is None:
        return True
    remove_joins(path, lookup, str(apart.event_id))
    return False


def is_hand_joined(paper: Paper, path: Path) -> bool:
    """True when a join of the file at ``path`` is in force on the paper's row.

    Told by the paper's sources (the line's ``joins.jsonl:N``), so the file is not read.
    """
    if paper.event_id is None:
        return False
    return any(source.rpartition(":")[0] == path.name for source in paper.sources)


def join_state(lookup: Lookup, join: HandJoin) -> str:
    """Why a join of the file is not in force in the catalogue of ``lookup`` (``""`` when it is)."""
    row = lookup(str(join.event_id))
    if row is None or row.event_id != join.event_id:
        return "not in force: that paper is no longer in the table; the abstract stands alone"
    if join.abstract_id not in (row.id, *row.aliases):
        return "not in force: the paper has another abstract"
    return ""


def _write(path: Path, lines: list[str]) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, "".join(f"{line}\n" for line in lines))
    except OSError as exc:
        raise JoinRefused(f"cannot write {path}: {exc.strerror or exc}") from exc
