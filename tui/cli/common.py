"""What every sub-command module shares: the source options and the command type."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

from tui.context import Context

Command = Callable[[argparse.Namespace, Context], int]
"""A sub-command: parsed arguments and the run's context in, exit status out."""


def add_subparser(
    sub: argparse._SubParsersAction, name: str, help_text: str, func: Command
) -> argparse.ArgumentParser:
    """Add sub-command ``name`` that runs ``func`` and accepts the source options."""
    parser: argparse.ArgumentParser = sub.add_parser(name, help=help_text, description=help_text)
    add_source_options(parser, prefix="sub_")
    parser.set_defaults(func=func)
    return parser


def add_source_options(parser: argparse.ArgumentParser, *, prefix: str = "") -> None:
    """``--source`` and ``--no-bundled``, accepted before or after the command.

    A sub-command's copies store under ``sub_*`` names with suppressed defaults, so
    they add to the options given before the command instead of replacing them.
    """
    default = argparse.SUPPRESS if prefix else None
    parser.add_argument(
        "--source",
        dest=f"{prefix}source",
        action="append",
        default=default,
        metavar="PATH",
        type=Path,
        help="add a paper list or table (or a folder of them) for this run; repeatable",
    )
    parser.add_argument(
        "--no-bundled",
        dest=f"{prefix}no_bundled",
        action="store_true",
        default=default if prefix else False,
        help="leave the bundled ICML 2026 data out",
    )
