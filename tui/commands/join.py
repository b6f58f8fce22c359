"""``J``: join a lone abstract to the paper it is possibly, or take back such a join.

:func:`join_offer` says what ``J`` would do for a paper (or why it does nothing);
:func:`join_in_worker` writes the change to the joins file (see
:mod:`index_builder.catalogue.hand_joins`) and swaps in a catalogue and index built
afresh, as an update does (:func:`tui.commands.update.swap_in_fresh`). The command line
does the same with ``paperscope join``.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from index_builder.catalogue.hand_joins import (
    HandJoin,
    JoinRefused,
    Lookup,
    add_join,
    is_hand_joined,
    plan_join,
    remove_joins,
)
from index_builder.model import Paper

if TYPE_CHECKING:
    from textual.app import App

    from index_builder.catalogue.load import Catalogue
    from index_builder.search.engine import SearchIndex
    from tui.shared.context import Context


@dataclass(frozen=True)
class JoinOffer:
    """What ``J`` offers for one paper: a join, or taking one back."""

    kind: Literal["join", "undo"]
    question: str
    detail: str
    paper_id: str
    """The paper to show once it is done: the table paper."""
    join: HandJoin | None = None


def join_offer(paper: Paper, lookup: Lookup, ctx: Context) -> JoinOffer | str:
    """What ``J`` does for ``paper``; a string says why it does nothing."""
    path = ctx.paths.hand_joins
    if is_hand_joined(paper, path):
        return JoinOffer(
            "undo",
            f"Take back your join of this abstract to {paper.id}?",
            f"“{paper.title}” loses the abstract, which stands on its own again "
            f"(the line is removed from {path}).",
            paper.id,
        )
    if paper.event_id is not None:
        return (
            "J joins an abstract that stands on its own (marked “Possibly”) to its paper; "
            "this one is a paper of the table."
        )
    if not paper.possibly_same_as:
        return (
            f"No paper is suggested for this abstract. If you know it: "
            f"paperscope join {paper.id} PAPER_ID"
        )
    try:
        join = plan_join(lookup, paper.id, paper.possibly_same_as[0])
    except JoinRefused as exc:
        return str(exc)
    row = lookup(paper.possibly_same_as[0])
    names = row.authors if row is not None else ()
    authors = ", ".join(names[:4]) + (" et al." if len(names) > 4 else "")
    return JoinOffer(
        "join",
        f"Join this abstract to {join.event_id}, “{join.title}”?",
        f"By {authors or 'unknown authors'}. The abstract is then shown as that paper, with "
        f"its authors and sessions; J again takes it back (written to {path}).",
        str(join.event_id) if row is None else row.id,
        join,
    )


def join_in_worker(
    app: App[int],
    ctx: Context,
    offer: JoinOffer,
    cancel: threading.Event,
    *,
    adopt: Callable[[Context], None],
    show_state: Callable[[str, tuple[int, int] | None], None],
    swap_in: Callable[[Callable[[], SearchIndex], Catalogue, SearchIndex, str | None], None],
    show_paper: Callable[[str], None],
) -> None:
    """Write the join (or take it back), then rebuild and swap in (run in a thread worker).

    ``show_paper`` is told, before the swap, which paper the cursor goes to: the table
    paper after a join, the lone abstract after an undo.
    """
    from tui.commands.update import swap_in_fresh
    from tui.shared.context import Context as Fresh

    try:
        if offer.join is not None:
            add_join(ctx.paths.hand_joins, offer.join)
            target = offer.paper_id
        else:
            removed = remove_joins(ctx.paths.hand_joins, ctx.catalogue().get, offer.paper_id)
            target = removed[0].abstract_id
    except JoinRefused as exc:
        app.call_from_thread(app.notify, str(exc), title="Join", severity="error")
        return
    app.call_from_thread(show_paper, target)
    fresh = Fresh(ctx.paths, list(ctx.extra_sources), ctx.use_bundled)
    catalogue = fresh.catalogue()
    done = "Joined" if offer.join is not None else "Join taken back"
    app.call_from_thread(app.notify, f"{done}: rebuilding the index…", title="Join")
    swap_in_fresh(
        app, fresh, catalogue, cancel, adopt=adopt, show_state=show_state, swap_in=swap_in
    )
