"""The layers hold: model < engine < ingest < kb < service < training, every import goes down (inside functions and through
importlib too); the model imports nothing of the project; kb's read side and the service never reach ingest,
even through another module; and no modules import each other in a loop, a package's __init__ included."""
from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# training (the retrieval model's pairs and trainer) is a developer's tool on top: nothing the product runs imports it
LAYERS = ("model", "engine", "ingest", "kb", "service", "training")
# kb's write side: the module that reads documents (build, add, remove), and the two it runs that rewrite stored
# rulings by the editions' lineage (a schema migration, an edition filed between others): those import ingest.
KB_WRITE_SIDE = {"kb.build", "kb.migrations", "kb.reidentify"}
# The command line runs those writes besides the reads, importing kb.build inside the commands that write: the
# one service module outside the web app.
COMMAND_LINE = {"service.cli"}


def modules() -> dict[str, Path]:
    """Dotted module name → file, for every module of the layers' packages."""
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
            targets.add(base)  # `from pkg import mod` runs pkg/__init__.py first: it depends on the package too
            targets.update(f"{base}.{alias.name}" for alias in node.names if f"{base}.{alias.name}" in known)
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


def reached(edges: dict[str, set[str]], start: str) -> set[str]:
    """Every module `start` imports, directly or through others."""
    seen, todo = set(), [start]
    while todo:
        for target in edges.get(todo.pop(), ()):
            if target not in seen:
                seen.add(target)
                todo.append(target)
    return seen


def test_the_model_imports_nothing_of_the_project_but_itself():
    leaks = [f"{source} imports {target}" for source, targets in graph().items() if source.startswith("model")
             for target in sorted(targets) if not target.startswith("model")]
    assert leaks == []


def test_kb_read_side_and_the_service_never_reach_ingest_even_through_other_modules():
    edges = graph()
    readers = [name for name in edges if name.split(".")[0] in ("kb", "service")
               and name not in KB_WRITE_SIDE | COMMAND_LINE]
    leaks = {name: sorted(t for t in reached(edges, name) if t.startswith("ingest")) for name in readers}
    assert {name: found for name, found in leaks.items() if found} == {}


def test_answering_a_question_on_the_web_and_on_the_command_line_loads_no_ingest_module(built_db):
    code = ("import sys\n"
            "from click.testing import CliRunner\n"
            "from service.app import create_app\n"
            "from service.cli import cli\n"
            "client = create_app(sys.argv[1]).test_client()\n"
            "assert client.get('/?q=reserve+army+magic').status_code == 200\n"
            "assert client.get('/api/search?q=reserve+army+magic').status_code == 200\n"
            "assert CliRunner().invoke(cli, ['ask', 'reserve army magic', '--db', sys.argv[1]]).exit_code == 0\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] == 'ingest'))\n")
    result = subprocess.run([sys.executable, "-c", code, str(built_db)], capture_output=True, text=True,
                            cwd=ROOT, timeout=300)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


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


def test_no_modules_import_each_other_in_a_loop():
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


def test_importing_a_module_from_a_package_depends_on_the_package_init_too(tmp_path):
    source = tmp_path / "probe.py"
    source.write_text("from ingest.formats import html\n")
    known = {"ingest.formats": source, "ingest.formats.html": source}
    assert imports_of("ingest.formats.markdown", source, known) == {"ingest.formats", "ingest.formats.html"}


# Format knowledge lives in ingest/formats/ (each reader declares its media type, what its file is called, whether
# the file is kept and how citations name its places); the rest of the product asks it, or the `formats` table
# its declarations fill. training/ is a developer's tool on top, choosing which corpus files to learn from.
FORMATS_PACKAGE = ROOT / "ingest" / "formats"
PRODUCT = ("model", "engine", "ingest", "kb", "service")
# SQL or Jinja comparing a format's name with a literal: "format != 'pdf'", "source.format == "pdf"".
_FORMAT_TEST = re.compile(r"""\bformat\s*(?:==|!=|=|<>|\bin\b|\bis\b)\s*\(?\s*['"]""", re.IGNORECASE)


def format_names() -> tuple[set[str], set[str]]:
    """What names a format: (every name, media type and suffix of ingest.formats.FORMATS, lowercase; those that
    name nothing else). The plain-text format's own ("text", "text/plain") and the stored "data" are words and
    values every module uses: only a comparison with a format finds them."""
    from ingest.formats import FORMATS
    every = {value.lower() for found in FORMATS for value in (found.name, found.stored, found.media_type,
                                                               *found.suffixes)}
    common = {value.lower() for found in FORMATS if found.verbatim
              for value in (found.name, found.media_type, *found.suffixes)} | {"data"}
    return every, every - common


def format_mentions(path: Path, source: str) -> list[str]:
    """Where a module names a format: a string naming one, a comparison of a `format` with one, or SQL or markup
    comparing a format column with a literal."""
    every, distinct = format_names()
    found = []
    for node in ast.walk(ast.parse(source, str(path))):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if node.value.lower() in distinct:
                found.append(f"{path.relative_to(ROOT)}:{node.lineno} names {node.value!r}")
            elif _FORMAT_TEST.search(node.value):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno} tests a format in {node.value.strip()[:60]!r}")
        elif isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            named = [side.value for side in sides if isinstance(side, ast.Constant) and isinstance(side.value, str)
                     and side.value.lower() in every]
            if named and "format" in (ast.get_source_segment(source, node) or ""):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno} compares a format with {named[0]!r}")
    return found


def test_no_module_outside_ingest_formats_names_a_format():
    mentions = [found for package in PRODUCT for path in sorted((ROOT / package).rglob("*.py"))
                if FORMATS_PACKAGE not in path.parents
                for found in format_mentions(path, path.read_text(encoding="utf-8"))]
    templates = [f"{path.relative_to(ROOT)}:{number}" for path in sorted((ROOT / "service" / "templates").rglob("*"))
                 if path.is_file()
                 for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
                 if _FORMAT_TEST.search(line)]
    assert mentions + templates == []


@pytest.mark.parametrize("code, named", [
    ('if document.format == "pdf":\n    pass\n', "compares a format with 'pdf'"),
    ('if document.format == "text":\n    pass\n', "compares a format with 'text'"),
    ('TYPES = {"pdf": "application/pdf"}\n', "names 'pdf'"),
    ('SQL = "select * from sources s where s.format != \'pdf\'"\n', "tests a format"),
    ('FILES = {".docx"}\n', "names '.docx'"),
])
def test_the_format_check_sees_a_format_named_in_code_or_sql(tmp_path, code, named):
    path = ROOT / "kb" / "probe.py"  # as if in kb: only its name is used
    found = format_mentions(path, code)
    assert found and named in found[0]


def test_the_format_check_lets_the_word_text_be():
    assert format_mentions(ROOT / "kb" / "probe.py", 'row["text"] = "text"\nkind = "data"\n') == []
