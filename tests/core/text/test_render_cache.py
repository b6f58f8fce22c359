"""Render once: a catalogue rebuilt from changed sources renders only the texts it never saw.

Built on the analysis fixture (LaTeX and Markdown titles, abstracts, BibTeX and JSON
records) with a real cache folder: the second build of the same texts renders nothing,
gives the same papers, and a damaged cache file is ignored and written anew.
"""

from __future__ import annotations

import hashlib
import json
import pickle
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from index_builder.catalogue.load import load_catalogue
from index_builder.text import render, render_cache
from tests.core.test_analysis_versions import fixture_catalogue, sources
from tests.helpers.imports import modules_after
from tests.helpers.recording import record_calls


def _build(cache_dir: Path) -> list[object]:
    """A cold catalogue build (its own pickle removed) with the render cache in ``cache_dir``."""
    for old in cache_dir.glob("catalogue-*"):
        old.unlink()
    return list(load_catalogue(sources(), cache_dir=cache_dir).papers)


@pytest.fixture
def renders(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every text actually rendered (not served from the cache)."""
    return record_calls(monkeypatch, render, "_render")


def test_a_second_build_renders_nothing_and_changes_nothing(
    tmp_path: Path, renders: list[str]
) -> None:
    first = _build(tmp_path)
    assert len(renders) >= 100 and render_cache.cache_file(tmp_path).is_file()
    renders.clear()
    assert _build(tmp_path) == first
    assert renders == []
    assert list(fixture_catalogue().papers) == first  # no cache at all: the same papers


@pytest.mark.parametrize("garbage", [b"", b"junk", pickle.dumps({"a": 1}), b"\x80\x05K"])
def test_a_damaged_cache_is_ignored_and_rebuilt(
    tmp_path: Path, renders: list[str], garbage: bytes
) -> None:
    expected = list(fixture_catalogue().papers)  # built without a cache, once per process
    render_cache.cache_file(tmp_path).write_bytes(garbage)
    renders.clear()
    assert _build(tmp_path) == expected and renders
    renders.clear()
    assert _build(tmp_path) == expected and renders == []


def test_entries_no_paper_uses_are_dropped(tmp_path: Path) -> None:
    _build(tmp_path)
    everything = render_cache._load(render_cache.cache_file(tmp_path))
    assert everything
    some = [p for p in sources() if p.suffix != ".txt"]
    # Sources served already parsed keep their texts' entries: here every one is read.
    for parsed in tmp_path.glob("sources-*.pickle"):
        parsed.unlink()
    load_catalogue(some, cache_dir=tmp_path)
    kept = render_cache._load(render_cache.cache_file(tmp_path))
    assert kept and set(kept) < set(everything)


def test_the_cache_file_is_named_for_the_renderer_version(tmp_path: Path) -> None:
    assert render_cache.cache_file(tmp_path).name == f"render-v{render_cache.RENDER_VERSION}.pickle"


def test_a_math_span_is_rendered_once_per_build(monkeypatch: pytest.MonkeyPatch) -> None:
    """Abstracts repeat their spans: inside one block each is rendered once, and what the
    texts become is what they become without the block."""
    from index_builder.text import latex

    texts = [f"Paper {n}: for $k$ heads, $\\times {n}$ faster than $O(n^2)$." for n in range(3)]
    alone = [render.render(t) for t in texts]
    spans = record_calls(monkeypatch, latex, "latex_math")
    with render_cache.using(None):
        assert [render.render(t) for t in texts] == alone
    assert sorted(spans) == sorted(["k", "O(n^2)", "\\times 0", "\\times 1", "\\times 2"])
    with render_cache.using(None):  # a new block (a new build) renders them again
        render.render(texts[0])
    assert spans.count("k") == 2


def test_a_text_that_renders_as_written_is_its_raw_string(tmp_path: Path) -> None:
    """The paper holds one string for both (each cache pickles it once), from the cache
    or not; a text that markup changes keeps its rendering."""
    plain = "A plain abstract.\nOn two lines"
    joined = "A plain abstract. " + "On two lines"
    for _ in range(2):  # rendered, then served from the cache
        with render_cache.using(tmp_path):
            assert render.render(joined) is joined
            assert render.render(plain) == joined
            assert render.render("x -- y") == "x – y"
        # The file keeps no second copy of a text made into itself: its key alone.
        kept = render_cache._load(render_cache.cache_file(tmp_path))
        assert kept is not None and sorted(kept.values(), key=repr) == [joined, "x – y", b""]


def test_the_papers_share_what_the_feed_repeats() -> None:
    """A feed's sessions, times and institutions are one string per value, and the
    catalogue's pickle stores equal source lists once: it loads back equal."""
    from index_builder.catalogue.papers import Catalogue
    from index_builder.model import Paper
    from index_builder.sources.feed import parse_feed

    record = {"id": 1, "name": "T", "session": "S 1", "authors": [{"institution": "U"}]}
    text = json.dumps({"results": [record, {**record, "id": 2}]})
    feed = json.loads(text)  # each string its own object, as in a feed read from its file
    assert feed["results"][0]["session"] is not feed["results"][1]["session"]
    first, second = parse_feed(feed, "icml2026").rows
    assert first.paper.session is second.paper.session
    assert first.paper.institutions[0] is second.paper.institutions[0]
    papers = [Paper(str(n), "t", sources=tuple(["a.csv", "b.json"])) for n in range(3)]
    loaded = pickle.loads(pickle.dumps(Catalogue(papers, fingerprint="f")))
    assert loaded.papers == tuple(papers) and loaded.fingerprint == "f"
    assert loaded.papers[0].sources is loaded.papers[2].sources
    assert not pickle.loads(pickle.dumps(Catalogue([]))).papers


def test_pylatexenc_is_imported_for_the_first_span_it_renders_and_not_before() -> None:
    # A build whose texts all come from the render cache (a join by hand, a warm build)
    # renders nothing, so it must not pay pylatexenc's import (~40 ms with logging).
    plain = modules_after(
        "import index_builder.catalogue.load\n"
        "from index_builder.text.render import render\n"
        "assert render('Plain words -- a dash, ``quotes\\'\\' and 50\\\\% of it.') == "
        "'Plain words – a dash, “quotes” and 50% of it.'\n"
    )
    assert not [m for m in plain if m.startswith("pylatexenc")]
    plain_math = modules_after(
        "from index_builder.text.render import render\nassert render('$x^2$') == 'x²'\n"
    )
    assert not [m for m in plain_math if m.startswith("pylatexenc")]
    math = modules_after(
        "from index_builder.text.render import render\nassert render('$\\\\alpha^2$') == 'α²'\n"
    )
    assert "pylatexenc" in math


_TEXTS = st.lists(
    st.text(alphabet=st.sampled_from(["a", " ", "$", "x", "\\", "é", "\ud800", "[", "]", "("]))
    | st.sampled_from(["see https://github.com/a/b", "$x^2$ and *y*", "plain"]),
    min_size=1,
    max_size=6,
)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(_TEXTS)
def test_a_texts_digest_made_once_serves_each_kind_as_made_alone(
    tmp_path: Path, texts: list[str]
) -> None:
    """Inside a block a text is hashed once, its rendering, code links and join key
    sharing the digest; each is what it is without the cache, once made and once served
    (a text met again, or an equal text, finds its own entries), and the join's digest is
    the one its kept keys were stored under (BLAKE2b of the UTF-8, 16 bytes)."""
    alone = [(render.render(t), render.extract_code_urls(t)) for t in texts]
    for _ in range(2):  # made, then served from the file
        with render_cache.using(tmp_path):
            assert [(render.render(t), render.extract_code_urls(t)) for t in texts] == alone
            for text in [*texts, *(t + "" for t in texts)]:
                expected = hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16)
                assert render_cache.text_digest(text) == expected.digest()
        assert [(render.render(t), render.extract_code_urls(t)) for t in texts[::-1]] == alone[::-1]


def test_each_text_is_hashed_once_a_block(monkeypatch: pytest.MonkeyPatch) -> None:
    hashed = record_calls(monkeypatch, render_cache, "digest_of")
    texts = ["An abstract at https://github.com/a/b.", "A title"]
    with render_cache.using(None):
        for text in texts:
            render.render(text), render.extract_code_urls(text), render_cache.text_digest(text)
    assert sorted(hashed) == sorted(texts)
