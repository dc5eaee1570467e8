"""Flows: how an action is put together by taps, from the fields its family declares.

Every action a family declares (:class:`companion.core.contract.ActionSpec`: a label, a sentence for
people, typed fields in order) gets a flow: the screen asks the field the Banker names next
(``banker.next_field``) with the chooser its kind needs (players, deeds, the keypad, a count), listing
exactly the Banker's choices. The table's buttons prefill what the table knows (the player to play,
the bank as payee), so the common actions take one to three taps. A new family's actions appear on
the touchscreen without any code here, and nothing here guesses a field's kind from its name.

Pure: no Kivy. A form is a frozen value; each tap makes a new one.
"""

from __future__ import annotations

import re
import uuid
from dataclasses import dataclass, field, replace
from typing import Any

from companion.core import contract

__all__ = [
    "COMMON_BUTTONS",
    "DESTRUCTIVE",
    "ActionForm",
    "start_flow",
    "buttons_for",
    "button_label",
    "fields_of_kind",
    "acting_field",
    "acts",
    "asking_screen",
    "acting_role",
    "new_id",
    "more_menu",
    "more_view",
    "has_deeds",
    "has_unit",
    "has_debts",
    "for_people",
    "destructive_question",
    "every_sum",
    "spins_first",
    "with_spin",
    "pick",
    "spin_fields",
    "spin_building",
    "filled_of_kind",
    "role_field",
]

#: The table's big buttons, in order, when the family has the action they need.
COMMON_BUTTONS = ("salary", "pay", "collect", "transfer", "rent", "buy", "auction", "build", "next_turn")

#: Buttons that are not an action of their own but a transfer with the bank on one side.
_TRANSFER_SHAPES = {"pay": ("player", "bank"), "collect": ("bank", "player")}
_TRANSFER_LABELS = {"pay": ("Pay bank", "The player pays the bank"), "collect": ("Collect", "The bank pays the player")}

#: Actions that end something for good: they always ask "are you sure?".
DESTRUCTIVE = {"bankrupt", "end_game"}

#: The More menu's groups, from the group each family gives its actions, in the order a banker needs them.
MORE_GROUPS = (("turn", "Turn"), ("money", "Money"), ("deeds", "Deeds"), ("loans", "Loans and notes"), ("game", "Game"))


@dataclass(frozen=True)
class ActionForm:
    """An action being put together: its name, what is filled, and its idempotency id.

    The id is made once when the flow opens, so a double tap on Confirm applies the action once.
    ``actor`` names the field that says who acts: the player to play unless the banker picks another
    inside this flow.
    """

    action: str
    values: dict = field(default_factory=dict)
    id: str = ""
    button: str = ""  # the table button that opened the flow ("pay" for a transfer to the bank)
    back: str = "table"  # the screen to return to once the action is done
    actor: str = ""
    #: The role the acting field declares (payer, owner, actor; payee for the bank-pays shape).
    actor_role: str = ""
    #: Fields the flow filled for the banker that the chooser shows as a row to change them (the kind
    #: of building and how many blocks, while the district is asked).
    shown: tuple[str, ...] = ()
    #: How many blocks this turn's spin still allows (0 while the spinner has not stopped).
    allowance: int = 0
    #: The buildings that take a count of blocks, as the family says (with the spin it fills from).
    blocks: tuple[str, ...] = ()
    #: The buildings only a spin gives (the railroad), offered only while the spin has filled one.
    spun_only: tuple[str, ...] = ()
    #: The fields a spin fills, found by their declared kinds (:func:`spin_fields`): what to build (the
    #: action's choice) and how many blocks (its count); "" before a spin filled the form.
    builds: str = ""
    counts: str = ""

    def fill(self, name: str, value: Any) -> "ActionForm":
        return replace(self, values={**self.values, name: value})

    def clear(self, name: str) -> "ActionForm":
        values = dict(self.values)
        values.pop(name, None)
        return replace(self, values=values)

    def as_action(self) -> dict:
        # an optional structured field answered with nothing (no side bets) is left out: the rule's default
        action = {"action": self.action, **{k: v for k, v in self.values.items() if not _unanswered(v)}}
        if self.id:
            action["id"] = self.id
        return action


def _unanswered(value: Any) -> bool:
    return value is None or (isinstance(value, (str, list, dict)) and len(value) == 0)


def new_id() -> str:
    return f"ui-{uuid.uuid4().hex}"


def fields_of_kind(spec, kind: str) -> list[str]:
    """The names of an action's fields of one kind, in declared order."""
    return [f.name for f in spec.fields if f.kind == kind]


def filled_of_kind(form: ActionForm, spec, kind: str) -> Any:
    """What the form holds in the action's first field of ``kind`` (None when it has none or it is not
    filled): the deed of an auction or of a card to correct, read by its declared kind."""
    names = fields_of_kind(spec, kind)
    return form.values.get(names[0]) if names else None


def role_field(spec, role: str) -> str:
    """The name of the action's player or account field declared with ``role`` ("" when none is)."""
    found = contract.role_fields(spec, role)
    return found[0].name if found else ""


def acting_field(spec) -> str:
    """The field that says who acts in this action, as its declaration's role says ("" when none does)."""
    found = contract.acting_field(spec)
    return found.name if found is not None else ""


def acting_role(spec) -> str:
    """The role of the field that says who acts ("" when none does)."""
    found = contract.acting_field(spec)
    return found.role if found is not None else ""


def acts(field) -> bool:
    """Whether a field says who acts (its declared role), so a flow prefills it rather than asks it."""
    return field is not None and field.role in contract.OWN_ROLES


def asking_screen(form: ActionForm, spec, field) -> str | None:
    """The screen a flow asks ``field`` (the one the Banker names next) on, or None when nothing is
    left to ask and the action is done: an auction with its deed chosen is the auction screen (one
    auction, wherever it starts); a trade whose trader is known, the trade's own screen; a structured
    field, its form (a card to correct, the card's); an amount, or a payer or payee with the money
    still to come, the keypad; any other field, the chooser."""
    if field is None:
        return None
    if form.action == "auction" and filled_of_kind(form, spec, "deed"):
        return "auction"
    if form.action == "trade" and not acts(field):
        return "trade"
    if field.kind == "structured":
        return "card" if form.action == "correct_card" else "form"
    money_later = any(f.kind == "amount" and f.required and f.name not in form.values for f in spec.fields)
    if field.kind == "amount" or (field.kind == "account" and money_later):
        return "amount"
    return "ask"


def start_flow(button: str, specs: dict, *, player: str | None, back: str = "table") -> ActionForm | None:
    """The form a button opens, prefilled with what the table knows (``player``: the player to play,
    who acts unless the banker picks another inside this flow). None if the family has no such action."""
    if button in _TRANSFER_SHAPES and button not in specs:  # a family's own "pay" action comes first
        if "transfer" not in specs:
            return None
        pays, gets = _TRANSFER_SHAPES[button]
        transfer = specs["transfer"]
        payer, payee = role_field(transfer, "payer"), role_field(transfer, "payee")
        values = {payer: player if pays == "player" else "bank", payee: player if gets == "player" else "bank"}
        actor = payer if pays == "player" else payee
        return ActionForm(
            "transfer",
            values,
            id=new_id(),
            button=button,
            back=back,
            actor=actor,
            actor_role=transfer.field(actor).role,
        )
    spec = specs.get(button)
    if spec is None:
        return None
    actor = acting_field(spec)
    values = {actor: player} if actor and player is not None else {}
    return ActionForm(button, values, id=new_id(), button=button, back=back, actor=actor, actor_role=acting_role(spec))


def button_label(name: str, specs: dict) -> str:
    """A button's words: the family's label for its action, or the bank-side transfer's."""
    if name in _TRANSFER_LABELS and name not in specs:
        return _TRANSFER_LABELS[name][0]
    spec = specs.get(name)
    return spec.label if spec is not None else name.replace("_", " ").capitalize()


#: Actions the Settings screen makes, one tap each, rather than a form in More: the table's options.
ON_SETTINGS = ("set_option",)


def buttons_for(specs: dict) -> tuple[list[dict], list[dict]]:
    """The table's big buttons (common actions the family has) and the rest, for the More menu."""
    common = []
    for name in COMMON_BUTTONS:
        if name in _TRANSFER_SHAPES and name not in specs and "transfer" in specs:
            label, summary = _TRANSFER_LABELS[name]
            common.append({"name": name, "label": label, "summary": summary, "group": "money"})
        elif name in specs:
            common.append(
                {
                    "name": name,
                    "label": specs[name].label,
                    "summary": for_people(specs[name].says),
                    "group": specs[name].group,
                }
            )
    shown = {b["name"] for b in common} | {"undo", "redo"} | set(ON_SETTINGS)
    more = [
        {"name": n, "label": s.label, "summary": for_people(s.says), "group": s.group, "destructive": n in DESTRUCTIVE}
        for n, s in specs.items()
        if n not in shown
    ]
    return common, more


def more_menu(more: list[dict]) -> list[dict]:
    """The More menu: its actions in short groups named as the family groups them (turn, money, deeds,
    loans and notes, game), in the family's order, Bankrupt the very last."""
    titles = dict(MORE_GROUPS)
    groups: dict[str, dict] = {key: {"title": title, "actions": []} for key, title in MORE_GROUPS}
    for item in more:
        key = item.get("group") or "money"
        groups.setdefault(key, {"title": titles.get(key, key.capitalize()), "actions": []})["actions"].append(item)
    for group in groups.values():
        group["actions"].sort(key=lambda a: a["name"] == "bankrupt")  # stable: the family's order otherwise
    ordered = sorted(groups.values(), key=lambda g: any(a["name"] == "bankrupt" for a in g["actions"]))
    return [g for g in ordered if g["actions"]]


#: Ending the game: never among the other actions, always last and apart.
ENDING = "end_game"

#: The screens More leads to that the table does not (Deeds, History and the trading unit are on its
#: top bar, Auction among its big buttons), in the order a banker needs them.
MORE_PLACES = (
    ("loans", "Loans"),
    ("requests", "Requests"),
    ("join", "Phones"),
    ("settings", "Settings"),
    ("over", "Scores"),
    ("start", "Games"),
)


def has_deeds(specs: dict) -> bool:
    """Whether the family has deeds: one of its actions asks for one."""
    return any(f.kind == "deed" for spec in specs.values() for f in spec.fields)


def has_unit(specs: dict) -> bool:
    """Whether the family has a use for the trading unit: its auction timer, its deal timer or its build
    spinner serve an action the family declares."""
    return "auction" in specs or "trade" in specs or spins_first(specs)


def has_debts(specs: dict) -> bool:
    """Whether the family has debts to list: loans, notes or mortgages."""
    return "mortgage" in specs or any(spec.group == "loans" for spec in specs.values())


def more_view(specs: dict) -> dict:
    """The More screen: the family's other actions in short groups (:func:`more_menu`), the screens
    the table does not lead to that the family has, and ending the game apart (None if it cannot)."""
    _, more = buttons_for(specs)
    ending = next((item for item in more if item["name"] == ENDING), None)
    places = [{"name": name, "label": label} for name, label in MORE_PLACES if name != "loans" or has_debts(specs)]
    return {"groups": more_menu([item for item in more if item["name"] != ENDING]), "places": places, "ending": ending}


def for_people(text: str) -> str:
    """A sentence as players read it: no code names. A bracketed aside that names a field
    (``(or ``turns``)``) is dropped; any other field name is written as words."""
    text = re.sub(r"\s*\([^()]*``[^()]*\)", "", text or "")
    text = re.sub(r"``([^`]+)``", lambda m: m.group(1).replace("_", " "), text)
    return " ".join(text.replace("`", "").split())


def every_sum(postings, name_of, fmt) -> list[str]:
    """Every sum an action moves, one line for each payer and payee, with what each part is for:
    "Ann pays the bank $223: $3 interest on mortgaged Baltic Avenue, $220 lifting the mortgage on
    Boardwalk". ``postings`` are the preview's (payer, payee, amount, memo)."""
    lines: dict[tuple[str, str], list] = {}
    for p in postings:
        if p.amount:
            lines.setdefault((p.payer, p.payee), []).append(p)
    out = []
    for (payer, payee), parts in lines.items():
        total = sum(p.amount for p in parts)
        who = name_of(payer)
        line = f"{who[:1].upper() + who[1:]} pays {name_of(payee)} {fmt(total)}"
        if len(parts) > 1 or parts[0].memo not in ("", "bankruptcy"):
            line += ": " + ", ".join(f"{fmt(p.amount)} {p.memo}".strip() for p in parts)
        out.append(line)
    return out


def destructive_question(
    form: ActionForm, name_of, sums: list[str] | tuple[str, ...] = (), sentence: str = "", spec=None
) -> str:
    """The question asked before an action that ends something: what the log will say (``sentence``,
    the Banker's preview), every sum each side pays (``sums``, from the same preview: see
    :func:`every_sum`), who leaves, and that undo remains. ``spec``: the action's declaration, whose
    payee field names the creditor when there is no sentence yet."""
    v = form.values
    money = "".join(f"\n{line}." for line in sums)
    said = f"{sentence[:1].upper() + sentence[1:]}." if sentence else ""
    out = v.get(form.actor) if form.actor else None
    if form.action == "bankrupt" and out:
        creditor = v.get(role_field(spec, "payee")) if spec is not None else None
        head = said or f"{out} goes bankrupt to {name_of(creditor) if creditor else '?'}."
        return f"{head}{money}\n{out} leaves the game. Are you sure? (Undo can bring them back.)"
    if form.action == "end_game":
        head = f"{said}\n" if said else ""
        return f"{head}End the game now? The pack's count decides the winner. (Undo goes back into the game.)"
    return f"{said}{money}\nAre you sure?" if said else "Are you sure?"


# -- Monopoly City: build draws on the build spinner -------------------------------------------------
def spins_first(specs: dict) -> bool:
    """Whether this family's Build draws on a spin of the trading unit's build spinner."""
    return "spin" in specs and "build" in specs


def spin_fields(spec) -> tuple[str, str]:
    """The fields of a Build that a spin fills, by their declared kinds: what to build (its choice
    field) and how many blocks (its count field)."""
    return fields_of_kind(spec, "choice")[0], fields_of_kind(spec, "count")[0]


def spin_building(form: ActionForm, spec) -> Any:
    """What the Build holds so far as its building (None before it is chosen)."""
    return form.values.get(spin_fields(spec)[0])


def with_spin(form: ActionForm, spin: dict[str, Any], spec) -> ActionForm:
    """A Build form filled from what the family says the turn's spin gives (``Desk.build_spin``: the
    building and how many blocks), so that the district is the only tap left: the building and how
    many blocks, shown as a row the banker can change. ``spec``: the Build's declaration, whose choice
    and count fields take them."""
    builds, counts = spin_fields(spec)
    form = replace(
        form,
        shown=(builds, counts),
        blocks=tuple(spin["blocks"]),
        spun_only=tuple(spin.get("spun_only", ())),
        builds=builds,
        counts=counts,
    )
    form = form.fill(builds, spin["building"])
    if not spin["spun"]:
        return form
    form = replace(form, allowance=spin["allowance"])
    return form.fill(counts, spin["count"]) if spin["count"] is not None else form.clear(counts)


def pick(form: ActionForm, name: str, value: Any) -> ActionForm:
    """The banker changes a filled field on the chooser's row: another building, or fewer blocks.
    A building that is not blocks takes no count; blocks take what the spin still allows."""
    form = form.fill(name, value)
    if not form.builds or name != form.builds:
        return form
    if value not in form.blocks:
        return form.clear(form.counts)
    if form.counts not in form.values:
        return form.fill(form.counts, max(1, min(form.allowance or 1, 3)))
    return form
