"""Claims chapter: every seed claim and every checked report figure beside the book's value, and
the counts the prose prints. It needs every modelling chapter (``Section.needs``) and reads their
results from ``upstream``; :func:`analysis.ledger.check_ledger` fails the chapter, and so the
build, when the ledger does not hold."""

from __future__ import annotations

from analysis import ledger
from analysis.chapters import ChapterResults
from analysis.schemas import TOLERANCE_WITHOUT_REASON
from analysis.sections import get_section


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
    results = {name: {key: (q.value, q.unit) for key, q in chapter.quantities.items()}
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


def compute(P, upstream) -> ChapterResults:
    res = ChapterResults("claims")
    results, at_defaults = ledger_inputs(upstream)
    claims = res.add_table("seed_claims", ledger.claims_ledger(results, at_defaults))
    facts = ledger.facts_ledger(results, at_defaults)
    uses = ledger.fact_uses(results, at_defaults)
    ledger.check_ledger(claims, facts, uses)  # raises, and so fails the build, if the ledger does not hold
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
