"""Every figure of the book, drawn in process as its chapter draws it (no book build): no two texts
overlap (tick labels, axis labels, titles, suptitles, annotations, legend texts and legend boxes,
compared by matplotlib's own ``get_window_extent``), on a 390 px phone, where the figure is
shown at the article's width, its smallest text is still at least PHONE_TEXT_PX (11 CSS px) high,
and no text of it, the source line included, is an internal id.

The figures are found in the notebooks themselves: each ``glue_figure("key", expression)`` call is
evaluated with the notebook's own imports and its chapter's results (``compute_section``), so a
figure added to a chapter is tested without a list to keep up to date.
"""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402
from matplotlib.text import Text  # noqa: E402

from analysis.chapters import compute_section, tracked_parameters  # noqa: E402
from analysis.chapters.registry import SECTIONS, get_section  # noqa: E402
from analysis.page import plots  # noqa: E402

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"


def _figure_calls(section: str):
    """(imports, [(figure key, expression)]) of a notebook."""
    tree = ast.parse((NOTEBOOKS / f"{section}.py").read_text())
    imports, calls = [], []
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("analysis"):
            imports.append(node)
        elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Call) \
                and ast.unparse(node.value.func) == "glue_figure":
            key, expression = node.value.args
            calls.append((key.value, ast.Expression(expression)))
    return imports, calls


_done: dict = {}


@cache
def _namespace(section: str) -> dict:
    imports, _ = _figure_calls(section)
    namespace: dict = {}
    exec(compile(ast.Module(imports, []), f"notebooks/{section}.py", "exec"), namespace)
    results = compute_section(section, {}, _done)
    namespace["R"] = results
    namespace["P"] = tracked_parameters(get_section(section), results.parameters)
    namespace["upstream"] = {need: _done[need] for need in get_section(section).needs}
    return namespace


FIGURES = [(s.name, key) for s in SECTIONS for key, _ in _figure_calls(s.name)[1]]


def draw(section: str, key: str):
    """The figure ``key`` of ``section`` as the book shows it (after plots.finalize)."""
    plots.apply_style()
    expression = dict(_figure_calls(section)[1])[key]
    fig = eval(compile(expression, f"notebooks/{section}.py", "eval"), _namespace(section))
    return plots.finalize(fig)


def test_every_chapter_figure_is_found():
    assert len(FIGURES) >= 30 and len({k for _, k in FIGURES}) == len(FIGURES)


# An internal id (snake_case) that is not part of a file's name or path: what readers must not see.
SNAKE_ID = re.compile(r"(?<![\w/.-])[a-z][a-z0-9]*(?:_[a-z0-9]+)+(?![\w/]|\.(?:csv|py|md|yaml|json)\b)")


@pytest.mark.parametrize(("section", "key"), FIGURES, ids=[k for _, k in FIGURES])
def test_no_text_overlaps_and_text_stays_legible_on_a_phone(section, key):
    """No two texts overlap or leave the figure, the smallest is >= PHONE_TEXT_PX (11 CSS px) on a
    390 px phone, and no text, its source line included, shows an internal id."""
    fig = draw(section, key)
    try:
        overlaps = plots.overlapping_text(fig)
        smallest, tight_in = plots.figure_text_sizes(fig)
        phone_px = smallest / 72 * min(plots.FIGURE_DPI, plots.PHONE_CONTENT_PX / tight_in)
        ids = [m.group(0) for t in fig.findobj(Text) if t.get_visible() for m in SNAKE_ID.finditer(t.get_text())]
    finally:
        plt.close(fig)
    assert not overlaps, f"{key}: overlapping text:\n" + "\n".join(overlaps)
    assert phone_px >= plots.PHONE_TEXT_PX - 0.05, f"{key}: smallest text {phone_px:.1f} px on a 390 px phone"
    assert not ids, f"{key}: internal ids in the figure's text: {ids}"
