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
