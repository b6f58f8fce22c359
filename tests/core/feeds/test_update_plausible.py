"""What is not plausibly the venue's feed is refused, ``--force`` and ``--undo`` (issue 29.11),
an empty or absent abstracts file keeps what was stored (issue 27.4), and a duplicate id
is named (issue 29.17); ``paperscope update`` against 127.0.0.1, run in the test's process
(nothing here needs a process of its own).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.helpers.cli import run_cli
from tests.helpers.cli_cut import bundled_cut, cut_flags
from tests.helpers.feed_cli import one_line_error, pair, stored, update_here
from tests.helpers.feed_data import ICML_ABSTRACTS, ICML_FEED, good_files, icml_feed, small_feed
from tests.helpers.feed_server import Answer, serve


def _feed(results: list[Any], **top: Any) -> bytes:
    return json.dumps({"count": len(results), "next": None, "results": results, **top}).encode()


def _implausible(kind: str) -> dict[str, Answer]:
    feed, abstracts = small_feed()
    results = feed["results"]
    files = good_files()
    if kind in ("count-missing", "count-string", "count-float"):
        top = {"count-missing": {}, "count-string": {"count": "40"},
               "count-float": {"count": 40.0}}[kind]  # fmt: skip
        body = {k: v for k, v in json.loads(_feed(results)).items() if k != "count"}
        files[ICML_FEED] = Answer(json.dumps({**body, **top}).encode())
    elif kind == "one-record":
        files[ICML_FEED] = Answer(_feed(results[:1]))
        files[ICML_ABSTRACTS] = Answer(json.dumps({str(results[0]["id"]): "x"}).encode())
    elif kind == "abstracts-unmatched":
        files[ICML_ABSTRACTS] = Answer(b'{"999999999": "x"}')
    elif kind == "abstracts-not-text":
        files[ICML_ABSTRACTS] = Answer(json.dumps({k: [v] for k, v in abstracts.items()}).encode())
    return files


IMPLAUSIBLE = {
    "count-missing": 'no whole-number "count" (missing)',
    "count-string": 'no whole-number "count" ("40")',
    "count-float": 'no whole-number "count" (40.0)',
    "one-record": "holds 1 records where 40 are stored",
    "abstracts-unmatched": "only 0 of 1 of its ids name an event of the feed",
    "abstracts-not-text": "40 of 40 values are not text",
}


@pytest.mark.parametrize("kind", list(IMPLAUSIBLE))
def test_what_is_not_plausibly_the_feed_is_refused(tmp_path: Path, kind: str) -> None:
    with serve(good_files()) as site:
        assert update_here(tmp_path, "--from", site.url).returncode == 0
    before = stored(tmp_path)
    with serve(_implausible(kind)) as site:
        done = update_here(tmp_path, "--from", site.url)
    one_line_error(done, IMPLAUSIBLE[kind])
    assert stored(tmp_path) == before


def test_force_stores_a_small_feed_and_undo_puts_the_old_one_back(tmp_path: Path) -> None:
    """``doctor`` merges the stored feed with the bundled table's rows of the feed's papers
    (:mod:`tests.helpers.cli_cut`), not with the whole bundled catalogue (~1 s of CPU
    through the warm home's cache, which is not what is checked here)."""
    cut = bundled_cut(tmp_path / "cut", [str(r["id"]) for r in small_feed()[0]["results"]])
    with serve(good_files()) as site:
        assert update_here(tmp_path, "--from", site.url).returncode == 0
    good = pair(tmp_path)
    with serve(_implausible("one-record")) as site:
        forced = update_here(tmp_path, "--from", site.url, "--force")
    assert forced.returncode == 0, forced.stderr
    assert "1 papers" in forced.stdout and pair(tmp_path) != good
    small = pair(tmp_path)
    doctor = run_cli(*cut_flags(cut), "doctor", home=tmp_path)
    assert "is kept (paperscope update --undo)" in doctor.stdout, doctor.stdout
    undone = update_here(tmp_path, "--undo")
    assert undone.returncode == 0 and "is back in use (40 records)" in undone.stdout
    assert pair(tmp_path) == good
    redone = update_here(tmp_path, "--undo")
    assert redone.returncode == 0 and pair(tmp_path) == small


def test_undo_with_nothing_kept_is_one_line(tmp_path: Path) -> None:
    one_line_error(update_here(tmp_path, "--undo"), "no earlier feed is kept")


def test_a_feed_over_the_record_cap_is_refused(tmp_path: Path) -> None:
    results = [{"id": n, "name": f"Paper {n}"} for n in range(1, 100_002)]
    with serve({ICML_FEED: Answer(_feed(results)), ICML_ABSTRACTS: Answer(b"{}")}) as site:
        done = update_here(tmp_path, "--from", site.url)
    one_line_error(done, "100,001 records, more than the 100,000 a venue may have")
    assert stored(tmp_path) == {}


@pytest.mark.parametrize("kind", ["empty", "absent"])
def test_an_empty_or_absent_abstracts_file_keeps_the_stored_abstracts(
    tmp_path: Path, kind: str
) -> None:
    with serve(good_files()) as site:
        assert update_here(tmp_path, "--from", site.url).returncode == 0
    _, kept = pair(tmp_path)
    # The site's count changed between downloads (40, then 44 records): that is fine.
    files = {ICML_FEED: Answer(_feed(icml_feed()["results"][:44]))}
    if kind == "empty":
        files[ICML_ABSTRACTS] = Answer(b"{}")
    with serve(files) as site:
        done = update_here(tmp_path, "--from", site.url)
    assert done.returncode == 0, done.stderr
    why = "empty" if kind == "empty" else "not in the folder"
    assert f"{ICML_ABSTRACTS} is {why}: the 40 abstracts stored before are kept" in done.stdout
    feed, abstracts = pair(tmp_path)
    assert abstracts == kept and len(json.loads(feed or b"")["results"]) == 44


def test_with_no_abstracts_file_at_all_the_feed_is_stored_and_it_says_so(
    tmp_path: Path,
) -> None:
    with serve({ICML_FEED: good_files()[ICML_FEED]}) as site:
        done = update_here(tmp_path, "--from", site.url)
    assert done.returncode == 0, done.stderr
    assert "no abstracts until it is published" in done.stdout
    assert pair(tmp_path)[1] is None and pair(tmp_path)[0] is not None


def test_a_duplicate_id_is_named(tmp_path: Path) -> None:
    feed, _ = small_feed()
    twice = [*feed["results"], {**feed["results"][5], "name": "Another paper"}]
    files = {
        ICML_FEED: Answer(_feed(twice)),
        ICML_ABSTRACTS: good_files()[ICML_ABSTRACTS],
    }
    with serve(files) as site:
        done = update_here(tmp_path, "--from", site.url)
    assert done.returncode == 0, done.stderr
    first = feed["results"][5]["id"]
    assert f"1 record(s) repeat the id of an earlier one ({first})" in done.stdout
