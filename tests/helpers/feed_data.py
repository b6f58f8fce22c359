"""Conference feeds in the official shape (FEEDS.md), written from the bundled table.

:func:`icml_feed` gives every row of ``assets/icml2026_events.csv`` as a feed record
(the real event ids; an oral's Oral and Poster records tied by ``related_events_ids``)
and :func:`icml_abstracts` an abstract for every event: for the 76 bundled abstracts'
papers (``tests/fixtures/catalogue_truth.json``) the bundled text itself, re-wrapped;
for the others a synthetic abstract holding a word no other abstract has
(:func:`marker`). :func:`neurips_feed` is a small NeurIPS-style feed with inline abstracts.
"""

from __future__ import annotations

import csv
import html
import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from index_builder.sources.reading import read_source
from tests.helpers.catalogue_data import LISTS, truth
from tests.helpers.feed_server import Answer
from tests.helpers.paths import TABLE

ICML_FEED = "icml-2026-orals-posters.json"
ICML_ABSTRACTS = "icml-2026-abstracts.json"
NEURIPS_FEED = "neurips-2025-orals-posters.json"
_LETTERS = "bcdfghjklm"


def marker(event_id: int) -> str:
    """A word found only in the synthetic abstract of ``event_id`` (``zorpgdfg...``)."""
    return "zorp" + "".join(_LETTERS[int(d)] for d in str(event_id))


@lru_cache(maxsize=1)
def _rows() -> tuple[dict[str, str], ...]:
    with TABLE.open(encoding="utf-8", newline="") as handle:
        return tuple(csv.DictReader(handle))


@lru_cache(maxsize=1)
def bundled_texts() -> dict[int, str]:
    """Event id -> the bundled abstract that belongs to it (by the hand-checked truth)."""
    by_id: dict[str, str] = {}
    for path in LISTS:
        for entry in read_source(path, path.read_bytes()).abstracts:
            from index_builder.sources.records import abstract_id

            by_id.setdefault(abstract_id(entry.text), entry.text)
    return {event_id: by_id[key] for key, event_id in truth().items()}


def _record(row: dict[str, str], number: int, related: list[int]) -> dict[str, Any]:
    """One feed record for a table row."""
    event_id = int(row["event_id"])
    oral = row["event_type"] == "Oral"
    names = [n.strip() for n in row["authors"].split(";") if n.strip()]
    places = [p.strip() for p in row["institutions"].split(";") if p.strip()] or [None]
    kind = "oral" if oral else "poster"
    return {
        "id": event_id, "uid": f"{event_id:032x}",
        # The site escapes names, sometimes twice: the reader must undo both.
        "name": html.escape(html.unescape(row["title"]), quote=False),
        "authors": [{"id": 1000 + n, "fullname": html.escape(name),
                     "url": f"http://icml.cc/api/miniconf/users/{1000 + n}?format=json",
                     "institution": places[n % len(places)]} for n, name in enumerate(names)],
        "topic": row["topic"] or None, "keywords": [], "decision": row["decision"],
        "session": row["session"], "eventtype": "Oral" if oral else "Poster",
        "event_type": "Oral" if oral else "{location} Poster",
        "room_name": "Auditorium 1" if oral else "Hall D",
        "poster_position": None if oral else f"#{1000 + number}",
        "virtualsite_url": f"/virtual/2026/{kind}/{event_id}", "url": None,
        "paper_url": row["paper_url"] or None, "sourceid": number,
        "starttime": row["starttime"] or None, "endtime": row["endtime"] or None,
        "related_events_ids": related, "eventmedia": [],
    }  # fmt: skip


@lru_cache(maxsize=1)
def icml_feed() -> dict[str, Any]:
    """The whole ICML 2026 feed: one record per row of the bundled table."""
    rows = _rows()
    poster_of = {r["title"]: int(r["event_id"]) for r in rows if r["event_type"] == "Poster"}
    talks: dict[int, list[int]] = {}
    for r in rows:
        if r["event_type"] == "Oral" and r["title"] in poster_of:
            talks.setdefault(poster_of[r["title"]], []).append(int(r["event_id"]))
    results = []
    for number, row in enumerate(rows):
        event_id = int(row["event_id"])
        if row["event_type"] == "Oral":
            related = [poster_of[row["title"]]] if row["title"] in poster_of else []
        else:
            related = talks.get(event_id, [])
        results.append(_record(row, number, related))
    return {"count": len(results), "next": None, "previous": None, "results": results}


def synthetic_abstract(row: dict[str, str]) -> str:
    """An abstract for a paper the bundled lists do not cover, with its :func:`marker` word."""
    event_id = int(row["event_id"])
    topic = (row["topic"] or "machine learning").split("->")[-1].lower()
    return (
        f"We study {row['title'].lower()}. Our approach, called {marker(event_id)}, "
        f"improves results in {topic} by a *clear* margin "
        f"and scales to large benchmarks."
    )


@lru_cache(maxsize=1)
def icml_abstracts() -> dict[str, str]:
    """The abstracts file: every event id (poster and talk) -> its paper's abstract."""
    bundled = bundled_texts()
    poster_of = {r["title"]: int(r["event_id"]) for r in _rows() if r["event_type"] == "Poster"}
    out: dict[str, str] = {}
    for row in _rows():
        paper = poster_of.get(row["title"], int(row["event_id"]))
        text = bundled.get(paper)
        # The bundled text re-wrapped: equal once whitespace is normalised.
        out[row["event_id"]] = " \n".join(text.split(" ")) if text else synthetic_abstract(row)
    return out


def neurips_feed() -> dict[str, Any]:
    """A small NeurIPS 2025 feed with inline abstracts: three papers, one with a talk."""
    base = {"keywords": [], "url": None, "sourceurl": None, "eventmedia": [],
            "starttime": "2025-12-05T16:30:00-08:00", "endtime": "2025-12-05T19:30:00-08:00",
            "session": "San Diego Poster Session 6", "room_name": "Exhibit Hall C,D,E"}  # fmt: skip
    papers = [
        (119718, "Coloring Learning for Heterophilic Graph Representation", "Miaomiao Huang",
         "Graph self-supervised learning aims to learn node embeddings quavering neighbours."),
        (119719, "Texas A&amp;amp;M Sparse Transformers", "Ann D&amp;#x27;souza",
         "We prune *transformers* to $>3 \\times$ sparsity with no loss, using wibblequist."),
        (119720, "Diffusion Models Dream of Electric Sheep", "Bo Li",
         "Diffusion models generate sheep; we count them with frumious accuracy."),
    ]  # fmt: skip
    results = []
    for n, (event_id, name, author, abstract) in enumerate(papers):
        results.append({**base, "id": event_id, "name": name, "abstract": abstract,
                        "authors": [{"id": n, "fullname": author, "institution": "Northeastern"}],
                        "decision": "Accept (oral)" if n == 2 else "Accept (poster)",
                        "topic": "General Machine Learning->Representation Learning",
                        "eventtype": "Poster", "poster_position": f"#{2504 + n}",
                        "virtualsite_url": f"/virtual/2025/poster/{event_id}",
                        "related_events_ids": [129720] if n == 2 else []})  # fmt: skip
    results.append({**base, "id": 129720, "name": papers[2][1], "abstract": papers[2][3],
                    "authors": [{"id": 2, "fullname": "Bo Li", "institution": "Northeastern"}],
                    "eventtype": "Oral", "decision": "Accept (oral)", "session": "Oral 3A",
                    "room_name": "Ballroom 20", "virtualsite_url": "/virtual/2025/oral/129720",
                    "related_events_ids": [119720]})  # fmt: skip
    return {"count": len(results), "next": None, "previous": None, "results": results}


def write_icml(folder: Path) -> Path:
    """Write the ICML 2026 feed and abstracts file into ``folder``; returns it."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / ICML_FEED).write_text(json.dumps(icml_feed()), encoding="utf-8")
    (folder / ICML_ABSTRACTS).write_text(json.dumps(icml_abstracts()), encoding="utf-8")
    return folder


def write_neurips(folder: Path) -> Path:
    """Write the NeurIPS 2025 feed into ``folder``; returns it."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / NEURIPS_FEED).write_text(json.dumps(neurips_feed()), encoding="utf-8")
    return folder


def small_feed(n: int = 40) -> tuple[dict[str, Any], dict[str, str]]:
    """The first ``n`` records of the ICML feed and their abstracts."""
    results = icml_feed()["results"][:n]
    ids = {str(r["id"]) for r in results}
    abstracts = {k: v for k, v in icml_abstracts().items() if k in ids}
    return {"count": len(results), "next": None, "previous": None, "results": results}, abstracts


def good_files(etag: bool = True) -> dict[str, Answer]:
    """The first 40 records of the ICML feed and their abstracts, with ETags (or dates)."""
    feed, abstracts = small_feed()
    return {
        ICML_FEED: Answer(json.dumps(feed).encode(), etag='"f1"' if etag else "",
                          last_modified="" if etag else "Wed, 01 Jul 2026 10:00:00 GMT"),
        ICML_ABSTRACTS: Answer(json.dumps(abstracts).encode(), etag='"a1"' if etag else "",
                               last_modified="" if etag else "Wed, 01 Jul 2026 10:00:00 GMT"),
    }  # fmt: skip


TRACK_GROUPS = {
    "main": "https://openreview.net/group?id=ICML.cc/2026/Conference",
    "position": "https://openreview.net/group?id=ICML.cc/2026/Position_Paper_Track",
    "journal": "https://openreview.net/group?id=ICML.cc/2026/Journal_Track",
}


def _base_record(event_id: int, title: str, kind: str, uid: str, forum: str) -> dict[str, Any]:
    """A record of the real shape (FEEDS.md) with every field present."""
    return {
        "id": event_id, "uid": uid, "name": title,
        "authors": [{"id": 7, "fullname": "Ann Lee", "institution": "KAIST",
                     "url": "http://icml.cc/api/miniconf/users/7?format=json"}],
        "topic": "Deep Learning->Theory", "keywords": [], "decision": "Accept (regular)",
        "session": "Poster Session 3", "eventtype": kind,
        "event_type": "{location} Poster" if kind == "Poster" else kind,
        "room_name": "Hall C", "poster_position": "#301" if kind == "Poster" else None,
        "virtualsite_url": f"/virtual/2026/{kind.lower()}/{event_id}", "url": None,
        "sourceid": 1379, "sourceurl": TRACK_GROUPS["main"],
        "starttime": "2026-07-07T18:30:00-07:00", "endtime": "2026-07-07T20:15:00-07:00",
        "paper_url": f"https://openreview.net/forum?id={forum}", "related_events_ids": [],
        "eventmedia": [], "visible": True,
    }  # fmt: skip


def real_shapes_feed() -> dict[str, Any]:
    """A feed of the shapes public projects saw in the real ICML/NeurIPS feeds.

    - 91001 (poster) with a separate Oral row 91002 and Spotlight row 91003: the oral
      tied only by ``uid`` (its title written a little differently), the spotlight only
      by the OpenReview forum id; no ``related_events_ids`` anywhere. Decision
      ``Accept (oral)``.
    - 91010 (poster, Position Paper Track, decision ``Accept (spotlight)``) and 91020
      (poster, Journal Track), 91030 (poster, "Datasets and Benchmarks" track, decision
      ``Accept (oral)`` with no Oral row).
    - 91040: ``abstract``, ``decision``, ``session``, ``topic``, ``poster_position`` and
      ``starttime`` null (``endtime`` missing altogether); an author name holding ``;``;
      names and institutions escaped once and twice.
    - 91050 and 91060: the same session written with ``+09:00`` and with ``-07:00``
      (the same instant); 91060's board ``#2504``, 91050's ``#301``.
    """
    uid = "bad5f33780c42f2588878a9d07405083"
    rows = [
        _base_record(91001, "Walking Orders for Poster Halls", "Poster", uid, "Fo1aaaaaaa"),
        _base_record(91002, "Walking Orders for Poster-Halls", "Oral", uid, "Zz9zzzzzzz"),
        _base_record(91003, "Walking orders for poster halls", "Spotlight", "0" * 32,
                     "Fo1aaaaaaa"),
        _base_record(91010, "Position: Benchmarks Should Be Boring", "Poster", "1" * 32,
                     "Po2bbbbbbb"),
        _base_record(91020, "Sparse Ridgelets, Revisited", "Poster", "2" * 32, "Jo3ccccccc"),
        _base_record(91030, "A Benchmark of Benchmarks", "Poster", "3" * 32, "Db4ddddddd"),
        _base_record(91040, "Null Fields Everywhere", "Poster", "4" * 32, "Nu5eeeeeee"),
        _base_record(91050, "Seoul Time Posters", "Poster", "5" * 32, "Se6fffffff"),
        _base_record(91060, "Pacific Time Posters", "Poster", "6" * 32, "Pa7ggggggg"),
    ]  # fmt: skip
    by_id = {r["id"]: r for r in rows}
    by_id[91001]["decision"] = "Accept (oral)"
    by_id[91002].update(
        session="Oral 3A",
        room_name="Auditorium",
        decision="Accept (oral)",
        starttime="2026-07-07T17:00:00-07:00",
        endtime="2026-07-07T17:15:00-07:00",
    )
    by_id[91003].update(session="Spotlight 2", room_name="Room 301", uid="0" * 32)
    by_id[91010].update(sourceurl=TRACK_GROUPS["position"], decision="Accept (spotlight)")
    by_id[91020]["sourceurl"] = TRACK_GROUPS["journal"]
    by_id[91030]["sourceurl"] = (
        "https://openreview.net/group?id=ICML.cc/2026/Datasets_and_Benchmarks_Track"
    )
    by_id[91030]["decision"] = "Accept (oral)"  # an oral whose talk row is not in the feed
    by_id[91040].update(
        abstract=None, decision=None, session=None, topic=None, poster_position=None, starttime=None
    )
    del by_id[91040]["endtime"]
    by_id[91040]["authors"] = [
        {"id": 8, "fullname": "Bo; Li", "institution": "Texas A&amp;M University"},
        {"id": 9, "fullname": "Ravi D&amp;amp;#x27;souza", "institution": "Seoul &amp;amp; Co"},
    ]
    by_id[91050].update(
        starttime="2026-07-08T10:30:00+09:00",
        endtime="2026-07-08T12:15:00+09:00",
        poster_position="#301",
    )
    by_id[91060]["poster_position"] = "#2504"  # fmt: skip
    return {"count": len(rows), "next": None, "previous": None, "results": rows}


def real_shapes_abstracts() -> dict[str, str]:
    """The abstracts file for :func:`real_shapes_feed`: keyed by the poster (or a talk) id."""
    return {
        "91001": "We order the posters of a hall so that a visitor walks it once.",
        "91003": "We order the posters of a hall so that a visitor walks it once.",
        "91010": "Benchmarks should be boring, we argue.",
        "91020": "Ridgelets, sparse ones, revisited.",
        "91030": "A benchmark of benchmarks.",
        "91050": "Posters in Seoul time.",
        "91060": "Posters in Pacific time.",
    }


def real_shapes_files() -> dict[str, Answer]:
    """:func:`real_shapes_feed` and its abstracts as a site serves them."""
    return {
        ICML_FEED: Answer(json.dumps(real_shapes_feed()).encode(), etag='"r1"'),
        ICML_ABSTRACTS: Answer(json.dumps(real_shapes_abstracts()).encode(), etag='"r2"'),
    }
