"""Queries from hell: hypothesis fuzz, 30 nasty queries and a 3,000-character CLI query.

``SearchIndex.search`` must never raise and must answer in bounded time. Time is not
asserted (budgets belong to the benchmark); a 10 s watchdog per query only turns a hang
into a failure instead of a stuck suite. The slowest query seen is printed (``-s``).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from index_builder.catalogue.load import Catalogue
from index_builder.model import SearchResult
from index_builder.search.engine import SearchIndex
from tests.helpers.cli import run_cli

pytestmark = pytest.mark.usefixtures("text_table")

WATCHDOG_S = 10.0
SYNTAX = list("\"():*~^-+!?[]{}\\/&|<>=,;.'`")
FIELD_NAMES = ["title", "author", "abstract", "topic", "institution", "session", "is", "has",
               "day", "area", "inst", "nosuch", "TITLE", "Is"]  # fmt: skip
WORDS = ["NOT", "OR", "AND", "not", "or", "and", "massart", "noise", "diffusion", "transfor",
         "a", "the", "é", "Wang–Landau", "μP", "中文", "🙂", "oral", "spotlight", "abstract",
         "code", "bookmarked", "monday", "1", "007", "x" * 60]  # fmt: skip

slowest: dict[str, Any] = {"ms": 0.0, "query": ""}


@pytest.fixture(scope="module")
def index(bundled_index: SearchIndex) -> Iterator[SearchIndex]:
    """The bundled catalogue's index (shared by the whole run, read only)."""
    yield bundled_index
    print(f"\nslowest query: {slowest['ms']:.1f} ms for {slowest['query'][:120]!r}")


@pytest.fixture(scope="module")
def pool() -> Iterator[ThreadPoolExecutor]:
    """One worker thread so that a hanging query can be abandoned by the watchdog."""
    with ThreadPoolExecutor(max_workers=1) as executor:
        yield executor


def guarded(pool: ThreadPoolExecutor, index: SearchIndex, query: str, **kw: Any) -> SearchResult:
    """Search with the watchdog; remember the slowest query."""
    started = time.perf_counter()
    result = pool.submit(index.search, query, **kw).result(timeout=WATCHDOG_S)
    elapsed = (time.perf_counter() - started) * 1000
    if elapsed > slowest["ms"]:
        slowest.update(ms=elapsed, query=query)
    assert isinstance(result, SearchResult)
    assert result.total >= len(result.hits)
    for hit in result.hits:
        for start, end in (*hit.title_spans, *hit.abstract_spans):
            assert 0 <= start < end
        assert all(end <= len(hit.paper.title) for _s, end in hit.title_spans)
        assert all(end <= len(hit.paper.abstract) for _s, end in hit.abstract_spans)
    return result


token = st.one_of(
    st.sampled_from(WORDS),
    st.sampled_from(SYNTAX),
    st.builds(lambda f, s: f + s, st.sampled_from(FIELD_NAMES), st.sampled_from([":", ":(", ':"'])),
    st.text(min_size=1, max_size=8),
)
soup = st.lists(token, max_size=40).map(
    lambda parts: "".join(p + (" " if i % 3 else "") for i, p in enumerate(parts))
)
options = st.fixed_dictionaries(
    {
        "prefix": st.booleans(),
        "sort": st.sampled_from(["relevance", "title", "time"]),
        "facets": st.booleans(),
        "limit": st.sampled_from([0, 1, 20, 200]),
    }
)


@pytest.mark.slow
@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(query=st.one_of(soup, st.text(max_size=300)), kw=options)
def test_fuzzed_queries_never_raise(
    index: SearchIndex, pool: ThreadPoolExecutor, query: str, kw: dict[str, Any]
) -> None:
    guarded(pool, index, query, **kw)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(query=st.one_of(st.text(min_size=2000, max_size=5000), soup.map(lambda s: (s * 60)[:5000])))
def test_very_long_queries_never_raise(
    index: SearchIndex, pool: ThreadPoolExecutor, query: str
) -> None:
    guarded(pool, index, query, prefix=True)


NASTY = [
    '"((a OR NOT" field: *~ ]]',
    "",
    "   ",
    '"',
    '""',
    '"""',
    "(",
    ")",
    "((((((((((((((((((((((((((((((((massart",
    "massart))))))))))))))))))))))",
    "NOT",
    "NOT NOT NOT NOT",
    "OR OR OR",
    "AND",
    "a OR NOT b",
    "-massart",
    "NOT massart",
    "*",
    "**",
    "~",
    "massart~9",
    "noise^2",
    "title:",
    "title:(",
    'author:""',
    "is:",
    "is:nonsense has:nothing day:someday",
    "session:abc OR area:",
    "\x00\x1b[31m\x1b]52;c;aGFja2Vk\x07",
    "[bold red]x[/] [@click=app.quit]q[/]",
    "\u202eevil\u202c",
    "中文 🙂 é Wang–Landau μP",
    "a" * 5000,
    " OR ".join(["x"] * 600),
    " ".join(f"w{i}*" for i in range(600)),
    "(" * 2000 + ")" * 2000,
    "title:" * 500,
    "l*",
    "a* b* c* d* e* f* g* h*",
]


@pytest.mark.parametrize("query", NASTY, ids=range(len(NASTY)))
@pytest.mark.parametrize("prefix", [False, True], ids=["plain", "prefix"])
def test_nasty_queries_get_a_result(
    index: SearchIndex, pool: ThreadPoolExecutor, query: str, prefix: bool
) -> None:
    guarded(pool, index, query, prefix=prefix, facets=True)
    guarded(pool, index, query, prefix=prefix, sort="time", bookmarked={"66407", "nope"})


def test_massart_still_works_after_the_soup(index: SearchIndex, pool: ThreadPoolExecutor) -> None:
    for query in NASTY:
        guarded(pool, index, query)
    result = guarded(pool, index, "massart noise")
    assert sum("Massart" in h.paper.title for h in result.hits) == 2


def test_more_like_this_with_unknown_and_odd_ids(
    index: SearchIndex, pool: ThreadPoolExecutor
) -> None:
    for paper_id in ("", "nope", "\x1b]52;c;x\x07", "66407" * 1000, index.papers[0].id):
        hits = pool.submit(index.more_like_this, paper_id, 5).result(timeout=WATCHDOG_S)
        assert len(hits) <= 5


@pytest.mark.parametrize("as_json", [False, True], ids=["text", "json"])
def test_cli_answers_a_3000_character_query(warm_home: Path, as_json: bool) -> None:
    query = ('"((a OR NOT" title: *~ ]] massart noise~ ' * 80)[:3000]
    assert len(query) == 3000
    # In this process (run_cli: the real parsing, search and output): nothing here needs a
    # process of its own.
    done = run_cli("search", query, *(["--json"] if as_json else []), home=warm_home)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert done.stdout.strip()


@pytest.fixture(scope="module")
def searcher(index: SearchIndex, bundled_catalogue: Catalogue) -> Any:
    """The TUI's searcher over the bundled catalogue and index."""
    from tui.screens.main.searching import Searcher

    return Searcher(bundled_catalogue, index)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(query=soup, like=st.booleans(), sort=st.sampled_from(["relevance", "title", "time"]))
def test_the_tui_searcher_never_raises(
    searcher: Any, pool: ThreadPoolExecutor, query: str, like: bool, sort: str
) -> None:
    """What the TUI runs per keystroke, ``like:`` included."""
    text = f"like:{query}" if like else query
    result = pool.submit(searcher.run, text, sort=sort, facets=True).result(timeout=WATCHDOG_S)
    assert isinstance(result, SearchResult)
    assert pool.submit(searcher.simple_filter, query).result(timeout=WATCHDOG_S).total >= 0
