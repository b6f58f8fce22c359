"""``paperscope join``: settle by hand what the automatic join left open.

    paperscope join ABSTRACT_ID [PAPER_ID]   join a lone abstract to a table paper
    paperscope join --apart PAPER_ID         take apart a join the automatic join made
    paperscope join --undo ID                take back a join (or a separation) you made
    paperscope join --list                   the joins and separations you made

Without ``PAPER_ID`` the abstract joins the paper its "possibly the same as" hint names;
an abstract without a hint is not joined, and the likeliest papers are listed instead.
The join is written to ``joins.jsonl`` in the data folder (see
:mod:`index_builder.catalogue.joins.by_hand`) and the catalogue is rebuilt at once, so the
command can say whether it took; every later command and the app read it. ``--apart``
writes a separation to the same file: the paper loses the abstract a list gave it, which
stands on its own again, and the automatic join never puts the two together again.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

from index_builder.catalogue.joins.by_hand import (
    KEEPS_ITS_ABSTRACT,
    Apart,
    Candidates,
    JoinRefused,
    add_join,
    apart_took,
    join_state,
    parse_apart,
    parse_line,
    plan_apart,
    plan_join,
    read_aparts,
    read_lines,
    remove_joins,
)
from index_builder.catalogue.papers import Catalogue
from index_builder.model import Paper
from index_builder.search.changed_papers import rebuilt_after
from tui.cli.common import add_subparser
from tui.cli.output import echo, error
from tui.cli.records import author_line, report_problems
from tui.shared.context import Context


def register(sub: argparse._SubParsersAction) -> None:
    """Add ``join`` to the ``paperscope`` parser."""
    p = add_subparser(
        sub, "join", "join an abstract left on its own to its paper, by hand", cmd_join
    )
    p.add_argument("ids", nargs="*", metavar="ID", help="ABSTRACT_ID [PAPER_ID]")
    what = p.add_mutually_exclusive_group()
    what.add_argument(
        "--apart", metavar="PAPER_ID", help="take apart the automatic join of PAPER_ID's abstract"
    )
    what.add_argument(
        "--undo", metavar="ID", help="take back the join or separation on ID (abstract or paper)"
    )
    what.add_argument("--list", action="store_true", help="list the joins and separations you made")


def cmd_join(args: argparse.Namespace, ctx: Context) -> int:
    """``paperscope join``."""
    if args.list or args.undo or args.apart:
        if args.ids:
            error("--list, --undo and --apart take no other ids")
            return 2
        if args.apart:
            return _apart(ctx, args.apart)
        return _list(ctx) if args.list else _undo(ctx, args.undo)
    if len(args.ids) not in (1, 2):
        error("give ABSTRACT_ID and PAPER_ID (or ABSTRACT_ID alone to follow its hint)")
        return 2
    report_problems(ctx)
    catalogue = ctx.catalogue()
    abstract = args.ids[0]
    if len(args.ids) == 2:
        paper = args.ids[1]
    else:
        lone = catalogue.get(abstract)
        hints = lone.possibly_same_as if lone is not None else ()
        if lone is not None and lone.event_id is None and not hints:
            error(f"{abstract} has no 'possibly the same as' hint: name the paper, "
                  f"paperscope join {abstract} PAPER_ID")  # fmt: skip
            _likeliest(lone, catalogue.papers, ctx.paths.hand_joins)
            return 1
        paper = hints[0] if hints else (lone.id if lone is not None else "")
    try:
        join = plan_join(catalogue.get, abstract, paper)
        add_join(ctx.paths.hand_joins, join)
    except JoinRefused as exc:
        error(str(exc))
        return 1
    row = _rebuilt(ctx, catalogue).get(join.abstract_id)
    if row is None or row.event_id != join.event_id:
        error(f"the join was written to {ctx.paths.hand_joins} but did not take; "
              f"paperscope join --undo {abstract} takes it back")  # fmt: skip
        return 1
    echo(f"Joined {abstract} to {row.id}: {row.title}")
    echo(f"Written to {ctx.paths.hand_joins}; paperscope join --undo {row.id} takes it back.")
    return 0


def _rebuilt(ctx: Context, before: Catalogue) -> Catalogue:
    """The catalogue built again after the change, as the app's ``J`` builds it
    (:func:`~index_builder.search.changed_papers.rebuilt_after`: served from ``before``,
    the papers they differ in noted for the next search's change in place)."""
    fresh = Context(ctx.paths, ctx.extra_sources, ctx.use_bundled)
    return rebuilt_after(ctx.paths.index_dir, before, fresh.catalogue)


def _likeliest(lone: Paper, papers: Sequence[Paper], path: Path) -> None:
    """Print the papers the abstract most likely is (those without an abstract)."""
    found = Candidates(papers, read_aparts(path)).of(lone)
    if found:
        echo("The likeliest papers of the table without an abstract:")
    for paper in found:
        echo(f"  {paper.id:<8} {paper.title}  ({author_line(paper) or 'authors unknown'})")


def _apart(ctx: Context, paper: str) -> int:
    """Write the separation, rebuild, and check that the abstract now stands alone."""
    report_problems(ctx)
    path = ctx.paths.hand_joins
    try:
        apart = plan_apart(ctx.catalogue().get, paper, path)
        add_join(path, apart)
    except JoinRefused as exc:
        error(str(exc))
        return 1
    fresh = _rebuilt(ctx, ctx.catalogue())
    if not apart_took(path, fresh.get, apart):
        error(f"{KEEPS_ITS_ABSTRACT.format(id=paper)} ({path} is left as it was)")
        return 1
    echo(f"Took {apart.abstract_id} apart from {apart.event_id}: {apart.title}")
    echo(f"The abstract stands on its own; J or paperscope join {apart.abstract_id} PAPER_ID "
         "joins it to its paper.")  # fmt: skip
    echo(f"Written to {path}; paperscope join --undo {apart.event_id} takes it back.")
    return 0


def _undo(ctx: Context, wanted: str) -> int:
    try:
        removed = remove_joins(ctx.paths.hand_joins, ctx.catalogue().get, wanted)
    except JoinRefused as exc:
        error(str(exc))
        return 1
    for join in removed:
        what = "separation" if isinstance(join, Apart) else "join"
        echo(f"Took back the {what} of {join.abstract_id} to {join.event_id}: {join.title}")
    return 0


def _list(ctx: Context) -> int:
    path = ctx.paths.hand_joins
    try:
        lines = read_lines(path)
    except JoinRefused as exc:
        error(str(exc))
        return 1
    if not lines:
        echo(f"No joins made by hand ({path} holds none).")
        return 0
    lookup = ctx.catalogue().get
    echo(f"Joins made by hand, in {path}:")
    for number, line in enumerate(lines, 1):
        join, apart = parse_line(line), parse_apart(line)
        if join is not None:
            echo(f"  {join.event_id:<8} {join.abstract_id}  {join.joined:<10}  {join.title}")
            if state := join_state(lookup, join):
                echo(f"           {state} (paperscope join --undo {join.event_id} removes it)")
        elif apart is not None:
            ids = ", ".join(apart.abstract_ids)
            echo(f"  {apart.event_id:<8} apart from {ids}  {apart.separated:<10}  {apart.title}")
        else:
            echo(f"  line {number}: not a join (kept as it is, skipped)")
    return 0
