"""The paper view: everything about the paper under the cursor, then similar papers.

Title, authors, institutions, oral/spotlight, topic, every presentation (poster session
and talk, in the chosen zone: the venue's by default, with board and room), links
(OpenReview, virtual site, code; clickable, http/https only; an address is never broken
across lines: :class:`~tui.widgets.one_line.LinkLine`), the abstract with the
query's words highlighted, and the paper's similar papers, which the view looks up
itself: once it is handed a source (:meth:`PaperView.similar_from`, when the index is
ready) and the cursor rests on a paper, a thread worker asks the source and posts
:class:`PaperView.SimilarLoaded`. Data text is only ever put into ``Text`` objects.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Collection, Sequence
from typing import ClassVar

from rich.console import Group
from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.message import Message
from textual.widgets import Label, OptionList, Static
from textual.widgets.option_list import Option
from textual.worker import get_current_worker

from index_builder.model import Hit, Paper
from index_builder.text.links import openreview_pdf
from index_builder.times import DEFAULT_SETTING
from index_builder.venues import DEFAULT as DEFAULT_VENUE
from tui.widgets.one_line import LinkLine
from tui.widgets.paper_text import (
    badges,
    clean,
    highlighted,
    session_rows,
    short_authors,
    title_text,
)
from tui.widgets.workers import ReportsFailures

SIMILAR_DELAY_S = 0.12
"""Similar papers are looked up once the cursor rests this long (holding j stays light)."""

SIMILAR_COUNT = 8
"""How many similar papers the view lists."""

Similar = Callable[[str, int], Sequence[Hit]]
"""``(paper id, count)`` -> the papers most similar to it. Called off the event loop."""

ABSTRACT_LIMIT = 20_000
"""Characters of an abstract shown; wrapping a megabyte of text would freeze the screen."""


def is_web_link(url: str) -> bool:
    """True for an ``http://`` or ``https://`` address (the only kind PaperScope opens)."""
    lowered = url.strip().lower()
    return lowered.startswith(("http://", "https://")) and not any(c.isspace() for c in url)


def paper_links(paper: Paper) -> list[tuple[str, str]]:
    """(label, url) for the paper's web links: OpenReview, its PDF, virtual site, then code."""
    pdf = openreview_pdf(paper.openreview_url) if paper.openreview_url else None
    found = [("OpenReview", paper.openreview_url), ("PDF", pdf or ""), ("Virtual site", paper.url)]
    found += [("Code", url) for url in paper.code_urls]
    return [(label, url) for label, url in found if url and is_web_link(url)]


class PaperBody(Static):
    """The text of the view; a click on a link asks for it to be opened."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("", id=id)
        self.links: list[tuple[str, str]] = []

    def action_open_link(self, index: int) -> None:
        """Ask for link number ``index`` of the current paper to be opened."""
        if 0 <= index < len(self.links):
            label, url = self.links[index]
            self.post_message(PaperView.LinkChosen(label, url))


class PaperView(ReportsFailures, VerticalScroll, can_focus=True):
    """Shows one paper; ``show()`` replaces it, and the view looks up its similar papers.

    The scrollbar's column is kept (``scrollbar-gutter: stable``): a paper that fits
    comes first, its similar papers then often make the view scroll, and a bar taking its
    column then would wrap the paper's text again, at each move of the cursor (two more
    layouts of the screen; a fifth of a move's CPU).
    """

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "paper-view--match",
        "paper-view--oral",
        "paper-view--spotlight",
        "paper-view--abstract",
        "paper-view--bookmark",
        "paper-view--library",
        "paper-view--label",
        "paper-view--link",
    }

    DEFAULT_CSS = """
    PaperView { padding: 0 1; scrollbar-size-vertical: 1; scrollbar-gutter: stable; }
    PaperView > .paper-view--match { color: $text-warning; text-style: bold underline; }
    PaperView > .paper-view--oral { color: $text-error; text-style: bold; }
    PaperView > .paper-view--spotlight { color: $text-accent; text-style: bold; }
    PaperView > .paper-view--abstract { color: $text-success; }
    PaperView > .paper-view--bookmark { color: $text-warning; }
    PaperView > .paper-view--library { color: $text-success; }
    PaperView > .paper-view--label { color: $text-primary; text-style: bold; }
    PaperView > .paper-view--link { color: $text-accent; text-style: underline; }
    PaperView #similar-title { margin-top: 1; text-style: bold; color: $text-primary; }
    PaperView #similar { height: auto; border: none; padding: 0; background: $surface; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "j",
            "scroll_down",
            "Scroll down",
            show=False,
            tooltip="Scroll the paper down",
            id="view_down",
        ),
        Binding(
            "k", "scroll_up", "Scroll up", show=False, tooltip="Scroll the paper up", id="view_up"
        ),
    ]

    class LinkChosen(Message):
        """The user clicked link ``url`` (labelled ``label``)."""

        def __init__(self, label: str, url: str) -> None:
            super().__init__()
            self.label = label
            self.url = url

    class OpenPaper(Message):
        """A similar paper was chosen."""

        def __init__(self, paper: Paper) -> None:
            super().__init__()
            self.paper = paper

    class SimilarLoaded(Message):
        """The similar papers of paper ``paper_id`` were looked up (listed if still shown)."""

        def __init__(self, paper_id: str, hits: tuple[Hit, ...]) -> None:
            super().__init__()
            self.paper_id = paper_id
            self.hits = hits

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.hit: Hit | None = None
        self.bookmarked = False
        self.dismissed = False
        """The paper shown was dismissed from For you (``x``)."""
        self.owned: Collection[str] = frozenset()
        """Ids of the papers your library holds (the ``LIB`` badge)."""
        self.abstracts_pending = False
        """True on a first run while the abstracts are still being joined."""
        self._similar: tuple[Hit, ...] = ()
        self._similar_source: Similar | None = None
        self.zone_setting = DEFAULT_SETTING
        """``venue``, ``local`` or an IANA zone: where session times are shown."""

    def set_zone(self, setting: str) -> None:
        """Show session times in the zone ``setting`` picks from now on (redraws)."""
        if setting != self.zone_setting:
            self.zone_setting = setting
            if self.hit is not None:
                self.show(self.hit, bookmarked=self.bookmarked, dismissed=self.dismissed)

    def compose(self) -> ComposeResult:
        yield PaperBody(id="paper-body")

    @property
    def paper(self) -> Paper | None:
        """The paper shown, if any."""
        return self.hit.paper if self.hit is not None else None

    def show(self, hit: Hit | None, *, bookmarked: bool = False, dismissed: bool = False) -> None:
        """Show ``hit`` (or an empty view); similar papers are cleared until set again."""
        same = self.hit is not None and hit is not None and self.hit.paper.id == hit.paper.id
        self.hit = hit
        self.bookmarked = bookmarked
        self.dismissed = dismissed
        body = self.query_one(PaperBody)
        if hit is None:
            body.links = []
            body.update(Text("No paper selected.", style="italic"))
        else:
            body.links = paper_links(hit.paper)
            body.update(self._describe(hit, body.links))
        if not same:
            self.set_similar(None, ())
            self.scroll_home(animate=False)
            self._find_similar()

    def similar_from(self, source: Similar | None) -> None:
        """Look up similar papers with ``source`` from now on (None: none), starting with
        the paper shown."""
        self._similar_source = source
        self._find_similar()

    def _find_similar(self) -> None:
        """Look up the similar papers of the paper shown once the screen is drawn: the
        list and the view come first."""
        if self._similar_source is not None:
            self.call_after_refresh(self._start_similar)

    def _start_similar(self) -> None:
        """The worker for the paper shown now; an exclusive one, so a request for a paper
        the cursor has left is cancelled (and its answer, if any, dropped)."""
        paper, source = self.paper, self._similar_source
        if paper is None or source is None:
            return
        paper_id = paper.id

        def look_up() -> None:
            worker = get_current_worker()
            time.sleep(SIMILAR_DELAY_S)  # a cursor held down passes papers by unlooked-up
            if worker.is_cancelled:
                return
            hits = tuple(source(paper_id, SIMILAR_COUNT))
            if not worker.is_cancelled:
                self.post_message(self.SimilarLoaded(paper_id, hits))

        self.run_worker(look_up, thread=True, exclusive=True, group="similar", exit_on_error=False)

    def on_paper_view_similar_loaded(self, message: SimilarLoaded) -> None:
        """List the similar papers looked up, if their paper is still the one shown."""
        self.set_similar(message.paper_id, message.hits)

    def set_marks(self, bookmarked: bool, dismissed: bool = False) -> None:
        """Redraw the bookmark badge and the dismissed mark."""
        if self.hit is not None and (bookmarked, dismissed) != (self.bookmarked, self.dismissed):
            self.show(self.hit, bookmarked=bookmarked, dismissed=dismissed)

    def set_owned(self, ids: Collection[str]) -> None:
        """Which paper ids your library holds; the paper shown is redrawn if it changed."""
        paper = self.paper
        was = paper is not None and paper.id in self.owned
        self.owned = ids
        if self.hit is not None and paper is not None and (paper.id in ids) != was:
            self.show(self.hit, bookmarked=self.bookmarked, dismissed=self.dismissed)

    def set_similar(self, paper_id: str | None, hits: Sequence[Hit]) -> None:
        """Fill the similar list for ``paper_id`` (ignored if the view moved on)."""
        if paper_id is not None and (self.paper is None or self.paper.id != paper_id):
            return
        self._similar = tuple(hits)
        options = next(self.query("#similar").results(OptionList), None)
        if options is not None:
            title = self.query_one("#similar-title", Label)
        elif not self._similar:
            return
        else:
            # Built with the first similar papers, not at start-up. (Held here, not queried:
            # while the app closes nothing is mounted, and a lookup still running ends then.)
            title, options = Label("Similar papers", id="similar-title"), OptionList(id="similar")
            self.mount(title, options)
        options.clear_options()
        options.add_options([Option(self._similar_prompt(h)) for h in self._similar])
        shown = bool(self._similar)
        title.display = shown
        options.display = shown

    @property
    def similar(self) -> tuple[Hit, ...]:
        """The similar papers now listed."""
        return self._similar

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if 0 <= event.option_index < len(self._similar):
            self.post_message(self.OpenPaper(self._similar[event.option_index].paper))

    @staticmethod
    def _similar_prompt(hit: Hit) -> Text:
        text = title_text(hit.paper, (), "")
        text.append(f"  {short_authors(hit.paper.authors, 2)}", style="dim")
        return text

    def _describe(self, hit: Hit, links: list[tuple[str, str]]) -> Group:
        paper = hit.paper

        def style(name: str) -> Style:
            return self.get_component_rich_style(f"paper-view--{name}", partial=True)

        match = style("match")
        title = title_text(paper, hit.title_spans, match)
        title.stylize("bold")
        parts: list[Text | LinkLine] = [title]
        owned = paper.id in self.owned
        names = ("oral", "spotlight", "abstract", "bookmark", "library")
        line = badges(paper, self.bookmarked, {n: style(n) for n in names}, owned=owned)
        label_style = style("label")

        def field(label: str, value: str) -> Text:
            return self._field(label, value, label_style)

        if paper.kind == "poster":  # orals and spotlights already carry their badge
            line.append("Poster ", style="bold")
        line.append(f"  id {clean(paper.id)}", style="dim")
        if self.bookmarked:
            line.append("   in your reading list", style="italic")
        if self.dismissed:
            line.append("   not interested: hidden from For you (u takes it back)", style="italic")
        if owned:
            line.append("   in your library", style="italic")
        parts.append(line)
        for other in paper.possibly_same_as:
            parts.append(
                field("Possibly", f"the same paper as id {clean(other)} (not joined; J joins them)")
            )
        parts.append(field("Authors", ", ".join(clean(a) for a in paper.authors) or "unknown"))
        if paper.institutions:
            parts.append(field("Institutions", "; ".join(clean(i) for i in paper.institutions)))
        if paper.topic:
            parts.append(field("Topic", clean(paper.topic).replace("->", " › ")))
        for kind, when in session_rows(paper, self.zone_setting):
            parts.append(field(kind, when))
        if paper.venue and paper.venue != DEFAULT_VENUE.name:
            parts.append(field("Venue", clean(paper.venue)))
        if paper.track:
            parts.append(field("Track", clean(paper.track)))
        for number, (label, url) in enumerate(links):
            # The action names the link by number: no data text ever enters an action string.
            meta = Style(meta={"@click": f"open_link({number})"})
            link = Text(clean(url), style=style("link") + meta)
            parts.append(LinkLine(Text(f"{label:<13}", style=style("label")), link))
        parts.append(Text(""))
        if paper.abstract:
            shown = paper.abstract[:ABSTRACT_LIMIT]
            spans = [(a, b) for a, b in hit.abstract_spans if b <= len(shown)]
            parts.append(highlighted(shown, spans, match, one_line=False))
            if len(paper.abstract) > ABSTRACT_LIMIT:
                parts.append(
                    Text(
                        f"… abstract cut at {ABSTRACT_LIMIT:,} of {len(paper.abstract):,} "
                        "characters (paperscope show ID prints it all)",
                        style="italic",
                    )
                )
        elif self.abstracts_pending:
            parts.append(Text("Loading abstracts…", style="italic dim"))
        else:
            parts.append(Text("No abstract in the data for this paper.", style="italic dim"))
        return Group(*parts)

    @staticmethod
    def _field(label: str, value: str | Text, label_style: Style) -> Text:
        text = Text(f"{label:<13}", style=label_style)
        text.append(value if isinstance(value, Text) else Text(value))
        return text
