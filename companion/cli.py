"""The ``companion`` command: the contract that scripts, tests and the other adapters rely on.

Exit codes: 0 applied; 1 refused by a rule (the game file unchanged); 2 bad usage or malformed input.
A refusal's reason is one line on standard error.

Every command prints text for people, and JSON for programs with ``--json``. An action is given either as
the JSON a phone sends (``companion do GAME '{"action": "rent", ...}'``) or as a subcommand whose options
are generated from the action's declared fields (``companion do GAME rent --payer Bob --deed Boardwalk``;
see :mod:`companion.action_args`). The global ``--data DIR`` is the folder relative game paths are in.
"""

from __future__ import annotations

import argparse
import csv
import functools
import json
import re
import sqlite3
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import NoReturn

from .core.contract import load_json
from .core.errors import BadAction, BankerError, GameFileError, Refused
from .core.money import Currency

__all__ = ["build_parser", "main", "version"]


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one line, exit 2
        self.exit(2, f"companion: {message}\n")


def version() -> str:
    """The installed version of Table Banker."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        return installed("table-banker")
    except PackageNotFoundError:  # run from a checkout that was never installed
        return "unknown (not installed)"


class _Version(argparse.Action):
    """``--version``: looked up only when asked for (reading the package's metadata costs every command)."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS, **kw) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kw)

    def __call__(self, parser, namespace, values, option_string=None) -> None:
        print(f"companion {version()}")
        parser.exit(0)


def _print_json(value) -> None:
    print(json.dumps(value, ensure_ascii=False))


def _pairs(pairs: list[str] | None, what: str) -> dict[str, str]:
    """KEY=VALUE arguments as a dict; ``what`` names them in the refusal ("--option takes KEY=VALUE")."""
    out = {}
    for pair in pairs or []:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise BadAction(f"{what}, not {pair!r}")
        out[key.strip()] = value
    return out


def _options(pairs: list[str]) -> dict[str, str]:
    return _pairs(pairs, "--option takes KEY=VALUE")


def _player(spec: str) -> dict:
    name, _, colour = spec.partition(":")
    return {"name": name, "colour": colour}


def _open(path: str):
    from .service import Banker

    return Banker.open(path)


def _print_outcome(outcome, as_json: bool) -> None:
    if as_json:
        _print_json(outcome.as_json())
    else:
        print(("Already applied under this id: " if outcome.repeated else "") + outcome.summary)


def cmd_new(args) -> int:
    from .service import Banker

    if len(args.player) < 1:
        raise BadAction("name at least one --player")
    with Banker.create(args.game, args.rules, [_player(p) for p in args.player], _options(args.option)) as b:
        order = b.table["order"]
        if args.json:
            _print_json(
                {
                    "game": str(b.path),
                    "rules": b.table["pack"]["name"],
                    "players": [{"name": p, "cash": b.table["accounts"][p]} for p in order],
                }
            )
        else:
            print(
                f"New {b.table['pack'].get('title', b.table['pack']['name'])} game at {b.path}: "
                + ", ".join(f"{p} {b.fmt(b.table['accounts'][p])}" for p in order)
            )
    return 0


#: What an action's name looks like; anything else given as ACTION is JSON.
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _action(b, args, command: str) -> tuple[dict | str, bool]:
    """The action ``do``/``preview`` were given, and whether to answer in JSON: the JSON form
    (``'{"action": ...}'``) or an action's name followed by its options (:mod:`companion.action_args`)."""
    from .action_args import action_parser, given_fields, read_action

    rest = list(args.rest)
    if not _NAME.fullmatch(args.action):  # JSON (or - for lines of it), read by the contract
        extra = [a for a in rest if a != "--json"]
        if extra:
            raise BadAction(f"after a JSON action only --json may follow, not {extra[0]!r}")
        return args.action, args.json or "--json" in rest
    spec = b.spec(args.action)
    prog = f"companion {command} {args.game_given} {spec.name}"
    if "-h" in rest or "--help" in rest:
        given = given_fields(spec, rest)
        action_parser(
            spec,
            prog=prog,
            game=args.game_given,
            choices_of=lambda name, partial: b.choices(spec.name, name, partial),
            given=given,
        ).print_help()
        raise SystemExit(0)
    options = action_parser(spec, prog=prog, game=args.game_given).parse_args(rest)
    return read_action(spec, options), args.json or options.json


def cmd_do(args) -> int:
    with _open(args.game) as b:
        action, as_json = _action(b, args, "do")
        if action != "-":
            _print_outcome(b.do(action), as_json)
            return 0
        # Each line is decided on the game as it stands when the line arrives (the Banker catches up
        # with other programs' writes first), and answered at once, so a script can wait for it.
        worst = 0
        applied = 0
        for number, line in enumerate(sys.stdin, 1):
            if not line.strip():
                continue
            try:
                _print_outcome(b.do(line), as_json)
                applied += 1
            except (BadAction, Refused) as e:
                print(f"companion: line {number}: {e}", file=sys.stderr, flush=True)
                worst = max(worst, e.exit_code)
            except BankerError as e:  # the game cannot be written (a full disk): stop, and say where
                sys.stdout.flush()
                print(
                    f"companion: line {number} failed, the batch stopped ({applied} applied, none after): {e}",
                    file=sys.stderr,
                    flush=True,
                )
                return e.exit_code
            sys.stdout.flush()
        return worst


def cmd_actions(args) -> int:
    """The game's actions and their fields, from the declarations; with an action, its choices now."""
    from .core.contract import json_schema

    with _open(args.game) as b:
        if args.action is None:
            if args.json:
                _print_json([json_schema(spec) for spec in b.actions()])
                return 0
            for spec in b.actions():
                fields = (
                    ", ".join(f"{f.name}{'' if f.required else '?'} ({f.kind})" for f in spec.fields) or "no fields"
                )
                print(f"{spec.name:<20} {spec.says}\n{'':<20} {fields}")
            return 0
        spec = b.spec(args.action)
        if args.json:
            print(json.dumps(json_schema(spec), ensure_ascii=False, indent=1))
            return 0
        partial = _pairs(args.given, "give fields as FIELD=VALUE")
        print(f"{spec.name}: {spec.says}")
        nxt = b.next_field(spec.name, partial)
        for f in spec.fields:
            if f.name in partial or not f.asked(b.table, partial):
                continue
            mark = "  <- next" if nxt is not None and f is nxt else ""
            print(f"  {f.name} ({f.kind}): {f.says}{mark}")
            if f is nxt:
                for c in b.choices(spec.name, f.name, partial):
                    said = c.preview.summary if c.preview else (f"not possible: {c.why_not}" if not c.possible else "")
                    print(f"      {c.label:<28} {said}")
    return 0


def cmd_preview(args) -> int:
    """What an action would do, decided as `do` would, without writing anything."""
    from .core.model import account_name

    with _open(args.game) as b:
        action, as_json = _action(b, args, "preview")
        if action == "-":
            raise BadAction("preview takes one action, not - (standard input)")
        p = b.preview(load_json(action) if isinstance(action, str) else action)
        if as_json:
            _print_json(
                {
                    "summary": p.summary,
                    "action": p.action,
                    "events": list(p.events),
                    "postings": [x.as_json() for x in p.postings],
                }
            )
            return 0
        print(p.summary)
        for x in p.postings:
            memo = f" ({x.memo})" if x.memo else ""
            print(f"  {b.fmt(x.amount)} from {account_name(x.payer)} to {account_name(x.payee)}{memo}")
        if not p.postings:
            print("  moves no money")
    return 0


def cmd_show(args) -> int:
    from .views import state_json, state_text

    with _open(args.game) as b:
        state = state_json(b.table, b.rules, b.version)
    print(json.dumps(state, ensure_ascii=False, indent=1) if args.json else state_text(state))
    return 0


def cmd_undo(args) -> int:
    with _open(args.game) as b:
        outcome = b.undo() if args.command == "undo" else b.redo()
        _print_outcome(outcome, args.json)
    return 0


def cmd_log(args) -> int:
    with _open(args.game) as b:
        entries = b.log()
    for e in entries:
        if args.json:
            print(json.dumps(e.as_json(), ensure_ascii=False))
        else:
            print(f"{e.seq:>5}  {e.at}  {e.summary}")
    return 0


def cmd_export(args) -> int:
    """The log for a spreadsheet (CSV, one row per payment) or, with --json, every event it holds."""
    with _open(args.game) as b:
        entries = b.log()
    if args.json:
        _print_json([{"seq": e.seq, "at": e.at, "kind": e.kind, **ev} for e in entries for ev in e.events])
        return 0
    out = csv.writer(sys.stdout)
    out.writerow(["seq", "at", "kind", "summary", "from", "to", "amount", "memo"])
    for e in entries:
        payments = [ev for ev in e.events if ev["type"] == "Paid"]
        if not payments:
            out.writerow([e.seq, e.at, e.kind, e.summary, "", "", "", ""])
        for p in payments:
            out.writerow([e.seq, e.at, e.kind, e.summary, p["from"], p["to"], p["amount"], p.get("memo", "")])
    return 0


_MONEY_KEY = re.compile(
    r"(cash|price|rent|cost|tax|wages|fine|salary|fee|mortgage|loan|amount|bonus|payday|value)", re.IGNORECASE
)


def shown(key: str, value: object, currency) -> str:
    """A card's or an option's value for a ``key=value`` line: sums of money in the pack's own style where
    it writes money short (``price=₩2.6M``, ``rent=[₩150K, ₩300K]``, which ``--set`` reads back), else JSON."""

    def money(v: object) -> bool:
        return isinstance(v, int) and not isinstance(v, bool)

    if currency.style == "short" and _MONEY_KEY.search(key):
        if money(value):
            return currency.format(value)
        if isinstance(value, list) and value and all(money(v) for v in value):
            return "[" + ", ".join(currency.format(v) for v in value) + "]"
    return json.dumps(value, ensure_ascii=False)


def cmd_rules(args) -> int:
    from .rules import load_pack, pack_names
    from .rules.pack import option_specs

    packs = [load_pack(name) for name in pack_names()]
    if args.json:
        _print_json(
            [
                {
                    "name": pack["name"],
                    "title": pack.get("title", pack["name"]),
                    "family": pack.get("family"),
                    "options": {k: v["default"] for k, v in option_specs(pack).items()},
                }
                for pack in packs
            ]
        )
        return 0
    for pack in packs:
        name = pack["name"]
        currency = Currency.from_pack(pack)
        options = ", ".join(
            f"{k}={v['default'] if isinstance(v['default'], bool) else shown(k, v['default'], currency)}"
            for k, v in option_specs(pack).items()
        )
        print(f"{name:<16} {pack.get('title', name)}" + (f"  [options: {options}]" if options else ""))
    return 0


def cmd_deeds(args) -> int:
    with _open(args.game) as b:
        if args.set:
            deed, *pairs = args.set
            if not pairs:
                raise BadAction("--set takes a deed and KEY=VALUE pairs")
            values = {}
            for pair in pairs:
                key, sep, text = pair.partition("=")
                if not sep:
                    raise BadAction(f"{pair!r} is not KEY=VALUE")
                values[key.strip()] = text  # read by correct_card, the same way as from any screen
            spec = b.spec("correct_card")  # its deed and the values it corrects, by their declared kinds
            card = next(f.name for f in spec.fields if f.kind == "deed")
            fixed = next(f.name for f in spec.fields if f.kind == "structured")
            outcome = b.do({"action": "correct_card", card: deed, fixed: values})
            _print_outcome(outcome, args.json)
            return 0
        cards = b.table["pack"]["cards"]
        if args.json:
            print(json.dumps([{"name": n, **c, **b.table["deeds"][n]} for n, c in cards.items()], ensure_ascii=False))
            return 0
        currency = b.currency
        for name, c in cards.items():
            state = b.table["deeds"][name]
            printed = " ".join(f"{k}={shown(k, v, currency)}" for k, v in c.items() if k != "group")
            print(f"{name:<24} {c.get('group', ''):<12} owner={state.get('owner') or 'bank'} {printed}")
    return 0


def cmd_backups(args) -> int:
    from .backups import backup_folder, list_backups

    game = Path(args.game)
    if not game.exists():
        raise GameFileError(f"there is no game at {game}")
    found = list_backups(game)
    if args.json:
        _print_json([str(p) for p in found])
        return 0
    if not found:
        print(f"no backups of {game} yet: the app keeps one every 20 actions, in {backup_folder(game)}")
    for p in found:
        print(p)
    return 0


def cmd_restore(args) -> int:
    from .backups import backup_folder
    from .restore import restore

    game, backup = Path(args.game), Path(args.backup)
    if not backup.exists() and backup.parent == Path() and (backup_folder(game) / backup.name).exists():
        backup = backup_folder(game) / backup.name  # a backup named as `check` names it
    said = restore(game, backup)
    _print_json({"game": args.game, "backup": str(backup), "said": said}) if args.json else print(said)
    return 0


def cmd_check(args) -> int:
    with _open(args.game) as b:
        problems = b.verify()
    if args.json:
        _print_json({"game": args.game, "ok": not problems, "problems": problems})
        return 1 if problems else 0
    if problems:
        for p in problems:
            print(f"companion: {p}", file=sys.stderr)
        return 1
    print(f"{args.game}: ok")
    return 0


def cmd_run(args) -> int:
    from .appliance import run

    if args.game is not None and Path(args.game).exists():  # damaged: one line, before any window opens
        _open(args.game).close()

    return run(game=args.game, data=args.data, fullscreen=args.fullscreen)


# -- the parser: every command says what it takes and shows one example ------------------------------
def _command(sub, name: str, says: str, example: str, *, more: str = "", **kw):
    """A subcommand whose --help says what it does, what it takes, and one example."""
    description = says[0].upper() + says[1:] + "." + (f"\n\n{more}" if more else "")
    return sub.add_parser(
        name,
        help=says,
        description=description,
        epilog=f"example:\n  {example}",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        **kw,
    )


def _json_flag(s, what: str = "print JSON, for programs") -> None:
    s.add_argument("--json", action="store_true", help=what)


GAME_HELP = "the game file (relative to --data when that is given)"


@functools.cache
def build_parser() -> argparse.ArgumentParser:
    """The command line's parser, made once in a process (a program that calls :func:`main` again, such as
    the tests, reads every later command with the same one: parsing changes nothing in it)."""
    p = _Parser(
        prog="companion",
        description="Table Banker: the bank of a board game",
        epilog="example:\n  companion new friday.game --rules classic --player Ann --player Bob\n\n"
        "`companion COMMAND --help` says what each command takes.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--version", action=_Version, help="print the installed version and exit")
    p.add_argument(
        "--data",
        help="the folder of games; relative game paths are read in it (default: the current "
        "folder for paths, $COMPANION_DATA or the user data folder for the app)",
    )
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser, metavar="COMMAND")

    s = _command(
        sub,
        "new",
        "start a new game file",
        "companion new friday.game --rules classic --player Ann --player Bob:red --option free_parking=true",
    )
    s.add_argument("game", metavar="GAME", help="the new game file")
    s.add_argument("--rules", required=True, help="a pack name (see `companion rules`) or a .toml file")
    s.add_argument("--player", action="append", default=[], help="a player's name (NAME or NAME:colour); repeat")
    s.add_argument("--option", action="append", default=[], help="KEY=VALUE of the pack's options; repeat")
    _json_flag(s)
    s.set_defaults(func=cmd_new)

    for name, says, example, more in (
        (
            "do",
            "apply one action",
            "companion do friday.game rent --payer Bob --deed Boardwalk",
            (
                "ACTION is an action's name followed by its fields as options (`companion do GAME ACTION --help`\n"
                "lists them with the values they may take now), or the action as JSON\n"
                '(\'{"action": "rent", "payer": "Bob", "deed": "Boardwalk"}\'), or - to read one JSON action\n'
                "per line from standard input, each applied on its own.\n"
                "Exit codes: 0 applied; 1 refused by a rule (the game unchanged); 2 bad usage or malformed input."
            ),
        ),
        (
            "preview",
            "say what one action would do, without doing it",
            "companion preview friday.game rent --payer Bob --deed Boardwalk",
            "ACTION is given as for `companion do`: a name and its options, or JSON. Nothing is written.",
        ),
    ):
        s = _command(sub, name, says, example, more=more)
        s.add_argument("game", metavar="GAME", help=GAME_HELP)
        s.add_argument("action", metavar="ACTION", help="an action's name (then its options), JSON, or -")
        s.add_argument(
            "rest", nargs=argparse.REMAINDER, metavar="OPTIONS", help="the action's fields, as --FIELD VALUE"
        )
        _json_flag(s)
        s.set_defaults(func=cmd_do if name == "do" else cmd_preview)

    s = _command(
        sub,
        "actions",
        "list the game's actions and their fields; with ACTION, what may be chosen now",
        "companion actions friday.game rent payer=Bob",
    )
    s.add_argument("game", metavar="GAME", help=GAME_HELP)
    s.add_argument("action", nargs="?")
    s.add_argument("given", nargs="*", metavar="FIELD=VALUE", help="fields already chosen")
    _json_flag(s, "the actions' (or the action's) JSON schema")
    s.set_defaults(func=cmd_actions)

    s = _command(sub, "show", "print the state of a game", "companion show friday.game")
    s.add_argument("game", metavar="GAME", help=GAME_HELP)
    _json_flag(s)
    s.set_defaults(func=cmd_show)

    for name in ("undo", "redo"):
        s = _command(
            sub,
            name,
            f"{name} the last action" if name == "undo" else "apply again the action last undone",
            f"companion {name} friday.game",
            more="The log keeps everything: undoing appends the reversal.",
        )
        s.add_argument("game", metavar="GAME", help=GAME_HELP)
        _json_flag(s)
        s.set_defaults(func=cmd_undo)

    s = _command(sub, "log", "print every entry of the game log", "companion log friday.game")
    s.add_argument("game", metavar="GAME", help=GAME_HELP)
    _json_flag(s, "one JSON object per entry, with its events")
    s.set_defaults(func=cmd_log)

    s = _command(
        sub,
        "export",
        "write the log as CSV, one row per payment (or every event as JSON)",
        "companion export friday.game > friday.csv",
    )
    s.add_argument("game", metavar="GAME", help=GAME_HELP)
    form = s.add_mutually_exclusive_group()
    form.add_argument("--csv", action="store_true", help="CSV with from, to, amount and memo (the default)")
    form.add_argument("--json", action="store_true", help="every event of the log as a JSON list")
    s.set_defaults(func=cmd_export)

    s = _command(sub, "rules", "list the rule packs and their options", "companion rules")
    _json_flag(s)
    s.set_defaults(func=cmd_rules)

    s = _command(
        sub,
        "deeds",
        "list deeds and their card values, or correct one card",
        "companion deeds friday.game --set Boardwalk price=450",
    )
    s.add_argument("game", metavar="GAME", help=GAME_HELP)
    s.add_argument("--set", nargs="+", metavar="ARG", help="DEED KEY=VALUE [KEY=VALUE ...]")
    _json_flag(s)
    s.set_defaults(func=cmd_deeds)

    s = _command(
        sub,
        "backups",
        "list a game's backups, oldest first",
        "companion backups friday.game",
        more="The app copies the game beside it, into GAME.backups/, every 20 actions and keeps the\n"
        "newest 10; `companion restore` brings one back.",
    )
    s.add_argument("game", metavar="GAME", help=GAME_HELP)
    _json_flag(s, "the backups' paths as a JSON list")
    s.set_defaults(func=cmd_backups)

    s = _command(
        sub,
        "restore",
        "bring back a backup (the current file is kept aside)",
        "companion restore friday.game friday.game.backups/friday-0000040.game",
        more="The backup is checked first; the game file it replaces is kept as GAME.replaced-STAMP.",
    )
    s.add_argument("game", metavar="GAME", help=GAME_HELP)
    s.add_argument("backup", help="a backup file (see `companion backups`; relative to --data when given)")
    _json_flag(s)
    s.set_defaults(func=cmd_restore)

    s = _command(
        sub,
        "check",
        "run a full check: integrity, replay against snapshots, the ledger",
        "companion check friday.game",
        more="Prints GAME: ok and exits 0, or prints each problem on standard error and exits 1.",
    )
    s.add_argument("game", metavar="GAME", help=GAME_HELP)
    _json_flag(s, 'print {"ok": ..., "problems": [...]} as JSON')
    s.set_defaults(func=cmd_check)

    s = _command(sub, "run", "start the touchscreen app", "companion run --fullscreen friday.game")
    s.add_argument("game", nargs="?", help="the game to open (default: the game played last, or the start screen)")
    s.add_argument("--fullscreen", action="store_true")
    s.set_defaults(func=cmd_run)

    _optional_commands(sub)
    return p


def _optional_commands(sub) -> None:
    """Subcommands whose adapters may be absent from a trimmed install."""
    from importlib.util import find_spec

    if find_spec(f"{__package__}.hw_check") is not None:  # only whether it is there: imported when run
        # listed for --help; main() hands everything after "hw-check" to hw_check.main untouched
        sub.add_parser("hw-check", add_help=False, help="walk through every button, the LED and the buzzer")
    sub.add_parser("usb-backup", add_help=False, help="copy every game to a USB stick, or bring games back from one")
    try:
        from .web import serve as web_serve
    except ImportError:
        pass
    else:
        web_serve.add_parser(sub)


#: The commands given to another module's own parser, with everything after them.
_HANDED_ON = {"hw-check": "hw_check", "usb-backup": "usb_backup"}


def _in_data(args) -> None:
    """Relative game (and backup) paths read inside the global --data folder."""
    data = getattr(args, "data", None)
    args.game_given = getattr(args, "game", None) or "GAME"
    if not data:
        return
    for name in ("game", "backup"):
        value = getattr(args, name, None)
        if value and not Path(value).is_absolute():
            setattr(args, name, str(Path(data) / value))


def main(argv: Sequence[str] | None = None) -> int:
    from_command_line = argv is None
    argv = list(sys.argv[1:] if argv is None else argv)
    data: list[str] = []
    while argv[:1] == ["--data"] and len(argv) > 1 or argv[:1] and argv[0].startswith("--data="):
        data += argv[:2] if argv[0] == "--data" else argv[:1]
        argv = argv[2:] if argv[0] == "--data" else argv[1:]
    if argv[:1] and argv[0] in _HANDED_ON:
        import importlib

        module = importlib.import_module(f".{_HANDED_ON[argv[0]]}", __package__)
        return module.main(data + argv[1:] if argv[0] == "usb-backup" else argv[1:])
    if from_command_line and argv[:1] == ["run"] and not {"-h", "--help"} & set(argv):
        from .heap import on_c_allocator

        on_c_allocator()  # the touchscreen's evening on the C allocator, before any other work (companion.heap)
    parser = build_parser()
    args = parser.parse_args(data + argv)
    _in_data(args)
    try:
        return args.func(args)
    except BankerError as e:
        print(f"companion: {e}", file=sys.stderr)
        return e.exit_code
    except sqlite3.Error as e:  # a page of the game file damaged past what opening checks
        from .store import damaged_message

        game = getattr(args, "game", None)
        print(f"companion: {damaged_message(Path(game), str(e)) if game else e}", file=sys.stderr)
        return GameFileError.exit_code
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
