"""A home after ``paperscope update``: every ICML 2026 paper with a real-length abstract.

The benchmark serves the conference's two files (FEEDS.md) from a site on 127.0.0.1 that
it starts itself (:mod:`tests.helpers.feed_server`): the bundled table's papers as the
feed (:func:`tests.helpers.feed_data.icml_feed`), and as their abstracts the arXiv
sample's, in order (the n-th poster gets the n-th sample abstract; a talk its poster's).
Then it runs the real commands, ``paperscope update --from http://127.0.0.1:PORT/...``
and ``paperscope index``, timed. A prepared home is kept under ``.cache/`` for the
figures that start from it warm; the timed figures use a new home each time.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from index_builder.model import Paper
from tests.benchmarks.engines import CACHE
from tests.benchmarks.realtext import GENERATOR_VERSION, sample
from tests.benchmarks.startup import paperscope_cmd, term_env
from tests.helpers.feed_data import ICML_ABSTRACTS, ICML_FEED, icml_feed
from tests.helpers.feed_server import Answer, serve

HOME_KEY = f"updated-g{GENERATOR_VERSION}"


def feed_files() -> dict[str, Answer]:
    """The feed and its abstracts file: every event with a real abstract of the sample."""
    feed = icml_feed()
    records = sample()
    poster_of: dict[str, int] = {}
    abstracts: dict[str, str] = {}
    posters = [r for r in feed["results"] if r["eventtype"] != "Oral"]
    for n, record in enumerate(posters):
        poster_of[record["name"]] = record["id"]
        abstracts[str(record["id"])] = records[n % len(records)]["abstract"]
    for record in feed["results"]:
        if record["eventtype"] == "Oral":
            poster = poster_of.get(record["name"])
            text = abstracts.get(str(poster)) if poster else None
            abstracts[str(record["id"])] = text or records[-1]["abstract"]
    return {
        ICML_FEED: Answer(json.dumps(feed).encode("utf-8")),
        ICML_ABSTRACTS: Answer(json.dumps(abstracts).encode("utf-8")),
    }


@dataclass
class Prepared:
    """A home after update and index, and what each command took."""

    home: Path
    update_s: float
    index_s: float
    index_peak_mb: float | None


def _run(home: Path, *args: str) -> float:
    started = time.perf_counter()
    env = {**term_env(home), "PATH": "/usr/bin:/bin"}
    subprocess.run(paperscope_cmd(*args), env=env, check=True, capture_output=True, timeout=3600)
    return time.perf_counter() - started


def _index_peak(home: Path) -> tuple[float, float | None]:
    """``paperscope index --rebuild`` timed, with its peak RSS (self and children) in MB."""
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    seconds = _run(home, "index", "--rebuild")
    after = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    # ru_maxrss of children is the largest of any child waited for so far: only a new
    # maximum is this command's own.
    return seconds, (after / 1024 if after > before else None)


def prepare(home: Path) -> Prepared:
    """Update ``home`` from the local site and index it; both commands timed."""
    if home.exists():
        shutil.rmtree(home)
    home.mkdir(parents=True)
    with serve(feed_files()) as site:
        update_s = _run(home, "update", "--from", site.url)
    index_s, peak = _index_peak(home)
    return Prepared(home, update_s, index_s, peak)


def cached_home() -> Path:
    """The prepared home kept under ``.cache/`` (made when missing)."""
    home = CACHE / HOME_KEY / "home"
    done = home.parent / "ready"
    if not done.exists():
        prepare(home)
        done.write_text("ok")
    else:  # the product's index may have changed since: brought up to date (or kept)
        _run(home, "index")
    return home


def papers_of(home: Path) -> tuple[tuple[Paper, ...], str]:
    """The catalogue of ``home`` as the app loads it (bundled sources and stored feeds)."""
    from index_builder.catalogue.load import load_catalogue
    from index_builder.feeds.store import stored_sources
    from index_builder.paths import Paths, bundled_sources

    paths = Paths.from_env({"PAPERSCOPE_HOME": str(home)}).ensure()
    sources = [*bundled_sources(), *stored_sources(paths)]
    cat = load_catalogue(sources, cache_dir=paths.cache_dir)
    return tuple(cat.papers), cat.fingerprint
