"""A game at the table, for tests: short calls that read like the banker's taps."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.core.errors import BankerError
from companion.service import Banker


class AtTheTable:
    """Wraps a Banker: ``t.do("buy", player="Ann", deed="Boardwalk")``, ``t.cash("Ann")``."""

    def __init__(self, banker: Banker) -> None:
        self.banker = banker

    @classmethod
    def new(cls, folder: Path, rules: str, *players: str, name: str = "game.game", **options) -> "AtTheTable":
        opts = {k: str(v).lower() if isinstance(v, bool) else str(v) for k, v in options.items()}
        return cls(Banker.create(folder / name, rules, list(players), opts, backup_every=0))

    @property
    def table(self) -> dict:
        return self.banker.table

    def do(self, action: str, **fields):
        return self.banker.do({"action": action, **fields})

    def refused(self, action: str, **fields) -> str:
        """Assert the action is refused and changes nothing; return the reason."""
        before, version = self.banker.table, self.banker.version
        with pytest.raises(BankerError) as caught:
            self.do(action, **fields)
        assert self.banker.table == before
        assert self.banker.version == version
        assert self.banker.log()[-1].seq == version
        reason = str(caught.value)
        assert reason and "\n" not in reason
        return reason

    def cash(self, who: str) -> int:
        return self.banker.table["accounts"][who]

    def pot(self, name: str) -> int:
        return self.banker.table["accounts"][f"pot:{name}"]

    def owner(self, deed: str):
        return self.banker.table["deeds"][deed].get("owner")

    def deed(self, deed: str) -> dict:
        """A deed's state, with the values a missing key stands for (owned by the bank, not mortgaged)."""
        return {"owner": None, "mortgaged": False, **self.banker.table["deeds"][deed]}

    def give(self, player: str, *deeds: str) -> None:
        """Set up: the player buys these deeds at their printed price."""
        for deed in deeds:
            self.do("buy", player=player, deed=deed)

    def total(self) -> int:
        return sum(self.banker.table["accounts"].values())

    def close(self) -> None:
        self.banker.close()
