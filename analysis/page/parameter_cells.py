"""Each chapter notebook's parameters cell, generated from :mod:`analysis.params.defaults`.

Papermill reads a notebook's parameters from the cell tagged ``parameters``: ``papermill
--help-notebook`` lists what that cell assigns, and ``papermill IN OUT -p NAME VALUE`` warns about a
name it does not assign. So the cell assigns every parameter of its chapter at its default, with a
comment that gives the unit and the valid range::

    pue: float = 1.25  # ratio; a number from 1 to 3. Power usage effectiveness: ...

The cell is a generated view, like the Assumptions appendix: ``analysis/params/defaults.py`` stays
the one definition, ``python -m analysis notebooks --sync`` rewrites the cells from it and
``tests/test_parameter_cells.py`` fails when a cell differs. :func:`analysis.page.notebook.start`
validates whatever the cell (or papermill's injected cell after it) leaves in the namespace.
"""

from __future__ import annotations

from pathlib import Path

from analysis.chapters.registry import SECTIONS, Section
from analysis.params.parameters import Param

REPO_ROOT = Path(__file__).resolve().parents[2]
HEADER = '# %% tags=["parameters", "remove-cell"]'
NOTE = ("# Generated from analysis/params/defaults.py by `python -m analysis notebooks --sync`; edit the\n"
        "# definitions there. papermill IN OUT -p NAME VALUE overrides any of these; start() checks each\n"
        "# value against its range and refuses a name this chapter does not take.")


def _help(p: Param) -> str:
    """One line of help for papermill: unit, valid range, description. Papermill's parser takes a
    line with more than one '=' for no assignment at all, so the text carries none."""
    text = f"{p.unit}; {p.describe_range()}. {p.description}"
    return " ".join(text.replace("=", "is").split())


def parameter_line(p: Param) -> str:
    return f"{p.name}: {p.kind.__name__} = {p.default!r}  # {_help(p)}"


def cell_text(section: Section) -> str:
    """The parameters cell of ``section``'s notebook, its header line included."""
    lines = [HEADER, NOTE]
    if not section.params:
        lines.append("# This chapter has no parameters of its own.")
    lines += [parameter_line(p) for p in section.params]
    return "\n".join(lines) + "\n"


def _cell_span(lines: list[str], path: Path) -> tuple[int, int]:
    """Start and end (exclusive, the next cell's marker or the blank lines before it) of the
    parameters cell in a percent-format notebook's ``lines``."""
    starts = [i for i, line in enumerate(lines) if line.strip() == HEADER]
    if len(starts) != 1:
        raise ValueError(f"{path}: expected one cell marked {HEADER}, found {len(starts)}")
    end = next((i for i in range(starts[0] + 1, len(lines)) if lines[i].startswith("# %%")), len(lines))
    while end > starts[0] + 1 and not lines[end - 1].strip():
        end -= 1
    return starts[0], end


def current_cell(path: Path) -> str:
    lines = Path(path).read_text(encoding="utf-8").splitlines()
    start, end = _cell_span(lines, path)
    return "\n".join(lines[start:end]) + "\n"


def sync(root: Path = REPO_ROOT, write: bool = True) -> list[Path]:
    """The notebooks whose parameters cell differs from its generated text; with ``write``, each
    is rewritten (only that cell changes)."""
    changed = []
    for section in SECTIONS:
        path = Path(root) / section.notebook
        text = path.read_text(encoding="utf-8")
        lines = text.splitlines()
        start, end = _cell_span(lines, path)
        wanted = cell_text(section).splitlines()
        if lines[start:end] != wanted:
            changed.append(path)
            if write:
                new = lines[:start] + wanted + lines[end:]
                path.write_text("\n".join(new) + ("\n" if text.endswith("\n") else ""), encoding="utf-8")
    return changed
