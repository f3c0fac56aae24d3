"""The layers of ``analysis/`` are import-linter contracts (``pyproject.toml``, run by ``make test``:
``lint-imports``, counting indirect imports). These tests keep the contracts whole and check what
they do not: no import circle, counting imports inside functions; no ``analysis`` import hidden in a
function outside the command line; every module importable on its own; every section a notebook."""

from __future__ import annotations

import ast
import subprocess
import sys
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
ANALYSIS = REPO / "analysis"
NOT_MODEL = {"__init__", "__main__", "cli", "errors", "units"}  # the package's face, entry points and base


def contracts() -> list[dict]:
    return tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]["contracts"]


def test_the_model_contract_names_every_module_at_the_root():
    """The model sits flat at the package root: a module added there is under the contract."""
    model = {f"analysis.{p.stem}" for p in ANALYSIS.glob("*.py") if p.stem not in NOT_MODEL}
    (contract,) = [c for c in contracts() if c["name"].startswith("The model imports nothing above it")]
    assert set(contract["source_modules"]) == model
    for c in contracts():  # and every contract that forbids the model forbids all of it
        named = {m for m in c.get("forbidden_modules", []) if m.count(".") == 1 and m.split(".")[1] not in
                 ("params", "chapters", "figures", "page", "build", "planner", "measure", "cli", "data")}
        assert not named or named == model, c["name"]


def test_every_folder_of_the_package_is_under_a_contract():
    packages = {f"analysis.{p.name}" for p in ANALYSIS.iterdir() if (p / "__init__.py").is_file()}
    named = {m for c in contracts() for m in c.get("source_modules", []) + c.get("forbidden_modules", [])}
    assert packages <= named, packages - named


# --- no import circle, no import hidden in a function ---------------------------------------------

def module_name(path: Path) -> str:
    parts = list(path.relative_to(ANALYSIS.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in sorted(ANALYSIS.rglob("*.py"))}

# Modules allowed to import analysis modules inside functions: the command line loads each
# command's modules when the command runs, so `python -m analysis params` does not import the
# build, matplotlib and every chapter.
LATE_IMPORTS_ALLOWED = ("analysis.cli", "analysis.planner.cli")


def analysis_imports(tree: ast.AST, late: bool | None = None) -> list[tuple[int, str]]:
    """(line, module) of each ``analysis`` module an AST imports: at module level (``late=False``),
    inside functions (``late=True``) or anywhere (None). ``from analysis.x import y`` names
    ``analysis.x.y`` when that is a module of the package, else ``analysis.x``."""
    inside = {id(node) for fn in ast.walk(tree) if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef))
              for node in ast.walk(fn) if node is not fn}
    found = []
    for node in ast.walk(tree):
        if late is not None and (id(node) in inside) != late:
            continue
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names if a.name.split(".")[0] == "analysis"]
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "analysis":
            for a in node.names:
                name = f"{node.module}.{a.name}"
                found.append((node.lineno, name if name in MODULES else node.module))
    return found


def import_graph() -> dict[str, set[str]]:
    """Module -> the package modules it imports (anywhere in its file), parents of submodules
    included (importing ``analysis.data.schemas.ledger`` runs ``analysis/data/schemas/__init__.py``),
    a module's own package excluded."""
    graph = {}
    for name, path in MODULES.items():
        out = set()
        for _, imported in analysis_imports(ast.parse(path.read_text(encoding="utf-8"))):
            parts = imported.split(".")
            for i in range(2, len(parts) + 1):
                target = ".".join(parts[:i])
                if target in MODULES and target != name and not (i < len(parts) and name.startswith(target + ".")):
                    out.add(target)
        graph[name] = out
    return graph


def circles(graph: dict[str, set[str]]) -> list[set[str]]:
    """The strongly connected components of ``graph`` with more than one module (Tarjan)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = set()
            while not component or w != v:
                w = stack.pop()
                on_stack.discard(w)
                component.add(w)
            if len(component) > 1:
                found.append(component)

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_the_package_imports_form_no_circle():
    assert circles(import_graph()) == []


def test_the_circle_check_finds_a_circle():
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [{"a", "b", "c"}]


def test_no_analysis_import_is_hidden_in_a_function():
    """Ruff's PLC0415 allows a few modules to import libraries late (matplotlib, papermill: see
    ruff.toml); none of them may hide an import of the package itself."""
    late = {name: found for name, path in MODULES.items() if not name.startswith(LATE_IMPORTS_ALLOWED)
            and (found := analysis_imports(ast.parse(path.read_text(encoding="utf-8")), late=True))}
    assert late == {}


def test_the_hidden_import_check_sees_one():
    source = "import os\ndef f():\n    from analysis.chapters import compute_section\n    import numpy\n"
    assert analysis_imports(ast.parse(source), late=True) == [(3, "analysis.chapters")]


def test_each_module_of_the_old_circle_imports_on_its_own():
    """Each in a fresh interpreter, so no earlier import has done the work (the old circle
    params -> hardware -> data -> schemas -> sections -> params failed only in some orders)."""
    names = ["analysis.params.parameters", "analysis.hardware", "analysis.data.load", "analysis.data.schemas",
             "analysis.data.schemas.ledger", "analysis.chapters.registry", "analysis.params.defaults",
             "analysis.params.scenario_file", "analysis.chapters", "analysis.page.notebook"]
    code = ("import subprocess, sys\n"
            "bad = [n for n in sys.argv[1:] if subprocess.run([sys.executable, '-c', f'import {n}'],"
            " capture_output=True).returncode]\nprint(' '.join(bad))")
    proc = subprocess.run([sys.executable, "-c", code, *names], cwd=REPO, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0 and proc.stdout.split() == [], proc.stdout + proc.stderr[-2000:]


def test_every_section_is_a_notebook():
    """The fact checks' sections are validated against the notebooks (analysis/data/schemas/ledger.py)."""
    from analysis.chapters.registry import section_names
    from analysis.data.schemas.ledger import section_names as notebook_names

    assert notebook_names() == sorted(section_names())
