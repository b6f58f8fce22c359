"""``paperscope reading-list``: the bookmarks from a shell.

paperscope reading-list add ID...
paperscope reading-list remove ID...
paperscope reading-list list [--json] [--status S] [--sort ORDER]
paperscope reading-list status ID to-read|"to read"|reading|read
paperscope reading-list note ID TEXT
paperscope reading-list tag ID TAG...      (untag ID TAG... removes them)
paperscope reading-list export --format bibtex|markdown|csv|json|ics|ris|csljson
                               [--tag TAG] [-o FILE]
paperscope reading-list import FILE

Exit status: 0 done, 1 something asked for could not be done (unknown id, a
locked or unwritable list, a bad import file), 2 bad usage.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from index_builder.model import Paper
from index_builder.readinglist.bookmark import STATUSES, Bookmark
from index_builder.readinglist.dismissed import Dismissals
from index_builder.readinglist.exports import FORMATS, export, read_dismissed, read_json
from index_builder.readinglist.store import (
    SORT_ORDERS,
    ReadingList,
    ReadingListError,
    open_or_recover,
)
from index_builder.sources.files import read_regular_file
from tui.cli.common import add_subparser, zone_setting
from tui.cli.output import dumps, echo, error, write_out
from tui.shared.context import Context

MARKS = {"to-read": "[ ]", "reading": "[~]", "read": "[x]"}


def status_word(text: str) -> str:
    """A status as the TUI shows it (``to read``) or as stored (``to-read``), any case."""
    word = "-".join(text.replace("_", " ").replace("-", " ").lower().split())
    if word not in STATUSES:
        shown = ", ".join(repr(s.replace("-", " ")) for s in STATUSES)
        raise argparse.ArgumentTypeError(f"unknown status {text!r}: use one of {shown}")
    return word


class StatusWords(argparse.Action):
    """A status given as one argument or as words (``status ID to read``)."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: str | Sequence[Any] | None,
        option_string: str | None = None,
    ) -> None:
        words = [values] if isinstance(values, str) else list(values or ())
        try:
            setattr(namespace, self.dest, status_word(" ".join(map(str, words))))
        except argparse.ArgumentTypeError as exc:
            raise argparse.ArgumentError(self, str(exc)) from None


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``reading-list`` and its actions to the ``paperscope`` parser."""
    parser = add_subparser(sub, "reading-list", "manage the reading list (bookmarks)", run)
    actions = parser.add_subparsers(dest="rl_action", metavar="ACTION", required=True)
    p = actions.add_parser("add", help="bookmark papers by id")
    p.add_argument("ids", nargs="+", metavar="ID")
    p = actions.add_parser("remove", help="remove bookmarks by id")
    p.add_argument("ids", nargs="+", metavar="ID")
    p = actions.add_parser("list", help="print the bookmarks")
    p.add_argument("--json", action="store_true", help="print a JSON array")
    p.add_argument(
        "--status", type=status_word, metavar="S", help="only bookmarks with this status"
    )
    p.add_argument("--sort", choices=SORT_ORDERS, default="added", help="default: added")
    p.add_argument("--tag", metavar="TAG", help="only bookmarks with this tag")
    p = actions.add_parser("status", help="set a bookmark's status")
    p.add_argument("id", metavar="ID")
    p.add_argument(
        "status", nargs="+", action=StatusWords, metavar="STATUS", help='"to read", reading, read'
    )
    p = actions.add_parser("note", help="set a bookmark's note ('' clears it)")
    p.add_argument("id", metavar="ID")
    p.add_argument("text", nargs="+", metavar="TEXT")
    for name, verb in (("tag", "add tags to"), ("untag", "remove tags from")):
        p = actions.add_parser(name, help=f"{verb} a bookmark")
        p.add_argument("id", metavar="ID")
        p.add_argument("tags", nargs="+", metavar="TAG")
    p = actions.add_parser("export", help="export the bookmarks (to stdout without -o)")
    p.add_argument("--format", choices=FORMATS, required=True)
    p.add_argument("--tag", metavar="TAG", help="only bookmarks with this tag")
    p.add_argument(
        "-o", "--output", type=Path, metavar="FILE", help="write FILE atomically ('-': stdout)"
    )
    p = actions.add_parser("import", help="merge a JSON export into the list")
    p.add_argument("file", type=Path, metavar="FILE")


def open_list(ctx: Context) -> ReadingList:
    """The reading list; a damaged file is moved aside (and said so) and a new list started."""
    store, notice = open_or_recover(ctx.paths.reading_list)
    if notice:
        error(notice)
    if store.read_only:
        error(f"reading list: {store.read_only}")
    return store


Action = Callable[[argparse.Namespace, Context, ReadingList], int]
"""One action on the open reading list: arguments, context and list in, exit status out."""


def run(args: argparse.Namespace, ctx: Context) -> int:
    """Run one ``reading-list`` action; errors go to stderr, never as a traceback."""
    return with_list(ACTIONS[args.rl_action], args, ctx)


def with_list(
    action: Action,
    args: argparse.Namespace,
    ctx: Context,
    refused: tuple[type[Exception], ...] = (),
    label: str = "reading list",
) -> int:
    """Open the list, run ``action`` on it and close it; a refusal is one line and status 1.

    A :class:`ReadingListError`, or one of the ``refused`` errors an action raises when it
    refuses its input, is said as ``LABEL: message``.
    """
    try:
        store = open_list(ctx)
    except (ReadingListError, OSError) as exc:
        error(f"reading list: {exc}")
        return 1
    caught: tuple[type[Exception], ...] = (ReadingListError, *refused)
    try:
        return action(args, ctx, store)
    except caught as exc:
        error(f"{label}: {exc}")
        return 1
    finally:
        store.close()


def resolve(ctx: Context, store: ReadingList, key: str) -> tuple[Paper | None, Bookmark | None]:
    """The catalogue's paper and the bookmark for an id or alias (either may be None).

    Bookmarks stored under several ids of the paper (twins, after a join) are merged
    into one under the paper's id first, so the action lands on the whole paper.
    """
    paper = ctx.catalogue().get(key)
    if paper is not None:
        try:
            store.reconcile([paper])
        except ReadingListError as exc:
            # A list that cannot be written: the action itself will say so. A locked one
            # is said now: the action would wait for the same lock a second time.
            if exc.kind == "locked":
                raise
    bookmark = store.find(paper) if paper else store.get(key)
    return paper, bookmark


def do_add(args: argparse.Namespace, ctx: Context, store: ReadingList) -> int:
    """``add ID...``: unknown ids are named; the others are still added."""
    status = 0
    for key in args.ids:
        paper = ctx.catalogue().get(key)
        if paper is None:
            error(f"no paper with id {key!r} (try: paperscope search WORDS)")
            status = 1
        elif store.add(paper):
            echo(f"added          {paper.id}  {paper.title}")
        else:
            echo(f"already listed {paper.id}  {paper.title}")
    return status


def do_remove(args: argparse.Namespace, ctx: Context, store: ReadingList) -> int:
    """``remove ID...``: also removes bookmarks whose paper left the data."""
    status = 0
    for key in args.ids:
        _paper, bookmark = resolve(ctx, store, key)
        if bookmark is None:
            error(f"{key!r} is not on the reading list")
            status = 1
            continue
        store.remove(bookmark.paper_id)
        echo(f"removed  {bookmark.paper_id}  {bookmark.copy.title}")
    return status


def refreshed(ctx: Context, store: ReadingList) -> None:
    """Re-key bookmarks stored under an alias of a current paper (best effort)."""
    catalogue = ctx.catalogue()
    moved = [p for key in store.paper_ids() if (p := catalogue.get(key)) and p.id != key]
    if moved:
        try:
            store.reconcile(moved)
        except ReadingListError as exc:
            error(f"could not update old ids on the reading list: {exc}")


def list_record(bm: Bookmark, in_catalogue: bool) -> dict[str, Any]:
    """The ``list --json`` object of one bookmark."""
    record: dict[str, Any] = bm.to_json()  # the export's keys, ``paper_id`` first
    record["in_catalogue"] = in_catalogue
    return record


def do_list(args: argparse.Namespace, ctx: Context, store: ReadingList) -> int:
    """``list``: one bookmark a line, or a JSON array with ``--json``."""
    refreshed(ctx, store)
    catalogue = ctx.catalogue()
    items = store.all(status=args.status, sort=args.sort, tag=args.tag)
    if args.json:
        records = [list_record(b, catalogue.get(b.paper_id) is not None) for b in items]
        print(dumps(records, indent=2))
        return 0
    for bm in items:
        paper = catalogue.get(bm.paper_id)
        gone = "" if paper else "  (no longer in the data)"
        title = bm.copy.title or (paper.title if paper else "") or "(untitled)"
        echo(f"{MARKS[bm.status]} {bm.paper_id}  {title}{gone}")
        if bm.tags:
            echo("      tags: " + ", ".join(bm.tags))
        if bm.note:
            echo("      note: " + bm.note.replace("\n", " / "))
    echo(f"{len(items)} bookmark{'s' if len(items) != 1 else ''}")
    return 0


def do_status(args: argparse.Namespace, ctx: Context, store: ReadingList) -> int:
    """``status ID S``."""
    _paper, bookmark = resolve(ctx, store, args.id)
    if bookmark is None:
        error(f"{args.id!r} is not on the reading list")
        return 1
    store.set_status(bookmark.paper_id, args.status)
    echo(f"{MARKS[args.status]} {bookmark.paper_id}  {bookmark.copy.title}")
    return 0


def do_note(args: argparse.Namespace, ctx: Context, store: ReadingList) -> int:
    """``note ID TEXT``: replaces the note; an empty TEXT clears it."""
    _paper, bookmark = resolve(ctx, store, args.id)
    if bookmark is None:
        error(f"{args.id!r} is not on the reading list")
        return 1
    store.set_note(bookmark.paper_id, " ".join(args.text).strip())
    echo(f"note saved for {bookmark.paper_id}")
    return 0


def do_tag(args: argparse.Namespace, ctx: Context, store: ReadingList) -> int:
    """``tag ID TAG...`` / ``untag ID TAG...``: prints the bookmark's tags after."""
    _paper, bookmark = resolve(ctx, store, args.id)
    if bookmark is None:
        error(f"{args.id!r} is not on the reading list")
        return 1
    try:
        change = store.tag if args.rl_action == "tag" else store.untag
        after = change(bookmark.paper_id, args.tags)
    except ValueError as exc:
        error(str(exc))
        return 1
    echo(f"tags of {after.paper_id}: {', '.join(after.tags) or '(none)'}")
    return 0


def do_export(args: argparse.Namespace, ctx: Context, store: ReadingList) -> int:
    """``export``: to ``-o FILE`` (atomically) or to stdout; ``--tag`` keeps one tag's."""
    refreshed(ctx, store)
    catalogue = ctx.catalogue()
    zone = zone_setting(ctx) if args.format == "markdown" else "venue"
    chosen = store.all(sort="time" if args.format == "ics" else "added", tag=args.tag)
    text = export(chosen, args.format,
                  lookup=catalogue.get, all_papers=catalogue.papers, timezone=zone,
                  dismissed=Dismissals(store).all())  # fmt: skip
    return write_out(
        args.output, text, f"wrote {len(chosen)} bookmarks as {args.format} to {args.output}"
    )


def do_import(args: argparse.Namespace, ctx: Context, store: ReadingList) -> int:
    """``import FILE``: merge a JSON export (newer status wins, both notes kept)."""
    try:
        text = read_regular_file(args.file).decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        error(f"cannot read {args.file}: {getattr(exc, 'strerror', None) or exc}")
        return 1
    try:
        bookmarks = read_json(text)
    except ValueError as exc:
        error(f"{args.file}: {exc}")
        return 1
    # A bookmark of a paper in the data takes its title, authors and times from it (an
    # export made by hand or by another tool may hold only the ids).
    catalogue = ctx.catalogue()
    bookmarks = [bm.with_paper(p) if (p := catalogue.get(bm.paper_id)) else bm for bm in bookmarks]
    added, updated = store.merge(bookmarks)
    dismissed = Dismissals(store).merge(read_dismissed(text))
    also = f", {dismissed} more dismissed" if dismissed else ""
    echo(f"imported {args.file}: {added} new, {updated} updated, {len(store)} on the list{also}")
    return 0


ACTIONS: dict[str, Callable[[argparse.Namespace, Context, ReadingList], int]] = {
    "add": do_add,
    "remove": do_remove,
    "list": do_list,
    "status": do_status,
    "note": do_note,
    "tag": do_tag,
    "untag": do_tag,
    "export": do_export,
    "import": do_import,
}
