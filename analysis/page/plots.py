"""One figure style for the book: colour-blind-safe palette, units on axes, a source line, and
text that stays legible where the figure is shown.

The palette is Okabe & Ito's (2008) eight colours, safe for the common colour-vision deficiencies.

Legibility. At a 1280 px window the book's article column shows a figure CONTENT_PX wide, under a
caption CAPTION_PX high; a wider image is scaled down to fit. :func:`finalize` (called by
``analysis.page.notebook.glue_figure`` on every figure) caps a figure's width at MAX_WIDTH_IN and raises
every text in it to at least :func:`min_font_pt`, so that no text in a figure is smaller than the
caption at 1280 px and, on a 390 px phone, where the book's CSS shows every figure at the article's
width (PHONE_CONTENT_PX; no sideways scrolling; a tap opens it full size), no smaller than
PHONE_TEXT_PX.
"""

from __future__ import annotations

import warnings

import matplotlib
import matplotlib.pyplot as plt
from matplotlib.text import Text

from analysis.page import figure_fit

CONTENT_PX = 672   # CSS px of a figure at a 1280 px window (sphinx-book-theme's article column)
CAPTION_PX = 14    # CSS px of the caption text there (0.875rem, book/static/book.css)
FIGURE_DPI = 110   # CSS px per inch of a figure at its natural size (the retina PNG has twice as many)
PHONE_CONTENT_PX = 358  # CSS px of a figure at a 390 px window (the article's width there)
PHONE_TEXT_PX = 11.0   # the smallest text a phone reader is asked to read in a figure (CSS px)
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
    "font.size": 14, "axes.titlesize": 15, "axes.labelsize": 14, "xtick.labelsize": 14,
    "ytick.labelsize": 14, "legend.fontsize": 14, "legend.frameon": False,
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
    width) may use: CAPTION_PX at the scale it is shown at a 1280 px window, and PHONE_TEXT_PX at
    the scale it is shown at a 390 px phone, whichever is larger."""
    desktop = CAPTION_PX * 72 / min(FIGURE_DPI, CONTENT_PX / width_in)
    phone = PHONE_TEXT_PX * 72 / min(FIGURE_DPI, PHONE_CONTENT_PX / width_in)
    return max(desktop, phone)


def finalize(fig):
    """The book's last word on a figure before it is shown: width capped at MAX_WIDTH_IN (height
    scaled alike), every text raised to :func:`min_font_pt` of the saved width, the layout redone
    for the larger text, rows made taller and numeric tick labels fewer where labels now meet
    (:mod:`analysis.page.figure_fit`). Returns ``fig``."""
    width, height = fig.get_size_inches()
    if width > MAX_WIDTH_IN:
        fig.set_size_inches(MAX_WIDTH_IN, height * MAX_WIDTH_IN / width)
    _raise_text(fig, min_font_pt(fig.get_size_inches()[0] * TIGHT_ALLOWANCE))
    if _title_to_figure(fig):
        _relayout(fig)
    tight_in = _overflow(fig) * fig.get_size_inches()[0]
    if min_font_pt(tight_in) > min_font_pt(fig.get_size_inches()[0] * TIGHT_ALLOWANCE) + 0.05:
        _raise_text(fig, min_font_pt(tight_in * 1.02), reflow=False)  # wider than allowed for: once more
    figure_fit.fit_rows(fig, _relayout)  # category labels that now meet: taller rows
    figure_fit.thin_ticks(fig)  # numeric tick labels that now meet: fewer of them
    _freeze(fig)
    return fig


def _title_to_figure(fig) -> bool:
    """A one-chart figure whose left-aligned title, starting over the chart, runs past the
    figure's right edge (long tick labels push the chart right) gets it as the figure's title,
    starting at the figure's left edge. True when it moved."""
    if len(fig.axes) != 1 or fig.get_suptitle():
        return False
    ax = fig.axes[0]
    title = ax.get_title(loc="left")
    if not title:
        return False
    _draw(fig)
    shown = [t for t in ax.findobj(Text) if t.get_text() == title and t.get_visible()]
    if not shown or max(t.get_window_extent().x1 for t in shown) <= 0.99 * fig.bbox.width:
        return False
    size = max(t.get_fontsize() for t in shown)  # before set_title, which gives the title rcParams' size again
    ax.set_title("", loc="left")
    fig.suptitle(title, x=0.01, ha="left", fontweight="bold", fontsize=size)
    return True


def _raise_text(fig, floor: float, reflow: bool = True) -> None:
    """Every text of ``fig`` (tick labels included) raised to ``floor`` points, and the layout
    redone; with ``reflow``, long tick labels wrapped and legends given fewer columns when the
    larger text spills far out of the figure."""
    small = [t for t in fig.findobj(Text) if t.get_visible() and t.get_text().strip()
             and t.get_fontsize() < floor - 0.05]
    for t in small:
        t.set_fontsize(floor)
    # tick labels made later (at draw) take the axis's size, not a Text's; secondary axes too
    # (ax.secondary_xaxis: children of their axes, not in fig.axes)
    for ax in [*fig.axes, *(child for parent in fig.axes for child in parent.child_axes)]:
        for axis, name in ((ax.xaxis, "x"), (ax.yaxis, "y")):
            for which in ("major", "minor"):
                ticks = axis.get_major_ticks(1) if which == "major" else axis.get_minor_ticks(1)
                size = ticks[0].label1.get_fontsize()
                if size < floor - 0.05:
                    ax.tick_params(axis=name, which=which, labelsize=floor)
                    small.append(ax)
    _relayout(fig)  # always: a figure may have been made without a layout
    if small:
        if reflow and _overflow(fig) > 1.0 + (TIGHT_ALLOWANCE - 1) * 2:  # text now spills far out: reflow it
            for ax in fig.axes:
                _wrap_ticklabels(ax)
            for legend in [*fig.legends, *(ax.get_legend() for ax in fig.axes)]:
                columns = 0 if legend is None else len({round(t.get_window_extent().x0) for t in legend.get_texts()})
                if columns > 1:  # as drawn: the legend's entries start at this many positions
                    legend.set_ncols(max(1, columns // 2))
            _relayout(fig)


def _freeze(fig) -> None:
    """Draw once and keep that layout: a figure saved with ``bbox_inches="tight"`` (as Jupyter
    saves it) is then the same layout shifted, not laid out again at another size, so what
    :func:`overlapping_text` measures is what the page shows."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        engine = fig.get_layout_engine()
        if engine is not None and type(engine).__name__ == "TightLayoutEngine":
            fig.set_layout_engine("tight")
            fig.stale = True  # the layout runs only in a draw
        _draw(fig)
        fig.set_layout_engine("none")


def _relayout(fig) -> None:
    """Redo the layout (matplotlib's tight layout), once, silently; later saves keep it."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        engine = fig.get_layout_engine()
        if engine is None or type(engine).__name__ in ("PlaceHolderLayoutEngine", "TightLayoutEngine"):
            fig.set_layout_engine("tight")
            fig.draw_without_rendering()
            fig.set_layout_engine("none")
        else:
            fig.draw_without_rendering()


def _draw(fig) -> None:
    """Draw ``fig`` unless nothing in it changed since its last draw (matplotlib marks a figure
    stale when any of its artists changes): each draw of a laid-out figure costs a tenth of a
    second or more, and :func:`finalize` measures a figure several times between changes."""
    if fig.stale:
        fig.draw_without_rendering()


def _overflow(fig) -> float:
    """Saved (tight) width over figure width."""
    _draw(fig)
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
    fig.draw_without_rendering()
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


def add_source(fig, text: str, y: float = -0.02, below=None) -> None:
    """Write a 'Source: ...' line under the figure (``y`` in figure fractions, below 0), or just
    under the artist ``below`` (a legend under the chart, which a tight save moves), broken
    into lines that fit the figure's width at the book's text size (broken here, once, rather than
    by matplotlib at each draw, so the saved figure is the one the overlap test measures)."""
    import textwrap

    size = max(plt.rcParams["font.size"], min_font_pt(fig.get_size_inches()[0] * TIGHT_ALLOWANCE))
    chars = max(20, int(fig.get_size_inches()[0] * 72 / (0.56 * size)))
    text = textwrap.fill(f"Source: {text}", chars)
    if below is None:
        fig.text(0.01, y, text, ha="left", va="top", color="#444444")
    else:
        from matplotlib.text import Annotation

        fig.add_artist(Annotation(text, (0, 0), xycoords=below, xytext=(0, -8), textcoords="offset points",
                                  ha="left", va="top", color="#444444"))


def legend_above(ax, ncols: int = 1, **kwargs):
    """The axis's legend between its title and the chart, full width (a phone has no room beside
    the chart): the title moves up to the figure's title, the layout becomes matplotlib's
    constrained layout, which makes room for both. Labels are broken into lines that fit the
    figure's width at the book's text size (a legend wider than the figure squeezes the chart).
    Returns the legend."""
    import textwrap

    fig = ax.get_figure()
    title = ax.get_title(loc="left")
    if title:
        ax.set_title("", loc="left")
        fig.suptitle(title, x=0.01, ha="left", fontweight="bold", fontsize=plt.rcParams["axes.titlesize"])
    fig.set_layout_engine("constrained")
    from matplotlib.transforms import blended_transform_factory

    handles, labels = kwargs.pop("handles", None), kwargs.pop("labels", None)
    if handles is None:
        handles, found = ax.get_legend_handles_labels()
        labels = found if labels is None else labels
    elif labels is None:
        labels = [h.get_label() for h in handles]
    from matplotlib.font_manager import FontProperties

    rc_size = FontProperties(size=plt.rcParams["legend.fontsize"]).get_size_in_points()  # may be 'medium'
    size = max(rc_size, min_font_pt(fig.get_size_inches()[0] * TIGHT_ALLOWANCE))
    chars = max(12, int((fig.get_size_inches()[0] * 72 / ncols - 3 * size) / (0.58 * size)))
    labels = [textwrap.fill(str(label), chars) for label in labels]
    # left edge at the figure's (the tick labels' side), bottom above the axes by more than half a
    # line, clear of the top tick label
    from matplotlib.transforms import ScaledTranslation

    where = blended_transform_factory(fig.transFigure, ax.transAxes) + \
        ScaledTranslation(0, 0.7 * size / 72, fig.dpi_scale_trans)
    return ax.legend(handles, labels, loc="lower left", bbox_to_anchor=(0.01, 1.0), bbox_transform=where, ncols=ncols,
                     borderaxespad=0, **kwargs)


def bar_labels_above(ax, labels, offset: float = -0.22, width: int = 46) -> None:
    """Each horizontal bar's name written above it, left-aligned where the axis starts (bar ``i``
    at y = i): a phone has no room for a column of long tick labels beside the bars, and a value
    written into the name leaves nothing beside a bar to crowd the next one."""
    import textwrap

    from matplotlib.transforms import blended_transform_factory

    ax.set_yticks([])
    where = blended_transform_factory(ax.transAxes, ax.transData)
    for i, label in enumerate(labels):
        ax.text(0, i + offset, textwrap.fill(str(label), width), va="bottom", ha="left", transform=where,
                in_layout=False)


def compare_figure(table, names):
    """Grouped bars: each headline output (rows of ``table``) as a ratio to the first scenario.
    Each output's name is written above its group of bars and the legend sits above the chart, so
    the figure keeps its width on a phone at a legible size (see :func:`finalize`)."""
    import textwrap

    import numpy as np

    group = 0.17 * len(names) + 0.5  # inches a group takes: its bars and its name above them
    fig = plt.figure(figsize=(MAX_WIDTH_IN, 2.4 + 0.35 * len(names) + group * len(table)))
    ax = fig.add_subplot()
    ax.set_title("Scenarios against the first one", loc="left", fontweight="bold")
    y = np.arange(len(table))
    height = 0.55 / len(names)
    bars = [ax.barh(y + i * height, table[name] / table[names[0]], height, color=CYCLE[i % len(CYCLE)])
            for i, name in enumerate(names)]
    ax.axvline(1.0, color=PALETTE["black"], lw=0.8)
    ax.set_yticks([])
    for i, label in enumerate(table["label"]):
        ax.text(0, i - height / 2 - 0.06, textwrap.fill(str(label), 52), va="bottom", ha="left", in_layout=False)
    ax.set_ylim(len(table) - 1 + height * len(names), -0.62)
    ax.grid(axis="y", visible=False)
    # Scenario names are the user's text: shown as typed (no mathtext from a '$'), wrapped to the
    # column, and given to the legend explicitly (it would drop a name that starts with '_').
    ax.set_xlabel(f"Ratio to '{textwrap.shorten(names[0], 40, placeholder='...')}'", parse_math=False)
    legend = legend_above(ax, handles=bars, labels=[textwrap.fill(name, 48) for name in names])
    for text in legend.get_texts():
        text.set_parse_math(False)
    add_source(fig, "the book's point model (the one behind the uncertainty bands) for each scenario file.")
    return fig


def _hidden_tick_labels(fig, renderer) -> set[int]:
    """ids of the tick labels matplotlib does not draw: those of ticks outside their axis's view
    (kept for later pans), in every axes of ``fig``, secondary axes included; a label whose centre
    lies beyond its axes' span along the axis is one of them."""
    from matplotlib.axes import Axes

    hidden = set()
    for axes in fig.findobj(Axes):
        span = axes.get_window_extent(renderer)
        for axis, along in ((axes.xaxis, 0), (axes.yaxis, 1)):
            low, high = sorted(axis.get_view_interval())
            slack = 1e-9 * max(abs(low), abs(high), 1e-300)
            lo_px, hi_px = (span.x0, span.x1) if along == 0 else (span.y0, span.y1)
            for tick in [*axis.get_major_ticks(), *axis.get_minor_ticks()]:
                outside = not low - slack <= tick.get_loc() <= high + slack
                for label in (tick.label1, tick.label2):
                    if outside or (label.get_visible() and label.get_text()
                                   and not lo_px - 1 <= _centre(label, renderer, along) <= hi_px + 1):
                        hidden.add(id(label))
    return hidden


def _centre(text, renderer, along: int) -> float:
    box = text.get_window_extent(renderer)
    return (box.x0 + box.x1) / 2 if along == 0 else (box.y0 + box.y1) / 2


def text_boxes(fig, renderer=None) -> list[tuple[str, object, object]]:
    """Every text drawn in ``fig`` as (its text, its window extent, its group): tick labels, axis
    labels, titles, suptitles, annotations, legend texts, and each legend's own box. A legend's
    texts share that legend as their group (they lie inside its box by design)."""
    from matplotlib.legend import Legend

    if renderer is None:
        fig.draw_without_rendering()
        renderer = fig.canvas.get_renderer()
    legends = [lg for lg in fig.findobj(Legend) if lg.get_visible()]
    group = {}
    for lg in legends:
        for t in [*lg.get_texts(), lg.get_title()]:
            group[id(t)] = lg
    boxes, hidden = [], _hidden_tick_labels(fig, renderer)
    for t in fig.findobj(Text):
        if not (t.get_visible() and t.get_text().strip()) or id(t) in hidden:
            continue
        box = t.get_window_extent(renderer)
        if box.width > 0 and box.height > 0:
            boxes.append((t.get_text(), box, group.get(id(t), t)))
    for lg in legends:
        boxes.append(("<legend box>", lg.get_window_extent(renderer), lg))
    return boxes


def saved_text_boxes(fig, canvas: list | None = None) -> list[tuple[str, object, object]]:
    """:func:`text_boxes` as the figure is saved for the page: Jupyter saves with
    ``bbox_inches="tight"``, which redraws the figure on its tight box (a figure legend, anchored to
    the figure's box, moves with it). Measured in that draw (matplotlib's ``draw_event``)."""
    import io

    found = []

    def measure(event):
        found[:] = text_boxes(fig, event.renderer)
        if canvas is not None:
            canvas[:] = [fig.bbox.frozen()]

    cid = fig.canvas.mpl_connect("draw_event", measure)
    try:
        fig.savefig(io.BytesIO(), format="png", bbox_inches="tight")
    finally:
        fig.canvas.mpl_disconnect(cid)
    return found


def overlapping_text(fig, tolerance_px: float = 1.0) -> list[str]:
    """The texts (see :func:`saved_text_boxes`) that the saved figure cuts off at its edge, and the
    pairs whose boxes overlap by more than ``tolerance_px`` (figure pixels) both across and down,
    as readable lines; [] when none are."""
    canvas: list = []
    boxes = saved_text_boxes(fig, canvas)
    found = [f"{text!r} is cut off at the figure's edge" for text, box, _ in boxes
             if canvas and not (box.x0 >= canvas[0].x0 - tolerance_px and box.x1 <= canvas[0].x1 + tolerance_px
                                and box.y0 >= canvas[0].y0 - tolerance_px and box.y1 <= canvas[0].y1 + tolerance_px)]
    for i, (text_a, a, group_a) in enumerate(boxes):
        for text_b, b, group_b in boxes[i + 1:]:
            if group_a is group_b:
                continue
            across = min(a.x1, b.x1) - max(a.x0, b.x0)
            down = min(a.y1, b.y1) - max(a.y0, b.y0)
            if across > tolerance_px and down > tolerance_px:
                found.append(f"{text_a!r} overlaps {text_b!r} ({across:.0f} x {down:.0f} px)")
    return found
