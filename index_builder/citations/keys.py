"""Author names split for citing, and citation keys that are stable and unique.

    keys = CitationKeys(catalogue.papers)
    keys.key("some-paper-id")        # -> "huang2026proeval"; aliases are accepted too
    keys.paper_id("huang2026proeval") # -> the paper's id, or None

A key is ``<family name of the first author><year of its venue><first significant title
word>`` (no year when the paper has no venue), folded to lowercase ASCII letters and
digits (``huang2026proeval``); a paper with no known author gets
``anonymous2026<word>``. Papers that share such a base key are ordered by event id
(table order number), then papers without an event id by paper id; the first keeps the
base key and the others get ``a``, ``b``, … ``z``, ``aa``, … in that order. So a key
never changes while the set of papers sharing its base key stays the same. A suffixed
key that would equal another paper's base key is skipped (the next suffix is used).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from index_builder.model import Paper
from index_builder.text.safe import safe
from index_builder.text.words import fold
from index_builder.venues import venue_named


def _words(text: str) -> frozenset[str]:
    """The whitespace-separated words of ``text``."""
    return frozenset(text.split())


PARTICLES = _words(
    "van von der den de del della di da dal das dos du la le des ten ter zu al el bin ibn"
)
# Capitalised, only the particles that are not also given names: "Le" (Phi Le Nguyen) and
# "Bin" (Young Bin Park) stay given names in the ICML 2026 table.
CAPITAL_PARTICLES = _words("Van Von Der Den De Del Della Di Da Dos La")
SUFFIXES = frozenset({"Jr", "Jr.", "Sr", "Sr.", "II", "III", "IV"})
DEGREES = frozenset({"phd", "ph.d.", "md", "m.d.", "msc", "mba", "dr", "prof"})
STOPWORDS = _words(
    """a an the on of in for to and or with without via from by at as is are be can do does
    when what why how which who towards toward into onto over under beyond through not no
    its it this that your our we you"""
)
# Keys are ASCII: Greek letters are spelled out before the common folding.
_GREEK = str.maketrans(
    {
        "α": "alpha", "β": "beta", "γ": "gamma", "δ": "delta", "ε": "epsilon",
        "ϵ": "epsilon", "ζ": "zeta", "η": "eta", "θ": "theta", "κ": "kappa", "λ": "lambda",
        "μ": "mu", "ν": "nu", "ξ": "xi", "π": "pi", "ρ": "rho", "σ": "sigma", "τ": "tau",
        "φ": "phi", "ϕ": "phi", "χ": "chi", "ψ": "psi", "ω": "omega", "ℓ": "l",
        "Δ": "delta", "Σ": "sigma", "Φ": "phi", "Ω": "omega",
    }
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class PersonName:
    """One author's name as cited: given names, family name, suffix (``Jr``)."""

    given: tuple[str, ...]
    family: str
    suffix: str = ""

    def initials(self) -> str:
        """APA initials of the given names: ``Jean-François Zi`` -> ``J.-F. Z.``."""
        parts = []
        for name in self.given:
            pieces = [p for p in name.split("-") if p]
            letters = [_first_letter(p) for p in pieces]
            parts.append("-".join(f"{c}." for c in letters if c))
        return " ".join(p for p in parts if p)


def _first_letter(word: str) -> str:
    """The first letter of a word, upper-cased (``""`` when it has none)."""
    for ch in word:
        if ch.isalpha():
            return ch.upper()
    return ""


def clean_name(name: str) -> str:
    """A name with whitespace collapsed and parenthesised nicknames dropped."""
    plain = re.sub(r"\s+", " ", name).strip()
    without = re.sub(r"\s*\([^()]*\)\s*", " ", plain).strip()
    return without or plain


def split_name(name: str) -> PersonName:
    """Split a published name (``Given Family``) into its cited parts.

    The last word is the family name, with particles before it (``de Frutos``,
    ``Van Valen``, ``Van den Broeck``), a Catalan/Spanish ``i``/``y`` joining two family names and
    a trailing ``Jr``/``III``; a trailing ``, PhD`` is dropped and ``Family,
    Given`` is understood. One word is a family name alone.
    """
    text = clean_name(name)
    if "," in text:
        head, _, tail = text.partition(",")
        tail = tail.strip()
        if tail.lower() in DEGREES or tail in SUFFIXES:
            text = head.strip() if tail.lower() in DEGREES else f"{head.strip()} {tail}"
        elif head.strip() and tail:
            return PersonName(tuple(tail.split()), head.strip())
    words = text.split()
    suffix = ""
    if len(words) > 2 and words[-1] in SUFFIXES:
        suffix = words.pop()
    if len(words) <= 1:
        return PersonName((), words[0] if words else "", suffix)
    start = len(words) - 1
    if start >= 3 and words[start - 1] in ("i", "y"):
        start -= 2
    while start > 1 and (words[start - 1] in PARTICLES or words[start - 1] in CAPITAL_PARTICLES):
        start -= 1
    return PersonName(tuple(words[:start]), " ".join(words[start:]), suffix)


def ascii_fold(text: str) -> str:
    """The ASCII letters and digits of ``text`` folded (:func:`~index_builder.text.words.fold`).

    Greek letters are spelled out first (``α`` -> ``alpha``).
    """
    # Escape sequences go whole first: "\x1b[31mred" must not leave "31mred" in a key.
    folded = fold(safe(text).translate(_GREEK))
    return "".join(ch for ch in folded if ch.isascii() and ch.isalnum())


def title_word(title: str) -> str:
    """The first word of a title that is not a stop word, folded (``"paper"`` if none)."""
    for word in title.split():
        folded = ascii_fold(word)
        if folded and folded not in STOPWORDS:
            return folded
    for word in title.split():
        if folded := ascii_fold(word):
            return folded
    return "paper"


def family_word(author: str) -> str:
    """The first author's part of a key: the folded family name, else any ASCII in the name."""
    return ascii_fold(split_name(author).family) or ascii_fold(author) or "author"


def paper_year(paper: Paper) -> str:
    """The year of the paper's venue (``ICML 2026`` -> ``2026``); ``""`` when it has none."""
    known = venue_named(paper.venue) if paper.venue else None
    if known is not None:
        return str(known.year)
    found = re.search(r"\b(19|20)\d\d\b", paper.venue)
    return found.group() if found else ""


def base_key(paper: Paper) -> str:
    """The key before collisions are resolved: ``huang2026proeval`` (no year when unknown)."""
    who = family_word(paper.authors[0]) if paper.authors else "anonymous"
    return f"{who}{paper_year(paper)}{title_word(paper.title)}"


def _suffixes() -> Iterator[str]:
    """``a`` … ``z``, ``aa``, ``ab`` … (bijective base 26)."""
    n = 1
    while True:
        out, k = "", n
        while k:
            k, rem = divmod(k - 1, 26)
            out = chr(ord("a") + rem) + out
        yield out
        n += 1


def _stable_order(paper: Paper) -> tuple[int, int, str]:
    """Event id first (numeric), then papers without one by id."""
    if paper.event_id is None:
        return (1, 0, paper.id)
    return (0, paper.event_id, paper.id)


class CitationKeys:
    """Unique citation keys for every paper of a catalogue (see the module docstring)."""

    def __init__(self, papers: Sequence[Paper]) -> None:
        groups: dict[str, list[Paper]] = {}
        for paper in papers:
            groups.setdefault(base_key(paper), []).append(paper)
        taken = set(groups)
        self._by_id: dict[str, str] = {}
        self._by_key: dict[str, str] = {}
        for base in sorted(groups):
            members = sorted(groups[base], key=_stable_order)
            self._by_key[base] = members[0].id
            suffixes = _suffixes()
            for paper in members[1:]:
                key = base + next(suffixes)
                while key in taken:
                    key = base + next(suffixes)
                taken.add(key)
                self._by_key[key] = paper.id
        for key, pid in self._by_key.items():
            self._by_id.setdefault(pid, key)
        # Aliases only after every id, so an alias never hides a paper's own id.
        for paper in papers:
            for alias in paper.aliases:
                self._by_id.setdefault(alias, self._by_id[paper.id])

    def key(self, paper_id: str) -> str:
        """The key of a paper by id or alias; raises ``KeyError`` for an unknown id."""
        return self._by_id[paper_id]

    def get(self, paper_id: str) -> str | None:
        """The key of a paper by id or alias, or ``None``."""
        return self._by_id.get(paper_id)

    def paper_id(self, key: str) -> str | None:
        """The id of the paper cited as ``key``, or ``None``."""
        return self._by_key.get(key)

    def __len__(self) -> int:
        """How many papers have a key."""
        return len(self._by_key)
