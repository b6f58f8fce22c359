"""Saving the theme or the time zone edits the config as TOML (issue 29, item 7).

An indented or quoted ``theme`` key is valid TOML; the old regular expression added a
second ``theme`` line beside it, and the next start ignored the whole file, keymap
included. Now the key is set in place, comments and layout are kept, the result is read
back before it replaces the file, and a file that does not parse is left untouched.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from tests.helpers.tui_helpers import AppFactory, ready
from tui.shared.config import ConfigNotSaved, load_config, save_theme, save_timezone

KEYMAP = '\n# my keys\n[keymap]\nquit = "ctrl+q"  # keep\n'
SPELLINGS = {
    "indented": '  theme = "nord"\n',
    "quoted": '"theme" = "nord"\n',
    "single-quoted": "'theme' = 'nord'\n",
    "spaced": 'theme   =   "nord"   # the one I like\n',
    "dotted-free": 'citation_style = "apa"\n',  # no theme yet: it is added at the top level
}


@pytest.mark.parametrize("spelling", SPELLINGS, ids=list(SPELLINGS))
def test_the_theme_is_set_as_toml_and_the_rest_kept(tmp_path: Path, spelling: str) -> None:
    path = tmp_path / "config.toml"
    before = "# PaperScope\n" + SPELLINGS[spelling] + KEYMAP
    path.write_text(before, encoding="utf-8")
    save_theme(path, 'dra"cula')
    text = path.read_text(encoding="utf-8")
    data = tomllib.loads(text)  # parses: the next start reads it
    assert data["theme"] == 'dra"cula'
    assert data["keymap"] == {"quit": "ctrl+q"}
    config = load_config(path)
    assert config.problems == [] and config.keymap == {"quit": "ctrl+q"}
    assert "# PaperScope" in text and "# my keys" in text and "# keep" in text
    assert text.count("theme") == 1


def test_the_time_zone_is_saved_the_same_way(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text('    timezone = "UTC"  # for travel\n' + KEYMAP, encoding="utf-8")
    save_timezone(path, "Europe/Berlin")
    text = path.read_text(encoding="utf-8")
    assert tomllib.loads(text)["timezone"] == "Europe/Berlin"
    assert "# for travel" in text and text.count("timezone") == 1


def test_a_file_that_does_not_parse_is_never_rewritten(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    broken = 'theme = "nord"\n[keymap\nquit = "x"\n'
    path.write_text(broken, encoding="utf-8")
    with pytest.raises(ConfigNotSaved, match="does not parse"):
        save_theme(path, "dracula")
    assert path.read_text(encoding="utf-8") == broken
    assert [p.name for p in tmp_path.iterdir()] == ["config.toml"]  # no temp file left


async def test_changing_the_theme_in_the_app_keeps_the_keymap(
    make_app: AppFactory, tmp_path: Path
) -> None:
    app = make_app()
    assert app.config.path is not None
    app.config.path.parent.mkdir(parents=True, exist_ok=True)
    app.config.path.write_text(SPELLINGS["indented"] + KEYMAP, encoding="utf-8")
    app.config = load_config(app.config.path)
    async with app.run_test(size=(120, 36)) as pilot:
        await ready(pilot)
        app.theme = "textual-light"
        await pilot.pause()
    config = load_config(app.config.path)
    assert config.problems == []
    assert config.theme == "textual-light" and config.keymap == {"quit": "ctrl+q"}
