"""Pilot tests: keymap from the config, theme remembered, command palette, hostile text."""

from __future__ import annotations

from tests.helpers.tui_helpers import (
    AppFactory,
    highlighted_command,
    main,
    ready,
    rendered_text,
    settle,
    type_query,
    until,
)
from tests.helpers.tui_papers import HOSTILE_TITLE
from tui.commands.keys import ActionCommands
from tui.screens.help import HelpScreen
from tui.shared.config import Config, load_config


async def test_keymap_moves_quit_to_ctrl_q(make_app: AppFactory, tmp_path) -> None:
    app = make_app(config=Config(keymap={"quit": "ctrl+q"}, path=tmp_path / "c.toml"))
    async with app.run_test(size=(120, 36)) as pilot:
        await ready(pilot)
        await pilot.press("escape", "q")
        await pilot.pause()
        assert app.is_running, "q no longer quits"
        await pilot.press("ctrl+q")
        await pilot.pause()
    assert app.return_code == 0


async def test_keymap_remaps_to_a_letter_and_help_shows_it(make_app: AppFactory, tmp_path) -> None:
    config_file = tmp_path / "config.toml"
    config_file.write_text('[keymap]\nquit = "z"\nsort = "S"\n', encoding="utf-8")
    app = make_app(config=load_config(config_file))
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await ready(pilot)
        await pilot.press("escape", "S")
        await settle(pilot)
        assert screen.sort == "title"
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        keys = rendered_text(app.screen.query_one("#help-keys"))
        quit_line = next(line for line in keys.splitlines() if "Quit PaperScope" in line)
        assert quit_line.split()[0] == "z"
        await pilot.press("escape", "z")
        await pilot.pause()
    assert app.return_code == 0


async def test_theme_is_remembered_in_the_config(make_app: AppFactory, tmp_path) -> None:
    config_file = tmp_path / "config" / "config.toml"
    config_file.parent.mkdir(parents=True, exist_ok=True)
    config_file.write_text('# my settings\ncitation_style = "apa"\n', encoding="utf-8")
    app = make_app(config=load_config(config_file))
    async with app.run_test(size=(120, 36)) as pilot:
        await ready(pilot)
        app.theme = "nord"
        await pilot.pause()
    saved = load_config(config_file)
    assert saved.theme == "nord"
    assert saved.citation_style == "apa"
    assert "# my settings" in config_file.read_text(encoding="utf-8")
    again = make_app(config=load_config(config_file))
    async with again.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        assert again.theme == "nord"


async def test_palette_offers_the_actions_and_runs_them_and_hostile_text_stays_inert(
    make_app: AppFactory,
) -> None:
    """The palette's commands run, then a paper's hostile text is shown as text (one app:
    the query of the second part gives the same one paper whatever the sort)."""
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await ready(pilot)
        provider = ActionCommands(screen)
        names = {name: command for name, _help, command in provider.commands()}
        for name in ("Quit", "Sort", "More like this", "Facets", "Bookmark", "Help", "Down"):
            assert name in names
        await names["Sort"]()
        await settle(pilot)
        assert screen.sort == "title"
        before = screen.results.cursor
        await names["Down"]()
        assert screen.results.cursor == before + 1

        # Hostile text in a paper stays inert in the list and the view.
        screen = await type_query(pilot, "loud")
        assert [h.paper.title for h in screen.results.hits] == [HOSTILE_TITLE]
        row = screen.results.render_line(0).text + screen.results.render_line(1).text
        assert "[bold]Loud[/bold]" in row
        assert "[@click=app.quit]Quit[/]" in row
        assert "[b]Mallory[/b]" in row
        assert "\x1b" not in row and "\x07" not in row
        await settle(pilot)
        body = rendered_text(screen.view.query_one("#paper-body"))
        assert "[@click=app.quit]here[/]" in body
        assert "[red]colour[/red]" in body
        assert "\x1b" not in body
        await pilot.click("#paper-body", offset=(5, 0))
        await pilot.click("#paper-body", offset=(20, 0))
        await pilot.pause()
        assert app.is_running, "clicking the title's fake [@click] does nothing"


async def test_palette_opens_with_ctrl_p_and_runs_a_command(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await ready(pilot)
        await pilot.press("escape", "ctrl+p")
        await pilot.pause()
        await pilot.press(*"sort")
        assert await until(pilot, lambda: "sort" in highlighted_command(app)), "no sort command"
        await pilot.press("enter")
        await settle(pilot)
        assert main(pilot).sort == "title"
        assert app.screen is screen
