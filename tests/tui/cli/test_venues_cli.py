"""NeurIPS 2026 and any venue on the same site software, from a site on 127.0.0.1: each
session in its own city's time in ``show``, ``search``, ``agenda`` and ``--site``; a venue
declared in the config; ``--host`` for one run; ``--list``; refusals in one line."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from index_builder.paths import HOME_ENV
from tests.helpers.faults import paperscope
from tests.helpers.feed_cli import one_line_error, stored, update_cli
from tests.helpers.feed_data import NEURIPS_FEED
from tests.helpers.feed_forked import update_forked
from tests.helpers.feed_server import Answer, serve, trust_env
from tests.helpers.venue_feeds import (
    ATLANTA,
    COLM_CONFIG,
    MEXICO,
    PARIS,
    SYDNEY,
    colm_files,
    neurips2025_sites_feed,
    neurips2026_files,
)
from tui.cli.main import run


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(HOME_ENV, str(tmp_path / "home"))
    return tmp_path / "home"


def _config(home: Path, text: str) -> None:
    (home / "config").mkdir(parents=True, exist_ok=True)
    (home / "config" / "config.toml").write_text(text, encoding="utf-8")


def _out(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    assert run(["--no-bundled", *args]) == 0, capsys.readouterr().err
    return capsys.readouterr().out


def test_neurips_2026_shows_each_site_in_its_own_time(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with serve() as site:
        site.files.update(neurips2026_files(site.url))
        assert run(["update", "neurips2026", "--from", site.url]) == 0
    said = capsys.readouterr().out
    assert said.startswith("NeurIPS 2026: 4 papers (4 added, 0 removed), 4 with an abstract")
    assert "came in 3 pages" in said
    for paper_id, session, when in (SYDNEY, ATLANTA, PARIS):
        shown = _out(capsys, "show", paper_id)
        assert f"Poster:       {session} · {when}" in shown, shown
    oral = _out(capsys, "show", "neurips2026:220004")
    assert "Talk:         Oral Session 2A · Wed 9 Dec, 10:00–10:15 AEDT" in oral
    # The abstract inline in the feed and those of the separate file are both there.
    assert "kangaroo-like" in _out(capsys, "show", SYDNEY[0])
    assert "Seine generate" in _out(capsys, "show", PARIS[0])
    # The timezone setting still overrides every site's zone.
    utc = _out(capsys, "show", PARIS[0], "--timezone", "UTC")
    assert "Wed 9 Dec, 13:00–16:00 UTC" in utc
    hits = json.loads(_out(capsys, "search", "site:paris", "--json"))["hits"]
    assert [h["id"] for h in hits] == [PARIS[0]]
    hits = json.loads(_out(capsys, "search", "venue:neurips2026 site:Sydney", "--json"))["hits"]
    assert sorted(h["id"] for h in hits) == [SYDNEY[0], "neurips2026:220004"]
    # A day is the site's: the Paris poster is on Wednesday there (Thursday in Sydney).
    hits = json.loads(_out(capsys, "search", "day:wed site:paris", "--json"))["hits"]
    assert [h["id"] for h in hits] == [PARIS[0]]


def test_the_agenda_has_a_day_per_site_and_narrows_to_one(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with serve() as site:
        site.files.update(neurips2026_files(site.url))
        assert run(["update", "neurips2026", "--from", site.url]) == 0
    ids = [SYDNEY[0], ATLANTA[0], PARIS[0]]
    assert run(["--no-bundled", "reading-list", "add", *ids]) == 0
    capsys.readouterr()
    text = _out(capsys, "agenda", "--day", "2026-12-09", "--at", "14:30")
    assert "Wednesday 9 December 2026 · Atlanta" in text
    assert "Wednesday 9 December 2026 · Paris" in text
    assert "Paris Poster Session 1, 14:00–17:00 CET" in text
    assert "Atlanta Poster Session 1, 10:00–13:00 EST" in text
    paris = json.loads(_out(capsys, "agenda", "--site", "paris", "--json"))
    sessions = [s for day in paris["days"] for s in day["sessions"]]
    assert [(s["name"], s["site"], s["when"]) for s in sessions] == [(PARIS[1], "Paris", PARIS[2])]
    assert paris["days"][0]["label"] == "Wednesday 9 December 2026 · Paris"
    assert run(["--no-bundled", "agenda", "--site", "Narnia"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "'Narnia'" in err and "Paris" in err


def test_neurips_2025_in_san_diego_and_mexico_city(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "mirror"
    folder.mkdir()
    (folder / NEURIPS_FEED).write_text(json.dumps(neurips2025_sites_feed()), encoding="utf-8")
    assert run(["update", "neurips2025", "--from", str(folder)]) == 0
    capsys.readouterr()
    mexico = _out(capsys, "show", MEXICO[0])
    assert f"{MEXICO[1]} · {MEXICO[2]}" in mexico
    san_diego = _out(capsys, "show", "neurips2025:119718")
    assert "San Diego Poster Session 6 · Fri 5 Dec, 16:30–19:30 PST" in san_diego


def test_a_venue_declared_in_the_config_updates_with_no_code_change(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _config(home, COLM_CONFIG)
    with serve(colm_files()) as site:
        assert run(["update", "colm2027", "--from", site.url]) == 0
    assert capsys.readouterr().out.startswith("COLM 2027: 2 papers (2 added, 0 removed)")
    shown = _out(capsys, "show", "colm2027:30001")
    assert "Poster Session 1 · Wed 6 Oct, 10:00–12:00 EDT" in shown
    assert "Page:         https://colm.cc/virtual/2027/poster/30001" in shown
    bib = _out(capsys, "cite", "colm2027:30001")
    assert "booktitle = {Fourth Conference on Language Modeling}" in bib and "2027" in bib
    listed = _out(capsys, "update", "--list")
    rows = {line.split()[0]: line for line in listed.splitlines()}
    assert rows["colm2027"].endswith("config") and "America/Toronto" in rows["colm2027"]
    assert rows["neurips2026"].endswith("built in")
    assert "Sydney Australia/Sydney; Atlanta America/New_York; Paris Europe/Paris" in listed
    for key in ("eccv2026", "colm2026", "aistats2026", "mlsys2026", "icml2026"):
        assert key in rows


def test_a_refused_config_venue_is_one_line_and_stores_nothing(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _config(home, COLM_CONFIG.replace("America/Toronto", "Mars/Olympus"))
    with serve(colm_files()) as site:
        assert run(["update", "colm2027", "--from", site.url]) == 1
        assert not site.requests
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "colm2027" in err and "'Mars/Olympus'" in err
    assert not (home / "data" / "feeds" / "colm2027").exists()
    assert run(["update", "--list"]) == 0
    listed = capsys.readouterr()
    assert "colm2027" not in listed.out and listed.err == err


def test_host_takes_a_venue_for_one_run(tmp_path: Path) -> None:
    with serve(colm_files(), tls=True) as site:
        host = site.url.split("/")[2]
        done = update_forked(tmp_path, "colm2027", "--host", host, "--venue-zone",
                             "America/Toronto", env=trust_env())  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("COLM 2027: 2 papers (2 added, 0 removed)")
    assert [p for p, _ in site.requests] == [
        "/static/virtual/data/colm-2027-orals-posters.json",
        "/static/virtual/data/colm-2027-abstracts.json",
    ]
    assert "colm-2027-orals-posters.json" in stored(tmp_path, "colm2027")
    # Remembered with its feed: the next runs (processes that never ran the update) read
    # its papers as COLM 2027's.
    env = {HOME_ENV: str(tmp_path)}
    shown = subprocess.run(paperscope("--no-bundled", "show", "colm2027:30001"), text=True,
                           capture_output=True, env={**os.environ, **env}, check=False)  # fmt: skip
    assert "Poster Session 1 · Wed 6 Oct, 10:00–12:00 EDT" in shown.stdout, shown.stderr
    assert f"https://{host}/virtual/2027/poster/30001" in shown.stdout
    listed = update_cli(tmp_path, "--list").stdout
    assert any(line.startswith("colm2027") and line.endswith("--host") for line in
               listed.splitlines()), listed  # fmt: skip


@pytest.mark.parametrize(
    ("files", "extra", "words"),
    [
        ({}, ["--venue-zone", "America/Toronto"], "answered 404"),
        (None, ["--venue-zone", "Mars/Olympus"], "'Mars/Olympus' is not an IANA time zone"),
        (None, ["--venue-zone", "UTC", "--host", "https://x/y"], "not a host name"),
    ],
    ids=["no-feed", "unknown-zone", "bad-host"],
)
def test_host_refusals_are_one_line_exit_1_nothing_stored(
    tmp_path: Path, files: dict[str, Answer] | None, extra: list[str], words: str
) -> None:
    with serve(colm_files() if files is None else files, tls=True) as site:
        host = site.url.split("/")[2]
        done = update_forked(tmp_path, "colm2027", "--host", host, *extra, env=trust_env())
    one_line_error(done, words)
    assert stored(tmp_path, "colm2027") == {}


def test_for_you_across_venues_or_within_one(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "mirror"
    folder.mkdir()
    (folder / NEURIPS_FEED).write_text(json.dumps(neurips2025_sites_feed()), encoding="utf-8")
    assert run(["update", "neurips2025", "--from", str(folder)]) == 0
    with serve() as site:
        site.files.update(neurips2026_files(site.url))
        assert run(["update", "neurips2026", "--from", site.url]) == 0
    assert run(["--no-bundled", "reading-list", "add", SYDNEY[0], ATLANTA[0], PARIS[0]]) == 0
    capsys.readouterr()
    every = json.loads(_out(capsys, "recommend", "--json"))["hits"]
    assert {h["venue"] for h in every} == {"NeurIPS 2025", "NeurIPS 2026"}
    assert {h["id"] for h in every} & {SYDNEY[0], ATLANTA[0], PARIS[0]} == set()
    one = json.loads(_out(capsys, "recommend", "--venue", "neurips2025", "--json"))
    assert one["hits"] and {h["venue"] for h in one["hits"]} == {"NeurIPS 2025"}
    assert one["total"] == len(one["hits"]) == 4  # every NeurIPS 2025 paper
    assert run(["--no-bundled", "recommend", "--venue", "nips1987"]) == 2
    assert "unknown venue 'nips1987'" in capsys.readouterr().err
