"""Actions in, events out: ``decide(table, action, rules)`` and the fold that applies them.

A rule family is a :class:`Rules` object: pack data plus a registry of action handlers. A handler gets a
:class:`Tx` (the table as it stands, plus the events decided so far) and the action's fields; it checks
the rules, records events through the Tx and returns one sentence for the log. If it raises, nothing of
the action happens. The core knows no family: families plug in, as plugins do in a ledger.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Iterator

from . import events as ev
from .contract import ActionSpec, Field, Preview, check_in_game, parse
from .errors import BadAction, NotEnoughMoney, Refused
from .model import BANK, Table, active_players, cash, current_player, pot_seed
from .money import Currency
from .text import shown

__all__ = [
    "Tx",
    "Rules",
    "Registry",
    "Handler",
    "closed",
    "decide",
    "decide_full",
    "decide_typed",
    "ENDING",
    "GAME_OVER",
    "require_own_turn",
    "start",
    "fold",
    "ranking",
    "may_be_empty",
]

Handler = Callable[["Tx", dict[str, Any]], str]


class Registry:
    """A set of declared actions. A family is the registries it lists, later ones overriding earlier.

    ``Registry(MONEY, DEEDS, HOUSES)`` includes those sets whole; a family that plays without houses simply
    does not list them. Each action is declared with its fields (see :mod:`companion.core.contract`)::

        @DEEDS.action("rent", c.player("payer", "Who pays"), c.deed(), says="...")
        def rent(tx, a): ...

    ``offered=`` names the game options an action needs (``offered=is_advanced``): a game without them
    does not list it among its actions. ``own_turn=`` is the rulebook's reason when the action belongs to
    its player's own turn (``turn_field`` names that player, "player" unless told): the engine checks it
    for every family in one place, before the rule itself runs.
    """

    def __init__(self, *parts: "Registry") -> None:
        self.specs: dict[str, ActionSpec] = {}
        for part in parts:
            self.specs.update(part.specs)

    def action(
        self,
        name: str,
        *fields: Field,
        says: str | None = None,
        label: str = "",
        group: str = "money",
        offered: Callable[[Table], bool] | None = None,
        own_turn: str = "",
        turn_field: str = "player",
    ) -> Callable[[Handler], Handler]:
        names = [f.name for f in fields]
        if len(set(names)) != len(names):  # pragma: no cover - a declaration bug
            raise AssertionError(f"{name} declares a field twice")
        if own_turn and turn_field not in names:  # pragma: no cover - a declaration bug
            raise AssertionError(f"{name} is bound to the turn of {turn_field!r}, which it does not declare")

        def register(fn: Handler) -> Handler:
            first_paragraph = (fn.__doc__ or "").strip().split("\n\n")[0]
            sentence = says or " ".join(first_paragraph.split())
            self.specs[name] = ActionSpec(
                name, sentence, tuple(fields), fn, label or _label(name), group, offered, own_turn, turn_field
            )
            return fn

        return register

    def spec(self, name: object) -> ActionSpec:
        found = self.specs.get(name.strip().lower()) if isinstance(name, str) else None
        if found is None:
            raise BadAction(f"unknown action {shown(name)}")
        return found

    def __iter__(self) -> Iterator[ActionSpec]:
        return iter(self.specs.values())


def _label(name: str) -> str:
    return name.replace("_", " ").capitalize()


@dataclass
class Rules:
    """A rule family bound to one pack's data. Everything here is pure."""

    family: str
    registry: Registry
    could_raise: Callable[[Table, str], int] = lambda table, player: 0
    worth: Callable[[Table, str], int] = lambda table, player: cash(table, player)
    check_card: Callable[[str, dict[str, Any]], None] = lambda name, card: None
    #: How a deed's state is said on screens and phones, in the family's words ("3 houses", "level 2").
    marks: Callable[[Table, str], list[str]] = lambda table, deed: (
        ["mortgaged"] if table["deeds"][deed].get("mortgaged") else []
    )
    opening: Callable[["Tx"], str] | None = None
    extras: dict[str, Any] = field(default_factory=dict)


class Tx:
    """The table during one action: records events and keeps its own view of the table up to date."""

    def __init__(self, table: Table, rules: Rules) -> None:
        self.table = table
        self.rules = rules
        self.events: list[dict[str, Any]] = []
        self.currency = Currency.from_pack(table["pack"])

    # -- reading -----------------------------------------------------------------------------------
    def fmt(self, amount: int) -> str:
        return self.currency.format(amount)

    def get(self, *path: str, default: Any = None) -> Any:
        node: Any = self.table
        for key in path:
            if not isinstance(node, dict) or key not in node:
                return default
            node = node[key]
        return node

    def option(self, key: str) -> Any:
        return self.table["options"].get(key)

    # -- writing -----------------------------------------------------------------------------------
    def record(self, event: dict[str, Any]) -> None:
        self.table = ev.apply(self.table, event)
        self.events.append(event)

    def pay(self, payer: str, payee: str, amount: int, memo: str = "") -> None:
        """Move money; a player or pot can never go below zero (the bank can: it issues money)."""
        if amount == 0:
            return
        if amount < 0:
            raise BadAction(f"cannot pay a negative amount ({self.fmt(amount)})")
        if payer == payee:
            raise Refused(f"{payer} cannot pay {payer}")
        if payer != BANK:
            have = cash(self.table, payer)
            if have < amount:
                raise self.short_of(payer, amount, memo)
        self.record(ev.paid(payer, payee, amount, memo))

    def short_of(self, payer: str, amount: int, memo: str = "") -> Refused:
        have = cash(self.table, payer)
        what = f" for {memo}" if memo else ""
        if payer.startswith("pot:"):
            return Refused(f"the {payer[4:]} pot holds {self.fmt(have)}, not {self.fmt(amount)}{what}")
        raisable = self.rules.could_raise(self.table, payer)
        # A family may word the hint its own way: extras "raise_hint" (with {amount}) and "no_raise_hint".
        hint = (
            "; "
            + self.rules.extras.get("raise_hint", "selling buildings and mortgaging could raise {amount} more").format(
                amount=self.fmt(raisable)
            )
            if raisable
            else "; " + self.rules.extras.get("no_raise_hint", "nothing left to sell or mortgage")
        )
        return NotEnoughMoney(f"{payer} has {self.fmt(have)} but needs {self.fmt(amount)}{what}{hint}")

    def set(self, path: Iterable[str], new: Any) -> None:
        path = list(path)
        old = self.get(*path)
        if old != new:
            self.record(ev.changed(path, old, new))


#: Why a finished game takes no action: undo (not an action, an entry of the log) goes back into it.
GAME_OVER = "the game is over; undo to go back into it"

#: The action that ends a game: on a finished game its own rule says why not.
ENDING = "end_game"


def closed(table: Table, name: str) -> str | None:
    """Why no action named ``name`` can be done on ``table``, whatever its fields say (None when one
    may): a finished game takes none, but ending it, which its own rule refuses. Screens grey an
    action with this reason before any of its fields is asked."""
    if table.get("over") and name != ENDING:
        return GAME_OVER
    return None


def decide_full(table: Table, action: dict[str, Any], rules: Rules) -> Preview:
    """Decide ``action`` on ``table``: its events, its sentence and the table after them, nothing committed.

    The action is read through the contract first (:func:`companion.core.contract.parse`). Raises
    :class:`BadAction` for a malformed action and :class:`Refused` when a rule forbids it.
    """
    if not isinstance(action, dict):
        raise BadAction('an action is a JSON object with an "action" key')
    name = action.get("action")
    if not isinstance(name, str):
        raise BadAction('the action has no "action" name')
    spec = rules.registry.specs.get(name)  # the name as declared (nearly always): no spelling to read
    if spec is None:
        try:
            spec = rules.registry.spec(name)
        except BadAction:
            raise BadAction(f"unknown action {shown(name)} for {rules.family} games") from None
    return decide_typed(table, spec, parse(spec, table, action), rules)


def decide_typed(table: Table, spec: ActionSpec, typed: dict[str, Any], rules: Rules) -> Preview:
    """Decide an action the contract has already read (``typed``: what :func:`contract.parse` returns,
    every name found and every amount read): the rule runs on those values without reading them again."""
    why = closed(table, spec.name)
    if why is not None:
        raise Refused(why)
    if spec.own_turn:
        require_own_turn(table, spec, typed)
    check_in_game(spec, table, typed)
    tx = Tx(table, rules)
    text = spec.handler(tx, typed)
    events = tx.events
    if not events and not getattr(spec.handler, "may_be_empty", False):
        raise Refused(f"{spec.name} would change nothing")
    check_conservation(tx.table, events)
    return Preview(typed, text, tuple(events), tx.table)


def require_own_turn(table: Table, spec: ActionSpec, typed: dict[str, Any]) -> None:
    """Refuse an action the rulebook binds to its player's own turn when it is someone else's turn.

    The one place every family's "during your turn" is checked; the banker may still do it for the
    player whose turn it is."""
    who = typed.get(spec.turn_field)
    now = current_player(table)
    if isinstance(who, str) and now is not None and who != now:
        raise Refused(f"it is {now}'s turn, not {who}'s: {spec.own_turn}")


def decide(table: Table, action: dict[str, Any], rules: Rules) -> tuple[list[dict[str, Any]], str]:
    """The events that ``action`` makes on ``table`` under ``rules``, and a sentence for the log."""
    p = decide_full(table, action, rules)
    return list(p.events), p.summary


def may_be_empty(fn: Handler) -> Handler:
    """Mark a handler whose action may legitimately move nothing (a rent of zero, say)."""
    fn.may_be_empty = True  # type: ignore[attr-defined]
    return fn


def check_conservation(table: Table, events: list[dict[str, Any]] | None = None) -> None:
    """Money neither made nor destroyed, and nobody but the bank below zero, on ``table``. ``events``:
    what moved ``table`` from one that held both (every table a game reaches does): a payment of a
    whole number moves as much out of one account as into another, so only the accounts it touched are
    looked at; any other change to the accounts has the whole table checked."""
    if events is not None:
        accounts = table["accounts"]
        for event in events:
            if event["type"] == "Paid" and type(event["amount"]) is int:
                for account in (event["from"], event["to"]):
                    if account != BANK and accounts[account] < 0:  # pragma: no cover - a bug in a rule
                        raise AssertionError(f"{account} would hold {accounts[account]}")
            elif event["type"] != "Changed" or event["path"][0] == "accounts":
                break  # a change the events cannot vouch for: the whole table is checked
        else:
            return
    total = sum(table["accounts"].values())
    if total != 0:  # pragma: no cover - a bug in a rule, never a user's fault
        raise AssertionError(f"money was created or destroyed: accounts sum to {total}")
    for account, balance in table["accounts"].items():
        if account != BANK and balance < 0:  # pragma: no cover
            raise AssertionError(f"{account} would hold {balance}")


def start(table: Table, rules: Rules) -> tuple[list[dict[str, Any]], str]:
    """The events that open a game: by default every player receives the pack's starting cash."""
    tx = Tx(table, rules)
    if rules.opening is not None:
        text = rules.opening(tx)
    else:
        amount = table["pack"].get("start_cash", 0)
        for player in table["order"]:
            tx.pay(BANK, player, amount, "starting cash")
        text = f"New game: {', '.join(table['order'])} start with {tx.fmt(amount)} each"
    for pot in table["pots"]:
        seed = pot_seed(tx.table, pot)
        if seed:
            tx.pay(BANK, f"pot:{pot}", int(seed), f"the bank seeds the {pot} pot")
    check_conservation(tx.table)
    return tx.events, text


def fold(table: Table, events: Iterable[dict[str, Any]]) -> Table:
    return ev.apply_all(table, events)


def ranking(table: Table, rules: Rules) -> list[dict[str, Any]]:
    """Players by worth, richest first (bankrupt players last, in the order they went out)."""
    rows: list[dict[str, Any]] = [
        {"player": p, "worth": rules.worth(table, p), "cash": cash(table, p)} for p in active_players(table)
    ]
    rows.sort(key=lambda r: (-r["worth"], -r["cash"]))
    return rows
