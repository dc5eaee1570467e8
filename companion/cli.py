"""The ``companion`` command: the contract that scripts, tests and the other adapters rely on.

Exit codes: 0 applied; 1 refused by a rule (the game file unchanged); 2 bad usage or malformed input.
A refusal's reason is one line on standard error.
"""
from __future__ import annotations

import argparse
import csv
import json
import sqlite3
import sys
from pathlib import Path
from typing import Sequence

from .core.contract import load_json
from .core.errors import BadAction, BankerError, GameFileError, Refused

__all__ = ["main"]


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, exit 2
        self.exit(2, f"companion: {message}\n")


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


def _print_outcome(outcome) -> None:
    print(json.dumps({
        "seq": outcome.entry.seq,
        "kind": outcome.entry.kind,
        "summary": outcome.summary,
        "events": outcome.events,
        "version": outcome.version,
        "repeated": outcome.repeated,
        "undone": outcome.undone,
    }, ensure_ascii=False))


def cmd_new(args) -> int:
    from .service import Banker

    if len(args.player) < 1:
        raise BadAction("name at least one --player")
    with Banker.create(args.game, args.rules, [_player(p) for p in args.player], _options(args.option)) as b:
        print(f"New {b.table['pack'].get('title', b.table['pack']['name'])} game at {b.path}: "
              + ", ".join(f"{p} {b.fmt(b.table['accounts'][p])}" for p in b.table["order"]))
    return 0


def cmd_do(args) -> int:
    with _open(args.game) as b:
        if args.action != "-":
            _print_outcome(b.do(args.action))
            return 0
        # Each line is decided on the game as it stands when the line arrives (the Banker catches up
        # with other programs' writes first), and answered at once, so a script can wait for it.
        worst = 0
        applied = 0
        for number, line in enumerate(sys.stdin, 1):
            if not line.strip():
                continue
            try:
                _print_outcome(b.do(line))
                applied += 1
            except (BadAction, Refused) as e:
                print(f"companion: line {number}: {e}", file=sys.stderr, flush=True)
                worst = max(worst, e.exit_code)
            except BankerError as e:  # the game cannot be written (a full disk): stop, and say where
                sys.stdout.flush()
                print(f"companion: line {number} failed, the batch stopped ({applied} applied, none after): {e}",
                      file=sys.stderr, flush=True)
                return e.exit_code
            sys.stdout.flush()
        return worst


def cmd_actions(args) -> int:
    """The game's actions and their fields, from the declarations; with an action, its choices now."""
    from .core.contract import json_schema

    with _open(args.game) as b:
        if args.action is None:
            for spec in b.actions():
                fields = ", ".join(f"{f.name}{'' if f.required else '?'} ({f.kind})" for f in spec.fields) or "no fields"
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
    with _open(args.game) as b:
        p = b.preview(load_json(args.action))
    print(json.dumps({"summary": p.summary, "action": p.action, "events": list(p.events),
                      "postings": [vars(x) for x in p.postings]}, ensure_ascii=False))
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
        _print_outcome(outcome) if args.json else print(outcome.summary)
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
    with _open(args.game) as b:
        entries = b.log()
    out = csv.writer(sys.stdout)
    out.writerow(["seq", "at", "kind", "summary", "from", "to", "amount", "memo"])
    for e in entries:
        payments = [ev for ev in e.events if ev["type"] == "Paid"]
        if not payments:
            out.writerow([e.seq, e.at, e.kind, e.summary, "", "", "", ""])
        for p in payments:
            out.writerow([e.seq, e.at, e.kind, e.summary, p["from"], p["to"], p["amount"], p.get("memo", "")])
    return 0


def cmd_rules(args) -> int:
    from .rules import load_pack, pack_names
    from .rules.pack import option_specs

    for name in pack_names():
        pack = load_pack(name)
        options = ", ".join(f"{k}={v['default']}" for k, v in option_specs(pack).items())
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
            outcome = b.do({"action": "correct_card", "deed": deed, "values": values})
            print(outcome.summary)
            return 0
        cards = b.table["pack"]["cards"]
        if args.json:
            print(json.dumps([{"name": n, **c, **b.table["deeds"][n]} for n, c in cards.items()], ensure_ascii=False))
            return 0
        for name, c in cards.items():
            state = b.table["deeds"][name]
            values = " ".join(f"{k}={json.dumps(v)}" for k, v in c.items() if k != "group")
            print(f"{name:<24} {c.get('group', ''):<12} owner={state.get('owner') or 'bank'} {values}")
    return 0


def cmd_backups(args) -> int:
    from .backups import list_backups

    for p in list_backups(Path(args.game)):
        print(p)
    return 0


def cmd_restore(args) -> int:
    from .backups import backup_folder
    from .restore import restore

    game, backup = Path(args.game), Path(args.backup)
    if not backup.exists() and backup.parent == Path() and (backup_folder(game) / backup.name).exists():
        backup = backup_folder(game) / backup.name  # a backup named as `check` names it
    print(restore(game, backup))
    return 0


def cmd_check(args) -> int:
    with _open(args.game) as b:
        problems = b.verify()
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


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="companion", description="Table Banker: the bank of a board game")
    p.add_argument("--data", help="folder of games (default: $COMPANION_DATA or the user data folder)")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)

    s = sub.add_parser("new", help="start a new game file")
    s.add_argument("game")
    s.add_argument("--rules", required=True, help="a pack name (see `companion rules`) or a .toml file")
    s.add_argument("--player", action="append", default=[], help="a player's name (NAME or NAME:colour); repeat")
    s.add_argument("--option", action="append", default=[], help="KEY=VALUE of the pack's options; repeat")
    s.set_defaults(func=cmd_new)

    s = sub.add_parser("do", help="apply one action (JSON), or JSON lines from standard input with -")
    s.add_argument("game")
    s.add_argument("action")
    s.set_defaults(func=cmd_do)

    s = sub.add_parser("preview", help="what one action (JSON) would do, without doing it")
    s.add_argument("game")
    s.add_argument("action")
    s.set_defaults(func=cmd_preview)

    s = sub.add_parser("actions", help="the game's actions and their fields; with ACTION, what may be chosen now")
    s.add_argument("game")
    s.add_argument("action", nargs="?")
    s.add_argument("given", nargs="*", metavar="FIELD=VALUE", help="fields already chosen")
    s.add_argument("--json", action="store_true", help="the action's JSON schema")
    s.set_defaults(func=cmd_actions)

    s = sub.add_parser("show", help="print the state of a game")
    s.add_argument("game")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_show)

    for name in ("undo", "redo"):
        s = sub.add_parser(name, help=f"{name} the last action")
        s.add_argument("game")
        s.add_argument("--json", action="store_true")
        s.set_defaults(func=cmd_undo)

    s = sub.add_parser("log", help="every entry of the game log")
    s.add_argument("game")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_log)

    s = sub.add_parser("export", help="the log as CSV, one row per payment")
    s.add_argument("game")
    s.add_argument("--csv", action="store_true", required=True)
    s.set_defaults(func=cmd_export)

    s = sub.add_parser("rules", help="list the rule packs")
    s.set_defaults(func=cmd_rules)

    s = sub.add_parser("deeds", help="list deeds and their card values, or correct one card")
    s.add_argument("game")
    s.add_argument("--set", nargs="+", metavar="ARG", help="DEED KEY=VALUE [KEY=VALUE ...]")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_deeds)

    s = sub.add_parser("backups", help="list a game's backups")
    s.add_argument("game")
    s.set_defaults(func=cmd_backups)

    s = sub.add_parser("restore", help="bring back a backup (the current file is kept aside)")
    s.add_argument("game")
    s.add_argument("backup")
    s.set_defaults(func=cmd_restore)

    s = sub.add_parser("check", help="full check: integrity, replay against snapshots, the ledger")
    s.add_argument("game")
    s.set_defaults(func=cmd_check)

    s = sub.add_parser("run", help="start the touchscreen app")
    s.add_argument("game", nargs="?")
    s.add_argument("--fullscreen", action="store_true")
    s.set_defaults(func=cmd_run)

    _optional_commands(sub)
    return p


def _optional_commands(sub) -> None:
    """Subcommands whose adapters may be absent from a trimmed install."""
    try:
        from . import hw_check
    except ImportError:
        hw_check = None
    if hw_check is not None:
        # listed for --help; main() hands everything after "hw-check" to hw_check.main untouched
        sub.add_parser("hw-check", add_help=False, help="walk through every button, the LED and the buzzer")
    sub.add_parser("usb-backup", add_help=False, help="copy every game to a USB stick, or bring games back from one")
    try:
        from .web import serve as web_serve
    except ImportError:
        web_serve = None
    if web_serve is not None:
        web_serve.add_parser(sub)


def main(argv: Sequence[str] | None = None) -> int:
    from_command_line = argv is None
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["hw-check"]:
        from . import hw_check

        return hw_check.main(argv[1:])
    if argv[:1] == ["usb-backup"]:
        from . import usb_backup

        return usb_backup.main(argv[1:])
    parser = build_parser()
    args = parser.parse_args(argv)
    if from_command_line and args.command == "run":
        from .heap import on_c_allocator

        on_c_allocator(argv)  # the touchscreen's evening on the C allocator (see companion.heap)
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
