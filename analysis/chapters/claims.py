"""Claims chapter: every seed claim and every checked report figure beside the book's value, what
its computation read from the report, and the counts the prose prints. It needs every modelling
chapter (``Section.needs``) and reads their results, with what each read, from ``upstream``;
:func:`analysis.chapters.ledger.check_ledger` fails the chapter, and so the build, when the ledger does not
hold. For each row whose status is ``depends_on_default`` it also asks the chapter layer for the
row's value at each end of the sourced range of every default it reads (:func:`range_table`)."""

from __future__ import annotations

import pandas as pd

from analysis.chapters import ChapterResults, compute_section, ledger
from analysis.chapters.registry import all_params, get_section
from analysis.data.load import load_table
from analysis.data.schemas import TOLERANCE_WITHOUT_REASON

RANGED_STATUSES = ("depends_on_default",)  # the statuses whose rows range_table recomputes
RANGE_COLUMNS = ["row_id", "param", "low", "high", "book_low", "book_high", "difference_low", "difference_high"]


def default_ranges() -> dict[str, tuple[float, float, str, str]]:
    """The range of every default with one in ``data/distributions.csv`` (low, high, basis,
    source_id), except defaults that are the report's own number (``Param.fact``): those are the
    report's stated inputs, and a row that reads one is a consistency check, not a chosen default."""

    params = all_params()
    table = load_table("distributions")
    return {r.param: (float(r.low), float(r.high), r.basis, r.source_id) for r in table.itertuples()
            if r.param in params and not params[r.param].fact}


def _scenario_overrides(upstream: dict[str, ChapterResults]) -> dict:
    """The parameters the upstream chapters ran with that differ from their defaults."""

    params = all_params()
    return {name: value for chapter in upstream.values() for name, value in chapter.parameters.items()
            if name in params and value != params[name].default}


def section_params(section: str) -> set[str]:
    """The parameters a chapter's results can depend on: its own and those of the chapters it
    needs, recursively."""

    s = get_section(section)
    return set(s.param_map).union(*(section_params(n) for n in s.needs))


def ranged_rows(rows: pd.DataFrame, statuses) -> pd.DataFrame:
    """The ledger rows :func:`range_table` recomputes: a status in ``statuses`` and a result to read."""
    return rows[rows["status"].isin(statuses) & rows["results_key"].map(lambda k: isinstance(k, str))]


def range_table(rows: pd.DataFrame, upstream: dict[str, ChapterResults], statuses) -> pd.DataFrame:
    """For each ledger row (``row_id``, ``section``, ``results_key``, ``low``/``high`` of the
    original, ``params_read``, ``status``) whose status is in ``statuses``, the book's value and its
    difference from the original at each end of the sourced range of every default it read. Each
    (default, end) computes the chapters once, through :func:`analysis.chapters.compute_section`."""
    ranges = default_ranges()
    base = _scenario_overrides(upstream)
    wanted = [(r, p) for r in ranged_rows(rows, statuses).itertuples()
              for p in r.params_read if p in ranges and p in section_params(r.section)]
    computed: dict[tuple[str, int], dict] = {}
    out = []
    for r, p in wanted:
        low, high = ranges[p][:2]
        values = []
        for end, value in ((0, low), (1, high)):
            # chapters that cannot depend on this default keep their results; the others are recomputed
            done = computed.setdefault((p, end), {name: chapter for name, chapter in upstream.items()
                                                   if p not in section_params(name)})
            if r.section not in done:  # once per chapter and (default, end)
                compute_section(r.section, {**base, p: value}, done)
            values.append(done[r.section][r.results_key])
        out.append({"row_id": r.row_id, "param": p, "low": low, "high": high, "book_low": values[0],
                    "book_high": values[1], "difference_low": ledger.difference_rel(values[0], r.low, r.high),
                    "difference_high": ledger.difference_rel(values[1], r.low, r.high)})
    return pd.DataFrame(out, columns=RANGE_COLUMNS)


def ledger_rows(claims: pd.DataFrame, facts: pd.DataFrame) -> pd.DataFrame:
    """Claims and facts as one frame of the columns :func:`range_table` reads."""
    c = claims.rename(columns={"claim_id": "row_id", "original_value": "low", "original_high": "high"})
    f = facts.rename(columns={"fact_id": "row_id", "report_value": "low", "report_high": "high"})
    columns = ["row_id", "section", "results_key", "low", "high", "params_read", "status", "at_defaults"]
    both = pd.concat([c[columns], f[columns]], ignore_index=True)
    return both[both["at_defaults"]]


def ran_at_defaults(section: str, parameters: dict) -> bool:
    """Whether ``section`` ran with every parameter at its default (the report's inputs). A
    chapter whose parameters are unknown counts as not at its defaults, so the ledger lists its
    rows without failing them."""
    return all(name in parameters and parameters[name] == p.default
               for name, p in get_section(section).param_map.items())


def ledger_inputs(upstream: dict[str, ChapterResults]) -> tuple[ledger.Results, dict[str, bool]]:
    """The chapters' results as the ledger reads them, and whether each ran at its defaults: its
    own parameters and those of every chapter it reads (``Section.needs``), so the benchmarks
    chapter priced at a scenario's TCO is not held to the report's $1.95."""
    results = {name: {key: (q.value, q.unit, q.reads) for key, q in chapter.quantities.items()}
               for name, chapter in upstream.items()}
    own = {name: ran_at_defaults(name, chapter.parameters) for name, chapter in upstream.items()}
    return results, {name: _inputs_at_defaults(name, own) for name in upstream}


def _inputs_at_defaults(section: str, own: dict[str, bool]) -> bool:
    """A chapter ran at the report's inputs only if it and every chapter it reads (its ``needs``,
    recursively) ran at their defaults: a scenario that changes the tariff moves the software
    chapter's costs through the TCO chapter, though software's own parameters are unchanged."""
    if not own.get(section, False):
        return False
    return all(_inputs_at_defaults(need, own) for need in get_section(section).needs)


def facts_not_checked() -> pd.DataFrame:
    """The report facts the book neither computes nor compares, with the report's value and the reason."""
    facts = load_table("report_facts").set_index("fact_id")
    table = load_table("facts_not_checked")
    return table.join(facts[["quantity", "value", "unit"]], on="fact_id")


def facts_read(upstream: dict[str, ChapterResults]) -> set[str]:
    """Every report fact some chapter's computation read, as recorded (inputs and framing)."""
    return {t.split(":", 1)[1] for chapter in upstream.values() for q in chapter.quantities.values()
            for t in q.reads or () if t.startswith(("fact:", "frame:"))}


def compute(P, upstream) -> ChapterResults:
    res = ChapterResults("claims")
    results, at_defaults = ledger_inputs(upstream)
    claims = res.add_table("seed_claims", ledger.claims_ledger(results, at_defaults))
    facts = ledger.facts_ledger(results, at_defaults)
    uses = ledger.fact_uses(results, at_defaults)
    ranges = res.add_table("ranges", range_table(ledger_rows(claims, facts), upstream, RANGED_STATUSES))
    ledger.check_ledger(claims, facts, uses, ranges)  # raises, and so fails the build, if the ledger does not hold
    not_checked = res.add_table("facts_not_checked", facts_not_checked())
    res.add("facts_not_checked_count", len(not_checked), "count", "Report figures the book does not check, each with why")
    res.add("tolerance_without_reason_frac", TOLERANCE_WITHOUT_REASON, "fraction",
            "Largest tolerance a ledger row may have without saying why (tolerance_why)")
    res.add("claims_total_count", len(claims), "count", "Seed claims in the ledger")
    for status, count in ledger.status_counts(claims).items():
        res.add(f"claims_{status}_count", count, "count", f"Seed claims: {ledger.status_label(status)}")
    checked = res.add_table("report_facts_checked", ledger.checked_facts(facts))
    res.add("facts_checked_count", len(checked), "count", "Report figures the book checks, one row each")
    res.add("facts_checked_places_count", int((uses["chapter_built"] & ~uses["context"]).sum()), "count",
            "Places (chapter and result) where the book checks a report figure")
    res.add("facts_shown_in_several_chapters_count", int((checked["also_in"].str.len() > 0).sum()), "count",
            "Checked report figures shown in more than one chapter")
    for status, count in ledger.fact_status_counts(checked).items():
        res.add(f"facts_{status}_count", count, "count", f"Checked report figures: {ledger.status_label(status)}")
    return res
