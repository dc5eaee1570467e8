"""What each role may see: a player's own page, and the banker's.

Pure functions over the public state (:func:`companion.views.state_json`), the chronicle's series and
lines, and the payment requests. A player sees their own money, deeds, loans and story in full; of the
other players only what the rules make public - by default name, colour, cash and how many deeds they
hold; a rule family narrows or widens that with ``rules.extras["phone_public"]`` (a tuple of the
fields "cash", "deeds", "worth"). Pots are public. The banker sees everything.
"""

from __future__ import annotations

from typing import Any, Collection, Iterable, Mapping

from companion.core.money import Currency
from companion.views import deed_marks

__all__ = [
    "player_view",
    "player_row",
    "player_me",
    "payees_of",
    "may_request",
    "ME_LAST",
    "banker_view",
    "common",
    "currency_of",
    "DEFAULT_PUBLIC",
    "deed_line",
    "loan_line",
    "signed",
]

DEFAULT_PUBLIC = ("cash", "deeds")


_last_currency: tuple[Any, Currency] | None = None


def currency_of(state: dict) -> Currency:
    """The state's currency, made once while the pack's stays the same."""
    global _last_currency
    cur = state.get("currency") or {}
    kept = _last_currency
    if kept is not None and kept[0] is cur:  # the pack's own currency, the same at every action
        return kept[1]
    made = Currency(cur.get("symbol", "$"), cur.get("style", "plain"))
    _last_currency = (cur, made)
    return made


def _typed(schema: dict, value: Any) -> Any:
    """A deed's state value as its declared JSON type says, else the declared default."""
    kind = schema.get("type")
    if kind == "boolean":
        return bool(value) if value is not None else schema.get("default", False)
    if kind == "integer":
        return value if isinstance(value, int) and not isinstance(value, bool) else schema.get("default", 0)
    if kind == "string":
        return value if isinstance(value, str) else schema.get("default")
    return value if value is not None else schema.get("default")


def deed_line(deed: dict, fields: Mapping[str, dict] | None = None) -> dict[str, Any]:
    """A deed for a phone: name, colour group, kind, its marks ("mortgaged", "3 houses", "level 2") and
    what its family says a deed holds (``rules.extras["deed_fields"]``: houses and a hotel for a street,
    a level for a park), each always present."""
    line = {
        "name": deed["name"],
        "group": deed.get("group", ""),
        "kind": deed.get("kind", ""),
        "marks": deed_marks(deed),
    }
    for name, schema in (fields or {}).items():
        line[name] = _typed(schema, deed.get(name))
    return line


def _whole(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def loan_line(loan: Any, currency: Currency, turn: int) -> dict[str, Any]:
    """A loan or note as one line: what it is, how much, and when it falls due.

    Families describe debts their own way; this reads the common keys: ``text``/``label``/``kind``,
    ``amount``, and either ``due_turn`` (a turn number of the table) or ``due_in_turns`` (counted
    turns left), plus ``overdue``. A family whose ``text`` already says when the debt falls due
    declares it (``says_when``: City Life's "loan $1,200 due in 3 turns"), and the line adds no
    ``due_text`` of its own; nothing here reads the text to find out.
    """
    if not isinstance(loan, dict):
        return {
            "text": str(loan),
            "amount": None,
            "amount_text": "",
            "due_turn": None,
            "turns_left": None,
            "overdue": False,
            "due_text": "",
        }
    amount = _whole(loan.get("amount"))
    text = loan.get("text") or loan.get("label")
    if not text:
        what = str(loan.get("kind") or "loan").capitalize()
        text = f"{what} of {currency.format(amount)}" if amount is not None else what
    due = _whole(loan.get("due_turn", loan.get("due")))
    left = due - turn if due is not None else _whole(loan.get("due_in_turns"))
    overdue = bool(loan.get("overdue")) or (left is not None and left < 0)
    due_text = ""
    if not loan.get("says_when"):  # the family's own text says when, as it declares
        if overdue:
            due_text = "overdue"
        elif due is not None:
            due_text = f"due turn {due}" + (" (this turn)" if left == 0 else f" ({left} to go)")
        elif left is not None:
            due_text = "due now" if left == 0 else f"due in {left} turn{'s' if left != 1 else ''}"
    return {
        "text": str(text),
        "amount": amount,
        "amount_text": currency.format(amount) if amount is not None else "",
        "due_turn": due,
        "turns_left": left,
        "overdue": overdue,
        "due_text": due_text,
    }


def _deeds_of(state: dict, name: str, fields: Mapping[str, dict] | None) -> list[dict]:
    owned = {d["name"]: d for d in state["deeds"] if d.get("owner") == name}
    return [deed_line(owned[n], fields) for n in owned]


def common(state: dict) -> dict[str, Any]:
    """The first members of every role's page: the same for every phone after one change."""
    return {
        "version": state["version"],
        "title": state["title"],
        "rules": state["rules"],
        "currency": state["currency"],
        "turn": state["turn"],
        "over": state.get("over"),
        "pots": [
            {"name": p["name"], "label": p["label"], "amount": p["amount"], "amount_text": p["amount_text"]}
            for p in state["pots"]
        ],
    }


def player_row(
    p: dict, me: str | None, to_play: str | None, public: Collection[str], currency: Currency
) -> dict[str, Any]:
    """Player ``p`` as ``me`` sees them on the list of players: their own row in full, another's as the
    rules make public. Every other player's row is the same whoever looks."""
    mine = p["name"] == me
    row: dict[str, Any] = {
        "name": p["name"],
        "colour": p["colour"],
        "bankrupt": p["bankrupt"],
        "in_jail": p["in_jail"],
        "me": mine,
        "to_play": p["name"] == to_play,
    }
    if mine or "cash" in public:
        row["cash"], row["cash_text"] = p["cash"], p["cash_text"]
    if mine or "deeds" in public:
        row["deed_count"] = len(p["deeds"])
    if mine or "worth" in public:
        row["worth_text"] = currency.format(p["net_worth"])
    return row


def player_me(
    state: dict, mine: dict, currency: Currency, worth: list[list[int]], deed_fields: Mapping[str, dict] | None
) -> dict[str, Any]:
    """The part of player ``mine``'s page about themselves, but their chart and story (:data:`ME_LAST`)."""
    loans = mine.get("loans")
    return {
        "name": mine["name"],
        "colour": mine["colour"],
        "cash": mine["cash"],
        "cash_text": mine["cash_text"],
        "worth": mine["net_worth"],
        "worth_text": currency.format(mine["net_worth"]),
        "bankrupt": mine["bankrupt"],
        "in_jail": mine["in_jail"],
        "turns_to_miss": mine.get("turns_to_miss", 0),
        "deeds": _deeds_of(state, mine["name"], deed_fields) if state["deeds"] else [],  # else nobody holds one
        "loans": [loan_line(loan, currency, state["turn"]["number"]) for loan in loans] if loans else [],
        "worth_start_text": currency.format(worth[0][1]) if worth else "",
    }


#: The last members of ``me`` on a player's page, in this order: the chart and the story (the phones'
#: server splices them in as the chronicle wrote them).
ME_LAST = ("worth_series", "story")


def payees_of(state: dict, me: str) -> list[str]:
    """Whom player ``me`` may ask to pay from their phone: the bank and every other player still in."""
    return ["bank"] + [p["name"] for p in state["players"] if p["name"] != me and not p["bankrupt"]]


def may_request(state: dict, mine: dict, can_request: bool) -> bool:
    """Whether player ``mine`` may ask from their phone now (the game allows it, ``can_request``)."""
    return can_request and not mine["bankrupt"] and not state.get("over")


def player_view(
    state: dict,
    me: str,
    *,
    worth: list[list[int]],
    story: list[dict],
    requests: Iterable[dict],
    can_request: bool,
    public: Iterable[str] = DEFAULT_PUBLIC,
    deed_fields: Mapping[str, dict] | None = None,
) -> dict[str, Any]:
    """The page of player ``me``: their money in full, the others as the rules make public; each deed
    with the ``deed_fields`` its family declares. Its members in order: the common ones, ``role``,
    ``me`` (:func:`player_me`, then :data:`ME_LAST`), ``players`` (:func:`player_row`), ``requests``,
    ``can_request``, ``payees`` (the phones' server writes ``me`` last: :class:`~.desk.PhoneDesk`)."""
    currency = currency_of(state)
    public = frozenset(public)
    mine = next(p for p in state["players"] if p["name"] == me)
    to_play = state["turn"]["player"]
    story = [
        line if "change_text" in line else {**line, "change_text": signed(currency, line.get("change", 0))}
        for line in story
    ]  # the chronicle tells each line's change once, when the line is made
    return {
        **common(state),
        "role": "player",
        "me": {**player_me(state, mine, currency, worth, deed_fields), "worth_series": worth, "story": story},
        "players": [player_row(p, me, to_play, public, currency) for p in state["players"]],
        "requests": list(requests),
        "can_request": may_request(state, mine, can_request),
        "payees": payees_of(state, me),
    }


def banker_view(
    state: dict,
    *,
    log: list[dict],
    pending: Iterable[dict],
    answered: Iterable[dict],
    deed_fields: Mapping[str, dict] | None = None,
    undo_text: str | None = None,
) -> dict[str, Any]:
    """The banker's page: every player in full, the requests waiting, the latest log lines."""
    currency = currency_of(state)
    players = []
    for p in state["players"]:
        players.append(
            {
                "name": p["name"],
                "colour": p["colour"],
                "cash": p["cash"],
                "cash_text": p["cash_text"],
                "worth": p["net_worth"],
                "worth_text": currency.format(p["net_worth"]),
                "bankrupt": p["bankrupt"],
                "in_jail": p["in_jail"],
                "to_play": p["name"] == state["turn"]["player"],
                "deeds": _deeds_of(state, p["name"], deed_fields),
                "deed_count": len(p["deeds"]),
                "loans": [loan_line(loan, currency, state["turn"]["number"]) for loan in p.get("loans", [])],
            }
        )
    return {
        **common(state),
        "role": "banker",
        "players": players,
        "pending": list(pending),
        "answered": list(answered),
        "log": log,
        "undo_text": undo_text,
        "bank": state.get("bank", {}),
        "stock": state.get("stock", {}),
    }


def signed(currency: Currency, change: int) -> str:
    """A change to a player's cash as the page shows it: "+$200", "-$50", or nothing."""
    if not change:
        return ""
    return ("+" if change > 0 else "-") + currency.format(abs(change))
