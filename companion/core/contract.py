"""The action contract: what every action takes, declared once, read by every adapter.

An action is a name, a sentence for people and a tuple of :class:`Field`. A field has a *kind* (player,
deed, amount, ...), limits, a default, and optionally a way to narrow its candidates or a condition under
which it is asked. From these declarations alone:

- :func:`parse` turns raw input (JSON from a phone, ``key=value`` from the command line, a tap) into typed,
  canonical values, or refuses it with one line. It is the one validation layer of the product.
- :func:`next_field` tells a screen which field to ask next; :func:`choices` lists its legal values for the
  table and the fields chosen so far, each judged by the very rule that will decide it;
- :func:`preview` runs that decision without committing and says what it would do.
- :func:`json_schema` describes an action's body for the phones' OpenAPI document and docs/actions.md.

Nothing here reads an error message to learn anything: a refusal's text is only ever shown to people.
Pure: stdlib only.
"""

from __future__ import annotations

import json
from functools import cached_property, partial as _partial
from dataclasses import dataclass, field as _dc_field, replace
from typing import TYPE_CHECKING, Any, Callable, Iterable

from .errors import BadAction, BankerError, Refused
from .model import (
    BANK,
    account_name,
    active_players,
    find_account,
    find_deed,
    find_player,
    find_pot,
    pot_account,
    pot_enabled,
)
from .money import LIMIT, Currency
from .text import clean_text, shown

if TYPE_CHECKING:  # pragma: no cover
    from .engine import Rules

__all__ = [
    "KINDS",
    "ROLES",
    "OWN_ROLES",
    "Field",
    "ActionSpec",
    "Choice",
    "Posting",
    "Preview",
    "player",
    "account",
    "deed",
    "deeds",
    "pot",
    "amount",
    "count",
    "dice",
    "square",
    "choice",
    "text",
    "yesno",
    "structured",
    "parse",
    "parse_partial",
    "check_in_game",
    "read_amount",
    "current",
    "next_field",
    "choices",
    "InOrOut",
    "in_or_out",
    "preview",
    "money_words",
    "json_schema",
    "acting_field",
    "role_fields",
    "load_json",
    "check_json",
    "MAX_JSON",
    "MAX_DEPTH",
    "MAX_INT",
]

Table = dict[str, Any]
Partial = dict[str, Any]
#: A condition on the table and the fields chosen so far.
When = Callable[[Table, Partial], bool]

#: Every kind a field can have, with what it means for people.
KINDS = {
    "player": "a player in the game, by name",
    "account": 'a player, "bank", or "pot:NAME"',
    "deed": "a deed, by name",
    "deeds": "a list of deeds, by name",
    "pot": "a pot, by name",
    "amount": 'an amount of money: 1500, "$1,500", "2.5M", "500K"',
    "count": "a whole number",
    "dice": "a number rolled or spun (the dice total, a die, the wheel)",
    "square": "a square of the board, by number",
    "choice": "one of a fixed set of values",
    "text": "free text on one line",
    "yesno": "true or false",
    "structured": "a JSON object or list described by its own schema",
}

#: What a player or account field stands for in its action, for every adapter that fills or labels it:
#: the touchscreen prefills the acting field with the player to play, a phone fills it with its own player
#: (and never lets a player choose another as the payer), the deed card puts the owner on their deed.
ROLES = {
    "actor": "the player who acts (the one to play)",
    "payer": "the player whose money the action takes (who also acts)",
    "payee": "who receives the money",
    "owner": "the player whose deeds the action works on (who also acts)",
    "": "another player or account the action names (a trade's other side, a victim)",
}
#: The roles that say who acts: a phone fills them with its own player.
OWN_ROLES = ("actor", "payer", "owner")

#: Keys every action may carry beside its fields: its name, an id that makes a retry apply it once, and
#: who started it from their own phone.
META = ("action", "id", "by")

#: The largest action body, in characters, and the deepest nesting of JSON, read anywhere.
MAX_JSON = 64 * 1024
MAX_DEPTH = 16
#: No number in a body may reach this: beyond any money of any pack, inside SQLite's 64-bit integers.
MAX_INT = 10**18


@dataclass(frozen=True)
class Field:
    """One field of an action, declared next to the rule that decides it."""

    name: str
    kind: str
    says: str
    required: bool = True
    #: For a player or account: what it stands for in the action (a key of :data:`ROLES`).
    role: str = ""
    #: For a player or account: whether the player it names must still be in the game (a bankrupt player
    #: is refused by :func:`check_in_game`, once, before the rule runs).
    in_game: bool = True
    default: Any = None
    low: int | None = None
    high: int | None = None
    max_len: int | None = None
    options: tuple[tuple[Any, str], ...] = ()
    #: Options that depend on the table and the fields so far (a pack's taxes, a square's choices):
    #: ``(table, partial) -> [(value, label)]``.
    options_from: Callable[[Table, Partial], Iterable[tuple[Any, str]]] | None = None
    #: How a value is read when the family accepts more than the canonical one (a square number for a deed,
    #: a character's title for its key): ``(table, raw) -> canonical``, refusing with a BankerError. For a
    #: structured field: how the names and amounts inside it are read (after its shape is checked).
    resolve: Callable[[Table, Any], Any] | None = None
    #: Narrows a kind's candidates to the ones worth showing (a player's own deeds, say).
    only: Callable[[Table, Partial], Iterable[Any]] | None = None
    #: An optional field asked only when this holds (dice for a utility's rent).
    when: When | None = None
    #: For a field whose value cannot be tried alone: a check that raises Refused with the reason.
    check: Callable[[Table, Partial], None] | None = None
    #: A label for a value on this table (a square's name), when the value alone says too little.
    label_of: Callable[[Table, Any], str] | None = None
    #: For amounts: whether 0 is a legal value.
    allow_zero: bool = False
    #: For structured fields: the JSON schema of the value.
    schema: dict[str, Any] | None = None
    #: For choices: other spellings of a value (the trading unit's face "4" is the railroad).
    aliases: tuple[tuple[Any, Any], ...] = ()
    #: For a field that corrects something on the table (a card's printed values): what it holds now,
    #: ``(table, partial) -> value``, so a screen starts from it and sends only what differs.
    current: Callable[[Table, Partial], Any] | None = None
    #: For a list of deeds where each candidate is either in or out, both with a cost (a mortgage lifted
    #: now, or kept with its interest paid): the words for each, from the rule,
    #: ``(table, partial, value, included) -> "Lift now: Ann pays $220"``. Screens then ask each
    #: candidate both ways (see :func:`in_or_out`) instead of picking some.
    in_or_out: Callable[[Table, Partial, Any, bool], str] | None = None
    #: A line for people about this field on this table, shown where it is asked ("Cy judges this
    #: round: the player before Ann"): ``(table, partial) -> str``.
    note: Callable[[Table, Partial], str] | None = None

    def asked(self, table: Table, partial: Partial) -> bool:
        """Whether a screen should ask for this field now."""
        if self.required:
            return True
        if self.when is None:
            return False
        try:
            return bool(self.when(table, partial))
        except (BankerError, KeyError, TypeError, ValueError):
            return False

    def note_on(self, table: Table, partial: Partial) -> str:
        """The field's line for people on this table ("" when it declares none or cannot say yet)."""
        if self.note is None:
            return ""
        try:
            return str(self.note(table, partial) or "")
        except (BankerError, KeyError, TypeError, ValueError):
            return ""

    def current_value(self, table: Table, partial: Partial) -> Any:
        """What the field's subject holds now on this table (None when it declares nothing, or the
        fields it depends on are not chosen yet)."""
        if self.current is None:
            return None
        try:
            return self.current(table, partial)
        except (BankerError, KeyError, TypeError, ValueError):
            return None

    def option_values(self, table: Table, partial: Partial | None = None) -> list[tuple[Any, str]]:
        if self.options_from is None:
            return list(self.options)
        try:
            return list(self.options_from(table, partial or {}))
        except (BankerError, KeyError, TypeError, ValueError):
            return []


@dataclass(frozen=True)
class ActionSpec:
    """An action as declared: its name, one plain sentence for people, its fields, and its handler."""

    name: str
    says: str
    fields: tuple[Field, ...]
    handler: Callable[..., Any]
    label: str = ""
    group: str = "money"
    #: Whether this game's options offer the action at all (City Life's Bank loans belong to its advanced
    #: rules): ``offered(table) -> bool``; None offers it in every game of the family. An action a game
    #: does not offer is left out of :meth:`Banker.actions`, so no screen shows it; sent anyway, the
    #: rule refuses it with its reason.
    offered: Callable[..., Any] | None = None
    #: The rule that binds the action to its player's own turn, in the project's words ("building is done
    #: during the builder's own turn"); empty: the rulebook lets it happen at any time. The engine refuses
    #: a bound action whose ``turn_field`` names anyone but the player whose turn it is, with this reason.
    own_turn: str = ""
    turn_field: str = "player"

    def offered_in(self, table: dict[str, Any]) -> bool:
        return self.offered is None or bool(self.offered(table))

    @cached_property
    def takes(self) -> frozenset[str]:
        """The keys an action of this kind may carry: its fields' names and :data:`META`."""
        return frozenset((*(f.name for f in self.fields), *META))

    @cached_property
    def in_game_fields(self) -> tuple[str, ...]:
        """The names of its player and account fields whose player must still play, in declared order."""
        return tuple(f.name for f in self.fields if f.in_game and f.kind in ("player", "account"))

    @cached_property
    def required(self) -> tuple[str, ...]:
        """The names of its required fields, in declared order."""
        return tuple(f.name for f in self.fields if f.required)

    @cached_property
    def readers(self) -> tuple[tuple[str, Callable[[Table, Any], Any] | None, Field], ...]:
        """Each field's name, the function :func:`parse_value` comes to for its kind, called as
        ``read(table, value)`` (None: a kind read with the fields so far, through ``parse_value``), and
        the field: worked out once per action kind, not at every action."""
        return tuple((f.name, _reader(f), f) for f in self.fields)

    @property
    def optional(self) -> tuple[str, ...]:
        return tuple(f.name for f in self.fields if not f.required)

    @property
    def summary(self) -> str:  # the name the first adapters used
        return self.says

    def worded(self, names: dict[str, Any]) -> "ActionSpec":
        """This action in one game's own words: "{jail}" in a label or sentence becomes the pack's name for
        it ("Bondage", "Night"); a word the pack does not name stays as written."""
        if "{" not in self.label and "{" not in self.says:
            return self
        words = _Words(names)
        return replace(self, label=self.label.format_map(words), says=self.says.format_map(words))

    def field(self, name: str) -> Field:
        for f in self.fields:
            if f.name == name:
                return f
        raise BadAction(
            f"{self.name} has no field {shown(name)}; its fields are {', '.join(f.name for f in self.fields) or 'none'}"
        )


def role_fields(spec: ActionSpec, *roles: str) -> list[Field]:
    """An action's player and account fields with one of ``roles``, in declared order."""
    return [f for f in spec.fields if f.kind in ("player", "account") and f.role in roles]


def acting_field(spec: ActionSpec) -> Field | None:
    """The required field that says who acts (the player to play on the touchscreen, a phone's own
    player), or None when nobody acts in this action (the next turn, the end of the game)."""
    return next((f for f in role_fields(spec, *OWN_ROLES) if f.required), None)


class _Words(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return key


@dataclass(frozen=True)
class Posting:
    """Money that one action moves: ``amount`` from ``payer`` to ``payee``."""

    payer: str
    payee: str
    amount: int
    memo: str = ""

    def as_json(self) -> dict[str, Any]:
        """The posting in the events' words: ``from``, ``to``, ``amount``, ``memo``."""
        return {"from": self.payer, "to": self.payee, "amount": self.amount, "memo": self.memo}


@dataclass(frozen=True)
class Preview:
    """What an action would do, decided by the same rule as the real thing, nothing committed."""

    action: dict[str, Any]
    summary: str
    events: tuple[Any, ...]
    table: dict[str, Any] = _dc_field(repr=False, compare=False)

    @cached_property
    def postings(self) -> tuple[Posting, ...]:
        """The money its events move, in order (read from the events when asked: an action that is
        done rather than previewed never asks)."""
        return tuple(
            Posting(e["from"], e["to"], e["amount"], e.get("memo", "")) for e in self.events if e["type"] == "Paid"
        )

    def moved(self, account: str) -> int:
        """The net change of ``account``'s balance (negative when it pays)."""
        return sum(p.amount for p in self.postings if p.payee == account) - sum(
            p.amount for p in self.postings if p.payer == account
        )


@dataclass(frozen=True)
class Choice:
    """One candidate value of a field, judged on the table as it stands."""

    value: Any
    label: str
    possible: bool = True
    why_not: str | None = None
    detail: str = ""
    preview: Preview | None = None


# -- declaring fields --------------------------------------------------------------------------------
def player(name: str = "player", says: str = "Which player", role: str = "actor", **kw: Any) -> Field:
    """A player field; by default the player who acts (declare ``role`` otherwise: "payer", "owner",
    or "" for another player the action names)."""
    if role not in ROLES:
        raise ValueError(f"unknown role {role!r}")
    return Field(name, "player", says, role=role, **kw)


def account(name: str, says: str, role: str = "", **kw: Any) -> Field:
    if role not in ROLES:
        raise ValueError(f"unknown role {role!r}")
    return Field(name, "account", says, role=role, **kw)


def deed(name: str = "deed", says: str = "Which deed", **kw: Any) -> Field:
    return Field(name, "deed", says, **kw)


def deeds(name: str, says: str, **kw: Any) -> Field:
    kw.setdefault("required", False)
    kw.setdefault("default", ())
    return Field(name, "deeds", says, **kw)


def pot(name: str = "pot", says: str = "Which pot", **kw: Any) -> Field:
    return Field(name, "pot", says, **kw)


def amount(name: str = "amount", says: str = "How much", **kw: Any) -> Field:
    return Field(name, "amount", says, **kw)


def count(name: str, says: str, low: int = 1, high: int = 20, **kw: Any) -> Field:
    return Field(name, "count", says, low=low, high=high, **kw)


def dice(name: str = "dice", says: str = "Dice total", low: int = 2, high: int = 12, **kw: Any) -> Field:
    return Field(name, "dice", says, low=low, high=high, **kw)


def square(name: str = "square", says: str = "Which square", low: int = 1, high: int = 100, **kw: Any) -> Field:
    return Field(name, "square", says, low=low, high=high, **kw)


def choice(name: str, says: str, options: Iterable[Any] = (), **kw: Any) -> Field:
    pairs = tuple(o if isinstance(o, tuple) else (o, _label(o)) for o in options)
    return Field(name, "choice", says, options=pairs, **kw)


def text(name: str = "memo", says: str = "Note", max_len: int = 120, **kw: Any) -> Field:
    kw.setdefault("required", False)
    return Field(name, "text", says, max_len=max_len, **kw)


def yesno(name: str, says: str, **kw: Any) -> Field:
    kw.setdefault("required", False)
    kw.setdefault("default", False)
    return Field(name, "yesno", says, **kw)


def structured(name: str, says: str, schema: dict[str, Any], **kw: Any) -> Field:
    return Field(name, "structured", says, schema=schema, **kw)


def _label(value: Any) -> str:
    return str(value).replace("_", " ").capitalize() if isinstance(value, str) else str(value)


# -- reading raw input ------------------------------------------------------------------------------
def _number(text: str) -> int:
    if len(text.lstrip("-")) > 18:
        raise BadAction(f"the number {shown(text)} is too long to be an amount")
    return int(text)


def _no_constant(name: str) -> None:
    raise BadAction(f"{name} is not a number an action can use")


#: One JSON reader for every action: whole numbers of at most 18 digits, no NaN or Infinity.
_DECODER = json.JSONDecoder(parse_int=_number, parse_constant=_no_constant)
# The decoder's C scanner (not in the stubs): _decode calls it as JSONDecoder.decode would.
_SCAN: Callable[[str, int], tuple[Any, int]] = _DECODER.scan_once  # type: ignore[attr-defined]
_SPACE: Callable[[str, int], Any] = json.decoder.WHITESPACE.match  # type: ignore[attr-defined]


def _decode(raw: str) -> Any:
    """``_DECODER.decode(raw)``, the same value and the same errors, without its two Python layers."""
    try:
        value, end = _SCAN(raw, _SPACE(raw, 0).end())
    except StopIteration as err:
        raise json.JSONDecodeError("Expecting value", raw, err.value) from None
    end = _SPACE(raw, end).end()
    if end != len(raw):
        raise json.JSONDecodeError("Extra data", raw, end)
    return value


def load_json(raw: str | bytes) -> Any:
    """JSON from outside, refused before parsing when it is too big or nested too deep to be an action."""
    if isinstance(raw, bytes):
        if len(raw) > MAX_JSON * 4:
            raise BadAction(f"the action is {len(raw):,} bytes; at most {MAX_JSON:,} characters are allowed")
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise BadAction("the action is not UTF-8 text") from None
    if len(raw) > MAX_JSON:
        raise BadAction(f"the action is {len(raw):,} characters; at most {MAX_JSON:,} are allowed")
    brackets = raw.count("[") + raw.count("{")
    if brackets > MAX_DEPTH:  # else it cannot nest too deep: no scan needed
        _check_depth(raw)
    try:
        if raw.startswith("\ufeff"):  # as json.loads says it
            raise json.JSONDecodeError("Unexpected UTF-8 BOM (decode using utf-8-sig)", raw, 0)
        value = _decode(raw)
    except json.JSONDecodeError as e:
        raise BadAction(f"not valid JSON ({e.msg} at character {e.pos})") from None
    if brackets < MAX_DEPTH and raw.isascii() and "\\" not in raw:
        # Nothing left for the walk to find: a lone surrogate comes only from an escape, every whole
        # number was read within 18 digits (_number), and fewer brackets than MAX_DEPTH cannot put a
        # value deeper than it (an action's body, nearly always)
        return value
    problem = check_json(value)
    if problem:
        raise BadAction(problem)
    return value


def _check_depth(raw: str) -> None:
    """Refuse JSON text nested deeper than :data:`MAX_DEPTH`, before the parser walks into it."""
    depth = 0
    in_string = escaped = False
    for c in raw:
        if in_string:
            if escaped:
                escaped = False
            elif c == "\\":
                escaped = True
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
        elif c in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                raise BadAction(f"the action is nested deeper than {MAX_DEPTH} levels")
        elif c in "]}":
            depth -= 1


def _storable(text: str) -> bool:
    if text.isascii():
        return True
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def check_json(value: object) -> str | None:
    """Why a decoded JSON value cannot be taken (one line), or None when it can: nested too deep, text
    that cannot be stored (a lone surrogate), or a number too large to be an amount."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > MAX_DEPTH:
            return f"the action is nested deeper than {MAX_DEPTH} levels"
        if isinstance(item, str):
            if not _storable(item):
                return "the action holds text that is not valid Unicode (a lone surrogate)"
        elif isinstance(item, bool) or item is None or isinstance(item, float):
            continue
        elif isinstance(item, int):
            if not -MAX_INT < item < MAX_INT:
                return "the action holds a number too large to be an amount"
        elif isinstance(item, dict):
            for key, inner in item.items():
                if not _storable(key):
                    return "the action holds text that is not valid Unicode (a lone surrogate)"
                stack.append((inner, depth + 1))
        elif isinstance(item, list):
            stack.extend((inner, depth + 1) for inner in item)
    return None


def _whole(f: Field, value: Any) -> int:
    if isinstance(value, bool):
        raise BadAction(f"{f.name} must be a whole number, not {shown(value)}")
    if isinstance(value, str) and value.strip().lstrip("+-").isdigit() and len(value.strip()) <= 18:
        value = int(value.strip())
    if not isinstance(value, int):
        raise BadAction(f"{f.name} must be a whole number, not {shown(value)}")
    low, high = f.low, f.high
    if (low is not None and value < low) or (high is not None and value > high):
        raise BadAction(f"{f.name} must be a whole number from {low} to {high}, not {value}")
    return value


def _yesno(f: Field, value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in ("true", "yes", "y", "1", "on"):
        return True
    if isinstance(value, str) and value.strip().lower() in ("false", "no", "n", "0", "off"):
        return False
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    raise BadAction(f"{f.name} is true or false, not {shown(value)}")


def _choice(f: Field, table: Table, value: Any, partial: Partial) -> Any:
    options = f.option_values(table, partial)
    for alias, meant in f.aliases:
        if alias == value and type(alias) is type(value):
            value = meant
    for v, _ in options:
        if v == value and type(v) is type(value):
            return v
        if isinstance(v, str) and isinstance(value, str) and v.casefold() == " ".join(value.split()).casefold():
            return v
        if isinstance(v, int) and not isinstance(v, bool) and isinstance(value, str) and value.strip() == str(v):
            return v
    listed = ", ".join(str(v) for v, _ in options[:12]) + (", ..." if len(options) > 12 else "")
    raise BadAction(f"{f.name} is one of {listed or 'nothing in this game'}, not {shown(value)}")


def _structured(f: Field, value: Any) -> Any:
    want = (f.schema or {}).get("type", "object")
    kinds = {"object": dict, "array": list}
    if not isinstance(value, (dict, list)) or not isinstance(value, kinds.get(want, (dict, list))):
        raise BadAction(f"{f.name} must be a JSON {want}, not {shown(value)}")
    if len(value) > 64:
        raise BadAction(f"{f.name} has {len(value)} entries; at most 64 are allowed")
    return value


def read_amount(table: Table, value: Any, what: str, *, allow_zero: bool = False) -> int:
    """An amount of the table's money, read the one way every amount is (a field's, or one inside a
    structured value: a trade's cash, a bet's stake), or a one-line BadAction naming ``what``."""
    if type(value) is int and 0 < value <= LIMIT:  # a whole number of money (nearly always): read as it is
        return value
    currency = Currency.from_pack(table["pack"])
    n = currency.parse(value)
    if n < 0 or (n == 0 and not allow_zero):
        raise BadAction(
            f"{what} must be {'zero or more' if allow_zero else 'more than zero'}, not {currency.format(n)}"
        )
    return n


def _reader(f: Field) -> Callable[[Table, Any], Any] | None:
    """What :func:`parse_value` calls for ``f``'s kind, as ``read(table, value)``; None for a kind it
    reads with the fields so far or by more than one call."""
    kind = f.kind
    if f.resolve is not None and kind not in ("deeds", "structured"):
        return f.resolve
    if kind == "player":
        return _partial(find_player, active=False)
    if kind == "account":
        return find_account
    if kind == "deed":
        return find_deed
    if kind == "pot":
        return find_pot
    if kind == "amount":
        # the field's name in words ("per hotel"): a screen shows it, and the API's callers know the field
        return _partial(read_amount, what=f.name.replace("_", " "), allow_zero=f.allow_zero)
    return None


def parse_value(f: Field, table: Table, value: Any, partial: Partial | None = None) -> Any:
    """One field's raw value as its kind's canonical value, or a one-line BadAction/Refused."""
    read = _reader(f)  # a name's finder, an amount's reader, or a field's own resolver
    if read is not None:
        return read(table, value)
    kind = f.kind
    if kind == "deeds":
        if isinstance(value, str):
            value = [v for v in value.split(",") if v.strip()]
        if not isinstance(value, (list, tuple)):
            raise BadAction(f"{f.name} is a list of deeds, not {shown(value)}")
        if len(value) > len(table["deeds"]):
            raise BadAction(f"{f.name} names {len(value)} deeds; the game has {len(table['deeds'])}")
        found = [(f.resolve or find_deed)(table, v) for v in value]
        if len(set(found)) != len(found):
            raise BadAction(f"{f.name} names a deed twice")
        return found
    if kind in ("count", "dice", "square"):
        return _whole(f, value)
    if kind == "choice":
        return _choice(f, table, value, partial or {})
    if kind == "text":
        return clean_text(value, f.name, f.max_len or 120)
    if kind == "yesno":
        return _yesno(f, value)
    if kind == "structured":  # its own reader, if it declares one, reads the names and amounts inside
        checked = _structured(f, value)
        return checked if f.resolve is None else f.resolve(table, checked)
    raise AssertionError(f"unknown kind {kind!r}")  # pragma: no cover - a declaration bug


def parse(spec: ActionSpec, table: Table, raw: dict[str, Any]) -> dict[str, Any]:
    """The action with every field typed and canonical: the one validation layer of the product.

    Unknown fields and missing required ones are refused by name; absent optional fields stay absent so the
    rule applies its own default.
    """
    if not spec.takes.issuperset(raw):
        unknown = sorted(k for k in raw if k not in spec.takes)
        takes = ", ".join(f.name for f in spec.fields) or "nothing"
        raise BadAction(f"{spec.name} does not take {', '.join(shown(k) for k in unknown[:5])} (it takes {takes})")
    out: dict[str, Any] = {"action": spec.name}
    if "id" in raw:
        out["id"] = raw["id"]
    if "by" in raw:  # the player whose phone started it: kept in the log, shown on the touchscreen
        out["by"] = find_player(table, raw["by"], active=False)
    for name in spec.required:
        if raw.get(name) is None:
            missing = [n for n in spec.required if raw.get(n) is None]
            raise BadAction(f"{spec.name} needs {', '.join(missing)}")
    for name, read, f in spec.readers:  # parse_value(f, table, value, out), its kind's reader found once
        value = raw.get(name)
        if value is not None:
            out[name] = read(table, value) if read is not None else parse_value(f, table, value, out)
    return out


def check_in_game(spec: ActionSpec, table: Table, typed: dict[str, Any]) -> None:
    """Refuse a typed action that names a player who is out of the game where its field says the player
    must still play (every player and account field unless declared otherwise), in declared order."""
    players = table["players"]
    for name in spec.in_game_fields:
        who = typed.get(name)
        if who is not None and who in players and players[who]["bankrupt"]:
            raise Refused(f"{who} is bankrupt and out of the game")


def parse_partial(spec: ActionSpec, table: Table, partial: dict[str, Any]) -> dict[str, Any]:
    """The fields chosen so far, typed where they can be (a screen's half-made action)."""
    return _read_partial(spec, table, partial)[0]


def _read_partial(spec: ActionSpec, table: Table, partial: dict[str, Any]) -> tuple[dict[str, Any], bool]:
    """The fields chosen so far, typed where they can be, and whether every one of them could be."""
    out: dict[str, Any] = {}
    clean = True
    for f in spec.fields:
        if partial.get(f.name) is None:
            continue
        try:
            out[f.name] = parse_value(f, table, partial[f.name], out)
        except BankerError:
            out[f.name] = partial[f.name]
            clean = False
    return out, clean


# -- screens: what to ask next, and what may be chosen ---------------------------------------------
def current(spec: ActionSpec, table: Table, field: str, partial: dict[str, Any]) -> Any:
    """What ``field``'s subject holds now on the table (a card's printed values), given the fields
    chosen so far; None when the field declares nothing or what it depends on is not chosen yet."""
    return spec.field(field).current_value(table, parse_partial(spec, table, partial))


def next_field(spec: ActionSpec, table: Table, partial: dict[str, Any]) -> Field | None:
    """The next field to ask, in declared order; ``None`` when the action is ready to confirm."""
    return _next_of_typed(spec, table, parse_partial(spec, table, partial))


def _next_of_typed(spec: ActionSpec, table: Table, typed: dict[str, Any]) -> Field | None:
    for f in spec.fields:
        if f.name not in typed and f.asked(table, typed):
            return f
    return None


def _candidates(f: Field, table: Table, partial: dict[str, Any]) -> list[tuple[Any, str]]:
    kind = f.kind
    if kind == "player":
        rows: list[tuple[Any, str]] = [(p, p) for p in active_players(table)]
    elif kind == "account":
        rows = [(BANK, "Bank"), *((p, p) for p in active_players(table))]
        rows += [
            (pot_account(name), rec.get("label", name.title()))
            for name, rec in table["pots"].items()
            if pot_enabled(table, name)
        ]
    elif kind in ("deed", "deeds"):
        order = table["pack"].get("deed_order") or list(table["deeds"])
        rows = [(d, d) for d in order if d in table["deeds"]]
        rows += [(d, d) for d in table["deeds"] if d not in set(order)]
    elif kind == "pot":
        rows = [
            (name, rec.get("label", name.title())) for name, rec in table["pots"].items() if pot_enabled(table, name)
        ]
    elif kind in ("count", "dice", "square"):
        rows = [(n, str(n)) for n in range(f.low or 0, (f.high or 0) + 1)]
    elif kind == "choice":
        rows = f.option_values(table, partial)
    elif kind == "yesno":
        rows = [(True, "Yes"), (False, "No")]
    else:
        return []
    if f.only is not None:
        allowed = list(f.only(table, partial))
        rows = [r for r in rows if r[0] in allowed]
    if f.label_of is not None:
        rows = [(v, f.label_of(table, v)) for v, _ in rows]
    return rows


def choices(rules: "Rules", table: Table, name: str, field_name: str, partial: dict[str, Any]) -> list[Choice]:
    """Every candidate value of ``field_name``, each judged by the rule itself on this table.

    When the action is complete with a value, the value is tried (the same decision as the real action,
    nothing committed): a refusal greys it with the rule's own reason, an acceptance carries the preview.
    When later fields are still to come, a field's declared ``check`` judges it, if it has one.
    """
    spec = rules.registry.spec(name)
    f = spec.field(field_name)
    typed, clean = _read_partial(spec, table, partial)
    typed.pop(field_name, None)
    decide = _decider(rules, table, spec, clean and _all_before(spec, typed, field_name))
    out = []
    for value, label in _candidates(f, table, typed):
        trial = {**typed, field_name: value}
        if _next_of_typed(spec, table, trial) is None:
            try:
                p = decide(trial)
            except BankerError as e:
                out.append(Choice(value, label, False, str(e)))
                continue
            out.append(Choice(value, label, True, None, _detail(p, table), p))
            continue
        if f.check is not None:
            try:
                f.check(table, trial)
            except BankerError as e:
                out.append(Choice(value, label, False, str(e)))
                continue
        out.append(Choice(value, label))
    return out


@dataclass(frozen=True)
class InOrOut:
    """One candidate of a list field asked both ways: ``inside`` (listed) and ``outside`` (left out),
    each a Choice decided with the rest of the list as chosen so far."""

    value: Any
    label: str
    inside: Choice
    outside: Choice
    listed: bool


def in_or_out(rules: "Rules", table: Table, name: str, field_name: str, partial: dict[str, Any]) -> list[InOrOut]:
    """Every candidate of a list field that declares ``in_or_out``, with both answers decided by the rule
    itself (refused ones greyed with the rule's reason, accepted ones with their preview), each worded by
    the rule ("Lift now: Ann pays $220", "Keep it mortgaged: Ann pays the 10% now, $20")."""
    spec = rules.registry.spec(name)
    f = spec.field(field_name)
    if f.in_or_out is None:
        raise BadAction(f"{name}'s {field_name} is not asked in or out")
    typed, clean = _read_partial(spec, table, partial)
    chosen = list(typed.pop(field_name, None) or [])
    decide = _decider(rules, table, spec, clean and _all_before(spec, typed, field_name))
    out = []
    for value, label in _candidates(f, table, typed):
        pair = []
        for inside in (True, False):
            listed = [v for v in chosen if v != value] + [value] * inside
            trial = {**typed, field_name: listed}
            words = f.in_or_out(table, typed, value, inside)
            if _next_of_typed(spec, table, trial) is not None:
                pair.append(Choice(inside, words))
                continue
            try:
                p = decide(trial)
            except BankerError as e:
                pair.append(Choice(inside, words, False, str(e)))
                continue
            pair.append(Choice(inside, words, True, None, _detail(p, table), p))
        out.append(InOrOut(value, label, pair[0], pair[1], value in chosen))
    return out


def _all_before(spec: ActionSpec, typed: dict[str, Any], field_name: str) -> bool:
    """Whether every field chosen so far comes before ``field_name``: then no value chosen was read
    against an earlier field that the candidate now replaces (a choice's options may depend on it)."""
    names = [f.name for f in spec.fields]
    upto = names.index(field_name)
    return all(names.index(k) < upto for k in typed)


def _decider(rules: "Rules", table: Table, spec: ActionSpec, clean: bool) -> Callable[[dict[str, Any]], Preview]:
    """How a screen's candidates are decided: the same decision as the real action. When every field
    chosen so far was read (a candidate is always a canonical value), the values are already what the
    contract's parse would make of them, so each candidate skips reading them again; otherwise each is
    read as the real action would be, and refused with the same reason."""
    from .engine import decide_full, decide_typed

    if clean:
        return lambda trial: decide_typed(table, spec, {"action": spec.name, **trial}, rules)
    return lambda trial: decide_full(table, {"action": spec.name, **trial}, rules)


def _detail(p: Preview, table: Table) -> str:
    """A few words on the money a choice moves: "Bob pays Ann $22", "Ann pays $350", "moves no money"."""
    return money_words(p, table)


def money_words(p: Preview, table: Table) -> str:
    """Who pays whom how much in a preview, in few words, from its postings: "Bob pays Ann $22",
    "Ann pays $350" (to the bank), "Ann gets $30" (from the bank), or each player's net sum when more
    than two sides move ("Dan pays $610, Ann gets $390, the bank gets $220"); "moves no money" when none does.
    What a button says before its tap (the law of the banker's screen), from the rule's own decision."""
    fmt = Currency.from_pack(table["pack"]).format
    nets = {a: p.moved(a) for a in dict.fromkeys([x for q in p.postings for x in (q.payer, q.payee)])}
    nets = {a: n for a, n in nets.items() if n}
    if not nets:
        return "moves no money"
    payers = [a for a, n in nets.items() if n < 0]
    payees = [a for a, n in nets.items() if n > 0]
    if len(payers) == 1 and len(payees) == 1:
        payer, payee = payers[0], payees[0]
        amount = fmt(nets[payee])
        if payee == BANK:
            return f"{account_name(payer)} pays {amount}"
        if payer == BANK:
            return f"{account_name(payee)} gets {amount}"
        return f"{account_name(payer)} pays {account_name(payee)} {amount}"
    said = [f"{account_name(a)} pays {fmt(-n)}" for a, n in nets.items() if n < 0]
    said += [f"{account_name(a)} gets {fmt(n)}" for a, n in nets.items() if n > 0]
    return ", ".join(said)


def preview(rules: "Rules", table: Table, action: dict[str, Any]) -> Preview:
    """What ``action`` would do on ``table``: the very decision :meth:`Banker.do` commits, uncommitted."""
    from .engine import decide_full

    return decide_full(table, action, rules)


# -- describing: OpenAPI and docs ------------------------------------------------------------------
def field_schema(f: Field) -> dict[str, Any]:
    """The JSON schema of one field's value."""
    kind = f.kind
    base: dict[str, Any]
    if kind in ("player", "deed", "pot"):
        base = {"type": "string", "minLength": 1, "maxLength": 120}
    elif kind == "account":
        base = {"type": "string", "minLength": 1, "maxLength": 130}
    elif kind == "deeds":
        base = {"type": "array", "items": {"type": "string", "minLength": 1, "maxLength": 120}, "maxItems": 64}
    elif kind == "amount":
        base = {
            "oneOf": [
                {"type": "integer", "minimum": 0 if f.allow_zero else 1, "maximum": LIMIT},
                {"type": "string", "minLength": 1, "maxLength": 32},
            ]
        }
    elif kind in ("count", "dice", "square"):
        base = {"type": "integer"}
        if f.low is not None:
            base["minimum"] = f.low
        if f.high is not None:
            base["maximum"] = f.high
    elif kind == "choice":
        values = [v for v, _ in f.options]
        base = {"enum": values} if values and not f.options_from else {"type": ["string", "integer"]}
    elif kind == "text":
        base = {"type": "string", "maxLength": f.max_len or 120}
    elif kind == "yesno":
        base = {"type": "boolean"}
    else:
        base = dict(f.schema or {"type": "object"})
    return {**base, "description": f.says}


def json_schema(spec: ActionSpec) -> dict[str, Any]:
    """The JSON schema of an action's body, as a phone or the command line sends it."""
    props = {
        "action": {"const": spec.name},
        "id": {
            "type": "string",
            "minLength": 1,
            "maxLength": 100,
            "description": "any text naming this one action, so a retry applies it once",
        },
        "by": {
            "type": "string",
            "minLength": 1,
            "maxLength": 120,
            "description": "the player whose own phone started this action",
        },
    }
    for f in spec.fields:
        props[f.name] = field_schema(f)
    return {
        "type": "object",
        "title": spec.name,
        "description": spec.says,
        "properties": props,
        "required": ["action", *spec.required],
        "additionalProperties": False,
    }
