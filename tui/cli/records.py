"""Sub-commands over the catalogue: ``search``, ``show``, ``dump``, ``index``, ``doctor``."""

from __future__ import annotations

import argparse
import csv
import shutil
import sys
import textwrap
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from index_builder.model import Paper, SearchResult
from index_builder.times import describe, event_kind, event_line, first_event, paper_events
from tui.cli.common import add_subparser, zone_setting
from tui.cli.output import ProgressBar, dumps, echo, error
from tui.shared.context import Context

if TYPE_CHECKING:
    from index_builder.readinglist.store import ReadingList

SORTS = ("relevance", "title", "time")


def register(sub: argparse._SubParsersAction) -> None:
    """Add the catalogue sub-commands to the ``paperscope`` parser."""
    p = add_subparser(sub, "search", "search the papers (query syntax as in the TUI)", cmd_search)
    p.add_argument("query", nargs="+", help="the query; several words are joined")
    p.add_argument(
        "--limit", type=count, default=20, metavar="N", help="at most N hits (default 20)"
    )
    p.add_argument("--sort", choices=SORTS, default="relevance")
    p.add_argument("--json", action="store_true", help="print JSON")

    p = add_subparser(sub, "show", "show one paper by id", cmd_show)
    p.add_argument("id")
    p.add_argument("--json", action="store_true", help="print JSON")

    p = add_subparser(sub, "dump", "print the whole merged catalogue", cmd_dump)
    p.add_argument("--format", choices=("jsonl", "csv"), default="jsonl")

    p = add_subparser(sub, "index", "build the search index (if stale) and report it", cmd_index)
    p.add_argument("--rebuild", action="store_true", help="rebuild even if it is fresh")

    add_subparser(sub, "doctor", "report paths, sources, index and clipboard", cmd_doctor)


def count(text: str) -> int:
    """A whole number of zero or more, or one clear message from argparse."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, not {value}")
    return value


def bookmarked_ids(ctx: Context) -> frozenset[str]:
    """Ids and aliases on the reading list, for ``is:bookmarked`` (none if it has no file)."""
    return _list_ids(ctx, lambda store: store.ids(), "is:bookmarked")


def dismissed_ids(ctx: Context) -> frozenset[str]:
    """Ids dismissed from For you, for ``is:dismissed`` (none if the list has no file)."""
    from index_builder.readinglist.dismissed import Dismissals

    return _list_ids(ctx, lambda store: Dismissals(store).ids(), "is:dismissed")


def _list_ids(
    ctx: Context, read: Callable[[ReadingList], frozenset[str]], what: str
) -> frozenset[str]:
    # Imported here: a search names neither list unless it asks for ``is:`` (the reading
    # list's modules and SQLite were a twentieth of a search's imports).
    from index_builder.readinglist.store import ReadingList, ReadingListError

    path = ctx.paths.reading_list
    if not path.exists():
        return frozenset()
    try:
        with ReadingList(path) as store:
            return read(store)
    except (ReadingListError, OSError) as exc:
        error(f"reading list: {exc} ({what} finds nothing)")
        return frozenset()


def report_problems(ctx: Context) -> None:
    """Name every source file that was skipped or partly read, on stderr."""
    for problem in ctx.catalogue().problems:
        error(f"{problem.path}: {problem.message}")


def ensure_index(ctx: Context) -> None:
    """Open the index, building it first (with a progress bar on a terminal) if needed."""
    index = ctx.index()
    bar = ProgressBar("Building the search index")
    notice = index.ensure(progress=bar)
    bar.finish()
    if notice:
        error(notice)


def cmd_search(args: argparse.Namespace, ctx: Context) -> int:
    """``paperscope search`` (``for:you`` and ``like:ID`` by the ``listing`` that
    :mod:`tui.cli.foryou` sets on this parser, as that module builds on this one)."""
    listing = getattr(args, "listing", None)
    listed = listing(args, ctx) if listing is not None else None
    if listed is not None:
        return int(listed)
    report_problems(ctx)
    if not ctx.catalogue().papers:
        error("the catalogue holds no papers (--no-bundled, and no --source with any)")
    ensure_index(ctx)
    query = " ".join(args.query)
    lowered = query.lower()
    marked = bookmarked_ids(ctx) if "is:" in lowered or "tag:" in lowered else frozenset()
    dismissed = dismissed_ids(ctx) if "dismissed" in lowered else frozenset()
    if "is:library" in lowered:
        from tui.cli.library import owned

        match = owned(ctx)
        ctx.index().library_ids = match.paper_ids if match else frozenset()
    result = ctx.index().search(
        query, limit=args.limit, sort=args.sort, bookmarked=marked, dismissed=dismissed
    )
    if args.json:
        print(dumps(search_json(result)))
        return 0
    print_hits(result, zone_setting(ctx) if args.sort == "time" else None)
    return 0


def search_json(result: SearchResult) -> dict[str, Any]:
    """The documented JSON shape of a search: query, total, suggestion, hits."""
    hits = []
    for hit in result.hits:
        record = hit.paper.to_json()
        record["score"] = round(hit.score, 4)
        hits.append(record)
    return {
        "query": result.query,
        "total": result.total,
        "suggestion": result.suggestion,
        "fallback": result.fallback,
        "fallback_reason": result.fallback_reason,
        "hits": hits,
    }


def print_hits(result: SearchResult, zone: str | None = None, about: str = "") -> None:
    """Human output of a search: one paper a line, then a summary.

    With ``zone`` (sorted by time), each paper's session time in that zone's setting;
    ``about`` says what the total counts (default: papers for the query).
    """
    width = shutil.get_terminal_size((100, 20)).columns
    for hit in result.hits:
        paper = hit.paper
        badge = {"oral": "[oral] ", "spotlight": "[spot] "}.get(paper.kind, "")
        line = f"{paper.id:>11}  {badge}{paper.title}"
        echo(textwrap.shorten(line, width=max(40, width), placeholder="…"))
        if zone is not None:
            first = first_event(paper)
            echo(
                " " * 13
                + describe(first.starts_at, first.ends_at, zone, paper.venue, first.session)
            )
        if paper.authors:
            echo(
                " " * 13
                + textwrap.shorten(author_line(paper), max(27, width - 13), placeholder="…")
            )
    shown = len(result.hits)
    about = about or f"papers for {result.query!r}"
    echo(f"{shown} of {result.total:,} {about} ({result.elapsed_ms:.1f} ms)")
    if result.suggestion:
        echo(f"Did you mean: {result.suggestion}")
    if result.fallback:
        echo(f"Read as plain words: {result.fallback_reason or 'the query syntax was not valid'}")


def author_line(paper: Paper) -> str:
    """The first three authors and how many more."""
    names = list(paper.authors[:3])
    more = len(paper.authors) - len(names)
    return ", ".join(names) + (f" +{more}" if more > 0 else "")


def possibly_rows(paper: Paper, ctx: Context) -> list[tuple[str, str]]:
    """``Possibly:`` rows naming the table papers an unjoined abstract may be."""
    out = []
    for other_id in paper.possibly_same_as:
        other = ctx.catalogue().get(other_id)
        title = f"  {other.title}" if other is not None else ""
        out.append(("Possibly", f"the same paper as {other_id}{title}"))
    return out


def cmd_show(args: argparse.Namespace, ctx: Context) -> int:
    """``paperscope show``."""
    paper = ctx.catalogue().get(args.id)
    if paper is None:
        error(f"no paper with id {args.id!r} (try: paperscope search WORDS)")
        return 1
    if args.json:
        print(dumps(paper.to_json(), indent=2))
        return 0
    width = min(100, shutil.get_terminal_size((100, 20)).columns)
    echo(paper.title + ("  (title derived from the abstract)" if paper.title_derived else ""))
    echo("=" * min(width, len(paper.title)))
    rows = [
        ("Id", paper.id),
        ("Authors", "; ".join(paper.authors) or "unknown"),
        ("Institutions", "; ".join(paper.institutions)),
        ("Type", paper.kind),
        ("Track", paper.track),
        ("Topic", paper.topic),
        *event_rows(paper, zone_setting(ctx)),
        ("OpenReview", paper.openreview_url),
        ("Page", paper.url),
        ("Code", " ".join(paper.code_urls)),
        ("Sources", ", ".join(paper.sources)),
        *possibly_rows(paper, ctx),
    ]
    for label, value in rows:
        if value:
            echo(f"{label + ':':<14}{value}")
    if paper.abstract:
        echo()
        echo(textwrap.fill(paper.abstract, width=width))
    return 0


def event_rows(paper: Paper, setting: str) -> list[tuple[str, str]]:
    """A ``Poster`` / ``Talk`` row per presentation, its time in the zone ``setting`` picks."""
    return [(event_kind(e), event_line(e, setting, paper.venue)) for e in paper_events(paper)]


CSV_FIELDS = (
    "id", "title", "title_derived", "authors", "institutions", "abstract", "topic",
    "decision", "oral", "spotlight", "session", "starts_at", "ends_at", "url",
    "openreview_url", "code_urls", "sources",
)  # fmt: skip


def cmd_dump(args: argparse.Namespace, ctx: Context) -> int:
    """``paperscope dump``: every record of the merged catalogue."""
    catalogue = ctx.catalogue()
    report_problems(ctx)
    out = sys.stdout
    if args.format == "jsonl":
        for paper in catalogue.papers:
            out.write(dumps(paper.to_json()) + "\n")
        return 0
    from index_builder.readinglist.exports import neutralise_cell
    from index_builder.text.safe import safe

    writer = csv.writer(out)
    writer.writerow(CSV_FIELDS)
    for paper in catalogue.papers:
        record = paper.to_json()
        row = []
        for name in CSV_FIELDS:
            value = record[name]
            if isinstance(value, list):
                value = "; ".join(value)
            row.append(neutralise_cell(safe(str(value))))
        writer.writerow(row)
    return 0


def cmd_index(args: argparse.Namespace, ctx: Context) -> int:
    """``paperscope index``: build if stale (or always with --rebuild) and report."""
    report_problems(ctx)
    index = ctx.index()
    start = time.perf_counter()
    if args.rebuild:
        bar = ProgressBar("Rebuilding the search index")
        index.build(progress=bar)
        bar.finish()
    else:
        ensure_index(ctx)
    state = index.state(contents=False)  # just built or opened: its CRC-32s were checked
    echo(
        f"Index: {state.get('doc_count', 0)} papers, "
        f"{state.get('size_bytes', 0) / 1e6:.1f} MB at {state.get('path')} "
        f"({time.perf_counter() - start:.2f} s)"
    )
    return 0


def cmd_doctor(args: argparse.Namespace, ctx: Context) -> int:
    """``paperscope doctor``: everything a bug report needs."""
    from tui.cli.doctor import doctor_report

    for line in doctor_report(ctx):
        echo(line)
    return 0
