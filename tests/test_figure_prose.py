"""Every figure is introduced and read in the prose, as in QuantEcon's lectures: a sentence before
it refers to it by number (MyST's ``{numref}``), and the first thing after the figure is a prose
paragraph that says what the reader should take from it (not a heading, another figure, a table or
nothing, and not the caption again).

A static check of ``notebooks/*.py`` (Jupytext percent format), with no book build: each
``{glue:figure}`` directive in a markdown cell is found with its ``:name:``, the chapter's prose
before it is searched for a ``{numref}`` of that name, and the text after the directive's closing
fence (the rest of its cell, else the next cell, which must be markdown) is checked.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.py"))

CELL = re.compile(r"^# %%(.*)$")
FENCE = re.compile(r"^(`{3,}|:{3,})(.*)$")
FIGURE = re.compile(r"^\{glue:figure\}\s*(\S+)")
NAME = re.compile(r"^:name:\s*(\S+)")
NUMREF = re.compile(r"\{numref\}`(?:[^`<]*<)?([^`<>]+?)>?`")
# A sentence that introduces the figure in words, when a numbered reference is not used.
INTRODUCED = re.compile(r"\b(figure|chart|plot)s? below\b", re.I)
MIN_WORDS = 6  # a reading sentence, not a fragment


def cells(path: Path) -> list[tuple[str, list[str]]]:
    """(kind, lines) of each cell of a percent-format notebook; markdown lines lose their '# '."""
    found: list[tuple[str, list[str]]] = []
    kind, lines = None, []
    for line in path.read_text(encoding="utf-8").splitlines():
        header = CELL.match(line)
        if header:
            if kind is not None:
                found.append((kind, lines))
            kind = "markdown" if "[markdown]" in header.group(1) else "code"
            lines = []
        elif kind == "markdown":
            lines.append(line[2:] if line.startswith("# ") else line.lstrip("#"))
        elif kind is not None:
            lines.append(line)
    if kind is not None:
        found.append((kind, lines))
    return found


def blocks(lines: list[str]) -> list[dict]:
    """The top-level blocks of one markdown cell, in order: fenced directives (with their figure
    key and ``:name:``, when a ``{glue:figure}``) and paragraphs (runs of non-blank lines)."""
    out: list[dict] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        opening = FENCE.match(line.strip())
        if opening:
            marker, info = opening.group(1), opening.group(2).strip()
            body, i = [], i + 1
            while i < len(lines) and lines[i].strip() != marker:
                body.append(lines[i])
                i += 1
            i += 1  # the closing fence
            figure = FIGURE.match(info)
            name = next((m.group(1) for m in map(NAME.match, (b.strip() for b in body)) if m), None)
            out.append({"kind": "fence", "figure": figure.group(1) if figure else None, "name": name,
                        "text": "\n".join(body)})
            continue
        if not line.strip():
            i += 1
            continue
        paragraph = []
        while i < len(lines) and lines[i].strip() and not FENCE.match(lines[i].strip()):
            paragraph.append(lines[i])
            i += 1
        out.append({"kind": "paragraph", "text": "\n".join(paragraph)})
    return out


def _words(text: str) -> list[str]:
    text = re.sub(r"\{[a-z:]+\}`[^`]*`", "N", text)  # a role (glued number, reference) is one word
    return re.findall(r"[A-Za-z][A-Za-z'-]*", text)


def _plain(text: str) -> str:
    return " ".join(_words(text)).lower()


def what_is_not_prose(text: str) -> str | None:
    """Why the paragraph ``text`` is not a prose paragraph that reads a figure, or None if it is."""
    first = text.lstrip()
    if first.startswith("#"):
        return "a heading"
    if re.match(r"^\([\w-]+\)=", first):
        return "a label (the start of a new section)"
    if first.startswith(("|", "<", "$$", "---", "***", "+++")):
        return "a table, HTML, math or a rule"
    if len(_words(text)) < MIN_WORDS:
        return f"a fragment of {len(_words(text))} words"
    return None


def figures(path: Path) -> list[dict]:
    """Each ``{glue:figure}`` of ``path``, with what comes before and after it.

    ``prose_before`` is the chapter's markdown before the directive (fenced blocks left out),
    ``last_before`` the last paragraph before it in that markdown, and ``after`` the first block
    after its closing fence (in the same cell, else in the next cell if that is markdown), or a
    string saying what comes instead."""
    found: list[dict] = []
    prose_before: list[str] = []
    all_cells = cells(path)
    for index, (kind, lines) in enumerate(all_cells):
        if kind != "markdown":
            continue
        cell_blocks = blocks(lines)
        for position, block in enumerate(cell_blocks):
            if block["kind"] == "paragraph":
                prose_before.append(block["text"])
                continue
            if not block["figure"]:
                continue
            after: dict | str
            if position + 1 < len(cell_blocks):
                after = cell_blocks[position + 1]
            elif index + 1 >= len(all_cells):
                after = "the end of the chapter"
            elif all_cells[index + 1][0] != "markdown":
                after = "a code cell"
            else:
                following = blocks(all_cells[index + 1][1])
                after = following[0] if following else "an empty markdown cell"
            found.append({"key": block["figure"], "name": block["name"], "text": block["text"],
                          "prose_before": "\n\n".join(prose_before),
                          "last_before": prose_before[-1] if prose_before else "", "after": after})
    return found


FIGURES = [(path, figure) for path in NOTEBOOKS for figure in figures(path)]


def problems(path: Path, figure: dict) -> list[str]:
    """What the figure ``figure`` of ``path`` lacks in the prose around it (empty when nothing)."""
    where = f"{path.name}: figure {figure['key']} (:name: {figure['name']})"
    found = []
    if not figure["name"]:
        return [f"{where}: the directive has no :name:, so no sentence can refer to it by number"]
    referenced = figure["name"] in NUMREF.findall(figure["prose_before"])
    if not referenced and not INTRODUCED.search(figure["last_before"]):
        found.append(f"{where}: no sentence before the figure introduces it; add one with "
                     f"{{numref}}`{figure['name']}` in the prose above the directive")
    after = figure["after"]
    if isinstance(after, str):
        found.append(f"{where}: after the figure comes {after}, not a sentence that reads it")
    elif after["kind"] == "fence":
        found.append(f"{where}: after the figure comes another directive, not a sentence that reads it")
    else:
        why = what_is_not_prose(after["text"])
        if why:
            found.append(f"{where}: after the figure comes {why}, not a sentence that reads it")
        elif _plain(after["text"]) in _plain(figure["text"]):
            found.append(f"{where}: the sentence after the figure repeats its caption; say what "
                         "the reader should take from it instead")
    return found


def test_every_chapter_figure_is_found():
    assert len(FIGURES) >= 30
    assert all(figure["name"] for _, figure in FIGURES)


@pytest.mark.parametrize(("path", "figure"), FIGURES, ids=[f["key"] for _, f in FIGURES])
def test_figure_is_introduced_and_read_in_the_prose(path, figure):
    found = problems(path, figure)
    assert not found, "\n".join(found)


def test_the_check_catches_a_figure_left_unread(tmp_path):
    nb = tmp_path / "bad.py"
    nb.write_text(
        "# %% [markdown]\n# # A chapter\n\n# %%\nglue_figure('fig_a', None)\n\n"
        "# %% [markdown]\n# ```{glue:figure} fig_a\n# :name: fig-a\n#\n# The caption.\n# ```\n\n"
        "# %% [markdown]\n# ## Next section\n\n"
        "# %% [markdown]\n# {numref}`fig-b` plots the second thing against the first.\n#\n"
        "# ```{glue:figure} fig_b\n# :name: fig-b\n#\n# Costs rise with the size of the cluster.\n# ```\n#\n"
        "# Costs rise with the size of the cluster.\n\n"
        "# %% [markdown]\n# {numref}`fig-c` shows a third thing.\n\n"
        "# %%\nglue_figure('fig_c', None)\n\n"
        "# %% [markdown]\n# ```{glue:figure} fig_c\n# :name: fig-c\n#\n# A caption.\n# ```\n#\n"
        "# The bars fall as the tariff rises, so power matters less than capital.\n",
        encoding="utf-8")
    found = [p for figure in figures(nb) for p in problems(nb, figure)]
    assert len(found) == 3, found
    assert "figure fig_a (:name: fig-a): no sentence before" in found[0]
    assert "fig_a (:name: fig-a): after the figure comes a heading" in found[1]
    assert "fig_b (:name: fig-b): the sentence after the figure repeats its caption" in found[2]
