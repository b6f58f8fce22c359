"""Tags on the reading list: the migration from version 2, a restart, the JSON round trip,
two processes tagging at once, the exports that carry them."""

from __future__ import annotations

import csv
import io
import json
import multiprocessing
import multiprocessing.synchronize
import sqlite3
from pathlib import Path

import pytest

from index_builder.model import Paper
from index_builder.readinglist.bookmark import normal_tag, tag_set
from index_builder.readinglist.exports import export, read_json
from index_builder.readinglist.migrations import SCHEMA_VERSION
from index_builder.readinglist.store import ReadingList

PAPERS = [Paper(f"p{n}", f"Paper {n}", authors=(f"Ann Author{n}",), venue="ICML 2026")
          for n in range(3)]  # fmt: skip


def version_2_list(path: Path) -> None:
    """A list as PaperScope wrote it before tags (schema version 2), with a noted bookmark."""
    with ReadingList(path) as store:
        store.add(PAPERS[0])
        store.set_note("p0", "keep me")
        store.set_status("p0", "reading")
    conn = sqlite3.connect(path)
    conn.execute("ALTER TABLE bookmarks DROP COLUMN tags")
    conn.execute("PRAGMA user_version = 2")
    conn.commit()
    conn.close()


def test_a_version_2_list_gains_tags_and_keeps_everything(tmp_path: Path) -> None:
    path = tmp_path / "reading_list.sqlite3"
    version_2_list(path)
    with ReadingList(path) as store:
        (bm,) = store.all()
        assert (bm.paper_id, bm.note, bm.status, bm.tags) == ("p0", "keep me", "reading", ())
        store.tag("p0", ["zotero"])
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 4
    conn.close()


def test_tags_survive_a_restart_and_untag(tmp_path: Path) -> None:
    path = tmp_path / "list.sqlite3"
    with ReadingList(path) as store:
        for paper in PAPERS:
            store.add(paper)
        assert store.tag("p0", ["Zotero", " for  my thesis ", "zotero"]).tags == (
            "for my thesis",
            "Zotero",
        )
        store.tag("p1", ["zotero"])
    with ReadingList(path) as store:
        assert store.get("p0").tags == ("for my thesis", "Zotero")  # type: ignore[union-attr]
        assert sorted(b.paper_id for b in store.all(tag="ZOTERO")) == ["p0", "p1"]
        assert store.tags_in_use() == {"Zotero": 2, "for my thesis": 1}
        assert store.untag("p0", ["zotero"]).tags == ("for my thesis",)
        with pytest.raises(KeyError):
            store.tag("nope", ["x"])
    with pytest.raises(ValueError, match="comma"):
        normal_tag("a, b")
    with pytest.raises(ValueError, match="empty"):
        tag_set(["  "])


def test_a_json_export_imported_keeps_the_tags(tmp_path: Path) -> None:
    with ReadingList(tmp_path / "a.sqlite3") as store:
        store.add(PAPERS[0])
        store.tag("p0", ["baselines", "zotero"])
        text = export(store.all(), "json")
    with ReadingList(tmp_path / "b.sqlite3") as other:
        other.add(PAPERS[0])
        other.tag("p0", ["mine"])
        other.merge(read_json(text))
        assert other.get("p0").tags == ("baselines", "mine", "zotero")  # type: ignore[union-attr]
    with ReadingList(tmp_path / "c.sqlite3") as fresh:
        fresh.merge(read_json(text))
        assert fresh.get("p0").tags == ("baselines", "zotero")  # type: ignore[union-attr]


def _tag_25(path: Path, name: str, barrier: multiprocessing.synchronize.Barrier) -> None:
    """In a forked child: tag ``p0`` 25 times once both children are ready."""
    with ReadingList(path, timeout=30) as store:
        barrier.wait()  # both processes start tagging at once
        for n in range(25):
            store.tag("p0", [f"{name}{n}"])


def test_two_processes_tagging_at_once_lose_nothing(tmp_path: Path) -> None:
    path = tmp_path / "list.sqlite3"
    with ReadingList(path) as store:
        store.add(PAPERS[0])
    # Forked, not two fresh Pythons (~0.15 s of CPU each): each child opens the list itself.
    ctx = multiprocessing.get_context("fork")
    barrier = ctx.Barrier(2)
    procs = [ctx.Process(target=_tag_25, args=(path, name, barrier)) for name in "ab"]
    for proc in procs:
        proc.start()
    for proc in procs:
        proc.join(120)
    assert [proc.exitcode for proc in procs] == [0, 0]
    with ReadingList(path) as store:
        tags = store.get("p0").tags  # type: ignore[union-attr]
    assert sorted(tags) == sorted(f"{n}{i}" for n in "ab" for i in range(25))


def test_every_export_carries_the_tags(tmp_path: Path) -> None:
    with ReadingList(tmp_path / "list.sqlite3") as store:
        store.add(PAPERS[0])
        store.tag("p0", ["thesis", "to discuss"])
        items = store.all()
    assert "keywords = {thesis, to discuss}" in export(items, "bibtex")
    assert "KW  - thesis\r\nKW  - to discuss\r\n" in export(items, "ris")
    assert json.loads(export(items, "csljson"))[0]["keyword"] == "thesis, to discuss"
    assert next(csv.DictReader(io.StringIO(export(items, "csv"))))["tags"] == "thesis; to discuss"
    assert json.loads(export(items, "json"))["bookmarks"][0]["tags"] == ["thesis", "to discuss"]
    assert "  - tags: thesis, to discuss" in export(items, "markdown")
