"""Bare ``paperscope`` on its way to the first frame: the parser's defaults, and what it
leaves unimported (start-up is a budget: PRODUCT.md, issue 14)."""

from __future__ import annotations

import subprocess
import sys

from tui.cli.main import BARE, build_parser, parse


def imported(statements: str, modules: tuple[str, ...]) -> list[str]:
    """Which of ``modules`` a fresh interpreter has imported after running ``statements``."""
    code = f"import sys\n{statements}\nprint(','.join(m for m in {modules!r} if m in sys.modules))"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    return [name for name in out.stdout.strip().split(",") if name]


def test_bare_arguments_are_what_the_parser_gives() -> None:
    assert vars(parse([])) == vars(build_parser(commands=False).parse_args([])) == BARE


def test_the_way_to_the_first_frame_leaves_the_rest_unimported() -> None:
    # What a plain start imports before its first frame: the command line, the app and
    # its screens. The index (Whoosh), the reading list (SQLite), the config parser, the
    # argument parser and JSON come later, or with a command or a config file that needs them;
    # the paper vectors' numpy with the first similar papers, scipy with the first For you.
    start = "from tui.cli.main import parse, make_context\nimport tui.app\nargs = parse([])"
    later = ("whoosh", "sqlite3", "tomllib", "argparse", "json", "textual.widgets._progress_bar")
    later += ("numpy", "scipy", "sklearn")
    assert imported(start, later) == []


def test_the_full_parser_leaves_the_latex_renderer_unimported() -> None:
    # Every command builds the parser with all sub-commands; a warm run reads the cached
    # catalogue and never renders LaTeX, so registering them must not import the renderer.
    parse_all = (
        "from tui.cli.main import build_parser\nbuild_parser().parse_args(['reading-list', 'list'])"
    )
    unused = ("index_builder.text.render", "pylatexenc", "whoosh", "index_builder.catalogue.merge")
    assert imported(parse_all, unused) == []
