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
# (chapter-opex)=
# # Opex: what an H100 and a GB200 GPU cost to run

# %% tags=["parameters", "remove-cell"]
# The runner injects this chapter's parameters here; each is defined once, in analysis/params/defaults.py.

# %% tags=["remove-input"]
from IPython.display import Markdown, display

from analysis.chapters import opex as chapter
from analysis.figures import opex as figures
from analysis.page.notebook import claims_table, glue_facts, glue_figure, glue_seed_numbers, publish, start
from analysis.page.tables import answer_from_results

P, upstream = start("opex", globals(), show_parameters=False)
R = chapter.compute(P, upstream)
publish(R, P)
display(Markdown(answer_from_results(R, figures.ANSWER, figures.verdict(R), more=figures.ANSWER_MORE)))
glue_facts("C01_w_per_gpu", "C02_w_per_gpu", "A13_h100_usd_per_gpu_hour", "C05_pue_google", "C05_pue_industry_2022")
glue_seed_numbers("S09_h100_opex", "S09_gb200_opex")

# %% tags=["remove-input"]
glue_figure("fig_opex_breakdown", figures.breakdown(R))

# %% [markdown]
# {numref}`fig-opex-breakdown` stacks one month of running costs per GPU, item by item, for both
# systems.
#
# ```{glue:figure} fig_opex_breakdown
# :name: fig-opex-breakdown
# :alt: Two stacked bars of monthly opex per GPU, H100 and GB200 NVL72, split into power, datacenter, maintenance and support, and other, with dollar labels and totals.
#
# Maintenance, which scales with capex, is the largest item and widens the GB200's total the most;
# power and the datacenter rent follow the watts.
# ```
#
# At this build's tariff, electricity, the item most often quoted, is the smallest of the three in
# both bars: a GPU's running cost is mostly its upkeep and its space.

# %% [markdown]
# Once bought, a GPU costs money every month: electricity for it and for its share of the servers,
# network, storage and cooling; datacenter space; maintenance and support; and smaller items. This
# chapter builds that cost item by item, per GPU per month, for both systems. Rerun it with your
# own tariff or cooling: `python -m analysis run opex -p tariff_usd_per_kwh 0.12 -p pue 1.2`.

# %% tags=["remove-input"]
from analysis.page.notebook import show_parameters

show_parameters(P, R)

# %% [markdown]
# ## Watts: from the chip to the whole share of the cluster
#
# The chip is the smaller part of the load. SemiAnalysis's DGX H100 build-up adds CPUs, NICs,
# fans and power-supply losses to reach {glue:text}`fact_C01_w_per_gpu:,.0f` W per GPU at the
# server, and the SuperPOD's storage, management servers and switches to reach
# {glue:text}`fact_C02_w_per_gpu:,.0f` W of critical IT per GPU. For GB200 the report's figure is
# behind its paywall; the book derives {glue:text}`gb200_it_w_per_gpu:,.0f` W from the {term}`NVL72` rack's
# power (see the Assumptions appendix). The facility then draws {term}`PUE` times the IT load at the meter.
# The electricity is billed at the average draw, the {glue:text}`load_factor_frac:.0%` of that rating a
# GPU draws while it trains (measured on H100 nodes; `load_factor`), the energy basis of every chapter;
# the datacenter rent is charged on the rated IT power, the capacity it reserves.

# %% tags=["remove-input"]
display(Markdown(figures.items_table(R)))
from analysis.page.notebook import offer_table

offer_table(R, "opex_items", R.tables["items"].reset_index(), "opex items per GPU-month")

# %% [markdown]
# A GB200 GPU costs \${glue:text}`gb200_opex_usd_per_gpu_month:,.0f` a month to run against
# \${glue:text}`h100_opex_usd_per_gpu_month:,.0f` for an H100, {glue:text}`gb200_to_h100_opex_ratio:.2f`x,
# although its chip draws {glue:text}`gb200_chip_w:,.0f` W against {glue:text}`h100_chip_w:,.0f` W.
# Electricity alone rises only {glue:text}`gb200_to_h100_power_ratio:.2f`x, because the chip is only
# part of the power; maintenance, which scales with the price, rises with the capex ratio,
# {glue:text}`gb200_to_h100_capex_ratio:.2f`x. The report's point (A10) that the {term}`opex` gap is modest
# next to the capex gap holds on these independent inputs, and the opex ratio stays below the capex ratio.

# %% [markdown]
# ## Where the rates come from: public sources, not the seed
#
# SemiAnalysis does not publish its opex items. The book takes each rate from public sources
# (`data/cost_anchors.csv`):
#
# - **Datacenter**: \${glue:text}`datacenter_usd_per_kw_month:.0f` per kW of critical IT per month, the
#   midpoint of CBRE's \$120-140 for wholesale-sized footprints in Northern Virginia (H2 2023), the
#   space hyperscalers and AI operators lease. Wholesale rents are quoted *modified gross*:
#   electricity is billed separately, so power stays its own item above. Smaller 250-500 kW
#   deployments pay more; all the rents found run from \${glue:text}`colocation_anchor_low_usd_per_kw_month:.0f`
#   to \${glue:text}`colocation_anchor_high_usd_per_kw_month:.0f` per kW-month.
# - **Maintenance and support**: {glue:text}`maintenance_pct_per_year:.0f` % of capex a year, an
#   assumption. Only weak sources exist: support contracts at 10-30 % of the purchase price a year,
#   20 % for a DGX H100 at list price. A hyperscaler that repairs its own fleet may pay less, and no
#   public source says how much; this is the least certain item of the opex.
# - **Other** (insurance, software, staff): not estimated, zero by default, so that every dollar
#   has a source. Set `other_usd_per_gpu_month` to add your own.

# %% tags=["remove-input"]
display(Markdown(figures.anchors_table(R)))

# %% [markdown]
# ## The seed's totals, checked
#
# The summary this book started from gives the cluster opex as \${glue:text}`seed_S09_h100_opex:,.0f`
# per H100 and \${glue:text}`seed_S09_gb200_opex:,.0f` per GB200 per month. Those two numbers appear
# in no public text of the report (claim S09: *unverifiable*). The book's independent totals are
# {glue:text}`h100_opex_vs_seed_pct:.0f` % and {glue:text}`gb200_opex_vs_seed_pct:.0f` % above them.
# To reach the seed's totals with this build's power, the datacenter would have to cost
# \${glue:text}`seed_implied_datacenter_usd_per_kw_month:.0f` per kW-month and maintenance
# {glue:text}`seed_implied_maintenance_pct_per_year:.1f` % of capex a year. That rent is below every
# market rate found above. An earlier edition of this book used those two rates as its defaults;
# they are now a check, not an input.

# %% [markdown]
# ## Opex against the tariff and the cooling
#
# Electricity prices differ widely between regions, and cooling overhead (PUE) runs from under
# {glue:text}`fact_C05_pue_google:.2f` in Google's halls to an industry average of
# {glue:text}`fact_C05_pue_industry_2022:.2f`. The lines of {numref}`fig-opex-vs-tariff` vary
# both for an H100 and a GB200 GPU, everything else as in this build.

# %% tags=["remove-input"]
glue_figure("fig_opex_vs_tariff", figures.vs_tariff(R, P.tariff_usd_per_kwh))
offer_table(R, "opex_vs_tariff", R.tables["vs_tariff"], "opex per GPU-month against tariff and PUE")

# %% [markdown]
# ```{glue:figure} fig_opex_vs_tariff
# :name: fig-opex-vs-tariff
# :alt: Rising straight lines of monthly opex per GPU against tariff from zero to three times this build's, for H100 and GB200, each at three PUE values, with a dotted line at this build's tariff.
#
# Opex rises linearly with the tariff, with a slope set by the all-in watts times PUE; the GB200's
# steeper slope is its higher all-in power per GPU.
# ```
#
# Every line starts far above zero, because rent and maintenance do not depend on the price of
# power: a site with cheap electricity saves less than its tariff suggests, and better cooling (a
# lower PUE) pays more the dearer the power.

# %% [markdown]
# ## The seed's claims, checked

# %% tags=["remove-input"]
display(Markdown(claims_table("opex", R)))
R.save()
