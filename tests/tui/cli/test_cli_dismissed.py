"""``paperscope dismissed``, ``paperscope undismiss ID`` and ``search is:dismissed``: a paper
dismissed in the browser is found again from the command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from index_builder.paths import HOME_ENV
from index_builder.readinglist.dismissed import Dismissals
from index_builder.readinglist.store import ReadingList
from tests.helpers.cli_cut import bundled_cut, cut_flags
from tui.cli.main import run

MASSART = ("66407", "62914")


@pytest.fixture
def own_home(warm_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A home with its own reading list on the session's built cache (read only)."""
    root = tmp_path / "own-home"
    root.mkdir()
    (root / "cache").symlink_to(warm_home / "cache", target_is_directory=True)
    monkeypatch.setenv(HOME_ENV, str(root))
    return root


@pytest.fixture
def massart_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """A fresh home whose only source is the bundled table's rows of the two Massart-noise
    papers; the global options that make it so. Listing and taking back dismissed papers
    reads their titles, whatever the catalogue's size: each command read the bundled
    6,628 from the cache first (0.1-0.2 s of CPU)."""
    monkeypatch.setenv(HOME_ENV, str(tmp_path / "home"))
    return cut_flags(bundled_cut(tmp_path / "cut", MASSART))


def dismiss(home: Path, *ids: str) -> None:
    """Dismiss ``ids`` as ``x`` in the browser does."""
    (home / "data").mkdir(exist_ok=True)
    with ReadingList(home / "data" / "reading_list.sqlite3") as store:
        for paper_id in ids:
            Dismissals(store).add(paper_id)


def test_dismissed_lists_them_and_undismiss_takes_one_back(
    massart_home: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    flags = massart_home
    assert run([*flags, "dismissed"]) == 0
    assert "0 papers dismissed" in capsys.readouterr().out
    dismiss(tmp_path / "home", MASSART[0], "gone-from-the-data")
    assert run([*flags, "dismissed", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["total"] == 2
    listed = {d["paper_id"]: d for d in data["dismissed"]}
    assert listed[MASSART[0]]["in_data"] and "Massart" in listed[MASSART[0]]["title"]
    assert listed["gone-from-the-data"] == {**listed["gone-from-the-data"], "title": None}
    assert run([*flags, "dismissed"]) == 0
    out = capsys.readouterr().out
    assert "Massart" in out and "(no longer in the data)" in out and "2 papers dismissed" in out
    assert run([*flags, "undismiss", MASSART[0]]) == 0
    assert "back in For you" in capsys.readouterr().out
    assert run([*flags, "undismiss", MASSART[0]]) == 1
    assert "is not dismissed" in capsys.readouterr().err
    assert run([*flags, "dismissed", "--json"]) == 0
    assert [d["paper_id"] for d in json.loads(capsys.readouterr().out)["dismissed"]] == [
        "gone-from-the-data"
    ]


def test_search_is_dismissed(own_home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    dismiss(own_home, *MASSART)
    assert run(["search", "is:dismissed", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert sorted(h["id"] for h in data["hits"]) == sorted(MASSART) and data["total"] == 2
    assert run(["search", "--json", "--", "massart", "-is:dismissed"]) == 0
    assert not {h["id"] for h in json.loads(capsys.readouterr().out)["hits"]} & set(MASSART)
