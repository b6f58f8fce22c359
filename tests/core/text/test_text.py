"""Unit and property tests of index_builder.text.render: render, links, safe, fold."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from index_builder.text import latex
from index_builder.text.render import extract_code_urls, extract_urls, fold, render, safe

EXAMPLES = [
    (r"$\mu P$", "μP"),
    (r"$W^{k, p}(\mathbb{R}^d)$", "W^{k,p}(ℝᵈ)"),
    (r"$\textit{de novo}$", "de novo"),
    (r"\textbf{PRISM}", "PRISM"),
    (r"\emph{formal} and \texttt{HalfCheetah-v5}", "formal and HalfCheetah-v5"),
    ("**P**lasticity **A**ctivation", "Plasticity Activation"),
    ("across ***both*** sets, *x* and _y_", "across both sets, x and y"),
    ("`code` here", "code here"),
    ("``learning-augmented'' methods", "“learning-augmented” methods"),
    ("`AI Alignment' Encompasses", "‘AI Alignment’ Encompasses"),
    ("the ''rich'' regime", "the “rich” regime"),
    ("Just \"Fix it in Post'': A", "Just “Fix it in Post”: A"),
    ("8--65x and a---b", "8–65x and a—b"),
    (r"within $\pm1\%$ of", "within ±1% of"),
    (r"over 40\% and 95 \% and 60% success", "over 40% and 95 % and 60% success"),
    (r"\& and \_ and \#", "& and _ and #"),
    ("dataset pruning~(DP) methods", "dataset pruning (DP) methods"),
    (r"$\mathcal{O}((2+\epsilon)^n)$", "𝒪((2+ϵ)ⁿ)"),
    (r"$\mathcal{O}(\log N)$", "𝒪(log N)"),
    (r"$\tilde O(\Delta^{1/3}/\gamma)$", "Õ(Δ^{1/3}/γ)"),
    (r"$\tilde{O}(n)$", "Õ(n)"),
    (r"$O(\kappa^{3/2}/N\epsilon^3)$", "O(κ^{3/2}/Nϵ³)"),
    (r"$\sqrt{n}$ and $\sqrt{n+1}$", "√n and √(n+1)"),
    (r"$\frac{a}{b}$ and $\frac{1}{T+1}$", "a/b and 1/(T+1)"),
    (r"$3\times$ and $a \leq b$", "3× and a ≤ b"),
    (r"$n \to \infty$ and $p \in [1, \infty)$", "n → ∞ and p ∈ [1, ∞)"),
    (r"$\mathbf{G}\leftarrow \mathbf{G}+\lambda \cdot x$", "G ← G+λ · x"),
    (r"$\alpha$, $\beta$-VAE, $\Delta$", "α, β-VAE, Δ"),
    (r"LS$^{2}$MC-GDA and M$^2$GenCO", "LS²MC-GDA and M²GenCO"),
    (r"$\mu$pscaling", "μpscaling"),
    (r"$(L_0,L_1)$-Smoothness and $\ell_\infty$", "(L₀,L₁)-Smoothness and ℓ_∞"),
    (r"$\text{DT}^\text{2}$ and $\texttt{Multi}^2$", "DT² and Multi²"),
    (r"$\underline{\text{F}}$ramework", "Framework"),
    (r"$+66$% on", "+66% on"),
    ("Schur-A*: pruning via Guided A* Search", "Schur-A*: pruning via Guided A* Search"),
    ("uses snake_case_name and __init__ files", "uses snake_case_name and __init__ files"),
    ("costs $5 and $10", "costs $5 and $10"),
    (r"a literal \$ sign", "a literal $ sign"),
]


@pytest.mark.parametrize(("raw", "expected"), EXAMPLES)
def test_render_examples(raw: str, expected: str) -> None:
    assert render(raw) == expected


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("see https://github.com/a_b/c_d%20x~y_.", "see https://github.com/a_b/c_d%20x~y_."),
        (
            r"at \url{https://github.com/Shashi456/atp-checkers}.",
            "at https://github.com/Shashi456/atp-checkers.",
        ),
        (r"\href{https://x.org/a_b}{our site}", "our site (https://x.org/a_b)"),
        (r"\href{https://x.org/a}{https://x.org/a}", "https://x.org/a"),
        ("[code](https://github.com/o/r_1) now", "code (https://github.com/o/r_1) now"),
        (r"at https://github.com/o/my\_repo.", "at https://github.com/o/my_repo."),
        ("Code: github.com/DirkLiii/TCSeg.", "Code: github.com/DirkLiii/TCSeg."),
        ("*see https://a.org/x_y_z*", "see https://a.org/x_y_z"),
    ],
)
def test_render_keeps_urls_intact(raw: str, expected: str) -> None:
    assert render(raw) == expected


def test_percent_is_not_a_comment() -> None:
    raw = "achieves 92.4% accuracy on long tasks while $x$ 50%of the rest"
    assert render(raw) == "achieves 92.4% accuracy on long tasks while x 50%of the rest"
    # Only pylatexenc (not the fallback) turns TeX quotes into curly ones.
    assert render("``a'' costs 5% of ``b''") == "“a” costs 5% of “b”"


def test_unbalanced_braces_and_dollars_keep_every_word() -> None:
    out = render(r"one} two { three \textbf{four $five six")
    for word in ("one", "two", "three", "four", "five", "six"):
        assert word in out
    assert "$" in out  # a lone dollar is a dollar


def test_whitespace_and_paragraphs() -> None:
    assert render("a  b\n c\t d") == "a b c d"
    assert render("first $x$\n\n  second\r\n\r\nthird") == "first x\nsecond\nthird"
    assert render("") == ""
    assert render("   ") == ""


def test_unknown_macros_keep_their_name() -> None:
    assert render(r"the \ProEval method") == "the ProEval method"


def test_fallback_when_pylatexenc_raises(monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(source: str) -> str:
        raise ValueError("parser broke")

    monkeypatch.setattr(latex, "latex_text", boom)
    monkeypatch.setattr(latex, "latex_math", boom)
    assert render(r"We \textbf{propose} $x$ at 50% cost~today") == "We propose x at 50% cost today"


def test_fallback_when_pylatexenc_loses_words(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(latex, "latex_text", lambda source: source[:5])
    assert render(r"We \emph{propose} a method") == "We propose a method"


def test_placeholder_characters_in_input_do_not_break_render() -> None:
    assert render("a \U000f0000 b $x$") == "a b x"


def test_extract_urls() -> None:
    raw = (
        r"See https://github.com/a/b. and \url{https://x.org/p_q}, "
        r"\href{https://y.org/r}{here} [t](https://z.org/(s)) (https://github.com/a/b) "
        r"and https://w.org/my\_file.pdf; http://plain.org/x), www.example.org/page."
    )
    assert extract_urls(raw) == (
        "https://github.com/a/b",
        "https://x.org/p_q",
        "https://y.org/r",
        "https://z.org/(s)",
        "https://w.org/my_file.pdf",
        "http://plain.org/x",
        "https://www.example.org/page",
    )
    assert extract_urls("no links here") == ()


def test_extract_code_urls() -> None:
    raw = (
        "Code at https://github.com/o/r and https://o.github.io/proj, models at "
        "https://huggingface.co/o/m, https://gitlab.inria.fr/g/p, https://github.com/, "
        "paper at https://arxiv.org/abs/1, github.com/DirkLiii/TCSeg."
    )
    assert extract_code_urls(raw) == (
        "https://github.com/o/r",
        "https://huggingface.co/o/m",
        "https://gitlab.inria.fr/g/p",
        "https://github.com/DirkLiii/TCSeg",
    )


def test_safe_strips_escapes_controls_and_bidi() -> None:
    raw = (
        "a\x1b[31mred\x1b[0m b\x1b]0;title\x07c\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\ "
        "d\x9b2Je\x9d0;t\x9cf\x1bPdcs\x1b\\g\x00h\x7fi\x85j\u202eevil\u202c\u2066k\u2069\rl"
        "\tm\nn"
    )
    assert safe(raw) == "ared bclink defghijevilkl\tm\nn"


def test_safe_keeps_ordinary_unicode() -> None:
    assert safe("Rényi – μP “x” 论文") == "Rényi – μP “x” 论文"


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("Wang–Landau", "Wang-Landau"),
        ("a‐b‑c‒d—e―f−g", "a-b-c-d-e-f-g"),
        ("Rényi Gödel Øresund Straße Łódź", "Renyi Godel Oresund Strasse Lodz"),
        ("“quoted” ‘single’", "\"quoted\" 'single'"),
        ("ﬁne 𝒪 ℝ x²", "fine O R x2"),
    ],
)
def test_fold(raw: str, expected: str) -> None:
    assert fold(raw) == expected


_ALPHABET = st.sampled_from(
    list("abcXYZ019 \n\t") + list("\\$*_`~{}%^&#[]()-'\"<>|/.:") + ["\x1b", "\x9b", "é", "–"]
)


@pytest.mark.usefixtures("text_table")
@settings(max_examples=400, deadline=None)
@given(st.text())
def test_nothing_raises_on_any_text(raw: str) -> None:
    assert isinstance(render(raw), str)
    assert isinstance(safe(raw), str)
    assert isinstance(fold(raw), str)
    assert isinstance(extract_code_urls(raw), tuple)


def _prose_words(raw: str) -> list[str]:
    raw = re.sub(r"\\(?:begin|end)\s*\{[^{}]*\}|\\[A-Za-z]+", " ", raw)
    return re.findall(r"[a-z0-9]+", fold(raw).lower())


@pytest.mark.usefixtures("text_table")
@settings(max_examples=400, deadline=None)
@given(st.text(_ALPHABET, max_size=80))
def test_render_never_loses_a_word(raw: str) -> None:
    rendered = "".join(re.findall(r"[a-z0-9]+", fold(render(raw)).lower()))
    for word in _prose_words(raw):
        assert word in rendered


@pytest.mark.usefixtures("text_table")
@settings(max_examples=400, deadline=None)
@given(st.text(_ALPHABET, max_size=80) | st.text())
def test_safe_leaves_no_control_characters(raw: str) -> None:
    out = safe(raw)
    assert not re.search("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]", out)
    assert safe(out) == out


_LINKISH = st.lists(
    st.sampled_from(
        [*"abcwWgGhHtTpPsSuUrRlLiIoOmMkK./:\\[](){} _-@",
           "www.", "http://", "HTTPS://", "github.com/", "GitLab.COM/", "huggingface.co/",
           "bitbucket.ORG/", "\\url{", "\\href{", "](", "\u0131", "\u212a", "\u017f"]
    ),
    max_size=30,
).map("".join)  # fmt: skip


def _links_found(text: str) -> list[str]:
    from index_builder.text.links import LINK

    return [m.group(0) for m in LINK.finditer(text)]


@given(_LINKISH)
@settings(max_examples=500, deadline=None)
def test_text_the_link_prefilter_never_skips_a_link(text: str) -> None:
    from index_builder.text.links import may_link

    assert may_link(text) or not _links_found(text)


def test_text_the_link_prefilter_on_real_abstracts() -> None:
    from index_builder.text.links import may_link
    from tests.helpers.arxiv_papers import arxiv_papers, sample_path

    if sample_path() is None:
        pytest.skip("the arXiv sample is not on this machine")
    texts = [p.abstract for p in arxiv_papers(4000).papers]
    linked = [bool(_links_found(t)) for t in texts]  # the scan, once a text
    skipped = [n for n, t in enumerate(texts) if not may_link(t)]
    assert len(skipped) > len(texts) // 3  # the prefilter spares most abstracts the scan
    assert not [texts[n] for n in skipped if linked[n]]
    assert sum(linked) > 100


_SPACES = " \t\n\r\x0b\x0c\x1c\x1f\x85\xa0\u1680\u2003\u2028\u2029\u202f\u3000"


@settings(max_examples=600, deadline=None)
@given(st.text(_SPACES + "ab.é\U000f0001", max_size=40) | st.text())
def test_a_text_without_markup_is_its_words_one_space_apart(raw: str) -> None:
    """The text without markup: each paragraph's words one space apart, as they were
    joined before printable texts with single spaces were handed back stripped."""
    if any(sign in raw for sign in ("\\", "$", "*", "_", "`", "~", "{", "}", "[", '"', "--", "''")):
        return
    text = re.sub("[\U000f0000-\U000ffffd]", "", raw.replace("\r\n", "\n").replace("\r", "\n"))
    paragraphs = (" ".join(p.split()) for p in re.split(r"\n[ \t\f\v]*\n\s*", text))
    assert render(raw) == "\n".join(p for p in paragraphs if p)


@given(_LINKISH | st.text())
@settings(max_examples=600, deadline=None)
def test_the_links_first_letter_look_ahead_changes_no_match(text: str) -> None:
    """``LINK`` looks for a kind's first letter before trying the kinds: it finds what the
    kinds alone find, each match with the same groups (case folded as they are)."""
    import re

    from index_builder.text.links import LINK, LINK_KINDS

    alone = re.compile(LINK_KINDS, re.I)
    assert [(m.span(), m.groupdict()) for m in LINK.finditer(text)] == [
        (m.span(), m.groupdict()) for m in alone.finditer(text)
    ]
