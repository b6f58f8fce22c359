"""The user's TOML config: key remaps, the remembered theme, the default citation style,
the time zone session times are shown in.

The file lives at ``Paths.config_file``::

    theme = "textual-dark"
    citation_style = "bibtex"
    timezone = "venue"       # or "local", or an IANA name such as "Europe/Berlin"

    [keymap]
    quit = "ctrl+q"          # binding id = "key" or "key1,key2"

A missing file is an empty config; a broken one is reported and ignored (the
app still starts); an unknown time zone is named in one line and the default used. Only
the theme and the time zone are ever written back, in place (comments and other keys
survive) and atomically.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from index_builder.times import DEFAULT_SETTING, check_setting, normal_setting

CITATION_STYLES = ("bibtex", "apa", "markdown", "plain")
_THEME_LINE = re.compile(r"^theme\s*=.*$", re.MULTILINE)
_TIMEZONE_LINE = re.compile(r"^timezone\s*=.*$", re.MULTILINE)
_FIRST_TABLE = re.compile(r"^\s*\[", re.MULTILINE)


@dataclass
class Config:
    """What the config file says, with defaults for what it leaves out."""

    keymap: dict[str, str] = field(default_factory=dict)
    theme: str | None = None
    citation_style: str = "bibtex"
    timezone: str = DEFAULT_SETTING
    """``venue``, ``local`` or an IANA zone name (see :mod:`index_builder.times`)."""
    path: Path | None = None
    problems: list[str] = field(default_factory=list)
    """Readable messages about parts of the file that were ignored."""
    timezone_problem: str = ""
    """The message about a refused ``timezone`` (also in ``problems``), for the CLI."""


def load_config(path: Path | None) -> Config:
    """Read the config at ``path``; never raises (problems are collected instead)."""
    config = Config(path=path)
    if path is None or not path.exists():
        return config
    import tomllib  # only with a config file: not on a plain start's way to its first frame

    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        config.problems.append(f"config {path} ignored: {exc}")
        return config
    theme = data.get("theme")
    if isinstance(theme, str) and theme:
        config.theme = theme
    elif theme is not None:
        config.problems.append("config: theme must be a string")
    style = data.get("citation_style")
    if isinstance(style, str) and style in CITATION_STYLES:
        config.citation_style = style
    elif style is not None:
        config.problems.append(
            f"config: citation_style must be one of {', '.join(CITATION_STYLES)}"
        )
    zone = data.get("timezone")
    if zone is not None:
        problem = check_setting(zone)
        if problem is None:
            config.timezone = normal_setting(zone)
        else:
            config.timezone_problem = f"config: {problem}"
            config.problems.append(config.timezone_problem)
    keymap = data.get("keymap", {})
    if isinstance(keymap, dict):
        for binding_id, keys in keymap.items():
            if isinstance(keys, str) and keys.strip():
                config.keymap[str(binding_id)] = keys.replace(" ", "")
            else:
                config.problems.append(f"config: keymap.{binding_id} must be a key string")
    else:
        config.problems.append("config: keymap must be a table")
    return config


def save_theme(path: Path, theme: str) -> None:
    """Write ``theme = "…"`` into the config at ``path``, keeping everything else.

    The new file replaces the old one atomically (temp file + ``os.replace``).
    """
    _save_top_key(path, _THEME_LINE, f"theme = {_toml_string(theme)}")


def save_timezone(path: Path, setting: str) -> None:
    """Write ``timezone = "…"`` into the config at ``path``, keeping everything else."""
    _save_top_key(path, _TIMEZONE_LINE, f"timezone = {_toml_string(setting)}")


def _save_top_key(path: Path, pattern: re.Pattern[str], line: str) -> None:
    from index_builder.atomic import write_atomic  # saving is rare: not at start-up

    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        text = ""
    if pattern.search(_top_level(text)):
        head, tail = _split_top(text)
        text = pattern.sub(lambda _m: line, head, count=1) + tail
    else:
        text = f"{line}\n{text}"
    write_atomic(path, text)


def _top_level(text: str) -> str:
    """The part of a TOML text before its first table header."""
    return _split_top(text)[0]


def _split_top(text: str) -> tuple[str, str]:
    match = _FIRST_TABLE.search(text)
    if match is None:
        return text, ""
    return text[: match.start()], text[match.start() :]


def _toml_string(value: str) -> str:
    """A TOML basic string for ``value``."""
    escaped = value.replace("\\", "\\\\").replace('"', '\\"')
    escaped = "".join(ch if ch >= " " else f"\\u{ord(ch):04x}" for ch in escaped)
    return f'"{escaped}"'
