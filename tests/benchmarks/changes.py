"""What a change costs: a join by hand, its undo, and an update of 25 papers, each with the
next search, as ratios to a full rebuild with a search measured in the same run.

Every figure is real commands in new processes (``paperscope join``, ``update --from``,
``search``, ``index --rebuild``) on a home of its own:

- the bundled home (ICML 2026 table and its abstract lists): a lone abstract joined by
  hand to the paper it hints at (each round as a first join: the catalogue the last
  round's join built is dropped), then the join undone;
- the updated home (:mod:`tests.benchmarks.updated`: every paper with a real-length
  abstract from a feed served on 127.0.0.1), made by a first ``update`` + ``index`` from
  the bundled home (timed once); then the feed changes 25 papers (20 posters moved
  to another session, 5 abstracts rewritten) and back, each time ``update --from`` it;
- the catalogue build of the updated home in this process, with an empty render cache
  (and no join scoring or table papers kept), a warm one (every source read again and
  the table papers made again), after a change of the stored feed (its two files
  rewritten, a space added: read again, the other sources served parsed, the table
  papers made again, as after an ``update``), and with every source parsed before (as
  after a change of ``joins.jsonl``: the table papers kept); the catalogue's own cache
  is removed each time;
- beside each full rebuild, SQLite FTS5 (prefix indexes 1-3) indexing the same catalogue
  in memory, and ``index --rebuild`` alone as a multiple of it.

Run: ``PYTHONPATH=. .venv/bin/python -m tests.benchmarks.changes [--rounds N]``; prints
medians of N rounds (3 by default) and the ratios.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from tests.benchmarks.startup import paperscope_cmd, term_env
from tests.benchmarks.updated import feed_files
from tests.helpers.feed_data import ICML_ABSTRACTS, ICML_FEED
from tests.helpers.feed_server import Answer, serve

QUERY = "attention"


def env_of(home: Path) -> dict[str, str]:
    """The commands' environment: ``home``, and this tree's code when PYTHONPATH names it."""
    env = {**term_env(home), "PATH": "/usr/bin:/bin"}
    if os.environ.get("PYTHONPATH"):
        env["PYTHONPATH"] = os.environ["PYTHONPATH"]
    return env


def run(home: Path, *args: str) -> float:
    """Seconds ``paperscope ARGS`` took on ``home`` (a new process)."""
    env = env_of(home)
    started = time.perf_counter()
    subprocess.run(paperscope_cmd(*args), env=env, check=True, capture_output=True, timeout=3600)
    return time.perf_counter() - started


def with_search(home: Path, *args: str) -> float:
    """A command and the next search, each its own process."""
    return run(home, *args) + run(home, "search", QUERY)


def lone_abstract(home: Path) -> str:
    """A lone abstract of the home (``join`` joins it to its hinted paper)."""
    found = subprocess.run(
        paperscope_cmd("search", "is:unjoined", "--json"),
        env=env_of(home),
        capture_output=True,
        text=True,
        check=True,
    )
    return str(json.loads(found.stdout)["hits"][0]["id"])


def full_rebuild(home: Path) -> float:
    """``index --rebuild`` as a change would need it: the vectors fitted again. The last
    build's vectors are kept when no paper's text changed (``kept_vectors``), which is
    the case here after the undo; the rebuild a join would otherwise cost fits them."""
    from index_builder.search.kept_vectors import KEY_FILE

    (home / "cache" / "index" / KEY_FILE).unlink(missing_ok=True)
    return run(home, "index", "--rebuild")


def bundled(rounds: int) -> dict[str, float]:
    """Join by hand and undo, each + search, and a full rebuild + search, on the bundled home."""
    home = Path(tempfile.mkdtemp(prefix="changes-bundled-"))
    try:
        run(home, "index")
        lone = lone_abstract(home)
        full, join, undo, rebuild, fts = [], [], [], [], []
        for _ in range(rounds):
            rebuild.append(full_rebuild(home))
            full.append(rebuild[-1] + run(home, "search", QUERY))
            fts.append(fts5_seconds(home))
            # Every round's join is a first one: the catalogue kept from the last round's
            # join (which the undo put aside) would serve it whole.
            for kept in (home / "cache").glob("catalogue-*.previous.pickle"):
                kept.unlink()
            join.append(with_search(home, "join", lone))
            undo.append(with_search(home, "join", "--undo", lone))
        return _figures({"full rebuild": full, "join by hand": join, "its undo": undo}) | (
            _against_fts5(rebuild, fts)
        )
    finally:
        shutil.rmtree(home, ignore_errors=True)


def changed_feed(files: dict[str, Answer]) -> dict[str, Answer]:
    """The feed with 20 posters moved to another session and 5 abstracts rewritten."""
    feed = json.loads(files[ICML_FEED].body)
    abstracts = json.loads(files[ICML_ABSTRACTS].body)
    moved = copy.deepcopy(feed)
    posters = [r for r in moved["results"] if r["eventtype"] == "Poster"]
    for record in posters[:20]:
        record["session"] = "Poster Session 6"
        record["starttime"] = "2026-07-10T10:00:00-07:00"
    for record in posters[20:25]:
        key = str(record["id"])
        abstracts[key] = " ".join(reversed(abstracts[key].split()))
    return {
        ICML_FEED: Answer(json.dumps(moved).encode("utf-8")),
        ICML_ABSTRACTS: Answer(json.dumps(abstracts).encode("utf-8")),
    }


def updated(rounds: int) -> dict[str, float]:
    """An update changing 25 papers + search, and a full rebuild + search, on the updated home."""
    home = Path(tempfile.mkdtemp(prefix="changes-updated-"))
    before = feed_files()
    after = changed_feed(before)
    try:
        with serve(before) as site:
            first = run(home, "update", "--from", site.url) + run(home, "index")
            full, update, rebuild, fts = [], [], [], []
            for n in range(rounds * 2):
                if n % 2 == 0:
                    rebuild.append(full_rebuild(home))
                    full.append(rebuild[-1] + run(home, "search", QUERY))
                    fts.append(fts5_seconds(home))
                site.files.update(after if n % 2 == 0 else before)
                update.append(with_search(home, "update", "--from", site.url))
        figures = _figures({"full rebuild": full, "update of 25 papers": update})
        return {"first update + index (s)": round(first, 2)} | figures | _against_fts5(rebuild, fts)
    finally:
        shutil.rmtree(home, ignore_errors=True)


def catalogue(rounds: int) -> dict[str, float]:
    """The updated home's catalogue build: empty render cache, then a warm one."""
    from index_builder.catalogue.joins.scoring_cache import cache_file as scoring_file
    from index_builder.catalogue.joins.scoring_cache import decisions_file
    from index_builder.catalogue.load import load_catalogue
    from index_builder.feeds.store import stored_sources
    from index_builder.paths import Paths, bundled_sources
    from index_builder.text.render_cache import cache_file

    home = Path(tempfile.mkdtemp(prefix="changes-catalogue-"))
    try:
        with serve(feed_files()) as site:
            run(home, "update", "--from", site.url)
        paths = Paths.from_env({"PAPERSCOPE_HOME": str(home)}).ensure()
        sources = [*bundled_sources(), *stored_sources(paths)]
        kinds: dict[str, list[float]] = {"cold": [], "warm": [], "feed": [], "parsed": []}
        cpu: dict[str, list[float]] = {kind: [] for kind in kinds}
        for _ in range(rounds):
            for kind, times in kinds.items():
                for old in paths.cache_dir.glob("catalogue-*"):
                    old.unlink()
                if kind in ("cold", "warm"):  # every source read again; the table papers
                    # too, as after a change of the feed (their key is the sources but joins')
                    for old in [*paths.cache_dir.glob("sources-*"), *table_papers(paths.cache_dir)]:
                        old.unlink()
                if kind == "feed":  # the stored feed changed: new bytes, the same papers
                    for source in stored_sources(paths):
                        with source.open("ab") as feed_file:
                            feed_file.write(b" ")
                if kind == "cold":  # nothing kept: no rendered text, no join scoring
                    cache_file(paths.cache_dir).unlink(missing_ok=True)
                    scoring_file(paths.cache_dir).unlink(missing_ok=True)
                    decisions_file(paths.cache_dir).unlink(missing_ok=True)
                    for kept in paths.cache_dir.glob("joincertain-*"):
                        kept.unlink()
                started, used = time.perf_counter(), time.process_time()
                load_catalogue(sources, cache_dir=paths.cache_dir)
                times.append(time.perf_counter() - started)
                # CPU as well: on the shared machine wall time moves with the others' load.
                cpu[kind].append(time.process_time() - used)
        names = {
            "cold": "empty render cache",
            "warm": "warm render cache",
            "feed": "feed changed",
            "parsed": "sources parsed before",
        }
        out = {f"catalogue build, {names[k]} (s)": statistics.median(v) for k, v in kinds.items()}
        out.update(
            {f"catalogue build, {names[k]}, CPU (s)": statistics.median(v) for k, v in cpu.items()}
        )
        return out
    finally:
        shutil.rmtree(home, ignore_errors=True)


def table_papers(cache_dir: Path) -> list[Path]:
    """The kept table papers (:mod:`index_builder.catalogue.kept_papers`) in ``cache_dir``."""
    return list(cache_dir.glob("tablepapers-*"))


def fts5_seconds(home: Path) -> float:
    """Seconds SQLite FTS5 (porter, prefix indexes 1-3: :class:`tests.benchmarks.peers.Fts5Index`)
    takes to index the home's catalogue in memory, the catalogue read from its cache."""
    from index_builder.catalogue.load import load_catalogue
    from index_builder.feeds.store import stored_sources
    from index_builder.paths import Paths, bundled_sources
    from tests.benchmarks.peers import Fts5Index

    paths = Paths.from_env({"PAPERSCOPE_HOME": str(home)}).ensure()
    joins = [paths.hand_joins] if paths.hand_joins.exists() else []
    sources = [*bundled_sources(), *stored_sources(paths), *joins]
    papers = load_catalogue(sources, cache_dir=paths.cache_dir).papers
    started = time.perf_counter()
    Fts5Index.build(papers).close()
    return time.perf_counter() - started


def _against_fts5(rebuild: list[float], fts: list[float]) -> dict[str, float]:
    """``index --rebuild`` alone (its process) and FTS5's build, medians, and their ratio."""
    ours, theirs = statistics.median(rebuild), statistics.median(fts)
    return {
        "index --rebuild alone (s)": round(ours, 2),
        "SQLite FTS5 build, prefix 1-3 (s)": round(theirs, 2),
        "index --rebuild / FTS5": round(ours / theirs, 2),
    }


def _figures(times: dict[str, list[float]]) -> dict[str, float]:
    """Medians in seconds, and each as a ratio to the full rebuild's."""
    medians = {name: statistics.median(values) for name, values in times.items()}
    base = medians["full rebuild"]
    out = {f"{name} + search (s)": round(value, 2) for name, value in medians.items()}
    out |= {
        f"{name} / full rebuild": round(v / base, 3) for name, v in medians.items() if v != base
    }
    return out


def main() -> None:
    """Print every figure (medians of ``--rounds``)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--only", choices=["bundled", "updated", "catalogue"], action="append")
    args = parser.parse_args()
    for name, measure in (("bundled", bundled), ("updated", updated), ("catalogue", catalogue)):
        if args.only and name not in args.only:
            continue
        print(f"{name} home, load {os.getloadavg()[0]:.1f}:", flush=True)
        for key, value in measure(args.rounds).items():
            print(f"  {key}: {value:.3g}", flush=True)


if __name__ == "__main__":
    main()
