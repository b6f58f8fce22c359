"""What every sub-command module shares: the source options and the command type."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

from index_builder.times import check_setting, normal_setting
from tui.cli.output import error
from tui.shared.context import Context

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


def zone_option(value: str) -> str:
    """``--timezone``'s value checked: ``venue``, ``local`` or an IANA zone name."""
    if check_setting(value) is not None:
        raise argparse.ArgumentTypeError(
            f'{value!r} is not a time zone: use "venue", "local" or an IANA name such as "UTC"'
        )
    return normal_setting(value)


def zone_setting(ctx: Context) -> str:
    """The run's zone setting; a refused config value is named on stderr (once)."""
    setting = ctx.zone_setting()
    if ctx.zone_problem:
        error(ctx.zone_problem)
        ctx.zone_problem = ""
    return setting


def add_source_options(parser: argparse.ArgumentParser, *, prefix: str = "") -> None:
    """``--source``, ``--no-bundled`` and ``--timezone``, accepted before or after the command.

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
    parser.add_argument(
        "--timezone",
        dest=f"{prefix}timezone",
        default=default,
        metavar="ZONE",
        type=zone_option,
        help='show times in ZONE for this run: "venue" (the conference\'s), "local" or an '
        'IANA name such as "UTC" (default: the config\'s timezone, else venue)',
    )
