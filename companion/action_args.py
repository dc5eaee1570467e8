"""An action's fields as command-line options, generated from the contract's declarations.

``companion do GAME rent --payer Bob --deed Boardwalk`` reads the same fields as
``companion do GAME '{"action": "rent", "payer": "Bob", "deed": "Boardwalk"}'``: every field of every
action is an option named after it (``--over-bridge`` for ``over_bridge``), whatever the family. The
options only collect text; the contract (:func:`companion.core.contract.parse`) reads and judges it,
exactly as it reads a phone's JSON, so there is no second layer of checks here.

``--help`` lists the fields with their kinds and, on the game as it stands, the values each may take now
(the fields already given narrow them, as on the touchscreen).
"""

from __future__ import annotations

import argparse
from typing import NoReturn
from collections.abc import Callable, Sequence

from .core.contract import KINDS, ActionSpec, Choice, Field, load_json
from .core.errors import BadAction, BankerError

__all__ = ["METAVARS", "action_parser", "given_fields", "option_of", "read_action"]

#: What each kind's value is called in the usage line.
METAVARS = {
    "player": "PLAYER",
    "account": "ACCOUNT",
    "deed": "DEED",
    "deeds": "DEED",
    "pot": "POT",
    "amount": "AMOUNT",
    "count": "N",
    "dice": "N",
    "square": "N",
    "choice": "VALUE",
    "text": "TEXT",
    "structured": "JSON",
}

#: At most this many legal values are listed for one field in ``--help``.
SHOWN = 24

#: ``(field name, fields given so far) -> the field's candidates judged on this game``.
ChoicesOf = Callable[[str, dict], list[Choice]]


def option_of(f: Field) -> str:
    """The option that gives field ``f``: ``--payer``, ``--over-bridge``."""
    return "--" + f.name.replace("_", "-")


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one line, exit 2, like the rest of the command
        raise BadAction(message)


def _judged(choices_of: ChoicesOf, name: str, given: dict) -> list[Choice] | None:
    """The field's candidates judged on the game, or None when they cannot be judged yet."""
    try:
        return choices_of(name, {k: v for k, v in given.items() if k != name})
    except (BankerError, KeyError, TypeError, ValueError):  # a rule's check that needs an earlier field
        return None


def _legal(f: Field, choices_of: ChoicesOf | None, given: dict, waits_for: Field | None) -> str:
    """The values ``f`` may take now, for its help line ("" when the kind has no list)."""
    if f.kind in ("count", "dice", "square") and f.low is not None and f.high is not None and not f.options_from:
        return f"{f.low} to {f.high}"
    if f.kind in ("amount", "text", "structured", "yesno"):
        return ""
    if choices_of is None:
        return ", ".join(str(v) for v, _ in f.options) if f.kind == "choice" else ""
    if waits_for is not None:
        return f"they depend on {option_of(waits_for)}"
    found = _judged(choices_of, f.name, given)
    if found is None:
        return ""
    possible = [c for c in found if c.possible]
    if not found:
        return "none in this game"
    if not possible:
        return "none now"
    listed = ", ".join(str(c.value) if c.label == str(c.value) else f"{c.value} ({c.label})" for c in possible[:SHOWN])
    more = f", and {len(possible) - SHOWN} more" if len(possible) > SHOWN else ""
    return listed + more


#: Candidates tried per field when looking for an example that the game would take.
_TRIES = 6


def _complete(spec: ActionSpec, choices_of: ChoicesOf, needed: list[Field], partial: dict) -> dict | None:
    """Values for the ``needed`` fields that the game would take now, or None."""
    if not needed:
        return partial
    f, rest = needed[0], needed[1:]
    if f.kind in ("amount", "text", "structured"):
        return _complete(spec, choices_of, rest, partial)
    found = _judged(choices_of, f.name, partial) or []
    for c in [c for c in found if c.possible][:_TRIES]:
        done = _complete(spec, choices_of, rest, {**partial, f.name: c.value})
        if done is not None:
            return done
    return None


def _example(spec: ActionSpec, choices_of: ChoicesOf | None, game: str) -> str:
    """One command that takes this action, with values the game would take now where they can be found."""
    needed = [f for f in spec.fields if f.required]
    values = (_complete(spec, choices_of, needed, {}) if choices_of is not None else None) or {}
    words = [f"companion do {game} {spec.name}"]
    for f in needed:
        value = values.get(f.name, "100" if f.kind == "amount" else METAVARS.get(f.kind, "VALUE"))
        text = str(value)
        words.append(f"{option_of(f)} {repr(text) if (' ' in text or not text) else text}")
    return " ".join(words)


def action_parser(
    spec: ActionSpec, *, prog: str, game: str = "GAME", choices_of: ChoicesOf | None = None, given: dict | None = None
) -> argparse.ArgumentParser:
    """The options of one action, each field's help saying its kind, whether it is needed, and - with
    ``choices_of`` - the values it may take on this game now, given the fields in ``given``."""
    given = given or {}
    waits_for = None  # the first needed field not given: the fields after it are judged once it is
    p = _Parser(
        prog=prog,
        description=spec.says,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=f"example:\n  {_example(spec, choices_of, game)}",
    )
    for f in spec.fields:
        help_text = f"{f.says} ({f.kind}: {KINDS[f.kind]}{'' if f.required else '; optional'})"
        legal = _legal(f, choices_of, given, waits_for)
        if waits_for is None and f.required and f.name not in given:
            waits_for = f
        if legal:
            help_text += f"; now: {legal}"
        help_text = help_text.replace("%", "%%")
        if f.kind == "yesno":
            p.add_argument(
                option_of(f), dest=f.name, action=argparse.BooleanOptionalAction, default=None, help=help_text
            )
        elif f.kind == "deeds":
            p.add_argument(
                option_of(f),
                dest=f.name,
                action="append",
                metavar="DEED",
                help=help_text + "; repeat, or separate with commas",
            )
        else:
            p.add_argument(
                option_of(f), dest=f.name, metavar=METAVARS.get(f.kind, "VALUE"), required=False, help=help_text
            )
    p.add_argument(
        "--id", dest="id", metavar="TEXT", help="any text naming this one action, so a retry applies it once"
    )
    p.add_argument("--json", action="store_true", help="print the outcome as JSON, for programs")
    return p


def read_action(spec: ActionSpec, args: argparse.Namespace) -> dict:
    """The action the options give, as the JSON body that says the same (fields left out stay out)."""
    action: dict = {"action": spec.name}
    if getattr(args, "id", None) is not None:
        action["id"] = args.id
    for f in spec.fields:
        value = getattr(args, f.name, None)
        if value is None:
            continue
        if f.kind == "deeds":
            value = [d.strip() for item in value for d in item.split(",") if d.strip()]
        elif f.kind == "structured":
            value = load_json(value)
        action[f.name] = value
    return action


def given_fields(spec: ActionSpec, argv: Sequence[str]) -> dict:
    """The fields ``argv`` gives so far, read leniently (for ``--help``'s choices: nothing is refused)."""
    p = action_parser(spec, prog="companion")
    p.exit_on_error = False
    try:
        args, _ = p.parse_known_args([a for a in argv if a not in ("-h", "--help")])
    except (BadAction, argparse.ArgumentError):
        return {}
    try:
        return {k: v for k, v in read_action(spec, args).items() if k not in ("action", "id")}
    except BankerError:
        return {}
