"""The reference of every action, written from the declarations themselves.

docs/actions.md is this module's output below its hand-written introduction; a test holds the two equal, so
the page can never describe a field the code does not take. Run ``python -m companion.reference`` to write it.
"""

from __future__ import annotations

import sys
from pathlib import Path

from .core.contract import KINDS, ROLES, ActionSpec, Field
from .rules import load_pack, pack_names, rules_for

__all__ = ["families", "reference_markdown", "write", "MARKER"]

#: Everything after this line of docs/actions.md is generated.
MARKER = "<!-- Everything below is generated from the action declarations by `python -m companion.reference`. -->"

_PAGE = Path(__file__).resolve().parent.parent / "docs" / "actions.md"


def families() -> dict[str, tuple[list[str], list[ActionSpec]]]:
    """Each family: the packs that play it, and its actions in declaration order."""
    out: dict[str, tuple[list[str], list[ActionSpec]]] = {}
    for name in pack_names():
        pack = load_pack(name)
        family = pack["family"]
        if family not in out:  # in the words of the family's first pack
            out[family] = ([], [spec.worded(pack.get("names", {})) for spec in rules_for(pack).registry])
        out[family][0].append(pack.get("title", name))
    return out


def _limits(f: Field) -> str:
    if f.kind in ("count", "dice", "square"):
        return f"{f.low} to {f.high}"
    if f.kind == "text":
        return f"at most {f.max_len} characters"
    if f.kind == "amount":
        return "0 or more" if f.allow_zero else "more than 0"
    if f.kind == "choice":
        if f.options_from is not None:
            return "from the game's cards"
        return ", ".join(f"`{v}`" for v, _ in f.options)
    if f.kind == "structured":
        return "see the schema in the phones' API"
    return ""


def _when(f: Field) -> str:
    if f.required:
        return "yes"
    return "when it applies" if f.when is not None else "no"


def _action(spec: ActionSpec) -> list[str]:
    lines = [f"### `{spec.name}`: {spec.label}", "", spec.says, ""]
    if spec.own_turn:
        lines += [f"Only on the `{spec.turn_field}`'s own turn: {spec.own_turn}.", ""]
    if not spec.fields:
        return lines + ["No fields.", ""]
    lines += ["| Field | Kind | Asked | Limits | Meaning |", "| --- | --- | --- | --- | --- |"]
    for f in spec.fields:
        role = f" (role: {f.role})" if f.role else ""
        lines.append(f"| `{f.name}` | {f.kind}{role} | {_when(f)} | {_limits(f)} | {f.says} |")
    return lines + [""]


def reference_markdown() -> str:
    lines = [MARKER, "", "## Kinds of field", "", "| Kind | What it takes |", "| --- | --- |"]
    lines += [f"| {kind} | {what} |" for kind, what in KINDS.items()]
    lines += [
        "",
        "## Roles of player fields",
        "",
        "A player or account field declares what it stands for; screens and phones read the role, never the name.",
        "",
        "| Role | Meaning |",
        "| --- | --- |",
    ]
    lines += [f"| {role or '(none)'} | {what} |" for role, what in ROLES.items()]
    lines.append("")
    for family, (packs, specs) in families().items():
        lines += [f"## The {family} family", "", "Played by: " + ", ".join(packs) + ".", ""]
        for spec in specs:
            lines += _action(spec)
    return "\n".join(lines).rstrip() + "\n"


def page(current: str) -> str:
    """``current`` with everything after the marker replaced by the reference."""
    head = current.split(MARKER)[0].rstrip() + "\n\n"
    return head + reference_markdown()


def write(path: Path = _PAGE) -> None:
    path.write_text(page(path.read_text(encoding="utf-8")), encoding="utf-8")


if __name__ == "__main__":  # pragma: no cover - a maintenance command
    write(Path(sys.argv[1]) if len(sys.argv) > 1 else _PAGE)
