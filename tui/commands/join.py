"""``J``: join a lone abstract and a table paper the user picks, or take back such a join.

:func:`what_j_does` says what ``J`` does for a paper: the user picks, among
:class:`~index_builder.catalogue.joins.by_hand.Candidates`, the paper of a lone abstract
(``paper``) or the abstract of a table paper without one (``abstract``); a paper joined
by hand is offered ``undo`` and a paper the automatic join gave a listed abstract
``apart`` (both asked first); else a sentence says why it does nothing.
:func:`join_in_worker` writes the change to the joins file (see
:mod:`index_builder.catalogue.joins.by_hand`), builds the catalogue as ``paperscope join``
does (:func:`index_builder.search.changed_papers.rebuilt_after`: the rows the change left
served from the papers shown, the changed papers noted) and swaps it in with its index
changed in place, as an update does (:func:`tui.commands.update.swap_in_fresh`).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Literal

from index_builder.catalogue.joins.by_hand import (
    Apart,
    HandJoin,
    JoinRefused,
    add_join,
    apart_took,
    conference_text,
    is_hand_joined,
    joinable,
    listed_abstract_ids,
    remove_joins,
)
from index_builder.model import Paper

if TYPE_CHECKING:
    from textual.app import App

    from index_builder.catalogue.load import Catalogue
    from index_builder.search.engine import SearchIndex
    from tui.shared.context import Context


def what_j_does(paper: Paper, ctx: Context) -> Literal["paper", "abstract", "undo", "apart"] | str:
    """``paper`` (pick the lone abstract's paper), ``abstract`` (pick the abstract of a
    table paper without one), ``undo``, ``apart`` (take apart an automatic join), or why
    ``J`` does nothing for ``paper``."""
    if is_hand_joined(paper, ctx.paths.hand_joins):
        return "undo"
    if joinable(paper):
        return "abstract"
    if paper.event_id is not None and ":" not in paper.id and listed_abstract_ids(paper):
        if conference_text(paper):
            return (
                "This paper's abstract is the conference's own, the same text as your "
                "list's: the join is certain and stays."
            )
        return "apart"
    if paper.event_id is not None:
        return (
            "This paper has its abstract already. J joins an abstract that stands on its "
            "own (marked ≈) to a paper without one."
        )
    if not paper.abstract_raw:
        return "This paper has no abstract to join."
    return "paper"


def undo_question(paper: Paper, ctx: Context) -> tuple[str, str]:
    """The question and its detail before a join by hand is taken back."""
    return (
        f"Take back your join of this abstract to {paper.id}?",
        f"“{paper.title}” loses the abstract, which stands on its own again "
        f"(the line is removed from {ctx.paths.hand_joins}).",
    )


def apart_question(paper: Paper, ctx: Context) -> tuple[str, str]:
    """The question and its detail before an automatic join is taken apart."""
    return (
        f"Is this abstract not the one of {paper.id}? Take them apart?",
        f"“{paper.title}” loses the abstract your list gave it, which stands on its own "
        f"again and is never joined to this paper by itself (written to "
        f"{ctx.paths.hand_joins}; paperscope join --undo {paper.id} takes it back).",
    )


def join_in_worker(
    app: App[int],
    ctx: Context,
    change: HandJoin | Apart | str,
    cancel: threading.Event,
    *,
    adopt: Callable[[Context], None],
    show_state: Callable[[str, tuple[int, int] | None], None],
    swap_in: Callable[[Callable[[], SearchIndex], Catalogue, SearchIndex, str | None], None],
    show_paper: Callable[[str], None],
) -> None:
    """Write the join or separation (or, ``change`` a paper id, take back its join), then
    rebuild and swap in (run in a thread worker).

    ``show_paper`` is told, before the swap, which paper the cursor goes to: the table
    paper after a join, the lone abstract after an undo or a separation. A separation that
    does not take (the conference's own abstract is the same text) is taken back and said.
    """
    from index_builder.search.changed_papers import rebuilt_after
    from tui.commands.update import LOADING, swap_in_fresh
    from tui.shared.context import Context as Fresh

    before = ctx.catalogue()  # read before the change is written (the one shown)
    try:
        if isinstance(change, HandJoin):
            add_join(ctx.paths.hand_joins, change)
            target, done = change.abstract_id, f"Joined to {change.event_id}"
        elif isinstance(change, Apart):
            add_join(ctx.paths.hand_joins, change)
            target, done = change.abstract_id, f"Taken apart from {change.event_id}"
        else:
            removed = remove_joins(ctx.paths.hand_joins, before.get, change)
            target, done = removed[0].abstract_id, "Join taken back"
    except JoinRefused as exc:
        app.call_from_thread(app.notify, str(exc), title="Join", severity="error")
        return
    # Said before the papers are merged again, which is most of the wait at 20,000 papers.
    app.call_from_thread(show_state, LOADING, None)
    fresh = Fresh(ctx.paths, list(ctx.extra_sources), ctx.use_bundled)
    # As ``paperscope join`` builds it: the shown papers serve the rows the change left,
    # and the papers it changed are noted, so the index's change digests those alone.
    catalogue = rebuilt_after(ctx.paths.index_dir, before, fresh.catalogue)
    if isinstance(change, Apart) and not apart_took(ctx.paths.hand_joins, catalogue.get, change):
        said = "The conference's own abstract of this paper is the same text: it stays joined."
        app.call_from_thread(app.notify, said, title="Join", severity="error")
        app.call_from_thread(show_state, "index ready", None)
        return
    app.call_from_thread(show_paper, target)
    app.call_from_thread(app.notify, f"{done}: updating the index…", title="Join")
    swap_in_fresh(
        app, fresh, catalogue, cancel, adopt=adopt, show_state=show_state, swap_in=swap_in
    )
