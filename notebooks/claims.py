# ---
# jupyter:
#   jupytext:
#     formats: py:percent
#     text_representation:
#       extension: .py
#       format_name: percent
#   kernelspec:
#     display_name: Python 3
#     language: python
#     name: python3
# ---

# %% [markdown]
# (chapter-claims)=
# # The claims ledger
#
# This book started from two short second-hand summaries of SemiAnalysis reports, and several of
# their numbers are wrong. Every claim they make is a row here, set against the original source and
# against what the book computes. Each has a status:
#
# - **reproduced**: the book's model, from stated inputs, lands within the stated tolerance of the
#   original source;
# - **corrected**: the summary disagrees with the original; the book shows both and uses the original;
# - **context**: cited as-is, not modelled;
# - **unverifiable**: no public source; the book says so and shows what its model implies;
# - **pending**: the chapter that settles it is not written yet.
#
# Below the seed's claims come the report's own figures that the book recomputes. The build fails
# if any reproduced or corrected value leaves its tolerance, if a claim has no status, or if a row
# names a result that its chapter does not produce, so this page cannot silently go stale.
# Tolerances are checked where a chapter ran with its default parameters, the report's inputs;
# when you rebuild with your own, the rows show where your numbers land.

# %% tags=["parameters", "remove-cell"]
# The runner injects this chapter's parameters here; each is defined once, in analysis/defaults.py.

# %% tags=["remove-input"]
from IPython.display import Markdown, display
import pandas as pd

from analysis.data import CLAIM_STATUSES
from analysis.ledger import check_ledger, claims_ledger, facts_ledger
from analysis.notebook import format_quantity, glue, markdown_table, start
from analysis.sections import get_section

P, R = start("claims", globals())
built = get_section("claims").needs
claims, facts = claims_ledger(built), facts_ledger(built)
check_ledger(claims, facts)  # raises, and so fails the build, if the ledger does not hold
for status in CLAIM_STATUSES:
    R.add(f"claims_{status}", int((claims["status"] == status).sum()), "claims", f"Seed claims with status {status}")
checked = facts[facts["chapter_built"]]
R.add("facts_checked", len(checked), "facts", "Report figures the book recomputes")
R.add("facts_reproduced", int((checked["status"] == "reproduced").sum()), "facts",
      "Report figures reproduced within tolerance")
glue("claims_total", len(claims))
R.add_table("seed_claims", claims, "the seed claims ledger")
R.add_table("report_facts_checked", checked, "the report figures the book recomputes")

# %% [markdown]
# All {glue:text}`claims_total` seed claims have a status: {glue:text}`claims_reproduced` reproduced,
# {glue:text}`claims_corrected` corrected, {glue:text}`claims_context` context,
# {glue:text}`claims_unverifiable` unverifiable and {glue:text}`claims_pending` pending. Of the
# report's own figures, the book recomputes {glue:text}`facts_checked` and reproduces
# {glue:text}`facts_reproduced` of them within tolerance.
#
# ## The seed's claims

# %% tags=["remove-input"]
def _original(c) -> str:
    if pd.isna(c.original_value):
        return "—"
    text = format_quantity(c.original_value, c.original_unit)
    if pd.notna(c.original_high):
        text += f" to {format_quantity(c.original_high, c.original_unit)}"
    link = f"[{c.source_id}]({c.url})" if isinstance(c.url, str) else c.source_id
    return f"{text} ({c.fact_id}; {link})"


rows = []
for c in claims.itertuples():
    book = format_quantity(c.book_value, c.book_unit) if pd.notna(c.book_value) else "—"
    chapter = f"{{ref}}`{c.section} <chapter-{c.section}>`" if c.chapter_built else c.section
    rows.append((f"**{c.claim_id}** {c.claim}", c.seed_value if isinstance(c.seed_value, str) else "—",
                 _original(c), book, f"**{c.status}**", chapter, c.explanation))
display(Markdown(markdown_table(["Claim", "Seed says", "Original source", "This book", "Status", "Chapter", "Why"], rows)))

# %% [markdown]
# ## The report's own figures, recomputed
#
# Each row is a number printed by SemiAnalysis (fact ids from the book's `data/report_facts.csv`)
# and the result the book's model gives for it. *Context* rows are compared but not expected to
# match; their notes say why.

# %% tags=["remove-input"]
rows = []
for f in checked.itertuples():
    report = format_quantity(f.report_value, f.unit)
    if pd.notna(f.report_high):
        report += f" to {format_quantity(f.report_high, f.unit)}"
    diff = f"{(f.book_value / f.report_value - 1) * 100:+.1f} %"
    tolerance = f"±{f.tolerance_rel:.1%}" if pd.notna(f.tolerance_rel) else "—"
    rows.append((f.fact_id, f.quantity, report, format_quantity(f.book_value, f.unit), diff, tolerance,
                 f.status, f"{{ref}}`{f.section} <chapter-{f.section}>`", f.note if isinstance(f.note, str) else ""))
display(Markdown(markdown_table(["Fact", "Quantity", "Report", "This book", "Difference", "Tolerance", "Status",
                                 "Chapter", "Note"], rows)))
R.save()
