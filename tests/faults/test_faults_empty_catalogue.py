"""A catalogue of zero papers (issue 36.6): ``--no-bundled`` alone, or an empty ``--source``.

Whoosh's idf takes ``log(0)`` on an index of no documents (``ValueError: math domain
error``): every query now answers "0 of 0", and the command line says why it is empty.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from index_builder.search.engine import SearchIndex
from tests.helpers.faults import paperscope
from tests.helpers.faults_cli import run_forked
from tests.helpers.tui_fixtures import AppFactory
from tests.helpers.tui_helpers import ready, settle, type_query

QUERIES = ["diffusion", "diffusion models", '"score matching"', "diff*", "title:x OR y",
           "author:lee", "is:oral", "a NOT b", "like:64188", "for:you", "difusion~"]  # fmt: skip


@pytest.mark.parametrize("query", QUERIES)
def test_an_empty_index_answers_every_query_with_nothing(tmp_path: Path, query: str) -> None:
    index = SearchIndex(tmp_path / "index", (), "empty")
    index.ensure()
    try:
        result = index.search(query)
    finally:
        index.close()
    assert result.total == 0 and result.hits == ()


@pytest.mark.parametrize("empty_source", [False, True], ids=["no-bundled", "empty-source"])
def test_search_on_no_papers_says_so(tmp_path: Path, empty_source: bool) -> None:
    argv = ["--no-bundled"]
    if empty_source:
        (tmp_path / "empty.txt").write_text("")
        argv += ["--source", str(tmp_path / "empty.txt")]
    done = run_forked(tmp_path / "home", paperscope(*argv, "search", "diffusion"))
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert "0 of 0 papers for 'diffusion'" in done.stdout, done.stdout
    assert "the catalogue holds no papers" in done.stderr, done.stderr


async def test_the_tui_searches_no_papers(make_app: AppFactory) -> None:
    app = make_app(papers=())
    async with app.run_test(size=(120, 36)) as pilot:
        await ready(pilot)
        screen = await type_query(pilot, "diffusion")
        await settle(pilot)
        assert app.is_running and screen.view.paper is None
