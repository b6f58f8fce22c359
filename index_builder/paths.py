"""Where PaperScope keeps its files: one module, one environment variable.

``PAPERSCOPE_HOME`` moves config, data and cache under one folder (``config/``,
``data/``, ``cache/``); otherwise the platform's per-user folders are used.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import platformdirs

APP_NAME = "paperscope"
HOME_ENV = "PAPERSCOPE_HOME"
JOINS_FILE = "joins.jsonl"
"""The name of the joins file in the data folder (its readers know it by this name)."""


class HomeError(RuntimeError):
    """A per-user folder cannot be created or written."""


@dataclass(frozen=True)
class Paths:
    """The per-user folders and the files inside them."""

    config_dir: Path
    data_dir: Path
    cache_dir: Path

    @classmethod
    def from_env(cls, environ: dict[str, str] | None = None) -> Paths:
        """Paths under ``$PAPERSCOPE_HOME`` when it is set, else the platform's folders."""
        env = os.environ if environ is None else environ
        home = env.get(HOME_ENV, "").strip()
        if home:
            root = Path(home).expanduser()
            return cls(root / "config", root / "data", root / "cache")
        return cls(
            Path(platformdirs.user_config_dir(APP_NAME, appauthor=False)),
            Path(platformdirs.user_data_dir(APP_NAME, appauthor=False)),
            Path(platformdirs.user_cache_dir(APP_NAME, appauthor=False)),
        )

    @property
    def config_file(self) -> Path:
        """The TOML config file (keys, theme, default citation style)."""
        return self.config_dir / "config.toml"

    @property
    def reading_list(self) -> Path:
        """The SQLite reading list."""
        return self.data_dir / "reading_list.sqlite3"

    @property
    def hand_joins(self) -> Path:
        """The joins the user made by hand (JSONL records, read as a source)."""
        return self.data_dir / JOINS_FILE

    @property
    def index_dir(self) -> Path:
        """The folder that holds the Whoosh index and its build marker."""
        return self.cache_dir / "index"

    def ensure(self) -> Paths:
        """Create the folders; raise :class:`HomeError` with a readable message if we cannot."""
        for folder in (self.config_dir, self.data_dir, self.cache_dir):
            try:
                folder.mkdir(parents=True, exist_ok=True)
            except (FileExistsError, NotADirectoryError) as exc:
                raise HomeError(
                    f"{folder} cannot be a folder: a file is in the way ({exc})"
                ) from exc
            except OSError as exc:
                raise HomeError(f"cannot create {folder}: {exc.strerror or exc}") from exc
            # The index must be written; a read-only data or config folder still lets
            # PaperScope read the reading list and the config (writes then say why not).
            needs = os.W_OK | os.X_OK if folder == self.cache_dir else os.X_OK
            if not os.access(folder, needs):
                raise HomeError(f"{folder} is not writable")
        return self


def assets_dir() -> Path:
    """The bundled data: inside the installed wheel, or ``assets/`` of a checkout."""
    here = Path(__file__).resolve().parent
    installed = here / "_assets"
    if installed.is_dir():
        return installed
    return here.parent / "assets"


def bundled_sources() -> list[Path]:
    """The bundled paper table and abstract lists, table first."""
    root = assets_dir()
    return [root / "icml2026_events.csv", *sorted((root / "seeds").glob("*.txt"))]
