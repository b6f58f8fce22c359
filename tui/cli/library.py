"""``paperscope library``: your own library (a Zotero, Mendeley or JabRef export) as a seed.

paperscope library import FILE...   BibTeX, RIS or CSL-JSON; the good entries of a file
                                    are kept, each problem is one line on stderr
paperscope library list [--json]    every entry, with the catalogue paper it is (if any)
paperscope library remove KEY...    by the key ``list`` shows (``arxiv:…``, ``doi:…``)
paperscope library clear            remove every entry

Papers of the catalogue that the library holds are ``is:library`` in queries, marked in
the browser, and For you ranks by them (``paperscope recommend``). Exit status: 0 done,
1 a file or key could not be used (the others were), 2 bad usage.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from index_builder.readinglist.store import ReadingList, ReadingListError
from tui.cli.common import add_subparser
from tui.cli.output import dumps, echo, error
from tui.cli.reading_list import Action, with_list
from tui.shared.context import Context

if TYPE_CHECKING:
    from index_builder.readinglist.library_entry import LibraryEntry
    from index_builder.readinglist.library_match import LibraryMatch


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``library`` and its actions to the ``paperscope`` parser."""
    parser = add_subparser(sub, "library", "your own library (BibTeX, RIS, CSL-JSON)", run)
    actions = parser.add_subparsers(dest="lib_action", metavar="ACTION", required=True)
    p = actions.add_parser("import", help="add the papers of library exports")
    p.add_argument("files", nargs="+", type=Path, metavar="FILE")
    p = actions.add_parser("list", help="print the library")
    p.add_argument("--json", action="store_true", help="print a JSON array")
    p = actions.add_parser("remove", help="remove entries by key")
    p.add_argument("keys", nargs="+", metavar="KEY")
    actions.add_parser("clear", help="remove every entry")


def read_file(path: Path) -> list[LibraryEntry] | None:
    """The entries of one export, its problems said on stderr; ``None`` (said) if unreadable."""
    from index_builder.readinglist.library_files import LibraryFormatError, read_library

    try:
        read = read_library(path)
    except LibraryFormatError as exc:
        error(f"{path}: {exc}; nothing read from it")
        return None
    for problem in read.problems:
        error(f"{path}: {problem}")
    return read.entries


def owned(ctx: Context, store: ReadingList | None = None) -> LibraryMatch | None:
    """The library matched against the catalogue; ``None`` when there is none (or no list)."""
    if store is None:
        path = ctx.paths.reading_list
        if not path.exists():
            return None
        try:
            with ReadingList(path) as opened:
                return owned(ctx, opened)
        except (ReadingListError, OSError) as exc:
            error(f"reading list: {exc} (your library is left out)")
            return None
    from index_builder.readinglist.library import Library
    from index_builder.readinglist.library_match import match_library

    entries = Library(store).entries()
    return match_library(ctx.catalogue().papers, entries) if entries else None


def run(args: argparse.Namespace, ctx: Context) -> int:
    """Run one ``library`` action; errors go to stderr, never as a traceback."""
    return with_list(ACTIONS[args.lib_action], args, ctx)


def do_import(args: argparse.Namespace, ctx: Context, store: ReadingList) -> int:
    """``import FILE...``: every readable file's entries, in one transaction each."""
    from index_builder.readinglist.library import Library

    status = 0
    library = Library(store)
    for path in args.files:
        entries = read_file(path)
        if entries is None:
            status = 1
            continue
        new, known = library.add(entries)
        also = f" ({known} already there)" if known else ""
        echo(f"{path.name}: {new} new paper{'s' if new != 1 else ''} in your library{also}")
    match = owned(ctx, store)
    if match is not None:
        total = library.count()
        echo(
            f"library: {total} paper{'s' if total != 1 else ''}, {len(match.paper_ids)} of "
            "them in the catalogue (is:library)"
        )
    return status


def do_list(args: argparse.Namespace, ctx: Context, store: ReadingList) -> int:
    """``list``: one entry a line (key, year, title), or a JSON array."""
    from index_builder.readinglist.library import Library

    entries = Library(store).entries()
    if args.json:
        print(dumps([{"key": e.key, "title": e.title, "authors": list(e.authors),
                      "year": e.year, "doi": e.doi, "arxiv": e.arxiv,
                      "openreview": e.openreview, "has_abstract": bool(e.abstract),
                      "source": e.source} for e in entries]))  # fmt: skip
        return 0
    for e in entries:
        echo(f"{e.key}  {e.year or '    '}  {e.title}")
    echo(f"{len(entries)} paper{'s' if len(entries) != 1 else ''} in your library")
    return 0


def do_remove(args: argparse.Namespace, ctx: Context, store: ReadingList) -> int:
    """``remove KEY...``: the named entries; an unknown key is said, the rest removed."""
    from index_builder.readinglist.library import Library

    library = Library(store)
    known = {e.key for e in library.entries()}
    missing = [k for k in args.keys if k not in known]
    for key in missing:
        error(f"no library entry with key {key!r} (paperscope library list shows them)")
    removed = library.remove(k for k in args.keys if k in known)
    echo(f"removed {removed} from your library")
    return 1 if missing else 0


def do_clear(args: argparse.Namespace, ctx: Context, store: ReadingList) -> int:
    """``clear``: every entry (the bookmarks stay)."""
    from index_builder.readinglist.library import Library

    echo(f"removed {Library(store).clear()} from your library")
    return 0


ACTIONS: dict[str, Action] = {
    "import": do_import,
    "list": do_list,
    "remove": do_remove,
    "clear": do_clear,
}
