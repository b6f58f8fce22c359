"""Lines that are cut where a reader expects, never in the middle of a word or an address.

:class:`LinkLine` is a labelled link for the paper view: the address beside its label
when both fit, else on a line of its own, shortened in the middle (``…``) when even that
is too narrow; the click (its style's meta) still opens the whole address.
:func:`fit_words` shortens a line of words (For you's explanation) to a width at a word,
with no dangling comma.
"""

from __future__ import annotations

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.text import Text

ELLIPSIS = "…"


def fit_words(line: str, width: int) -> str:
    """``line`` if it fits in ``width`` cells, else cut after a whole word, with ``…``.

    Separators left at the cut (``,`` ``;`` ``:`` ``·``) go with it: "a, b, c" in 6
    cells is "a, b…", never "a, b,".
    """
    if cell_len(line) <= width or width < 2:
        return line
    cut = line
    while cut and cell_len(cut) > width - 1:
        cut = cut[:-1]
    space = cut.rfind(" ")
    if space > 0 and not line[len(cut)].isspace():
        cut = cut[:space]  # the word under the cut goes whole
    return cut.rstrip(" ,;:·") + ELLIPSIS


def shorten_middle(text: str, width: int) -> str:
    """``text`` in ``width`` cells: its start and end kept, ``…`` between."""
    if cell_len(text) <= width or width < 3:
        return text
    head = (width - 1) // 2 + (width - 1) % 2
    tail = width - 1 - head
    return text[:head] + ELLIPSIS + (text[-tail:] if tail else "")


class LinkLine:
    """``label`` then ``url`` on one line if it fits; else the url on a line of its own."""

    def __init__(self, label: Text, url: Text) -> None:
        self.label = label
        self.url = url

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        """One or two lines, none wrapped inside the address."""
        width = options.max_width
        if self.label.cell_len + self.url.cell_len <= width:
            yield self.label + self.url
            return
        yield self.label
        yield Text(shorten_middle(self.url.plain, width), style=self.url.style, no_wrap=True)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        """As wide as label and address together; as narrow as one cell."""
        return Measurement(1, self.label.cell_len + self.url.cell_len)
