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
#
# A scenario is a small YAML file in `data/scenarios/` that changes a few of the book's parameters
# and says why. This page evaluates the headline results of every shipped scenario with the same
# functions the chapters use. To see your own situation, copy one of the files, edit it, and run
#
# ```bash
# python -m analysis compare data/scenarios/report-defaults.yaml my-scenario.yaml
# python -m analysis build --scenario my-scenario.yaml     # the whole book, every page for that scenario
# ```

# %% tags=["parameters", "remove-cell"]
# The runner injects this chapter's parameters here; each is defined once, in analysis/defaults.py.

# %% tags=["remove-input"]
from IPython.display import Markdown, display

from analysis import scenarios
from analysis.notebook import format_quantity, glue_figure, markdown_table, start
from analysis.plots import compare_figure

P, R = start("scenarios", globals())
shipped = scenarios.shipped()
table = scenarios.compare(shipped)
names = [s.name for s in shipped]
R.add("scenarios_shipped", len(shipped), "scenarios", "Scenario files shipped with the book")
for s in shipped:
    for key in table.index:
        R.add(f"{s.path.stem.replace('-', '_')}__{key}", table.loc[key, s.name], table.loc[key, "unit"],
              f"{s.name}: {table.loc[key, 'label']}", glue=False)

# %% [markdown]
# ## The scenarios
#
# The book ships {glue:text}`scenarios_shipped` scenario files; the first holds the report's
# defaults, and every other one changes a few inputs from there.

# %% tags=["remove-input"]
display(Markdown(markdown_table(
    ["Scenario", "File", "Changes", "Why"],
    [(s.name, f"`{s.path.name}`", ", ".join(f"`{k}` = {v:,}" if isinstance(v, (int, float)) else f"`{k}` = {v}"
                                             for k, v in s.overrides.items()) or "none", s.description)
     for s in shipped])))

# %% [markdown]
# ## Headline results

# %% tags=["remove-input"]
display(Markdown(markdown_table(
    ["Result", *names],
    [(row["label"], *(format_quantity(row[n], row["unit"]) for n in names)) for _, row in table.iterrows()])))

# %% tags=["remove-input"]
R.add_table("scenarios", table.reset_index(names="output"), "headline results of every shipped scenario")
glue_figure("fig_scenarios_compare", compare_figure(table, names))

# %% [markdown]
# ```{glue:figure} fig_scenarios_compare
# :name: fig-scenarios-compare
# :alt: Grouped horizontal bars, one group per headline result, one bar per scenario, as ratios to the report-defaults scenario, with a vertical line at 1.
#
# Each scenario's headline results as a ratio to the report's defaults. Power prices move the
# cost of a token a little; financing and capex move it a lot; a mature GB200 moves only its
# downtime-adjusted break-even.
# ```

# %% tags=["remove-cell"]
R.save()
