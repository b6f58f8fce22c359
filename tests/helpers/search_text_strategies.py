"""Hypothesis's table of the characters UTF-8 encodes, made once per test run.

``st.text()`` draws from every character UTF-8 can encode; Hypothesis finds them by
encoding each of the 1,114,112 code points (about 1.9 s of CPU) and keeps the answer in
its storage folder (``.hypothesis/`` in the working folder). On a fresh clone that file
does not exist yet, and under xdist each worker's first ``st.text()`` made the table
again, at the same time. :func:`text_table_once` makes it in the first worker that asks,
under :func:`~tests.helpers.shared_builds.build_once`'s lock; the others wait, then read
Hypothesis's file (~0.2 s).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import strategies as st

from tests.helpers.shared_builds import build_once


def _made(folder: Path) -> None:
    st.text().validate()  # Hypothesis builds, or reads, its table here
    folder.mkdir()


def text_table_once(factory: pytest.TempPathFactory) -> None:
    """Make Hypothesis's UTF-8 table once for the run, then load it in this worker."""
    build_once(factory, "hypothesis-utf8-table", _made)
    st.text().validate()
