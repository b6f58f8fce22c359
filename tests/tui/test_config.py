"""The TOML config: keymap, theme, citation style, broken files, atomic theme writes."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tui.shared.config import load_config, save_theme


def test_missing_file_is_the_default(tmp_path: Path) -> None:
    config = load_config(tmp_path / "none.toml")
    assert config.keymap == {} and config.theme is None and config.citation_style == "bibtex"
    assert config.problems == []


def test_reads_keymap_theme_and_style(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text(
        'theme = "nord"\ncitation_style = "markdown"\n[keymap]\nquit = "ctrl+q"\nsort = "S, o"\n',
        encoding="utf-8",
    )
    config = load_config(path)
    assert config.theme == "nord"
    assert config.citation_style == "markdown"
    assert config.keymap == {"quit": "ctrl+q", "sort": "S,o"}


@pytest.mark.parametrize(
    "text",
    [
        "theme = [\n",
        'citation_style = "mla"\n',
        "[keymap]\nquit = 3\n",
        "keymap = 1\n",
        "theme = 5\n",
    ],
)
def test_bad_parts_are_reported_not_raised(tmp_path: Path, text: str) -> None:
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    config = load_config(path)
    assert config.problems
    assert config.citation_style == "bibtex"
    assert "quit" not in config.keymap


def test_save_theme_keeps_the_rest_and_replaces_only_the_theme(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text('# mine\ntheme = "nord"\n\n[keymap]\ntheme = "t"\n', encoding="utf-8")
    save_theme(path, 'gruvbox"x')
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# mine\n")
    assert load_config(path).theme == 'gruvbox"x'
    assert load_config(path).keymap == {"theme": "t"}


def test_save_theme_creates_the_file_and_leaves_no_temp(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "config.toml"
    save_theme(path, "dracula")
    assert load_config(path).theme == "dracula"
    assert os.listdir(path.parent) == ["config.toml"]


def test_save_theme_adds_a_line_before_tables(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text('[keymap]\nquit = "x"\n', encoding="utf-8")
    save_theme(path, "nord")
    config = load_config(path)
    assert config.theme == "nord" and config.keymap == {"quit": "x"}
