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
# (chapter-scenarios)=
# # Scenarios side by side

# %% tags=["parameters", "remove-cell"]
# Generated from analysis/params/defaults.py by `python -m analysis notebooks --sync`; edit the
# definitions there. papermill IN OUT -p NAME VALUE overrides any of these; start() checks each
# value against its range and refuses a name this chapter does not take.
# This chapter has no parameters of its own.

# %% tags=["remove-input"]
from IPython.display import Markdown, display

from analysis.chapters import scenarios as chapter
from analysis.figures import scenarios as figures
from analysis.page.notebook import glue_figure, publish, save, start
from analysis.page.tables import answer_from_results

P, upstream = start("scenarios", globals(), show_parameters=False)
R = chapter.compute(P, upstream)
publish(R, P)
display(Markdown(answer_from_results(R, figures.ANSWER, figures.verdict(R), more=figures.ANSWER_MORE)))

# %% tags=["remove-input"]
glue_figure("fig_scenarios_compare", figures.compare(R))

# %% [markdown]
# {numref}`fig-scenarios-compare` sets each shipped scenario's headline results against the report's
# defaults.
#
# ```{glue:figure} fig_scenarios_compare
# :name: fig-scenarios-compare
# :alt: Grouped horizontal bars, one group per headline result, one bar per scenario, as ratios to the report-defaults scenario, with a vertical line at 1.
#
# Each scenario's headline results as a ratio to the report's defaults. Power prices move the
# cost of a token a little; financing and capex move it a lot; a mature GB200 moves only its
# downtime-adjusted break-even.
# ```
#
# In the shipped scenarios the energy rows do not move: prices and financing change what a token
# costs, not what it draws. To move the energy, a scenario has to change the watts, the PUE or the
# throughput.

# %% [markdown]
# A scenario is a small YAML file in `data/scenarios/` that changes a few of the book's parameters
# and says why. This page evaluates the headline results of every shipped scenario with the same
# functions the chapters use. To see your own situation, copy one of the files, edit it, and run
#
# ```bash
# python -m analysis compare data/scenarios/report-defaults.yaml my-scenario.yaml
# python -m analysis build --scenario my-scenario.yaml     # the whole book, every page for that scenario
# ```

# %% tags=["remove-input"]
from analysis.page.notebook import show_parameters

show_parameters(P, R)

# %% [markdown]
# ## The scenarios
#
# The book ships {glue:text}`scenarios_shipped_count:.0f` scenario files; the first holds the report's
# defaults, and every other one changes a few inputs from there. A scenario names only the
# parameters it changes; every other input keeps the value and the source it has in the
# Assumptions appendix. The files are checked like any other input: an unknown
# parameter name or a value outside its valid range stops the build, and the error names the file
# and the line that are wrong.

# %% tags=["remove-input"]
display(Markdown(figures.files_markdown(R)))

# %% [markdown]
# ## Headline results
#
# Each column is one scenario, evaluated with the same point model that the uncertainty chapter's
# bands are centred on: the {term}`TCO` per {term}`GPU-hour` of both systems, the speed-up GB200 needs to pay off
# with and without its downtime, and the cost, energy and household-years of a Llama 3.1 405B
# token. The point model is the chapters' own functions, so the first column repeats their
# numbers. Reading across a row shows which scenario moves which result, and by how much;
# {numref}`fig-scenarios-compare` shows the same as ratios to the report's defaults.

# %% tags=["remove-input"]
display(Markdown(figures.results_markdown(R)))
from analysis.page.notebook import offer_table

offer_table(R, "scenarios", R.tables["scenarios"], "headline results of every shipped scenario")

# %% tags=["remove-cell"]
save(R)
