"""Citations: four styles, BibTeX a real parser reads back, keys unique over the catalogue."""

from __future__ import annotations

import re

import bibtexparser
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pylatexenc.latex2text import LatexNodes2Text, MacroTextSpec, get_default_latex_context_db

from index_builder.catalogue.load import Catalogue
from index_builder.citations.keys import ascii_fold, base_key, split_name
from index_builder.citations.styles import STYLES, CitationKeys, cite
from index_builder.model import Paper

PROEVAL_AUTHORS = ("Yizheng Huang", "Wenjun Zeng", "Aditi Kumaresan", "Zi Wang")
BOOKTITLE = "Proceedings of the 43rd International Conference on Machine Learning"


def _decoder() -> LatexNodes2Text:
    """LaTeX to text, knowing the text-mode escapes the citations write; math kept verbatim."""
    db = get_default_latex_context_db()
    specs = {
        "textbraceleft": "{",
        "textbraceright": "}",
        "textbackslash": "\\",
        "textasciitilde": "~",
        "textasciicircum": "^",
    }
    db.add_context_category(
        "paperscope", prepend=True, macros=[MacroTextSpec(k, v) for k, v in specs.items()]
    )
    return LatexNodes2Text(latex_context=db, math_mode="verbatim")


DECODE = _decoder()


@pytest.fixture(scope="module")
def papers(bundled_catalogue: Catalogue) -> list[Paper]:
    """Every paper of the bundled data (the session's catalogue, loaded from the warm cache)."""
    return list(bundled_catalogue.papers)


def parse_one(entry: str) -> dict[str, str]:
    """Parse one BibTeX entry with bibtexparser; fail unless it is exactly one clean entry."""
    library = bibtexparser.parse_string(entry)
    assert not library.failed_blocks, entry
    assert len(library.entries) == 1, entry
    fields = {f.key: f.value for f in library.entries[0].fields}
    fields["ID"] = library.entries[0].key
    return fields


_NOT_BRACES = re.compile(r"[^{}]+")


def balanced(text: str) -> bool:
    """Braces balance as BibTeX counts them.

    Only the braces are walked (the rest dropped first): the whole-catalogue test checks
    6,628 entries, and a step for every character was most of its CPU.
    """
    depth = 0
    for brace in _NOT_BRACES.sub("", text):
        depth += 1 if brace == "{" else -1
        if depth < 0:
            return False
    return depth == 0


def paper(**kw: object) -> Paper:
    """A small paper with sensible defaults."""
    base: dict[str, object] = {
        "id": "p1",
        "title": "A Study of Things",
        "title_raw": "A Study of Things",
        "authors": ("Ada Lovelace", "Charles Babbage"),
        "openreview_url": "https://openreview.net/forum?id=abc",
        "url": "https://icml.cc/virtual/2026/poster/1",
        "event_id": 1,
        "venue": "ICML 2026",
    }
    base.update(kw)
    return Paper(**base)  # type: ignore[arg-type]


def find(papers: list[Paper], prefix: str) -> Paper:
    """The paper whose title starts with ``prefix``."""
    return next(p for p in papers if p.title.startswith(prefix))


# --- the ProEval paper and a LaTeX title -------------------------------------------------


def test_proeval_cites_its_four_real_authors(papers: list[Paper]) -> None:
    proeval = find(papers, "ProEval")
    assert proeval.authors == PROEVAL_AUTHORS
    keys = CitationKeys(papers)
    entry = cite(proeval, "bibtex", key=keys.key(proeval.id))
    fields = parse_one(entry)
    assert fields["ID"] == "huang2026proeval"
    assert fields["author"] == "Huang, Yizheng and Zeng, Wenjun and Kumaresan, Aditi and Wang, Zi"
    assert fields["title"].startswith("{ProEval}: Proactive Failure Discovery")
    assert fields["booktitle"] == BOOKTITLE
    assert fields["series"] == "Proceedings of Machine Learning Research"
    assert fields["publisher"] == "PMLR"
    assert fields["year"] == "2026"
    assert fields["url"] == proeval.openreview_url
    assert fields["url"].startswith("https://openreview.net/forum?id=")
    apa = cite(proeval, "apa")
    assert apa.startswith("Huang, Y., Zeng, W., Kumaresan, A., & Wang, Z. (2026). ProEval: ")
    assert f"In {BOOKTITLE} (Proceedings of Machine Learning Research). PMLR. https://" in apa
    assert cite(proeval, "markdown") == (
        f"[{proeval.title}]({proeval.openreview_url}) — {', '.join(PROEVAL_AUTHORS)} (ICML 2026)"
    )
    assert cite(proeval, "plain") == (
        f"{', '.join(PROEVAL_AUTHORS)}. {proeval.title}. ICML 2026. {proeval.openreview_url}"
    )


def test_latex_title_is_kept_as_latex_and_protected(papers: list[Paper]) -> None:
    mup = find(papers, "μpscaling")
    fields = parse_one(cite(mup, "bibtex"))
    assert fields["title"].startswith("{$\\mu$pscaling} small models")
    assert DECODE.latex_to_text(fields["title"]) == mup.title_raw
    assert cite(mup, "plain").split(". ")[1].startswith("μpscaling small models")


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("T$^2$PO: Exploration", "{T$^2$PO}: Exploration"),
        ("Task & Data-Optimized Models", "Task \\& {Data-Optimized} Models"),
        ("UI2Code^N: UI-to-Code", "{UI2Code\\textasciicircum{}N}: {UI-to-Code}"),
        ("for \\emph{De Novo} Peptides", "for {{\\emph{De Novo}}} Peptides"),
        ("Should I Have 3D LLMs?", "Should {I} Have {3D} {LLMs}?"),
        ("50\\% of #1 a_b ~x", "50\\% of \\#1 a\\_b \\textasciitilde{}x"),
    ],
)
def test_title_escaping_and_protection(raw: str, expected: str) -> None:
    assert parse_one(cite(paper(title=raw, title_raw=raw), "bibtex"))["title"] == expected


# --- the whole catalogue ------------------------------------------------------------------


@pytest.fixture(scope="module")
def cited(papers: list[Paper]) -> tuple[list[str], bibtexparser.Library]:
    """Every paper's BibTeX entry (with the catalogue's unique keys), and all of them parsed.

    Shared by the whole-catalogue tests below: citing and parsing 6,628 papers takes seconds.
    """
    keys = CitationKeys(papers)
    entries = [cite(p, "bibtex", key=keys.key(p.id)) for p in papers]
    return entries, bibtexparser.parse_string("\n\n".join(entries))


def test_every_paper_gives_one_valid_entry_with_a_unique_key(
    papers: list[Paper], cited: tuple[list[str], bibtexparser.Library]
) -> None:
    assert sum(1 for p in papers if p.event_id is not None) == 6628
    entries, library = cited
    assert all(balanced(e) for e in entries)
    assert not library.failed_blocks
    assert len(library.entries) == len(papers) >= 6628
    ids = [e.key for e in library.entries]
    assert len(set(ids)) == len(ids)
    for entry, p in zip(library.entries, papers, strict=True):
        fields = {f.key: f.value for f in entry.fields}
        if p.venue:  # a table paper: ICML 2026's proceedings and year
            assert re.fullmatch(r"[a-z0-9]+2026[a-z0-9]+", entry.key)
            assert (entry.entry_type, fields["booktitle"]) == ("inproceedings", BOOKTITLE)
            assert fields["year"] == "2026"
        else:  # an abstract alone says nothing of its venue: nothing is invented
            assert entry.entry_type == "misc" and "2026" not in entry.key
            assert "booktitle" not in fields and "year" not in fields
        assert balanced(fields["title"])
        if p.authors:
            assert fields["author"].count(" and ") == len(p.authors) - 1
        else:
            assert "author" not in fields
        assert fields.get("url", "") == (p.openreview_url or p.url)


def test_every_title_reads_back_as_the_paper_title(
    papers: list[Paper], cited: tuple[list[str], bibtexparser.Library]
) -> None:
    """Decoded BibTeX titles are the titles: braces only protect, escapes print the character."""
    _entries, library = cited
    assert len(library.entries) == len(papers)  # one entry per paper, in the papers' order
    checked_by_latex = 0
    for entry, p in zip(library.entries, papers, strict=True):
        if p.title_derived:
            continue
        title = entry.fields_dict["title"].value
        source = " ".join((p.title_raw or p.title).split())
        if "\\" not in title and not re.search(r"[$\\{}\"\u201c\u201d\u2018\u2019]", source):
            assert title.replace("{", "").replace("}", "") == source, p.id
            continue
        checked_by_latex += 1
        decoded = DECODE.latex_to_text(title)
        assert ascii_fold(decoded) == ascii_fold(DECODE.latex_to_text(source)), p.id
        if not re.search(r"[$\\{}\"\u201c\u201d\u2018\u2019]|''|``|--", source):
            assert decoded == source, p.id
    assert checked_by_latex >= 90


@pytest.mark.parametrize("char", ["&", "$"])
def test_data_titles_with_special_characters_are_safe(papers: list[Paper], char: str) -> None:
    hits = [p for p in papers if char in p.title_raw and not p.title_derived]
    assert len(hits) >= 10, f"the data has titles with {char}"
    for p in hits:
        fields = parse_one(cite(p, "bibtex"))
        if char == "&":
            assert "\\&" in fields["title"]
            assert "&" in DECODE.latex_to_text(fields["title"])
        else:
            assert fields["title"].count("$") % 2 == 0


@pytest.mark.parametrize("char", ["&", "$", "%", "#", "_", "~", "^"])
def test_special_characters_print_as_themselves(char: str) -> None:
    title = f"Cost {char} Benefit {char}1"
    fields = parse_one(cite(paper(title=title, title_raw=title), "bibtex"))
    assert DECODE.latex_to_text(fields["title"]) == title
    assert not re.search(rf"(?<!\\){re.escape(char)}(?!\{{}})", fields["title"].replace("{}", ""))


@pytest.mark.parametrize(
    "title",
    [
        "Unbalanced } closing",
        "Unbalanced { opening",
        "}{ reversed",
        "A lone \\ backslash",
        "Trailing backslash \\",
        "@comment{ sneaky } and @inproceedings{x, title={y}}",
        "Odd $ dollar",
        "Math $}{$ braces",
        "\\emph{never closed",
        "100% #1 a_b ~ ^ & $$",
        "Line\nbreak\tand\x1b[31m escape\x07",
    ],
)
def test_hostile_titles_stay_one_valid_entry(title: str) -> None:
    entry = cite(paper(title=title, title_raw=title), "bibtex", key="lovelace2026x")
    assert balanced(entry)
    fields = parse_one(entry)
    assert fields["ID"] == "lovelace2026x"
    assert fields["booktitle"] == BOOKTITLE
    assert "\x1b" not in entry and "\n" not in fields["title"]
    visible = DECODE.latex_to_text(fields["title"])
    for word in re.findall(r"[A-Za-z]{4,}", title.replace("31m", "")):
        assert word in visible


@pytest.mark.usefixtures("text_table")
@settings(max_examples=200, deadline=None)
@given(
    title=st.text(min_size=1, max_size=60),
    authors=st.lists(st.text(min_size=1, max_size=20), max_size=4),
)
def test_any_text_gives_one_parseable_entry(title: str, authors: list[str]) -> None:
    p = paper(title=title, title_raw=title, authors=tuple(authors))
    entry = cite(p, "bibtex", key="k2026x")
    assert balanced(entry)
    parse_one(entry)
    for style in STYLES[1:]:
        assert "\n" not in cite(p, style)


# --- missing data: nobody invented, nothing passed off --------------------------------------


def test_unknown_authors_are_said_and_not_invented() -> None:
    p = paper(authors=(), title="Learning Things", title_raw="Learning Things")
    fields = parse_one(cite(p, "bibtex"))
    assert "author" not in fields
    assert fields["note"] == "Authors unknown"
    assert fields["ID"] == "anonymous2026learning"
    assert cite(p, "apa").startswith("Learning Things. (2026). In Proceedings of the 43rd")
    assert "Authors unknown" in cite(p, "markdown")
    assert cite(p, "plain").startswith("Authors unknown. Learning Things. ICML 2026.")


def test_derived_title_is_marked_in_every_style() -> None:
    p = paper(title="We study things at scale", title_raw="", title_derived=True, authors=())
    fields = parse_one(cite(p, "bibtex"))
    assert DECODE.latex_to_text(fields["title"]) == (
        "[Untitled; title derived from the abstract: We study things at scale]"
    )
    assert "Authors unknown" in fields["note"] and "derived from the abstract" in fields["note"]
    for style in ("apa", "markdown", "plain"):
        assert "[Untitled; title derived from the abstract" in cite(p, style).replace("\\", "")


def test_url_falls_back_and_only_http_is_used() -> None:
    assert parse_one(cite(paper(openreview_url=""), "bibtex"))["url"].startswith("https://icml.cc")
    none = paper(openreview_url="javascript:alert(1)", url="")
    assert "url" not in parse_one(cite(none, "bibtex"))
    assert cite(none, "markdown").startswith("A Study of Things — ")
    assert cite(none, "plain").endswith("ICML 2026.")


def test_unknown_style_is_an_error() -> None:
    with pytest.raises(ValueError, match="unknown citation style"):
        cite(paper(), "chicago")


# --- authors ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "given", "family", "initials"),
    [
        ("Zi Wang", ("Zi",), "Wang", "Z."),
        ("Jean-François Godbout", ("Jean-François",), "Godbout", "J.-F."),
        ("José Manuel de Frutos", ("José", "Manuel"), "de Frutos", "J. M."),
        ("David Van Valen", ("David",), "Van Valen", "D."),
        ("Guy Van den Broeck", ("Guy",), "Van den Broeck", "G."),
        ("Pascal van der Vaart", ("Pascal",), "van der Vaart", "P."),
        ("Benjamin Von Roy", ("Benjamin",), "Von Roy", "B."),
        ("Chris De Sa", ("Chris",), "De Sa", "C."),
        ("Phi Le Nguyen", ("Phi", "Le"), "Nguyen", "P. L."),
        ("Young Bin Park", ("Young", "Bin"), "Park", "Y. B."),
        ("Oriol Mayné i Comas", ("Oriol",), "Mayné i Comas", "O."),
        ("Marcelo Ang Jr", ("Marcelo",), "Ang", "M."),
        ("Pranam Chatterjee, PhD", ("Pranam",), "Chatterjee", "P."),
        ("Yiwen (Evie) Qiu", ("Yiwen",), "Qiu", "Y."),
        ("Beatrix M. G. Nielsen", ("Beatrix", "M.", "G."), "Nielsen", "B. M. G."),
        ("di yin", ("di",), "yin", "D."),
        ("RunquanXie", (), "RunquanXie", ""),
    ],
)
def test_names_are_split_for_citing(
    name: str, given: tuple[str, ...], family: str, initials: str
) -> None:
    person = split_name(name)
    assert (person.given, person.family, person.initials()) == (given, family, initials)


def test_bibtex_puts_capitalised_particles_with_the_family_name() -> None:
    text = cite(paper(authors=("David Van Valen", "Guy Van den Broeck")), "bibtex")
    assert "author = {{Van Valen}, David and {Van den Broeck}, Guy}" in text
    assert cite(paper(authors=("David Van Valen",)), "apa").startswith("Van Valen, D. (2026).")


def test_apa_author_lists_follow_apa7() -> None:
    one = cite(paper(authors=("Ada Lovelace",)), "apa")
    assert one.startswith("Lovelace, A. (2026). A Study of Things. In ")
    two = cite(paper(), "apa")
    assert two.startswith("Lovelace, A., & Babbage, C. (2026).")
    jr = cite(paper(authors=("Marcelo Ang Jr", "Prabhat")), "apa")
    assert jr.startswith("Ang, M., Jr., & Prabhat. (2026).")
    twenty = tuple(f"Given{i} Family{i}" for i in range(20))
    text = cite(paper(authors=twenty), "apa")
    assert "Family18, G., & Family19, G. (2026)" in text and ". . ." not in text
    many = tuple(f"Given{i} Family{i}" for i in range(25))
    text = cite(paper(authors=many), "apa")
    assert text.startswith("Family0, G., Family1, G., ")
    assert "Family18, G., . . . Family24, G. (2026)" in text
    assert "Family19" not in text and "&" not in text.split("(2026)")[0]


def test_bibtex_names_are_inert_and_complete() -> None:
    names = ("Terence O&amp", "Ana and Bo", "Oriol Mayné i Comas", "Marcelo Ang Jr", "周欣")
    fields = parse_one(cite(paper(authors=names), "bibtex"))
    assert fields["author"] == (
        "O\\&amp, Terence and Bo, Ana {and} and {Mayné i Comas}, Oriol "
        "and Ang, Jr, Marcelo and 周欣"
    )
    assert re.split(r"\s+and\s+", fields["author"].replace("{and}", "AND")).__len__() == 5


def test_markdown_escapes_its_syntax() -> None:
    p = paper(title="[Link](x) *bold* _it_", title_raw="[Link](x) *bold* _it_")
    assert cite(p, "markdown").startswith(
        "[\\[Link\\](x) \\*bold\\* \\_it\\_](https://openreview.net/forum?id=abc) — "
    )


# --- keys ---------------------------------------------------------------------------------


def test_colliding_keys_are_ordered_by_event_id_and_stable() -> None:
    a = paper(id="x", event_id=30, title="Model Things", authors=("Kai Huang",))
    b = paper(id="y", event_id=10, title="Model Stuff", authors=("Li Huang",))
    c = paper(id="z", event_id=20, title="The Model", authors=("Huang",))
    other = paper(id="o", event_id=5, title="Other", authors=("Ada Lovelace",))
    keys = CitationKeys([a, b, c])
    assert [keys.key(p.id) for p in (b, c, a)] == [
        "huang2026model",
        "huang2026modela",
        "huang2026modelb",
    ]
    again = CitationKeys([other, c, a, b])
    assert all(again.key(p.id) == keys.key(p.id) for p in (a, b, c))
    assert keys.paper_id("huang2026modela") == "z"


def test_suffix_never_takes_another_papers_base_key() -> None:
    a = paper(id="a", event_id=1, title="Model", authors=("X Smith",))
    b = paper(id="b", event_id=2, title="Model", authors=("Y Smith",))
    c = paper(id="c", event_id=3, title="Modela", authors=("Z Smith",))
    keys = CitationKeys([a, b, c])
    assert keys.key("c") == "smith2026modela"
    assert keys.key("b") == "smith2026modelb"


def test_many_collisions_and_aliases() -> None:
    many = [paper(id=f"p{i}", event_id=i, title="Same") for i in range(30)]
    many.append(paper(id="q", event_id=None, title="Same", aliases=("old-q",)))
    keys = CitationKeys(many)
    got = [keys.key(p.id) for p in many]
    assert len(set(got)) == 31
    assert got[1] == "lovelace2026samea" and got[26] == "lovelace2026samez"
    assert got[27] == "lovelace2026sameaa"
    assert keys.key("old-q") == keys.key("q") == got[-1]
    with pytest.raises(KeyError):
        keys.key("nope")


@pytest.mark.parametrize(
    ("first_author", "title", "key"),
    [
        ("Yizheng Huang", "ProEval: Proactive", "huang2026proeval"),
        ("Jürgen Beyerer", "On the Things", "beyerer2026things"),
        ("Francesco D'Angelo", "$\\sigma$: Sigmoid", "dangelo2026sigma"),
        ("Przemysław Spurek", "A 3DGS²-TR Method", "spurek20263dgs2tr"),
        ("周欣", "Learning", "author2026learning"),
    ],
)
def test_base_keys(first_author: str, title: str, key: str) -> None:
    from index_builder.text.render import render

    p = paper(authors=(first_author,), title=render(title), title_raw=title)
    assert base_key(p) == key


def test_the_venue_is_cited_as_the_record_says() -> None:
    neurips = paper(venue="NeurIPS 2025", id="neurips2025:1")
    fields = _fields(cite(neurips, "bibtex"))
    assert fields["booktitle"] == "Advances in Neural Information Processing Systems"
    assert fields["year"] == "2025" and "series" not in fields
    assert base_key(neurips) == "lovelace2025study"
    assert "(2025)" in cite(neurips, "apa") and cite(neurips, "markdown").endswith("(NeurIPS 2025)")
    other = paper(venue="Workshop on Things 2024")
    assert _fields(cite(other, "bibtex"))["year"] == "2024"
    nowhere = paper(venue="")
    entry = cite(nowhere, "bibtex")
    assert entry.startswith("@misc{lovelacestudy,")
    assert "booktitle" not in entry and "year" not in entry and "2026" not in entry
    assert "(n.d.)" in cite(nowhere, "apa") and "ICML" not in cite(nowhere, "plain")
    assert not cite(nowhere, "markdown").endswith(")")


def _fields(entry: str) -> dict[str, str]:
    library = bibtexparser.parse_string(entry)
    return {f.key: f.value for f in library.entries[0].fields}


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (
            "Don't Just \u201cFix it in Post\u201d: A Study",
            "Don't Just ``Fix it in Post'': A Study",
        ),
        ("Don't Just \"Fix it in Post'': A Study", "Don't Just ``Fix it in Post'': A Study"),
        ('The "Best" Model', "The ``Best'' Model"),
        ("It\u2019s \u2018Fine\u2019", "It's `Fine'"),
    ],
)
def test_quotes_become_latex_quotes(raw: str, expected: str) -> None:
    fields = parse_one(cite(paper(title=raw, title_raw=raw), "bibtex"))
    assert fields["title"].replace("{", "").replace("}", "") == expected
    assert '"' not in fields["title"] and "\u201d" not in fields["title"]


def test_the_position_paper_title_has_latex_quotes(papers: list[Paper]) -> None:
    found = next(p for p in papers if p.title.startswith("Position: Don't Just"))
    title = parse_one(cite(found, "bibtex"))["title"]
    assert "``Fix it in Post''" in title
    assert '"' not in title
