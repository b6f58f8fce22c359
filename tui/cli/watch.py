"""``paperscope watch``: saved queries that say what is new after each ``update``.

paperscope watch add QUERY... [--name NAME]   any query (words, author:"…", topic:…,
                                              track:…, combinations); one that does not
                                              parse is refused with one line
paperscope watch list [--json]                each watch, its matches and the new ones
                                              (JSON: [{"name", "query", "total", "new"}])
paperscope watch remove NAME

A paper is new while the last update of its venue added it (``is:new``): until the next
update that does not add it. Exit status: 0 done, 1 refused (the others kept), 2 bad usage.
"""

from __future__ import annotations

import argparse

from index_builder.readinglist.store import ReadingList
from index_builder.readinglist.watches import WatchError, Watches
from index_builder.search.syntax import QuerySyntaxError, parse
from tui.cli.common import add_subparser
from tui.cli.output import dumps, echo, error
from tui.cli.reading_list import Action, with_list
from tui.cli.records import ensure_index
from tui.shared.context import Context
from tui.shared.watching import count_watches


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``watch`` and its actions to the ``paperscope`` parser."""
    parser = add_subparser(sub, "watch", "saved queries that say what is new after update", run)
    actions = parser.add_subparsers(dest="watch_action", metavar="ACTION", required=True)
    p = actions.add_parser("add", help="watch a query")
    p.add_argument("query", nargs="+", metavar="QUERY")
    p.add_argument("--name", default="", help="the name it is shown under (default: the query)")
    p = actions.add_parser("list", help="each watch, its matches and the new ones")
    p.add_argument("--json", action="store_true", help="print a JSON array")
    p = actions.add_parser("remove", help="stop watching")
    p.add_argument("name", nargs="+", metavar="NAME")


def run(args: argparse.Namespace, ctx: Context) -> int:
    """Run one ``watch`` action; errors go to stderr, never as a traceback."""
    actions: dict[str, Action] = {"add": do_add, "remove": do_remove, "list": do_list}
    return with_list(actions[args.watch_action], args, ctx, (WatchError,), "watch")


def check_query(query: str) -> str:
    """``query`` with its spaces collapsed; :class:`WatchError` when it does not parse."""
    query = " ".join(query.split())
    try:
        parse(query)
    except QuerySyntaxError as exc:
        raise WatchError(f"the query {query!r} does not parse ({exc}); nothing was saved") from exc
    return query


def do_add(args: argparse.Namespace, ctx: Context, store: ReadingList) -> int:
    """``add QUERY``: save it (checked) under its name."""
    watch = Watches(store).add(check_query(" ".join(args.query)), args.name)
    echo(f"watching {watch.name}" + (f" ({watch.query})" if watch.name != watch.query else ""))
    return 0


def do_remove(args: argparse.Namespace, ctx: Context, store: ReadingList) -> int:
    """``remove NAME``: an unknown name is said."""
    name = " ".join(args.name)
    if not Watches(store).remove(name):
        names = ", ".join(repr(w.name) for w in Watches(store).all()) or "none"
        error(f"watch: no watch named {name!r} (watches: {names})")
        return 1
    echo(f"stopped watching {name}")
    return 0


def do_list(args: argparse.Namespace, ctx: Context, store: ReadingList) -> int:
    """``list``: each watch with its total and new matches."""
    watches = Watches(store).all()
    if not watches:
        if args.json:
            print("[]")
        else:
            echo("no watches (paperscope watch add QUERY [--name NAME])")
        return 0
    ensure_index(ctx)
    counts = count_watches(ctx.index(), watches)
    if args.json:
        print(dumps([c.as_json() for c in counts]))
        return 0
    for c in counts:
        query = f"  ({c.watch.query})" if c.watch.name != c.watch.query else ""
        echo(f"{c.watch.name}{query}: {c.total} paper{'s' if c.total != 1 else ''}, "
             f"{len(c.new)} new")  # fmt: skip
    return 0
