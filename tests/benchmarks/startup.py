"""Figures 1, 2, 5 and 6 in a real terminal: start-up, first run, typing, memory.

The floor (``floor_app.py``) and PaperScope are started the same way, in
the same terminal size, interleaved run by run, so that the ratio between
them holds even when the machine's speed drifts.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from tests.benchmarks.memory import peak_rss_mb
from tests.benchmarks.terminal import StatusSpotter, Terminal, TitleSpotter

Spotter = TitleSpotter | StatusSpotter

HERE = Path(__file__).resolve().parent
FLOOR = HERE / "floor_app.py"
TIMEOUT_S = 60.0
TYPING_TIMEOUT_S = 5.0
"""How long a typed word's titles may take; longer is a miss (counted as this)."""
READY = re.compile(r"index ready|search ready|(?<!not )\bready\b", re.IGNORECASE)
"""The status line's words once searching goes through the index."""
WORDS = {
    "massart": "Massart",
    "proeval": "ProEval",
    "watermark": "Watermark",
    "polyak": "Polyak",
    "koopman": "Koopman",
    "wasserstein": "Wasserstein",
    "langevin": "Langevin",
    "shapley": "Shapley",
    "lipschitz": "Lipschitz",
    "hamiltonian": "Hamiltonian",
}
"""A word to type and a title word that only its results show (case differs from the box)."""


def paperscope_cmd(*args: str) -> list[str]:
    """The installed ``paperscope`` command beside this Python, else ``python -m tui``."""
    script = Path(sys.executable).parent / "paperscope"
    return [str(script), *args] if script.exists() else [sys.executable, "-m", "tui", *args]


def floor_cmd(table: Path, *, lean: bool = False) -> list[str]:
    """The floor app on ``table`` (``lean``: stopping at the 60th poster, see floor_app.py)."""
    return [sys.executable, str(FLOOR), str(table), *(["--lean"] if lean else [])]


def term_env(home: Path) -> dict[str, str]:
    """The environment both programs get."""
    return {"PAPERSCOPE_HOME": str(home), "TERM": "xterm-256color"}


def prepare_home(home: Path, *args: str) -> float:
    """Build the index for ``home`` with ``paperscope index``; returns its seconds."""
    started = time.perf_counter()
    env = {**term_env(home), "PATH": "/usr/bin:/bin"}
    subprocess.run(
        paperscope_cmd(*args, "index"), env=env, check=True, capture_output=True, timeout=3600
    )
    return time.perf_counter() - started


def time_to_titles(
    cmd: list[str], home: Path, spotter: Spotter, timeout: float = TIMEOUT_S
) -> float | None:
    """Seconds from launch until three or more titles are on screen."""
    with Terminal(cmd, term_env(home)) as term:
        return term.wait(spotter.shows(), timeout)


@dataclass
class StartRuns:
    """Warm start samples of the floor, the lean floor and the app, seconds (None: timed out)."""

    floor: list[float | None] = field(default_factory=list)
    lean: list[float | None] = field(default_factory=list)
    app: list[float | None] = field(default_factory=list)


def warm_starts(table: Path, home: Path, spotter: Spotter, runs: int, *args: str) -> StartRuns:
    """``runs`` launches of each, interleaved, after one untimed launch of each."""
    out = StartRuns()
    programs = (
        (out.floor, floor_cmd(table)),
        (out.lean, floor_cmd(table, lean=True)),
        (out.app, paperscope_cmd(*args)),
    )
    for _, cmd in programs:
        time_to_titles(cmd, home, spotter)
    for _ in range(runs):
        for samples, cmd in programs:
            samples.append(time_to_titles(cmd, home, spotter))
    return out


@dataclass
class FirstRun:
    """One start on an empty home: to titles, and to search through the index."""

    titles: float | None
    ready: float | None
    screen: str = ""
    peak_mb: float | None = None
    child_peak_mb: float | None = None
    """The highest VmHWM seen of the app's child processes and theirs (the index build
    and its forked worker) meanwhile."""


def children(pid: int) -> list[int]:
    """The child processes of ``pid``, started by any of its threads."""
    found: list[int] = []
    try:
        tasks = list(Path(f"/proc/{pid}/task").iterdir())
    except OSError:
        return found
    for task in tasks:
        try:
            found += [int(c) for c in (task / "children").read_text().split()]
        except OSError:
            continue
    return found


def descendants(pid: int) -> list[int]:
    """The children of ``pid``, their children, and so on."""
    found, todo = [], children(pid)
    while todo:
        kid = todo.pop()
        found.append(kid)
        todo += children(kid)
    return found


def first_runs(spotter: Spotter, runs: int) -> list[FirstRun]:
    """Start on a new empty home each time; wait for titles, then for the index.

    While waiting, the peak memory of the app's children (the build runs in one) is read
    at every poll: a child's VmHWM cannot be read once it has ended.
    """
    out = []
    for _ in range(runs):
        home = Path(tempfile.mkdtemp(prefix="psbench-first-"))
        try:
            with Terminal(paperscope_cmd(), term_env(home)) as term:
                child_peak = [0.0]

                def ready_and_sample(
                    screen: str, term: Terminal = term, child_peak: list[float] = child_peak
                ) -> bool:
                    pid = term.program_pid()
                    for kid in descendants(pid) if pid else []:
                        child_peak[0] = max(child_peak[0], peak_rss_mb(kid) or 0.0)
                    return bool(READY.search(screen))

                titles = term.wait(spotter.shows(), TIMEOUT_S)
                ready = term.wait(ready_and_sample, 3 * TIMEOUT_S)
                pid = term.program_pid()
                peak = peak_rss_mb(pid) if pid else None
                kid = child_peak[0] or None
                out.append(FirstRun(titles, ready, term.screen(), peak, kid))
        finally:
            shutil.rmtree(home, ignore_errors=True)
    return out


QUIT_MOMENTS = (
    "ctrl+c 0.5 s after launch",
    "esc q 0.5 s after launch",
    "q once the titles show",
    "ctrl+c mid-build",
)


def quit_times(spotter: Spotter, runs: int) -> dict[str, list[float | None]]:
    """Seconds from the quitting key to the shell's turn (``__EXITED__``), on empty homes.

    Four moments of a first run: Ctrl+C 0.5 s after launch (still starting); ``Esc`` and
    ``q`` in one go 0.5 s after launch (they reach the app together, as Alt+q); ``Esc``,
    then ``q`` on its own, as soon as titles show (catalogue and build under way); Ctrl+C
    once the status line says the index is building.
    """
    out: dict[str, list[float | None]] = {m: [] for m in QUIT_MOMENTS}
    exited = _present("__EXITED__")
    early, together, shown, building = QUIT_MOMENTS
    keys = {early: ("C-c",), together: ("Escape", "q"), shown: ("q",), building: ("C-c",)}
    for _ in range(runs):
        for moment in QUIT_MOMENTS:
            home = Path(tempfile.mkdtemp(prefix="psbench-quit-"))
            try:
                with Terminal(paperscope_cmd(), term_env(home)) as term:
                    if moment in (early, together):
                        time.sleep(max(0.0, term.started + 0.5 - time.perf_counter()))
                    elif moment == shown:
                        term.wait(spotter.shows(), TIMEOUT_S)
                        term.send_key("Escape")
                        time.sleep(0.3)  # Esc on its own first, then q as a key of its own
                    else:
                        term.wait(_present("building index"), TIMEOUT_S)
                    sent = time.perf_counter()
                    term.send_key(*keys[moment])
                    out[moment].append(term.wait(exited, 10.0, since=sent))
            finally:
                shutil.rmtree(home, ignore_errors=True)
    return out


@dataclass
class Typing:
    """Typing samples (ms, None: timed out) per word, the program's peak memory, notes."""

    samples: dict[str, list[float | None]] = field(default_factory=dict)
    peak_mb: float | None = None
    notes: list[str] = field(default_factory=list)


def _present(text: str) -> Callable[[str], bool]:
    return lambda screen: text in screen


def _absent(text: str) -> Callable[[str], bool]:
    return lambda screen: text not in screen


def _type_words(
    term: Terminal,
    words: dict[str, str],
    rounds: int,
    focus: Callable[[], None],
    out: Typing,
    most: int,
) -> None:
    focus()
    start_screen = term.screen()
    for word, target in words.items():
        if len(out.samples) >= most:
            break
        if target in start_screen:
            out.notes.append(f"{word}: {target} already on the first screen, skipped")
            continue
        for _ in range(rounds):
            term.send_key("C-u")
            if term.wait(_absent(target), 10.0, since=time.perf_counter()) is None:
                out.notes.append(f"{word}: {target} did not go away after clearing")
            time.sleep(0.3)
            sent = term.send_text(word)
            seen = term.wait(_present(target), TYPING_TIMEOUT_S, since=sent)
            out.samples.setdefault(word, []).append(None if seen is None else seen * 1000)
    pid = term.program_pid()
    out.peak_mb = peak_rss_mb(pid) if pid else None


def type_in_app(
    home: Path,
    spotter: Spotter,
    words: dict[str, str],
    rounds: int,
    *args: str,
    most: int = 99,
) -> Typing:
    """Type each word into PaperScope's search box; time until its result title shows."""
    out = Typing()
    with Terminal(paperscope_cmd(*args), term_env(home)) as term:
        if term.wait(spotter.shows(), TIMEOUT_S) is None:
            out.notes.append("no titles on screen")
            return out
        rebuilt = term.wait(lambda s: "building index" in s or bool(READY.search(s)), TIMEOUT_S)
        if rebuilt is not None and "building index" in term.screen():
            out.notes.append(
                "the home was stale (product code changed?): the app rebuilt its index"
            )
        if term.wait(lambda s: bool(READY.search(s)), 3 * TIMEOUT_S) is None:
            out.notes.append("the status line never said the index was ready")

        def focus() -> None:
            term.send_key("Escape")
            time.sleep(0.3)
            term.send_key("/")
            time.sleep(0.3)

        _type_words(term, words, rounds, focus, out, most)
    return out


def type_in_floor(
    table: Path, home: Path, spotter: Spotter, words: dict[str, str], rounds: int
) -> Typing:
    """The anchor: the same words typed into the floor's search box, timed to their echo."""
    out = Typing()
    echoes = {w: w for w in words}
    with Terminal(floor_cmd(table), term_env(home)) as term:
        if term.wait(spotter.shows(), TIMEOUT_S) is None:
            out.notes.append("no titles on screen")
            return out
        _type_words(term, echoes, rounds, lambda: time.sleep(0.3), out, len(echoes))
    return out
