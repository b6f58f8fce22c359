"""An update hands the catalogue the feed it stored, parsed: the same data the reader makes
of the stored bytes, so the next build reads no stored feed again and builds the catalogue
a build without any cache builds. Updates from a site on 127.0.0.1 and a local folder.

The builds beside the stored feed read the bundled lists of abstracts and the bundled
table's rows of the feed's papers (:func:`beside_the_feed`), not the whole table: what is
checked is how the stored feed reaches the catalogue (each of its records merged with its
table rows, the lists' abstracts joined as before), the same for 200 rows as for 6,628.
A build of the whole bundled data cost ~2 s of CPU, and these tests made three."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

import index_builder.sources.reading as reading
from index_builder import venues
from index_builder.catalogue.load import keep_parsed, load_catalogue
from index_builder.feeds.download import FeedError
from index_builder.feeds.store import stored_sources
from index_builder.feeds.update import update
from index_builder.paths import Paths, bundled_sources
from tests.helpers.catalogue_builds import files_read
from tests.helpers.cli_cut import bundled_cut
from tests.helpers.feed_data import ICML_ABSTRACTS, ICML_FEED, icml_abstracts, icml_feed
from tests.helpers.feed_server import Answer, serve

ICML = venues.DEFAULT
# What the reader makes safe before parsing (a bidi override, a C1 control, an escape
# sequence) and what it keeps (entities undone, accents).
ODD = "Caf\u00e9 \u202eevil\u202c \u009b31m &amp;amp; \x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\"


def site_files(count: int = 200) -> dict[str, Answer]:
    results = [dict(r) for r in icml_feed()["results"][:count]]
    results[3]["name"] = results[3]["name"] + " " + ODD
    ids = {str(r["id"]) for r in results}
    abstracts = {k: v for k, v in icml_abstracts().items() if k in ids}
    abstracts[str(results[5]["id"])] += " " + ODD
    feed = {"count": len(results), "next": None, "previous": None, "results": results}
    return {ICML_FEED: Answer(json.dumps(feed, ensure_ascii=False).encode()),
            ICML_ABSTRACTS: Answer(json.dumps(abstracts).encode())}  # fmt: skip


@pytest.fixture
def paths(tmp_path: Path) -> Paths:
    return Paths(tmp_path / "config", tmp_path / "data", tmp_path / "cache").ensure()


def beside_the_feed(folder: Path) -> list[Path]:
    """The bundled sources cut to the papers of :func:`site_files`'s feed: the bundled
    table's rows of those papers (every row of each, a poster's and its talk's, written to
    ``folder`` under the table's name) and the bundled lists of abstracts as they are."""
    one_per_paper = {r["name"]: str(r["id"]) for r in icml_feed()["results"][:200]}
    return [bundled_cut(folder, one_per_paper.values()), *bundled_sources()[1:]]


@pytest.mark.parametrize("where", ["site", "folder"])
def test_the_update_parses_the_stored_files_as_the_reader_does(
    paths: Paths, tmp_path: Path, where: str
) -> None:
    files = site_files()
    if where == "folder":  # no document comes from the download: the checks parse
        folder = tmp_path / "from"
        folder.mkdir()
        for name, answer in files.items():
            (folder / name).write_bytes(answer.body)
        change = update(ICML, paths, source=str(folder))
    else:
        with serve(files) as site:
            change = update(ICML, paths, source=site.url)
    stored = stored_sources(paths)
    assert [p.name for p in stored] == [ICML_ABSTRACTS, ICML_FEED]
    assert sorted(d.path for _, _, d in change.parsed) == stored
    for path, digest, parsed in change.parsed:
        data = path.read_bytes()
        assert digest == hashlib.sha256(data).digest()
        assert parsed == reading.read_source(path, data)
    titles = {r.paper.title_raw for _, _, d in change.parsed for r in d.rows}
    assert any(t.startswith(icml_feed()["results"][3]["name"] + " Café evil") for t in titles)


def test_the_next_build_reads_no_stored_feed_and_builds_the_same_catalogue(
    paths: Paths, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with serve(site_files()) as site:
        change = update(ICML, paths, source=site.url)
    keep_parsed(paths.cache_dir, change.parsed)
    sources = [*beside_the_feed(tmp_path / "cut"), *stored_sources(paths)]
    fresh = load_catalogue(sources)
    assert sum(p.venue == ICML.name and bool(p.abstract) for p in fresh) >= 190
    read = files_read(monkeypatch)
    built = load_catalogue(sources, cache_dir=paths.cache_dir)
    assert read and not {ICML_FEED, ICML_ABSTRACTS} & set(read)  # the bundled ones only
    assert built.papers == fresh.papers and built.problems == fresh.problems


def test_keeping_parsed_files_keeps_the_entries_of_files_that_exist(
    paths: Paths, tmp_path: Path
) -> None:
    """A build beside ``gone.txt`` keeps every source parsed; once that file is removed,
    the update keeps the entries of the files that exist and its own."""
    sources = beside_the_feed(tmp_path / "cut")
    gone = tmp_path / "gone.txt"
    gone.write_text("An abstract of a file removed since.\n", encoding="utf-8")
    load_catalogue([*sources, gone], cache_dir=paths.cache_dir)  # all kept parsed
    gone.unlink()
    with serve(site_files()) as site:
        change = update(ICML, paths, source=site.url)
    keep_parsed(paths.cache_dir, change.parsed)
    from index_builder.catalogue.load import CATALOGUE_VERSION
    from index_builder.catalogue.source_cache import SourceCache

    kept = SourceCache(paths.cache_dir / f"sources-v{CATALOGUE_VERSION}.pickle").entries
    names = sorted(Path(where).name for where, _ in kept)
    assert names == sorted([*(p.name for p in sources), ICML_ABSTRACTS, ICML_FEED])


def test_a_feed_the_catalogue_could_not_read_is_refused(paths: Paths) -> None:
    """The checks read the text the catalogue reads: an 8-bit OSC left open in a title
    takes its payload up to the next blank, the string's end with it. Stored, the feed
    would be a source the catalogue skips whole; it is refused, the stored set kept."""
    with serve(site_files()) as site:
        update(ICML, paths, source=site.url)
    before = {p.name: p.read_bytes() for p in stored_sources(paths)}
    results = [dict(r) for r in icml_feed()["results"][:200]]
    results[7]["name"] = "Open \x9dpayload"
    feed = {"count": len(results), "next": None, "previous": None, "results": results}
    body = json.dumps(feed, ensure_ascii=False, separators=(",", ":")).encode()
    with serve({**site_files(), ICML_FEED: Answer(body)}) as site, pytest.raises(FeedError):
        update(ICML, paths, source=site.url)
    assert {p.name: p.read_bytes() for p in stored_sources(paths)} == before
    with pytest.raises(reading.SourceError):
        reading.read_source(paths.data_dir / ICML_FEED, body)


def test_the_feed_is_checked_and_compared_with_the_collector_paused(
    paths: Paths, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The download's records and what the checks and the comparison make of them live
    until the update ends: the collector is paused meanwhile (not while downloading,
    which can take minutes while the app runs), and on again after, a refused feed
    included."""
    import gc

    from index_builder.feeds import changes, checks, pages
    from tests.helpers.recording import record_calls

    collecting = lambda *_, **__: gc.isenabled()  # noqa: E731
    checking = record_calls(monkeypatch, checks, "check_feed", collecting)
    comparing = record_calls(monkeypatch, changes, "papers", collecting)
    parsing = record_calls(monkeypatch, pages, "loads", collecting)
    downloading = record_calls(monkeypatch, pages, "fetch", collecting)
    gc.enable()
    with serve(site_files()) as site:
        update(ICML, paths, source=site.url)
    assert checking == [False] and comparing == [False]
    assert parsing and not any(parsing)
    assert downloading and all(downloading)
    assert gc.isenabled()
    refused = {**site_files(), ICML_FEED: Answer(b'{"results": 3}')}
    with serve(refused) as site, pytest.raises(FeedError):
        update(ICML, paths, source=site.url)
    assert gc.isenabled()
