"""Jail, whatever a game calls it: go in, pay the fine to come out, or come out free.

Classic Monopoly's jail, the variant's Bondage and Greenopoly's Night are one rule with different words:
the place's name (the pack's ``names.jail``), the actions' names, where the fine goes, and who is spared
(Greenopoly spares some characters). :func:`jail_actions` builds the three actions for one game.
"""

from __future__ import annotations

from typing import Any, Callable, cast

from companion.core import contract as c
from companion.core.engine import Registry, Tx
from companion.core.errors import Refused
from companion.core.said import who
from companion.core.model import BANK

__all__ = ["jail_actions", "place_name"]


def place_name(tx: Tx) -> str:
    """What this game calls jail ("jail", "Bondage", "Night")."""
    return cast("str", tx.table["pack"].get("names", {}).get("jail", "jail"))


def jail_actions(
    go: str = "jail",
    pay: str = "jail_fine",
    leave: str = "leave_jail",
    *,
    fine: Callable[[Tx], int] = lambda tx: tx.table["pack"]["fines"]["jail"],
    fine_to: Callable[[Tx], str] = lambda tx: BANK,
    spared: Callable[[Tx, str], str | None] = lambda tx, player: None,
    freed_by: str = "doubles, or a get-out card",
    fine_on_own_turn: str = "",
) -> Registry:
    """The three jail actions under the given names; ``spared`` returns why a player is not sent, or None;
    ``fine_on_own_turn``: the rulebook's reason when the fine is paid only on the prisoner's own turn."""
    actions = Registry()

    @actions.action(
        go, c.player(), label="Go to {jail}", group="turn", says="The player is sent to {jail} (no salary on the way)."
    )
    def go_in(tx: Tx, a: dict[str, Any]) -> str:
        player = a["player"]
        why = spared(tx, player)
        if why:
            raise Refused(why)
        if tx.table["players"][player]["in_jail"]:
            raise Refused(f"{player} is already in {place_name(tx)}")
        tx.set(["players", player, "in_jail"], True)
        return who(player) + f" went to {place_name(tx)}"

    @actions.action(
        pay,
        c.player(only=_inside),
        label="Pay to leave {jail}",
        group="turn",
        says="A player in {jail} pays the fine to come out.",
        own_turn=fine_on_own_turn,
    )
    def pay_out(tx: Tx, a: dict[str, Any]) -> str:
        player = a["player"]
        if not tx.table["players"][player]["in_jail"]:
            raise Refused(f"{player} is not in {place_name(tx)}")
        amount = fine(tx)
        tx.pay(player, fine_to(tx), amount, f"fine to leave {place_name(tx)}")
        tx.set(["players", player, "in_jail"], False)
        return who(player) + f" paid {tx.fmt(amount)} to leave {place_name(tx)}"

    @actions.action(
        leave,
        c.player(only=_inside),
        label="Leave {jail} free",
        group="turn",
        says=f"A player in {{jail}} comes out without paying ({freed_by}).",
    )
    def come_out(tx: Tx, a: dict[str, Any]) -> str:
        player = a["player"]
        if not tx.table["players"][player]["in_jail"]:
            raise Refused(f"{player} is not in {place_name(tx)}")
        tx.set(["players", player, "in_jail"], False)
        return who(player) + f" left {place_name(tx)}"

    return actions


def _inside(table: dict[str, Any], partial: dict[str, Any]) -> list[str]:
    return [p for p, rec in table["players"].items() if rec.get("in_jail") and not rec["bankrupt"]]
