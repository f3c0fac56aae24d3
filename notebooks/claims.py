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
# Generated from analysis/params/defaults.py by `python -m analysis notebooks --sync`; edit the
# definitions there. papermill IN OUT -p NAME VALUE overrides any of these; start() checks each
# value against its range and refuses a name this chapter does not take.
# This chapter has no parameters of its own.

# %% tags=["remove-input"]
from IPython.display import Markdown, display

from analysis.chapters import claims as chapter
from analysis.figures import claims as figures
from analysis.page.notebook import offer_table, publish, save, show_table, start
from analysis.page.tables import answer_from_results

P, upstream = start("claims", globals(), show_parameters=False)
R = chapter.compute(P, upstream)  # raises, and so fails the build, if the ledger does not hold
publish(R, P)
display(Markdown(answer_from_results(R, figures.ANSWER, figures.verdict(R), more=figures.ANSWER_MORE)))
offer_table(R, "seed_claims", R.tables["seed_claims"], "the seed claims ledger")
offer_table(R, "report_facts_checked", R.tables["report_facts_checked"], "the report figures the book recomputes")
offer_table(R, "ranges", R.tables["ranges"], "each row that depends on a default, at the ends of that default's range")

# %% [markdown]
# This book started from two short second-hand summaries of {term}`SemiAnalysis <SA>` reports, and several of
# their numbers are wrong. Every claim they make is a row here, set against the original source and
# against what the book computes, and so is every figure of the reports that the book checks, once
# each, however many chapters show it. A status says what an agreement is worth:

# %% tags=["remove-input"]
display(Markdown(figures.statuses_markdown()))

# %% [markdown]
# Which status a row may have is not the book's say-so. While a chapter computes, the package
# records every report number each result reads (a report fact, a row of a data table that cites
# the report, a parameter whose default is a report's figure) and every parameter; a row's *More*
# fold lists them under *reads from the report*. A row marked independent must read none, and a consistency
# row must read some; where a row reads a default that has a sourced range, the chapter is computed
# again at each end of it, and a row that agrees at the default but not across the range must say
# it depends on that default. The build fails when any of this does not hold.
#
# Tolerances are {glue:text}`tolerance_without_reason_frac:.0%` or less unless the row says why the source's own rounding needs more. The
# *difference* column is measured from the nearer end of the source's range (zero inside it), and
# it is the number the status is judged by: the build fails if an agreeing row leaves its
# tolerance, if a corrected report figure turns out to agree, if a claim has no status, or if a
# row names a result that its chapter does not produce, so this page cannot silently go stale.
# Tolerances are checked where a chapter ran with its default parameters, the report's inputs;
# when you rebuild with your own, the rows show where your numbers land.

# %% tags=["remove-input"]
from analysis.page.notebook import show_parameters

show_parameters(P, R)

# %% [markdown]
# All {glue:text}`claims_total_count:d` seed claims have a status:
# {glue:text}`claims_reproduced_independently_count:d` reproduced independently,
# {glue:text}`claims_consistency_count:d` consistency checks,
# {glue:text}`claims_depends_on_default_count:d` that depend on a chosen default,
# {glue:text}`claims_reproduced_by_calibration_count:d` reproduced by calibration,
# {glue:text}`claims_input_quoted_count:d` input quoted, {glue:text}`claims_corrected_count:d` corrected,
# {glue:text}`claims_context_count:d` context, {glue:text}`claims_unverifiable_count:d` unverifiable and
# {glue:text}`claims_pending_count:d` pending. The book checks {glue:text}`facts_checked_count:d` of the
# reports' own figures, in {glue:text}`facts_checked_places_count:d` places
# ({glue:text}`facts_shown_in_several_chapters_count:d` of them appear in more than one chapter, and count
# once). It reproduces {glue:text}`facts_reproduced_independently_count:d` independently, finds
# {glue:text}`facts_consistency_count:d` consistent with the report's own inputs and
# {glue:text}`facts_depends_on_default_count:d` agreeing or not depending on a default the report does
# not state; {glue:text}`facts_reproduced_by_calibration_count:d` are reproduced by calibration,
# {glue:text}`facts_input_quoted_count:d` are its own inputs quoted back, {glue:text}`facts_corrected_count:d`
# are corrected and {glue:text}`facts_context_count:d` are context. The last section lists the
# {glue:text}`facts_not_checked_count:d` report figures it does not check, and why.
#
# ## The seed's claims

# %% tags=["remove-input"]
display(figures.claims_table(R))

# %% [markdown]
# ## The report's own figures, recomputed
#
# Each row is a number printed by SemiAnalysis (fact ids from the book's `data/report_facts.csv`)
# and the result the book's model gives for it, in the chapter that computes it; *also in* lists
# the other chapters that show the same number. *Corrected* and *context* rows differ from the
# report, and their notes say by how much and why. The corrected rows are shown. Type in the filter,
# or show all, for the others.

# %% tags=["remove-input"]
display(figures.facts_table(R))

# %% [markdown]
# ## The report's figures the book does not check
#
# Every other figure of the two reports is checked above, read by a chapter as an input or the
# framing of a question, or cited in the chapter that discusses it. These are not, and each says why.

# %% tags=["remove-input"]
show_table(R, figures.not_checked_markdown(R))

# %% tags=["remove-cell"]
save(R)
