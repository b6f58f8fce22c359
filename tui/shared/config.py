"""The user's TOML config: key remaps, the remembered theme, the default citation style,
the time zone session times are shown in.

The file lives at ``Paths.config_file``::

    theme = "textual-dark"
    citation_style = "bibtex"
    timezone = "venue"       # or "local", or an IANA name such as "Europe/Berlin"
    zotero_url = "http://127.0.0.1:23119"   # Zotero desktop's connector (zotero send)

    [keymap]
    quit = "ctrl+q"          # binding id = "key" or "key1,key2"

    [venues.colm2027]        # a conference on the same site software (docs/venues.md)
    host = "colm.cc"
    timezone = "America/Los_Angeles"

A missing file is an empty config; a broken one (not a regular file, over 1 MB, not
TOML, nested too deep) is named in one line and ignored, the defaults used (the app still
starts); an unknown time zone is named in one line and the default used. Only
the theme and the time zone are ever written back: the file is edited as TOML (tomlkit:
comments, layout, quoting and the other keys survive), the result is read back before it
replaces the file atomically, and a file that does not parse is never rewritten. A
``[venues.KEY]`` table that cannot be used is named in one line and left out
(:mod:`index_builder.venue_config`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from index_builder.times import DEFAULT_SETTING, check_setting, normal_setting

if TYPE_CHECKING:
    from index_builder.venues import Venue

CITATION_STYLES = ("bibtex", "apa", "markdown", "plain", "ris", "csljson")
MAX_CONFIG_BYTES = 1024 * 1024
"""The largest config read (a real one is under 1 KB)."""
ZOTERO_URL = "http://127.0.0.1:23119"
"""Zotero desktop's local connector, where it listens unless told otherwise."""


class ConfigNotSaved(OSError):
    """The config was left as it is: it does not parse as TOML, or an edit would not."""


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
    venues: list[Venue] = field(default_factory=list)
    """The venues declared in ``[venues.KEY]`` tables (checked)."""
    venue_problems: dict[str, str] = field(default_factory=dict)
    """Why each refused ``[venues.KEY]`` was refused (also in ``problems``), by key."""
    zotero_url: str = ZOTERO_URL
    """Where Zotero desktop's connector listens (``paperscope zotero send``)."""


def load_config(path: Path | None) -> Config:
    """Read the config at ``path``; never raises (problems are collected instead)."""
    config = Config(path=path)
    if path is None or not path.exists():
        return config
    import tomllib  # only with a config file: not on a plain start's way to its first frame

    try:
        data = tomllib.loads(_read(path).decode("utf-8"))
    except OSError as exc:
        config.problems.append(f"config ignored ({exc.strerror or exc}), defaults used: {path}")
        return config
    except (UnicodeDecodeError, tomllib.TOMLDecodeError, RecursionError) as exc:
        why = "nested too deep" if isinstance(exc, RecursionError) else str(exc)
        config.problems.append(f"config ignored ({why}), defaults used: {path}")
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
    if "venues" in data:
        _read_venues(config, data["venues"])
    zotero = data.get("zotero_url")
    if isinstance(zotero, str) and zotero.startswith(("http://", "https://")):
        config.zotero_url = zotero.rstrip("/")
    elif zotero is not None:
        config.problems.append("config: zotero_url must be an http:// URL")
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


def _read(path: Path) -> bytes:
    """The file's bytes: a regular file of at most :data:`MAX_CONFIG_BYTES` (a named pipe
    would hang the start, ``/dev/zero`` fill the memory); else ``OSError`` saying why."""
    from index_builder.sources.files import read_regular_file

    return read_regular_file(path, MAX_CONFIG_BYTES)


def _read_venues(config: Config, tables: object) -> None:
    """The ``[venues.KEY]`` tables into ``config.venues``; each refused one named in a line."""
    from index_builder.venue_config import VenueError, from_table

    if not isinstance(tables, dict):
        config.problems.append("config: venues must be a table of [venues.KEY] tables")
        return
    for key, table in tables.items():
        try:
            config.venues.append(from_table(str(key), table))
        except VenueError as exc:
            config.venue_problems[str(key).lower()] = f"config: {exc}"
            config.problems.append(f"config: {exc}")


def save_theme(path: Path, theme: str) -> None:
    """Write ``theme = "…"`` into the config at ``path``, keeping everything else.

    The new file replaces the old one atomically (temp file + ``os.replace``). Raises
    :class:`ConfigNotSaved` (an ``OSError``) when the file does not parse as TOML.
    """
    _save_top_key(path, "theme", theme)


def save_timezone(path: Path, setting: str) -> None:
    """Write ``timezone = "…"`` into the config at ``path``, keeping everything else."""
    _save_top_key(path, "timezone", setting)


def _save_top_key(path: Path, key: str, value: str) -> None:
    """Set the top-level string ``key`` in the TOML file at ``path``, as TOML."""
    import tomllib  # saving is rare: none of this is on the way to the first frame

    import tomlkit
    from tomlkit.exceptions import TOMLKitError

    from index_builder.atomic import write_atomic

    try:
        text = _read(path).decode("utf-8")
    except FileNotFoundError:
        text = ""
    except OSError as exc:
        raise ConfigNotSaved(f"{path}: {exc.strerror or exc}; it was left as it is") from exc
    except UnicodeDecodeError as exc:
        raise ConfigNotSaved(f"{path} is not UTF-8 text ({exc}); it was left as it is") from exc
    try:
        before = tomllib.loads(text)
        doc = tomlkit.parse(text)
        doc[key] = value
        new = tomlkit.dumps(doc)
        after = tomllib.loads(new)
    except (tomllib.TOMLDecodeError, TOMLKitError, ValueError, RecursionError) as exc:
        why = f"{path} does not parse as TOML ({exc}); it was left as it is"
        raise ConfigNotSaved(why) from exc
    if after != {**before, key: value}:  # the edit must change this key and nothing else
        raise ConfigNotSaved(f"{path}: {key} could not be set as TOML; it was left as it is")
    write_atomic(path, new)
