"""``paperscope doctor``: paths, sources, catalogue, index and clipboard, as text lines."""

from __future__ import annotations

import os
import platform
import sys
from collections.abc import Iterator
from pathlib import Path

from index_builder import __version__
from tui.shared.config import load_config
from tui.shared.context import Context


def binding_ids() -> set[str]:
    """Every binding id of the app's screens and widgets (what ``[keymap]`` may name)."""
    import importlib
    import pkgutil

    from textual.binding import Binding
    from textual.dom import DOMNode

    import tui.screens
    import tui.widgets

    importlib.import_module("tui.app")
    for package in (tui.screens, tui.widgets):
        for module in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            importlib.import_module(module.name)
    found: set[str] = set()
    todo: list[type] = [DOMNode]
    while todo:
        cls = todo.pop()
        todo.extend(cls.__subclasses__())
        for item in getattr(cls, "BINDINGS", ()):
            if isinstance(item, Binding):
                found.add(item.id or item.action)
    return found


def config_report(path: Path) -> Iterator[str]:
    """The config file and every part of it the app ignores (a wrong style, an unknown id)."""
    config = load_config(path)
    problems = list(config.problems)
    known = binding_ids()
    for binding_id in sorted(config.keymap):
        if binding_id not in known:
            problems.append(f"config: keymap.{binding_id} names no key (unknown binding id)")
    if not path.exists():
        yield f"{path} (none: defaults)"
        return
    count = len(problems)
    plural = "s" if count > 1 else ""
    yield f"{path} (ok)" if not count else f"{path} ({count} problem{plural}, ignored)"
    for problem in problems:
        yield f"  {problem}"


def rows(pairs: list[tuple[str, object]]) -> Iterator[str]:
    """``label  value`` lines with the values in one column."""
    width = max((len(label) for label, _ in pairs), default=0)
    for label, value in pairs:
        yield f"  {label:<{width}}  {value}"


def describe_dir(path: Path) -> str:
    """A folder with whether it exists and is writable."""
    if not path.exists():
        return f"{path} (missing)"
    if not os.access(path, os.W_OK):
        return f"{path} (NOT writable)"
    return f"{path} (ok)"


def clipboard_backend() -> str:
    """The native clipboard pyperclip would use, or why there is none."""
    try:
        import pyperclip

        copy, _paste = pyperclip.determine_clipboard()
    except Exception as exc:  # any failure here only means "no native clipboard"
        return f"none ({type(exc).__name__})"
    if not copy:
        return "none (no xclip, xsel, wl-copy or pbcopy found)"
    name = getattr(copy, "__qualname__", "") or type(copy).__name__
    return name.split(".")[0].replace("init_", "").replace("_clipboard", "") or "available"


def _feeds(ctx: Context) -> Iterator[str]:
    """The feeds ``paperscope update`` stored: venue, when, from where."""
    from index_builder import venues
    from index_builder.feeds.store import backup, read_meta, venue_dir

    stored = [v for v in venues.known() if venue_dir(ctx.paths, v).is_dir()]
    if not stored:
        return
    yield ""
    yield "Feeds (paperscope update)"
    for venue in stored:
        meta = read_meta(ctx.paths, venue)
        when = meta.get("updated", "?")
        yield f"  {venue.key:<12} updated {when} from {meta.get('base', '?')}"
        kept = backup(ctx.paths, venue)
        if kept is not None:
            older = read_meta(ctx.paths, venue, kept).get("updated", "?")
            yield f"  {'':<12} the set of {older} is kept (paperscope update --undo)"


def doctor_report(ctx: Context) -> Iterator[str]:
    """The lines of the doctor report; never raises for a broken index or source."""
    paths = ctx.paths
    yield f"paperscope {__version__} on Python {platform.python_version()} ({sys.platform})"
    yield ""
    yield "Paths"
    config_lines = list(config_report(paths.config_file))
    listed = "" if paths.reading_list.exists() else " (not created yet)"
    yield from rows(
        [
            ("config", describe_dir(paths.config_dir)),
            ("data", describe_dir(paths.data_dir)),
            ("cache", describe_dir(paths.cache_dir)),
            ("reading list", f"{paths.reading_list}{listed}"),
            ("config file", config_lines[0]),
        ]
    )
    for line in config_lines[1:]:
        yield f"  {line}"
    yield ""
    catalogue = ctx.catalogue()
    yield "Sources"
    for source in catalogue.loaded_sources:
        yield f"  loaded   {source}"
    for problem in catalogue.problems:
        status = "skipped" if problem.fatal else "warning"
        yield f"  {status:<8} {problem.path}: {problem.message}"
    papers = catalogue.papers
    with_abstract = sum(1 for p in papers if p.has_abstract)
    joined = sum(1 for p in papers if p.has_abstract and p.event_id is not None)
    alone = with_abstract - joined
    yield (
        f"  {len(papers)} papers; {with_abstract} with an abstract "
        f"({joined} joined to their row, {alone} on their own"
        f"{': is:unjoined lists them, J joins them' if alone else ''})"
    )
    yield from _feeds(ctx)
    yield ""
    yield "Index"
    try:
        state = ctx.index().state()
    except Exception as exc:  # doctor reports, it does not fail
        yield f"  unreadable: {type(exc).__name__}: {exc}"
    else:
        yield from rows(list(state.items()))
    yield ""
    yield "Clipboard"
    yield "  OSC 52   sent by the TUI on copy; works when the terminal allows it"
    yield "           (tmux: set -g set-clipboard on)"
    yield f"  native   {clipboard_backend()}"
    if os.environ.get("SSH_CONNECTION"):
        yield "  note     over SSH the native clipboard is the remote one; OSC 52 reaches yours"
