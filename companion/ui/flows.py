"""Flows: how an action is put together by taps, from the fields its rule family declares.

Every action a family registers (``rules.registry.specs``: name, required and optional fields,
summary) gets a generic flow: the screen asks each missing field in turn with the right chooser (a
player's tile, a deed, the keypad, a count). The common actions get dedicated flows that prefill what
the table already knows (the player whose turn it is, the bank as payee), so they take two or three
taps. A new family's actions therefore appear on the touchscreen without any UI code.

Pure: no Kivy. A form is a frozen value; each tap makes a new one.
"""
from __future__ import annotations

import re
import uuid
from dataclasses import dataclass, field, replace
from typing import Any

__all__ = [
    "field_kind",
    "field_label",
    "action_label",
    "COMMON_BUTTONS",
    "ActionForm",
    "start_flow",
    "buttons_for",
    "missing_field_named",
    "typed_value",
    "destructive_question",
    "for_people",
    "more_menu",
]

_KINDS = {
    "player": "player", "payer": "player", "winner": "player", "a": "player", "b": "player",
    "owner": "player", "bidder": "player", "lender": "player", "borrower": "player",
    "from": "account", "to": "account", "creditor": "account",
    "deed": "deed", "pot": "pot",
    "amount": "amount", "bid": "amount", "price": "amount", "per_house": "amount", "per_hotel": "amount",
    "cash": "amount", "sum": "amount", "value": "amount", "stake": "amount",
    "count": "count", "times": "count", "turns": "count", "blocks": "count",
    "dice": "dice",
    "building": "choice", "multiplier": "choice", "tax": "choice", "choice": "choice",
    "memo": "text", "reason": "text",
    "values": "card",
    "give": "side", "get": "side",
    "lift": "deeds", "deeds": "deeds",
}

_LABELS = {
    "from": "Who pays", "to": "Who receives", "payer": "Who pays", "player": "Which player",
    "winner": "Who won", "a": "First player", "b": "Second player", "creditor": "Owed to",
    "deed": "Which deed", "pot": "Which pot", "amount": "How much", "bid": "Winning bid",
    "price": "Total price", "per_house": "Per house", "per_hotel": "Per hotel", "count": "How many",
    "times": "How many times", "turns": "How many turns", "dice": "Dice total", "building": "Houses or a hotel",
    "multiplier": "Card multiplier", "tax": "Which tax", "choice": "Flat sum or percentage",
    "memo": "Note", "reason": "Reason", "values": "Card values",
}

_ACTION_LABELS = {
    "next_turn": "Next turn", "unmortgage": "Lift mortgage", "sell_building": "Sell buildings",
    "jail_fine": "Jail fine", "leave_jail": "Leave jail", "win_pot": "Win pot",
    "collect_from_all": "Collect from all", "pay_to_all": "Pay everyone", "miss_turns": "Miss turns",
    "correct_card": "Correct a card", "end_game": "End game", "bankrupt": "Bankrupt",
    "pay": "Pay bank", "collect": "Collect", "transfer": "Transfer",
}

#: The table's big buttons, in order, when the family has the action they need.
COMMON_BUTTONS = ("salary", "pay", "collect", "transfer", "rent", "buy", "auction", "build", "next_turn")

#: Buttons that are not an action of their own but a transfer with the bank on one side.
_TRANSFER_SHAPES = {"pay": ("player", "bank"), "collect": ("bank", "player")}

#: The fields that name who acts in an action (the first one an action has is prefilled).
ACTING_FIELDS = ("player", "payer", "from", "a")

#: Actions that end something for good: they always ask "are you sure?".
DESTRUCTIVE = {"bankrupt", "end_game"}


def field_kind(name: str) -> str:
    """What kind of chooser a field needs: player, account, deed, pot, amount, count, dice, choice,
    text, card, side or deeds. Unknown fields are guessed from their name."""
    if name in _KINDS:
        return _KINDS[name]
    if re.search(r"(amount|cash|cost|price|bid|fee|loan|money)$", name):
        return "amount"
    if re.search(r"(player|payer|payee|winner|owner)$", name):
        return "player"
    if name.endswith("deed"):
        return "deed"
    return "text"


def field_label(name: str) -> str:
    return _LABELS.get(name, name.replace("_", " ").capitalize())


def action_label(name: str) -> str:
    return _ACTION_LABELS.get(name, name.replace("_", " ").capitalize())


_CHOICES: dict[str, list[tuple[Any, str]]] = {
    "building": [("house", "Houses"), ("hotel", "A hotel")],
    "multiplier": [(2, "Railroad card: pay double"), (10, "Utility card: ten times the dice")],
    "choice": [("flat", "Flat sum"), ("percent", "Percentage of worth")],
}


def choices_for(name: str, pack: dict) -> list[tuple[Any, str]]:
    """The fixed answers of a choice field (taxes come from the pack)."""
    if name == "tax":
        return [(key, f"{rule.get('label', key).capitalize()}") for key, rule in pack.get("taxes", {}).items()]
    return list(_CHOICES.get(name, []))


@dataclass(frozen=True)
class ActionForm:
    """An action being put together: its name, its fields, what is filled, and its idempotency id.

    The id is made once when the flow opens, so a double tap on Confirm applies the action once.
    """

    action: str
    required: tuple[str, ...]
    optional: tuple[str, ...] = ()
    values: dict = field(default_factory=dict)
    asked: tuple[str, ...] = ()  # optional fields this flow asks for
    id: str = ""
    button: str = ""  # the table button that opened the flow ("pay" for a transfer to the bank)
    back: str = "table"  # the screen to return to once the action is done
    actor: str = ""  # the field naming who acts: the player to play unless the banker picks another here

    def pending(self) -> list[str]:
        """Fields still to ask, in order: required ones, then the optional ones this flow asks."""
        wanted = list(self.required) + [f for f in self.asked if f not in self.required]
        return [f for f in wanted if self.values.get(f) in (None, "")]

    def next_field(self) -> str | None:
        rest = self.pending()
        return rest[0] if rest else None

    @property
    def ready(self) -> bool:
        return not self.pending()

    def fill(self, name: str, value: Any) -> "ActionForm":
        return replace(self, values={**self.values, name: value})

    def clear(self, name: str) -> "ActionForm":
        values = dict(self.values)
        values.pop(name, None)
        return replace(self, values=values)

    def ask(self, name: str) -> "ActionForm":
        """Ask an optional field too (a utility's rent needs the dice)."""
        if name in self.asked or name in self.required:
            return self
        return replace(self, asked=self.asked + (name,))

    def skip(self, name: str) -> "ActionForm":
        """Stop asking an optional field (the banker left the note empty)."""
        return replace(self, asked=tuple(f for f in self.asked if f != name))

    def as_action(self) -> dict:
        action = {"action": self.action, **{k: v for k, v in self.values.items() if v not in (None, "")}}
        if self.id:
            action["id"] = self.id
        return action


def _new_id() -> str:
    return f"ui-{uuid.uuid4().hex}"


def start_flow(button: str, specs: dict, *, player: str | None) -> ActionForm | None:
    """The form a table button opens, prefilled with what the table knows (``player``: the player to
    play, who acts unless the banker picks another inside this flow). None if the family has no such
    action."""
    if button in _TRANSFER_SHAPES and button not in specs:  # a family's own "pay" action comes first
        if "transfer" not in specs:
            return None
        spec = specs["transfer"]
        payer, payee = _TRANSFER_SHAPES[button]
        values = {"from": player if payer == "player" else "bank", "to": player if payee == "player" else "bank"}
        return ActionForm("transfer", spec.required, spec.optional, values, id=_new_id(), button=button,
                          actor="from" if payer == "player" else "to")
    spec = specs.get(button)
    if spec is None:
        return None
    values: dict[str, Any] = {}
    actor = next((name for name in spec.required if name in ACTING_FIELDS), "")
    if actor and player is not None:
        values[actor] = player
    return ActionForm(button, spec.required, spec.optional, values, id=_new_id(), button=button, actor=actor)


def buttons_for(specs: dict) -> tuple[list[dict], list[dict]]:
    """The table's big buttons (common actions the family has) and the rest, for the "More" list."""
    common = []
    for name in COMMON_BUTTONS:
        if name in _TRANSFER_SHAPES and name not in specs and "transfer" in specs:
            summary = "The player pays the bank" if name == "pay" else "The bank pays the player"
            common.append({"name": name, "label": action_label(name), "summary": summary})
        elif name in specs:
            common.append({"name": name, "label": action_label(name), "summary": for_people(specs[name].summary)})
    shown = {b["name"] for b in common} | {"undo", "redo"}
    more = [{"name": n, "label": action_label(n), "summary": for_people(s.summary), "destructive": n in DESTRUCTIVE}
            for n, s in sorted(specs.items()) if n not in shown]
    return common, more


#: The More menu's groups, in order, and the actions each gathers; an action not listed goes under
#: "Money" (a family's own payments); Bankrupt is always the very last.
MORE_GROUPS = (
    ("Turn", ("jail", "leave_jail", "jail_fine", "night", "leave_night", "night_fine", "miss_turns", "spin",
              "land", "cross_bridge", "free_access", "choose_character", "career", "profession", "wedding",
              "baby", "violation", "quiz")),
    ("Money", ()),
    ("Deeds", ("mortgage", "unmortgage", "sell_building", "sell_infrastructure", "improve", "trade", "sell",
               "exchange", "planning_permission", "remove_hazard", "repairs", "free_parking")),
    ("Loans and notes", ("borrow", "repay", "settle", "buy_shares", "sell_shares", "play_market")),
    ("Game", ("correct_card", "correct_character", "end_game", "bankrupt")),
)


def more_menu(more: list[dict]) -> list[dict]:
    """The More menu: its actions in short named groups (turn, money, deeds, loans, game), Bankrupt last."""
    placed = {name: i for i, (_, names) in enumerate(MORE_GROUPS) for name in names}
    money = next(i for i, (title, _) in enumerate(MORE_GROUPS) if title == "Money")
    groups: list[dict] = [{"title": title, "actions": []} for title, _ in MORE_GROUPS]
    for item in more:
        groups[placed.get(item["name"], money)]["actions"].append(item)
    for group, (_, names) in zip(groups, MORE_GROUPS):
        order = {n: i for i, n in enumerate(names)}
        group["actions"].sort(key=lambda a: (a["name"] == "bankrupt", order.get(a["name"], -1), a["label"]))
    return [g for g in groups if g["actions"]]


def for_people(text: str) -> str:
    """A family's description as players read it: no code names. A bracketed aside that names a
    field (``(or ``turns``)``) is dropped; any other field name is written as words."""
    text = re.sub(r"\s*\([^()]*``[^()]*\)", "", text or "")
    text = re.sub(r"``([^`]+)``", lambda m: m.group(1).replace("_", " "), text)
    return " ".join(text.replace("`", "").split())


def destructive_question(form: ActionForm, name_of) -> str:
    """The question asked before an action that ends something: who, what, and that undo remains."""
    v = form.values
    if form.action == "bankrupt" and v.get("player"):
        to = name_of(v["creditor"]) if v.get("creditor") else "?"
        return f"{v['player']} goes bankrupt to {to} and leaves the game. Are you sure? (Undo can bring them back.)"
    if form.action == "end_game":
        return "End the game now? The pack's count decides the winner. (Undo goes back into the game.)"
    return f"{action_label(form.action)}: are you sure?"


def typed_value(text: str) -> Any:
    """What the banker typed for a free field: a whole number, yes/no, a JSON list or object, or text."""
    import json

    text = " ".join(text.split())
    if re.fullmatch(r"-?\d+", text):
        return int(text)
    if text.lower() in ("yes", "true"):
        return True
    if text.lower() in ("no", "false"):
        return False
    if text[:1] in "[{":
        try:
            return json.loads(text)
        except ValueError:
            return text
    return text


def missing_field_named(reason: str, form: ActionForm) -> str | None:
    """The optional field a refusal asks for ('rent for X needs the dice total ("dice": 2 to 12)')."""
    for name in form.optional:
        if f'"{name}"' in reason or f"'{name}'" in reason:
            return name
    return None
