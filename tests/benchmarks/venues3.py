"""Three venues, about 20,000 papers with real-length abstracts: typing, a join, memory.

The home (issue 41's scale): ICML 2026 with every abstract, NeurIPS 2026 (built in) and
ICLR 2027 (declared in the config) with 6,700 papers each
(:mod:`tests.benchmarks.venues3_feeds` says how their text is made), 20,030 papers in
all. Their six files are served from a site on 127.0.0.1 that this script starts, and
installed the way a user does: ``paperscope update icml2026 neurips2026 iclr2027 --from
URL``, then ``paperscope index``. On that home, in new processes and a real terminal:

- typing: each word of :data:`tests.benchmarks.startup.WORDS` typed into the TUI's search
  box in tmux, timed until a title of its results shows (p95 budget 150 ms);
- the TUI's peak memory (VmHWM) after start and that typing (budget 300 MB);
- a join by hand (``paperscope join ABSTRACT`` + ``paperscope search``) and its undo
  (budget 2 s), beside a full rebuild + search measured in the same run.

Run: ``PYTHONPATH=. .venv/bin/python -m tests.benchmarks.venues3 [--rounds N]
[--only typing|join] [--fresh] [--beside-updated]``. The prepared home is kept under
``.cache/`` (``--fresh`` makes it again; the product's index is brought up to date either
way). ``--beside-updated`` types in the one-venue updated home too. Prints medians.
"""

from __future__ import annotations

import argparse
import csv
import os
import resource
import shutil
import statistics
import time
from pathlib import Path

from index_builder.paths import bundled_sources
from tests.benchmarks import changes, startup, updated
from tests.benchmarks.engines import CACHE
from tests.benchmarks.realtext import GENERATOR_VERSION
from tests.benchmarks.stats import percentile
from tests.benchmarks.terminal import TitleSpotter
from tests.benchmarks.venues3_feeds import (
    CONFIG,
    FEED_VERSION,
    VENUES,
    WITHOUT_ABSTRACT,
    all_files,
)
from tests.helpers.feed_server import serve

HOME_KEY = f"venues3-f{FEED_VERSION}-g{GENERATOR_VERSION}"
KEYS = ("icml2026", *(v.key for v in VENUES))


def prepare(home: Path) -> dict[str, float]:
    """Make ``home``: the config declaring the third venue, ``update`` of the three venues
    from the local site, ``index``; the seconds of each and the index's peak (MB)."""
    if home.exists():
        shutil.rmtree(home)
    (home / "config").mkdir(parents=True)
    (home / "config" / "config.toml").write_text(CONFIG, encoding="utf-8")
    with serve(all_files()) as site:
        update_s = changes.run(home, "update", *KEYS, "--from", site.url)
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    index_s = changes.run(home, "index")
    after = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    out = {"update of the three venues (s)": update_s, "first index (s)": index_s}
    if after > before:  # a new maximum of any child is this command's own
        out["first index peak RSS (MB)"] = after * 1024 / 1e6
    return out


def ready_home(fresh: bool) -> tuple[Path, dict[str, float]]:
    """The prepared home (made when missing or ``fresh``) and the figures of making it."""
    home = CACHE / HOME_KEY / "home"
    done = home.parent / "ready"
    if fresh or not done.exists():
        done.unlink(missing_ok=True)
        figures = prepare(home)
        done.write_text("ok")
        return home, figures
    return home, {"index brought up to date (s)": changes.run(home, "index")}


def one_venue_home() -> Path:
    """The updated home of :mod:`tests.benchmarks.updated` (ICML 2026 alone, every abstract),
    made and indexed by this tree's code (``updated.cached_home`` runs the installed one)."""
    home = CACHE / f"venues3-one-g{GENERATOR_VERSION}" / "home"
    done = home.parent / "ready"
    if not done.exists():
        if home.exists():
            shutil.rmtree(home)
        home.mkdir(parents=True)
        with serve(updated.feed_files()) as site:
            changes.run(home, "update", "--from", site.url)
        done.write_text("ok")
    changes.run(home, "index")
    return home


def paper_counts(home: Path) -> dict[str, float]:
    """Papers of the home's catalogue (``paperscope dump``), in all and per venue."""
    import json
    import subprocess

    dumped = subprocess.run(
        startup.paperscope_cmd("dump", "--format", "jsonl"),
        env=changes.env_of(home),
        capture_output=True,
        text=True,
        check=True,
    )
    ids = [json.loads(line)["id"] for line in dumped.stdout.splitlines() if line.strip()]
    out = {"papers": float(len(ids))}
    for venue in VENUES:
        out[f"papers of {venue.key}"] = float(sum(i.startswith(venue.key + ":") for i in ids))
    return out


def typing(home: Path, rounds: int, beside: Path | None = None) -> dict[str, float]:
    """Words typed into the real TUI in tmux: median and p95 (ms), misses, peak RSS (MB);
    the floor app's echo of the same words, and (``beside``) the TUI on that home too."""
    with bundled_sources()[0].open(encoding="utf-8", newline="") as f:
        titles = [r["title"] for r in csv.DictReader(f)]
    spotter = TitleSpotter(titles)
    typed = startup.type_in_app(home, spotter, startup.WORDS, rounds, most=8)
    words = {w: startup.WORDS[w] for w in typed.samples}
    # The anchors, under the same load: the floor app echoes the same words in its box;
    # the TUI on the one-venue updated home shows their titles.
    floor = startup.type_in_floor(bundled_sources()[0], home, spotter, words, rounds)
    if beside is not None:
        one = startup.type_in_app(beside, spotter, words, rounds)
        print(f"  one venue: {', '.join(one.notes) or 'ok'}", flush=True)
    for note in typed.notes:
        print(f"  note: {note}", flush=True)
    for word, values in typed.samples.items():
        shown = ", ".join("miss" if v is None else f"{v:.0f}" for v in values)
        print(f"  typed {word}: {shown} ms", flush=True)
    out = _typing_figures("typing", typed.samples)
    out |= _typing_figures("floor app's echo", floor.samples)
    if beside is not None:
        out |= _typing_figures("typing, ICML 2026 alone (6,630 papers)", one.samples)
        if one.peak_mb is not None:
            out["TUI peak RSS, ICML 2026 alone (MB)"] = one.peak_mb
    if typed.peak_mb is not None:
        out["TUI peak RSS (MB)"] = typed.peak_mb
    return out


def _typing_figures(name: str, by_word: dict[str, list[float | None]]) -> dict[str, float]:
    """Samples, misses, median and p95 (ms); a miss counts as the timeout."""
    samples = [v for vs in by_word.values() for v in vs]
    seen = [v for v in samples if v is not None]
    timeout_ms = startup.TYPING_TIMEOUT_S * 1000
    counted = seen + [timeout_ms] * (len(samples) - len(seen))
    return {
        f"{name} samples": float(len(samples)),
        f"{name} misses": float(len(samples) - len(seen)),
        f"{name} median (ms)": statistics.median(counted) if counted else float("nan"),
        f"{name} p95 (ms)": percentile(counted, 95),
    }


def lone_for_join(home: Path) -> str:
    """The lone abstract whose hint names the paper left without one (the join's target)."""
    import json
    import subprocess

    found = subprocess.run(
        startup.paperscope_cmd("search", "is:unjoined", "--json", "--limit", "50"),
        env=changes.env_of(home),
        capture_output=True,
        text=True,
        check=True,
    )
    hits = json.loads(found.stdout)["hits"]
    return next(str(h["id"]) for h in hits if str(WITHOUT_ABSTRACT) in h["possibly_same_as"])


def joins(home: Path, rounds: int) -> dict[str, float]:
    """A join by hand and its undo, each + search, beside a full rebuild + search."""
    lone = lone_for_join(home)
    full, join, undo = [], [], []
    for _ in range(rounds):
        full.append(changes.with_search(home, "index", "--rebuild"))
        join.append(changes.with_search(home, "join", lone))
        undo.append(changes.with_search(home, "join", "--undo", lone))
    return changes._figures({"full rebuild": full, "join by hand": join, "its undo": undo})


def show(figures: dict[str, float]) -> None:
    """Print figures as they come (a later part may fail)."""
    for key, value in figures.items():
        print(f"  {key}: {value:.4g}", flush=True)


def main() -> None:
    """Make (or reuse) the home and print every figure."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="rounds of each figure")
    parser.add_argument("--only", choices=["typing", "join"], action="append")
    parser.add_argument("--fresh", action="store_true", help="make the home again")
    parser.add_argument(
        "--beside-updated",
        action="store_true",
        help="type in the one-venue updated home too (made under .cache/ when missing)",
    )
    args = parser.parse_args()
    started = time.perf_counter()
    print(f"three venues, load {os.getloadavg()[0]:.1f}:", flush=True)
    home, made = ready_home(args.fresh)
    show(made | paper_counts(home))
    if not args.only or "typing" in args.only:
        beside = one_venue_home() if args.beside_updated else None
        show(typing(home, args.rounds, beside))
        print(f"  (after typing: load {os.getloadavg()[0]:.1f})", flush=True)
    if not args.only or "join" in args.only:
        show(joins(home, args.rounds))
        print(f"  (after join: load {os.getloadavg()[0]:.1f})", flush=True)
    print(f"({time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
