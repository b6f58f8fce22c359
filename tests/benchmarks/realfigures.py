"""Figures 8-12 on real-length abstracts: the home after ``paperscope update``, and 50k grown.

8. update + index, and the index build beside FTS5's (two processes against one);
9. search, repeated queries and first-time (cold) ones, beside FTS5;
10. similar papers; 11. recommendations; 12. typing, start and memory in tmux.
"""

from __future__ import annotations

import re
import resource
import shutil
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from itertools import pairwise
from pathlib import Path

from index_builder.model import Paper
from tests.benchmarks import engines, latency, realvectors, startup
from tests.benchmarks.figures import with_misses
from tests.benchmarks.latency import Query
from tests.benchmarks.peers import Fts5Index
from tests.benchmarks.stats import Figure
from tests.benchmarks.terminal import TitleSpotter, available
from tests.benchmarks.updated import prepare

_WORD = re.compile(r"[a-z]{4,}")
TWO_PROCESSES = (
    "PaperScope builds on up to three processes (a forked worker takes half the papers, "
    "another the paper vectors where the index has them)"
)


def _cpu() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def update_figures(runs: int) -> list[Figure]:
    """Figure 8a/8b: ``paperscope update`` from the local site, then ``paperscope index``."""
    totals, peaks, updates = [], [], []
    for _ in range(runs):
        home = Path(tempfile.mkdtemp(prefix="psbench-upd-"))
        try:
            done = prepare(home / "home")
        finally:
            shutil.rmtree(home, ignore_errors=True)
        updates.append(done.update_s)
        totals.append(done.update_s + done.index_s)
        if done.index_peak_mb:
            peaks.append(done.index_peak_mb)
    return [
        Figure(
            "update_index",
            "8a. update + index, real abstracts (6,628 papers)",
            "s",
            totals,
            budget=60.0,
            check="median",
            note=f"update alone {min(updates):.1f}-{max(updates):.1f} s; the rest is the first "
            "`paperscope index` (catalogue from the new feeds, then the index)",
        ),
        Figure(
            "rss_index_real",
            "8b. peak RSS, `paperscope index`, real abstracts",
            "MB",
            peaks,
            budget=400.0,
            note="ru_maxrss of the command (its forked worker is smaller)",
        ),
    ]


def build_figures(name: str, papers: Sequence[Paper], reps: int) -> list[Figure]:
    """Figure 8c: fresh builds, PaperScope and FTS5 interleaved, wall and CPU seconds."""
    from index_builder.search.engine import SearchIndex

    ours, theirs, our_cpu, their_cpu = [], [], [], []
    work = Path(tempfile.mkdtemp(prefix="psbench-build-"))
    try:
        for rep in range(reps):
            cpu, started = _cpu(), time.perf_counter()
            Fts5Index.build(papers, work / f"fts5-{rep}.sqlite3").close()
            theirs.append(time.perf_counter() - started)
            their_cpu.append(_cpu() - cpu)
            index = SearchIndex(work / f"index-{rep}", papers, f"bench-{rep}")
            cpu, started = _cpu(), time.perf_counter()
            index.build()
            ours.append(time.perf_counter() - started)
            our_cpu.append(_cpu() - cpu)
            index.close()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    cpu_ratio = sum(our_cpu) / max(sum(their_cpu), 1e-9)
    return [
        Figure(
            f"build_{name}",
            f"8c. index build, {name} ({len(papers):,} papers), ÷ FTS5",
            "s",
            ours,
            "SQLite FTS5",
            theirs,
            budget=6.0,
            check="ratio",
            note=f"{TWO_PROCESSES}, FTS5 on one; CPU seconds {sum(our_cpu) / reps:.1f} vs "
            f"{sum(their_cpu) / reps:.2f} ({cpu_ratio:.1f}×)",
            extra={"cpu_s": our_cpu, "fts5_cpu_s": their_cpu},
        )
    ]


def _document_frequencies(papers: Sequence[Paper]) -> Counter[str]:
    found: Counter[str] = Counter()
    for p in papers:
        found.update(set(_WORD.findall(f"{p.title} {p.abstract}".lower())))
    return found


def _band(df: Counter[str], low: int, high: int, count: int, skip: set[str]) -> list[str]:
    """``count`` words whose document frequency lies in [low, high], evenly spread."""
    words = sorted(w for w, n in df.items() if low <= n <= high and w not in skip)
    if not words:
        return []
    step = max(1, len(words) // count)
    return words[::step][:count]


def real_queries(papers: Sequence[Paper]) -> tuple[list[Query], list[str]]:
    """The repeated query set and the first-time words, from the corpus's own vocabulary."""
    df = _document_frequencies(papers)
    n = len(papers)
    common = _band(df, n // 40, n // 10, 3, set())
    mid = _band(df, max(3, n // 1000), max(6, n // 300), 4, set())
    rare = _band(df, 2, 3, 2, set())
    author = papers[n // 3].authors[0] if papers[n // 3].authors else "Wang"
    titles = Counter(
        " ".join(pair) for p in papers for pair in pairwise(_WORD.findall(p.title.lower()))
    )
    phrase = titles.most_common(1)[0][0] if titles else "language models"
    word = mid[0] if mid else "diffusion"
    queries = [Query(w, "word") for w in [*common[:2], *mid[:2], *rare]]
    queries += [
        Query(f"{common[0]} {mid[1]}" if common and len(mid) > 1 else word, "words"),
        Query(f'"{phrase}"', "phrase"),
        Query(f'author:"{author}"', "field"),
        Query(f"title:{common[-1]}" if common else "title:learning", "field"),
        Query(f"{word} is:spotlight", "filter"),
        Query(f'"{phrase}" NOT {common[0] if common else "model"}', "not"),
        Query(f"{word[:4]}*", "wildcard"),
        *(Query(word[:k], "keystroke", True) for k in range(1, len(word) + 1)),
    ]
    asked = {w for q in queries for w in _WORD.findall(q.text)}
    cold = _band(df, 3, max(10, n // 200), 40, asked)
    return queries, cold


def search_figures(
    name: str, papers: Sequence[Paper], folder: Path, fingerprint: str, reps: int
) -> tuple[list[Figure], engines.Built]:
    """Figure 9: repeated queries (after a warm-up) and first-time words, beside FTS5.

    Returns PaperScope's engine too (still open) for the figures that follow."""
    ours = engines.paperscope(papers, folder / "whoosh", fingerprint, fresh=False)
    fts = engines.fts5(papers, folder / "fts5.sqlite3", fresh=False)
    queries, cold = real_queries(papers)
    found = latency.measure([ours, fts], queries, reps)
    cold_ours, cold_fts = [], []
    for i, word in enumerate(cold):  # each word once per engine, who goes first alternating
        pair = ((ours, cold_ours), (fts, cold_fts))
        for engine, samples in pair if i % 2 == 0 else pair[::-1]:
            started = time.perf_counter()
            engine.search(word, True)
            samples.append((time.perf_counter() - started) * 1000)
    fts.close()
    label = f"9. search, {name}"
    figures = [
        Figure(
            f"search_{name}",
            f"{label}: repeated queries",
            "ms",
            found[ours.name]["samples"],
            "SQLite FTS5",
            found[fts.name]["samples"],
            budget=30.0,
            note=f"{len(queries)} queries × {reps} after a warm-up; highlights as the TUI asks",
            extra={"queries": [q.text for q in queries]},
        ),
        Figure(
            f"search_{name}_cold",
            f"{label}: first-time words",
            "ms",
            cold_ours,
            "SQLite FTS5",
            cold_fts,
            budget=30.0,
            note=f"{len(cold)} words never asked before in this process, once each",
            extra={"words": cold},
        ),
    ]
    return figures, ours


def real_run(
    table: Path,
    titles: list[str],
    sizes: Sequence[int],
    *,
    runs: int,
    reps: int,
    skip: Sequence[str] = (),
) -> tuple[list[Figure], list[str]]:
    """Every real-text figure: the updated home (6,628 papers) and grown corpora of ``sizes``;
    returns the figures and notes (the grown vocabulary against the sample's)."""
    from tests.benchmarks import realtext, updated
    from tests.benchmarks.engines import CACHE
    from tests.benchmarks.report import text_table

    out: list[Figure] = []
    notes: list[str] = []

    def show(new: list[Figure]) -> None:
        out.extend(new)
        print(text_table(new), flush=True)

    if "realupdate" not in skip:
        show(update_figures(runs=2))
    home = updated.cached_home()
    papers, fingerprint = updated.papers_of(home)
    show(build_figures("updated home", papers, reps=3))
    cached = CACHE / updated.HOME_KEY
    found, ours = search_figures("updated home", papers, cached, fingerprint, reps)
    show(found)
    show(realvectors.figures("updated home", ours, papers))
    ours.close()
    if "realterminal" not in skip and available():
        show(terminal_figures(table, home, titles, runs))
    for size in sizes:
        corpus = realtext.grown(size)
        marks = sorted({1000, 6628, 9909, size} & set(range(1, size + 1)))
        for n, row in realtext.vocabulary_report(corpus, marks).items():
            real = row.get("sample_distinct")
            note = f"{corpus.name}: first {n:,} papers {row['distinct']:,} distinct words"
            note += f" (Heaps' law {row['heaps']:,}" + (f", real sample {real:,})" if real else ")")
            notes.append(note)
            print(note, flush=True)
        show(build_figures(corpus.name, corpus.papers, reps=1))
        cached = CACHE / corpus.key
        found, ours = search_figures(corpus.name, corpus.papers, cached, corpus.key, reps)
        show(found)
        show(realvectors.figures(corpus.name, ours, corpus.papers))
        ours.close()
    return out, notes


def terminal_figures(table: Path, home: Path, titles: list[str], runs: int) -> list[Figure]:
    """Figure 12: on the updated home, warm start and typing beside the floor; TUI memory."""
    spotter = TitleSpotter(titles)
    warm = startup.warm_starts(table, home, spotter, runs)
    app = startup.type_in_app(home, spotter, startup.WORDS, max(2, runs), most=8)
    words = {w: startup.WORDS[w] for w in app.samples}
    floor = startup.type_in_floor(table, home, spotter, words, max(2, runs))
    app_ms = [v for vs in app.samples.values() for v in vs]
    floor_ms = [v for vs in floor.samples.values() for v in vs]
    timeout_ms = startup.TYPING_TIMEOUT_S * 1000
    return [
        Figure(
            "warm_start_updated",
            "12a. warm start → titles, updated home",
            "s",
            with_misses(warm.app, startup.TIMEOUT_S),
            "floor app",
            with_misses(warm.floor, startup.TIMEOUT_S),
            budget=1.2,
            check="ratio",
        ),
        Figure(
            "typing_updated",
            "12b. word typed → its titles, updated home",
            "ms",
            with_misses(app_ms, timeout_ms),
            "floor echo",
            with_misses(floor_ms, timeout_ms),
            budget=150.0,
            note="; ".join(app.notes),
            extra={"by_word": app.samples},
        ),
        Figure(
            "rss_updated",
            "12c. peak RSS, updated home (TUI)",
            "MB",
            [app.peak_mb] if app.peak_mb else [],
            budget=250.0,
            note="VmHWM after start and the typing above",
        ),
    ]
