"""Execute every chapter notebook, in the order of their needs, in one IPython shell in this process:
``python tests/notebooks_in_process.py VALUES.json RESULTS_DIR``, where VALUES.json holds each
section's parameters (``{section: {name: value}}``, as ``analysis.build.book.resolve_all``
gives them).

Each notebook is read with jupytext and parameterized with papermill's public
``parameterize_notebook``, as the build does; its code cells then run in IPython's
``InteractiveShell`` (``run_cell``), its namespace reset between chapters, with the book's hi-dpi
PNG figures (``analysis.page.plots.apply_style``). Everything a chapter shows (tables, glued numbers
and figures) goes through IPython's formatters as in a kernel. What this leaves out is the
kernel's own start and its messages, about two seconds a chapter: the tests that push every
parameter to a bound (tests/test_ranges.py) run here, and the build's own execution is tested by
the tests that build the book. Exit code 1 names the section and cell that failed.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import sys
from pathlib import Path

import jupytext
import matplotlib.pyplot as plt
from IPython.core.interactiveshell import InteractiveShell
from papermill.parameterize import parameterize_notebook
from traitlets.config import Config

from analysis.chapters.registry import SECTIONS, in_order
from analysis.data.load import table_closure


def main(values_json: str, results_dir: str) -> int:
    values = json.loads(Path(values_json).read_text(encoding="utf-8"))
    plt.switch_backend("agg")  # no display; the PNGs come from IPython's formatters
    config = Config()
    config.HistoryManager.enabled = False  # nothing written to ~/.ipython
    shell = InteractiveShell.instance(config=config)
    os.environ["ANALYSIS_RESULTS_DIR"] = str(Path(results_dir).resolve())  # as the build sets it
    for section in in_order([s.name for s in SECTIONS]):
        os.environ["ANALYSIS_ALLOWED_TABLES"] = ",".join(table_closure(section.tables))
        nb = jupytext.read(Path("notebooks") / f"{section.name}.py")
        nb.metadata["papermill"] = {}
        for cell in nb.cells:
            cell.metadata.setdefault("tags", [])
        nb = parameterize_notebook(nb, values[section.name])
        shell.reset(new_session=False)
        code = [(i, cell.source) for i, cell in enumerate(nb.cells) if cell.cell_type == "code"]
        for index, source in code:
            with contextlib.redirect_stdout(io.StringIO()):  # what a kernel would send as output
                result = shell.run_cell(source, store_history=False)
            if not result.success:
                error = result.error_in_exec or result.error_before_exec
                print(f"section '{section.name}' failed in cell {index}: {type(error).__name__}: {error}", file=sys.stderr)
                return 1
        plt.close("all")
        print(f"{section.name} {len(code)} cells", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
