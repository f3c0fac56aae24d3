"""Layers: domain modules (the models, ``analysis/<domain>.py``, ``analysis/data/schemas/`` and
``analysis/measure/``) never import the parameter registry, the chapter layer or the presentation
helpers, so a model function can be tested, reused and read without the book around it. The check
parses each module with ``ast`` and looks at every import, including those inside functions.

The package's imports form no circle, counting those inside functions, and no module hides an
import of another ``analysis`` module inside a function (a short allowlist says why for each
exception): every module imports on its own, in a fresh interpreter."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ANALYSIS = Path(__file__).resolve().parent.parent / "analysis"

FORBIDDEN = ("analysis.chapters.registry", "analysis.params.defaults", "analysis.chapters", "analysis.figures",
             "analysis.page.notebook", "analysis.page.plots")

# Not domain modules:
# - the parameter registry and its definitions (sections, defaults, params), the results files,
#   the presentation helpers (notebook, plots, tables, names: reader-facing labels of parameters and
#   GPUs) and the command line (cli, __main__);
# - the chapter layer, its figures and the build pipeline (whole packages);
# - scenarios.py is orchestration: a scenario file is a set of parameters for the whole book, so
#   loading one validates it against every section's parameters (the registry) and evaluating one
#   starts from every parameter's default (analysis.chapters.bands.model_values), as the CLI's
#   `compare` and the scenarios chapter need. planner/ is orchestration too: a plan starts from
#   the book's parameter defaults (`python -m analysis plan` and the plan chapter). whatif.py is
#   orchestration too: it evaluates the chapters' functions on grids over parameters' ranges. (ledger.py, by contrast, takes the chapters' results
#   as plain data and is checked as a domain module.)
NOT_DOMAIN_FILES = {"cli.py", "__main__.py", "page.py"}  # measure/page.py: the measured rows' page
# schemas/ validates data/: fact_checks.csv names sections, so schemas/ledger.py reads the registry
NOT_DOMAIN_PACKAGES = {"chapters", "figures", "build", "page", "params", "planner"}


def domain_modules() -> list[Path]:
    out = []
    for path in sorted(ANALYSIS.rglob("*.py")):
        rel = path.relative_to(ANALYSIS)
        if rel.parts[0] in NOT_DOMAIN_PACKAGES or rel.name in NOT_DOMAIN_FILES:
            continue
        out.append(path)
    return out


def imported_modules(tree: ast.AST) -> list[tuple[int, str]]:
    """(line, dotted name) of every module an AST imports, with ``from analysis import x`` read as
    ``analysis.x`` (x may be a module); relative imports are not used in this package."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module == "analysis":
            found += [(node.lineno, f"analysis.{alias.name}") for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.append((node.lineno, node.module))
    return found


def forbidden_imports(source: str) -> list[str]:
    return [f"line {line}: {name}" for line, name in sorted(imported_modules(ast.parse(source)))
            if any(name == f or name.startswith(f + ".") for f in FORBIDDEN)]


@pytest.mark.parametrize("path", domain_modules(), ids=lambda p: str(p.relative_to(ANALYSIS)))
def test_domain_module_imports_no_registry_chapter_or_presentation(path):
    assert forbidden_imports(path.read_text(encoding="utf-8")) == []


def test_the_check_sees_every_form_of_import():
    source = ("import analysis.chapters.registry\nfrom analysis.params.defaults import d\nfrom analysis.page.plots import PALETTE\n"
              "def f():\n    from analysis.chapters.bands import model_values\n    import analysis.page.notebook as nb\n"
              "from analysis import tco, energy\nfrom analysis.figures import tco as figures\n")
    assert forbidden_imports(source) == ["line 1: analysis.chapters.registry", "line 2: analysis.params.defaults",
                                         "line 3: analysis.page.plots", "line 5: analysis.chapters.bands",
                                         "line 6: analysis.page.notebook", "line 8: analysis.figures"]


def test_the_domain_modules_include_the_models_and_measure():
    names = {str(p.relative_to(ANALYSIS)) for p in domain_modules()}
    assert {"tco.py", "uncertainty.py", "goodput.py", "measure/report.py"} <= names
    assert not names & {"chapters/registry.py", "chapters/compare.py", "chapters/bands.py", "figures/uncertainty.py"}


# --- no import circle, no import hidden in a function ---------------------------------------------

def module_name(path: Path) -> str:
    parts = list(path.relative_to(ANALYSIS.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in sorted(ANALYSIS.rglob("*.py"))}

# Modules allowed to import analysis modules inside functions: the command line (analysis.cli and
# its planner command, analysis.planner.cli) loads each command's modules when the command runs, so
# `python -m analysis params` does not import the pipeline, matplotlib and every chapter.
LATE_IMPORTS_ALLOWED = ("analysis.cli", "analysis.planner.cli")
CIRCLES_ALLOWED = ()  # none left: a new circle fails the test below


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
    included (importing ``analysis.data.schemas.ledger`` runs ``analysis/data/schemas/__init__.py``), a
    module's own package excluded."""
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
    """Counting imports inside functions: params -> hardware -> data -> schemas -> sections ->
    params was one (the fact checks' sections now come from the notebooks, analysis/data/schemas/ledger.py)."""
    assert [c for c in circles(import_graph()) if c not in CIRCLES_ALLOWED] == []


def test_the_circle_check_finds_a_circle():
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [{"a", "b", "c"}]


@pytest.mark.parametrize("name", [n for n in MODULES if not n.startswith(LATE_IMPORTS_ALLOWED)])
def test_no_analysis_import_is_hidden_in_a_function(name):
    late = analysis_imports(ast.parse(MODULES[name].read_text(encoding="utf-8")), late=True)
    assert late == [], f"{MODULES[name]}: move these imports to the top of the module: {late}"


@pytest.mark.parametrize("name", ["analysis.params.parameters", "analysis.hardware", "analysis.data.load", "analysis.data.schemas",
                                  "analysis.data.schemas.ledger", "analysis.chapters.registry", "analysis.params.defaults",
                                  "analysis.params.scenario_file", "analysis.chapters", "analysis.page.notebook"])
def test_each_module_of_the_old_circle_imports_on_its_own(name):
    """In a fresh interpreter, so no earlier import has done the work."""
    proc = subprocess.run([sys.executable, "-c", f"import {name}"], cwd=ANALYSIS.parent, capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]


def test_every_section_is_a_notebook():
    """The fact checks' sections are validated against the notebooks (analysis/data/schemas/ledger.py)."""
    from analysis.chapters.registry import section_names
    from analysis.data.schemas.ledger import section_names as notebook_names

    assert notebook_names() == sorted(section_names())
