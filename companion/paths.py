"""Where games live: ``--data DIR``, else ``$COMPANION_DATA``, else the user's data folder."""
from __future__ import annotations

import os
from pathlib import Path

__all__ = ["data_dir", "list_games", "GAME_SUFFIX"]

GAME_SUFFIX = ".game"


def data_dir(override: str | os.PathLike | None = None) -> Path:
    if override:
        return Path(override).expanduser()
    env = os.environ.get("COMPANION_DATA")
    if env:
        return Path(env).expanduser()
    from platformdirs import user_data_dir

    return Path(user_data_dir("table-banker", appauthor=False))


def list_games(folder: Path) -> list[Path]:
    """Game files in ``folder``, the most recently played first."""
    if not folder.is_dir():
        return []
    games = [p for p in folder.glob(f"*{GAME_SUFFIX}") if p.is_file()]
    return sorted(games, key=lambda p: max(p.stat().st_mtime, _wal_mtime(p)), reverse=True)


def _wal_mtime(p: Path) -> float:
    wal = p.with_name(p.name + "-wal")
    try:
        return wal.stat().st_mtime
    except OSError:
        return 0.0
