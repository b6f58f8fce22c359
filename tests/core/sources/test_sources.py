"""Reading source files: abstract lists in every shape users have, and the paper table."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from index_builder.sources.reading import decode, read_source
from index_builder.sources.table import split_list
from index_builder.sources.types import SourceError
from tests.helpers.catalogue_data import FIXTURES, LISTS, TABLE

if TYPE_CHECKING:
    from index_builder.catalogue.load import Catalogue

ABSTRACT_1 = "We propose ProEval, a proactive evaluation framework."
ABSTRACT_2 = "Polytrees are a subclass of Bayesian networks."


def _read(tmp_path: Path, data: bytes, name: str = "list.txt"):  # type: ignore[no-untyped-def]
    path = tmp_path / name
    path.write_bytes(data)
    return read_source(path, data)


def _texts(tmp_path: Path, data: bytes) -> list[str]:
    return [a.text for a in _read(tmp_path, data).abstracts]


def test_plain_list(tmp_path: Path) -> None:
    data = f"ICML 2026 Papers\n\n{ABSTRACT_1}\n\n{ABSTRACT_2}\n".encode()
    parsed = _read(tmp_path, data)
    assert [a.text for a in parsed.abstracts] == [ABSTRACT_1, ABSTRACT_2]
    assert [a.source for a in parsed.abstracts] == ["list.txt:1", "list.txt:2"]
    assert parsed.problems == []


def test_crlf_bom_and_a_chinese_header(tmp_path: Path) -> None:
    text = f"ICML 2026 论文列表\r\n\r\n{ABSTRACT_1}\r\n\r\n{ABSTRACT_2}\r\n"
    assert _texts(tmp_path, b"\xef\xbb\xbf" + text.encode()) == [ABSTRACT_1, ABSTRACT_2]


def test_stray_blank_lines_and_whitespace(tmp_path: Path) -> None:
    data = f"\n\n  Header  \n \n\t\n   {ABSTRACT_1}   \n \n\n\n{ABSTRACT_2}\n\n\n".encode()
    assert _texts(tmp_path, data) == [ABSTRACT_1, ABSTRACT_2]


def test_a_line_break_inside_a_paragraph_is_joined(tmp_path: Path) -> None:
    data = b"Header\n\nWe propose ProEval, a proactive\nevaluation frame-\nwork.\n"
    assert _texts(tmp_path, data) == ["We propose ProEval, a proactive evaluation frame-work."]


def test_header_followed_directly_by_an_abstract(tmp_path: Path) -> None:
    data = f"ICML 2026 Papers\n{ABSTRACT_1}\n\n{ABSTRACT_2}\n".encode()
    assert _texts(tmp_path, data) == [ABSTRACT_1, ABSTRACT_2]


def test_a_list_without_header_keeps_its_first_abstract(tmp_path: Path) -> None:
    long_first = "Evaluating generative models is costly. " * 6
    data = f"{long_first}\n\n{ABSTRACT_2}\n".encode()
    assert _texts(tmp_path, data) == [long_first.strip(), ABSTRACT_2]


def test_cp1252_is_decoded_and_named_in_a_warning(tmp_path: Path) -> None:
    text = "Header\n\nCafé – naïve “quotes” for Wang–Landau.\n"
    parsed = _read(tmp_path, text.encode("cp1252"), "legacy.txt")
    assert [a.text for a in parsed.abstracts] == ["Café – naïve “quotes” for Wang–Landau."]
    (problem,) = parsed.problems
    assert not problem.fatal and problem.path.endswith("legacy.txt") and "cp1252" in problem.message


def test_latin1_is_the_last_resort(tmp_path: Path) -> None:
    parsed = _read(tmp_path, b"Header\n\nA \x81 odd byte and caf\xe9.\n")
    assert parsed.abstracts[0].text == "A odd byte and café."  # a C1 control: never shown
    assert "latin-1" in parsed.problems[0].message


def test_utf16_with_bom(tmp_path: Path) -> None:
    data = f"Header\n\n{ABSTRACT_1}\n".encode("utf-16")
    assert _texts(tmp_path, data) == [ABSTRACT_1]


@pytest.mark.parametrize("data", [b"", b"  \n\n \r\n"])
def test_an_empty_file_is_an_error(tmp_path: Path, data: bytes) -> None:
    with pytest.raises(SourceError, match="empty"):
        _read(tmp_path, data)


def test_header_only_loads_nothing_with_a_warning(tmp_path: Path) -> None:
    parsed = _read(tmp_path, "ICML 2026 论文列表\n\n".encode())
    assert parsed.abstracts == []
    assert [p.fatal for p in parsed.problems] == [False]


@pytest.mark.parametrize(
    "data", [b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", bytes(range(256)) * 4, b"\x00\x01\x02" * 50]
)
def test_binary_files_are_refused(tmp_path: Path, data: bytes) -> None:
    with pytest.raises(SourceError, match="binary"):
        _read(tmp_path, data, "picture.txt")


def test_a_csv_with_the_wrong_header_is_refused(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="event_id"):
        _read(tmp_path, b"name,score\nada,3\n", "scores.csv")


@pytest.mark.parametrize("data", [b"", b"\n"])
def test_an_empty_csv_is_refused(tmp_path: Path, data: bytes) -> None:
    with pytest.raises(SourceError, match="empty"):
        _read(tmp_path, data, "empty.csv")


def test_missing_optional_columns_are_left_empty_with_a_warning(tmp_path: Path) -> None:
    data = b"event_id,event_type,title\n7,Poster,A Title\n"
    parsed = _read(tmp_path, data, "thin.csv")
    (row,) = parsed.rows
    assert (row.event_id, row.paper.title_raw, row.paper.authors) == (7, "A Title", ())
    assert row.paper.starts_at == ""
    (problem,) = parsed.problems
    assert not problem.fatal and "authors" in problem.message


def test_table_fixture_rows(tmp_path: Path) -> None:
    path = FIXTURES / "catalogue_table_small.csv"
    parsed = read_source(path, path.read_bytes())
    assert [r.event_id for r in parsed.rows] == [101, 102, 103, 901, 902]
    first = parsed.rows[0].paper
    assert first.authors == ("Yizheng Huang", "Zi Wang")
    assert first.institutions == ("Google DeepMind", "University X")
    assert first.starts_at == "2026-07-07T11:00:00-07:00"
    assert first.openreview_url == "https://openreview.net/forum?id=abc"
    second = parsed.rows[1].paper
    assert second.starts_at == "" and second.institutions == ()
    assert "1 rows skipped" in parsed.problems[0].message


def test_a_text_file_holding_the_table_is_read_as_a_table(tmp_path: Path) -> None:
    data = (FIXTURES / "catalogue_table_small.csv").read_bytes()
    assert len(_read(tmp_path, data, "table.txt").rows) == 5


def test_split_list() -> None:
    assert split_list(" A ;B;; ; C ") == ("A", "B", "C")
    assert split_list("") == ()


def test_decode_reports_nothing_for_utf8(tmp_path: Path) -> None:
    assert decode(tmp_path / "x", "é".encode()) == ("é", None)


def test_bundled_sources_parse_cleanly() -> None:
    table = read_source(TABLE, TABLE.read_bytes())
    assert len(table.rows) == 6796 and table.problems == []
    assert sum(r.event_type == "Poster" for r in table.rows) == 6628
    for path in LISTS:
        parsed = read_source(path, path.read_bytes())
        assert len(parsed.abstracts) == 19 and parsed.problems == []


def test_author_cells_with_html_entities_and_tex_split_into_real_names() -> None:
    from index_builder.sources.table import split_list

    cell = (
        "Francesco D&amp;#x27;Angelo; Oğuz Yüksel; R{{\\&amp;#x27;e}}mi Munos; "
        "Hongyi &amp;quot;Michael&amp;quot; Wu"
    )
    assert split_list(cell) == (
        "Francesco D'Angelo",
        "Oğuz Yüksel",
        "Rémi Munos",
        'Hongyi "Michael" Wu',
    )
    assert split_list("Generate Biomedicines &amp; Dartmouth College") == (
        "Generate Biomedicines & Dartmouth College",
    )


def test_no_bundled_author_is_an_entity_fragment(bundled_catalogue: Catalogue) -> None:
    names = [name for paper in bundled_catalogue.papers for name in paper.authors]
    assert not [n for n in names if "&" in n or n.startswith("#") or "\\" in n or "{" in n]
    assert any(n == "Francesco D'Angelo" for n in names)
