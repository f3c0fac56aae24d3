"""The chapters as a papermill user runs them, papermill itself driving: a notebook converted with
jupytext into a temporary folder, executed in the kernel ``make venv`` installs (python3).

- ``papermill --help-notebook`` lists every parameter of every chapter, with its unit and range:
  the parameters cell is generated from analysis/params/defaults.py and cannot drift from it.
- A misspelt name, or another chapter's parameter, fails the notebook (papermill exits non-zero)
  with a sentence naming it, in every chapter, before the chapter shows anything.
- A run outside the build computes the chapters it needs, writes its results where ``run``
  writes them (or beside papermill's output notebook) with the same bytes, and leaves the
  published book byte-identical (issue 47).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import jupytext
import nbformat
import papermill
import pytest
from conftest import REPO, copy_repo, run_cli

from analysis.chapters.registry import SECTIONS, get_section
from analysis.page import parameter_cells

PAPERMILL = [sys.executable, "-m", "papermill"]


def _ipynb(section: str, folder: Path, root: Path = REPO) -> Path:
    """``notebooks/<section>.py`` as papermill's documentation has a user convert it."""
    path = folder / f"{section}.ipynb"
    nbformat.write(jupytext.read(root / "notebooks" / f"{section}.py"), str(path))
    return path


def _outside_build_env(root: Path) -> dict:
    """The environment of a papermill run outside the build: the ``analysis`` package of ``root``
    (the kernel inherits it), no results folder set by a build."""
    env = {k: v for k, v in os.environ.items() if k not in ("ANALYSIS_RESULTS_DIR", "ANALYSIS_ALLOWED_TABLES")}
    return {**env, "PYTHONPATH": str(root)}


# --- the parameters cell ------------------------------------------------------------------------

def test_parameter_cells_are_generated_from_defaults():
    assert parameter_cells.sync(REPO, write=False) == []


def test_a_hand_edited_parameter_cell_is_found_and_rewritten(tmp_path):
    root = copy_repo(tmp_path / "repo")
    path = root / "notebooks" / "capex.py"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("useful_life_years: float = 4.0", "useful_life_years: float = 5.0"), encoding="utf-8")
    assert parameter_cells.sync(root, write=False) == [path]
    assert parameter_cells.sync(root, write=True) == [path]
    assert path.read_text(encoding="utf-8") == text  # only that cell changed, back to defaults.py's value
    proc = run_cli("notebooks", cwd=root)
    assert proc.returncode == 0, proc.stderr


def test_the_notebooks_command_fails_on_drift_naming_the_file_and_the_fix(tmp_path):
    root = copy_repo(tmp_path / "repo")
    path = root / "notebooks" / "tco.py"
    path.write_text(path.read_text(encoding="utf-8").replace("pue: float = 1.25", "pue: float = 1.1"), encoding="utf-8")
    proc = run_cli("notebooks", cwd=root)
    assert proc.returncode == 1
    assert "notebooks/tco.py" in proc.stderr and "python -m analysis notebooks --sync" in proc.stderr


def test_help_notebook_lists_every_parameter_with_unit_and_range(tmp_path):
    """papermill's own inspection (what --help-notebook prints) of every chapter."""
    for section in SECTIONS:
        inferred = {p["name"]: p for p in papermill.inspect_notebook(str(_ipynb(section.name, tmp_path))).values()}
        assert list(inferred) == [p.name for p in section.params], section.name
        for p in section.params:
            got = inferred[p.name]
            assert got["inferred_type_name"] == type(p.default).__name__, (section.name, p.name)
            assert got["default"] == repr(p.default), (section.name, p.name)
            assert got["help"].startswith(f"{p.unit}; {p.describe_range()}."), (section.name, p.name, got["help"])


def test_help_notebook_command_prints_them(tmp_path):
    proc = subprocess.run([*PAPERMILL, "--help-notebook", str(_ipynb("capex", tmp_path))], capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "Can't infer anything" not in proc.stdout
    p = get_section("capex").param_map["useful_life_years"]
    assert "useful_life_years: float (default 4.0)" in proc.stdout
    assert f"{p.unit}; {p.describe_range()}" in proc.stdout


# --- names a chapter does not take ----------------------------------------------------------------

def _foreign_parameter(section) -> str:
    """A parameter of another chapter that ``section`` does not take (every chapter has one)."""
    return next(p.name for s in SECTIONS for p in s.params if p.name not in section.param_map)


@pytest.fixture(scope="module")
def kernel():
    """One python3 kernel for the chapters below, its namespace reset before each notebook (the
    notebooks stop at start(), so a kernel of their own each would add only its start-up)."""
    from jupyter_client.manager import AsyncKernelManager
    from jupyter_core.utils import run_sync

    km = AsyncKernelManager(kernel_name="python3")
    run_sync(km.start_kernel)(env=_outside_build_env(REPO), cwd=str(REPO))
    yield km
    run_sync(km.shutdown_kernel)(now=True)


@pytest.mark.parametrize("section", SECTIONS, ids=[s.name for s in SECTIONS])
def test_a_misspelt_or_foreign_parameter_fails_the_notebook_naming_it(section, kernel, tmp_path):
    from papermill.exceptions import PapermillExecutionError

    nb = jupytext.read(REPO / "notebooks" / f"{section.name}.py")
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.cells.insert(0, nbformat.v4.new_code_cell("%reset -f"))  # a fresh namespace in the shared kernel
    misspelt = (section.params[0].name[:-1] + "x") if section.params else "gpus_typo"
    foreign = _foreign_parameter(section)
    with pytest.raises(PapermillExecutionError) as failed:
        papermill.execute_notebook(nb, str(tmp_path / "out.ipynb"), parameters={misspelt: 5, foreign: 7},
                                   kernel_name="python3", km=kernel, progress_bar=False, log_output=False)
    error = failed.value
    assert error.ename == "ParameterError", (section.name, error.ename, error.evalue)
    assert f"chapter '{section.name}' does not take" in error.evalue
    assert f"'{misspelt}' (not a parameter of any chapter" in error.evalue
    if section.params:  # the name meant is among the nearest
        assert section.params[0].name in re.search(r"did you mean ([^?]*)\?", error.evalue).group(1).split(", ")
    owners = ", ".join(s.name for s in SECTIONS if foreign in s.param_map)
    assert f"'{foreign}' (a parameter of {owners}, not of {section.name}" in error.evalue
    # stopped at start(): no cell before the failing one showed anything
    executed = nbformat.read(str(tmp_path / "out.ipynb"), as_version=4)
    failing = next(i for i, c in enumerate(executed.cells) if any(o.get("output_type") == "error" for o in c.get("outputs", [])))
    assert "start(" in executed.cells[failing].source
    assert not any(c.get("outputs") for c in executed.cells[:failing] if c.cell_type == "code")


# --- a run outside the build -------------------------------------------------------------------------

def _digest(folder: Path) -> dict[str, str]:
    """Every file and link under ``folder`` (relative path -> sha256, or the link's target)."""
    out = {}
    for path in sorted(folder.rglob("*")):
        rel = str(path.relative_to(folder))
        if path.is_symlink():
            out[rel] = "-> " + os.readlink(path)
        elif path.is_file():
            out[rel] = hashlib.sha256(path.read_bytes()).hexdigest()
    return out


def test_a_papermill_run_leaves_the_published_book_byte_identical(book, tmp_path):
    """Issue 47: the run writes into _build/run, as `run` does, with the same bytes; the published
    version (results, executed notebooks, html) and the links to it do not change by one byte, and
    the next build still finds the book unchanged."""
    build = book / "_build"
    before = _digest(build / "versions"), {n: os.readlink(build / n) for n in ("current", "html", "results", "executed")}
    proc = subprocess.run([*PAPERMILL, str(_ipynb("capex", tmp_path, book)), str(tmp_path / "out.ipynb"),
                           "-p", "useful_life_years", "2", "--no-progress-bar"], cwd=tmp_path, capture_output=True,
                          text=True, timeout=600, env=_outside_build_env(book))
    assert proc.returncode == 0, proc.stderr[-3000:]
    after = _digest(build / "versions"), {n: os.readlink(build / n) for n in ("current", "html", "results", "executed")}
    assert after == before
    written = json.loads((build / "run" / "capex.json").read_text())
    assert written["parameters"]["useful_life_years"] == 2.0
    assert (build / "run" / "capex__capital_charge_vs_life.csv").is_file()  # the page's offered table
    papermill_bytes = (build / "run" / "capex.json").read_bytes()
    cli = run_cli("run", "capex", "-p", "useful_life_years", "2", cwd=book)
    assert cli.returncode == 0, cli.stderr
    assert (build / "run" / "capex.json").read_bytes() == papermill_bytes
    rebuilt = run_cli("build", cwd=book)
    assert rebuilt.returncode == 0, rebuilt.stderr[-3000:]
    assert "Book unchanged" in rebuilt.stderr


def test_papermill_alone_computes_the_chapters_it_needs_and_writes_beside_its_output(tmp_path):
    """No build has run (no _build/results): the TCO chapter computes the uncertainty chapter it
    reads, with its own PUE; with papermill's --inject-output-path its results land beside the
    output notebook, the same bytes as `run tco -p pue 1.5`."""
    root = copy_repo(tmp_path / "repo")
    out = tmp_path / "mine"
    out.mkdir()
    proc = subprocess.run([*PAPERMILL, str(_ipynb("tco", tmp_path, root)), str(out / "tco-out.ipynb"), "-p", "pue", "1.5",
                           "--inject-output-path", "--no-progress-bar"], cwd=tmp_path, capture_output=True, text=True,
                          timeout=600, env=_outside_build_env(root))
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert not any((root / "_build" / name).exists() for name in ("run", "results", "versions"))
    assert json.loads((out / "tco.json").read_text())["parameters"]["pue"] == 1.5
    cli = run_cli("run", "tco", "-p", "pue", "1.5", "--out", str(tmp_path / "run"), cwd=root)
    assert cli.returncode == 0, cli.stderr
    assert (out / "tco.json").read_bytes() == (tmp_path / "run" / "tco.json").read_bytes()
    shutil.rmtree(out)
