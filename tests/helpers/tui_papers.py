"""Hand-made papers for the TUI tests (not a test module), and a catalogue-shaped holder."""

from __future__ import annotations

import csv
from collections.abc import Iterator, Sequence

from index_builder.model import Paper
from tests.helpers.paths import TABLE

HOSTILE_TITLE = (
    "[bold]Loud[/bold] [@click=app.quit]Quit[/] \x1b[31mred\x1b[0m \x1b]8;;http://x\x07link"
)
HOSTILE_ABSTRACT = "Markup [@click=app.quit]here[/] and [red]colour[/red]\x1b]52;c;aGk=\x07 end."


def _p(pid: str, title: str, **kw: object) -> Paper:
    if not kw.get("title_derived"):
        kw.setdefault("venue", "ICML 2026")  # a table paper, as the catalogue makes them
    return Paper(id=pid, title=title, title_raw=title, **kw)  # type: ignore[arg-type]


HAND_MADE: tuple[Paper, ...] = (
    _p(
        "t01",
        "Efficiently Learning Drifting Halfspaces with Massart Noise",
        authors=("Mingchen Ma", "Guyang Cao", "Jelena Diakonikolas", "Ilias Diakonikolas"),
        institutions=("University of Wisconsin-Madison",),
        topic="Theory->Learning Theory",
        session="Poster Session 3",
        starts_at="2026-07-07T11:00:00-07:00",
        ends_at="2026-07-07T12:30:00-07:00",
        openreview_url="https://openreview.net/forum?id=aaa",
        url="https://icml.cc/virtual/2026/poster/1",
    ),
    _p(
        "t02",
        "Learning Partial Concept Classes and Universal Rates Under Massart Noise",
        authors=("Ariel Avital", "Klim Efremenko", "Steve Hanneke"),
        topic="Theory->Learning Theory",
        session="Poster Session 1",
        starts_at="2026-07-06T11:00:00-07:00",
        openreview_url="https://openreview.net/forum?id=bbb",
    ),
    _p(
        "t03",
        "ProEval: Proactive Failure Discovery for Generative AI Evaluation",
        authors=("Yizheng Huang", "Wenjun Zeng", "Aditya Kumaresan", "Zi Wang"),
        topic="Social Aspects->Safety",
        spotlight=True,
        session="Poster Session 2",
        starts_at="2026-07-06T18:30:00-07:00",
        abstract="We evaluate generative models by discovering failures proactively. "
        "Code: https://github.com/example/proeval",
        code_urls=("https://github.com/example/proeval",),
        openreview_url="https://openreview.net/forum?id=ccc",
    ),
    _p(
        "t04",
        "Watermarking Diffusion Language Models",
        authors=("Grace Hopper",),
        topic="Deep Learning->Large Language Models",
        oral=True,
        abstract="Watermarks for diffusion language models that survive paraphrasing.",
        code_urls=("javascript:alert(1)",),
    ),
    _p(
        "t05",
        "A derived title from the first words of an abstract",
        title_derived=True,
        abstract="A derived title from the first words of an abstract about optimal transport.",
    ),
    _p("t06", HOSTILE_TITLE, authors=("[b]Mallory[/b]",), abstract=HOSTILE_ABSTRACT),
)


def table_papers(count: int) -> list[Paper]:
    """The first ``count`` poster rows of the bundled table, as plain papers."""
    out: list[Paper] = []
    with TABLE.open(encoding="utf-8") as handle:
        for row in csv.DictReader(handle):
            if row["event_type"] != "Poster":
                continue
            out.append(
                _p(
                    row["event_id"],
                    row["title"],
                    authors=tuple(a.strip() for a in row["authors"].split(";") if a.strip()),
                    topic=row["topic"],
                    session=row["session"],
                    starts_at=row["starttime"],
                    ends_at=row["endtime"],
                    url=row["url"],
                    openreview_url=row["paper_url"],
                    spotlight="spotlight" in row["decision"].lower(),
                )
            )
            if len(out) >= count:
                break
    return out


def sample_papers() -> tuple[Paper, ...]:
    """The hand-made papers first, then 40 rows of the table."""
    return (*HAND_MADE, *table_papers(40))


class PaperShelf:
    """Holds papers the way a catalogue does (``papers``, ``get``, ``fingerprint``, ``len``)."""

    def __init__(self, papers: Sequence[Paper], fingerprint: str = "tui-tests") -> None:
        self.papers = tuple(papers)
        self.fingerprint = fingerprint
        self.complete = True
        self._by_id = {p.id: p for p in self.papers}

    def get(self, id_or_alias: str) -> Paper | None:
        """The paper with this id."""
        return self._by_id.get(id_or_alias)

    def __len__(self) -> int:
        return len(self.papers)

    def __iter__(self) -> Iterator[Paper]:
        return iter(self.papers)
