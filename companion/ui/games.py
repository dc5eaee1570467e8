"""The start screen's data: the saved games to resume, the packs to choose from, a new game's form.

Pure (no Kivy): saved games are read with ``service.glance``, the packs installed asked of the service.
The form is a small value that the screen edits and :meth:`NewGame.check` judges, so every refusal
("two players are called Ann") is known before a file is made.
"""

from __future__ import annotations

import datetime as _dt
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from companion.core.errors import BankerError
from companion.core.model import player_names_checked
from companion.paths import GAME_SUFFIX, list_games
from companion.core.money import Currency
from companion.service import installed_pack, installed_packs, options_checked, pack_options

from .colours import PLAYER_COLOURS, next_free_colour

__all__ = [
    "saved_games",
    "describe_game",
    "delete_game",
    "game_line",
    "last_players",
    "pack_choices",
    "pack_label",
    "NewGame",
    "game_file_name",
    "when_text",
    "MIN_PLAYERS",
    "MAX_PLAYERS",
]

MIN_PLAYERS, MAX_PLAYERS = 2, 6


def when_text(at: str | None, now: _dt.datetime | None = None) -> str:
    """'today 20:15', 'yesterday 09:02' or '12 Mar 2025' for an ISO time stamp of the log."""
    if not at:
        return ""
    try:
        moment = _dt.datetime.fromisoformat(at).astimezone()
    except ValueError:
        return at
    now = (now or _dt.datetime.now(_dt.timezone.utc)).astimezone()
    days = (now.date() - moment.date()).days
    if days == 0:
        return f"today {moment:%H:%M}"
    if days == 1:
        return f"yesterday {moment:%H:%M}"
    return f"{moment.day} {moment:%b %Y}"


def describe_game(path: Path) -> dict[str, Any]:
    """What the start screen shows of a saved game: title, players, last played, actions so far.

    A file that cannot be read is still listed, with the reason, so the banker knows it is there.
    """
    from companion.service import glance

    seen = glance(path)
    return {
        "path": str(path),
        "file": path.name,
        "title": seen.title,
        "players": list(seen.players),
        "players_text": ", ".join(seen.players),
        "when": when_text(seen.last_at) if seen.last_at else "",
        "entries": seen.entries,
        "problem": seen.problem,
        "over": seen.over,
        "winner": seen.winner,
        "colours": dict(seen.colours),
    }


#: Where deleted games go: out of the games list, still on the disk (a game is never lost to one tap).
DELETED = "deleted"


def delete_game(path: str | Path) -> Path:
    """Take a game out of the games list by moving it (and SQLite's side files) into the folder's
    ``deleted`` folder; returns where it went. The banker can move it back by hand. Its phones file
    (``<game>.phones``: the phones' sign-in codes, secrets, not history) is deleted: a deleted game's
    codes sign nobody in, and a game moved back hands out new ones."""
    path = Path(path)
    for side in ("", "-wal", "-shm", "-journal"):
        path.with_name(path.name + ".phones" + side).unlink(missing_ok=True)
    keep = path.parent / DELETED
    keep.mkdir(exist_ok=True)
    target = keep / path.name
    n = 1
    while target.exists():
        target = keep / f"{path.stem}-{n}{path.suffix}"
        n += 1
    for side in ("-wal", "-shm"):
        extra = path.with_name(path.name + side)
        if extra.exists():
            extra.replace(target.with_name(target.name + side))
    path.replace(target)
    return target


def last_players(folder: Path) -> list[dict]:
    """The players (names and colours) of the game played last in ``folder``, [] when there is none."""
    for game in saved_games(folder, limit=3):
        if game["players"] and not game["problem"]:
            return [{"name": n, "colour": game["colours"].get(n) or ""} for n in game["players"]]
    return []


def game_line(game: dict[str, Any]) -> str:
    """The third line of a saved game's tile: finished with the winner, or when it was last played."""
    if game.get("over"):
        return " · ".join(
            x for x in (f"Finished: {game['winner']} won" if game.get("winner") else "Finished", game["when"]) if x
        )
    count = game["entries"]
    parts = [game["when"], f"{count} action" if count == 1 else f"{count} actions"]
    return " · ".join(x for x in parts if x)


def saved_games(folder: Path, limit: int = 20) -> list[dict[str, Any]]:
    """The games in ``folder``, the most recently played first."""
    return [describe_game(p) for p in list_games(Path(folder))[:limit]]


def pack_choices() -> list[dict[str, Any]]:
    """Every pack installed, with its title, family and options (default, help, kind) for the form."""
    choices: list[dict[str, Any]] = []
    for name in installed_packs():
        try:
            pack = installed_pack(name)
        except BankerError as e:
            choices.append({"name": name, "title": name, "family": "", "options": [], "problem": str(e)})
            continue
        options: list[dict[str, Any]] = []
        specs = pack_options(pack)
        own = pack.get("options", {})
        for key, spec in [*own.items(), *((k, v) for k, v in specs.items() if k not in own)]:  # the pack's own first
            default = spec["default"]
            kind = "bool" if isinstance(default, bool) else "amount" if isinstance(default, int) else "text"
            # an amount is shown the pack's way ("37.7M", "$1,500"), and read back the same way
            shown = (
                Currency.from_pack(pack).format(default) if kind == "amount" else "" if kind == "bool" else str(default)
            )
            options.append(
                {
                    "key": key,
                    "default": default,
                    "default_text": shown,
                    "help": spec.get("help", ""),
                    "kind": kind,
                    "label": key.replace("_", " ").capitalize(),
                }
            )
        players = pack.get("players", {})
        choices.append(
            {
                "name": name,
                "title": pack.get("title", name),
                "family": pack["family"],
                "options": options,
                "min_players": max(MIN_PLAYERS, int(players.get("min", MIN_PLAYERS)))
                if isinstance(players, dict)
                else MIN_PLAYERS,
                "max_players": min(MAX_PLAYERS, int(players.get("max", MAX_PLAYERS)))
                if isinstance(players, dict)
                else MAX_PLAYERS,
                "problem": None,
            }
        )
    return choices


_SMALL = {"of", "the", "and", "a", "an", "in", "on", "to"}
TAB_CHARS = 24  # a pack's own title longer than this reads as its name instead on the tab


def pack_label(name: str, title: str = "") -> str:
    """The pack's button: its own title when short enough ("The Game of Life"), else its name in words
    ('monopoly-city' -> 'Monopoly City', small words in lower case)."""
    if title and len(title) <= TAB_CHARS:
        return title
    words = name.replace("_", "-").split("-")
    return " ".join(w if i and w in _SMALL else w.capitalize() for i, w in enumerate(words))


def game_file_name(folder: Path, pack: str, now: _dt.datetime | None = None) -> Path:
    """A new, unused file name in ``folder``: 'classic-2025-03-12-2015.game' (then -2, -3, ...)."""
    now = now or _dt.datetime.now()
    stem = f"{re.sub(r'[^a-z0-9-]+', '-', pack.lower()).strip('-') or 'game'}-{now:%Y-%m-%d-%H%M}"
    path = Path(folder) / f"{stem}{GAME_SUFFIX}"
    n = 2
    while path.exists() or path.with_name(path.name + ".backups").exists():  # a deleted game's backups stay its own
        path = Path(folder) / f"{stem}-{n}{GAME_SUFFIX}"
        n += 1
    return path


@dataclass(frozen=True)
class NewGame:
    """The new game form: which pack, who plays in which colour, which options."""

    pack: str
    players: tuple[dict, ...] = ()
    options: dict = field(default_factory=dict)

    @classmethod
    def start(cls, pack: str | None = None, players: int = 2) -> "NewGame":
        names = installed_packs()
        chosen = pack if pack in names else ("classic" if "classic" in names else (names[0] if names else ""))
        form = cls(chosen)
        for _ in range(players):
            form = form.add_player()
        return form

    def with_players(self, people: list[dict]) -> "NewGame":
        """The players of another game (names and colours), for "same players as last time"."""
        chosen = tuple({"name": p["name"], "colour": p.get("colour") or ""} for p in people[:MAX_PLAYERS])
        form = replace(self, players=())
        for person in chosen:
            form = form.add_player(person["name"])
            if person["colour"] in PLAYER_COLOURS and person["colour"] not in {p["colour"] for p in form.players[:-1]}:
                form = replace(form, players=form.players[:-1] + ({**form.players[-1], "colour": person["colour"]},))
        return form

    def choose_pack(self, pack: str) -> "NewGame":
        """Another pack: the options go back to that pack's defaults."""
        return replace(self, pack=pack, options={})

    def add_player(self, name: str = "") -> "NewGame":
        if len(self.players) >= MAX_PLAYERS:
            return self
        colour = next_free_colour([p["colour"] for p in self.players])
        return replace(self, players=self.players + ({"name": name, "colour": colour},))

    def remove_player(self, index: int) -> "NewGame":
        if len(self.players) <= MIN_PLAYERS or not 0 <= index < len(self.players):
            return self
        return replace(self, players=self.players[:index] + self.players[index + 1 :])

    def rename(self, index: int, name: str) -> "NewGame":
        players = list(self.players)
        players[index] = {**players[index], "name": name}
        return replace(self, players=tuple(players))

    def next_colour(self, index: int) -> "NewGame":
        """Tap a player's colour: the next colour that nobody else has."""
        names = list(PLAYER_COLOURS)
        taken = {p["colour"] for i, p in enumerate(self.players) if i != index}
        current = self.players[index]["colour"]
        start = names.index(current) if current in names else -1
        for step in range(1, len(names) + 1):
            candidate = names[(start + step) % len(names)]
            if candidate not in taken:
                players = list(self.players)
                players[index] = {**players[index], "colour": candidate}
                return replace(self, players=tuple(players))
        return self

    def set_option(self, key: str, value: Any) -> "NewGame":
        return replace(self, options={**self.options, key: value})

    def names(self) -> list[str]:
        """The players' names; an empty name becomes 'Player N' as the form's hint shows."""
        return [" ".join(p["name"].split()) or f"Player {i + 1}" for i, p in enumerate(self.players)]

    def people(self) -> list[dict]:
        return [{"name": n, "colour": p["colour"]} for n, p in zip(self.names(), self.players)]

    def check(self) -> str | None:
        """Why the game cannot start yet, in one line, or None when it can."""
        if not self.pack:
            return "choose a game"
        if not MIN_PLAYERS <= len(self.players) <= MAX_PLAYERS:
            return f"a game here has {MIN_PLAYERS} to {MAX_PLAYERS} players"
        try:
            player_names_checked(self.names())  # the table's own rule for names, before a file is made
        except BankerError as e:
            return str(e)
        try:
            options_checked(self.pack, self.options)
        except BankerError as e:
            return str(e)
        return None
