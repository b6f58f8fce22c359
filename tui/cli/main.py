"""The ``paperscope`` command line: bare for the TUI, sub-commands for scripts.

paperscope [--source PATH]... [--no-bundled]          open the TUI
paperscope search QUERY [--limit N] [--sort S] [--json]
paperscope show ID [--json]
paperscope dump --format jsonl|csv
paperscope index [--rebuild]
paperscope agenda [--day YYYY-MM-DD] [--at HH:MM] [--json]
paperscope similar ID [--limit N] [--json]
paperscope join ABSTRACT_ID [PAPER_ID] | --apart PAPER_ID | --undo ID | --list
paperscope recommend [--limit N] [--json]
paperscope dismissed [--json] | undismiss ID
paperscope doctor
paperscope update [VENUE ...] [--from URL_OR_DIR]
paperscope --version

Global: --timezone venue|local|ZONE shows times in that zone for one command.
"""

from __future__ import annotations

import errno
import io
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any, cast

from index_builder import __version__
from index_builder.paths import HomeError, Paths
from tui.cli.output import error
from tui.shared.context import Context

if TYPE_CHECKING:
    import argparse

    from tui.cli.common import Command
    from tui.lifecycle.peek import ForkedPeek

ORDER = (
    "records",
    "cite",
    "reading_list",
    "update",
    "agenda",
    "foryou",
    "joins",
    "dismissed",
    "library",
    "watch",
    "zotero",
)
"""The ``tui.cli`` modules that register sub-commands, in the order of ``--help``."""
_SEARCH = ("records", "foryou")  # foryou answers ``search for:you`` through search's parser
MODULES: dict[str, tuple[str, ...]] = {
    "search": _SEARCH,
    "show": ("records",),
    "dump": ("records",),
    "index": ("records",),
    "doctor": ("records",),
    "cite": ("cite",),
    "reading-list": ("reading_list",),
    "update": ("update",),
    "agenda": ("agenda",),
    "similar": _SEARCH,
    "recommend": _SEARCH,
    "join": ("joins",),
    "dismissed": ("dismissed",),
    "undismiss": ("dismissed",),
    "library": ("library",),
    "watch": ("watch",),
    "zotero": ("zotero",),
}
"""The modules each sub-command's parser needs."""
COMMANDS = frozenset(MODULES)
_VALUED = frozenset({"--source", "--timezone"})
"""The global options that take the next argument as their value."""


def build_parser(*, commands: bool = True, only: str | None = None) -> argparse.ArgumentParser:
    """The argument parser, with every sub-command registered when ``commands`` is true, or
    only the sub-commands of ``only``'s module (importing every module and building every
    sub-command's parser cost each command about 0.15 s)."""
    import argparse
    import importlib

    from tui.cli.common import add_source_options

    parser = argparse.ArgumentParser(
        prog="paperscope",
        description="Browse the papers of ICML 2026 from a terminal.",
        epilog="Run without a command to open the browser. "
        "PAPERSCOPE_HOME moves config, data and cache under one folder.",
    )
    parser.add_argument("--version", action="version", version=f"paperscope {__version__}")
    add_source_options(parser)
    if not commands:
        return parser
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    wanted = MODULES.get(only or "", ORDER)
    for name in (name for name in ORDER if name in wanted):
        importlib.import_module(f"tui.cli.{name}").register(sub)
    return parser


def command_of(argv: list[str]) -> str | None:
    """The sub-command ``argv`` names (its first argument that is not an option or an
    option's value), or ``None`` (also after ``--help``: the help lists every command)."""
    skip = False
    for arg in argv:
        if skip:
            skip = False
        elif arg in _VALUED:
            skip = True
        elif arg in ("--", "-h", "--help"):
            return None
        elif not arg.startswith("-"):
            return arg
    return None


BARE: dict[str, Any] = {"source": None, "no_bundled": False, "timezone": None}
"""What the parser gives for bare ``paperscope`` (a test holds the two together)."""


def parse(argv: list[str]) -> argparse.Namespace:
    """Parse ``argv``; bare ``paperscope`` skips importing the sub-commands (start-up is timed)."""
    if not argv:  # no argparse at all on the way to the TUI's first frame
        return cast("argparse.Namespace", SimpleNamespace(**BARE))
    if not COMMANDS.intersection(argv) and not {"-h", "--help"}.intersection(argv):
        args, rest = build_parser(commands=False).parse_known_args(argv)
        if not rest:
            return args
    return build_parser(only=command_of(argv)).parse_args(argv)


def make_context(args: argparse.Namespace) -> Context:
    """The run's context from the parsed options; raises FileNotFoundError for a bad --source."""
    sources: list[Path] = []
    given = [*(args.source or []), *getattr(args, "sub_source", [])]
    no_bundled = bool(args.no_bundled or getattr(args, "sub_no_bundled", False))
    for path in given:
        if not path.exists():
            raise FileNotFoundError(f"source not found: {path}")
        if path.is_dir():
            sources.extend(sorted(p for p in path.iterdir() if p.is_file()))
        else:
            sources.append(path)
    paths = Paths.from_env().ensure()
    zone = getattr(args, "sub_timezone", None) or args.timezone
    return Context(paths=paths, extra_sources=sources, use_bundled=not no_bundled, timezone=zone)


def run(argv: list[str], peek: ForkedPeek | None = None) -> int:
    """Run the command line; returns the exit status and never lets a traceback out.

    ``peek``: the TUI's first papers, already being read (bare ``paperscope``).
    """
    for stream in (sys.stdout, sys.stderr):
        # An ASCII-only (or other narrow) terminal gets "?" for what it cannot show.
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors="replace")
    args = parse(argv)
    try:
        ctx = make_context(args)
        func: Command | None = getattr(args, "func", None)
        if func is None:
            from tui.lifecycle.peek import ForkedPeek

            # Forked before Textual is imported: the first papers are read meanwhile.
            peek = peek or ForkedPeek(ctx.peek_catalogue)
            from tui.app import run_tui

            return run_tui(ctx, peek.result)
        from index_builder.atomic import freezing_after_pauses

        # A command's process keeps what it loads until it exits: nothing to collect.
        with freezing_after_pauses():
            return func(args, ctx)
    except FileNotFoundError as exc:
        error(str(exc))
        return 2
    except HomeError as exc:
        error(f"cannot use the PaperScope home: {exc}")
        return 1
    except OSError as exc:
        if exc.errno not in (errno.ENOSPC, errno.EDQUOT):
            raise
        # A full disk (the search index, a cache): one line, nothing half-written kept.
        where = f"{exc.filename}: " if exc.filename else ""
        error(f"{where}{exc.strerror or exc}; free some space on the disk and try again")
        return 1
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # Output piped into `head` and closed early: not an error for the user.
        sys.stderr.close()
        return 0
