"""Venues the user declares: a ``[venues.KEY]`` table of the config, or ``update KEY --host``.

Any conference on the same site software (FEEDS.md) is one key, one host and one zone
away::

    [venues.colm2027]
    host = "colm.cc"
    name = "COLM 2027"                       # default: the conference's name and year
    timezone = "America/Los_Angeles"         # the IANA zone of its city
    booktitle = "Fourth Conference on Language Modeling"   # default: the name
    sites = { Montreal = "America/Toronto" } # optional: cities other than the main one

Each check fails with one line (:class:`VenueError`) naming the key and what is wrong:
a key that is not ``<conf><year>``, a host that is not a host name, an unknown zone.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from index_builder.times import canonical_zone
from index_builder.venues import VENUES, Site, Venue

_KEY = re.compile(r"^(?P<conf>[a-z]+)(?P<year>\d{4})$")
_HOST = re.compile(r"^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*(:\d{1,5})?$")
_FIELDS = frozenset({"host", "name", "timezone", "sites", "booktitle"})
_MAX_TEXT = 300


class VenueError(ValueError):
    """A declared venue that cannot be used; the message is one line naming it."""


def split_key(key: str) -> tuple[str, int]:
    """``colm2027`` -> ``("colm", 2027)``; :class:`VenueError` for other keys."""
    match = _KEY.match(key.strip().lower())
    if match is None:
        raise VenueError(f"venue {key!r}: a key is the conference and the year, like colm2027")
    return match["conf"], int(match["year"])


def default_name(conf: str, year: int) -> str:
    """The name a built-in venue of the same conference uses (``NeurIPS 2027``), else
    the conference in capitals (``COLM 2027``)."""
    spelled = next((v.name.rsplit(" ", 1)[0] for v in VENUES if v.conf == conf), conf.upper())
    return f"{spelled} {year}"


def _zone(key: str, what: str, value: object) -> str:
    zone = canonical_zone(value) if isinstance(value, str) else None
    if zone is None:
        raise VenueError(f"venue {key}: {what} {value!r} is not an IANA time zone")
    return zone


def _text(key: str, what: str, value: object) -> str:
    if not isinstance(value, str) or not value.strip() or len(value) > _MAX_TEXT:
        raise VenueError(f"venue {key}: {what} must be a non-empty string")
    if not value.isprintable():
        raise VenueError(f"venue {key}: {what} holds control characters")
    return " ".join(value.split())


def check_host(key: str, host: object) -> str:
    """``host`` as a host name (``colm.cc``, ``127.0.0.1:8443``); :class:`VenueError` else."""
    if not isinstance(host, str) or not _HOST.match(host.strip().lower()):
        raise VenueError(f"venue {key}: host {host!r} is not a host name like colm.cc")
    return host.strip().lower()


def make_venue(
    key: str,
    host: object,
    *,
    name: object = None,
    timezone: object = None,
    sites: object = None,
    booktitle: object = None,
) -> Venue:
    """A venue from declared values, checked; :class:`VenueError` naming what is wrong.

    Without a zone the times keep the offsets the feed wrote them with.
    """
    conf, year = split_key(key)
    key = f"{conf}{year}"
    shown = _text(key, "name", name) if name is not None else default_name(conf, year)
    zone = _zone(key, "timezone", timezone) if timezone is not None else ""
    if sites is not None and not isinstance(sites, Mapping):
        raise VenueError(f'venue {key}: sites must be a table like {{ Paris = "Europe/Paris" }}')
    found = tuple(
        Site(_text(key, "a site's name", site), _zone(key, f"site {site!r}'s zone", where))
        for site, where in (sites or {}).items()
    )
    if found and zone and not any(s.timezone == zone for s in found):
        found = (Site(shown.rsplit(" ", 1)[0], zone), *found)
    title = _text(key, "booktitle", booktitle) if booktitle is not None else shown
    return Venue(key, conf, year, shown, check_host(key, host), zone, title, sites=found)


def from_table(key: str, table: object) -> Venue:
    """A config's ``[venues.KEY]`` table as a venue; :class:`VenueError` naming what is wrong."""
    if not isinstance(table, Mapping):
        raise VenueError(f"venue {key}: must be a table with host and timezone")
    unknown = sorted(str(k) for k in table if k not in _FIELDS)
    if unknown:
        fields = ", ".join(sorted(_FIELDS))
        raise VenueError(f"venue {key}: unknown field {unknown[0]!r} (fields: {fields})")
    if "host" not in table:
        raise VenueError(f"venue {key}: host is missing (the conference site, like colm.cc)")
    if "timezone" not in table:
        raise VenueError(f"venue {key}: timezone is missing (an IANA zone, like Europe/Paris)")
    values: dict[str, Any] = {k: table.get(k) for k in ("name", "timezone", "sites", "booktitle")}
    return make_venue(str(key), table["host"], **values)
