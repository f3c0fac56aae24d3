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
# Generated from analysis/params/defaults.py by `python -m analysis notebooks --sync`; edit the
# definitions there. papermill IN OUT -p NAME VALUE overrides any of these; start() checks each
# value against its range and refuses a name this chapter does not take.
h100_allin_usd: float = 250000.0  # USD per server; a number from 1,000 to 3,000,000. H100 server all-in: with storage, networking and other items
h100_gpus_per_server: int = 8  # GPUs; an integer from 1 to 64. GPUs in one H100 (HGX) server
gb200_allin_usd: float = 3900000.0  # USD per rack; a number from 100,000 to 30,000,000. GB200 NVL72 rack all-in: with networking, storage and other items
gb200_gpus_per_rack: int = 72  # GPUs; an integer from 1 to 576. GPUs in one GB200 NVL72 rack
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
useful_life_years: float = 4.0  # years; a number from 1 to 10. Years over which capex is recovered
cost_of_capital: float = 0.1  # per year; a number from 0 to 0.5. Annual cost of capital (discount rate) for amortizing capex
other_usd_per_gpu_month: float = 0.0  # USD per GPU-month; a number from 0 to 1,000. Other operating costs (insurance, software, monitoring, staff)
load_factor: float = 0.82  # fraction; a number from 0.05 to 1. Average draw as a fraction of rated facility power while training

# %% tags=["remove-input"]
from IPython.display import Markdown, display

from analysis.chapters import opex as chapter
from analysis.figures import opex as figures
from analysis.page.notebook import claims_table, glue_facts, glue_figure, glue_money, glue_seed_numbers, publish, start
from analysis.page.tables import answer_from_results

P, upstream = start("opex", globals(), show_parameters=False)
R = chapter.compute(P, upstream)
publish(R, P)
display(Markdown(answer_from_results(R, figures.ANSWER, figures.verdict(R), more=figures.ANSWER_MORE)))
glue_facts("C01_w_per_gpu", "C02_w_per_gpu", "A13_h100_usd_per_gpu_hour", "C05_pue_google", "C05_pue_industry_2022")
glue_seed_numbers("S09_h100_opex", "S09_gb200_opex")
glue_money(R, "h100_gpu_part_usd", "gb200_gpu_part_usd")

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
# Power and the datacenter rent follow the watts; maintenance, built from the parts that fail,
# follows the price of a replacement GPU.
# ```
#
# At this build's tariff, electricity, the item most often quoted, is
# \${glue:text}`h100_power_usd_per_gpu_month:,.0f` of the H100's
# \${glue:text}`h100_opex_usd_per_gpu_month:,.0f` a month: a GPU's running cost is mostly its space.

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
# part of the power; maintenance follows the price of the GPU that fails,
# {glue:text}`gb200_gpu_part_usd_money` against {glue:text}`h100_gpu_part_usd_money`. The report's point
# (A10) that the {term}`opex` gap is modest next to the capex gap, {glue:text}`gb200_to_h100_capex_ratio:.2f`x,
# holds on these independent inputs.

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
# - **Maintenance**: built from its parts, in the next section, with the figures behind each part
#   in the table below.
# - **Other** (insurance, software, staff): not estimated, zero by default, so that every dollar
#   has a source. Set `other_usd_per_gpu_month` to add your own.

# %% tags=["remove-input"]
display(Markdown(figures.anchors_table(R)))

# %% [markdown]
# ## Maintenance, built from the parts that fail
#
# No vendor publishes what GPU servers cost to keep running, so the book builds the bill from what
# breaks, what it costs, and who pays ({numref}`fig-opex-maintenance`):
#
# - **How often a GPU is swapped.** In Llama 3's pre-training,
#   {glue:text}`llama3_gpu_faults_per_gpu_year_pct:.1f` % of GPUs a year hit a GPU fault (the GPU, its HBM3 and SRAM, its system processor, its thermal
#   interface, silent data corruption; Meta's 54-day snapshot on 16,384 H100s). Those are job
#   interruptions, not replacements: many clear with a reset or a remapped memory row. On Crusoe's H200
#   cluster {glue:text}`gpu_swap_share_pct:.0f` % of GPU fault cases ended with the host swapped out, so
#   {glue:text}`h100_gpu_swaps_per_gpu_year_pct:.1f` % of H100s are swapped a year.
# - **What a swapped GPU costs.** The GPU's share of the server price,
#   {glue:text}`gpu_share_of_server_price_pct:.0f` %: {glue:text}`h100_gpu_part_usd_money` for an H100 and
#   {glue:text}`gb200_gpu_part_usd_money` for a GB200. Raymond James's 2023 sale price of an H100 and
#   NVIDIA's quoted price of a Blackwell GPU are beside it in the table above. The all-in share would
#   also replace the network and storage, which do not fail with the GPU.
# - **Who pays for the part.** The OEM, for the first {glue:text}`warranty_years:g` years of a life of
#   {glue:text}`useful_life_years:g` years (an assumption: no public source gives the warranty on an
#   HGX or NVL72 system; NVIDIA's own is a "limited standard warranty" of unstated length,
#   {ref}`NVIDIA 2024 <src-nvidia_enterprise_support_guide>`); the owner for the other
#   {glue:text}`out_of_warranty_pct:.0f` %.
# - **Labour and spares.** Every swap, and the rarer NIC, transceiver and host-part swaps, takes
#   {glue:text}`swap_person_hours:g` person-hours at \${glue:text}`technician_usd_per_hour:.0f` an hour, a
#   colocation operator's remote-hands rate. A pool of spare GPUs covers the swaps of the
#   {glue:text}`spares_restock_days:g` days a failed part takes to be replaced, carried at the capital charge.

# %% tags=["remove-input"]
display(Markdown(figures.maintenance_table(R)))
offer_table(R, "maintenance", R.tables["maintenance"], "maintenance per GPU-month, item by item")
glue_figure("fig_opex_maintenance", figures.maintenance_build_up(R))

# %% [markdown]
# ```{glue:figure} fig_opex_maintenance
# :name: fig-opex-maintenance
# :alt: Horizontal bars of maintenance per GPU-month for H100 and GB200 NVL72: a short stacked bar built from GPUs replaced, other parts, labour and spares, then longer bars for the earlier default, a share of capex, and for a support contract at list price.
#
# Maintenance built from its parts, beside the book's earlier default and a vendor's support
# contract at list price.
# ```
#
# Built from its parts, an H100's maintenance is \${glue:text}`h100_maintenance_usd_per_gpu_month:,.0f` a
# month, {glue:text}`h100_maintenance_vs_earlier_default_pct:.0f` % of the
# \${glue:text}`h100_maintenance_earlier_default_usd_per_gpu_month:,.0f` of the book's earlier default,
# {glue:text}`earlier_default_maintenance_pct_per_year:.1f` % of capex a year. That default counted every
# GPU and HBM3 fault in Llama 3's log as a whole GPU replaced at its share of the all-in price, network
# and storage included, with no warranty: an upper bound on the parts, not an estimate. A vendor's
# support contract at list price, {glue:text}`support_pct_per_year:.0f` % of the server price a year (a
# DGX H100 figure from a blog), would cost \${glue:text}`h100_support_contract_usd_per_gpu_month:,.0f`; it
# is the basis of an enterprise buying a few servers, not of a fleet that swaps its own parts. Set
# `maintenance_basis` to `support contract` to price it that way. With no warranty every failed GPU
# is bought, and the H100's maintenance is \${glue:text}`h100_maintenance_without_warranty_usd_per_gpu_month:,.0f`
# a month.

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
from analysis.page.notebook import save

save(R)
