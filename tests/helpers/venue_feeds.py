"""Feeds of conferences held in several cities, in the real shape (FEEDS.md), and a config
declaring a venue that is not built in.

:func:`neurips2026_feed` is NeurIPS 2026 as its site would serve it: the NeurIPS 2025
record shape without ``abstract`` (the abstracts file holds them, one record keeps its
own inline), sessions in Sydney, Atlanta and Paris written with real offsets (Paris's
written once in Sydney's offset, as a feed mixes them). :func:`neurips2026_files` cuts it
into pages. :func:`neurips2025_sites_feed` is the NeurIPS 2025 feed the tests already
have plus a Mexico City poster. :data:`SYDNEY`, :data:`ATLANTA` and :data:`PARIS` name
each site's poster and how a programme writes its time.
"""

from __future__ import annotations

import json
from typing import Any

from tests.helpers.feed_cli import pages
from tests.helpers.feed_data import neurips_feed
from tests.helpers.feed_server import Answer

NEURIPS26_FEED = "neurips-2026-orals-posters.json"
NEURIPS26_ABSTRACTS = "neurips-2026-abstracts.json"
COLM27_FEED = "colm-2027-orals-posters.json"
COLM27_ABSTRACTS = "colm-2027-abstracts.json"

SYDNEY = ("neurips2026:220001", "Sydney Poster Session 1", "Tue 8 Dec, 11:00–14:00 AEDT")
ATLANTA = ("neurips2026:220002", "Atlanta Poster Session 1", "Wed 9 Dec, 10:00–13:00 EST")
PARIS = ("neurips2026:220003", "Paris Poster Session 1", "Wed 9 Dec, 14:00–17:00 CET")
MEXICO = ("neurips2025:119730", "Mexico City Poster Session 1", "Thu 4 Dec, 10:00–13:00 CST")

COLM_CONFIG = """
[venues.colm2027]
host = "colm.cc"
name = "COLM 2027"
timezone = "America/Toronto"
booktitle = "Fourth Conference on Language Modeling"
"""
"""A config declaring COLM 2027 (a venue no release knows), in Montreal's zone."""


def _record(event_id: int, name: str, session: str, start: str, end: str) -> dict[str, Any]:
    """One NeurIPS 2026 poster record (no inline abstract, as from 2026 on)."""
    return {
        "id": event_id, "uid": f"{event_id:032x}", "name": name,
        "authors": [{"id": event_id, "fullname": "Ana Kowalski",
                     "url": f"http://neurips.cc/api/miniconf/users/{event_id}?format=json",
                     "institution": "University of Sydney"}],
        "topic": "Deep Learning->Theory", "keywords": [], "decision": "Accept (poster)",
        "session": session, "eventtype": "Poster", "event_type": "{location} Poster",
        "room_name": "Hall " + session[0], "virtualsite_url": f"/virtual/2026/poster/{event_id}",
        "url": None, "sourceid": 4242,
        "sourceurl": "https://openreview.net/group?id=NeurIPS.cc/2026/Conference",
        "starttime": start, "endtime": end, "poster_position": f"#{event_id % 1000}",
        "paper_url": f"https://openreview.net/forum?id=N26x{event_id}", "related_events_ids": [],
        "eventmedia": [],
    }  # fmt: skip


def neurips2026_feed() -> dict[str, Any]:
    """Five records: a poster at each site, and a Sydney oral with its poster."""
    rows = [
        _record(220001, "Kangaroo Gradients for Sparse Attention", SYDNEY[1],
                "2026-12-08T11:00:00+11:00", "2026-12-08T14:00:00+11:00"),
        _record(220002, "Peachtree Priors for Bayesian Optimisation", ATLANTA[1],
                "2026-12-09T10:00:00-05:00", "2026-12-09T13:00:00-05:00"),
        # 14:00 in Paris, written in Sydney's offset: already Thursday there.
        _record(220003, "Seine Flows for Generative Models", PARIS[1],
                "2026-12-10T00:00:00+11:00", "2026-12-10T03:00:00+11:00"),
        _record(220004, "Harbour Bridges Between Vision and Language", SYDNEY[1],
                "2026-12-08T11:00:00+11:00", "2026-12-08T14:00:00+11:00"),
        {**_record(220104, "Harbour Bridges Between Vision and Language", "Oral Session 2A",
                   "2026-12-09T10:00:00+11:00", "2026-12-09T10:15:00+11:00"),
         "eventtype": "Oral", "event_type": "Oral", "decision": "Accept (oral)",
         "poster_position": None, "virtualsite_url": "/virtual/2026/oral/220104",
         "related_events_ids": [220004]},
    ]  # fmt: skip
    rows[3].update(decision="Accept (oral)", related_events_ids=[220104])
    rows[0]["abstract"] = "Sparse attention learns to hop, kangaroo-like, across tokens."
    return {"count": len(rows), "next": None, "previous": None, "results": rows}


def neurips2026_abstracts() -> dict[str, str]:
    """The abstracts file: every record but the one whose abstract is inline."""
    return {
        "220002": "Priors from Atlanta's peach trees make Bayesian optimisation sample-thrifty.",
        "220003": "Normalising flows along the Seine generate images of bridges.",
        "220004": "Bridges between vision and language, built in Sydney's harbour.",
        "220104": "Bridges between vision and language, built in Sydney's harbour.",
    }


def neurips2026_files(url: str, size: int = 2) -> dict[str, Answer]:
    """The feed in pages of ``size`` (``next`` links under ``url``) and its abstracts file."""
    files = pages(neurips2026_feed(), size, url, name=NEURIPS26_FEED)
    body = json.dumps(neurips2026_abstracts()).encode()
    return {**files, NEURIPS26_ABSTRACTS: Answer(body, etag='"n26a"')}


def neurips2025_sites_feed() -> dict[str, Any]:
    """The NeurIPS 2025 feed of the tests (San Diego) and a poster in Mexico City."""
    feed = neurips_feed()
    mexico = {**feed["results"][0], "id": 119730, "name": "Tacos of Thought in Mexico City",
              "session": MEXICO[1], "starttime": "2025-12-04T10:00:00-06:00",
              "endtime": "2025-12-04T13:00:00-06:00", "room_name": "Centro Citibanamex",
              "abstract": "Chains of thought, folded like tacos.", "poster_position": "#12",
              "virtualsite_url": "/virtual/2025/poster/119730",
              "related_events_ids": []}  # fmt: skip
    results = [*feed["results"], mexico]
    return {**feed, "count": len(results), "results": results}


def colm_feed() -> tuple[dict[str, Any], dict[str, str]]:
    """A COLM 2027 feed of two posters (written in Pacific time) and its abstracts."""
    rows = [
        {**_record(30001, "Language Models Read the Menu", "Poster Session 1",
                   "2027-10-06T07:00:00-07:00", "2027-10-06T09:00:00-07:00"),
         "virtualsite_url": "/virtual/2027/poster/30001"},
        {**_record(30002, "Tokens on Ice", "Poster Session 2",
                   "2027-10-07T07:00:00-07:00", "2027-10-07T09:00:00-07:00"),
         "virtualsite_url": "/virtual/2027/poster/30002"},
    ]  # fmt: skip
    abstracts = {"30001": "We teach language models to read menus.", "30002": "Tokens, frozen."}
    return {"count": 2, "next": None, "previous": None, "results": rows}, abstracts


def colm_files() -> dict[str, Answer]:
    """:func:`colm_feed` as a site serves it."""
    feed, abstracts = colm_feed()
    return {
        COLM27_FEED: Answer(json.dumps(feed).encode(), etag='"c1"'),
        COLM27_ABSTRACTS: Answer(json.dumps(abstracts).encode(), etag='"c2"'),
    }
