"""``paperscope cite``: styles, unknown ids, keys as ids, --copy, and terminal-safe output."""

from __future__ import annotations

import argparse
from collections.abc import Iterator, Sequence
from pathlib import Path

import bibtexparser
import pytest

from index_builder.model import Paper
from index_builder.paths import Paths
from tui.cli import cite as cli_cite
from tui.shared import clipboard
from tui.shared.context import Context

PAPERS = (
    Paper(
        id="p1",
        title="ProEval: Proactive Failure Discovery",
        title_raw="ProEval: Proactive Failure Discovery",
        authors=("Yizheng Huang", "Zi Wang"),
        openreview_url="https://openreview.net/forum?id=abc",
        event_id=1,
        aliases=("old-p1",),
        venue="ICML 2026",
    ),
    Paper(
        id="p2",
        title="ProEval Again \x1b]0;pwned\x07",
        title_raw="ProEval Again \x1b]0;pwned\x07",
        authors=("Li Huang",),
        event_id=2,
        venue="ICML 2026",
    ),
)


class FakeCatalogue:
    """The two calls ``cite`` makes of a catalogue."""

    def __init__(self, papers: Sequence[Paper]) -> None:
        self.papers = tuple(papers)

    def get(self, pid: str) -> Paper | None:
        return next((p for p in self.papers if pid == p.id or pid in p.aliases), None)

    def __iter__(self) -> Iterator[Paper]:
        return iter(self.papers)


@pytest.fixture
def ctx(tmp_path: Path) -> Context:
    paths = Paths(tmp_path / "config", tmp_path / "data", tmp_path / "cache").ensure()
    return Context(paths=paths, _catalogue=FakeCatalogue(PAPERS))  # type: ignore[arg-type]


def parse(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    cli_cite.register(parser.add_subparsers())
    return parser.parse_args(["cite", *argv])


def test_bibtex_by_default_with_catalogue_wide_keys(
    ctx: Context, capsys: pytest.CaptureFixture[str]
) -> None:
    args = parse("p1", "p2")
    assert args.func is cli_cite.run
    assert cli_cite.run(args, ctx) == 0
    out = capsys.readouterr().out
    library = bibtexparser.parse_string(out)
    assert [e.key for e in library.entries] == ["huang2026proeval", "huang2026proevala"]
    assert "\x1b" not in out and "\x07" not in out


def test_style_alias_and_citation_key_as_id(
    ctx: Context, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli_cite.run(parse("old-p1", "huang2026proevala", "--style", "plain"), ctx) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("Yizheng Huang, Zi Wang. ProEval: Proactive Failure Discovery.")
    assert lines[1].startswith("Li Huang. ProEval Again")


def test_ris_and_csl_json_for_several_papers(
    ctx: Context, capsys: pytest.CaptureFixture[str]
) -> None:
    import json

    assert cli_cite.run(parse("p1", "p2", "--style", "csljson"), ctx) == 0
    items = json.loads(capsys.readouterr().out)
    assert [i["id"] for i in items] == ["huang2026proeval", "huang2026proevala"]
    assert cli_cite.run(parse("p1", "p2", "--style", "ris"), ctx) == 0
    out = capsys.readouterr().out
    assert out.count("TY  - ") == 2 and out.count("ER  - \r\n") == 2
    assert "\n" not in out.replace("\r\n", "")


def test_config_default_style(ctx: Context, capsys: pytest.CaptureFixture[str]) -> None:
    ctx.paths.config_file.write_text('citation_style = "apa"\n', encoding="utf-8")
    assert cli_cite.run(parse("p1"), ctx) == 0
    assert capsys.readouterr().out.startswith("Huang, Y., & Wang, Z. (2026). ProEval")


def test_unknown_id_fails_clearly_and_prints_nothing(
    ctx: Context, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli_cite.run(parse("p1", "nope", "--style", "apa"), ctx) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "paperscope: unknown paper id: nope" in captured.err


def test_bad_style_is_rejected_by_the_parser() -> None:
    with pytest.raises(SystemExit):
        parse("p1", "--style", "chicago")


def test_copy_reports_what_worked(
    ctx: Context, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    copied: list[str] = []
    monkeypatch.setattr(clipboard, "_pyperclip_copy", copied.append)
    assert cli_cite.run(parse("p1", "--style", "markdown", "--copy"), ctx) == 0
    captured = capsys.readouterr()
    assert copied == [captured.out]
    assert "copied to the system clipboard" in captured.err


def test_copy_with_no_clipboard_still_prints(
    ctx: Context, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_backend(text: str) -> None:
        raise RuntimeError("none")

    monkeypatch.setattr(clipboard, "_pyperclip_copy", no_backend)
    assert cli_cite.run(parse("p1", "--copy"), ctx) == 1
    captured = capsys.readouterr()
    assert captured.out.startswith("@inproceedings{huang2026proeval,")
    assert "Could not copy" in captured.err and "Copy it from the output." in captured.err
