"""Bare ``paperscope`` on its way to the first frame: the parser's defaults, and what it
leaves unimported (start-up is a budget: PRODUCT.md, issue 14)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tui.cli.main import BARE, COMMANDS, build_parser, parse


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


def test_a_command_builds_and_imports_only_its_own_module() -> None:
    # Registering every sub-command imported every CLI module (urllib for Zotero, the
    # agenda, the watches): about 0.15 s of each command. A command registers its own.
    search = "from tui.cli.main import parse\nparse(['--timezone', 'UTC', 'search', 'join'])"
    others = ("tui.cli.zotero", "tui.cli.joins", "tui.cli.agenda", "urllib.request")
    assert imported(search, others) == []
    assert imported(search, ("tui.cli.records",)) == ["tui.cli.records"]


def test_one_command_parses_as_with_every_command_registered() -> None:
    for argv in (
        ["search", "join", "--limit", "3", "--json"],
        ["--source", "search", "--no-bundled", "join", "ABC", "64188"],
        ["join", "--undo", "64188", "--timezone", "local"],
        ["similar", "64188", "--limit", "4"],
        ["reading-list", "list"],
        ["recommend", "--limit", "3"],
        ["agenda"],
        ["index", "--rebuild"],
        ["update"],
        ["dismissed"],
        ["cite", "64188"],
    ):
        assert vars(parse(argv)) == vars(build_parser().parse_args(argv)), argv


def test_help_before_a_command_lists_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        parse(["--help", "search"])
    listed = capsys.readouterr().out
    assert all(name in listed for name in COMMANDS), listed
