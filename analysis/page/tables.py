"""Tables for chapter notebooks: Markdown tables of already-formatted cells, escaped so that MyST
neither splits a cell on a pipe nor pairs two dollar prices into a formula; sortable, filterable
HTML tables for long data; the answer box a chapter opens with; and the few number formats the
benchmark chapters print (delegating to :mod:`analysis.page.formatting`, the one formatting layer)."""

from __future__ import annotations

import html as _html
import itertools
import re

from analysis.errors import InputError
from analysis.page import formatting
from analysis.page.names import gpu_name, model_name


def _no_html(text: str) -> str:
    """``<`` as an entity outside backtick spans: a cell is text, and text from a scenario file
    must never become HTML. Inside backticks (code, and roles such as {ref}`a <target>`) MyST
    never reads HTML, and the ``<`` is the role's own syntax."""
    parts = text.split("`")
    if len(parts) % 2 == 0:  # an unpaired backtick opens no code span: nothing is protected
        return text.replace("<", "&lt;")
    return "`".join(part if i % 2 else part.replace("<", "&lt;") for i, part in enumerate(parts))


def markdown_cell(value) -> str:
    """``value`` as the text of one Markdown table cell: pipes, dollars and newlines escaped, no HTML."""
    return _no_html(str(value).replace("|", "\\|").replace("$", "\\$").replace("\n", " "))


class MarkdownTable(str):
    """A reader table's Markdown (what the page shows), keeping the whole table, every row and
    column, as ``header`` and ``rows`` for its CSV download (:func:`table_csv`); ``name`` and
    ``title`` name that download (:func:`analysis.page.notebook.show_table`)."""

    header: list[str]
    rows: list[list]
    name: str = ""
    title: str = ""
    folded: bool = False


def _markdown_rows(header, rows, align) -> str:
    rule = ["---:" if a == "r" else "---" for a in align]
    lines = ["| " + " | ".join(markdown_cell(h) for h in header) + " |", "|" + "|".join(rule) + "|"]
    lines += ["| " + " | ".join(markdown_cell(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def markdown_table(header: list[str], rows: list[list], align: str | None = None, key=None, columns=None,
                   name: str = "", title: str = "") -> MarkdownTable:
    """A Markdown table. ``align`` is one character per column (``l`` or ``r``); default left.

    A long or wide table shows what the prose reads and folds the rest: ``key`` (row indices, in
    any order; None: every row) picks the rows shown, ``columns`` (column indices or headings;
    None: every column) the columns shown, and the whole table follows in a native ``<details>``
    that a reader opens (closed, it costs a phone no height). ``name`` and ``title`` name its CSV
    download (:func:`analysis.page.notebook.show_table` writes it)."""
    rows = [list(r) for r in rows]
    align = align or "l" * len(header)
    keep_rows = list(range(len(rows))) if key is None else sorted(_positions(key))
    keep_cols = list(range(len(header))) if columns is None else \
        [header.index(c) if isinstance(c, str) else int(c) for c in columns]
    whole = _markdown_rows(header, rows, align)
    folded = len(keep_rows) < len(rows) or len(keep_cols) < len(header)
    if not folded:
        text = whole
    else:
        shown = _markdown_rows([header[c] for c in keep_cols], [[rows[i][c] for c in keep_cols] for i in keep_rows],
                               "".join(align[c] for c in keep_cols)) if keep_rows else ""
        text = "\n\n".join(part for part in (shown, _details_open(fold_summary(len(rows), len(header), keep_rows,
                                                                                 keep_cols)),
                                                 whole, "</details>") if part)
    table = MarkdownTable(text)
    table.header, table.rows, table.name, table.title, table.folded = list(header), rows, name, title, folded
    return table


def fold_summary(n_rows: int, n_cols: int, shown_rows, shown_cols) -> str:
    """The summary line of a fold: 'Show all 65 rows', 'Show all 10 columns', 'Show all 40 rows and
    9 columns', or, when no row is shown above it, 'Show the table (16 rows)'."""
    if not shown_rows:
        return f"Show the table ({formatting.plural(n_rows, 'row')})"
    parts = ([formatting.plural(n_rows, "row")] if len(shown_rows) < n_rows else []) + \
        ([formatting.plural(n_cols, "column")] if len(shown_cols) < n_cols else [])
    return "Show all " + " and ".join(parts)


def _details_open(summary: str) -> str:
    return f'<details class="book-more"><summary>{_html.escape(summary)}</summary>'


_ROLE = re.compile(r"\{[a-z]+\}`([^`<]*?)\s*(?:<[^`>]*>)?`")
_LINK = re.compile(r"\[([^\]]*)\]\(([^)]*)\)")


def plain_text(cell) -> str:
    """A Markdown cell as plain text, for a CSV: roles and links by their text (a link's address
    kept in parentheses), no emphasis, no escapes."""
    text = str(cell)
    text = _ROLE.sub(lambda m: m.group(1), text)
    text = _LINK.sub(lambda m: f"{m.group(1)} ({m.group(2)})" if m.group(2).startswith("http") else m.group(1), text)
    text = re.sub(r"\*\*(.+?)\*\*", r"\1", text)
    text = re.sub(r"(?<!\w)\*(.+?)\*(?!\w)", r"\1", text)
    return text.replace("`", "").replace("\\$", "$").replace("\\|", "|")


def table_csv(table: MarkdownTable) -> str:
    """The whole table (every row and column) as CSV text, cells as plain text."""
    import csv
    import io

    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([plain_text(h) for h in table.header])
    writer.writerows([[plain_text(c) for c in row] for row in table.rows])
    return out.getvalue()


def pct(fraction: float, digits: int = 1) -> str:
    """0.3808 -> '38.1 %' (the book's spacing)."""
    return formatting.percent(fraction, digits)


def usd(value: float) -> str:
    """Dollars: a tenth of a cent below $1, cents below $100, whole dollars above, then M / B
    ('$0.038', '$1.95', '$162,984', '$3.1M'); see :func:`analysis.page.formatting.money`."""
    return formatting.money(value)


def rate(tokens_per_s: float) -> str:
    """Tokens/s/GPU: one decimal below 1,000, none above."""
    return f"{tokens_per_s:,.1f}" if tokens_per_s < 1000 else f"{tokens_per_s:,.0f}"


class HTMLTable(str):
    """An HTML string that Jupyter displays as HTML (``display(interactive_table(...))``). Its
    plain-text form, what a viewer without HTML shows, is ``summary`` (caption and row count),
    not the HTML again: that copy doubled each long table in the executed notebook and in the
    page Sphinx stores and reads back on every build."""

    summary = "A sortable table (HTML)"

    def _repr_html_(self) -> str:
        return str(self)

    def _repr_pretty_(self, printer, cycle) -> None:
        printer.text(self.summary)


_ids = itertools.count(1)


class Html(str):
    """A cell's text that is already HTML (a link, a folded note): :func:`interactive_table` puts it
    in the page as it is. Anything else is escaped."""


def interactive_table(table, columns: dict | None = None, caption: str | None = None,
                      numeric: tuple[str, ...] = (), table_id: str | None = None, key=None) -> HTMLTable:
    """A long data table that readers can sort (click a heading) and filter (type in the box),
    with the book's own small script (``book/static/book.js``), served from the book: no network.

    ``table`` is a DataFrame or a list of dicts. ``columns`` maps a column to ``(heading,
    formatter)``, or to a heading only; the formatter turns a value into text (for example
    ``analysis.page.formatting.money``, ``lambda v: format_quantity(v, "fraction")``,
    ``analysis.page.names.gpu_name``), or into :class:`Html`. Columns not in ``columns`` are left
    out when it is given. Cells of ``numeric`` columns (and of any column whose values are all
    numbers) sort by value, not by text, and are right-aligned. ``key`` (row positions, or a
    boolean mask) picks the rows shown at first, those the prose reads; the others wait behind a
    native ``<details>`` ("Show all N rows"), and the filter always searches every row. In a
    notebook::

        from IPython.display import display
        display(interactive_table(rows, {"gpu_id": ("GPU", gpu_name), "mfu": ("MFU", percent)}))
    """
    import math

    import pandas as pd

    df = table if isinstance(table, pd.DataFrame) else pd.DataFrame(list(table))
    df = df.reset_index(drop=True)
    columns = columns or {c: c for c in df.columns}
    spec = {c: (v if isinstance(v, tuple) else (v, None)) for c, v in columns.items()}
    table_id = table_id or f"book-datatable-{next(_ids)}"
    num = {c for c in spec if c in numeric or pd.api.types.is_numeric_dtype(df[c])}
    shown = set(range(len(df))) if key is None else _positions(key)

    def text(column, value):
        fmt = spec[column][1]
        if isinstance(value, Html):
            return value
        if value is None or (isinstance(value, float) and math.isnan(value)):
            return "—"
        if fmt is not None:
            out = fmt(value)
            return out if isinstance(out, Html) else _html.escape(str(out))
        if isinstance(value, float):
            return _html.escape(formatting.number(value))
        return _html.escape(str(value))

    right = ' class="num"'
    head = "".join(f'<th scope="col"{right if c in num else ""}>{_html.escape(h)}</th>'
                   for c, (h, _) in spec.items())
    body = []
    for i, row in df.iterrows():
        cells = []
        for c in spec:
            value = row[c]
            sort = ""
            if c in num and isinstance(value, (int, float)) and not (isinstance(value, float) and math.isnan(value)):
                sort = f' data-sort="{float(value)!r}"'
            cells.append(f'<td{right if c in num else ""}{sort}>{text(c, value)}</td>')
        more = "" if i in shown else ' class="book-more-row"'
        body.append(f"<tr{more}>" + "".join(cells) + "</tr>")
    n = len(df)
    cap = f"<caption>{_html.escape(caption)}</caption>" if caption else ""
    fold = "" if len(shown) >= n else \
        (f'<details class="book-more book-more-rows"><summary>Show all {formatting.plural(n, "row")}</summary>'
         f'</details>')
    counted = formatting.plural(n, "row") if len(shown) >= n else \
        f"{len(shown)} of {formatting.plural(n, 'row')}" if shown else f"{formatting.plural(n, 'row')}: filter them or show all"
    out = HTMLTable(
        f'<div class="book-datatable-wrap" id="{table_id}">'
        f'<div class="book-datatable-controls"><label>Filter rows <input type="search" '
        f'aria-controls="{table_id}-table" placeholder="type to filter"></label>'
        f'<span class="book-datatable-count">{counted}</span>'
        f'<span class="book-sort-hint">Click a column heading to sort.</span></div>'
        f'<div class="book-datatable-scroll"><table class="book-datatable table" id="{table_id}-table">{cap}'
        f'<thead><tr>{head}</tr></thead><tbody>{"".join(body)}</tbody></table></div>{fold}</div>')
    out.summary = f"{caption or 'A sortable table'}: {formatting.plural(n, 'row')} (HTML)"
    return out


def _positions(key) -> set[int]:
    """Row positions from a list of positions or a boolean mask (a list, array or Series)."""
    import numpy as np

    picks = np.asarray(list(key))
    return set(np.flatnonzero(picks).tolist()) if picks.dtype == bool else {int(i) for i in picks}


def folded(table: HTMLTable, summary: str) -> HTMLTable:
    """``table`` (:func:`interactive_table`) folded in a native ``<details>`` element whose
    ``<summary>`` line says what opens: a long register a reader opens when they want it, without
    the page's own script."""
    shown = HTMLTable(f'<details class="book-folded"><summary>{_html.escape(summary)}</summary>{table}</details>')
    shown.summary = f"{summary}: {table.summary}"
    return shown


_ID_IN_PARENS = re.compile(r"\s*\((?:`)?[a-z][a-z0-9]*(?:_[a-z0-9]+)+(?:`)?\)")


def reader_label(label: str) -> str:
    """A result's label for readers: an internal id in parentheses dropped ('Network capex /
    the cluster's all-in capex (capex_usd_per_gpu)'), a model or GPU id replaced by its name."""
    label = _ID_IN_PARENS.sub("", label)

    def name(match):
        word = match.group(0)
        for lookup in (model_name, gpu_name):
            try:
                named = lookup(word)
            except (KeyError, ValueError, InputError):  # a table this chapter does not declare
                continue
            if named and named != word:
                return named
        return word

    return re.sub(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b", name, label)


def _answer_value(value, unit: str) -> str:
    """A result in the box: :func:`analysis.page.formatting.result_value` (a dimensionless ratio as
    a multiple, '1.65x')."""
    return formatting.result_value(value, unit)


def answer_box(items, title: str = "In short", more: str | None = None, verdict: str | None = None) -> str:
    """MyST for the box a chapter opens with: its verdict (one sentence answering the chapter's
    question, with its condition; each figures module's ``verdict(R)``), then its key results, one line each.

    ``items`` is a list of ``(label, value, unit)`` (the value formatted with
    :func:`analysis.page.formatting.format_quantity`) or of ready strings (Markdown). For results
    a chapter computed pass ``[(R.quantities[k].label, R[k], R.unit(k)) for k in keys]``, or use
    :func:`answer_from_results`. ``more`` is a closing sentence (e.g. where the method is)."""
    lines = []
    for item in items:
        if isinstance(item, str):
            lines.append(f"- {item}")
        else:
            label, value, unit = item
            lines.append(f"- {markdown_cell(reader_label(label))}: **{markdown_cell(_answer_value(value, unit))}**")
    head = [f"**{markdown_cell(verdict)}**", ""] if verdict else []
    tail = ["", more] if more else []
    return "\n".join([f":::{{admonition}} {title}", ":class: answer-box", "", *head, *lines, *tail, ":::"])


def answer_from_results(R, keys, verdict: str, title: str = "In short", more: str | None = None,
                        labels: dict | None = None) -> str:
    """:func:`answer_box` from a chapter's results ``R`` (label, value, unit of each of ``keys``),
    opening with its ``verdict`` (the chapter's figures module builds it: ``figures.verdict(R)``).
    ``labels`` replaces a result's own label where the box must say more (whose price a cost
    uses, what an error was measured on)."""
    labels = labels or {}
    return answer_box([(labels.get(k, R.quantities[k].label), R[k], R.unit(k)) for k in keys], title, more,
                      verdict=verdict)
