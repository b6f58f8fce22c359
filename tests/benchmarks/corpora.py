"""The corpora the figures run on, each with its three engines ready.

The bundled data is read through the product's own catalogue; synthetic
corpora come from :mod:`tests.benchmarks.corpus` and their PaperScope and
FTS5 indexes are cached under ``.cache/<key>/``.
"""

from __future__ import annotations

import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from index_builder.model import Paper
from tests.benchmarks import engines
from tests.benchmarks.corpus import Corpus, generate
from tests.benchmarks.engines import CACHE, Built
from tests.benchmarks.peers import FTS5_VERSION


@dataclass
class Ready:
    """A corpus and its engines: PaperScope first, then FTS5 and the linear scan."""

    name: str
    papers: tuple[Paper, ...]
    engines: list[Built]
    corpus: Corpus | None = None
    scratch: Path | None = None
    """A temporary folder of uncached indexes, removed on close."""

    def close(self) -> None:
        """Release every engine (and remove the scratch folder)."""
        for engine in self.engines:
            engine.close()
        if self.scratch is not None:
            shutil.rmtree(self.scratch, ignore_errors=True)


def bundled(home: Path, *, fresh: bool = True) -> Ready:
    """The bundled catalogue and its index (built and timed) where the app looks in ``home``.

    The catalogue cache and the index land where ``PAPERSCOPE_HOME=home`` puts them,
    so the terminal figures can start the app on this home warm.
    """
    from index_builder.catalogue.load import load_catalogue
    from index_builder.paths import Paths, bundled_sources

    paths = Paths.from_env({"PAPERSCOPE_HOME": str(home)}).ensure()
    cat = load_catalogue(bundled_sources(), cache_dir=paths.cache_dir)
    papers = tuple(cat.papers)
    built = [
        engines.paperscope(papers, paths.index_dir, cat.fingerprint, fresh=fresh),
        engines.fts5(papers, home / "fts5.sqlite3", fresh=True),
        engines.linear(papers),
    ]
    return Ready("bundled", papers, _with_typed(built))


def synthetic(size: int, seed: int = 2026, *, cache: bool = True) -> Ready:
    """A synthetic corpus; its indexes reused from the cache when ``cache``."""
    corpus = generate(size, seed)
    root = CACHE / corpus.key if cache else Path(tempfile.mkdtemp(prefix="psbench-"))
    built = [
        engines.paperscope(corpus.papers, root / "whoosh", corpus.key, fresh=not cache),
        engines.fts5(corpus.papers, root / f"fts5-v{FTS5_VERSION}.sqlite3", fresh=not cache),
        engines.linear(corpus.papers),
    ]
    scratch = None if cache else root
    return Ready(f"synthetic {size:,}", corpus.papers, _with_typed(built), corpus, scratch)


def _with_typed(built: list[Built]) -> list[Built]:
    """The engines plus PaperScope queried the TUI's way, measured last."""
    typed = built[0].typed
    return [*built, typed] if typed is not None else built
