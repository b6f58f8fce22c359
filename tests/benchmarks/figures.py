"""Each numbered figure of the benchmark, as :class:`Figure` records."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

from tests.benchmarks import corpora, latency, startup
from tests.benchmarks.stats import Figure, percentile
from tests.benchmarks.terminal import TitleSpotter

FLOOR_PEAK: list[float] = []
FLOOR_START: list[float] = []


def ok(values: list[float | None]) -> list[float]:
    """The samples that did not time out."""
    return [v for v in values if v is not None]


def timeouts(values: list[float | None]) -> str:
    """A note saying how many samples timed out, or empty."""
    missed = sum(v is None for v in values)
    return f"{missed} of {len(values)} timed out (counted as the timeout)" if missed else ""


def with_misses(values: list[float | None], timeout: float) -> list[float]:
    """Every sample, a timed-out one counted as the timeout itself: a miss weighs in the
    median and p95, never dropped."""
    return [timeout if v is None else v for v in values]


def terminal_figures(
    table: Path, titles: list[str], home: Path | None, runs: int, *, quick: bool
) -> list[Figure]:
    """Figures 1, 2, 5 and 6 (bundled) in tmux, warm starts on ``home`` (prepared if None,
    in a temporary folder removed afterwards)."""
    if home is not None:
        return _terminal_figures(table, titles, home, runs, quick=quick)
    made = Path(tempfile.mkdtemp(prefix="psbench-warm-"))
    try:
        try:
            startup.prepare_home(made)
        except (subprocess.CalledProcessError, subprocess.TimeoutExpired, OSError) as exc:
            note = f"paperscope index failed: {exc}"
            return [Figure("warm_start", "1. warm start → titles", "s", note=note)]
        return _terminal_figures(table, titles, made, runs, quick=quick)
    finally:
        shutil.rmtree(made, ignore_errors=True)


def _terminal_figures(
    table: Path, titles: list[str], home: Path, runs: int, *, quick: bool
) -> list[Figure]:
    spotter = TitleSpotter(titles)
    marker = _marker(home)
    warm = startup.warm_starts(table, home, spotter, runs)
    floor = ok(warm.floor)
    FLOOR_START[:] = floor
    out = [
        Figure(
            "warm_start",
            "1. warm start → titles",
            "s",
            with_misses(warm.app, startup.TIMEOUT_S),
            "floor app",
            floor,
            budget=1.2,
            check="ratio",
            note=timeouts(warm.app),
        ),
        Figure(
            "warm_start_lean",
            "1′. warm start → titles, ÷ lean floor",
            "s",
            ok(warm.app),
            "lean floor",
            ok(warm.lean),
            check="ratio",
            note="the floor stopping at its 60th title (stricter; no budget)",
        ),
    ]
    first = startup.first_runs(spotter, 1 if quick else runs)
    out.append(
        Figure(
            "first_titles",
            "2a. first run → titles",
            "s",
            ok([r.titles for r in first]),
            "floor app",
            floor,
            budget=1.5,
            check="ratio",
            note=timeouts([r.titles for r in first]),
        )
    )
    ready = [r.ready for r in first]
    note = timeouts(ready)
    if None in ready:
        note += "; last screen: " + " | ".join(first[-1].screen.splitlines()[-3:])
    out.append(
        Figure(
            "first_ready", "2b. first run → search ready", "s", ok(ready), budget=10.0, note=note
        )
    )
    quits = startup.quit_times(spotter, 1 if quick else 2)
    every = [v for vs in quits.values() for v in vs]
    out.append(
        Figure(
            "quit",
            "2c. quit → shell, first run",
            "s",
            ok(every),
            budget=0.5,
            note="; ".join(f"{m}: {_seconds(vs)}" for m, vs in quits.items()),
            extra={"by_moment": quits},
        )
    )
    rounds = 1 if quick else 2
    app = startup.type_in_app(home, spotter, startup.WORDS, rounds, most=3 if quick else 8)
    words = {w: startup.WORDS[w] for w in app.samples}
    floor_typing = startup.type_in_floor(table, home, spotter, words, rounds)
    app_ms = [v for vs in app.samples.values() for v in vs]
    floor_ms = [v for vs in floor_typing.samples.values() for v in vs]
    out.append(
        Figure(
            "typing",
            "5. word typed → its titles",
            "ms",
            with_misses(app_ms, startup.TYPING_TIMEOUT_S * 1000),
            "floor echo",
            with_misses(floor_ms, startup.TYPING_TIMEOUT_S * 1000),
            budget=150.0,
            note="; ".join([timeouts(app_ms), *app.notes]).strip("; "),
            extra={"by_word": app.samples, "floor_by_word": floor_typing.samples},
        )
    )
    FLOOR_PEAK[:] = [floor_typing.peak_mb] if floor_typing.peak_mb else []
    if _marker(home) != marker:
        out[0].note = "the app rebuilt the warm home's index during these runs (stale home)"
    out.append(
        Figure(
            "rss_bundled",
            "6. peak RSS, bundled (TUI)",
            "MB",
            [app.peak_mb] if app.peak_mb else [],
            "floor app",
            list(FLOOR_PEAK),
            budget=200.0,
            note="VmHWM after start and the typing above",
        )
    )
    peaks = [r.peak_mb for r in first if r.peak_mb]
    kids = [r.child_peak_mb for r in first if r.child_peak_mb]
    out.append(
        Figure(
            "rss_first_run",
            "6b. peak RSS, first run (TUI builds)",
            "MB",
            peaks,
            "floor app",
            list(FLOOR_PEAK),
            budget=200.0,
            note="the app's VmHWM once the index is ready (the build runs in a child: 6b′)",
        )
    )
    out.append(
        Figure(
            "rss_first_run_child",
            "6b′. peak RSS, first run's build processes",
            "MB",
            kids,
            "floor app",
            list(FLOOR_PEAK),
            budget=200.0,
            note="highest VmHWM of the app's child processes and theirs (the build and its"
            " worker; a forked worker shares its parent's pages), read at every 10 ms poll",
        )
    )
    return out


def _seconds(values: list[float | None]) -> str:
    """Samples as ``0.12, –`` (– for a timeout)."""
    return ", ".join("–" if v is None else f"{v:.2f}" for v in values)


def _marker(home: Path) -> object:
    """The warm home's index marker (changes when the app rebuilds the index)."""
    from index_builder.paths import Paths
    from index_builder.search.folder import read_marker

    return read_marker(Paths.from_env({"PAPERSCOPE_HOME": str(home)}).index_dir)


def build_figure(work: Path, reps: int) -> tuple[corpora.Ready, Path, list[Figure]]:
    """Figure 3: fresh builds of the bundled index through the API; FTS5 as the anchor.

    Returns the last build's engines and its home (a warm home for the app).
    """
    builds: list[float] = []
    anchors: list[float] = []
    ready: corpora.Ready | None = None
    for rep in range(reps):
        if ready is not None:
            ready.close()
        home = work / f"home-{rep}"
        ready = corpora.bundled(home)
        builds.append(ready.engines[0].build_s)
        anchors.append(ready.engines[1].build_s)
    assert ready is not None
    n = len(ready.papers)
    size = ready.engines[0].size_bytes
    figure = Figure(
        "build_bundled",
        f"3. index build, bundled ({n:,} papers)",
        "s",
        builds,
        "SQLite FTS5",
        anchors,
        budget=3.0,
        check="median",
        note=f"{n / min(builds):,.0f} papers/s, {size / 1e6:.1f} MB on disk "
        f"(FTS5 {ready.engines[1].size_bytes / 1e6:.1f} MB)",
        extra={"papers": n, "size_bytes": size, "fts5_size_bytes": ready.engines[1].size_bytes},
    )
    ratio = Figure(
        "build_bundled_ratio",
        "3b. index build, bundled, ÷ FTS5",
        "s",
        builds,
        "SQLite FTS5",
        anchors,
        budget=15.0,
        check="ratio",
    )
    return ready, home, [figure, ratio]


def synthetic_ready(size: int) -> corpora.Ready:
    """A synthetic corpus of ``size`` papers; indexes cached above 1,000 papers."""
    return corpora.synthetic(size, cache=size > 1000)


def search_figures(ready: corpora.Ready, reps: int, budget: float | None) -> list[Figure]:
    """Figure 4 on one corpus: PaperScope (anchored to FTS5), then each peer."""
    queries = (
        latency.bundled_queries()
        if ready.corpus is None
        else latency.synthetic_queries(ready.corpus)
    )
    measured = latency.measure(ready.engines, queries, reps)
    ps, fts, lin = (measured[e.name] for e in ready.engines[:3])
    by_query = {
        q.text: {
            name: round(percentile(m["by_query"][q.text], 50), 2) for name, m in measured.items()
        }
        for q in queries
    }
    totals = {q.text: [m["totals"][q.text] for m in measured.values()] for q in queries}
    label = f"4. search, {ready.name}"
    return [
        Figure(
            f"search_{ready.name}",
            f"{label}: PaperScope",
            "ms",
            ps["samples"],
            "SQLite FTS5",
            fts["samples"],
            budget=budget,
            note=f"{len(queries)} queries × {reps}, limit 200, highlights included",
            extra={"by_query_median_ms": by_query, "totals": totals},
        ),
        Figure(f"search_{ready.name}_fts5", f"{label}: SQLite FTS5", "ms", fts["samples"]),
        Figure(
            f"search_{ready.name}_linear",
            f"{label}: linear scan",
            "ms",
            lin["samples"],
            "SQLite FTS5",
            fts["samples"],
        ),
        *(
            Figure(
                f"search_{ready.name}_typed",
                f"{label}: PaperScope, prefix on",
                "ms",
                measured[e.name]["samples"],
                "SQLite FTS5",
                fts["samples"],
                note="every query with prefix=True, as the TUI sends it",
            )
            for e in ready.engines[3:]
        ),
    ]
