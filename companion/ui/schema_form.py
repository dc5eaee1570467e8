"""Touch forms read from a structured field's JSON schema: choices, never typing.

A structured field (side bets, correct answers by player, two numbers to speculate on) declares the
shape of its value as a JSON schema. This module reads that schema generically and turns it into rows
of big tiles, and each tap into a new value:

- a player's name (``"x-kind": "player"``), a fixed set (``enum``, or ``oneOf`` of ``const`` with a
  ``title`` each) or true/false: one row of tiles, one of them chosen;
- a small whole number (at most :data:`MOST_BUTTONS` values): a row of number tiles; a larger one: a
  stepper (minus, the number, plus);
- money (``"x-kind": "amount"``): the figure with the pack's quick amounts added to it, and clear;
- a ``maximum`` may come from the pack (``"x-maximum": "bet_limit"``): see :func:`bounded`;
- an array of small whole numbers: number tiles, up to ``maxItems`` chosen (the first one chosen gives
  way to a new one once it is full);
- an object keyed by player (``"propertyNames": {"x-kind": "player"}``): one row per player;
- an object with ``properties``: one row per property, each labelled with its ``title``;
- words (a string with a ``maxLength`` and no fixed set, such as the name printed on a card): a text box;
- an array of objects: each item its rows under a heading ("Bet 1", with Remove), then "Add a bet",
  or when an item names a player, one "Add Bob's bet" tile per player.

A form that corrects something on the table (a character card) starts from what it holds now, its
*printed* value: each row then also says what is printed and whether it was changed, a chosen tile
stays chosen (the card always reads something), and :func:`changes` keeps only what differs.

:func:`renders` says whether a schema can be shown so; one that cannot is typed instead (behind an
explicit "Type it"). Pure: no Kivy, no game; the table's candidates and money come in a :class:`Setting`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

__all__ = ["Setting", "MOST_BUTTONS", "bounded", "renders", "empty", "rows", "change", "changes", "missing", "label_of"]

#: The most number tiles in one row at 800x480 (each still wider than a finger).
MOST_BUTTONS = 11
#: The most money steps beside a figure: the pack's smallest quick amounts (a stake, not a fortune).
CHIPS = 5


@dataclass(frozen=True)
class Setting:
    """What the table gives a form: the players an entry may name, the pack's quick amounts and how
    money is written."""

    players: tuple[str, ...] = ()
    amounts: tuple[int, ...] = ()
    fmt: Callable[[int], str] = field(default=lambda n: f"{n:,}")
    #: The pack's own figures by name (its ``amounts``), for a schema's ``x-maximum``.
    limits: dict = field(default_factory=dict)


def bounded(schema: Any, setting: Setting) -> Any:
    """The schema with each ``"x-maximum": NAME`` read from the pack: the lower of it and the schema's
    own ``maximum`` (a Quiz Card's 3 questions, a side bet's $20,000), so that tiles offer no more."""
    if isinstance(schema, list):
        return [bounded(s, setting) for s in schema]
    if not isinstance(schema, dict):
        return schema
    out = {k: bounded(v, setting) for k, v in schema.items()}
    limit = setting.limits.get(schema.get("x-maximum")) if isinstance(schema.get("x-maximum"), str) else None
    if isinstance(limit, int) and not isinstance(limit, bool):
        out["maximum"] = min(limit, out.get("maximum", limit))
    return out


# -- what a schema is, for a finger ---------------------------------------------------------------
def _consts(schema: dict) -> list[tuple[Any, str]] | None:
    """The values of a fixed set with their labels, or None when the schema is not one."""
    if "enum" in schema:
        return [(v, label_of(v)) for v in schema["enum"]]
    one_of = schema.get("oneOf")
    if one_of and all(isinstance(o, dict) and "const" in o for o in one_of):
        return [(o["const"], o.get("title") or label_of(o["const"])) for o in one_of]
    return None


def _small(schema: dict) -> bool:
    low, high = schema.get("minimum"), schema.get("maximum")
    return isinstance(low, int) and isinstance(high, int) and 0 < high - low + 1 <= MOST_BUTTONS


def _shape(schema: dict) -> str | None:
    """The kind of widget a schema needs, or None when no widget here can take it."""
    if not isinstance(schema, dict):
        return None
    kind = schema.get("x-kind")
    if kind in ("player", "amount"):
        return kind
    if _consts(schema) is not None:
        return "pick"
    typ = schema.get("type")
    if typ == "string" and isinstance(schema.get("maxLength"), int):
        return "text"
    if typ == "boolean":
        return "yesno"
    if typ == "integer":
        return "number" if _small(schema) else ("count" if isinstance(schema.get("minimum"), int) else None)
    if typ == "object":
        names = schema.get("propertyNames") or {}
        if names.get("x-kind") == "player" and _shape(schema.get("additionalProperties") or {}) in _TAPPED:
            return "by_player"
        props = schema.get("properties")
        if props and all(_shape(p) is not None for p in props.values()):
            return "record"
        return None
    if typ == "array":
        items = schema.get("items") or {}
        if items.get("type") == "integer" and _small(items) and isinstance(schema.get("maxItems"), int):
            return "numbers"
        if _shape(items) in ("record", *_TAPPED) and isinstance(schema.get("maxItems"), int):
            return "list"
    return None


#: Parts answered by taps alone; words ("text") are a card's own part, never a list of names to type.
_TAPPED = ("player", "amount", "pick", "yesno", "number", "count")


def renders(schema: dict | None) -> bool:
    """Whether the schema can be answered with taps alone."""
    return schema is not None and _shape(schema) is not None


def empty(schema: dict) -> Any:
    """The value before any tap: an empty object or list."""
    return [] if schema.get("type") == "array" else {}


def label_of(value: Any) -> str:
    """A value as people read it: words, not code."""
    if value is True:
        return "Yes"
    if value is False:
        return "No"
    return str(value).replace("_", " ").capitalize() if isinstance(value, str) else str(value)


def _title(schema: dict, name: str) -> str:
    return schema.get("title") or label_of(name)


def _an(word: str) -> str:
    return ("an " if word[:1].lower() in "aeiou" else "a ") + word.lower()


# -- rows -----------------------------------------------------------------------------------------
def rows(schema: dict, value: Any, setting: Setting, printed: Any = None) -> list[dict]:
    """The form's rows for ``value``, top to bottom. Each row: ``kind`` (pick, many, count, amount,
    text, item, add), ``path`` (where its value lives in the whole value), ``label`` and its tiles.
    With ``printed`` (what a card reads now), a part it holds also has ``printed`` (in words) and
    ``changed``."""
    return _rows(schema, value, (), "", setting, printed)


def _rows(schema: dict, value: Any, path: tuple, label: str, setting: Setting, printed: Any = None) -> list[dict]:
    shape = _shape(schema)
    if shape == "record":
        value = value if isinstance(value, dict) else {}
        was = printed if isinstance(printed, dict) else {}
        required = set(schema.get("required", ()))
        out = []
        for name, sub in schema["properties"].items():
            out += _leaf_or_rows(
                sub,
                value.get(name),
                (*path, name),
                _title(sub, name),
                setting,
                clearable=name not in required and name not in was,
                printed=was.get(name),
            )
        return out
    if shape == "by_player":
        value = value if isinstance(value, dict) else {}
        sub = schema["additionalProperties"]
        return [row for p in setting.players for row in _leaf_or_rows(sub, value.get(p), (*path, p), p, setting)]
    if shape == "list":
        value = value if isinstance(value, list) else []
        items = schema["items"]
        noun = items.get("title") or "entry"
        out = []
        for i, item in enumerate(value):
            out.append({"kind": "item", "path": (*path, i), "label": f"{noun} {i + 1}"})
            out += _leaf_or_rows(items, item, (*path, i), "", setting)
        whose = _player_part(items)
        if whose and not setting.players:
            return out  # nobody may make one (every opponent at the Poor Farm): nothing to add
        if len(value) < schema["maxItems"]:
            if whose:  # "Add Bob's bet": the new item is already that player's
                choices = [{"value": p, "label": f"{p}'s {noun.lower()}", "selected": False} for p in setting.players]
                out.append({"kind": "add", "path": path, "label": "Add", "part": whose, "choices": choices})
            else:
                out.append(
                    {
                        "kind": "add",
                        "path": path,
                        "part": None,
                        "choices": [],
                        "label": f"Add {'another' if value else _an(noun)}" + (f" {noun.lower()}" if value else ""),
                    }
                )
        return out
    return _leaf_or_rows(schema, value, path, label, setting)


def _player_part(items: dict) -> str | None:
    """The required part of a list's items that names a player (a bet's bettor), if there is one."""
    props = items.get("properties") or {}
    return next((name for name in items.get("required", ()) if (props.get(name) or {}).get("x-kind") == "player"), None)


def _leaf_or_rows(
    schema: dict, value: Any, path: tuple, label: str, setting: Setting, clearable: bool = False, printed: Any = None
) -> list[dict]:
    shape = _shape(schema)
    if shape in ("record", "by_player", "list"):
        return _rows(schema, value, path, label, setting, printed)
    out = _leaf(schema, shape, value, path, label, setting, clearable)
    if printed is not None:
        changed = value is not None and not _same(value, printed)  # a part left empty keeps what is printed
        out[0].update(printed=_words(schema, shape, printed, setting), changed=changed)
    return out


def _same(value: Any, printed: Any) -> bool:
    return value == printed and type(value) is type(printed)


def _words(schema: dict, shape: str | None, value: Any, setting: Setting) -> str:
    """A printed value as the card shows it: money the pack's way, a set's value by its title."""
    if shape == "amount" and isinstance(value, int) and not isinstance(value, bool):
        return setting.fmt(value)
    if shape == "pick":
        return next((text for v, text in _consts(schema) or [] if _same(v, value)), label_of(value))
    return value if isinstance(value, str) else label_of(value)


def _leaf(
    schema: dict, shape: str | None, value: Any, path: tuple, label: str, setting: Setting, clearable: bool
) -> list[dict]:
    if shape == "numbers":
        items = schema["items"]
        chosen = value if isinstance(value, list) else []
        tiles = [
            {"value": n, "label": str(n), "selected": n in chosen}
            for n in range(items["minimum"], items["maximum"] + 1)
        ]
        return [
            {
                "kind": "many",
                "path": path,
                "label": label or f"Pick {schema['maxItems']}",
                "choices": tiles,
                "most": schema["maxItems"],
            }
        ]
    if shape == "count":
        low, high = schema["minimum"], schema.get("maximum")
        now = value if isinstance(value, int) else low
        return [
            {
                "kind": "count",
                "path": path,
                "label": label,
                "text": str(now),
                "less": now > low,
                "more": high is None or now < high,
            }
        ]
    if shape == "text":  # a name printed on a card: words no list can hold
        return [
            {
                "kind": "text",
                "path": path,
                "label": label,
                "text": value if isinstance(value, str) else "",
                "most": schema["maxLength"],
            }
        ]
    if shape == "amount":
        top = schema.get("maximum")
        chips = [{"amount": a, "label": "+" + setting.fmt(a)} for a in setting.amounts if top is None or a <= top]
        return [
            {
                "kind": "amount",
                "path": path,
                "label": label,
                "text": setting.fmt(value) if isinstance(value, int) else setting.fmt(0),
                "chips": chips[:CHIPS],
            }
        ]
    options: list[tuple[Any, str]]
    if shape == "player":
        options = [(p, p) for p in setting.players]
    elif shape == "pick":
        options = _consts(schema) or []
    elif shape == "yesno":
        options = [(True, "Yes"), (False, "No")]
    else:  # number
        options = [(n, str(n)) for n in range(schema["minimum"], schema["maximum"] + 1)]
    tiles = [
        {"value": v, "label": text, "selected": value is not None and v == value and type(v) is type(value)}
        for v, text in options
    ]
    return [{"kind": "pick", "path": path, "label": label, "choices": tiles, "clearable": clearable}]


# -- taps -----------------------------------------------------------------------------------------
def _at(value: Any, path: tuple) -> Any:
    for key in path:
        if isinstance(value, dict):
            value = value.get(key)
        elif isinstance(value, list) and isinstance(key, int) and key < len(value):
            value = value[key]
        else:
            return None
    return value


def _put(value: Any, path: tuple, new: Any) -> Any:
    """``value`` with the part at ``path`` replaced by ``new`` (None removes a key); a new value."""
    if not path:
        return new
    key, rest = path[0], path[1:]
    if isinstance(key, int):
        items = list(value) if isinstance(value, list) else []
        items[key] = _put(items[key], rest, new)
        return items
    out = dict(value) if isinstance(value, dict) else {}
    inner = _put(out.get(key), rest, new)
    if inner is None:
        out.pop(key, None)
    else:
        out[key] = inner
    return out


def _schema_at(schema: dict, path: tuple) -> dict:
    for key in path:
        if isinstance(key, int):
            schema = schema.get("items") or {}
        elif "properties" in schema:
            schema = schema["properties"].get(key) or {}
        else:
            schema = schema.get("additionalProperties") or {}
    return schema


def change(schema: dict, value: Any, path: tuple, how: str, arg: Any = None) -> Any:
    """The value after one tap at ``path``: ``pick`` (a tile; the chosen tile again clears an
    optional answer), ``set`` (a tile of a printed part: it stays chosen), ``type`` (words), ``toggle`` (a number of a many-row), ``less``/``more`` (a stepper), ``add_amount``
    and ``clear``, ``add`` (another item) and ``remove`` (the item at ``path``)."""
    here = _at(value, path)
    sub = _schema_at(schema, path)
    if how == "pick":
        return _put(value, path, None if here == arg and type(here) is type(arg) else arg)
    if how == "set":  # a printed part: always holds a value
        return _put(value, path, arg)
    if how == "toggle":
        chosen = list(here) if isinstance(here, list) else []
        if arg in chosen:
            chosen.remove(arg)
        else:
            chosen = (chosen + [arg])[-sub.get("maxItems", len(chosen) + 1) :]
        return _put(value, path, chosen)
    if how in ("less", "more"):
        low, high = sub.get("minimum", 0), sub.get("maximum")
        now = here if isinstance(here, int) else low
        now = max(low, now - 1) if how == "less" else (now + 1 if high is None else min(high, now + 1))
        return _put(value, path, None if now == low and path and not isinstance(path[-1], int) else now)
    if how == "add_amount":
        now = here if isinstance(here, int) else 0
        top = sub.get("maximum")
        return _put(value, path, now + arg if top is None else min(top, now + arg))
    if how == "type":
        text = " ".join(str(arg or "").split())
        return _put(value, path, text or None)
    if how == "clear":
        return _put(value, path, None)
    if how == "add":  # arg: (part, value) the new item starts with, or None
        items = list(here) if isinstance(here, list) else []
        new: dict | None = {} if (sub.get("items") or {}).get("type") == "object" else None
        if arg is not None and new is not None:
            new[arg[0]] = arg[1]
        return _put(value, path, [*items, new])
    if how == "remove":
        parent, index = path[:-1], path[-1]
        items = list(_at(value, parent) or [])
        del items[index]
        return _put(value, parent, items)
    raise ValueError(f"unknown change {how!r}")


def changes(printed: Any, value: Any) -> Any:
    """What ``value`` changes of ``printed``: the parts of an object that differ from it (a part left
    empty keeps what is printed; empty when nothing differs). Only an object is printed part by part:
    anything else is the whole value."""
    if not isinstance(printed, dict):
        return value
    if not isinstance(value, dict):
        return {}
    return {name: part for name, part in value.items() if part is not None and not _same(part, printed.get(name))}


# -- what is still to choose -----------------------------------------------------------------------
def missing(schema: dict, value: Any) -> str | None:
    """What must still be chosen before the value is whole (one line for people), or None."""
    return _missing(schema, value, "")


def _choose(title: str) -> str:
    """ "choose who bets", "choose the stake": what a part still needs, in words."""
    words = title.lower()
    return f"choose {words}" if words.split()[0] in ("who", "which", "what", "how") else f"choose the {words}"


def _missing(schema: dict, value: Any, where: str) -> str | None:
    shape = _shape(schema)
    prefix = f"{where}: " if where else ""
    if shape == "list":
        noun = schema["items"].get("title") or "entry"
        for i, item in enumerate(value or []):
            problem = _missing(schema["items"], item, f"{noun} {i + 1}")
            if problem:
                return problem
        return None
    if shape == "record":
        for name in schema.get("required", ()):
            sub = schema["properties"][name]
            if not isinstance(value, dict) or value.get(name) is None:
                return f"{prefix}{_choose(_title(sub, name))}"
        return None
    if shape == "numbers":
        low = schema.get("minItems", 0)
        chosen = value or []
        if 0 < len(chosen) < low:
            return f"{prefix}choose {low - len(chosen)} more number{'s' if low - len(chosen) > 1 else ''}"
        return None
    if shape in ("player", "pick", "yesno", "number", "amount", "text") and value is None:
        return f"{prefix}{_choose(_title(schema, 'answer'))}"
    return None
