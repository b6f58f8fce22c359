"""The command line as scripts use it: exit codes, JSON shapes, errors without tracebacks."""

from __future__ import annotations

import contextlib
import io
import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from index_builder.paths import HOME_ENV
from tests.helpers.cli import run_cli
from tui.cli.main import run

RECORD_KEYS = {
    "id", "title", "title_derived", "authors", "institutions", "abstract", "abstract_raw",
    "topic", "decision", "oral", "spotlight", "session", "starts_at", "ends_at", "url",
    "openreview_url", "code_urls", "sources",
}  # fmt: skip


@pytest.fixture
def shared(warm_home: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Use the session's prebuilt home (catalogue cache and index)."""
    monkeypatch.setenv(HOME_ENV, str(warm_home))
    return warm_home


def paperscope(*args: str, home: Path) -> subprocess.CompletedProcess[str]:
    """``paperscope ARGS`` in this process (run_cli): its exit status, stdout and stderr, as
    the command's own error handling (``tui.cli.main.run``) leaves them."""
    return run_cli(*args, home=home)


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        run(["--version"])
    assert exc.value.code == 0
    assert capsys.readouterr().out.startswith("paperscope 0.")


def test_search_json_shape(shared: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["search", "proeval", "--json", "--limit", "5"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data) == {"query", "total", "suggestion", "fallback", "fallback_reason", "hits"}
    assert data["fallback"] is False and data["fallback_reason"] == ""
    assert data["query"] == "proeval"
    assert data["total"] >= 1
    top = data["hits"][0]
    assert RECORD_KEYS | {"score"} <= set(top)
    assert top["title"].startswith("ProEval")
    assert isinstance(top["authors"], list) and len(top["authors"]) == 4
    assert "ProEval" in top["abstract"]


def test_search_human_output(shared: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["search", "massart", "noise"]) == 0
    out = capsys.readouterr().out
    assert out.count("Massart") >= 2
    assert "papers for 'massart noise'" in out


def test_show_json_and_unknown_id(shared: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["search", "proeval", "--json", "--limit", "1"]) == 0
    paper_id = json.loads(capsys.readouterr().out)["hits"][0]["id"]
    assert run(["show", paper_id, "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["id"] == paper_id and set(record) >= RECORD_KEYS
    assert run(["show", "no-such-paper"]) == 1
    assert "no paper with id" in capsys.readouterr().err


@pytest.fixture(scope="module")
def dumped(warm_home: Path) -> list[dict[str, Any]]:
    """``paperscope dump --format jsonl`` of the prebuilt home, run once for this module."""
    out = io.StringIO()
    with pytest.MonkeyPatch.context() as mp, contextlib.redirect_stdout(out):
        mp.setenv(HOME_ENV, str(warm_home))
        assert run(["dump", "--format", "jsonl"]) == 0
    return [json.loads(line) for line in out.getvalue().splitlines()]


def test_dump_jsonl_counts(shared: Path, dumped: list[dict[str, Any]]) -> None:
    records = dumped
    table = [r for r in records if r["openreview_url"] or r["url"]]
    assert len(table) == 6628
    assert len({r["id"] for r in records}) == len(records)
    assert sum(r["oral"] for r in records) == 168
    assert sum(1 for r in records if r["abstract"]) == 76
    for r in records:
        for bad in ("$", "\\textbf", "**", "``"):
            assert bad not in r["abstract"], (r["id"], bad)


def test_dump_csv_parses(shared: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import csv
    import io

    assert run(["dump", "--format", "csv"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert len(rows) >= 6628
    assert all(not r["title"].startswith(("=", "+", "@")) for r in rows)


def test_missing_source_is_a_clear_error(home: Path) -> None:
    result = paperscope("--source", str(home / "nope.txt"), "search", "x", home=home)
    assert result.returncode == 2
    assert "source not found" in result.stderr
    assert "Traceback" not in result.stderr


def test_bad_source_is_named_and_skipped(home: Path, tmp_path: Path) -> None:
    bad = tmp_path / "broken.csv"
    bad.write_bytes(b"\x00\x01\x02 not a table \xff\xfe")
    good = tmp_path / "mine.txt"
    good.write_text(
        "ICML 2026 Papers\n\nWe introduce Quuxformer, a zorblatting network for "
        "frobnicated widgets that beats every baseline.\n",
        encoding="utf-8",
    )
    result = paperscope(
        "--no-bundled", "--source", str(bad), "--source", str(good),
        "search", "quuxformer", "--json", home=home,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "broken.csv" in result.stderr
    assert "Traceback" not in result.stderr
    data = json.loads(result.stdout)
    assert data["total"] == 1
    assert data["hits"][0]["title_derived"] is True


def test_unusable_home_is_a_clear_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file-not-folder"
    blocker.write_text("x")
    result = paperscope("search", "x", home=blocker)
    assert result.returncode == 1
    assert "cannot use the PaperScope home" in result.stderr
    assert "Traceback" not in result.stderr


def test_output_never_carries_escape_sequences(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hostile = tmp_path / "hostile.txt"
    hostile.write_text(
        "ICML 2026 Papers\n\nWe propose Evilnet \x1b[31mred\x1b[0m and "
        "\x1b]52;c;aGVsbG8=\x07 clipboard \x9b2J text, with [bold]markup[/bold].\n",
        encoding="utf-8",
    )
    for args in (["search", "evilnet"], ["search", "evilnet", "--json"], ["dump"]):
        assert run(["--no-bundled", "--source", str(hostile), *args]) == 0
        out = capsys.readouterr().out
        assert "\x1b" not in out and "\x9b" not in out
        assert "Evilnet" in out
        if args == ["dump"]:  # JSON lines by default
            assert [json.loads(line)["title_derived"] for line in out.splitlines()] == [True]


def test_search_is_bookmarked_uses_the_reading_list(
    own_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(["search", "is:bookmarked", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["total"] == 0
    assert run(["reading-list", "add", "66407", "62914"]) == 0
    capsys.readouterr()
    assert run(["search", "is:bookmarked", "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert found["total"] == 2
    assert {h["id"] for h in found["hits"]} == {"66407", "62914"}
    assert run(["search", "massart", "is:bookmarked", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["total"] == 2


@pytest.mark.parametrize("value", ["-5", "many"])
def test_negative_or_odd_limit_is_rejected(
    shared: Path, capsys: pytest.CaptureFixture[str], value: str
) -> None:
    with pytest.raises(SystemExit) as exc:
        run(["search", "diffusion", "--limit", value])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "--limit" in err and value in err
    assert "Traceback" not in err


def test_an_oral_talk_id_shows_its_paper(shared: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["show", "71029"]) == 0
    by_talk = capsys.readouterr().out
    assert "Oral 1A" in by_talk
    assert run(["show", "71029", "--json"]) == 0
    paper_id = json.loads(capsys.readouterr().out)["id"]
    assert paper_id != "71029"
    assert run(["show", paper_id]) == 0
    assert capsys.readouterr().out == by_talk


def test_show_lists_the_talk_and_the_poster(
    shared: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(["show", "65133"]) == 0
    out = capsys.readouterr().out
    talk = next(line for line in out.splitlines() if line.startswith("Talk:"))
    poster = next(line for line in out.splitlines() if line.startswith("Poster:"))
    assert "Oral 1A" in talk and "Tue 7 Jul, 10:30–10:45 KST" in talk
    assert "Poster Session 2" in poster and "Tue 7 Jul, 14:00–15:45 KST" in poster


def test_doctor_reports_a_wrong_config_and_aligns_its_rows(
    own_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = own_home / "config" / "config.toml"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text('citation_style = "mla"\n[keymap]\nbookmrk = "x"\nbookmark = "b"\n')
    assert run(["doctor"]) == 0
    lines = capsys.readouterr().out.splitlines()
    row = next(line for line in lines if "config.toml" in line)
    assert "(2 problems, ignored)" in row and "(ok)" not in row
    text = "\n".join(lines)
    assert "citation_style must be one of" in text
    assert "keymap.bookmrk" in text and "keymap.bookmark" not in text
    assert "(74 joined to their row, 2 on their own: is:unjoined lists them, J joins" in text
    paths = lines[lines.index("Paths") + 1 : lines.index("Paths") + 6]
    starts = {line.index("/") for line in paths}
    assert len(starts) == 1, paths
    index = lines[lines.index("Index") + 1 :]
    index = index[: index.index("")]
    assert len({len(line) - len(line[2:].split(None, 1)[1]) for line in index}) == 1, index
    config.write_text('citation_style = "apa"\n[keymap]\nbookmark = "b"\n')
    assert run(["doctor"]) == 0
    row = next(line for line in capsys.readouterr().out.splitlines() if "config.toml" in line)
    assert row.endswith("config.toml (ok)")


def test_show_names_the_paper_an_unjoined_abstract_possibly_is(
    shared: Path, capsys: pytest.CaptureFixture[str], dumped: list[dict[str, Any]]
) -> None:
    records = dumped
    unsure = [r for r in records if r["possibly_same_as"]]
    assert unsure and all(r["title_derived"] for r in unsure)
    for record in unsure:
        assert run(["show", record["id"]]) == 0
        out = capsys.readouterr().out
        other = record["possibly_same_as"][0]
        line = next(x for x in out.splitlines() if x.startswith("Possibly:"))
        assert f"the same paper as {other}" in line
        assert run(["show", other, "--json"]) == 0
        assert json.loads(capsys.readouterr().out)["title"] in line
