"""Shared fixtures for the tests of the user's JSON, JSONL and BibTeX files."""

from __future__ import annotations

import subprocess
from pathlib import Path

from index_builder.catalogue.load import Catalogue
from index_builder.model import Paper
from tests.helpers.catalogue_data import FIXTURES
from tests.helpers.cli import run_cli

BIB = FIXTURES / "formats_pmlr.bib"
HOSTILE_BIB = FIXTURES / "formats_hostile.bib"
PAPERS_JSON = FIXTURES / "formats_papers.json"
SMALL_TABLE = FIXTURES / "catalogue_table_small.csv"


def write(tmp_path: Path, name: str, content: str | bytes) -> Path:
    """Write a test file and return its path."""
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return path


def paperscope(*args: str, home: Path) -> subprocess.CompletedProcess[str]:
    """Run the command line (in this process) with its own PAPERSCOPE_HOME; it must succeed."""
    done = run_cli(*args, home=home)
    assert done.returncode == 0, done.stderr
    return done


def by_title(cat: Catalogue, prefix: str) -> list[Paper]:
    """The papers whose display title starts with ``prefix``."""
    return [p for p in cat if p.title.startswith(prefix)]
