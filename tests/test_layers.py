"""The core is pure: importing it loads no GUI, GPIO, web or discovery module."""
import subprocess
import sys


def test_importing_the_core_loads_no_adapter():
    code = (
        "import sys, companion.core, companion.core.engine, companion.core.common, companion.rules, companion.service\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in {'kivy', 'gpiozero', 'aiohttp', 'zeroconf', 'qrcode'})\n"
        "print(','.join(bad))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == ""


# -- one way through: adapters meet only through the Banker ---------------------------------------------
import ast
from pathlib import Path

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


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
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


def test_no_adapter_reaches_into_the_bankers_game_file():
    problems = []
    for modules in ADAPTERS.values():
        for path in (p for m in modules for p in _modules(m)):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Attribute) and node.attr == "store" and isinstance(node.value, (ast.Name, ast.Attribute)):
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
                if isinstance(side, ast.Call) and getattr(side.func, "id", None) == "str" and side.args \
                        and isinstance(side.args[0], ast.Name) and side.args[0].id == handler.name:
                    lines.append(node.lineno)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in (
                "search", "match", "fullmatch", "findall", "startswith", "endswith"):
            for arg in [*node.args, node.func.value]:
                if isinstance(arg, ast.Call) and getattr(arg.func, "id", None) == "str" and arg.args \
                        and isinstance(arg.args[0], ast.Name) and arg.args[0].id == handler.name:
                    lines.append(node.lineno)
    return lines


def test_nothing_outside_the_rules_learns_from_an_error_s_words():
    problems = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE)
        if rel.parts[0] in ("core", "rules"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
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
