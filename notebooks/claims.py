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

from analysis.chapters import claims as chapter
from analysis.figures import claims as figures
from analysis.notebook import start

P, R = start("claims", globals())
E = chapter.compute(P, R.upstream)  # raises, and so fails the build, if the ledger does not hold
R.record(E)
R.add_table("seed_claims", E.tables["seed_claims"], "the seed claims ledger")
R.add_table("report_facts_checked", E.tables["report_facts_checked"], "the report figures the book recomputes")

# %% [markdown]
# All {glue:text}`claims_total_count:.0f` seed claims have a status: {glue:text}`claims_reproduced_count:.0f` reproduced,
# {glue:text}`claims_corrected_count:.0f` corrected, {glue:text}`claims_context_count:.0f` context,
# {glue:text}`claims_unverifiable_count:.0f` unverifiable and {glue:text}`claims_pending_count:.0f` pending. Of the
# report's own figures, the book recomputes {glue:text}`facts_checked_count:.0f` and reproduces
# {glue:text}`facts_reproduced_count:.0f` of them within tolerance.
#
# ## The seed's claims

# %% tags=["remove-input"]
display(Markdown(figures.claims_markdown(E)))

# %% [markdown]
# ## The report's own figures, recomputed
#
# Each row is a number printed by SemiAnalysis (fact ids from the book's `data/report_facts.csv`)
# and the result the book's model gives for it. *Context* rows are compared but not expected to
# match; their notes say why.

# %% tags=["remove-input"]
display(Markdown(figures.facts_markdown(E)))

# %% tags=["remove-cell"]
R.save()
