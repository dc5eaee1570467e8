"""The trade screen's view-model: two players, what each gives (cash and deeds), which mortgages the
receiver lifts at once, and whether the rules accept the deal as it stands. Pure: no Kivy."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from .shown import promise
from .colours import player_colour
from .desk import Desk

__all__ = ["Deal", "trade_view"]


@dataclass(frozen=True)
class Deal:
    """A deal being put together: ``a`` and ``b``, each side's cash and deeds, deeds to lift."""

    a: str = ""
    b: str = ""
    give_cash: int = 0
    get_cash: int = 0
    give: tuple[str, ...] = ()
    get: tuple[str, ...] = ()
    lift: tuple[str, ...] = field(default_factory=tuple)

    def toggle(self, deed: str, side: str) -> "Deal":
        items = list(self.give if side == "give" else self.get)
        if deed in items:
            items.remove(deed)
            lift = tuple(d for d in self.lift if d != deed)
        else:
            items.append(deed)
            lift = self.lift
        chosen: dict[str, Any] = {side: tuple(items)}  # side is "give" or "get"
        return replace(self, **chosen, lift=lift)

    def toggle_lift(self, deed: str) -> "Deal":
        return replace(
            self, lift=tuple(d for d in self.lift if d != deed) if deed in self.lift else self.lift + (deed,)
        )

    def add_cash(self, side: str, amount: int) -> "Deal":
        key = "give_cash" if side == "give" else "get_cash"
        cash: dict[str, Any] = {key: max(0, getattr(self, key) + amount)}
        return replace(self, **cash)

    def clear_cash(self, side: str) -> "Deal":
        cash: dict[str, Any] = {"give_cash" if side == "give" else "get_cash": 0}
        return replace(self, **cash)

    def with_players(self, a: str, b: str) -> "Deal":
        return Deal(a=a, b=b)

    def action(self, takes_lift: bool = True) -> dict:
        act: dict[str, Any] = {"action": "trade", "a": self.a, "b": self.b}
        if self.give_cash or self.give:
            act["give"] = {
                **({"cash": self.give_cash} if self.give_cash else {}),
                **({"deeds": list(self.give)} if self.give else {}),
            }
        if self.get_cash or self.get:
            act["get"] = {
                **({"cash": self.get_cash} if self.get_cash else {}),
                **({"deeds": list(self.get)} if self.get else {}),
            }
        if self.lift and takes_lift:
            act["lift"] = list(self.lift)
        return act


def _side(desk: Desk, player: str, chosen: tuple[str, ...], lift: tuple[str, ...]) -> list[dict[str, Any]]:
    rows = []
    for d in desk.state()["deeds"]:
        if d.get("owner") == player:
            rows.append(
                {
                    "deed": d["name"],
                    "chosen": d["name"] in chosen,
                    "mortgaged": bool(d.get("mortgaged")),
                    "lift": d["name"] in lift,
                }
            )
    return rows


def _words(desk: Desk, who: str, cash: int, deeds: tuple[str, ...]) -> str:
    parts = ([desk.fmt(cash)] if cash else []) + list(deeds)
    return f"{who} gives {', '.join(parts)}" if parts else f"{who} gives nothing"


def trade_view(desk: Desk, deal: Deal) -> dict[str, Any]:
    state = desk.state()
    spec = desk.specs.get("trade")
    takes_lift = bool(spec and "lift" in spec.optional)
    players = [{"name": p["name"], "colour": player_colour(p["colour"])} for p in state["players"] if not p["bankrupt"]]
    ready = bool(deal.a and deal.b and deal.a != deal.b and (deal.give or deal.get or deal.give_cash or deal.get_cash))
    refused, preview = None, None
    if ready:
        preview, refused = desk.preview(deal.action(takes_lift))

    def pays(who: str) -> int:
        """All that ``who`` pays in this deal: cash, and the bank's 10% on a mortgaged deed received."""
        return sum(p.amount for p in preview.postings if p.payer == who) if preview is not None else 0

    return {
        "players": players,
        "a": deal.a,
        "b": deal.b,
        "give_rows": _side(desk, deal.a, deal.give, deal.lift) if deal.a else [],
        "get_rows": _side(desk, deal.b, deal.get, deal.lift) if deal.b else [],
        "give_cash_text": desk.fmt(deal.give_cash),
        "get_cash_text": desk.fmt(deal.get_cash),
        "give_title": f"{deal.a or '?'} gives {desk.fmt(deal.give_cash)}",
        "get_title": f"{deal.b or '?'} gives {desk.fmt(deal.get_cash)}",
        "give_total": f"{deal.a} pays {desk.fmt(pays(deal.a))} in all" if preview is not None else "",
        "get_total": f"{deal.b} pays {desk.fmt(pays(deal.b))} in all" if preview is not None else "",
        "preview": preview.summary if preview is not None else "",
        "promise": promise(preview),
        "takes_lift": takes_lift,
        "sentence": "; ".join(
            [
                _words(desk, deal.a or "?", deal.give_cash, deal.give),
                _words(desk, deal.b or "?", deal.get_cash, deal.get),
            ]
        ),
        "confirm_text": (preview.summary[:1].upper() + preview.summary[1:])
        if preview is not None
        else "; ".join(
            [
                _words(desk, deal.a or "?", deal.give_cash, deal.give),
                _words(desk, deal.b or "?", deal.get_cash, deal.get),
            ]
        ),
        "ready": ready,
        "refused": refused,
    }
