"""One figure style for the book: colour-blind-safe palette, units on axes, a source line.

The palette is Okabe & Ito's (2008) eight colours, safe for the common colour-vision deficiencies.
"""

from __future__ import annotations

import matplotlib
import matplotlib.pyplot as plt

PALETTE = {
    "blue": "#0072B2", "orange": "#E69F00", "green": "#009E73", "vermillion": "#D55E00",
    "sky": "#56B4E9", "purple": "#CC79A7", "yellow": "#F0E442", "black": "#000000",
}
CYCLE = [PALETTE[c] for c in ("blue", "orange", "green", "vermillion", "sky", "purple", "black")]


def apply_style() -> None:
    """Set the book's matplotlib defaults (and fixed metadata, so rebuilds are byte-stable)."""
    plt.rcParams.update({
        "axes.prop_cycle": matplotlib.cycler(color=CYCLE),
        "axes.spines.top": False, "axes.spines.right": False,
        "axes.grid": True, "grid.alpha": 0.3, "axes.titleweight": "bold",
        "figure.figsize": (7.0, 4.0), "figure.dpi": 110, "savefig.dpi": 200,
        "font.size": 10, "legend.frameon": False,
        "svg.hashsalt": "gpu-economics-book", "figure.max_open_warning": 0,
    })
    try:  # inside a kernel: render figures as hi-dpi PNG
        from matplotlib_inline.backend_inline import set_matplotlib_formats
        set_matplotlib_formats("retina")
    except ImportError:
        pass


def new_figure(title: str, xlabel: str, ylabel: str, figsize=None):
    """A figure with one axis, titled, with labelled axes (put units in the labels)."""
    fig, ax = plt.subplots(figsize=figsize)
    ax.set_title(title, loc="left")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    return fig, ax


def add_source(fig, text: str) -> None:
    """Write a 'Source: ...' line under the figure."""
    fig.text(0.01, -0.02, f"Source: {text}", ha="left", va="top", fontsize=8, color="#444444",
             wrap=True)


def compare_figure(table, names):
    """Grouped bars: each headline output (rows of ``table``) as a ratio to the first scenario."""
    import numpy as np

    fig, ax = new_figure("Scenarios against the first one", "", f"Ratio to '{names[0]}'",
                         figsize=(7.5, 0.5 + 0.45 * len(table)))
    ax.remove()
    ax = fig.add_subplot()
    ax.set_title("Scenarios against the first one", loc="left")
    y = np.arange(len(table))
    height = 0.8 / len(names)
    for i, name in enumerate(names):
        ax.barh(y + i * height, table[name] / table[names[0]], height, color=CYCLE[i % len(CYCLE)], label=name)
    ax.axvline(1.0, color=PALETTE["black"], lw=0.8)
    ax.set_yticks(y + height * (len(names) - 1) / 2, table["label"], fontsize=8)
    ax.set_xlabel(f"Ratio to '{names[0]}'")
    ax.invert_yaxis()
    ax.legend(fontsize=7, loc="lower right")
    add_source(fig, "book's point model (analysis.uncertainty.evaluate) for each scenario file.")
    return fig
