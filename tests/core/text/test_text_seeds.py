"""index_builder.text.render on the real data: all 76 bundled abstracts and every title."""

from __future__ import annotations

import csv
import re
from collections import Counter
from functools import lru_cache

import pytest

from index_builder.text import latex
from index_builder.text.render import extract_code_urls, fold, render
from tests.helpers.paths import ASSETS


@lru_cache(maxsize=1)
def abstracts() -> tuple[str, ...]:
    """Every bundled abstract: header line dropped, one per paragraph."""
    found: list[str] = []
    for path in sorted((ASSETS / "seeds").glob("*.txt")):
        paragraphs = re.split(r"\n\s*\n", path.read_text(encoding="utf-8-sig"))
        body = [p.strip() for p in paragraphs if p.strip()]
        found += [p for p in body if not p.startswith("ICML 2026")]
    return tuple(found)


@lru_cache(maxsize=1)
def titles() -> tuple[str, ...]:
    """Every distinct title of the bundled table."""
    with (ASSETS / "icml2026_events.csv").open(encoding="utf-8", newline="") as handle:
        return tuple(dict.fromkeys(row["title"] for row in csv.DictReader(handle)))


def _find(fragment: str) -> str:
    matches = [a for a in abstracts() if fragment in a]
    assert len(matches) == 1, fragment
    return matches[0]


def test_there_are_76_abstracts() -> None:
    assert len(abstracts()) == 76


@pytest.mark.parametrize("index", range(76))
def test_abstract_renders_clean_and_whole(index: int) -> None:
    raw = abstracts()[index]
    out = render(raw)
    if r"\$" not in raw:
        assert "$" not in out
    assert not re.search(r"\\[A-Za-z]", out), out
    assert "**" not in out
    assert "`" not in out
    assert "''" not in out
    assert "{" not in out.replace("^{", "").replace("_{", "")
    assert out.count("%") == raw.count("%")
    # Every prose word survives, as often as in the source (loosely: as a substring).
    words = Counter(re.findall(r"[a-z0-9]{3,}", re.sub(r"\\[A-Za-z]+", " ", raw).lower()))
    haystack = "".join(re.findall(r"[a-z0-9]+", fold(out).lower()))
    lost = {w: n for w, n in words.items() if haystack.count(w) < n}
    assert not lost
    assert out == " ".join(out.split())


def test_percent_content_survives() -> None:
    raw = _find("92.4% accuracy")
    out = render(raw)
    assert "92.4% accuracy on long-horizon logical reasoning tasks while" in out
    assert raw.rstrip(".").split()[-1] in out


REAL_CASES = [
    ("within $\\pm1\\%$", "within ±1% of the ground truth"),
    ("***both***", "persists across both training and test sets"),
    ("$\\textit{in silico}$", "reported in silico metrics"),
    ("$\\textbf{ProtDBench}$", "We introduce ProtDBench, a standardized"),
    ("\\emph{formal}", "establishes a formal statement"),
    ("Motivated by $\\mu$P", "Motivated by μP and any-dimensional"),
    ("**P**lasticity", "Plasticity Activation via Polar Operator (PAPO)"),
    ("\\mathbf{G}\\leftarrow", "the gradient G as G ← G+λ · polar(G)"),
    ("dataset pruning~(DP)", "dataset pruning (DP) methods"),
    ("LS$^2$MC-GDA, that", "algorithm, LS²MC-GDA, that leverages"),
    ("\\kappa^{3/2}", "complexity of O(κ^{3/2}/Nϵ³) and"),
    ("\\mathcal{O}((2+", "polytree in time 𝒪((2+ϵ)ⁿ) for arbitrarily small ϵ"),
    ("``learning-augmented''", "recent “learning-augmented” methods"),
    ("\\tilde O(", "error η + Õ(Δ^{1/3}/γ), where η upper bounds"),
    ("$\\texttt{HalfCheetah-v5}$", "up to +66% on HalfCheetah-v5 and +53% on Humanoid-v5"),
    ("W^{k, p}", "Sobolev spaces W^{k,p}(ℝᵈ) that perfectly"),
    ("$n \\to \\infty$", "sample size n → ∞, the"),
    ("\\textbf{PRISM}, a novel", "we introduce PRISM, a novel dual-stream"),
    ("M$^2$GenCO, a **M**ulti", "proposes M²GenCO, a Multi-task learning framework"),
    ("''rich''", "the “rich” CompleteP and “lazy”"),
    ("\\url{https://github.com/Shashi456", "at https://github.com/Shashi456/atp-checkers."),
]


@pytest.mark.parametrize(("fragment", "expected"), REAL_CASES)
def test_real_constructs(fragment: str, expected: str) -> None:
    assert expected in render(_find(fragment))


def test_code_links_of_the_bundled_abstracts() -> None:
    found = {url for raw in abstracts() for url in extract_code_urls(raw)}
    assert "https://github.com/google-deepmind/proeval" in found
    assert "https://github.com/Shashi456/atp-checkers" in found
    assert "https://github.com/adrien-lagesse/graph-alignment-benchmark" in found
    assert "https://github.com/DirkLiii/TCSeg" in found
    assert all(re.fullmatch(r"https://github\.com/[\w.-]+/[\w.-]+", url) for url in found)
    assert len(found) == 12
    for raw in abstracts():
        for url in extract_code_urls(raw):
            assert url.removeprefix("https://") in render(raw)


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (r"$\mu$pscaling small models", "μpscaling small models"),
        ("LS$^{2}$MC-GDA: A Smoothed", "LS²MC-GDA: A Smoothed"),
        (r"$\mathbb{R}^{2k}$ is Theoretically", "ℝ²ᵏ is Theoretically"),
        (r"$\mathcal{O}(\log N)$ Latent", "𝒪(log N) Latent"),
        ("Vision--Language Models", "Vision–Language Models"),
        (r"for \emph{De Novo} Peptide", "for De Novo Peptide"),
        ("Token *logprobs*", "Token logprobs"),
        ("``Someone Hid It!'': Query", "“Someone Hid It!”: Query"),
        (r"Norm$\times$Direction", "Norm×Direction"),
        (r"RLV$^{\varepsilon}$R", "RLVᵋR"),
        (r"LoRA on Oversmoothing $\colon$ Understanding", "LoRA on Oversmoothing : Understanding"),
    ],
)
def test_title_examples(raw: str, expected: str) -> None:
    assert any(raw in title for title in titles())
    assert render(raw) == expected


def test_every_title_renders_clean() -> None:
    assert len(titles()) > 6000
    for raw in titles():
        out = render(raw)
        assert "$" not in out and "\\" not in out and "**" not in out, (raw, out)
        assert out.strip() == out and out, raw


def test_real_data_never_needs_the_fallback(monkeypatch: pytest.MonkeyPatch) -> None:
    used: list[str] = []
    original = latex.plain_latex

    def spy(source: str) -> str:
        used.append(source)
        return original(source)

    monkeypatch.setattr(latex, "plain_latex", spy)
    for raw in abstracts() + titles():
        render(raw)
    assert used == []
