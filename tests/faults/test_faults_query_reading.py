"""Queries are answered as meant, or the reading is said plainly (bundled index).

A stray closing bracket is ignored; up to 128 terms are parsed (49 ORed topic words once
fell back to plain words and read ``OR`` as a word); a query that still cannot be parsed
says so on screen and in ``--json`` (``"fallback": true`` with the reason), through the
real CLI. How a query is read is asked of the shared bundled index directly: ``paperscope
search QUERY`` hands the query to ``SearchIndex.search(QUERY, limit=20)`` and prints what
it answers (its ``total`` and ``fallback`` are the ``--json`` output's).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tests.helpers.faults import paperscope
from tests.helpers.faults_cli import run_forked

if TYPE_CHECKING:
    from index_builder.search.engine import SearchIndex

TOPICS = ["diffusion", "transformer", "graph", "language", "vision", "robot", "kernel"]


def search(home: Path, query: str) -> dict[str, Any]:
    """``paperscope search --json QUERY`` on ``home``."""
    done = run_forked(home, paperscope("search", "--json", query))
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_a_stray_closing_bracket_is_ignored(bundled_index: SearchIndex) -> None:
    meant = bundled_index.search("diffusion OR transformer", limit=20)
    got = bundled_index.search("diffusion OR transformer)", limit=20)
    assert got.total == meant.total > 0 and got.fallback is False


def test_forty_nine_ored_words_are_still_an_or(bundled_index: SearchIndex) -> None:
    words = (TOPICS * 7)[:49]
    many = bundled_index.search(" OR ".join(words), limit=20)
    few = bundled_index.search(" OR ".join(TOPICS), limit=20)
    assert many.fallback is False
    assert many.total == few.total > 0  # the same words, repeated


def test_a_query_read_differently_says_so(warm_home: Path) -> None:
    query = " OR ".join(f"w{i}" for i in range(130))
    result = search(warm_home, query)
    assert result["fallback"] is True and result["fallback_reason"] == "too many terms"
    done = run_forked(warm_home, paperscope("search", query))
    assert "Read as plain words: too many terms" in done.stdout


DEEP = [
    "NOT " * 600 + "x",  # issue 29: a RecursionError traceback
    "a AND NOT (" * 200 + "x" + ")" * 200,
    "(NOT " * 300 + "x" + ")" * 300,
    "title:(" * 400 + "x" + ")" * 400,
]


def test_a_deep_query_is_read_as_plain_words_by_the_real_cli(
    warm_home: Path, bundled_index: SearchIndex
) -> None:
    """Each deep query is asked of the shared index, as ``search`` asks it; the first also
    through the real command line, in ``--json`` and on screen (each a forked child, as a
    query that overflowed the stack would end it)."""
    for query in DEEP:
        asked = bundled_index.search(query, limit=20)
        assert asked.fallback is True, query[:20]
        assert asked.fallback_reason == "nested too deep"
    result = search(warm_home, DEEP[0])
    assert result["fallback"] is True and result["fallback_reason"] == "nested too deep"
    done = run_forked(warm_home, paperscope("search", DEEP[0]))
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert "Read as plain words: nested too deep" in done.stdout


def test_nesting_within_the_limit_still_parses(bundled_index: SearchIndex) -> None:
    assert bundled_index.search("NOT " * 2 + "diffusion", limit=5).fallback is False
    assert bundled_index.search("NOT " * 3 + "diffusion", limit=5).fallback is False
    assert bundled_index.search("(" * 20 + "diffusion" + ")" * 20, limit=5).fallback is False
