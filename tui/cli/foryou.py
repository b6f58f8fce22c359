"""``paperscope similar ID`` and ``paperscope recommend``: the paper vectors' commands.

Both print like ``search`` (``--json``: ``{"query", "total", "hits": [record + "score"]}``;
``recommend`` adds ``"explain"``, the words its ranking weighs most, and ``"seeds"``, what
it ranked by). ``recommend`` ranks every paper not on the reading list or in the library
by the bookmarks and the library (``paperscope library import``; an entry weighs less
than a bookmark; papers dismissed in the browser count against the papers like them and
are never listed). ``--like FILE`` ranks by one library export alone, without importing
it; ``--new`` ranks only the papers the last update added (``is:new``). With fewer than
three seeds it says what is needed and exits with status 1. ``search for:you`` and
``search like:ID`` are answered by them, as the TUI's box answers them.
"""

from __future__ import annotations

import argparse
from dataclasses import replace
from pathlib import Path
from typing import Any

from index_builder import venues
from index_builder.model import SearchResult
from tui.cli.common import add_subparser
from tui.cli.output import dumps, echo, error
from tui.cli.records import count, ensure_index, print_hits, report_problems, search_json
from tui.shared.context import Context

FOR_YOU_QUERY = "for:you"
"""What ``recommend --json`` gives as its query (the TUI's box takes it too)."""
LIKE_PREFIX = "like:"
"""``like:ID`` in the box lists the papers like ``ID``, as ``similar ID`` does."""


def cmd_listing(args: argparse.Namespace, ctx: Context) -> int | None:
    """``search for:you`` and ``search like:ID`` answered as in the TUI's box: by
    ``recommend`` and ``similar`` (with search's ``--limit`` and ``--json``); ``None`` for
    any other query."""
    query = " ".join(args.query).strip()
    if query.lower() == FOR_YOU_QUERY:
        plain = argparse.Namespace(
            limit=args.limit, json=args.json, venue=None, like=None, new=False
        )
        return cmd_recommend(plain, ctx)
    if query.lower().startswith(LIKE_PREFIX):
        paper_id = query[len(LIKE_PREFIX) :].strip()
        return cmd_similar(argparse.Namespace(id=paper_id, limit=args.limit, json=args.json), ctx)
    return None


def register(sub: argparse._SubParsersAction) -> None:
    """Add ``similar`` and ``recommend`` to the ``paperscope`` parser."""
    p = add_subparser(sub, "similar", "the papers most like one paper (by its words)", cmd_similar)
    p.add_argument("id")
    p.add_argument("--limit", type=count, default=10, metavar="N", help="at most N (default 10)")
    p.add_argument("--json", action="store_true", help="print JSON")

    p = add_subparser(
        sub, "recommend", "papers for you, ranked by your reading list", cmd_recommend
    )
    p.add_argument("--limit", type=count, default=20, metavar="N", help="at most N (default 20)")
    p.add_argument(
        "--venue", metavar="KEY", help="only papers of this venue (neurips2026); default: all"
    )
    p.add_argument("--json", action="store_true", help="print JSON")
    # search answers for:you and like:ID by these commands (records.cmd_search asks).
    sub.choices["search"].set_defaults(listing=cmd_listing)
    p.add_argument(
        "--like",
        type=Path,
        metavar="FILE",
        help="rank by this library export (BibTeX, RIS, CSL-JSON) alone, without importing it",
    )
    p.add_argument("--new", action="store_true", help="rank only the papers the last update added")


def cmd_similar(args: argparse.Namespace, ctx: Context) -> int:
    """``paperscope similar``."""
    report_problems(ctx)
    if ctx.catalogue().get(args.id) is None:
        error(f"no paper with id {args.id!r} (try: paperscope search WORDS)")
        return 1
    ensure_index(ctx)
    result = ctx.index().similar(args.id, limit=args.limit)
    if args.json:
        print(dumps(search_json_short(result)))
        return 0
    from index_builder.search.vector_queries import like_words  # the index's module: loaded

    print_hits(result, about=like_words(args.id))
    return 0


def search_json_short(result: SearchResult, **extra: Any) -> dict[str, Any]:
    """``search``'s JSON without its query-syntax keys, plus ``extra``."""
    data = search_json(result)
    return {"query": data["query"], "total": data["total"], **extra, "hits": data["hits"]}


def reading_list_ids(ctx: Context) -> tuple[frozenset[str], frozenset[str]] | None:
    """The bookmarked ids (and aliases) and the dismissed ids; ``None`` (said) on failure."""
    # Imported here: this module is imported for every ``search``, which reads no list.
    from index_builder.readinglist.dismissed import Dismissals
    from index_builder.readinglist.store import ReadingList, ReadingListError

    path = ctx.paths.reading_list
    if not path.exists():
        return frozenset(), frozenset()
    try:
        with ReadingList(path) as store:
            return store.ids(), Dismissals(store).ids()
    except (ReadingListError, OSError) as exc:
        error(f"reading list: {exc}")
        return None


def cmd_recommend(args: argparse.Namespace, ctx: Context) -> int:
    """``paperscope recommend``."""
    # Imported here: building the parser (every command) must not load the library's
    # readers (LaTeX rendering) nor the search package (Whoosh).
    from index_builder.readinglist.library_match import LibraryMatch, match_library
    from index_builder.search.vector_queries import MIN_BOOKMARKS
    from tui.cli.library import owned, read_file
    from tui.shared.seeds import as_paper, seeds_line

    report_problems(ctx)
    ctx.config()  # the venues it declares
    wanted = venues.venue(args.venue) if args.venue else None
    if args.venue and wanted is None:
        error(f"unknown venue {args.venue!r}: paperscope update --list shows the known ones")
        return 2
    marked = reading_list_ids(ctx)
    if marked is None:
        return 1
    bookmarked, dismissed = marked
    if args.like is not None:
        entries = read_file(args.like)
        if entries is None:
            return 1
        bookmarked, match = frozenset(), match_library(ctx.catalogue().papers, entries)
    else:
        match = owned(ctx) or LibraryMatch(frozenset(), (), ())
    ensure_index(ctx)
    index = ctx.index()
    new = index.new_ids if args.new else None
    if new is not None and not new:
        error("recommend --new: no paper is new (the last update added none; paperscope update)")
        return 1
    # Within one venue, or among the new papers: the whole ranking, then those papers (the
    # bookmarks of every venue still say what the reader likes).
    whole = new is not None or wanted is not None
    limit = len(ctx.catalogue().papers) if whole else args.limit
    found = index.recommend(bookmarked, dismissed, limit=limit, library=match.paper_ids,
                            library_papers=[as_paper(e) for e in match.outside])  # fmt: skip
    if wanted is not None:
        hits = tuple(h for h in found.hits if h.paper.venue == wanted.name)
        found = replace(found, hits=hits if new is not None else hits[: args.limit],
                        total=len(hits))  # fmt: skip
    if found.needed:
        error(
            f"For you ranks papers by your bookmarks and your library and needs at least "
            f"{MIN_BOOKMARKS} bookmarked papers or library papers in the catalogue; you have "
            f"{MIN_BOOKMARKS - found.needed}: bookmark {found.needed} more (b in the browser, "
            "or paperscope reading-list add ID) "
            "or import your library (paperscope library import FILE)"
        )
        return 1
    hits = found.hits
    if new is not None:
        hits = tuple(h for h in hits if {h.paper.id, *h.paper.aliases} & new)[: args.limit]
    total = len(hits) if new is not None else found.total
    catalogue = ctx.catalogue()
    marks = {p.id for p in map(catalogue.get, bookmarked) if p is not None}  # not the aliases
    seeds = seeds_line(len(match.paper_ids) + len(match.outside), len(marks), args.like)
    query = FOR_YOU_QUERY + (" is:new" if new is not None else "")
    result = SearchResult(query=query, total=total, hits=hits, elapsed_ms=found.elapsed_ms)
    if args.json:
        print(dumps(search_json_short(result, explain=list(found.explain), seeds=seeds)))
        return 0
    echo(f"For you, {seeds}: papers about {', '.join(found.explain) or 'them'}")
    print_hits(result)
    return 0
