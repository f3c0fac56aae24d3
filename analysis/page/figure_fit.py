"""Fitting a figure's labels to the text size a phone needs (:func:`analysis.page.plots.finalize`
calls these after raising every text to the book's floor).

Text large enough for a 390 px phone (11 CSS px) takes more of a figure than the 9 px it was
drawn for, so labels that sat side by side can meet. Two repairs, both measured on the drawn
figure, neither a guess:

- :func:`thin_ticks`: a numeric or date axis whose tick labels meet keeps every second (third, ...) label,
  the ticks themselves staying: fewer labels, none overprinted.
- :func:`fit_rows`: a chart whose category labels (one per bar or row, down the side) meet, or
  whose axis label runs past its ends, gets taller until each row is as tall as its label.
"""

from __future__ import annotations

import re
import textwrap

_NUMERIC = re.compile(r"^[\s$€£−\-+.,0-9%x×⁰¹²³⁴⁵⁶⁷⁸⁹⁻kMBTGW]*$"  # numbers, money, shares, multiples
                      r"|^(?:[A-Z][a-z]{2} )?\d{4}(?:-\d{2})?$")  # dates: 'Jan 2024', '2024', '2024-06'

MAX_GROWTH = 3.0  # a figure grows at most this much taller to fit its rows


def _axes(fig):
    return [*fig.axes, *(child for parent in fig.axes for child in parent.child_axes)]


def _shown(axis, renderer):
    """The axis's major tick labels that are drawn: visible, not empty, inside the axes' span."""
    ax = axis.axes
    span = ax.get_window_extent(renderer)
    along_x = axis is ax.xaxis
    lo, hi = (span.x0, span.x1) if along_x else (span.y0, span.y1)
    out = []
    for tick in axis.get_major_ticks():
        for label in (tick.label1, tick.label2):
            if not (label.get_visible() and label.get_text().strip()):
                continue
            box = label.get_window_extent(renderer)
            centre = (box.x0 + box.x1) / 2 if along_x else (box.y0 + box.y1) / 2
            if lo - 1 <= centre <= hi + 1:
                out.append((tick.get_loc(), label, box))
    return out


def _meet(boxes, along_x: bool, pad: float) -> bool:
    boxes = sorted(boxes, key=lambda b: b.x0 if along_x else b.y0)
    for a, b in zip(boxes, boxes[1:], strict=False):
        if (b.x0 - a.x1 if along_x else b.y0 - a.y1) < pad:
            return True
    return False


def _numeric(labels) -> bool:
    return all(_NUMERIC.match(label.get_text().replace("\n", " ")) for _, label, _ in labels)


def thin_ticks(fig) -> bool:
    """Label every k-th tick (k = 2, 3, ...) of each numeric axis whose drawn labels meet, so no
    two overlap; the other ticks stay, unlabelled. True when an axis changed."""
    changed = False
    for _ in range(4):
        fig.draw_without_rendering()
        renderer = fig.canvas.get_renderer()
        again = False
        for ax in _axes(fig):
            for axis, along_x in ((ax.xaxis, True), (ax.yaxis, False)):
                shown = _shown(axis, renderer)
                pad = 0.25 * max((lbl.get_fontsize() for _, lbl, _ in shown), default=0) * fig.dpi / 72
                if len(shown) < 3 or not _numeric(shown) or not _meet([b for *_, b in shown], along_x, pad):
                    continue
                limits = ax.get_xlim() if along_x else ax.get_ylim()
                locs = sorted({loc for loc, _, _ in shown})
                texts = {loc: lbl.get_text() for loc, lbl, _ in shown}
                size = shown[0][1].get_fontsize()
                for step in range(2, len(locs)):
                    keep = locs[::step]
                    widths = [b for loc, _, b in shown if loc in keep]
                    if not _meet(widths, along_x, pad):
                        break
                labels = [texts[loc] if loc in keep else "" for loc in locs]
                (ax.set_xticks if along_x else ax.set_yticks)(locs, labels, fontsize=size)
                (ax.set_xlim if along_x else ax.set_ylim)(limits)
                changed = again = True
        if not again:
            break
    return changed


def fit_rows(fig, relayout) -> bool:
    """Grow the figure's height until the category labels down the side of each chart (a bar
    chart's names, not numbers) no longer meet and its axis label is no taller than it, redoing its layout with ``relayout(fig)`` after
    each step. True when it grew."""
    start = fig.get_size_inches()[1]
    fig.draw_without_rendering()
    renderer = fig.canvas.get_renderer()
    for ax in fig.axes:  # a side label longer than its chart: on two lines first, then taller
        label = ax.yaxis.label
        text = label.get_text()
        if "\n" not in text and text.strip() and \
                label.get_window_extent(renderer).height > ax.get_window_extent(renderer).height:
            label.set_text(textwrap.fill(text, (len(text) + 1) // 2 + 2))
            relayout(fig)
    for _ in range(4):
        fig.draw_without_rendering()
        renderer = fig.canvas.get_renderer()
        need = 1.0
        for ax in fig.axes:
            label = ax.yaxis.label
            if label.get_visible() and label.get_text().strip():  # a side label taller than its chart
                need = max(need, 1.05 * label.get_window_extent(renderer).height / ax.get_window_extent(renderer).height)
            shown = _shown(ax.yaxis, renderer)
            if len(shown) < 2 or _numeric(shown):
                continue
            boxes = sorted((b for *_, b in shown), key=lambda b: b.y0)
            for a, b in zip(boxes, boxes[1:], strict=False):
                apart = (b.y0 + b.y1) / 2 - (a.y0 + a.y1) / 2
                wanted = (a.height + b.height) / 2 + 0.2 * shown[0][1].get_fontsize() * fig.dpi / 72
                if 0 < apart < wanted:
                    need = max(need, wanted / apart)
        width, height = fig.get_size_inches()
        if need <= 1.0 or height >= start * MAX_GROWTH:
            break
        fig.set_size_inches(width, min(height * (1 + (need - 1) * 1.15), start * MAX_GROWTH))
        relayout(fig)
    return fig.get_size_inches()[1] > start
