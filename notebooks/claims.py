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

# %% tags=["parameters", "remove-cell"]
# The runner injects this chapter's parameters here; each is defined once, in analysis/defaults.py.

# %% tags=["remove-input"]
from IPython.display import Markdown, display

from analysis.chapters import claims as chapter
from analysis.figures import claims as figures
from analysis.notebook import start
from analysis.tables import answer_from_results

P, R = start("claims", globals(), show_parameters=False)
E = chapter.compute(P, R.upstream)  # raises, and so fails the build, if the ledger does not hold
R.record(E)
display(Markdown(answer_from_results(R, figures.ANSWER, more=figures.ANSWER_MORE)))
R.add_table("seed_claims", E.tables["seed_claims"], "the seed claims ledger")
R.add_table("report_facts_checked", E.tables["report_facts_checked"], "the report figures the book recomputes")

# %% [markdown]
# This book started from two short second-hand summaries of {term}`SemiAnalysis <SA>` reports, and several of
# their numbers are wrong. Every claim they make is a row here, set against the original source and
# against what the book computes, and so is every figure of the reports that the book checks, once
# each, however many chapters show it. A status says what an agreement is worth:
#
# - **reproduced independently**: the book recomputes the figure from inputs that neither include
#   it nor were tuned to it (other sources, or the report's own stated inputs) and lands within
#   the row's tolerance;
# - **reproduced by calibration**: it lands within tolerance only because an input was calibrated
#   to it; it confirms the arithmetic, not the figure;
# - **input quoted**: the figure, or a unit conversion of it, is the book's input, shown back; it
#   agrees by construction;
# - **corrected**: the figure does not hold (a seed that misquotes its source, or a report figure
#   that its own inputs or its primary source contradict); the book shows both and says why;
# - **context**: cited or compared but not expected to match; the row says why;
# - **unverifiable**: no public source; the book says so and shows what its model implies;
# - **pending**: the chapter that settles it is not written yet.
#
# Tolerances are {glue:text}`tolerance_without_reason_frac:.0%` or less unless the row says why the source's own rounding needs more. The
# *difference* column is measured from the nearer end of the source's range (zero inside it), and
# it is the number the status is judged by: the build fails if an agreeing row leaves its
# tolerance, if a corrected report figure turns out to agree, if a claim has no status, or if a
# row names a result that its chapter does not produce, so this page cannot silently go stale.
# Tolerances are checked where a chapter ran with its default parameters, the report's inputs;
# when you rebuild with your own, the rows show where your numbers land.

# %% tags=["remove-input"]
from analysis.notebook import show_parameters

show_parameters(P, R)

# %% [markdown]
# All {glue:text}`claims_total_count:d` seed claims have a status:
# {glue:text}`claims_reproduced_independently_count:d` reproduced independently,
# {glue:text}`claims_reproduced_by_calibration_count:d` reproduced by calibration,
# {glue:text}`claims_input_quoted_count:d` input quoted, {glue:text}`claims_corrected_count:d` corrected,
# {glue:text}`claims_context_count:d` context, {glue:text}`claims_unverifiable_count:d` unverifiable and
# {glue:text}`claims_pending_count:d` pending. The book checks {glue:text}`facts_checked_count:d` of the
# reports' own figures, in {glue:text}`facts_checked_places_count:d` places
# ({glue:text}`facts_shown_in_several_chapters_count:d` of them appear in more than one chapter, and count
# once). It reproduces {glue:text}`facts_reproduced_independently_count:d` independently and
# {glue:text}`facts_reproduced_by_calibration_count:d` by calibration; {glue:text}`facts_input_quoted_count:d`
# are its own inputs quoted back, {glue:text}`facts_corrected_count:d` are corrected and
# {glue:text}`facts_context_count:d` are context.
#
# ## The seed's claims

# %% tags=["remove-input"]
display(Markdown(figures.claims_markdown(E)))

# %% [markdown]
# ## The report's own figures, recomputed
#
# Each row is a number printed by SemiAnalysis (fact ids from the book's `data/report_facts.csv`)
# and the result the book's model gives for it, in the chapter that computes it; *also in* lists
# the other chapters that show the same number. *Corrected* and *context* rows differ from the
# report, and their notes say by how much and why.

# %% tags=["remove-input"]
display(Markdown(figures.facts_markdown(E)))

# %% tags=["remove-cell"]
R.save()
