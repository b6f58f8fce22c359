"""``paperscope zotero send [ID...] [--url URL] [--tag NAME] [--status S]``.

Sends papers to Zotero desktop through its local connector
(:mod:`index_builder.readinglist.zotero`): the given ids (bookmarked or not), else the
whole reading list, or only its bookmarks with ``--tag``/``--status``. A bookmark goes
with its note and tags. The URL is ``--url``, else ``zotero_url`` in the config, else
``http://127.0.0.1:23119``. Exit status: 0 sent, 1 Zotero absent or refusing (one line
on stderr; nothing on the list changes), 2 bad usage.
"""

from __future__ import annotations

import argparse

from index_builder.readinglist.bookmark import Bookmark
from index_builder.readinglist.store import ReadingList, ReadingListError
from index_builder.readinglist.zotero import ZoteroConnector, ZoteroError, send_bookmarks
from tui.cli.common import add_subparser
from tui.cli.output import echo, error
from tui.cli.reading_list import open_list, refreshed, resolve, status_word
from tui.shared.context import Context


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``zotero send`` to the ``paperscope`` parser."""
    parser = add_subparser(sub, "zotero", "send papers to Zotero desktop", run)
    actions = parser.add_subparsers(dest="zotero_action", metavar="ACTION", required=True)
    p = actions.add_parser("send", help="send papers (default: the reading list) to Zotero")
    p.add_argument("ids", nargs="*", metavar="ID", help="paper ids (default: the reading list)")
    p.add_argument("--url", metavar="URL", help="Zotero's connector (default: the config's)")
    p.add_argument("--tag", metavar="NAME", help="only bookmarks with this tag")
    p.add_argument(
        "--status", type=status_word, metavar="S", help="only bookmarks with this status"
    )


def zotero_url(ctx: Context, given: str | None) -> str:
    """``--url``, else the config's ``zotero_url`` (its default when unset)."""
    if given:
        return given
    from tui.shared.config import load_config

    return load_config(ctx.paths.config_file).zotero_url


def chosen(args: argparse.Namespace, ctx: Context, store: ReadingList) -> list[Bookmark] | None:
    """The bookmarks to send: the ids given (a paper not on the list goes without a note),
    else the list's (by tag and status); None after naming an unknown id."""
    if not args.ids:
        refreshed(ctx, store)
        return store.all(status=args.status, tag=args.tag)
    out = []
    for key in args.ids:
        paper, bookmark = resolve(ctx, store, key)
        if bookmark is None and paper is None:
            error(f"no paper with id {key!r} (try: paperscope search WORDS)")
            return None
        out.append(bookmark or Bookmark.from_paper(paper))  # type: ignore[arg-type]
    return out


def run(args: argparse.Namespace, ctx: Context) -> int:
    """Send the papers; one line says how many Zotero took, or why it took none."""
    try:
        store = open_list(ctx)
    except (ReadingListError, OSError) as exc:
        error(f"reading list: {exc}")
        return 1
    try:
        papers = chosen(args, ctx, store)
    except ReadingListError as exc:
        error(f"reading list: {exc}")
        return 1
    finally:
        store.close()
    if papers is None:
        return 1
    if not papers:
        error("nothing to send: no bookmark matches" if args.tag or args.status else
              "nothing to send: the reading list is empty")  # fmt: skip
        return 1
    connector = ZoteroConnector(zotero_url(ctx, args.url))
    catalogue = ctx.catalogue()
    try:
        made = send_bookmarks(connector, papers, catalogue.get, catalogue.papers)
    except ZoteroError as exc:
        error(str(exc))
        return 1
    echo(f"Zotero imported {made} of {len(papers)} paper{'s' if len(papers) != 1 else ''}")
    return 0
