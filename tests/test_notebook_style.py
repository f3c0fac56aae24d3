"""Notebooks are narrative: prose, short calls into ``analysis/``, figures and glue. Everything a
chapter computes lives in a tested function (``analysis/chapters/<name>.py`` over the domain
modules), so this test parses every notebook's code cells and rejects the constructs that put a
model back into a notebook: function and class definitions, lambdas, loops and comprehensions,
data loading and grouping, and hand-written parameter cells (a chapter's parameters cell is the one
``analysis.page.parameter_cells`` generates from analysis/params/defaults.py). It also caps the code per word of
prose (QuantEcon's median lecture has about 2.9 characters of code per word) and per cell."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import jupytext
import pytest

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.py"))

FORBIDDEN_NODES = {
    ast.FunctionDef: "a function definition", ast.AsyncFunctionDef: "a function definition",
    ast.ClassDef: "a class definition", ast.Lambda: "a lambda", ast.For: "a for loop",
    ast.AsyncFor: "a for loop", ast.While: "a while loop", ast.ListComp: "a list comprehension",
    ast.SetComp: "a set comprehension", ast.DictComp: "a dict comprehension",
    ast.GeneratorExp: "a generator expression",
}
FORBIDDEN_CALLS = {"load_table", "groupby", "iterrows", "itertuples", "apply", "read_csv"}
MAX_CODE_CHARS_PER_PROSE_WORD = 4.0
MAX_LINES_PER_CELL = 12


def _code_lines(source: str) -> list[str]:
    return [ln for ln in source.splitlines() if ln.strip() and not ln.strip().startswith("#")]


def _cells(path: Path):
    nb = jupytext.read(path)
    return nb.cells


def _generated_cell(name: str) -> str | None:
    """The body of the parameters cell generated for chapter ``name`` (None: not a chapter)."""
    from analysis.chapters.registry import section_names
    from analysis.page.parameter_cells import cell_text

    if name not in section_names():
        return None
    from analysis.chapters.registry import get_section

    return cell_text(get_section(name)).split("\n", 1)[1].strip()


def violations(path: Path) -> list[str]:
    """What in ``path`` breaks the rules above, one line each (empty when it is clean)."""
    found = []
    code_chars = prose_words = 0
    for index, cell in enumerate(_cells(path)):
        if cell.cell_type == "markdown":
            text = re.sub(r"\{glue:[a-z]+\}`[^`]*`", "N", cell.source)  # a glued number is one word
            prose_words += len(re.findall(r"[A-Za-z][A-Za-z'-]*", re.sub(r"```.*?```", "", text, flags=re.S)))
            continue
        if cell.cell_type != "code":
            continue
        lines = _code_lines(cell.source)
        where = f"{path.name} cell {index}"
        if "parameters" in cell.metadata.get("tags", []):
            if cell.source.strip() != _generated_cell(path.stem):
                found.append(f"{where}: the parameters cell holds code that is not generated from "
                             "analysis/params/defaults.py (`python -m analysis notebooks --sync` writes it)")
            continue
        code_chars += sum(len(ln.strip()) for ln in lines)
        if len(lines) > MAX_LINES_PER_CELL:
            found.append(f"{where}: {len(lines)} lines of code (at most {MAX_LINES_PER_CELL})")
        tree = ast.parse(cell.source)
        for node in ast.walk(tree):
            for kind, what in FORBIDDEN_NODES.items():
                if isinstance(node, kind):
                    found.append(f"{where} line {node.lineno}: {what}")
            if isinstance(node, ast.Call):
                name = getattr(node.func, "attr", None) or getattr(node.func, "id", None)
                if name in FORBIDDEN_CALLS:
                    found.append(f"{where} line {node.lineno}: calls {name}()")
    ratio = code_chars / max(prose_words, 1)
    if ratio > MAX_CODE_CHARS_PER_PROSE_WORD:
        found.append(f"{path.name}: {ratio:.1f} characters of code per word of prose "
                     f"(at most {MAX_CODE_CHARS_PER_PROSE_WORD})")
    return found


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_is_narrative(path):
    assert violations(path) == []


def test_the_rules_catch_a_model_in_a_notebook(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text(
        '# %% [markdown]\n# A short page.\n\n# %% tags=["parameters"]\ngpus = 8\n\n'
        '# %%\ndef f(x):\n    return x\n\n# %%\nrows = [r for r in load_table("gpus").itertuples()]\n',
        encoding="utf-8")
    found = "\n".join(violations(bad))
    for expected in ("parameters cell holds code that is not generated", "a function definition", "a list comprehension",
                     "calls load_table()", "calls itertuples()", "characters of code per word"):
        assert expected in found
