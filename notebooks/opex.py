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
#
# Once bought, a GPU costs money every month: electricity for it and for its share of the servers,
# network, storage and cooling; datacenter space; maintenance and support; and smaller items. This
# chapter builds that cost item by item, per GPU per month, for both systems. Rerun it with your
# own tariff or cooling: `python -m analysis run opex -p tariff_usd_per_kwh 0.12 -p pue 1.2`.

# %% tags=["parameters", "remove-cell"]
# The runner injects this chapter's parameters here; each is defined once, in analysis/defaults.py.

# %% tags=["remove-input"]
import numpy as np
from IPython.display import Markdown, display

from analysis import capex, hardware, opex
from analysis.data import fact, load_table
from analysis.notebook import claims_table, glue, glue_facts, glue_figure, start
from analysis.plots import PALETTE, add_source, new_figure

P, R = start("opex", globals())
glue_facts("C01_w_per_gpu", "C02_w_per_gpu", "A13_h100_usd_per_gpu_hour", "C05_pue_google", "C05_pue_industry_2022")

# %% [markdown]
# ## Watts: from the chip to the whole share of the cluster
#
# The chip is the smaller part of the load. SemiAnalysis's DGX H100 build-up adds CPUs, NICs,
# fans and power-supply losses to reach {glue:text}`fact_C01_w_per_gpu:,.0f` W per GPU at the
# server, and the SuperPOD's storage, management servers and switches to reach
# {glue:text}`fact_C02_w_per_gpu:,.0f` W of critical IT per GPU. For GB200 the report's figure is
# behind its paywall; the book derives {glue:text}`gb200_it_w_per_gpu:,.0f` W from the NVL72 rack's
# power (see the Assumptions appendix). The facility then draws PUE times the IT load at the meter.

# %% tags=["hide-input"]
capex_per_gpu = {"h100": capex.per_gpu_usd(P.h100_allin_usd, P.h100_gpus_per_server),
                 "gb200": capex.per_gpu_usd(P.gb200_allin_usd, P.gb200_gpus_per_rack)}
it_w = {"h100": P.h100_it_w_per_gpu, "gb200": P.gb200_it_w_per_gpu}
chips = {"h100": "h100_sxm", "gb200": "gb200_nvl72"}
items = {}
for name in ("h100", "gb200"):
    R.add(f"{name}_chip_w", hardware.tdp_w(chips[name]), "W", f"{name.upper()} chip power (TDP)")
    items[name] = opex.opex_items_usd_per_gpu_month(
        it_w[name], P.pue, P.tariff_usd_per_kwh, P.datacenter_usd_per_kw_month, capex_per_gpu[name],
        P.maintenance_frac_per_year, P.other_usd_per_gpu_month)
    for item, usd in items[name].items():
        R.add(f"{name}_{item.split()[0]}_usd_per_gpu_month", usd, "USD per GPU-month", f"{name.upper()} opex: {item}")
    R.add(f"{name}_opex_per_gpu_month_usd", sum(items[name].values()), "USD per GPU-month", f"{name.upper()} opex per GPU-month")
R.add("gb200_to_h100_opex_ratio", R["gb200_opex_per_gpu_month_usd"] / R["h100_opex_per_gpu_month_usd"], "x",
      "GB200 / H100 opex per GPU")
glue("gb200_it_w_per_gpu", P.gb200_it_w_per_gpu)

# %% tags=["remove-input"]
rows = ["| Item, USD per GPU-month | H100 | GB200 NVL72 |", "|---|---|---|"]
rows += [f"| {item} | {items['h100'][item]:,.1f} | {items['gb200'][item]:,.1f} |" for item in items["h100"]]
rows.append(f"| **total** | **{R['h100_opex_per_gpu_month_usd']:,.1f}** | **{R['gb200_opex_per_gpu_month_usd']:,.1f}** |")
display(Markdown("\n".join(rows)))

# %% [markdown]
# A GB200 GPU costs \${glue:text}`gb200_opex_per_gpu_month_usd:,.0f` a month to run against
# \${glue:text}`h100_opex_per_gpu_month_usd:,.0f` for an H100, {glue:text}`gb200_to_h100_opex_ratio:.2f`x,
# although its chip draws {glue:text}`gb200_chip_w:,.0f` W against {glue:text}`h100_chip_w:,.0f` W. The
# report's point (A10) holds: the per-GPU opex gap is modest next to the capex gap, because the
# chip is only part of the power and power is only part of the opex.

# %% [markdown]
# ## Where the defaults come from: a calibration, said openly
#
# The summary this book started from gives the cluster opex as \${glue:text}`seed_S09_h100_opex:,.0f`
# per H100 and \${glue:text}`seed_S09_gb200_opex:,.0f` per GB200 per month. Those two numbers appear
# in no public text of the report (claim S09: *unverifiable*); they may come from its paywalled TCO
# table. They are, however, consistent with the report's \${glue:text}`fact_A13_h100_usd_per_gpu_hour:.2f`
# per H100-hour basis (see the {ref}`TCO chapter <chapter-tco>`). The book therefore keeps power
# computed from cited watts, PUE and tariff, fixes "other" as a small assumption, and solves for
# the two unknown rates, datacenter \$ per kW-month and maintenance as a share of capex, that make
# the two totals come out. The solve, with this build's other inputs:

# %% tags=["hide-input"]
seeds = load_table("seed_numbers").set_index("number_id")["value"]
targets = (seeds["S09_h100_opex"], seeds["S09_gb200_opex"])
rate, fraction = opex.calibrate_datacenter_and_maintenance(
    targets, (it_w["h100"], it_w["gb200"]), (capex_per_gpu["h100"], capex_per_gpu["gb200"]),
    P.pue, P.tariff_usd_per_kwh, P.other_usd_per_gpu_month)
R.add("calibrated_datacenter_usd_per_kw_month", rate, "USD per kW-month", "Datacenter rate that reproduces the seed's opex")
R.add("calibrated_maintenance_frac_per_year", fraction, "fraction per year", "Maintenance share that reproduces the seed's opex")
glue("seed_S09_h100_opex", targets[0])
glue("seed_S09_gb200_opex", targets[1])
glue("calibrated_maintenance_pct", fraction * 100)
glue("maintenance_pct", P.maintenance_frac_per_year * 100)
glue("datacenter_usd_per_kw_month", P.datacenter_usd_per_kw_month)

# %% [markdown]
# The solve gives \${glue:text}`calibrated_datacenter_usd_per_kw_month:.1f` per kW-month and
# {glue:text}`calibrated_maintenance_pct:.2f` % of capex a year; the defaults round them to
# \${glue:text}`datacenter_usd_per_kw_month:.0f` and {glue:text}`maintenance_pct:.2f` %. Both are
# plausible for a hyperscaler that owns its buildings (retail colocation, power excluded, costs
# more per kW) and for hardware support contracts. If you change the tariff or the PUE, the
# defaults stay put and the totals move away from \${glue:text}`seed_S09_h100_opex:,.0f` and
# \${glue:text}`seed_S09_gb200_opex:,.0f`: the calibration is a starting point, not a law.

# %% tags=["remove-input"]
fig, ax = new_figure("Opex per GPU-month, item by item", "", "USD per GPU-month", figsize=(6.5, 4.2))
names = ["H100", "GB200 NVL72"]
bottom = np.zeros(2)
colours = [PALETTE["orange"], PALETTE["blue"], PALETTE["green"], PALETTE["purple"]]
for item, colour in zip(items["h100"], colours, strict=True):
    values = np.array([items["h100"][item], items["gb200"][item]])
    ax.bar(names, values, bottom=bottom, color=colour, width=0.55, label=item)
    for x, (v, b) in enumerate(zip(values, bottom, strict=True)):
        if v > 15:
            ax.text(x, b + v / 2, f"${v:,.0f}", ha="center", va="center", fontsize=9, color="white")
    bottom += values
for x, total in enumerate(bottom):
    ax.text(x, total, f"${total:,.0f}", ha="center", va="bottom", fontsize=9, fontweight="bold")
ax.legend(loc="upper left", fontsize=8)
add_source(fig, "power from SemiAnalysis build-ups (C02) and the NVL72 rack; datacenter and maintenance "
           "calibrated to the seed's totals (S09); other assumed.")
glue_figure("fig_opex_breakdown", fig)

# %% [markdown]
# ```{glue:figure} fig_opex_breakdown
# :name: fig-opex-breakdown
# :alt: Two stacked bars of monthly opex per GPU, H100 and GB200 NVL72, split into power, datacenter, maintenance and support, and other, with dollar labels and totals.
#
# Power is the largest single item for both, but maintenance, which scales with capex, is what
# widens the GB200's total the most.
# ```

# %% [markdown]
# ## Opex against the tariff and the cooling
#
# Electricity prices differ widely between regions, and cooling overhead (PUE) runs from under
# {glue:text}`fact_C05_pue_google:.2f` in Google's halls to an industry average of
# {glue:text}`fact_C05_pue_industry_2022:.2f`. The lines below vary both for an H100 and a GB200 GPU,
# everything else as in this build.

# %% tags=["remove-input"]
tariffs = np.linspace(0, 3 * P.tariff_usd_per_kwh, 50)
pues = sorted({fact("C05_pue_google"), P.pue, fact("C05_pue_industry_2022")})
fig, ax = new_figure("Opex per GPU-month against electricity tariff", "Tariff (USD per kWh)", "USD per GPU-month")
for name, colour in (("h100", PALETTE["blue"]), ("gb200", PALETTE["vermillion"])):
    for pue_value, style in zip(pues, (":", "-", "--"), strict=True):
        totals = [sum(opex.opex_items_usd_per_gpu_month(
            it_w[name], pue_value, t, P.datacenter_usd_per_kw_month, capex_per_gpu[name],
            P.maintenance_frac_per_year, P.other_usd_per_gpu_month).values()) for t in tariffs]
        ax.plot(tariffs, totals, ls=style, color=colour, label=f"{name.upper()}, PUE {pue_value:.2f}")
ax.axvline(P.tariff_usd_per_kwh, color=PALETTE["black"], lw=0.8, ls=":")
ax.set_ylim(bottom=0)
ax.legend(fontsize=8, ncol=2)
add_source(fig, "opex model of this chapter; PUE values from SemiAnalysis 2024 (C05: Google <1.10, "
           "industry 1.55) and this build.")
glue_figure("fig_opex_vs_tariff", fig)

# %% [markdown]
# ```{glue:figure} fig_opex_vs_tariff
# :name: fig-opex-vs-tariff
# :alt: Rising straight lines of monthly opex per GPU against tariff from zero to three times this build's, for H100 and GB200, each at three PUE values, with a dotted line at this build's tariff.
#
# Opex rises linearly with the tariff, with a slope set by the all-in watts times PUE; the GB200's
# steeper slope is its higher all-in power per GPU.
# ```

# %% [markdown]
# ## The seed's claims, checked

# %% tags=["remove-input"]
display(Markdown(claims_table("opex", R)))
R.save()
