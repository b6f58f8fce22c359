"""The conferences PaperScope knows: where their official feeds live, their time zone and
how they are cited. Pure data; imports nothing of the project.

A venue's key is ``<conf><year>`` (``icml2026``); its ``name`` (``ICML 2026``) is what a
paper's ``venue`` field holds. The feeds (FEEDS.md) live at
``https://{host}/static/virtual/data/{conf}-{year}-orals-posters.json`` and, from 2026 on,
``…-abstracts.json``.

A conference held in several cities lists its :class:`Site` s: a session whose name begins
with a site's name ("Paris Poster Session 2") is in that site's zone. Besides the built-in
:data:`VENUES`, venues declared by the user (the config's ``[venues.KEY]``, or ``update KEY
--host HOST`` for one run; :mod:`index_builder.venue_config`) are known once
:func:`declare` is given them; a declared venue replaces a built-in one of the same key.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache


@dataclass(frozen=True, slots=True)
class Site:
    """One city of a conference held in several: its name as sessions write it, its zone."""

    name: str
    """``Paris``: a session named ``Paris Poster Session 2`` is held here."""
    timezone: str
    """The site's IANA zone (``Europe/Paris``)."""

    def holds(self, session: str) -> bool:
        """True when ``session`` begins with this site's name (as a whole word, any case)."""
        words, name = session.split(), self.name.split()
        return bool(name) and [w.casefold() for w in words[: len(name)]] == [
            n.casefold() for n in name
        ]


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
    sites: tuple[Site, ...] = field(default=())
    """The cities of a conference held in several (the first is the main one); empty for
    one city, whose zone is :attr:`timezone`."""

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

    def site_of(self, session: str) -> Site | None:
        """The site a session's name begins with (the longest name that fits), or ``None``."""
        return _site_for(self.sites, session) if self.sites and session else None

    def zone_of(self, session: str = "") -> str:
        """The IANA zone a session is held in: its site's, else the venue's ('' if none)."""
        site = self.site_of(session) if session else None
        return site.timezone if site is not None else self.timezone


@lru_cache(maxsize=4096)
def _site_for(sites: tuple[Site, ...], session: str) -> Site | None:
    # Every list row and paper view asks for its session's zone: once per distinct name.
    fits = [s for s in sites if s.holds(session)]
    return max(fits, key=lambda s: len(s.name.split()), default=None)


PMLR = "Proceedings of Machine Learning Research"
NEURIPS = "Advances in Neural Information Processing Systems"

VENUES: tuple[Venue, ...] = (
    Venue("icml2026", "icml", 2026, "ICML 2026", "icml.cc", "Asia/Seoul",
          "Proceedings of the 43rd International Conference on Machine Learning", PMLR, "PMLR"),
    Venue("neurips2026", "neurips", 2026, "NeurIPS 2026", "neurips.cc", "Australia/Sydney",
          NEURIPS, sites=(Site("Sydney", "Australia/Sydney"), Site("Atlanta", "America/New_York"),
                          Site("Paris", "Europe/Paris"))),
    Venue("eccv2026", "eccv", 2026, "ECCV 2026", "eccv.ecva.net", "Europe/Stockholm",
          "Computer Vision -- ECCV 2026: 19th European Conference on Computer Vision",
          "Lecture Notes in Computer Science", "Springer"),
    Venue("colm2026", "colm", 2026, "COLM 2026", "colm.cc", "America/Los_Angeles",
          "Third Conference on Language Modeling"),
    Venue("aistats2026", "aistats", 2026, "AISTATS 2026", "virtual.aistats.org",
          "Africa/Casablanca", "Proceedings of the 29th International Conference on Artificial "
          "Intelligence and Statistics", PMLR, "PMLR"),
    # Bellevue, Washington (Hyatt Regency Bellevue, 18-22 May 2026) as reported by
    # conference listings and attendees' posts; not read from mlsys.org itself.
    Venue("mlsys2026", "mlsys", 2026, "MLSys 2026", "mlsys.org", "America/Los_Angeles",
          "Proceedings of Machine Learning and Systems"),
    Venue("icml2025", "icml", 2025, "ICML 2025", "icml.cc", "America/Vancouver",
          "Proceedings of the 42nd International Conference on Machine Learning", PMLR, "PMLR"),
    Venue("neurips2025", "neurips", 2025, "NeurIPS 2025", "neurips.cc", "America/Los_Angeles",
          NEURIPS, sites=(Site("San Diego", "America/Los_Angeles"),
                          Site("Mexico City", "America/Mexico_City"))),
    Venue("iclr2026", "iclr", 2026, "ICLR 2026", "iclr.cc", "America/Sao_Paulo",
          "The Fourteenth International Conference on Learning Representations"),
    Venue("iclr2025", "iclr", 2025, "ICLR 2025", "iclr.cc", "Asia/Singapore",
          "The Thirteenth International Conference on Learning Representations"),
    Venue("cvpr2026", "cvpr", 2026, "CVPR 2026", "cvpr.thecvf.com", "America/Denver",
          "Proceedings of the IEEE/CVF Conference on Computer Vision and Pattern Recognition"),
)  # fmt: skip
"""Every built-in venue; ICML 2026 first (the bundled data's)."""

DEFAULT = VENUES[0]

_BUILT_IN = {v.key: v for v in VENUES}
_declared: dict[str, Venue] = {}
_by_key: dict[str, Venue] = dict(_BUILT_IN)
_by_name: dict[str, Venue] = {v.name.casefold(): v for v in VENUES}


def _fold(name: str) -> str:
    return " ".join(name.split()).casefold()


def declare(extra: Iterable[Venue]) -> None:
    """Make ``extra`` (the user's venues) known, in place of those declared before.

    A declared venue replaces the built-in venue of its key. The ICML 2026 table's venue
    (:data:`DEFAULT`) cannot be replaced: the bundled data is its.
    """
    global _declared, _by_key, _by_name
    # New tables swapped in whole: a thread reading them meanwhile sees the old or the new.
    declared = {v.key: v for v in extra if v.key != DEFAULT.key}
    by_key = {**_BUILT_IN, **declared}
    _declared, _by_key = declared, by_key
    _by_name = {_fold(v.name): v for v in by_key.values()}


def declared() -> tuple[Venue, ...]:
    """The venues made known by :func:`declare`, in the order given."""
    return tuple(_declared.values())


def known() -> tuple[Venue, ...]:
    """Every venue known: the built-in ones (or what replaced them), then the others."""
    return tuple(_by_key.values())


def is_built_in(venue: Venue) -> bool:
    """True for a venue of :data:`VENUES` (not declared by the user)."""
    return _BUILT_IN.get(venue.key) == venue


def declared_digest() -> str:
    """A short digest of the declared venues ('' when none): what the papers built from the
    feeds depend on besides the files (a cache keyed on the files alone would be stale)."""
    if not _declared:
        return ""
    return hashlib.sha256(repr(sorted(_declared.items())).encode()).hexdigest()[:16]


def venue(key: str) -> Venue | None:
    """The venue with this key (``icml2026``), or ``None``."""
    return _by_key.get(key.strip().lower())


def venue_of_id(paper_id: str) -> str:
    """The venue name a paper id implies: an event id is ICML 2026's (the table's),
    ``neurips2025:119718`` NeurIPS 2025's; ``""`` for ids that say nothing (abstract hashes)."""
    key, _, number = paper_id.rpartition(":")
    if not (number.isascii() and number.isdigit()):
        return ""
    found = venue(key) if key else DEFAULT
    return found.name if found else ""


def venue_named(name: str) -> Venue | None:
    """The venue a paper's ``venue`` field names (``ICML 2026``), or ``None`` when unknown."""
    return _by_name.get(_fold(name))


def session_zone(venue_name: str, session: str = "") -> str:
    """The IANA zone of a session of the venue a paper names: its site's, else the venue's;
    ``''`` for a venue not known (its times keep the offset they came with)."""
    found = venue_named(venue_name) if venue_name else None
    return found.zone_of(session) if found is not None else ""


def site_name(venue_name: str, session: str) -> str:
    """The site a session of that venue is held at (``Paris``), ``''`` for one-city venues."""
    found = venue_named(venue_name) if venue_name else None
    site = found.site_of(session) if found is not None and session else None
    return site.name if site is not None else ""


_PLACES = {
    "icml2026": "Seoul, South Korea",
    "icml2025": "Vancouver, Canada",
    "neurips2025": "San Diego, USA",
    "iclr2026": "Rio de Janeiro, Brazil",
    "iclr2025": "Singapore",
    "cvpr2026": "Denver, USA",
    "neurips2026": "Sydney, Australia",
    "eccv2026": "Malmö, Sweden",
    "colm2026": "San Francisco, USA",
    "aistats2026": "Tangier, Morocco",
    "mlsys2026": "Bellevue, USA",
}
"""Where each known venue takes place (a citation's ``event-place``, RIS ``CY``)."""


def venue_place(known: Venue) -> str:
    """The city and country of ``known`` as citations name it; else its first site's city
    (a venue declared in the config); ``""`` when neither is known."""
    return _PLACES.get(known.key) or (known.sites[0].name if known.sites else "")
