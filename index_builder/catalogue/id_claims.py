"""Ids that user files declare must never take over an id another paper owns.

A JSON, JSONL or BibTeX record may declare ``id``, ``paper_id`` and ``aliases``;
they become aliases of the paper the record lands in, so that a bookmark taken
under an older id still resolves. A declared id that is another paper's own id
(a table event id, an abstract's ``a`` id, a title's ``b`` id), or that several
papers would answer to, would let a file hijack that paper's bookmark. Such an
id is dropped from the paper that got it by declaration, and the declaring file
is named in a (non-fatal) :class:`~index_builder.model.SourceProblem`.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import replace

from index_builder.model import Paper, SourceProblem
from index_builder.sources.types import SourceData


def drop_claimed_ids(
    papers: Sequence[Paper], parsed: Sequence[SourceData]
) -> tuple[tuple[Paper, ...], list[SourceProblem]]:
    """``papers`` without declared aliases that clash, and one problem per clash."""
    declared: dict[str, dict[str, str]] = defaultdict(dict)
    """id -> {record source (FILE:POSITION) -> file} of every record declaring it."""
    for data in parsed:
        for record in data.records:
            for name in record.paper.aliases:
                declared[name][record.source] = str(data.path)
    if not declared:
        return tuple(papers), []
    owned = {p.id for p in papers}
    holders: dict[str, list[int]] = defaultdict(list)
    for index, paper in enumerate(papers):
        for alias in paper.aliases:
            if alias in declared:
                holders[alias].append(index)
    drop: dict[int, set[str]] = defaultdict(set)
    problems: dict[tuple[str, str], SourceProblem] = {}
    for alias, indices in holders.items():
        by_declaration = [i for i in indices if _declared_on(papers[i], declared[alias])]
        if alias not in owned and len(indices) == 1:
            continue
        if alias not in owned and len(by_declaration) < len(indices):
            losers = by_declaration  # another paper holds it by right (a joined abstract's id)
        else:
            losers = by_declaration or indices
        for i in losers:
            drop[i].add(alias)
            for source, file in declared[alias].items():
                if source in papers[i].sources:
                    problems.setdefault(
                        (file, alias),
                        SourceProblem(
                            file,
                            f"declares the id {alias!r}, which belongs to another paper; "
                            "that id was ignored",
                            fatal=False,
                        ),
                    )
    if not drop:
        return tuple(papers), []
    out = [
        replace(p, aliases=tuple(a for a in p.aliases if a not in drop[i])) if i in drop else p
        for i, p in enumerate(papers)
    ]
    return tuple(out), list(problems.values())


def _declared_on(paper: Paper, sources: dict[str, str]) -> bool:
    """True when a record declaring the id is one of ``paper``'s sources."""
    return any(source in paper.sources for source in sources)
