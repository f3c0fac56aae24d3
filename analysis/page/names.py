"""Reader-facing names for the book's internal identifiers.

Readers never see ``h100_sxm``, ``mfu_fp8``, ``B09_fp8_eflops`` or ``sa_100k_2024``. Chapters and
generated pages turn them into names with these functions:

    gpu_name("h100_sxm")             -> 'H100 SXM 80GB'
    gpu_short_name("h100_sxm")       -> 'H100'
    param_label("mfu_fp8")           -> 'Model FLOPs utilization of a frontier run in FP8'
    fact_label("B09_fp8_eflops")     -> 'B09'
    fact_link("B09_fp8_eflops")      -> MyST: {ref}`B09 <fact-B09_fp8_eflops>` (to the Report facts page)
    source_label("sa_100k_2024")     -> 'SemiAnalysis 2024'
    source_link("sa_100k_2024")      -> MyST: {ref}`SemiAnalysis 2024 <src-sa_100k_2024>`

The ``*_link`` functions return MyST markup, for Markdown that a chapter displays
(``display(Markdown(...))`` or :func:`analysis.page.tables.markdown_table`); the others return text,
for figure labels and plain strings.
"""

from __future__ import annotations

import re

from analysis.chapters.registry import all_params
from analysis.data.load import derived, load_table
from analysis.hardware import gpu_name  # noqa: F401 (a reader name, re-exported with the others)
from analysis.page.formatting import humanize

__all__ = ["gpu_name", "gpu_short_name", "model_name", "param_label", "param_short_label", "fact_label", "fact_link",
           "fact_anchor", "source_label", "source_link", "author", "clean_note", "reader_text"]


def gpu_short_name(gpu_id: str) -> str:
    """The GPU's name as a sentence says it: no vendor, product line, form factor, memory size or
    parenthesis ('H100' for 'NVIDIA H100 SXM 80GB', 'GB200 NVL72', 'MI300X', 'TPU7x Ironwood')."""
    name = re.sub(r"^(NVIDIA|AMD|Google|AWS)\s+", "", gpu_name(gpu_id, vendor=True))
    name = re.sub(r"\s*\(.*$", "", name.replace("Instinct ", ""))
    return re.sub(r"\s+(SXM\d*|PCIe)?\s*\d+GB$|\s+SXM\d*$", "", name).strip()


@derived
def _models() -> dict[str, str]:
    return dict(zip(load_table("models")["model_id"], load_table("models")["name"], strict=True))


def model_name(model_id: str) -> str:
    """The model's name from ``data/models.csv`` ('Llama 3.1 405B' for 'llama31_405b'); an
    unknown id is returned unchanged."""
    return _models().get(model_id, model_id)


def param_label(name: str) -> str:
    """What a parameter means, from its one definition in :mod:`analysis.params.defaults`: its
    description ('Power usage effectiveness: facility power / critical IT power')."""
    p = all_params().get(name)
    return p.description if p else name.replace("_", " ")


def param_short_label(name: str, width: int = 40, description: str | None = None) -> str:
    """A parameter's description (or ``description``, for a model input that is no parameter) cut
    at its first colon or parenthesis and to ``width`` characters: short enough for a tornado
    chart's axis ('Power usage effectiveness')."""
    text = re.split(r"[:(]", description or param_label(name))[0].strip()
    if len(text) > width:
        text = text[: width - 1].rsplit(" ", 1)[0] + "…"
    return text


def fact_label(fact_id: str) -> str:
    """The short label of a report fact: its letter and number ('B09' for 'B09_fp8_eflops')."""
    return fact_id.split("_", 1)[0]


def fact_anchor(fact_id: str) -> str:
    """The MyST label of a fact's entry on the Report facts appendix."""
    return f"fact-{fact_id}"


def fact_link(fact_id: str) -> str:
    """MyST markup: the fact's short label, linked to its entry on the Report facts appendix."""
    return f"{{ref}}`{fact_label(fact_id)} <{fact_anchor(fact_id)}>`"


def author(publisher: str) -> str:
    """The author part of a ``sources.csv`` publisher, without asides that point into the project
    ('this book's measurement harness (analysis/measure)' -> "this book's measurement harness")."""
    return re.sub(r"\s*\([^)]*(?:/|\.py|\.csv|\.md)[^)]*\)", "", str(publisher)).strip()


def _year(date) -> str:
    match = re.match(r"(\d{4})", str(date))
    return match.group(1) if match else "n.d."


@derived
def _sources() -> dict[str, tuple[str, str]]:
    return {s.source_id: (author(s.publisher), _year(s.date)) for s in load_table("sources").itertuples()}


def source_label(source_id: str) -> str:
    """Author–year: 'SemiAnalysis 2024', 'Chowdhery et al. 2022'."""
    who, year = _sources().get(source_id, (source_id, ""))
    short = re.split(r"\s*\(", who)[0].strip() or who
    return f"{short} {year}".strip()


def source_link(source_id: str) -> str:
    """MyST markup: the author–year label linked to the source's entry on the Sources appendix."""
    return f"{{ref}}`{source_label(source_id)} <src-{source_id}>`"


_INTERNAL = re.compile(r"[^.;]*(?:\b[\w./-]+\.(?:py|csv|md|yaml|json)\b|\banalysis/|\bdata/|report_facts|"
                       r"claims\.csv|\bSA-[ABC]\b)[^.;]*[.;]?\s*")


def clean_note(note) -> str:
    """A data note with the clauses that point at files inside the project removed."""
    if not isinstance(note, str):
        return ""

    note = humanize(_INTERNAL.sub("", note).strip(" ;"))
    note = re.sub(r"\b([ABC]\d{2})_\w+", r"\1", note)  # fact ids -> their short labels
    sources = _sources()  # a source cited by its id -> its author-year label, linked
    return re.sub(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b",
                  lambda m: source_link(m.group(0)) if m.group(0) in sources else m.group(0), note)


_IDS_IN_PARENS = re.compile(r"\s*\((?:\s*[a-z][a-z0-9]*(?:_[a-z0-9]+)+\s*[,;]?)+\)")
_SNAKE = re.compile(r"\b[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+\b")
_FACT = re.compile(r"\b([ABC]\d{2})_\w+")


def reader_text(text, link: bool = True) -> str:
    """Free text from the data (a note, an explanation, a claim) as readers get it, nothing cut:
    e-notation for people, report fact ids as their labels ('A03'), a source's id as its author
    and year ({ref}-linked to the Sources appendix with ``link``, plain text without: for HTML
    cells), a parameter's name as its short label, any other id that only repeats, in
    parentheses, what the words before it say dropped ('the all-in price (h100_allin_usd)'), and
    a line break allowed before each '/' of a path (a long path no longer widens a table)."""
    if not isinstance(text, str):
        return text
    sources, params = _sources(), all_params()
    text = _FACT.sub(r"\1", humanize(text))

    def parenthetical(m):  # keep a parenthesis that names a source; drop one of bare ids
        ids = re.findall(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)+", m.group(0))
        return m.group(0) if any(i in sources for i in ids) else ""

    text = _IDS_IN_PARENS.sub(parenthetical, text)

    def word(m):
        name = m.group(0)
        if name in sources:
            return source_link(name) if link else source_label(name)
        if name in params:
            return param_short_label(name, 60)
        return name.replace("_", " ")  # a result's key, or an organisation (Quanta_Cloud_Technology)

    text = re.sub(r"(?<![/\w.])" + _SNAKE.pattern + r"(?![\w/]|\.(?:csv|py|md|yaml|json)\b)", word, text)
    return re.sub(r"(?<=\w)/(?=\w)", "\u200b/", text)  # a break before the slash: the file's name stays whole
