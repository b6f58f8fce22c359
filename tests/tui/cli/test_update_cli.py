"""``paperscope update``: summaries, unknown venues, faults with a non-zero exit."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from index_builder.paths import HOME_ENV
from tests.helpers.feed_data import ICML_FEED, good_files, write_neurips
from tests.helpers.feed_server import Answer, serve
from tui.cli.main import run


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(HOME_ENV, str(tmp_path / "home"))
    return tmp_path / "home"


def stored(home: Path) -> dict[str, bytes]:
    folder = home / "data" / "feeds" / "icml2026"
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def test_update_then_update_again(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with serve(good_files()) as site:
        assert run(["update", "--from", site.url]) == 0
        first = capsys.readouterr().out
        assert run(["update", "icml2026", "--from", site.url]) == 0
        second = capsys.readouterr().out
    assert first.startswith("ICML 2026: 40 papers (40 added, 0 removed), 40 with an abstract")
    assert f"stored in {home / 'data' / 'feeds' / 'icml2026'}" in first
    assert second == "ICML 2026: unchanged (40 papers, nothing downloaded)\n"


@pytest.mark.parametrize(
    ("answer", "said"),
    [
        (Answer(b"no", status=500, content_type="text/plain"), "answered 500"),
        (Answer(b"<html>check</html>", content_type="text/html"), "HTML page"),
    ],
    ids=["500", "html"],
)
def test_a_fault_exits_non_zero_and_keeps_the_data(
    home: Path, capsys: pytest.CaptureFixture[str], answer: Answer, said: str
) -> None:
    with serve(good_files()) as site:
        assert run(["update", "--from", site.url]) == 0
    before = stored(home)
    capsys.readouterr()
    with serve({**good_files(), ICML_FEED: answer}) as site:
        assert run(["update", "--from", site.url]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and said in err and "the stored data is unchanged" in err
    assert err.startswith("paperscope: icml2026: ")
    assert stored(home) == before


def test_unknown_venue_lists_the_known(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["update", "icml2099"]) == 2
    err = capsys.readouterr().err
    assert "unknown venue 'icml2099'" in err and "neurips2025" in err and "icml2026" in err


def test_neurips_from_a_folder_becomes_a_source(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = write_neurips(tmp_path / "by-hand")
    assert run(["update", "neurips2025", "--from", str(folder)]) == 0
    assert capsys.readouterr().out.startswith("NeurIPS 2025: 3 papers (3 added, 0 removed)")
    assert run(["show", "neurips2025:129720", "--json", "--no-bundled"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["id"] == "neurips2025:119720" and shown["venue"] == "NeurIPS 2025"
    assert run(["cite", "neurips2025:119718", "--no-bundled"]) == 0
    assert "Advances in Neural Information Processing Systems" in capsys.readouterr().out
    assert run(["doctor", "--no-bundled"]) == 0
    report = capsys.readouterr().out
    assert "Feeds (paperscope update)" in report and f"from {folder}" in report
    assert "neurips-2025-orals-posters.json" in report  # a loaded source
