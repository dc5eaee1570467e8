"""The core is pure: importing it loads no GUI, GPIO, web or discovery module."""

import ast
import functools
import subprocess
import sys
from pathlib import Path


def test_importing_the_core_loads_no_adapter():
    code = (
        "import sys, companion.core, companion.core.engine, companion.core.common, companion.rules, companion.service\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in {'kivy', 'gpiozero', 'aiohttp', 'zeroconf', 'qrcode'})\n"
        "print(','.join(bad))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == ""


# -- one way through: adapters meet only through the Banker ---------------------------------------------
PACKAGE = Path(__file__).resolve().parent.parent / "companion"
#: The adapters and the modules each is made of: none imports another, none reaches the game file itself.
#: The phones' side includes its zeroconf advertisement; the GPIO side its hw-check walk-through. Wiring
#: them together is the job of the composition roots, companion/appliance.py and the command (cli.py).
ADAPTERS = {
    "touchscreen": ["companion.ui"],
    "phones": ["companion.web", "companion.discovery"],
    "gpio": ["companion.hardware", "companion.hw_check"],
}


def _modules(module: str) -> list[Path]:
    target = PACKAGE.parent / module.replace(".", "/")
    return sorted(target.rglob("*.py")) if target.is_dir() else [target.with_suffix(".py")]


@functools.cache
def _tree(path: Path) -> ast.Module:
    """A module of the package as parsed once for all the checks here (they only read the tree)."""
    return ast.parse(path.read_text(encoding="utf-8"))


def _imports(path: Path) -> set[str]:
    return _imports_of(_tree(path), path)


def _imports_of(tree: ast.AST, path: Path) -> set[str]:
    package = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts[:-1])
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1] + ([base] if base else []))
            found.add(base)
            found.update(f"{base}.{a.name}" for a in node.names)
    return found


def test_no_adapter_imports_another_adapter_or_the_game_file():
    problems = []
    for name, modules in ADAPTERS.items():
        others = [m for n, ms in ADAPTERS.items() if n != name for m in ms]
        for path in (p for m in modules for p in _modules(m)):
            for imported in _imports(path):
                if any(imported == o or imported.startswith(o + ".") for o in others):
                    problems.append(f"{path.relative_to(PACKAGE.parent)} imports {imported}")
                if imported == "companion.store" or imported.startswith("companion.store."):
                    problems.append(f"{path.relative_to(PACKAGE.parent)} opens the game file itself")
    assert not problems, problems


def test_the_touchscreen_and_the_phones_import_no_rule_module():
    """They read the contract and the views, and ask the Banker (or the service, for the packs installed)
    what a family says of itself: never a module of companion/rules/, at the top of a file or inside a
    function."""
    problems = []
    for module in ("companion.ui", "companion.web"):
        for path in _modules(module):
            for imported in _imports(path):
                if imported == "companion.rules" or imported.startswith("companion.rules."):
                    problems.append(f"{path.relative_to(PACKAGE.parent)} imports {imported}")
    assert not problems, f"ask the Banker what the family says, not the rules: {problems}"


def test_the_import_check_sees_imports_inside_functions_and_relative_ones():
    tree = ast.parse(
        "def spun():\n    from companion.rules.city_building import spin_of\nfrom ...rules import load_pack\n"
    )
    found = _imports_of(tree, PACKAGE / "ui" / "screens" / "ask.py")
    assert {"companion.rules.city_building", "companion.rules"} <= found


def test_no_adapter_reaches_into_the_bankers_game_file():
    problems = []
    for modules in ADAPTERS.values():
        for path in (p for m in modules for p in _modules(m)):
            for node in ast.walk(_tree(path)):
                if (
                    isinstance(node, ast.Attribute)
                    and node.attr == "store"
                    and isinstance(node.value, (ast.Name, ast.Attribute))
                ):
                    problems.append(f"{path.relative_to(PACKAGE.parent)}:{node.lineno}")
    assert not problems, f"adapters talk to the Banker, not its store: {problems}"


def _reads_error_words(handler: ast.ExceptHandler) -> list[int]:
    """Lines in an except block that look at the words of the caught error."""
    if not handler.name:
        return []
    lines = []
    for node in ast.walk(handler):
        if isinstance(node, ast.Compare) and any(isinstance(op, (ast.In, ast.NotIn, ast.Eq)) for op in node.ops):
            for side in [node.left, *node.comparators]:
                if (
                    isinstance(side, ast.Call)
                    and getattr(side.func, "id", None) == "str"
                    and side.args
                    and isinstance(side.args[0], ast.Name)
                    and side.args[0].id == handler.name
                ):
                    lines.append(node.lineno)
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in ("search", "match", "fullmatch", "findall", "startswith", "endswith")
        ):
            for arg in [*node.args, node.func.value]:
                if (
                    isinstance(arg, ast.Call)
                    and getattr(arg.func, "id", None) == "str"
                    and arg.args
                    and isinstance(arg.args[0], ast.Name)
                    and arg.args[0].id == handler.name
                ):
                    lines.append(node.lineno)
    return lines


def test_nothing_outside_the_rules_learns_from_an_error_s_words():
    problems = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE)
        if rel.parts[0] in ("core", "rules"):
            continue
        for node in ast.walk(_tree(path)):
            if isinstance(node, ast.ExceptHandler):
                problems += [f"{rel}:{line}" for line in _reads_error_words(node)]
    assert not problems, f"declare what an adapter needs instead of reading error text: {problems}"


#: What the core may import besides the standard library: Unicode's confusables data (pure data, read on the
#: first name checked), for look-alike names (docs/architecture.md, "The core").
CORE_MAY_IMPORT = {"homoglyph"}


def test_the_core_imports_the_standard_library_and_unicodes_data_only():
    problems = []
    for path in _modules("companion.core"):
        for imported in _imports(path):
            top = imported.split(".")[0]
            ours = imported == "companion.core" or imported.startswith("companion.core.")
            if not (ours or top == "__future__" or top in sys.stdlib_module_names or top in CORE_MAY_IMPORT):
                problems.append(f"{path.relative_to(PACKAGE.parent)} imports {imported}")
    assert not problems, problems


# -- roles are declared, never guessed from a field's name ------------------------------------------------
def _role_field_names() -> set[str]:
    """The names of every player and account field any family declares (each with its role)."""
    from companion.rules import load_pack, pack_names, rules_for

    names = set()
    for pack in pack_names():
        for spec in rules_for(load_pack(pack)).registry:
            names.update(f.name for f in spec.fields if f.kind in ("player", "account"))
    return names


def _constants(node: ast.AST) -> list[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return [e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
    return []


def _guesses(tree: ast.AST, names: set[str]) -> list[int]:
    """Lines that decide something about a field from its name: ``f.name == "payer"``,
    ``form.actor in ("player", "from")``, a label looked up by the name, or a list of player-field names kept to compare with."""
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            if any(isinstance(s, ast.Attribute) and s.attr in ("name", "actor") for s in sides) and any(
                set(_constants(s)) & names for s in sides
            ):
                lines.append(node.lineno)
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "get"
            and isinstance(node.func.value, ast.Dict)
        ):
            keys = [k.value for k in node.func.value.keys if isinstance(k, ast.Constant)]
            if (
                len(set(keys) & names) >= 2
                and node.args
                and isinstance(node.args[0], ast.Attribute)
                and node.args[0].attr in ("name", "actor")
            ):
                lines.append(node.lineno)
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
            listed = _constants(node.value) if isinstance(node.value, (ast.Tuple, ast.List, ast.Set)) else []
            if len(set(listed) & names) >= 2 and set(listed) <= names | {"bank"}:
                lines.append(node.lineno)
    return lines


def test_no_code_outside_the_rules_guesses_a_role_from_a_field_s_name():
    names = _role_field_names()
    problems = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE)
        if rel.parts[0] == "rules":
            continue
        tree = _tree(path)
        problems += [f"{rel}:{line}" for line in sorted(_guesses(tree, names))]
    assert not problems, f"read the field's declared role (contract.ROLES) instead of its name: {problems}"


def test_the_check_catches_the_guesses_it_is_meant_to():
    names = {"player", "payer", "from", "a", "winner"}
    guessing = ast.parse(
        'ACTING = ("player", "payer", "from", "a")\n'
        'def f(spec):\n    return [x for x in spec.fields if x.name != "winner"]\n'
        'def g(form):\n    return form.actor in ("from", "payer")\n'
        'def h(form):\n    return {"from": "Who pays", "a": "Who offers"}.get(form.actor, "Who")\n'
    )
    assert sorted(_guesses(guessing, names)) == [1, 3, 5, 7]
    reading = ast.parse('def f(spec):\n    return [x for x in spec.fields if x.role == "payer"]\n')
    assert _guesses(reading, names) == []


def test_every_player_and_account_field_declares_a_known_role():
    from companion.core.contract import ROLES, acting_field
    from companion.rules import load_pack, pack_names, rules_for

    for pack in pack_names():
        for spec in rules_for(load_pack(pack)).registry:
            for f in spec.fields:
                assert f.role in ROLES, (pack, spec.name, f.name)
                if f.kind not in ("player", "account"):
                    assert f.role == "", (pack, spec.name, f.name)
            acting = acting_field(spec)
            if acting is not None:
                assert acting.kind in ("player", "account")


# -- the fields a flow fills are found by their declared kinds and roles, never by their names --------------
def _field_names() -> set[str]:
    """The names of every field of every kind any family declares."""
    from companion.rules import load_pack, pack_names, rules_for

    return {f.name for pack in pack_names() for spec in rules_for(load_pack(pack)).registry for f in spec.fields}


def _is_values(node: ast.AST) -> bool:
    """A form's or an action's values: ``form.values``, ``values``, ``v``, ``partial``, ``typed`` (what
    the contract read)."""
    return (isinstance(node, ast.Attribute) and node.attr == "values") or (
        isinstance(node, ast.Name) and node.id in ("values", "v", "partial", "typed")
    )


def _named_reads(tree: ast.AST, names: set[str]) -> list[int]:
    """Lines that pick a field out by its name: ``name == "count"``, ``form.values.get("building")``,
    ``v["creditor"]``, ``form.fill("count", ...)``, ``form.clear("count")``."""
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            naming = any(
                (isinstance(s, ast.Name) and s.id in ("name", "field"))
                or (isinstance(s, ast.Attribute) and s.attr in ("name", "actor", "field"))
                for s in sides
            )
            if naming and any(set(_constants(s)) & names for s in sides):
                lines.append(node.lineno)
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.args
            and set(_constants(node.args[0])) & names
            and (node.func.attr in ("fill", "clear") or (node.func.attr == "get" and _is_values(node.func.value)))
        ):
            lines.append(node.lineno)
        if isinstance(node, ast.Subscript) and _is_values(node.value) and set(_constants(node.slice)) & names:
            lines.append(node.lineno)
    return lines


def test_no_adapter_picks_a_field_out_by_its_name():
    """The touchscreen, the phones and the command line find the field they fill (the building and
    the count a spin gives, a trade's or a bankruptcy's player, an auction's deed) by its declared
    kind or role (flows.spin_fields, flows.filled_of_kind, flows.role_field, form.actor; a phone's
    payment request, requests.TRANSFER)."""
    names = _field_names()
    problems = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE)
        if rel.parts[0] in ("rules", "core"):
            continue
        tree = _tree(path)
        problems += [f"{rel}:{line}" for line in sorted(set(_named_reads(tree, names)))]
    assert not problems, f"find the field by its declared kind or role instead of its name: {problems}"


def test_the_name_check_catches_the_reads_it_is_meant_to():
    names = {"building", "count", "creditor", "deed"}
    reading_names = ast.parse(
        'def f(form, name):\n    return name == "count"\n'
        'def g(form):\n    return form.values.get("building")\n'
        'def h(v):\n    return v["creditor"]\n'
        'def i(form):\n    return form.fill("count", 3).clear("deed")\n'
    )
    assert sorted(set(_named_reads(reading_names, names))) == [2, 4, 6, 8]
    by_kind = ast.parse('def f(form, spec):\n    return form.values.get(spin_fields(spec)[0]), form.counts == "x"\n')
    assert _named_reads(by_kind, names) == []
