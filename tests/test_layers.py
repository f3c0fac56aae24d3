"""Layers: domain modules (the models, ``analysis/<domain>.py`` and ``analysis/measure/``) never
import the parameter registry, the chapter layer or the presentation helpers, so a model function
can be tested, reused and read without the book around it. The check parses each module with
``ast`` and looks at every import, including those inside functions."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ANALYSIS = Path(__file__).resolve().parent.parent / "analysis"

FORBIDDEN = ("analysis.sections", "analysis.defaults", "analysis.chapters", "analysis.figures",
             "analysis.notebook", "analysis.plots")

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
NOT_DOMAIN_FILES = {"sections.py", "defaults.py", "params.py", "notebook.py", "results.py", "plots.py", "tables.py",
                    "names.py", "whatif.py",
                    "cli.py", "plan_cli.py", "__main__.py", "scenarios.py"}
# schemas/ validates data/: fact_checks.csv names sections, so schemas/ledger.py reads the registry
NOT_DOMAIN_PACKAGES = {"chapters", "figures", "pipeline", "schemas", "planner"}


def domain_modules() -> list[Path]:
    out = []
    for path in sorted(ANALYSIS.rglob("*.py")):
        rel = path.relative_to(ANALYSIS)
        if rel.parts[0] in NOT_DOMAIN_PACKAGES or (len(rel.parts) == 1 and rel.name in NOT_DOMAIN_FILES):
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
    source = ("import analysis.sections\nfrom analysis import defaults as d\nfrom analysis.plots import PALETTE\n"
              "def f():\n    from analysis.chapters.bands import model_values\n    import analysis.notebook as nb\n"
              "from analysis import tco, energy\nfrom analysis.figures import tco as figures\n")
    assert forbidden_imports(source) == ["line 1: analysis.sections", "line 2: analysis.defaults",
                                         "line 3: analysis.plots", "line 5: analysis.chapters.bands",
                                         "line 6: analysis.notebook", "line 8: analysis.figures"]


def test_the_domain_modules_include_the_models_and_measure():
    names = {str(p.relative_to(ANALYSIS)) for p in domain_modules()}
    assert {"tco.py", "uncertainty.py", "ledger.py", "goodput.py", "measure/report.py"} <= names
    assert not names & {"sections.py", "scenarios.py", "chapters/bands.py", "figures/uncertainty.py"}
