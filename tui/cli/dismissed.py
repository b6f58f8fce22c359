"""``paperscope dismissed`` and ``paperscope undismiss ID``: the papers dismissed from For you.

``x`` in the browser dismisses a paper ("not interested"); it is kept in the reading
list's database (:class:`~index_builder.readinglist.dismissed.Dismissals`), so these
commands, ``is:dismissed`` (in the browser and ``paperscope search``) and ``u`` on the
paper find it again after a restart. ``dismissed --json`` prints
``{"total", "dismissed": [{"paper_id", "dismissed_at", "title", "in_data"}]}``, oldest
first; a paper that left the data has ``"title": null``.
"""

from __future__ import annotations

import argparse
from typing import Any

from index_builder.readinglist.dismissed import Dismissals
from index_builder.readinglist.store import ReadingList, ReadingListError
from tui.cli.common import add_subparser
from tui.cli.output import dumps, echo, error
from tui.shared.context import Context


def register(sub: argparse._SubParsersAction) -> None:
    """Add ``dismissed`` and ``undismiss`` to the ``paperscope`` parser."""
    p = add_subparser(sub, "dismissed", "the papers dismissed from For you (x)", cmd_dismissed)
    p.add_argument("--json", action="store_true", help="print JSON")
    p = add_subparser(sub, "undismiss", "take a dismissed paper back into For you", cmd_undismiss)
    p.add_argument("id")


def _rows(ctx: Context) -> list[dict[str, Any]] | None:
    """The dismissals, oldest first; ``None`` (said) when the list cannot be read."""
    if not ctx.paths.reading_list.exists():
        return []
    try:
        with ReadingList(ctx.paths.reading_list) as store:
            return Dismissals(store).all()
    except (ReadingListError, OSError) as exc:
        error(f"reading list: {exc}")
        return None


def cmd_dismissed(args: argparse.Namespace, ctx: Context) -> int:
    """``paperscope dismissed``."""
    rows = _rows(ctx)
    if rows is None:
        return 1
    catalogue = ctx.catalogue()
    listed = []
    for row in rows:
        paper = catalogue.get(row["paper_id"])
        listed.append({**row, "title": paper.title if paper else None, "in_data": bool(paper)})
    if args.json:
        print(dumps({"total": len(listed), "dismissed": listed}))
        return 0
    for item in listed:
        title = item["title"] or "(no longer in the data)"
        echo(f"{item['paper_id']:>11}  {item['dismissed_at'][:10]}  {title}")
    n = len(listed)
    echo(
        f"{n} paper{'' if n == 1 else 's'} dismissed from For you"
        + (" (paperscope undismiss ID takes one back)" if n else "")
    )
    return 0


def cmd_undismiss(args: argparse.Namespace, ctx: Context) -> int:
    """``paperscope undismiss ID``: the id as dismissed, or the paper's current id or alias."""
    rows = _rows(ctx)
    if rows is None:
        return 1
    paper = ctx.catalogue().get(args.id)
    names = {args.id} | ({paper.id, *paper.aliases} if paper else set())
    found = [r["paper_id"] for r in rows if r["paper_id"] in names]
    if not found:
        error(f"{args.id} is not dismissed (paperscope dismissed lists the papers that are)")
        return 1
    try:
        with ReadingList(ctx.paths.reading_list) as store:
            for paper_id in found:
                Dismissals(store).remove(paper_id)
    except (ReadingListError, OSError) as exc:
        error(f"reading list: {exc}")
        return 1
    echo(f"{args.id} is back in For you.")
    return 0
