"""Lines cut where a reader expects: For you's words at a word with no dangling comma, and a
paper's links never broken inside the address (issue 36, item 18)."""

from __future__ import annotations

import itertools

import pytest
from textual.app import App, ComposeResult

from index_builder.model import Hit, Paper
from tests.helpers.tui_helpers import rendered_text
from tui.widgets.did_you_mean import DidYouMean
from tui.widgets.one_line import fit_words, shorten_middle
from tui.widgets.paper_view import PaperView

WORDS = "For you, by your bookmarks: " + ", ".join(
    ["reasoning", "language", "agents", "tokens", "planning", "lijie", "context", "retrieval"]
)
LINKED = Paper(
    id="64393",
    title="TVI-CoT: Text-Visual Interleaved Chain-of-Thought Reasoning",
    authors=("Lianyu Hu",),
    openreview_url="https://openreview.net/forum?id=goPaAYr1J3",
    url="https://icml.cc/virtual/2026/poster/64393",
    code_urls=("https://github.com/some-long-organisation-name/a-rather-long-repository-name",),
)


@pytest.mark.parametrize("width", range(8, len(WORDS) + 2))
def test_fit_words_cuts_at_a_word_with_no_dangling_comma(width: int) -> None:
    line = fit_words(WORDS, width)
    assert len(line) <= width
    if line != WORDS:
        assert line.endswith("…") and line[-2] not in ", :"
        assert WORDS.startswith(line[:-1])
        assert WORDS[len(line) - 1] in " ,:", line  # the cut is at the end of a word


def test_shorten_middle_keeps_both_ends() -> None:
    url = LINKED.openreview_url
    assert shorten_middle(url, 100) == url
    short = shorten_middle(url, 21)
    assert len(short) == 21 and short.startswith("https://op") and short.endswith("PaAYr1J3")


def shortened(line: str, url: str) -> bool:
    """``line`` is ``url`` with its middle cut out (``…``)."""
    head, mark, tail = line.partition("…")
    return bool(mark and len(head) > 8 and url.startswith(head) and url.endswith(tail))


class Host(App[None]):
    def compose(self) -> ComposeResult:
        yield DidYouMean(id="dym")
        yield PaperView(id="view")


@pytest.mark.parametrize("width", [120, 80, 70, 50, 34])
async def test_links_are_never_broken_inside_the_address(width: int) -> None:
    app = Host()
    async with app.run_test(size=(width, 40)) as pilot:
        view = app.query_one(PaperView)
        view.show(Hit(LINKED))
        await pilot.pause()
        lines = rendered_text(view.query_one("#paper-body")).splitlines()
        for url in (LINKED.openreview_url, LINKED.url, *LINKED.code_urls):
            whole = [line for line in lines if url in line]
            # or shortened in the middle, on a line of its own: both ends of it are kept
            cut = [line for line in lines if shortened(line.strip(), url)]
            assert whole or cut, (url, lines)
            # no line ends with a piece of the address that the next line goes on with
            for first, second in itertools.pairwise(lines):
                joined = first.rstrip() + second.strip()
                assert url not in joined or url in first or url in second or "…" in joined


@pytest.mark.parametrize("width", [120, 80, 70])
async def test_the_explanation_line_ends_at_a_word(width: int) -> None:
    app = Host()
    async with app.run_test(size=(width, 24)) as pilot:
        line = app.query_one(DidYouMean)
        line.say(WORDS)
        await pilot.pause()
        shown = rendered_text(line).strip()
        assert shown == WORDS or (shown.endswith("…") and shown[-2] not in ", :"), shown
        await pilot.resize_terminal(width - 30, 24)
        await pilot.pause()
        narrower = rendered_text(line).strip()
        assert narrower.endswith("…") and narrower[-2] not in ", :", narrower
