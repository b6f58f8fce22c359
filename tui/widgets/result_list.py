"""The result list: a virtual list that renders only the rows on screen.

A long result comes a page at a time, and the list pages itself: it is handed the
``total`` and a :data:`Pager` with the first hits, and when the cursor or the view nears
the end of what it holds (or on ``G``/End, everything up to the last hit) it asks the
pager for the next hits in a thread worker, so every hit is reachable. The page comes
back as :class:`ResultList.PageLoaded`; a page for an answer the list no longer shows
is dropped.

Each hit takes two lines: its title (matched words highlighted, a derived title
marked) and a meta line (badges, first authors, topic; when sorted by time, the session
time first, in the chosen zone). Nothing is built per paper
until its row scrolls into view, so 100,000 hits cost what 30 do.

BINDINGS (while the list has focus):

| key           | action                 |
|---------------|------------------------|
| j / down      | next paper             |
| k / up        | previous paper         |
| g / home      | first paper            |
| G / end       | last paper             |
| pgup / pgdown | a page up / down       |
| enter         | open the paper         |
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from typing import Any, ClassVar

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.cache import LRUCache
from textual.geometry import Region, Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.worker import get_current_worker

from index_builder.model import Hit
from index_builder.times import describe, first_event
from tui.widgets.paper_text import badges, short_authors, short_topic, title_text
from tui.widgets.workers import ReportsFailures

ROW_HEIGHT = 2

Pager = Callable[[int, int], Sequence[Hit]]
"""``(start, limit)`` -> the answer's hits ranked from ``start``: at most ``limit`` of them.
Called off the event loop."""


class ResultList(ReportsFailures, ScrollView, can_focus=True):
    """A cursor over a sequence of hits, drawn line by line."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("j,down", "cursor_down", "Down", show=False, tooltip="Next paper", id="down"),
        Binding("k,up", "cursor_up", "Up", show=False, tooltip="Previous paper", id="up"),
        Binding("g,home", "first", "First", show=False, tooltip="First paper", id="first"),
        Binding("G,end", "last", "Last", show=False, tooltip="Last paper", id="last"),
        Binding("pageup", "page_up", "Page up", show=False, tooltip="A page up", id="page_up"),
        Binding(
            "pagedown", "page_down", "Page down", show=False, tooltip="A page down", id="page_down"
        ),
        Binding("enter", "select", "Open", tooltip="Open the paper under the cursor", id="open"),
    ]

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "result-list--cursor",
        "result-list--match",
        "result-list--meta",
        "result-list--oral",
        "result-list--spotlight",
        "result-list--abstract",
        "result-list--bookmark",
        "result-list--library",
        "result-list--empty",
    }

    DEFAULT_CSS = """
    ResultList { background: $surface; overflow-x: hidden; scrollbar-size-vertical: 1; }
    ResultList > .result-list--cursor { background: $surface-lighten-2; }
    ResultList:focus > .result-list--cursor { background: $block-cursor-background; }
    ResultList > .result-list--match { color: $text-warning; text-style: bold underline; }
    ResultList > .result-list--meta { color: $text-muted; }
    ResultList > .result-list--oral { color: $text-error; text-style: bold; }
    ResultList > .result-list--spotlight { color: $text-accent; text-style: bold; }
    ResultList > .result-list--abstract { color: $text-success; }
    ResultList > .result-list--bookmark { color: $text-warning; }
    ResultList > .result-list--library { color: $text-success; }
    ResultList > .result-list--empty { color: $text-muted; text-style: italic; }
    """

    cursor: reactive[int] = reactive(0, always_update=True, init=False)

    class Highlighted(Message):
        """The cursor moved to ``hit`` (None when the list is empty)."""

        def __init__(self, result_list: ResultList, hit: Hit | None, index: int) -> None:
            super().__init__()
            self.result_list = result_list
            self.hit = hit
            self.index = index

        @property
        def control(self) -> ResultList:
            """The list that sent the message."""
            return self.result_list

    class Selected(Message):
        """``hit`` was opened (Enter or a double click)."""

        def __init__(self, result_list: ResultList, hit: Hit, index: int) -> None:
            super().__init__()
            self.result_list = result_list
            self.hit = hit
            self.index = index

        @property
        def control(self) -> ResultList:
            """The list that sent the message."""
            return self.result_list

    class Drawn(Message):
        """The list has drawn papers for the first time (posted once, after that frame)."""

        def __init__(self, result_list: ResultList) -> None:
            super().__init__()
            self.result_list = result_list

        @property
        def control(self) -> ResultList:
            """The list that sent the message."""
            return self.result_list

    class PageLoaded(Message):
        """Further ``hits``, ranked from ``start``, of the answer numbered ``answer``."""

        def __init__(
            self, result_list: ResultList, answer: int, start: int, hits: tuple[Hit, ...]
        ) -> None:
            super().__init__()
            self.result_list = result_list
            self.answer = answer
            self.start = start
            self.hits = hits

        @property
        def control(self) -> ResultList:
            """The list that sent the message."""
            return self.result_list

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.hits: tuple[Hit, ...] = ()
        self.total = 0
        """How many hits the query has (``hits`` may hold only the first of them)."""
        self.page_size = 200
        self._asked = 0
        self._jump_last = False
        self.bookmarked: Collection[str] = frozenset()
        self.owned: Collection[str] = frozenset()
        """Ids of the papers your library holds (the ``LIB`` badge)."""
        self.empty_message = "No papers."
        self.time_zone: str | None = None
        """The zone setting when rows show their session time (sorted by time), else None."""
        self._cache: LRUCache[tuple[int, int, int, bool], Strip] = LRUCache(256)
        self._width = 0
        self._styles: dict[str, Style] = {}
        """The frame's styles (computed once per frame: each costs a walk of the DOM)."""
        self._drawn = False
        self._pager: Pager | None = None
        self._answer = 0
        """Counts the answers shown, so a page of an earlier one is known and dropped."""
        self._rows_barred: Size | None = None
        """The rows' size the scrollbar was last fitted to (see :meth:`_size_updated`)."""

    # -- data -------------------------------------------------------------------------------

    def set_hits(
        self,
        hits: Sequence[Hit],
        *,
        keep: str | None = None,
        total: int | None = None,
        near: int = 0,
        more: Pager | None = None,
    ) -> None:
        """Show ``hits`` of ``total`` (default: all of them); the cursor goes to the paper
        with id ``keep`` if present, else to row ``near`` (the last row if fewer).

        ``more`` fetches the hits past these when the list nears their end (without it
        the list holds ``hits`` only)."""
        self._answer += 1
        self._pager = more
        self.hits = tuple(hits)
        self.total = max(len(self.hits), total if total is not None else 0)
        self._asked = len(self.hits)
        self._jump_last = False
        self._cache.clear()
        index = max(0, min(near, len(self.hits) - 1))
        if keep is not None:
            index = next((i for i, h in enumerate(self.hits) if h.paper.id == keep), index)
        self.virtual_size = Size(0, len(self.hits) * ROW_HEIGHT)
        self.scroll_to(y=max(0, index * ROW_HEIGHT - self.size.height // 3), animate=False)
        self.cursor = index
        self.refresh()

    def add_hits(self, start: int, hits: Sequence[Hit]) -> None:
        """Append ``hits``, the ones ranked from ``start`` (dropped unless they follow on)."""
        if start == len(self.hits) and hits:
            self.hits += tuple(hits)
            self.total = max(self.total, len(self.hits))
            self.virtual_size = Size(0, len(self.hits) * ROW_HEIGHT)
            self.refresh()
        elif start == len(self.hits):
            self.total = len(self.hits)  # the index holds fewer than it counted: stop asking
        self._asked = len(self.hits)
        if self._jump_last and self.complete:
            self._jump_last = False
            self.cursor = len(self.hits) - 1
        elif self._jump_last:
            self._ask(self.total)
        else:
            self._want_more()

    @property
    def complete(self) -> bool:
        """True when every hit of the query is held."""
        return len(self.hits) >= self.total

    def _ask(self, wanted: int) -> None:
        wanted = min(wanted, self.total)
        if wanted > self._asked and self._pager is not None:
            self._asked = wanted
            self._fetch(self._pager, len(self.hits), wanted - len(self.hits))

    def _fetch(self, pager: Pager, start: int, limit: int) -> None:
        """Fetch ``limit`` hits from ``start`` in a worker (a newer request cancels it)."""
        answer = self._answer

        def fetch() -> None:
            hits = tuple(pager(start, limit))
            if not get_current_worker().is_cancelled:
                self.post_message(self.PageLoaded(self, answer, start, hits))

        self.run_worker(fetch, thread=True, exclusive=True, group="more", exit_on_error=False)

    def on_result_list_page_loaded(self, message: PageLoaded) -> None:
        """Append a fetched page, unless the list has been given another answer since."""
        if message.answer == self._answer:
            self.add_hits(message.start, message.hits)

    def _want_more(self) -> None:
        """Ask for the next page when the cursor or the view is within a page of the end."""
        if self.complete:
            return
        page = self._page()
        bottom = (round(self.scroll_y) + self.scrollable_content_region.height) // ROW_HEIGHT
        if max(self.cursor, bottom) + 2 * page >= len(self.hits):
            self._ask(len(self.hits) + max(self.page_size, 2 * page))

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        super().watch_scroll_y(old_value, new_value)
        if round(old_value) != round(new_value):
            self._want_more()

    def show_times(self, setting: str | None) -> None:
        """Show each row's session time in the zone ``setting`` picks (None: no times)."""
        if setting != self.time_zone:
            self.time_zone = setting
            self._cache.clear()
            self.refresh()

    def set_bookmarked(self, ids: Collection[str]) -> None:
        """Which paper ids show the bookmark badge."""
        self.bookmarked = ids
        self._cache.clear()
        self.refresh()

    def set_owned(self, ids: Collection[str]) -> None:
        """Which paper ids show the library badge (``LIB``)."""
        self.owned = ids
        self._cache.clear()
        self.refresh()

    @property
    def current(self) -> Hit | None:
        """The hit under the cursor."""
        return self.hits[self.cursor] if 0 <= self.cursor < len(self.hits) else None

    def watch_cursor(self, old: int, new: int) -> None:
        if self.hits:
            clamped = max(0, min(new, len(self.hits) - 1))
            if clamped != new:
                self.cursor = clamped
                return
            self._refresh_row(old)
            self._refresh_row(new)
            self._scroll_to_cursor()
            self._want_more()
        self.post_message(self.Highlighted(self, self.current, self.cursor))

    def _refresh_row(self, index: int) -> None:
        self.refresh_lines(index * ROW_HEIGHT - round(self.scroll_y), ROW_HEIGHT)

    def _scroll_to_cursor(self) -> None:
        top = self.cursor * ROW_HEIGHT
        height = max(ROW_HEIGHT, self.scrollable_content_region.height)
        if top < self.scroll_y:
            self.scroll_to(y=top, animate=False)
        elif top + ROW_HEIGHT > self.scroll_y + height:
            self.scroll_to(y=top + ROW_HEIGHT - height, animate=False)

    def on_resize(self) -> None:
        self.virtual_size = Size(0, len(self.hits) * ROW_HEIGHT)
        self._cache.clear()
        if self.hits:
            self._scroll_to_cursor()

    def _size_updated(
        self, size: Size, virtual_size: Size, container_size: Size, *more: Any, **named: Any
    ) -> bool:
        """Fit the scrollbar to the rows only when the list's size or its rows changed.

        At every layout of the screen Textual hands a scroll view the size of its viewport
        as its virtual size, which is never the list's (its rows): Textual's scroll view
        takes that for a change and draws the scrollbar again, at each of the ~6 layouts
        a move of the cursor makes (the paper, its similar papers), about a tenth of the
        move's CPU. With the list's rows unchanged since the last fit, it is handed the
        rows' size, so it fits the bars again only if the list's size changed.
        """
        # Textual's own method (a private one): what follows the three sizes is passed on
        # as given, so a release that adds a parameter still gets it.
        rows = self.virtual_size
        if rows != self._rows_barred:
            self._rows_barred = rows
            return super()._size_updated(size, virtual_size, container_size, *more, **named)
        return super()._size_updated(size, rows, container_size, *more, **named)

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._cache.clear()

    # -- actions ----------------------------------------------------------------------------

    def action_cursor_down(self) -> None:
        """Move to the next paper."""
        if self.cursor < len(self.hits) - 1:
            self.cursor += 1

    def action_cursor_up(self) -> None:
        """Move to the previous paper."""
        if self.cursor > 0:
            self.cursor -= 1

    def action_first(self) -> None:
        """Move to the first paper."""
        self.cursor = 0

    def action_last(self) -> None:
        """Move to the last paper (once it has come, when the list holds only the first)."""
        if not self.complete:
            self._jump_last = True
            self._ask(self.total)
        self.cursor = max(0, len(self.hits) - 1)

    def _page(self) -> int:
        return max(1, self.scrollable_content_region.height // ROW_HEIGHT)

    def action_page_down(self) -> None:
        """Move a page down."""
        self.cursor = min(len(self.hits) - 1, self.cursor + self._page()) if self.hits else 0

    def action_page_up(self) -> None:
        """Move a page up."""
        self.cursor = max(0, self.cursor - self._page())

    def action_select(self) -> None:
        """Open the paper under the cursor."""
        hit = self.current
        if hit is not None:
            self.post_message(self.Selected(self, hit, self.cursor))

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None or not self.hits:
            return
        index = (offset.y + round(self.scroll_y)) // ROW_HEIGHT
        if 0 <= index < len(self.hits):
            self.cursor = index
            if event.chain >= 2:
                self.action_select()

    # -- drawing ----------------------------------------------------------------------------

    def render_lines(self, crop: Region) -> list[Strip]:
        """Render the lines in ``crop``, measuring the width and the styles once per frame."""
        self._width = self.scrollable_content_region.width
        self._styles = {}  # computed at the frame's first row not in the cache
        if self.hits and not self._drawn:
            self._drawn = True
            self.post_message(self.Drawn(self))  # handled once this frame is written
        return super().render_lines(crop)

    def _frame_styles(self) -> dict[str, Style]:
        styles = {"": self.rich_style}
        styles["cursor"] = styles[""] + self.get_component_rich_style("result-list--cursor")
        for name in ("match", "meta", "oral", "spotlight", "abstract", "bookmark", "library"):
            styles[name] = self.get_component_rich_style(f"result-list--{name}", partial=True)
        return styles

    def render_line(self, y: int) -> Strip:
        """One screen line: half of a row, or blank past the end."""
        width = self._width or self.scrollable_content_region.width
        line = y + round(self.scroll_y)
        index, part = divmod(line, ROW_HEIGHT)
        if not self.hits:
            if line == 0:
                style = self.get_component_rich_style("result-list--empty")
                return self._strip(Text(" " + self.empty_message, style=style), width, Style())
            return Strip.blank(width, self.rich_style)
        if index >= len(self.hits):
            return Strip.blank(width, self.rich_style)
        key = (index, part, width, index == self.cursor)
        cached = self._cache.get(key)
        if cached is None:
            cached = self._render_row_line(self.hits[index], part, width, index == self.cursor)
            self._cache[key] = cached
        return cached

    def _render_row_line(self, hit: Hit, part: int, width: int, at_cursor: bool) -> Strip:
        if not self._styles:
            self._styles = self._frame_styles()
        styles = self._styles
        base = styles["cursor" if at_cursor else ""]
        paper = hit.paper
        if part == 0:
            text = Text(" ") + title_text(paper, hit.title_spans, styles["match"])
        else:
            meta = styles["meta"]
            text = Text("   ")
            if self.time_zone is not None:
                first = first_event(paper)
                when = describe(
                    first.starts_at, first.ends_at, self.time_zone, paper.venue, first.session
                )
                text.append(when + " · ", meta + Style(bold=True))
            text += badges(paper, paper.id in self.bookmarked, styles, owned=paper.id in self.owned)
            text.append(short_authors(paper.authors), meta)
            if paper.topic:
                text.append(" · " + short_topic(paper.topic), meta)
        return self._strip(text, width, base)

    def _strip(self, text: Text, width: int, base: Style) -> Strip:
        text.no_wrap = True
        text.truncate(max(1, width - 1), overflow="ellipsis")
        segments = [
            Segment(seg.text, base + seg.style if seg.style else base, seg.control)
            for seg in text.render(self.app.console, end="")
        ]
        return Strip(segments).adjust_cell_length(width, base)
