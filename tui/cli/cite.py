"""``paperscope cite ID... [--style bibtex|apa|markdown|plain|ris|csljson] [--copy]``.

Registered by :mod:`tui.cli.main` (``cite.register(sub)``, which sets ``func=run``).

``run(args, ctx) -> int`` prints the citations of the given papers (ids, earlier
ids, or citation keys such as ``huang2026proeval``) in the order given: BibTeX
entries separated by a blank line, RIS records (CRLF lines) and one CSL-JSON array
for all of them, other styles one per line. Keys are unique
over the whole catalogue. An unknown id prints ``paperscope: unknown paper id:
ID`` on stderr for each and exits 1 without printing any citation. ``--copy``
also copies the text (system clipboard, and OSC 52 when stderr is a terminal)
and says on stderr which worked; the exit status is then 1 when neither may
have. The default style is the config's ``citation_style`` when it can be read,
else BibTeX.
"""

from __future__ import annotations

import argparse
import sys

from index_builder.citations.documents import CITE_STYLES as STYLES
from index_builder.citations.documents import EXCHANGE_FORMATS, cite, exchange_text
from index_builder.citations.exchange import reference
from index_builder.citations.keys import CitationKeys
from index_builder.model import Paper
from tui.cli.common import add_subparser
from tui.cli.output import echo, error
from tui.shared.context import Context


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``cite`` sub-command to the ``paperscope`` parser."""
    parser = add_subparser(sub, "cite", "print the citation of one or more papers", run)
    parser.add_argument("ids", nargs="+", metavar="ID", help="paper id (or citation key)")
    parser.add_argument(
        "--style",
        choices=STYLES,
        default=None,
        help="citation style (default: citation_style from the config, else bibtex)",
    )
    parser.add_argument(
        "--copy", action="store_true", help="also copy to the clipboard (system and OSC 52)"
    )


def default_style(ctx: Context) -> str:
    """The config's ``citation_style``; the first style when it is unset or unreadable."""
    try:
        from tui.shared.config import load_config

        style = str(load_config(ctx.paths.config_file).citation_style)
    except Exception:  # a broken config must not stop a citation; the TUI reports it
        return STYLES[0]
    return style if style in STYLES else STYLES[0]


def resolve(ctx: Context, ids: list[str], keys: CitationKeys) -> tuple[list[Paper], list[str]]:
    """The papers for ``ids`` (by id, alias or citation key) and the ids that match none."""
    catalogue = ctx.catalogue()
    found: list[Paper] = []
    unknown: list[str] = []
    for pid in ids:
        paper = catalogue.get(pid)
        if paper is None and (by_key := keys.paper_id(pid)) is not None:
            paper = catalogue.get(by_key)
        if paper is None:
            unknown.append(pid)
        else:
            found.append(paper)
    return found, unknown


def run(args: argparse.Namespace, ctx: Context) -> int:
    """Print (and with ``--copy`` copy) the citations; 1 when an id is unknown."""
    keys = CitationKeys(ctx.catalogue().papers)
    papers, unknown = resolve(ctx, list(args.ids), keys)
    if unknown:
        for pid in unknown:
            error(f"unknown paper id: {pid} (try `paperscope search` to find ids)")
        return 1
    style = args.style or default_style(ctx)
    if style in EXCHANGE_FORMATS:
        # One file for all the papers (one JSON array; RIS keeps its CRLF line ends).
        text = exchange_text([reference(p, keys.key(p.id)) for p in papers], style)
        sys.stdout.write(text)
        text = text.rstrip("\r\n")
    else:
        texts = [cite(p, style, key=keys.key(p.id)) for p in papers]
        text = ("\n\n" if style == "bibtex" else "\n").join(texts)
        echo(text)
    if args.copy:
        from tui.shared.clipboard import copy_outside_app

        what = "Citations" if len(texts) > 1 else "Citation"
        outcome = copy_outside_app(text + "\n", what=what)
        error(outcome.message)
        return 0 if outcome.backends else 1
    return 0
