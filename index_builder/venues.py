"""The conferences PaperScope knows: where their official feeds live, their time zone and
how they are cited. Pure data; imports nothing of the project.

A venue's key is ``<conf><year>`` (``icml2026``); its ``name`` (``ICML 2026``) is what a
paper's ``venue`` field holds. The feeds (FEEDS.md) live at
``https://{host}/static/virtual/data/{conf}-{year}-orals-posters.json`` and, from 2026 on,
``…-abstracts.json``.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Venue:
    """One conference of one year."""

    key: str
    """``icml2026``: what ``paperscope update`` takes, and the prefix of foreign paper ids."""
    conf: str
    """The conference software's short name in feed file names (``icml``)."""
    year: int
    name: str
    """What a paper's ``venue`` says and a citation's short form shows (``ICML 2026``)."""
    host: str
    """The conference site (``icml.cc``)."""
    timezone: str
    """The IANA zone of the venue, for showing session times as the programme does."""
    booktitle: str
    """The proceedings, as a BibTeX ``booktitle``."""
    series: str = ""
    publisher: str = ""

    @property
    def feed_name(self) -> str:
        """The file name of the papers-and-events feed."""
        return f"{self.conf}-{self.year}-orals-posters.json"

    @property
    def abstracts_name(self) -> str:
        """The file name of the abstracts feed (2026 on; earlier feeds carry abstracts inline)."""
        return f"{self.conf}-{self.year}-abstracts.json"

    @property
    def base_url(self) -> str:
        """The folder of the official feeds."""
        return f"https://{self.host}/static/virtual/data/"


PMLR = "Proceedings of Machine Learning Research"

VENUES: tuple[Venue, ...] = (
    Venue("icml2026", "icml", 2026, "ICML 2026", "icml.cc", "Asia/Seoul",
          "Proceedings of the 43rd International Conference on Machine Learning", PMLR, "PMLR"),
    Venue("icml2025", "icml", 2025, "ICML 2025", "icml.cc", "America/Vancouver",
          "Proceedings of the 42nd International Conference on Machine Learning", PMLR, "PMLR"),
    Venue("neurips2025", "neurips", 2025, "NeurIPS 2025", "neurips.cc", "America/Los_Angeles",
          "Advances in Neural Information Processing Systems"),
    Venue("iclr2026", "iclr", 2026, "ICLR 2026", "iclr.cc", "America/Sao_Paulo",
          "The Fourteenth International Conference on Learning Representations"),
    Venue("iclr2025", "iclr", 2025, "ICLR 2025", "iclr.cc", "Asia/Singapore",
          "The Thirteenth International Conference on Learning Representations"),
    Venue("cvpr2026", "cvpr", 2026, "CVPR 2026", "cvpr.thecvf.com", "America/Denver",
          "Proceedings of the IEEE/CVF Conference on Computer Vision and Pattern Recognition"),
)  # fmt: skip
"""Every known venue; ICML 2026 first (the bundled data's)."""

DEFAULT = VENUES[0]

_BY_KEY = {v.key: v for v in VENUES}
_BY_NAME = {v.name.casefold(): v for v in VENUES}


def venue(key: str) -> Venue | None:
    """The venue with this key (``icml2026``), or ``None``."""
    return _BY_KEY.get(key.strip().lower())


def venue_of_id(paper_id: str) -> str:
    """The venue name a paper id implies: an event id is ICML 2026's (the table's),
    ``neurips2025:119718`` NeurIPS 2025's; ``""`` for ids that say nothing (abstract hashes)."""
    key, _, number = paper_id.rpartition(":")
    if not (number.isascii() and number.isdigit()):
        return ""
    known = venue(key) if key else DEFAULT
    return known.name if known else ""


def venue_named(name: str) -> Venue | None:
    """The venue a paper's ``venue`` field names (``ICML 2026``), or ``None`` when unknown."""
    return _BY_NAME.get(" ".join(name.split()).casefold())


_PLACES = {
    "icml2026": "Seoul, South Korea",
    "icml2025": "Vancouver, Canada",
    "neurips2025": "San Diego, USA",
    "iclr2026": "Rio de Janeiro, Brazil",
    "iclr2025": "Singapore",
    "cvpr2026": "Denver, USA",
}
"""Where each known venue takes place (a citation's ``event-place``, RIS ``CY``)."""


def venue_place(known: Venue) -> str:
    """The city and country of ``known`` as citations name it; ``""`` when not recorded."""
    return _PLACES.get(known.key, "")
