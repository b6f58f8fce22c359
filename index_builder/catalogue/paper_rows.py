"""The rows of tables and feeds, merged into one entry per paper with its events.

Rows of one paper: the same event id (a feed's row and a table's: the feed's values win),
a ``related_events_ids`` link, the same feed ``uid``, the same OpenReview forum id, or (a
talk without those) the same title. Talks are orals and, in a feed, any other event type
but Poster (a spotlight's talk). The paper's id is its poster's event id (the lowest,
should a feed list two posters for one paper); each other row's id becomes an alias.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from index_builder.catalogue.official import add_talk, combine, namespace
from index_builder.sources.records import normalized
from index_builder.sources.row_keys import is_talk, oral_row, row_keys
from index_builder.sources.types import SourceData, TableRow


@dataclass(slots=True)
class TablePaper:
    """A table row being merged: its poster row, oral flag and the tables that list it."""

    row: TableRow
    tables: list[str]
    oral: bool = False
    talks: list[TableRow] = field(default_factory=list)


def merge_tables(
    parsed: Sequence[SourceData], stated: Sequence[tuple[TableRow, str]] = ()
) -> list[TablePaper]:
    """One entry per paper (first table wins); its talks and further posters as its events.

    Rows of one paper: the same event id, a ``related_events_ids`` link, the same feed
    ``uid``, the same OpenReview forum, or (a talk without those) the same title. The
    paper's id is its poster's event id (the lowest, should a feed list two posters);
    every other row's id becomes an alias. ``stated`` rows (from records) come after every
    table and only add event ids no table has: a record that agrees with a row is listed
    on it by its title.
    """
    by_id: dict[tuple[str, int], TablePaper] = {}
    talks: list[tuple[TableRow, str]] = []
    groups = [(data.path.name, data.rows, True) for data in parsed]
    groups.extend((name, [row], False) for row, name in stated)
    for name, rows, listed in groups:
        for row in rows:
            key = (namespace(row), row.event_id)
            if is_talk(row):
                talks.append((row, name))
            elif key in by_id:
                known = by_id[key]
                known.row = combine(known.row, row)
                if listed and name not in known.tables:
                    known.tables.append(name)
            else:
                by_id[key] = TablePaper(row, [name])
    papers, keyed = _one_per_paper(by_id)
    by_title = {(k[0], normalized(p.row.paper.title_raw)): p for k, p in papers.items()}
    for row, name in talks:
        ns = namespace(row)
        poster = next((papers[(ns, r)] for r in row.related if (ns, r) in papers), None)
        poster = poster or next((keyed[k] for k in paper_keys(row) if k in keyed), None)
        poster = poster or by_title.get((ns, normalized(row.paper.title_raw)))
        if poster is not None:
            poster.oral = poster.oral or oral_row(row)
            add_talk(poster.talks, poster.row.event_id, row)
        elif (ns, row.event_id) not in papers:
            item = papers[(ns, row.event_id)] = TablePaper(row, [name], oral=oral_row(row))
            by_title[(ns, normalized(row.paper.title_raw))] = item
            keyed.update((k, item) for k in paper_keys(row) if k not in keyed)
        else:
            papers[(ns, row.event_id)].row = combine(papers[(ns, row.event_id)].row, row)
    return list({id(p): p for p in papers.values()}.values())


Key = tuple[str, str, str]


def paper_keys(row: TableRow) -> list[Key]:
    """What ties a row to the other rows of its paper: its feed ``uid``, its forum id."""
    ns = namespace(row)
    return [(ns, kind, value) for kind, value in row_keys(row)]


def _one_per_paper(
    by_id: dict[tuple[str, int], TablePaper],
) -> tuple[dict[tuple[str, int], TablePaper], dict[Key, TablePaper]]:
    """Posters of one paper (same ``uid`` or forum) folded into the lowest event id's entry.

    Returns every event id's paper and every ``uid``/forum key's paper.
    """
    papers: dict[tuple[str, int], TablePaper] = {}
    keyed: dict[Key, TablePaper] = {}
    for key in sorted(by_id):
        item = by_id[key]
        keys = paper_keys(item.row)
        found = next((keyed[k] for k in keys if k in keyed), None)
        if found is not None:
            add_talk(found.talks, found.row.event_id, item.row)
            found.tables.extend(t for t in item.tables if t not in found.tables)
            item = found
        papers[key] = item
        keyed.update((k, item) for k in keys if k not in keyed)
    return papers, keyed
