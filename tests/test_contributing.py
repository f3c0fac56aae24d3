"""docs/contributing.md's recipe for a new chapter, followed to the letter in a copy of the project:
its registry entry, its parameter, four new files (model, chapter, figures, notebook, whose
parameters cell `python -m analysis notebooks --sync` writes), a test file and the model module's
name in the model contract. The chapter then appears in the chapter list and
the table of contents, runs with `run` and as a notebook (which agree), keeps the notebook rules
and the layers. If a new chapter ever needs another file, this test fails and says where."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

from tests.conftest import REPO, copy_repo, run_cli

MODEL = '''"""A toy model for the recipe test: the energy a run draws at the meter."""


def run_energy_mwh(gpus: float, watts_per_gpu: float, hours: float) -> float:
    """GPUs x watts per GPU x hours, in megawatt-hours."""
    return gpus * watts_per_gpu * hours / 1e6
'''

CHAPTER = '''"""The toy chapter: one result, one table."""

import pandas as pd

from analysis import toy
from analysis.chapters import ChapterResults


def compute(P, upstream) -> ChapterResults:
    res = ChapterResults("toy")
    res.add("toy_run_energy_mwh", toy.run_energy_mwh(P.gpus, P.h100_it_w_per_gpu, P.toy_hours), "MWh",
            "Energy of the toy run")
    res.add_table("energy", pd.DataFrame({"hours": [P.toy_hours], "mwh": [res["toy_run_energy_mwh"]]}))
    return res
'''

FIGURES = '''"""Figures of the toy chapter."""

from analysis.page.formatting import number
from analysis.page.plots import add_source, new_figure


def energy(R):
    fig, ax = new_figure("Energy of the toy run", "", "MWh")
    ax.bar(["toy run"], [R["toy_run_energy_mwh"]])
    add_source(fig, "The recipe test's own numbers.")
    return fig


def verdict(R) -> str:
    return f"The toy run draws {number(R['toy_run_energy_mwh'])} MWh."


ANSWER = ["toy_run_energy_mwh"]
ANSWER_MORE = "Below: its figure."
'''

NOTEBOOK = '''# %% [markdown]
# (chapter-toy)=
# # A toy chapter

# %% tags=["parameters", "remove-cell"]

# %% tags=["remove-input"]
from IPython.display import Markdown, display

from analysis.chapters import toy as chapter
from analysis.figures import toy as figures
from analysis.page.notebook import glue_figure, publish, save, start
from analysis.page.tables import answer_from_results

P, upstream = start("toy", globals())
R = chapter.compute(P, upstream)
publish(R, P)
display(Markdown(answer_from_results(R, figures.ANSWER, figures.verdict(R), more=figures.ANSWER_MORE)))

# %% tags=["remove-input"]
glue_figure("fig_toy_energy", figures.energy(R))

# %% [markdown]
# This chapter exists to show what a new chapter needs, and nothing more. It multiplies three
# numbers: how many GPUs the run uses, how many watts each of them draws, and how many hours the
# run takes. The first two are parameters every chapter shares, defined once for the whole book;
# the third is this chapter's own, with a unit, a range and a justification, like every other
# parameter. The product is the energy the run draws, in megawatt-hours, and the chapter records
# it once, so that the prose, the figure and the box at the top all read the same number. A real
# chapter would set that number against a published one and say how far apart they are and why;
# a toy one only has to run, render and pass the book's checks, from a clean copy, with nothing
# but the files the recipe names.
#
# The toy run draws {glue:text}`toy_run_energy_mwh:.1f` MWh, as {numref}`fig-toy-energy` shows.
#
# ```{glue:figure} fig_toy_energy
# :name: fig-toy-energy
# :alt: One bar: the toy run's energy in MWh.
#
# The toy run's energy.
# ```

# %% tags=["remove-input"]
save(R)
'''

TEST = '''from analysis.chapters import compute_section


def test_the_toy_run_draws_gpus_times_watts_times_hours():
    assert compute_section("toy", {"toy_hours": 10})["toy_run_energy_mwh"] == 100_000 * 1389.0 * 10 / 1e6
'''

PARAM = '''
TOY_HOURS = Param(
    "toy_hours", 100.0, "hours", "Hours the toy run takes",
    "A round number for the recipe test.", None, basis="assumption", low=1, high=1_000)
'''

ENTRY = '''    Section(
        name="toy",
        title="A toy chapter",
        question="What does the toy run draw?",
        params=(d.GPUS, d.H100_IT_W_PER_GPU, d.TOY_HOURS),
        headline=("toy_run_energy_mwh",),
        figures=("fig-toy-energy",),
    ),
)

SECTIONS: tuple[Section, ...] = CHAPTERS + ('''


def follow_the_recipe(root: Path) -> None:
    """docs/contributing.md, "Adding a chapter", steps 1 to 7, and the model contract's line."""
    registry = root / "analysis" / "chapters" / "registry.py"
    text = registry.read_text(encoding="utf-8")
    assert text.count(")\n\nSECTIONS: tuple[Section, ...] = CHAPTERS + (") == 1
    registry.write_text(text.replace(")\n\nSECTIONS: tuple[Section, ...] = CHAPTERS + (", ENTRY), encoding="utf-8")
    with (root / "analysis" / "params" / "defaults.py").open("a", encoding="utf-8") as f:
        f.write(PARAM)
    (root / "analysis" / "toy.py").write_text(MODEL, encoding="utf-8")
    (root / "analysis" / "chapters" / "toy.py").write_text(CHAPTER, encoding="utf-8")
    (root / "analysis" / "figures" / "toy.py").write_text(FIGURES, encoding="utf-8")
    (root / "notebooks" / "toy.py").write_text(NOTEBOOK, encoding="utf-8")
    (root / "tests" / "chapters").mkdir(parents=True, exist_ok=True)
    (root / "tests" / "chapters" / "test_toy.py").write_text(TEST, encoding="utf-8")
    pyproject = root / "pyproject.toml"
    text = pyproject.read_text(encoding="utf-8")
    pyproject.write_text(text.replace('"analysis.atlas", ', '"analysis.atlas", "analysis.toy", '), encoding="utf-8")


def test_a_new_chapter_needs_only_what_the_recipe_lists(tmp_path):
    root = copy_repo(tmp_path / "repo")
    shutil.copy2(REPO / "pyproject.toml", root / "pyproject.toml")
    follow_the_recipe(root)

    synced = run_cli("notebooks", "--sync", cwd=root)  # the parameters cell, from defaults.py
    assert synced.returncode == 0, synced.stderr
    assert "toy_hours: float = 100.0  # hours" in (root / "notebooks" / "toy.py").read_text()
    assert run_cli("notebooks", cwd=root).returncode == 0  # every cell in step with the definitions

    listed = run_cli("sections", cwd=root)
    assert listed.returncode == 0, listed.stderr
    assert "toy" in listed.stdout.split() and "What does the toy run draw?" in listed.stdout

    toc = subprocess.run([sys.executable, "-c", "from pathlib import Path; from analysis.build.book import "
                          "table_of_contents; print(table_of_contents(Path('.')))"], cwd=root, capture_output=True,
                         text=True, env={"PYTHONPATH": str(root)}, timeout=120)
    assert "file: book/generated/toy" in toc.stdout, toc.stderr

    fast = run_cli("run", "toy", "-p", "toy_hours", "10", "--out", str(tmp_path / "fast"), cwd=root)
    slow = run_cli("run", "toy", "-p", "toy_hours", "10", "--out", str(tmp_path / "slow"), "--notebook", cwd=root)
    assert fast.returncode == 0 and slow.returncode == 0, fast.stderr + slow.stderr
    results = json.loads((tmp_path / "fast" / "toy.json").read_text())["results"]
    assert results["toy_run_energy_mwh"]["value"] == 100_000 * 1389.0 * 10 / 1e6
    assert (tmp_path / "fast" / "toy.json").read_bytes() == (tmp_path / "slow" / "toy.json").read_bytes()

    shutil.copy2(REPO / "tests" / "test_notebook_style.py", root / "tests" / "test_notebook_style.py")
    style = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--rootdir", str(root),
                            "tests/test_notebook_style.py", "-k", "toy"], cwd=root, capture_output=True, text=True,
                           env={"PYTHONPATH": str(root)}, timeout=300)
    assert style.returncode == 0 and "1 passed" in style.stdout, style.stdout[-3000:]
    layers = subprocess.run([str(Path(sys.executable).parent / "lint-imports"), "--no-cache"], cwd=root,
                            capture_output=True, text=True, env={"PYTHONPATH": str(root)}, timeout=300)
    assert layers.returncode == 0, layers.stdout[-3000:]
    tests = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--rootdir", str(root),
                            "tests/chapters/test_toy.py"], cwd=root, capture_output=True, text=True,
                           env={"PYTHONPATH": str(root)}, timeout=300)
    assert tests.returncode == 0, tests.stdout[-3000:]
