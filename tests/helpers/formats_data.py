"""Shared fixtures for the tests of the user's JSON, JSONL and BibTeX files."""

from __future__ import annotations

import os
import subprocess
import sys
from functools import lru_cache
from pathlib import Path

from index_builder.catalogue.load import Catalogue, load_catalogue
from index_builder.model import Paper
from index_builder.paths import HOME_ENV, bundled_sources
from tests.helpers.catalogue_data import FIXTURES

BIB = FIXTURES / "formats_pmlr.bib"
HOSTILE_BIB = FIXTURES / "formats_hostile.bib"
PAPERS_JSON = FIXTURES / "formats_papers.json"
SMALL_TABLE = FIXTURES / "catalogue_table_small.csv"


@lru_cache(maxsize=1)
def with_bib() -> Catalogue:
    """The bundled data plus the PMLR-like bib."""
    return load_catalogue([*bundled_sources(), BIB])


def write(tmp_path: Path, name: str, content: str | bytes) -> Path:
    """Write a test file and return its path."""
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return path


def paperscope(*args: str, home: Path) -> subprocess.CompletedProcess[str]:
    """Run the real command line in a subprocess with its own PAPERSCOPE_HOME."""
    env = {**os.environ, HOME_ENV: str(home)}
    run = [sys.executable, "-m", "tui", *args]
    return subprocess.run(run, capture_output=True, text=True, env=env, timeout=300, check=True)


def by_title(cat: Catalogue, prefix: str) -> list[Paper]:
    """The papers whose display title starts with ``prefix``."""
    return [p for p in cat if p.title.startswith(prefix)]
