"""One figure style for the book: colour-blind-safe palette, units on axes, a source line, and
text that stays legible where the figure is shown.

The palette is Okabe & Ito's (2008) eight colours, safe for the common colour-vision deficiencies.

Legibility. At a 1280 px window the book's article column shows a figure CONTENT_PX wide, under a
caption CAPTION_PX high; a wider image is scaled down to fit. :func:`finalize` (called by
``analysis.notebook.glue_figure`` on every figure) caps a figure's width at MAX_WIDTH_IN and raises
every text in it to at least :func:`min_font_pt`, so that no text in a figure is smaller than the
caption at 1280 px. On a phone the book's CSS shows figures at least 600 px wide and lets them
scroll sideways rather than shrink.
"""

from __future__ import annotations

import warnings

import matplotlib
import matplotlib.pyplot as plt
from matplotlib.text import Text

CONTENT_PX = 672   # CSS px of a figure at a 1280 px window (sphinx-book-theme's article column)
CAPTION_PX = 14    # CSS px of the caption text there (0.875rem, book/static/book.css)
FIGURE_DPI = 110   # CSS px per inch of a figure at its natural size (the retina PNG has twice as many)
MAX_WIDTH_IN = 7.0
TIGHT_ALLOWANCE = 1.1  # a saved (bbox "tight") figure is up to ~10 % wider than the figure itself

PALETTE = {
    "blue": "#0072B2", "orange": "#E69F00", "green": "#009E73", "vermillion": "#D55E00",
    "sky": "#56B4E9", "purple": "#CC79A7", "yellow": "#F0E442", "black": "#000000",
}
CYCLE = [PALETTE[c] for c in ("blue", "orange", "green", "vermillion", "sky", "purple", "black")]


# The book's matplotlib defaults (and fixed metadata, so rebuilds are byte-stable).
STYLE = {
    "axes.prop_cycle": matplotlib.cycler(color=CYCLE),
    "axes.spines.top": False, "axes.spines.right": False,
    "axes.grid": True, "grid.alpha": 0.3, "axes.titleweight": "bold",
    "figure.figsize": (MAX_WIDTH_IN, 4.4), "figure.dpi": FIGURE_DPI, "savefig.dpi": 2 * FIGURE_DPI,
    "font.size": 12, "axes.titlesize": 13, "axes.labelsize": 12, "xtick.labelsize": 12,
    "ytick.labelsize": 12, "legend.fontsize": 12, "legend.frameon": False,
    "svg.hashsalt": "gpu-economics-book", "figure.max_open_warning": 0,
}


def apply_style() -> None:
    """Set the book's matplotlib defaults (:data:`STYLE`) and, inside a kernel, hi-dpi PNG output."""
    plt.rcParams.update(STYLE)
    try:  # inside a kernel: render figures as hi-dpi PNG
        from matplotlib_inline.backend_inline import set_matplotlib_formats
        set_matplotlib_formats("retina")
    except ImportError:
        pass


def min_font_pt(width_in: float) -> float:
    """The smallest font size (points) that a figure ``width_in`` inches wide (its saved, tight
    width) may use: CAPTION_PX at the scale it is shown at a 1280 px window."""
    shown_px_per_in = min(FIGURE_DPI, CONTENT_PX / width_in)
    return CAPTION_PX * 72 / shown_px_per_in


def finalize(fig):
    """The book's last word on a figure before it is shown: width capped at MAX_WIDTH_IN (height
    scaled alike), every text raised to :func:`min_font_pt` of the saved width, and the layout
    redone for the larger text. Returns ``fig``."""
    width, height = fig.get_size_inches()
    if width > MAX_WIDTH_IN:
        fig.set_size_inches(MAX_WIDTH_IN, height * MAX_WIDTH_IN / width)
    floor = min_font_pt(fig.get_size_inches()[0] * TIGHT_ALLOWANCE)
    small = [t for t in fig.findobj(Text) if t.get_visible() and t.get_text().strip()
             and t.get_fontsize() < floor - 0.05]
    for t in small:
        t.set_fontsize(floor)
    for ax in fig.axes:  # tick labels made later (at draw) take the axis's size, not a Text's
        for axis, name in ((ax.xaxis, "x"), (ax.yaxis, "y")):
            for which in ("major", "minor"):
                ticks = axis.get_major_ticks(1) if which == "major" else axis.get_minor_ticks(1)
                size = ticks[0].label1.get_fontsize()
                if size < floor - 0.05:
                    ax.tick_params(axis=name, which=which, labelsize=floor)
                    small.append(ax)
    if small:
        _relayout(fig)
        if _overflow(fig) > 1.0 + (TIGHT_ALLOWANCE - 1) * 2:  # text now spills far out: reflow it
            for ax in fig.axes:
                _wrap_ticklabels(ax)
            for legend in [*fig.legends, *(ax.get_legend() for ax in fig.axes)]:
                columns = 0 if legend is None else len({round(t.get_window_extent().x0) for t in legend.get_texts()})
                if columns > 1:  # as drawn: the legend's entries start at this many positions
                    legend.set_ncols(max(1, columns // 2))
            _relayout(fig)
    return fig


def _relayout(fig) -> None:
    """Redo the layout (matplotlib's tight layout), once, silently; later saves keep it."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        engine = fig.get_layout_engine()
        if engine is None or type(engine).__name__ in ("PlaceHolderLayoutEngine", "TightLayoutEngine"):
            fig.set_layout_engine("tight")
            fig.canvas.draw()
            fig.set_layout_engine("none")
        else:
            fig.canvas.draw()


def _overflow(fig) -> float:
    """Saved (tight) width over figure width."""
    fig.canvas.draw()
    return fig.get_tightbbox(fig.canvas.get_renderer()).width / fig.get_size_inches()[0]


def _wrap_ticklabels(ax, width: int = 22) -> None:
    """Break long categorical tick labels over lines."""
    import textwrap

    for axis, setter in ((ax.yaxis, ax.set_yticks), (ax.xaxis, ax.set_xticks)):
        labels = [t.get_text() for t in axis.get_ticklabels()]
        if labels and any(len(t) > width for t in labels):
            size = axis.get_ticklabels()[0].get_fontsize()
            setter(axis.get_ticklocs(), [textwrap.fill(t, width) for t in labels], fontsize=size)


def figure_text_sizes(fig) -> tuple[float, float]:
    """(smallest font size in points, tight width in inches) of a drawn figure, for tests."""
    fig.canvas.draw()
    tight = fig.get_tightbbox(fig.canvas.get_renderer())
    sizes = [t.get_fontsize() for t in fig.findobj(Text) if t.get_visible() and t.get_text().strip()]
    return min(sizes), tight.width


def new_figure(title: str, xlabel: str, ylabel: str, figsize=None):
    """A figure with one axis, titled, with labelled axes (put units in the labels)."""
    fig, ax = plt.subplots(figsize=figsize)
    ax.set_title(title, loc="left")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    return fig, ax


def add_source(fig, text: str, y: float = -0.02) -> None:
    """Write a 'Source: ...' line under the figure (``y`` in figure fractions, below 0)."""
    fig.text(0.01, y, f"Source: {text}", ha="left", va="top", color="#444444",
             wrap=True)


def compare_figure(table, names):
    """Grouped bars: each headline output (rows of ``table``) as a ratio to the first scenario.
    Labels wrap and the legend sits under the chart, so the figure fits the column at a legible
    size (see :func:`finalize`)."""
    import textwrap

    import numpy as np

    fig = plt.figure(figsize=(MAX_WIDTH_IN, 1.6 + 0.75 * len(table) + 0.3 * len(names)), layout="constrained")
    ax = fig.add_subplot()
    ax.set_title("Scenarios against the first one", loc="left", fontweight="bold")
    y = np.arange(len(table))
    height = 0.8 / len(names)
    bars = [ax.barh(y + i * height, table[name] / table[names[0]], height, color=CYCLE[i % len(CYCLE)])
            for i, name in enumerate(names)]
    ax.axvline(1.0, color=PALETTE["black"], lw=0.8)
    ax.set_yticks(y + height * (len(names) - 1) / 2, [textwrap.fill(str(t), 26) for t in table["label"]])
    # Scenario names are the user's text: shown as typed (no mathtext from a '$'), wrapped to the
    # column, and given to the legend explicitly (it would drop a name that starts with '_').
    ax.set_xlabel(f"Ratio to '{textwrap.shorten(names[0], 40, placeholder='...')}'", parse_math=False)
    ax.invert_yaxis()
    legend = fig.legend(bars, [textwrap.fill(name, 48) for name in names], loc="outside lower center", ncols=1)
    for text in legend.get_texts():
        text.set_parse_math(False)
    fig.suptitle("Source: book's point model (analysis.chapters.bands.evaluate) for each scenario file.",
                 x=0.01, ha="left", fontsize=plt.rcParams["font.size"], color="#444444", fontweight="normal")
    return fig
