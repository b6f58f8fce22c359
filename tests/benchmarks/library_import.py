"""How long a large library export takes to read, and the memory it needs.

    .venv/bin/python -m tests.benchmarks.library_import [--mb 50]

Writes a Zotero-style BibTeX export (:mod:`tests.helpers.library_files`) of real arXiv
papers (titles, authors, abstracts of ``arxiv_sample.jsonl.gz``, repeated under new
arXiv ids until the file has ``--mb`` megabytes), then reads it in a fresh process with
:func:`~index_builder.readinglist.library_files.read_library` (blocks of about 1 MB) and,
for comparison, in one block; and imports it with ``paperscope library import``. Prints
seconds and peak memory (maximum resident set) of each. It reports; it asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from index_builder.paths import HOME_ENV
from tests.helpers.arxiv_papers import arxiv_papers
from tests.helpers.library_files import Item, bibtex

_CHILD = """
import resource, sys, time
from pathlib import Path
from index_builder.readinglist import library_files
if sys.argv[2] == "whole":
    library_files.BIB_BLOCK_CHARS = 1 << 40
started = time.perf_counter()
read = library_files.read_library(Path(sys.argv[1]))
spent = time.perf_counter() - started
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(len(read.entries), f"{spent:.2f}", f"{peak:.0f}", "; ".join(read.problems))
"""


def write_export(path: Path, megabytes: float) -> int:
    """A Zotero BibTeX export of at least ``megabytes`` MB; how many entries it holds."""
    papers = arxiv_papers().papers
    chunks: list[str] = []
    size = n = 0
    while size < megabytes * 1e6:
        paper = papers[n % len(papers)]
        names = tuple((a.split()[-1], " ".join(a.split()[:-1])) for a in paper.authors if a)
        item = Item(f"k{n}", f"{paper.title} ({n // len(papers)})" if n >= len(papers)
                    else paper.title, names, 2025, abstract=paper.abstract,
                    arxiv=f"{2000 + n // 90000}.{n % 90000:05d}")  # fmt: skip
        text = bibtex([item])
        chunks.append(text)
        size += len(text.encode())
        n += 1
    path.write_text("".join(chunks), encoding="utf-8")
    return n


def read_in_child(path: Path, how: str) -> str:
    """``entries seconds peak_MB problems`` of one read in a fresh interpreter."""
    done = subprocess.run([sys.executable, "-c", _CHILD, str(path), how], capture_output=True,
                          text=True, check=True)  # fmt: skip
    return done.stdout.strip()


def main(argv: list[str] | None = None) -> int:
    """Write the export, read it two ways, import it; print the figures."""
    parser = argparse.ArgumentParser(prog="python -m tests.benchmarks.library_import")
    parser.add_argument("--mb", type=float, default=50.0, help="size of the export (MB)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "My Library.bib"
        count = write_export(path, args.mb)
        print(f"export: {path.stat().st_size / 1e6:.1f} MB, {count:,} entries (Zotero BibTeX)")
        for how in ("blocks", "whole"):
            entries, spent, peak, *problems = read_in_child(path, how).split(" ", 3)
            said = f"; {problems[0]}" if problems and problems[0] else ""
            print(f"read_library ({how:6}): {int(entries):,} entries in {spent} s, "
                  f"peak {peak} MB{said}")  # fmt: skip
        env = {**os.environ, HOME_ENV: str(Path(tmp) / "home")}
        started = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "tui", "library", "import", str(path)],
                              env=env, capture_output=True, text=True, check=False)  # fmt: skip
        spent = time.perf_counter() - started
        said = done.stdout.strip().splitlines()[0] if done.stdout.strip() else done.stderr
        print(f"paperscope library import: exit {done.returncode} in {spent:.1f} s: {said}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
