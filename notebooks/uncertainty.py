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
# (chapter-uncertainty)=
# # How sure are these numbers?

# %% tags=["parameters", "remove-cell"]
# Generated from analysis/params/defaults.py by `python -m analysis notebooks --sync`; edit the
# definitions there. papermill IN OUT -p NAME VALUE overrides any of these; start() checks each
# value against its range and refuses a name this chapter does not take.
h100_allin_usd: float = 250000.0  # USD per server; a number from 1,000 to 3,000,000. H100 server all-in: with storage, networking and other items
h100_gpus_per_server: int = 8  # GPUs; an integer from 1 to 64. GPUs in one H100 (HGX) server
gb200_allin_usd: float = 3900000.0  # USD per rack; a number from 100,000 to 30,000,000. GB200 NVL72 rack all-in: with networking, storage and other items
gb200_gpus_per_rack: int = 72  # GPUs; an integer from 1 to 576. GPUs in one GB200 NVL72 rack
useful_life_years: float = 4.0  # years; a number from 1 to 10. Years over which capex is recovered
cost_of_capital: float = 0.1  # per year; a number from 0 to 0.5. Annual cost of capital (discount rate) for amortizing capex
utilization: float = 1.0  # fraction; a number from 0.05 to 1. Share of hours a GPU is in paid or productive use
h100_it_w_per_gpu: float = 1389.0  # W per GPU; a number from 100 to 10,000. All-in critical IT power per H100: chip, server share, network, storage
gb200_it_w_per_gpu: float = 1833.0  # W per GPU; a number from 100 to 5,000. All-in critical IT power per GB200 GPU in an NVL72 rack
pue: float = 1.25  # ratio; a number from 1 to 3. Power usage effectiveness: facility power / critical IT power
tariff_usd_per_kwh: float = 0.078  # USD/kWh; a number from 0 to 1. Electricity tariff
datacenter_usd_per_kw_month: float = 130.0  # USD per kW-month; a number from 0 to 1,000. Datacenter space and infrastructure per kW of critical IT, power excluded
maintenance_basis: str = 'parts'  # basis; one of: parts, support contract. How maintenance is paid: failed parts and labour, or a vendor's support contract
gpu_swap_share: float = 0.68  # fraction; a number from 0 to 1. Share of GPU faults that end in hardware swapped
gpu_share_of_server_price: float = 0.818  # fraction of the server price; a number from 0 to 1. A replacement GPU's price as a share of the server price per GPU
warranty_years: float = 3.0  # years; a number from 0 to 10. Years the OEM's warranty replaces failed parts at no charge
swap_person_hours: float = 4.0  # person-hours per swap; a number from 0 to 100. Technician time to swap one failed part
technician_usd_per_hour: float = 180.0  # USD per person-hour; a number from 0 to 2,000. Price of an hour of a datacenter technician
spares_restock_days: float = 30.0  # days; a number from 0 to 365. Days a failed part takes to be replaced in the spares pool
support_frac_per_year: float = 0.2  # fraction of the server price per year; a number from 0 to 1. A vendor's support contract a year, as a share of the server price
h100_server_usd: float = 190000.0  # USD per server; a number from 1,000 to 2,000,000. Price of one 8-GPU H100 server, typical hyperscaler
gb200_rack_usd: float = 3100000.0  # USD per rack; a number from 100,000 to 20,000,000. Price of one GB200 NVL72 rack, typical hyperscaler
gb200_gpu_fault_ratio: float = 1.0  # x; a number from 0.1 to 10. GB200 GPU, memory and host fault rate per GPU-hour relative to Llama 3's H100s
other_usd_per_gpu_month: float = 0.0  # USD per GPU-month; a number from 0 to 1,000. Other operating costs (insurance, software, monitoring, staff)
load_factor: float = 0.82  # fraction; a number from 0.05 to 1. Average draw as a fraction of rated facility power while training
household_kwh_per_year: float = 10791.0  # kWh per household-year; a number from 1,000 to 50,000. Electricity use of an average US household in a year
job_gpus: int = 16384  # GPUs; an integer from 8 to 2,000,000. GPUs in the training job whose reliability-adjusted cost is compared
checkpoint_write_seconds: float = 10.0  # s; a number from 0.1 to 3,600. Time training pauses to write one persistent checkpoint
failure_detection_minutes: float = 2.0  # minutes; a number from 0 to 120. Time from a failure until the job stops to recover
restart_minutes: float = 5.0  # minutes; a number from 0 to 600. Time to restart after a failure: swap in healthy nodes, re-initialise, reload the checkpoint
h100_repair_hours: float = 24.0  # hours; a number from 0.1 to 2,000. Time a failed H100 server (8 GPUs) is out of service
gb200_repair_hours: float = 48.0  # hours; a number from 0.1 to 2,000. Time a failed GB200 NVL72 rack (its NVLink domain) is out of service
gb200_blast_radius_gpus: int = 72  # GPUs; an integer from 1 to 576. GPUs taken out of service by one GB200 NVL72 fault until repaired
gb200_nvlink_faults_per_rack_month: float = 1.0  # faults per rack-month; a number from 0 to 30. NVLink backplane, switch-tray and cable faults per GB200 NVL72 rack, beyond GPU and host faults
mc_draws: int = 100000  # draws; an integer from 1,000 to 10,000,000. Monte Carlo draws of the uncertain inputs
mc_seed: int = 20250820  # seed; an integer from 0 to 4,294,967,295. Seed of the Monte Carlo's random generator

# %% tags=["remove-input"]
from IPython.display import Markdown, display

from analysis.chapters import uncertainty as chapter
from analysis.figures import uncertainty as figures
from analysis.page.notebook import glue, glue_figure, publish, save, start
from analysis.page.tables import answer_from_results

P, upstream = start("uncertainty", globals(), show_parameters=False)
R = chapter.compute(P, upstream)
publish(R, P)
display(Markdown(answer_from_results(R, figures.ANSWER, figures.verdict(R), more=figures.ANSWER_MORE)))
from analysis.page.notebook import offer_table

offer_table(R, "bands", R.tables["bands"].reset_index(names="output"), "point estimates and P10 / P50 / P90 bands")

# %% tags=["remove-input"]
glue_figure("fig_uncertainty_bands", figures.bands_figure(R))

# %% [markdown]
# {numref}`fig-uncertainty-bands` shows how far each headline result can move when every uncertain
# input is drawn within its range.
#
# ```{glue:figure} fig_uncertainty_bands
# :name: fig-uncertainty-bands
# :alt: Horizontal bars, one per headline result, spanning P10 to P90 as ratios to the point estimate, with a tick at the median and a dotted vertical line at 1.
#
# The middle 80 % of each result, as a ratio to its point estimate.
# ```
#
# In this build the downtime-adjusted break-even has the widest band, and the most lopsided, because
# its GB200 reliability inputs are assumptions that can run far above their defaults; the costs per
# GPU-hour and per token move by similar amounts either way.

# %% [markdown]
# SemiAnalysis prints point estimates. This chapter gives each uncertain input of the book a range,
# from cited data where there is one and as a stated assumption where there is not
# (`data/distributions.csv`), draws all of them together many times, and pushes every draw through
# the same functions the other chapters use. The result is a band for each headline number, and a
# ranking of what moves it most. A band here reads plainly: P10 is the value that nine draws in ten
# exceed, P50 the middle draw, and P90 the value that only one draw in ten exceeds. The headline
# results are the cost of a Llama 3.1 405B token, the {term}`TCO` of each GPU-hour and the speed-up
# GB200 needs to break even with H100. Rerun it with your own centre values or more draws:
# `python -m analysis run uncertainty -p tariff_usd_per_kwh 0.12 -p mc_draws 1000000`.

# %% tags=["remove-input"]
from analysis.page.notebook import show_parameters

show_parameters(P, R)

# %% [markdown]
# ## The inputs and their ranges
#
# Triangular distributions peak at this build's value and run from the low to the high; uniform
# ones give every value in the range the same weight. *cited* ranges come from sources in the
# bibliography; *assumption* ranges are the book's, and the note says why.

# %% tags=["remove-input"]
display(Markdown(figures.inputs_markdown(R)))
offer_table(R, "inputs", R.tables["inputs"], "the uncertain inputs and their ranges")

# %% [markdown]
# ## Bands for the headline numbers
#
# {glue:text}`monte_carlo_draws_count:,.0f` draws, seeded so that every rebuild gives the same bands. The point
# estimate is the model at this build's values; P10 and P90 bound the middle 80 % of the draws.

# %% tags=["remove-input"]
display(Markdown(figures.bands_markdown(R)))

# %% [markdown]
# A band is lopsided where its inputs' ranges are: the tariff's cited range runs much further
# above the default than below it, and the assumed GB200 backplane fault rate can be many times
# higher than the default but not much lower. Where a median differs from its point estimate,
# that asymmetry is why.

# %% [markdown]
# ## What drives the cost of a token and the break-even
#
# A tornado chart moves one input at a time from its low to its high, with every other input at this
# build's value, and ranks the inputs by how far the result swings. Each bar is labelled with what
# the input means; its name in `data/distributions.csv` and in the parameter table is in the
# downloadable data below. A tornado ignores how inputs combine, which the bands above capture, but
# it says where better data would narrow a band most: a long bar on an assumed range is the first
# place to look.
# {numref}`fig-uncertainty-tornado-cost` ranks the inputs for the cost of a token and
# {numref}`fig-uncertainty-tornado-breakeven` for GB200's break-even.

# %% tags=["remove-input"]
glue_figure("fig_uncertainty_tornado_cost", figures.tornado_figure(R, "tornado_cost"))
glue_figure("fig_uncertainty_tornado_breakeven", figures.tornado_figure(R, "tornado_breakeven"))
offer_table(R, "tornado_cost", R.tables["tornado_cost"], "one-at-a-time swings of the cost per 1M tokens")
offer_table(R, "tornado_breakeven", R.tables["tornado_breakeven"], "one-at-a-time swings of GB200's break-even")
glue("top_cost_driver", chapter.top_driver(R, "tornado_cost"))
glue("top_breakeven_driver", chapter.top_driver(R, "tornado_breakeven"))

# %% [markdown]
# ```{glue:figure} fig_uncertainty_tornado_cost
# :name: fig-uncertainty-tornado-cost
# :alt: Tornado chart of the Llama 3.1 405B cost per million tokens, one horizontal bar pair per input, sorted by swing, the largest at the top.
#
# Inputs ranked by how far the cost of a token swings between their low and high; in this build the
# largest swing comes from this input: {glue:text}`top_cost_driver`.
# ```
#
# In this build the long bars are what a GPU costs to own, not what it draws: better data on life and
# prices would narrow the cost band faster than a better tariff. Maintenance, built from the parts
# that fail, is several bars (the warranty, the share of faults that swap a GPU, the part's price,
# labour, spares); together they make {glue:text}`maintenance_share_of_h100_tco_band_pct:.0f` % of the
# H100 TCO's P10-P90 band: held at this build's values, the band narrows from
# \${glue:text}`h100_tco_band_width_usd_per_gpu_hour:.2f` to
# \${glue:text}`h100_tco_band_width_without_maintenance_usd_per_gpu_hour:.2f` per GPU-hour.
#
# ```{glue:figure} fig_uncertainty_tornado_breakeven
# :name: fig-uncertainty-tornado-breakeven
# :alt: Tornado chart of GB200's downtime-adjusted break-even speed-up, one bar pair per input, sorted by swing.
#
# Inputs ranked by how far GB200's downtime-adjusted break-even swings; in this build the largest
# swing comes from this input: {glue:text}`top_breakeven_driver`. The GB200 reliability inputs are assumptions:
# the numbers the report's paywalled reliability section would have settled.
# ```
#
# Prices and GB200's reliability lead this ranking. The prices are quoted in public; the reliability
# is assumed, so published fault rates for GB200 racks would narrow this band the most.

# %% tags=["remove-cell"]
save(R)
