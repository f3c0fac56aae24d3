"""Markdown tables for chapter notebooks: rows of already-formatted cells, escaped so that MyST
neither splits a cell on a pipe nor pairs two dollar prices into a formula; plus the few number
formats the benchmark chapters print."""

from __future__ import annotations


def _no_html(text: str) -> str:
    """``<`` as an entity outside backtick spans: a cell is text, and text from a scenario file
    must never become HTML. Inside backticks (code, and roles such as {ref}`a <target>`) MyST
    never reads HTML, and the ``<`` is the role's own syntax."""
    parts = text.split("`")
    if len(parts) % 2 == 0:  # an unpaired backtick opens no code span: nothing is protected
        return text.replace("<", "&lt;")
    return "`".join(part if i % 2 else part.replace("<", "&lt;") for i, part in enumerate(parts))


def _cell(value) -> str:
    return _no_html(str(value).replace("|", "\\|").replace("$", "\\$").replace("\n", " "))


def markdown_table(header: list[str], rows: list[list], align: str | None = None) -> str:
    """A Markdown table. ``align`` is one character per column (``l`` or ``r``); default left."""
    align = align or "l" * len(header)
    rule = ["---:" if a == "r" else "---" for a in align]
    lines = ["| " + " | ".join(_cell(h) for h in header) + " |", "|" + "|".join(rule) + "|"]
    lines += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def pct(fraction: float, digits: int = 1) -> str:
    """0.3808 -> '38.1 %' (the book's spacing)."""
    return f"{fraction * 100:.{digits}f} %"


def usd(value: float) -> str:
    """Dollars: a tenth of a cent below $1, cents below $100, whole dollars above
    ('$0.038', '$1.95', '$162,984')."""
    if abs(value) < 1:
        return f"${value:.3f}"
    return f"${value:,.2f}" if abs(value) < 100 else f"${value:,.0f}"


def rate(tokens_per_s: float) -> str:
    """Tokens/s/GPU: one decimal below 1,000, none above."""
    return f"{tokens_per_s:,.1f}" if tokens_per_s < 1000 else f"{tokens_per_s:,.0f}"
