"""The layers hold: engine < ingest < kb < service, every import goes down (inside functions and through
importlib too), the web modules never import ingest, and no two modules import each other in a cycle."""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LAYERS = ("engine", "ingest", "kb", "service")
# The service module that runs outside the web app: the command line (which ingests).
NOT_WEB = {"service.cli"}


def modules() -> dict[str, Path]:
    """Dotted module name → file, for every module of the four packages."""
    found = {}
    for package in LAYERS:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def _importlib_target(node: ast.Call) -> str | None:
    """The module an `importlib.import_module("pkg.mod")` / `import_module(f"pkg.{x}")` call names."""
    func = node.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
    if name != "import_module" or not node.args:
        return None
    arg = node.args[0]
    if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
        return arg.value
    if isinstance(arg, ast.JoinedStr) and arg.values and isinstance(arg.values[0], ast.Constant):
        return str(arg.values[0].value).rstrip(".") or None
    return None


def imports_of(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The project modules `name` imports anywhere in its file (module level, functions, importlib)."""
    targets: set[str] = set()
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            targets.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join(anchor + ([base] if base else []))
            for alias in node.names:
                submodule = f"{base}.{alias.name}"
                targets.add(submodule if submodule in known else base)
        elif isinstance(node, ast.Call):
            target = _importlib_target(node)
            if target:
                targets.add(target)
    return {t for t in targets if t.split(".")[0] in LAYERS}


def graph() -> dict[str, set[str]]:
    known = modules()
    return {name: imports_of(name, path, known) - {name} for name, path in known.items()}


def layer(module: str) -> int:
    return LAYERS.index(module.split(".")[0])


def test_every_import_goes_down_the_layers():
    upward = [f"{source} imports {target}" for source, targets in graph().items() for target in sorted(targets)
              if layer(target) > layer(source)]
    assert upward == []


def test_the_web_modules_import_nothing_from_ingest():
    leaks = [f"{source} imports {target}" for source, targets in graph().items() for target in sorted(targets)
             if source.startswith("service") and source not in NOT_WEB and target.startswith("ingest")]
    assert leaks == []


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in edges.get(node, ()):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def test_no_two_modules_import_each_other_in_a_cycle():
    assert cycles(graph()) == []


def test_the_cycle_finder_sees_a_cycle_through_three_modules():
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(edges) == [["a", "b", "c"]]


def test_imports_inside_functions_and_through_importlib_are_seen(tmp_path):
    source = tmp_path / "probe.py"
    source.write_text("import importlib\n"
                      "def f():\n    from service.app import create_app\n"
                      "def g(name):\n    return importlib.import_module(f'kb.{name}')\n")
    assert imports_of("engine.probe", source, {}) == {"service.app", "kb"}
