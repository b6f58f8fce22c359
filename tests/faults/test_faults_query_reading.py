"""Queries are answered as meant, or the reading is said plainly (real CLI, bundled index).

A stray closing bracket is ignored; up to 128 terms are parsed (49 ORed topic words once
fell back to plain words and read ``OR`` as a word); a query that still cannot be parsed
says so on screen and in ``--json`` (``"fallback": true`` with the reason).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.helpers.faults import paperscope, run

TOPICS = ["diffusion", "transformer", "graph", "language", "vision", "robot", "kernel"]


def search(home: Path, query: str) -> dict[str, Any]:
    """``paperscope search --json QUERY`` on ``home``."""
    done = run(home, paperscope("search", "--json", query))
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_a_stray_closing_bracket_is_ignored(warm_home: Path) -> None:
    meant = search(warm_home, "diffusion OR transformer")
    got = search(warm_home, "diffusion OR transformer)")
    assert got["total"] == meant["total"] > 0 and got["fallback"] is False


def test_forty_nine_ored_words_are_still_an_or(warm_home: Path) -> None:
    words = (TOPICS * 7)[:49]
    many = search(warm_home, " OR ".join(words))
    few = search(warm_home, " OR ".join(TOPICS))
    assert many["fallback"] is False
    assert many["total"] == few["total"] > 0  # the same words, repeated


def test_a_query_read_differently_says_so(warm_home: Path) -> None:
    query = " OR ".join(f"w{i}" for i in range(130))
    result = search(warm_home, query)
    assert result["fallback"] is True and result["fallback_reason"] == "too many terms"
    done = run(warm_home, paperscope("search", query))
    assert "Read as plain words: too many terms" in done.stdout
