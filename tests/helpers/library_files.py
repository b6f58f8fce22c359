"""Library exports written the way Zotero writes them (its translators ``BibTeX.js``,
``RIS.js`` and ``CSL JSON.js`` in zotero/translators), for the library tests.

BibTeX: ``@type{citekey,`` then one field a line, indented by a tab, values in braces
(capitals protected by braces in titles), ``month = dec`` as a bare macro, the arXiv id in
``note = {arXiv:…}``, authors as ``Last, First and …``, a trailing comma and a blank line
between entries. RIS: ``TAG  - value`` lines ended by CRLF, one ``AU`` per author as
``Last, First``, ``ER  - `` closing each record. CSL-JSON: a list of items with
``author: [{"family", "given"}]``, ``issued: {"date-parts": [[year, month, day]]}``,
``DOI``, ``URL`` and ``number`` (``arXiv:…``) for preprints.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Item:
    """One library item as a user's Zotero holds it."""

    key: str
    title: str
    authors: tuple[tuple[str, str], ...]
    """(family, given) pairs."""
    year: int = 2025
    abstract: str = ""
    doi: str = ""
    url: str = ""
    arxiv: str = ""


def _protect(title: str) -> str:
    """Zotero's BibTeX protects capitalised words with braces (``{Is}``)."""
    return re.sub(r"\b([A-Z][\w-]*)", r"{\1}", title)


def _escaped(text: str) -> str:
    """Braces, ``%``, ``&``, ``#`` and ``_`` escaped with a backslash, as BibTeX.js does."""
    return re.sub(r"([{}%&#_])", r"\\\1", text)


def bibtex(items: list[Item]) -> str:
    """A Zotero BibTeX export of ``items``."""
    out = []
    for it in items:
        kind = "misc" if it.arxiv else "inproceedings"
        lines = [f"@{kind}{{{it.key},", f"\ttitle = {{{_protect(it.title)}}},"]
        if it.url:
            lines.append(f"\turl = {{{it.url}}},")
        if it.doi:
            lines.append(f"\tdoi = {{{it.doi}}},")
        if it.abstract:
            lines.append(f"\tabstract = {{{_escaped(it.abstract)}}},")
        if it.arxiv:
            lines.append("\tpublisher = {arXiv},")
        people = " and ".join(f"{f}, {g}" for f, g in it.authors)
        lines += [f"\tauthor = {{{people}}},", "\tmonth = dec,", f"\tyear = {{{it.year}}},"]
        if it.arxiv:
            lines.append(f"\tnote = {{arXiv:{it.arxiv} [cs]}},")
        lines.append("\tkeywords = {Computer Science - Machine Learning},")
        out.append("\n".join(lines) + "\n}\n")
    return "\n" + "\n".join(out)


def ris(items: list[Item]) -> str:
    """A Zotero RIS export of ``items`` (CRLF line ends, as RIS.js writes)."""
    out = []
    for it in items:
        lines = [f"TY  - {'JOUR' if it.arxiv else 'CONF'}", f"TI  - {it.title}"]
        lines += [f"AU  - {f}, {g}" for f, g in it.authors]
        if it.abstract:
            lines.append(f"AB  - {it.abstract}")
        lines += [f"DA  - {it.year}/12/05/", f"PY  - {it.year}"]
        if it.doi:
            lines.append(f"DO  - {it.doi}")
        if it.url:
            lines.append(f"UR  - {it.url}")
        if it.arxiv:
            lines.append(f"N1  - arXiv:{it.arxiv} [cs]")
        lines += ["KW  - Computer Science - Machine Learning", "ER  - ", ""]
        out.append("\r\n".join(lines))
    return "\r\n".join(out)


def csl_json(items: list[Item]) -> str:
    """A Zotero CSL-JSON export of ``items``."""
    data = []
    for it in items:
        item: dict[str, object] = {
            "id": f"http://zotero.org/users/1/items/{it.key.upper()[:8]}",
            "type": "article" if it.arxiv else "paper-conference",
            "title": it.title,
            "author": [{"family": f, "given": g} for f, g in it.authors],
            "issued": {"date-parts": [[it.year, 12, 5]]},
        }
        if it.abstract:
            item["abstract"] = it.abstract
        if it.doi:
            item["DOI"] = it.doi
        if it.url:
            item["URL"] = it.url
        if it.arxiv:
            item["number"] = f"arXiv:{it.arxiv}"
            item["publisher"] = "arXiv"
        data.append(item)
    return json.dumps(data, indent="\t", ensure_ascii=False)


ATTENTION = Item(
    "vaswani_attention_2017",
    "Attention Is All You Need",
    (("Vaswani", "Ashish"), ("Shazeer", "Noam")),
    2017,
    abstract="The dominant sequence transduction models are based on recurrent networks.",
    doi="10.48550/arXiv.1706.03762",
    url="http://arxiv.org/abs/1706.03762",
    arxiv="1706.03762",
)
"""A preprint as Zotero saves it from arXiv (DOI, URL and note all name the arXiv id)."""
TVI_COT = Item(
    "hu_tvi-cot_2026",
    "TVI-CoT: Text-Visual Interleaved Chain-of-Thought Reasoning for Multimodal Understanding",
    (("Hu", "Lianyu"), ("Ma", "Xiaoyu")),
    2026,
    url="https://openreview.net/forum?id=O4PweOea13",
)
"""A bundled ICML 2026 paper (event 64393), known to Zotero by its OpenReview page."""
RUBRIC = Item(
    "sharma_rubricrobustness_2026",
    "RubricRobustness: a simple framework for evaluating the robustness of rubrics-based "
    "benchmarks",
    (("Sharma", "M."),),
    2026,
)
"""A bundled ICML 2026 paper (event 65214) by title (other case) and a shared author only."""
