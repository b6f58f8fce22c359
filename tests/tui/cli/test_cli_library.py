"""``paperscope library`` and ``paperscope watch`` on the bundled data: Zotero's exports
imported (bad files one line each, the rest kept), ``is:library``, and watches."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from index_builder.paths import HOME_ENV
from tests.helpers.cli import run_cli
from tests.helpers.cli_cut import bundled_cut, cut_flags
from tests.helpers.library_files import ATTENTION, RUBRIC, TVI_COT, Item, bibtex, csl_json, ris
from tui.cli.main import run


def _cli(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return run_cli(*args, home=home)  # in this process: its stderr as a script reads it


@pytest.fixture
def cut_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """A fresh home whose only source is the bundled table's rows of the two catalogue
    papers of :data:`TVI_COT` and :data:`RUBRIC`; the global options that make it so.
    For the library's own bookkeeping (files read, entries kept once, removed): each
    command read the bundled 6,628 from the cache first (0.1-0.2 s of CPU)."""
    monkeypatch.setenv(HOME_ENV, str(tmp_path / "home"))
    return cut_flags(bundled_cut(tmp_path / "cut", ["64393", "65214"]))


def test_import_marks_catalogue_papers_and_is_library_finds_them(
    own_home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bib = tmp_path / "My Library.bib"
    bib.write_text(bibtex([ATTENTION, TVI_COT, RUBRIC]), encoding="utf-8")
    assert run(["library", "import", str(bib)]) == 0
    out = capsys.readouterr().out
    assert "My Library.bib: 3 new papers in your library" in out
    assert "library: 3 papers, 2 of them in the catalogue (is:library)" in out
    assert run(["search", "is:library", "--json"]) == 0
    hits = json.loads(capsys.readouterr().out)["hits"]
    assert sorted(h["id"] for h in hits) == ["64393", "65214"]
    assert run(["search", "is:library", "rubrics", "--json"]) == 0
    assert [h["id"] for h in json.loads(capsys.readouterr().out)["hits"]] == ["65214"]
    assert run(["search", "NOT is:library", "rubrics", "--json"]) == 0
    assert "65214" not in {h["id"] for h in json.loads(capsys.readouterr().out)["hits"]}


def test_the_same_papers_from_ris_and_csl_json_are_kept_once(
    cut_home: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    flags = cut_home
    (tmp_path / "a.ris").write_text(ris([ATTENTION, TVI_COT]), encoding="utf-8", newline="")
    (tmp_path / "b.json").write_text(csl_json([ATTENTION, RUBRIC]), encoding="utf-8")
    assert (
        run([*flags, "library", "import", str(tmp_path / "a.ris"), str(tmp_path / "b.json")]) == 0
    )
    out = capsys.readouterr().out
    assert "a.ris: 2 new papers" in out and "b.json: 1 new paper in your library (1 already" in out
    assert run([*flags, "library", "list", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert len(listed) == 3 and {e["key"] for e in listed} >= {"arxiv:1706.03762"}
    assert run([*flags, "library", "remove", "arxiv:1706.03762", "nope"]) == 1
    captured = capsys.readouterr()
    assert "removed 1" in captured.out and "no library entry with key 'nope'" in captured.err
    assert run([*flags, "library", "clear"]) == 0
    assert "removed 2 from your library" in capsys.readouterr().out
    assert run([*flags, "library", "list"]) == 0
    assert "0 papers in your library" in capsys.readouterr().out


def test_bad_files_are_one_line_each_and_the_good_one_is_imported(
    cut_home: list[str], tmp_path: Path
) -> None:
    good = tmp_path / "good.bib"
    good.write_text(bibtex([ATTENTION]) + "\n@article{x,\n\tyear = {2020},\n}\n", "utf-8")
    wrong = tmp_path / "notes.txt"
    wrong.write_text("my favourite papers:\n- attention\n", encoding="utf-8")
    binary = tmp_path / "library.bib.zip"
    binary.write_bytes(b"PK\x03\x04" + bytes(range(256)) * 8)
    done = _cli(tmp_path / "home", *cut_home, "library", "import", str(wrong), str(good),
                str(binary), str(tmp_path / "missing.bib"))  # fmt: skip
    assert done.returncode == 1 and "Traceback" not in done.stderr
    errors = done.stderr.strip().splitlines()
    assert len(errors) == 4, done.stderr
    assert "notes.txt: not a library export (BibTeX, RIS or CSL-JSON" in errors[0]
    assert "good.bib: 1 entry without a title skipped" in errors[1]
    assert "library.bib.zip: not a text file (binary data); nothing read from it" in errors[2]
    assert "missing.bib: " in errors[3] and "nothing read from it" in errors[3]
    assert "good.bib: 1 new paper in your library" in done.stdout


def test_watch_add_list_remove_and_a_query_that_does_not_parse(
    own_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(["watch", "add", "diffusion", "language", "models"]) == 0
    assert run(["watch", "add", 'author:"Manasi Sharma"', "--name", "Manasi"]) == 0
    capsys.readouterr()
    assert run(["watch", "add", 'author:"Yann']) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [
        "paperscope: watch: the query 'author:\"Yann' does not parse (unbalanced quote); "
        "nothing was saved"
    ]
    assert run(["watch", "add", "diffusion language models"]) == 1
    assert "exists already" in capsys.readouterr().err
    assert run(["watch", "list", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [(w["name"], w["query"]) for w in data] == [
        ("diffusion language models", "diffusion language models"),
        ("Manasi", 'author:"Manasi Sharma"'),
    ]
    assert all(w["new"] == [] for w in data)  # nothing updated: nothing new
    assert run(["recommend", "--new"]) == 1
    assert "no paper is new (the last update added none" in capsys.readouterr().err
    assert data[0]["total"] > 5 and data[1]["total"] >= 1
    assert run(["watch", "remove", "Manasi"]) == 0
    assert run(["watch", "remove", "Manasi"]) == 1
    assert "no watch named 'Manasi'" in capsys.readouterr().err


DIFFUSION_LMS = [
    Item("nie_large_2025", "Large Language Diffusion Models", (("Nie", "Shen"),), 2025,
         abstract="A diffusion language model trained from scratch with masked diffusion.",
         url="http://arxiv.org/abs/2502.09992", arxiv="2502.09992"),
    Item("sahoo_simple_2024", "Simple and Effective Masked Diffusion Language Models",
         (("Sahoo", "Subham"),), 2024, arxiv="2406.07524",
         abstract="Masked discrete diffusion for language modeling."),
    Item("lou_discrete_2024", "Discrete Diffusion Modeling by Estimating the Ratios of the "
         "Data Distribution", (("Lou", "Aaron"),), 2024, arxiv="2310.16834"),
]  # fmt: skip
"""Three real arXiv papers on diffusion language models, none in the bundled catalogue."""


def test_for_you_from_a_library_alone_and_like_a_file(
    own_home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    like = tmp_path / "dlm.bib"
    like.write_text(bibtex(DIFFUSION_LMS), encoding="utf-8")
    assert run(["recommend", "--like", str(like), "--json", "--limit", "10"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["seeds"] == "by dlm.bib (3)" and "diffusion" in data["explain"]
    titles = [h["title"].lower() for h in data["hits"]]
    assert sum("diffusion" in t for t in titles) >= 8, titles
    assert run(["library", "list", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == []  # --like imports nothing

    assert run(["recommend"]) == 1  # no bookmark, no library
    assert "needs at least 3 bookmarked papers or library papers in the catalogue; you have 0" in (
        capsys.readouterr().err
    )
    own = tmp_path / "own.json"
    own.write_text(csl_json([*DIFFUSION_LMS[:2], TVI_COT]), encoding="utf-8")
    assert run(["library", "import", str(own)]) == 0
    capsys.readouterr()
    assert run(["recommend", "--json", "--limit", "50"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["seeds"] == "by your library (3)"
    assert "64393" not in {h["id"] for h in data["hits"]}  # owned: never recommended
    assert sum("diffusion" in h["title"].lower() for h in data["hits"][:10]) >= 8
    assert run(["reading-list", "add", "65214"]) == 0
    capsys.readouterr()
    assert run(["recommend", "--limit", "3"]) == 0
    assert capsys.readouterr().out.startswith(
        "For you, by your library (3) and 1 bookmark: papers about "
    )
