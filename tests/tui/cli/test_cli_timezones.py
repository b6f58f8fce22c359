"""Session times on the command line: ``show``, ``agenda``, the exports, ``--timezone``, the
config's ``timezone``; the bundled data, where ICML 2026 writes Seoul sessions at ``-07:00``.

The commands on a home of their own read the bundled table's rows of the two papers they
ask about (:mod:`tests.helpers.cli_cut`): the same sessions and times, without reading the
whole catalogue's cache at every command."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from index_builder.paths import HOME_ENV
from tests.helpers.cli_cut import bundled_cut, cut_flags
from tui.cli.main import run

SEOUL = "Poster Session 3 · Wed 8 Jul, 10:30–12:15 KST"


FLAGS: list[str] = []
"""The global options of every command of a test (``tz_home``: its source)."""


@pytest.fixture
def tz_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh home (own config and reading list) whose only source is the bundled table's
    rows of 62980 (a poster) and 63687 (a poster and its talk)."""
    root = tmp_path / "home"
    cut = bundled_cut(tmp_path / "cut", ["62980", "63687"])
    monkeypatch.setattr(f"{__name__}.FLAGS", cut_flags(cut))
    monkeypatch.setenv(HOME_ENV, str(root))
    return root


def cli(argv: list[str]) -> int:
    """``paperscope ARGV`` in this process, with the test's global options."""
    return run([*FLAGS, *argv])


def out_of(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert cli(list(argv)) == 0
    captured = capsys.readouterr()
    assert captured.err == ""
    return captured.out


def test_show_gives_the_seoul_time_never_the_feed_offset(
    tz_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = out_of(capsys, "show", "62980")
    assert f"Poster:       {SEOUL}" in out
    assert "18:30" not in out and "-07:00" not in out


def test_timezone_option_for_one_command(tz_home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    utc = "Poster Session 3 · Wed 8 Jul, 01:30–03:15 UTC"
    assert utc in out_of(capsys, "--timezone", "UTC", "show", "62980")
    assert utc in out_of(capsys, "show", "62980", "--timezone", "UTC")
    assert SEOUL in out_of(capsys, "show", "62980")  # one command only
    with pytest.raises(SystemExit) as exc:
        cli(["show", "62980", "--timezone", "Nowhere/Nope"])
    assert exc.value.code == 2
    assert "'Nowhere/Nope' is not a time zone" in capsys.readouterr().err


def test_an_oral_shows_its_talk_and_its_poster(
    tz_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = out_of(capsys, "show", "63687")
    assert "Talk:         Oral 1E Understanding: Interpretability & Cognition · Tue 7 Jul, " in out
    assert "Poster:       Poster Session 2 · Tue 7 Jul, 14:00–15:45 KST" in out


def test_config_timezone(tz_home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tz_home / "config" / "config.toml"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text('timezone = "Europe/Berlin"\n', encoding="utf-8")
    assert "Wed 8 Jul, 03:30–05:15 CEST" in out_of(capsys, "show", "62980")
    assert "01:30–03:15 UTC" in out_of(capsys, "--timezone", "UTC", "show", "62980")
    config.write_text('timezone = "Nowhere/Nope"\n', encoding="utf-8")
    assert cli(["show", "62980"]) == 0
    captured = capsys.readouterr()
    assert SEOUL in captured.out
    [line] = captured.err.splitlines()
    assert line.startswith("paperscope: config: timezone = 'Nowhere/Nope' is not a time zone")
    assert line.endswith('using "venue"')


def test_agenda_puts_poster_session_3_on_wednesday(
    tz_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out_of(capsys, "reading-list", "add", "62980", "63687")
    lines = out_of(capsys, "agenda").splitlines()
    wednesday = lines.index("Wednesday 8 July 2026")
    assert lines[wednesday + 1] == "  Poster Session 3, 10:30–12:15 KST"
    assert lines[wednesday + 2].strip().startswith("[ ] 62980  Faults in Our Formal")
    tuesday = lines.index("Tuesday 7 July 2026")
    assert tuesday < wednesday
    assert lines[tuesday + 1].startswith("  Oral 1E") and "(talk)" in lines[tuesday + 2]
    assert not any("18:30" in line for line in lines)

    data = json.loads(out_of(capsys, "agenda", "--json"))
    assert data["timezone"] == "venue"
    [wed] = [d for d in data["days"] if d["day"] == "2026-07-08"]
    assert [s["name"] for s in wed["sessions"]] == ["Poster Session 3"]
    assert wed["sessions"][0]["starts_at"] == "2026-07-08T10:30:00+09:00"
    assert wed["sessions"][0]["papers"][0]["id"] == "62980"


def test_agenda_at_a_moment(tz_home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out_of(capsys, "reading-list", "add", "62980", "63687")
    data = json.loads(out_of(capsys, "agenda", "--json", "--day", "2026-07-08", "--at", "11:00"))
    assert [d["day"] for d in data["days"]] == ["2026-07-08"]
    assert data["moment"] == "2026-07-08T11:00:00+09:00"
    assert [s["name"] for s in data["running"]] == ["Poster Session 3"]
    assert data["next"] is None

    before = json.loads(out_of(capsys, "agenda", "--json", "--day", "2026-07-08", "--at", "9:00"))
    assert before["running"] == [] and before["next"]["name"] == "Poster Session 3"

    text = out_of(capsys, "agenda", "--day", "2026-07-07", "--at", "14:30")
    assert "At Tue 7 Jul 2026, 14:30 KST:" in text
    assert "  now: Poster Session 2, 14:00–15:45 KST" in text
    assert "  next: Poster Session 3, Wed 8 Jul, 10:30–12:15 KST (1 bookmarked paper)" in text

    utc = out_of(capsys, "--timezone", "UTC", "agenda", "--day", "2026-07-08", "--at", "02:00")
    assert "Wednesday 8 July 2026\n  Poster Session 3, 01:30–03:15 UTC\n" in utc
    assert "  now: Poster Session 3, 01:30–03:15 UTC" in utc

    assert cli(["agenda", "--day", "8 July"]) == 2
    assert "--day '8 July' is not a day like wed or 2026-07-08" in capsys.readouterr().err
    named = json.loads(out_of(capsys, "agenda", "--json", "--day", "wed", "--at", "11:00"))
    assert named["moment"] == "2026-07-08T11:00:00+09:00" and named["days"] == data["days"]
    assert cli(["agenda", "--at", "25:00"]) == 2


def test_a_wrong_hour_day_or_site_is_refused_before_the_catalogue_is_read(
    tz_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    wrong = {
        ("--at", "25:00"): "--at '25:00' is not an hour like 10:30",
        ("--at", "10h30"): "--at '10h30' is not an hour like 10:30",
        ("--day", "8 July", "--at", "11:00"): "--day '8 July' is not a day like wed or 2026-07-08",
        ("--site", "Narnia"): "--site 'Narnia' is no city of a known venue",
    }
    for argv, message in wrong.items():
        assert cli(["agenda", *argv]) == 2, argv
        assert message in capsys.readouterr().err
    # Refused from the arguments alone: no catalogue was read, so none was built and kept.
    assert not list((tz_home / "cache").glob("catalogue-*"))
    assert cli(["agenda", "--at", "10:30"]) == 0
    assert list((tz_home / "cache").glob("catalogue-*"))


def test_agenda_with_nothing_bookmarked(tz_home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = out_of(capsys, "agenda")
    assert out.startswith("No bookmarks yet") and "nothing on your list is running" in out


def test_exports_ics_stays_utc_and_markdown_follows_the_zone(
    tz_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out_of(capsys, "reading-list", "add", "62980")
    ics = out_of(capsys, "reading-list", "export", "--format", "ics")
    assert "DTSTART:20260708T013000Z\r\n" in ics and "DTEND:20260708T031500Z\r\n" in ics
    assert "X-WR-TIMEZONE:Asia/Seoul\r\n" in ics and "LOCATION:Poster Session 3\r\n" in ics
    utc_ics = out_of(capsys, "--timezone", "UTC", "reading-list", "export", "--format", "ics")
    strip = lambda text: [x for x in text.splitlines() if not x.startswith("DTSTAMP")]  # noqa: E731
    assert strip(utc_ics) == strip(ics)
    md = out_of(capsys, "reading-list", "export", "--format", "markdown")
    assert "  - Poster Session 3, Wed 8 Jul, 10:30–12:15 KST" in md
    md_utc = out_of(capsys, "--timezone", "UTC", "reading-list", "export", "--format", "markdown")
    assert "  - Poster Session 3, Wed 8 Jul, 01:30–03:15 UTC" in md_utc


def test_search_sorted_by_time_shows_the_time(
    warm_home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv(HOME_ENV, str(warm_home))
    query = ("faults", "formal", "benchmarking", "lean")
    lines = out_of(capsys, "search", *query, "--sort", "time", "--limit", "1").splitlines()
    assert lines[0].split()[0] == "62980" and lines[1].strip() == "Wed 8 Jul, 10:30–12:15 KST"
    plain = out_of(capsys, "search", *query, "--limit", "1")
    assert "KST" not in plain


def test_agenda_as_a_printable_page(tz_home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out_of(capsys, "reading-list", "add", "62980", "63687")
    out_of(capsys, "reading-list", "note", "62980", "<b>bring", "questions</b>")
    html = out_of(capsys, "agenda", "--format", "html")
    assert html.startswith("<!DOCTYPE html>") and "times in Asia/Seoul (KST)" in html
    assert "Poster Session 3 · Wed 8 Jul, 10:30–12:15 KST" in html
    assert "&lt;b&gt;bring questions&lt;/b&gt;" in html
    assert cli(["agenda", "--format", "html", "-o", str(tz_home / "programme.html")]) == 0
    assert (tz_home / "programme.html").read_text(encoding="utf-8").startswith("<!DOCTYPE")
