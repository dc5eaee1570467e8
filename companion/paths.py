"""Where games live: ``--data DIR``, else ``$COMPANION_DATA``, else the user's data folder."""

from __future__ import annotations

import json
import os
from pathlib import Path

__all__ = ["data_dir", "list_games", "GAME_SUFFIX", "remember_last_game", "last_game"]

GAME_SUFFIX = ".game"
LAST_GAME = "last-game.json"  # in the data folder: the game the touchscreen opened last


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


def remember_last_game(folder: Path, game: Path) -> None:
    """Record that ``game`` was just opened, for ``companion run`` without a game. Written when a game
    opens, not read from modification times: a Pi without a clock chip whose clock jumped after a power
    cut would otherwise reopen the wrong game. Written whole or not at all (a new file renamed into
    place); a failure to write it never stops the game."""
    record = folder / LAST_GAME
    tmp = record.with_name(f".{LAST_GAME}.{os.getpid()}.new")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump({"game": str(Path(game).resolve())}, f, ensure_ascii=False)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, record)
    except OSError:
        tmp.unlink(missing_ok=True)


def last_game(folder: Path) -> Path | None:
    """The game opened last, by its record; None when there is no record or its game is gone. Without a
    record (games opened before the record existed) the most recently changed game stands in."""
    try:
        recorded = json.loads((folder / LAST_GAME).read_text(encoding="utf-8"))
    except FileNotFoundError:
        games = list_games(folder)
        return games[0] if games else None
    except (OSError, ValueError):
        return None
    game = recorded.get("game") if isinstance(recorded, dict) else None
    if not isinstance(game, str) or not Path(game).is_file():
        return None
    return Path(game)
