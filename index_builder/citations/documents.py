"""Whole files in the reference managers' exchange formats, for one paper or many.

    exchange_text(refs, "ris")      # CRLF lines, one record per reference
    exchange_text(refs, "csljson")  # one JSON array
    cite(paper, "ris", key="huang2026proeval")  # any of CITE_STYLES, for one paper

Both the ``cite`` command and the reading-list export write them through here; the
citation picker and ``cite`` take every style of :data:`CITE_STYLES` from :func:`cite`.
"""

from __future__ import annotations

from collections.abc import Sequence

from index_builder.citations import styles
from index_builder.citations.csl import to_csl_json
from index_builder.citations.exchange import Reference, reference
from index_builder.citations.ris import to_ris
from index_builder.model import Paper

EXCHANGE_FORMATS: tuple[str, ...] = ("ris", "csljson")
"""The formats reference managers import, as ``cite --style`` and exports name them."""
CITE_STYLES: tuple[str, ...] = (*styles.STYLES, *EXCHANGE_FORMATS)
"""Every style one paper can be cited in; the first is the default."""


def exchange_text(refs: Sequence[Reference], fmt: str) -> str:
    """The file of ``refs`` in ``fmt`` (one of :data:`EXCHANGE_FORMATS`)."""
    if fmt == "ris":
        return to_ris(refs)
    if fmt == "csljson":
        return to_csl_json(refs)
    raise ValueError(f"unknown exchange format {fmt!r}: use one of {', '.join(EXCHANGE_FORMATS)}")


def cite(paper: Paper, style: str, key: str | None = None) -> str:
    """The citation of ``paper`` in ``style`` (one of :data:`CITE_STYLES`): RIS as one
    record without its last CRLF and CSL-JSON as a one-item array, as text to copy.

    Raises ``ValueError`` for an unknown style.
    """
    if style in EXCHANGE_FORMATS:
        return exchange_text([reference(paper, key)], style).rstrip("\r\n")
    if style not in styles.STYLES:
        raise ValueError(f"unknown citation style {style!r}; use one of {', '.join(CITE_STYLES)}")
    return styles.cite(paper, style, key)
