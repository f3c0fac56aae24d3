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
# (chapter-tco)=
# # TCO: dollars per GPU-hour and per million tokens
#
# Total cost of ownership per GPU-hour is the capital charge from the {ref}`capex chapter
# <chapter-capex>` plus the running cost from the {ref}`opex chapter <chapter-opex>`. SemiAnalysis
# prices every H100 training token at its TCO with no rental margin, and argues that GB200 NVL72
# must be faster per GPU by its TCO ratio to be worth buying ({ref}`SemiAnalysis, 2025
# <src-sa_gb200_2025>`). This chapter rebuilds both numbers from the stated inputs, prices every
# benchmark run per million tokens, and compares owning with renting. Rerun it with your own
# inputs: `python -m analysis run tco -p tariff_usd_per_kwh 0.12 -p cost_of_capital 0.12`.

# %% tags=["parameters", "remove-cell"]
# The runner injects this chapter's parameters here; each is defined once, in analysis/defaults.py.

# %% tags=["remove-input"]
import numpy as np
from IPython.display import Markdown, display

from analysis import capex, costs, opex, tco
from analysis.benchmarks import load_benchmarks, pick
from analysis.data import fact, load_table
from analysis.measure.report import fmt, load_measured, measured_results, measured_section_markdown, usd_per_exaflop
from analysis.notebook import bands_table, claims_table, comparison_table, glue, glue_facts, glue_figure, start
from analysis.opex import HOURS_PER_MONTH
from analysis.plots import PALETTE, add_source, new_figure
from analysis.units import TERA

P, R = start("tco", globals())
glue_facts("A12_tco_ratio", "A13_h100_usd_per_gpu_hour")

# %% [markdown]
# ## TCO per GPU-hour

# %% tags=["hide-input"]
systems = {"h100": (P.h100_allin_usd, P.h100_gpus_per_server, P.h100_it_w_per_gpu),
           "gb200": (P.gb200_allin_usd, P.gb200_gpus_per_rack, P.gb200_it_w_per_gpu)}
capex_per_gpu, opex_month = {}, {}
for name, (allin, gpus, it_w) in systems.items():
    capex_per_gpu[name] = capex.per_gpu_usd(allin, gpus)
    opex_month[name] = opex.opex_usd_per_gpu_month(
        it_w_per_gpu=it_w, pue=P.pue, tariff_usd_per_kwh=P.tariff_usd_per_kwh,
        datacenter_usd_per_kw_month=P.datacenter_usd_per_kw_month, capex_usd_per_gpu=capex_per_gpu[name],
        maintenance_frac_per_year=P.maintenance_frac_per_year, other_usd_per_gpu_month=P.other_usd_per_gpu_month)
    R.add(f"{name}_capex_usd_per_gpu_hour", capex.capex_per_gpu_hour_usd(
        capex_per_gpu[name], P.cost_of_capital, P.useful_life_years, P.utilization),
        "USD per GPU-hour", f"{name.upper()} capital charge per GPU-hour")
    R.add(f"{name}_opex_usd_per_gpu_hour", opex_month[name] / (HOURS_PER_MONTH * P.utilization),
          "USD per GPU-hour", f"{name.upper()} opex per GPU-hour")
    R.add(f"{name}_tco_per_gpu_hour_usd", tco.tco_per_gpu_hour_usd(
        capex_per_gpu[name], opex_month[name], P.cost_of_capital, P.useful_life_years, P.utilization),
        "USD per GPU-hour", f"{name.upper()} TCO per GPU-hour")
R.add("gb200_breakeven_speedup", tco.breakeven_speedup(R["gb200_tco_per_gpu_hour_usd"], R["h100_tco_per_gpu_hour_usd"]),
      "x", "GB200 per-GPU speed-up needed to match H100 performance per TCO")
R.add("h100_capex_share_of_tco", R["h100_capex_usd_per_gpu_hour"] / R["h100_tco_per_gpu_hour_usd"], "fraction",
      "Capital's share of H100 TCO")
glue("h100_capex_share_pct", R["h100_capex_share_of_tco"] * 100)

# %% tags=["remove-input"]
display(Markdown("\n".join([
    "| USD per GPU-hour | H100 | GB200 NVL72 |", "|---|---|---|",
    f"| capital charge | {R['h100_capex_usd_per_gpu_hour']:.3f} | {R['gb200_capex_usd_per_gpu_hour']:.3f} |",
    f"| opex | {R['h100_opex_usd_per_gpu_hour']:.3f} | {R['gb200_opex_usd_per_gpu_hour']:.3f} |",
    f"| **TCO** | **{R['h100_tco_per_gpu_hour_usd']:.3f}** | **{R['gb200_tco_per_gpu_hour_usd']:.3f}** |"])))
display(Markdown(comparison_table(R, [("h100_tco_per_gpu_hour_usd", "A13_h100_usd_per_gpu_hour"),
                                      ("gb200_breakeven_speedup", "A12_tco_ratio")])))

# %% [markdown]
# An H100 costs \${glue:text}`h100_tco_per_gpu_hour_usd:.2f` per hour to own and run, of which
# {glue:text}`h100_capex_share_pct:.0f` % is capital; a GB200 GPU costs
# \${glue:text}`gb200_tco_per_gpu_hour_usd:.2f`. The ratio, {glue:text}`gb200_breakeven_speedup:.2f`x,
# is the speed-up per GPU that GB200 must deliver to match the H100's training work per TCO dollar;
# the report puts it at about {glue:text}`fact_A12_tco_ratio:.1f`x.

# %% [markdown]
# ### How the \$1.42 basis pins the cost of capital
#
# The report prices H100 time at \${glue:text}`fact_A13_h100_usd_per_gpu_hour:.2f` per GPU-hour but
# does not say how it gets there. Subtracting this build's opex per hour leaves
# \${glue:text}`capital_needed_usd_per_gpu_hour:.3f` per hour for capital; over a
# {glue:text}`useful_life_years:g`-year life that is a cost of capital of
# {glue:text}`solved_cost_of_capital_pct:.2f` %, which the default rounds to
# {glue:text}`cost_of_capital_pct:.1f` %. A life one year longer would need
# {glue:text}`solved_cost_of_capital_5y_pct:.1f` %.

# %% tags=["remove-cell"]
capital_needed = fact("A13_h100_usd_per_gpu_hour") - R["h100_opex_usd_per_gpu_hour"]
glue("capital_needed_usd_per_gpu_hour", capital_needed)
glue("useful_life_years", P.useful_life_years)
glue("cost_of_capital_pct", P.cost_of_capital * 100)
solved = capex.solve_cost_of_capital(capex_per_gpu["h100"], capital_needed, P.useful_life_years, P.utilization)
R.add("calibrated_cost_of_capital", solved, "per year", "Cost of capital that makes H100 TCO the report's $1.42/h")
glue("solved_cost_of_capital_pct", solved * 100)
glue("solved_cost_of_capital_5y_pct", capex.solve_cost_of_capital(
    capex_per_gpu["h100"], capital_needed, P.useful_life_years + 1, P.utilization) * 100)

# %% [markdown]
# ## Dollars per million training tokens
#
# A benchmark's tokens per second per GPU turn the hourly TCO into a price per token:
# \$/1M tokens = TCO per GPU-hour / 3,600 / (tokens/s/GPU) x 10⁶. Where a publisher reports only
# MFU, the FLOP accounting of the {ref}`cluster chapter <chapter-cluster>` converts it to tokens/s
# first. H100 rows use the H100 TCO and GB200 rows the GB200 TCO.

# %% tags=["hide-input"]
bench = load_benchmarks()
tco_by_gpu = {"h100_sxm": R["h100_tco_per_gpu_hour_usd"], "gb200_nvl72": R["gb200_tco_per_gpu_hour_usd"]}
bench = bench[bench["gpu_id"].isin(list(tco_by_gpu))].copy()
bench["usd_per_million_tokens"] = costs.usd_per_million_tokens(bench["gpu_id"].map(tco_by_gpu), bench["tokens_per_s_per_gpu"])
gpt3_jan = pick(bench, publisher="SemiAnalysis", model_id="gpt3_175b", precision="fp8", date="2024-01")
gpt3_dec = pick(bench, publisher="SemiAnalysis", model_id="gpt3_175b", precision="fp8", date="2024-12")
l405 = pick(bench, source_id="nv_dgxc_v25_02", model_id="llama31_405b", precision="bf16", gpus=2304)
R.add("gpt3_175b_fp8_usd_per_million_tokens_jan2024", gpt3_jan["usd_per_million_tokens"], "USD per 1M tokens",
      "GPT-3 175B FP8, Jan 2024 software, per 1M tokens")
R.add("gpt3_175b_fp8_usd_per_million_tokens", gpt3_dec["usd_per_million_tokens"], "USD per 1M tokens",
      "GPT-3 175B FP8, Dec 2024 software, per 1M tokens")
R.add("llama3_405b_bf16_usd_per_million_tokens", l405["usd_per_million_tokens"], "USD per 1M tokens",
      "Llama 3.1 405B BF16 on 2,304 H100, per 1M tokens")
R.add("gpt3_175b_fp8_cost_300b_tokens_usd",
      costs.run_cost_usd(fact("A23_train_tokens"), tco_by_gpu["h100_sxm"], gpt3_dec["tokens_per_s_per_gpu"]),
      "USD", "GPT-3 175B FP8 on its 300B tokens, Dec 2024 software")
R.add("llama3_405b_bf16_cost_15t_tokens_usd",
      costs.run_cost_usd(fact("A35_train_tokens"), tco_by_gpu["h100_sxm"], l405["tokens_per_s_per_gpu"]),
      "USD", "Llama 3.1 405B BF16 on 15T tokens, one successful run")
glue("gpt3_jan_cents", R["gpt3_175b_fp8_usd_per_million_tokens_jan2024"] * 100)
glue("gpt3_dec_cents", R["gpt3_175b_fp8_usd_per_million_tokens"] * 100)
glue("l405_cost_musd", R["llama3_405b_bf16_cost_15t_tokens_usd"] / 1e6)
glue("train_tokens_405b_t", fact("A35_train_tokens") / 1e12)

# %% tags=["remove-input"]
display(Markdown(comparison_table(R, [
    ("gpt3_175b_fp8_usd_per_million_tokens_jan2024", "A22_fp8_cost_per_1m_jan2024"),
    ("gpt3_175b_fp8_usd_per_million_tokens", "A22_fp8_cost_per_1m_dec2024"),
    ("gpt3_175b_fp8_cost_300b_tokens_usd", "A23_gpt3_fp8_cost_dec2024"),
    ("llama3_405b_bf16_usd_per_million_tokens", "A34_405b_bf16_cost_per_1m"),
    ("llama3_405b_bf16_cost_15t_tokens_usd", "A35_405b_15t_cost")])))

# %% [markdown]
# GPT-3 175B in FP8 cost {glue:text}`gpt3_jan_cents:.1f`¢ per million tokens with January 2024
# software and {glue:text}`gpt3_dec_cents:.1f`¢ with December 2024 software, on the same H100s.
# Llama 3.1 405B in BF16 costs \${glue:text}`llama3_405b_bf16_usd_per_million_tokens:.2f` per million
# tokens, \${glue:text}`l405_cost_musd:.1f`M for {glue:text}`train_tokens_405b_t:.0f`T tokens: one
# successful run, before any experiment, failure or restart. Every benchmark row:

# %% tags=["remove-input"]
R.add_table("usd_per_million_tokens_by_row", bench[["model_id", "gpu_id", "precision", "gpus", "software", "date",
                                                    "tokens_per_s_per_gpu", "basis", "usd_per_million_tokens",
                                                    "source_id"]], "cost per 1M tokens for every benchmark row")
models = load_table("models").set_index("model_id")["name"]
lines = [":::{admonition} Cost per 1M tokens for every benchmark row (H100 and GB200 TCO of this build)",
         ":class: dropdown", "",
         "| Model | GPU | Precision | GPUs | Software | tokens/s/GPU | basis | USD per 1M tokens |",
         "|---|---|---|---|---|---|---|---|"]
for r in bench.sort_values(["model_id", "gpu_id", "precision", "date", "gpus"]).itertuples():
    lines.append(f"| {models[r.model_id]} | {r.gpu_id} | {r.precision} | {r.gpus:,} | {r.software} | "
                 f"{r.tokens_per_s_per_gpu:,.1f} | {r.basis} | {r.usd_per_million_tokens:.3f} |")
display(Markdown("\n".join([*lines, ":::"])))

# %% [markdown]
# ## The speed-up GB200 must deliver
#
# Performance per TCO dollar is throughput divided by TCO per GPU-hour, so GB200 beats the H100
# only if its per-GPU throughput exceeds the H100's by more than the TCO ratio. The ratio moves
# with what GB200 costs to buy and to run; the chart holds the H100 at this build's TCO.

# %% tags=["remove-input"]
capex_grid = np.linspace(0.5, 1.5, 41) * capex_per_gpu["gb200"]
fig, ax = new_figure("Break-even GB200 speed-up per GPU", "GB200 all-in capex per GPU (USD)",
                     "Speed-up over H100 needed (x)")
for k, colour in zip((0.75, 1.0, 1.25), (PALETTE["sky"], PALETTE["blue"], PALETTE["vermillion"]), strict=True):
    speedups = [tco.breakeven_speedup(tco.tco_per_gpu_hour_usd(c, opex_month["gb200"] * k, P.cost_of_capital,
                                                               P.useful_life_years, P.utilization),
                                      R["h100_tco_per_gpu_hour_usd"]) for c in capex_grid]
    ax.plot(capex_grid, speedups, color=colour, label=f"GB200 opex ${opex_month['gb200'] * k:,.0f}/GPU-month")
ax.plot([capex_per_gpu["gb200"]], [R["gb200_breakeven_speedup"]], "o", color=PALETTE["blue"])
ax.axhline(fact("A12_tco_ratio"), color=PALETTE["black"], lw=0.8, ls=":")
ax.annotate(f"report: ~{fact('A12_tco_ratio'):.1f}x", (capex_grid[0], fact("A12_tco_ratio")), xytext=(2, 4), textcoords="offset points", fontsize=8)
ax.xaxis.set_major_formatter(lambda v, _: f"${v / 1000:,.0f}k")
ax.legend(fontsize=8)
add_source(fig, "TCO model of this chapter (capex: SemiAnalysis 2025; opex calibrated); report ratio A12.")
glue_figure("fig_tco_breakeven", fig)

# %% [markdown]
# ```{glue:figure} fig_tco_breakeven
# :name: fig-tco-breakeven
# :alt: Three rising lines of the GB200 break-even speed-up against GB200 all-in capex per GPU, for lower, equal and higher GB200 opex, with a dot at this build's point and a dotted line at the report's 1.6x.
#
# The speed-up GB200 needs rises in a straight line with its capex per GPU; its opex shifts the
# line up or down.
# ```

# %% [markdown]
# ## Renting against owning
#
# Cloud prices for an H100-hour have ranged widely since 2023. Against the owner's TCO, each dated
# snapshot implies the margin a renter pays (price / TCO - 1); a negative margin means the price is
# below this model's cost of ownership, for a provider with cheaper capital, older hardware already
# depreciated, or a price war.

# %% tags=["hide-input"]
prices = load_table("cloud_prices")
prices["tco_usd_per_gpu_hour"] = prices["gpu_id"].map(tco_by_gpu)
prices["margin_low"] = tco.rental_margin(prices["low_usd_per_gpu_hour"], prices["tco_usd_per_gpu_hour"])
prices["margin_high"] = tco.rental_margin(prices["high_usd_per_gpu_hour"], prices["tco_usd_per_gpu_hour"])
latest = prices[prices["gpu_id"] == "h100_sxm"].sort_values("period").iloc[-1]
R.add("h100_latest_price_margin_low", latest["margin_low"], "fraction", f"Rental margin at the low end of {latest['snapshot_id']}")
R.add("h100_latest_price_margin_high", latest["margin_high"], "fraction", f"Rental margin at the high end of {latest['snapshot_id']}")

# %% tags=["remove-input"]
lines = ["| Snapshot | GPU | Period | USD per GPU-hour | Implied margin over TCO | Source |", "|---|---|---|---|---|---|"]
for r in prices.itertuples():
    price = f"{r.low_usd_per_gpu_hour:.2f}" + ("" if r.high_usd_per_gpu_hour == r.low_usd_per_gpu_hour else f"-{r.high_usd_per_gpu_hour:.2f}")
    margin = f"{r.margin_low:+.0%}" + ("" if r.high_usd_per_gpu_hour == r.low_usd_per_gpu_hour else f" to {r.margin_high:+.0%}")
    lines.append(f"| {r.what} | {r.gpu_id} | {r.period} | {price} | {margin} | {{ref}}`{r.source_id} <src-{r.source_id}>` |")
display(Markdown("\n".join(lines).replace("$", "\\$")))

# %% tags=["remove-input"]
h100_prices = prices[prices["gpu_id"] == "h100_sxm"].reset_index(drop=True)
fig, ax = new_figure("H100 rental prices against the cost of owning", "", "USD per GPU-hour", figsize=(7.5, 4.2))
x = np.arange(len(h100_prices))
ax.vlines(x, h100_prices["low_usd_per_gpu_hour"], h100_prices["high_usd_per_gpu_hour"], color=PALETTE["blue"], lw=6)
ax.plot(x, h100_prices["low_usd_per_gpu_hour"], "_", color=PALETTE["blue"], ms=14)
ax.plot(x, h100_prices["high_usd_per_gpu_hour"], "_", color=PALETTE["blue"], ms=14, label="rental price (range or point)")
ax.axhline(R["h100_tco_per_gpu_hour_usd"], color=PALETTE["vermillion"], lw=1.2, label="TCO of owning, this build")
ax.set_xticks(x, h100_prices["period"], rotation=45, ha="right")
ax.set_ylim(bottom=0)
ax.legend(fontsize=8)
add_source(fig, "dated price snapshots in data/cloud_prices.csv (mostly secondary sources); TCO of this chapter.")
glue_figure("fig_tco_rent_vs_own", fig)

# %% [markdown]
# ```{glue:figure} fig_tco_rent_vs_own
# :name: fig-tco-rent-vs-own
# :alt: Vertical bars of H100 rental price ranges by date from 2023 to 2026, falling over time, against a horizontal line at the TCO of owning.
#
# Rental prices fell from several times the cost of owning in 2023 to around it by late 2025.
# ```

# %% [markdown]
# ## How sure: P10, P50 and P90
#
# Prices, lives, rates and tariffs are not known exactly. Drawing them all within their ranges gives these bands for this chapter's headline numbers (the cost per token is for Llama 3.1 405B in BF16 on 2,304 H100s).

# %% tags=["remove-input"]
display(Markdown(bands_table(P, ('h100_tco_per_gpu_hour_usd', 'gb200_tco_per_gpu_hour_usd', 'gb200_breakeven_speedup', 'usd_per_million_tokens'))))

# %% [markdown]
# ## The seed's claims, checked

# %% tags=["remove-input"]
display(Markdown(claims_table("tco", R)))

# %% [markdown]
# ## Measured on this machine
#
# Everything above is published data: NVIDIA's and SemiAnalysis's throughput on H100 and GB200
# clusters. This section is not. It prices what `python -m analysis measure` measured on the
# machine that built this book: one training step of a small GPT-style model on one device, timed
# with warm-up runs and repeats, its FLOPs counted with the same accounting as the published rows.
# The device's hourly price is a parameter, `local_gpu_hour_usd`, which the default sets for the
# shipped measurement; set your own, e.g. `python -m analysis run tco -p local_gpu_hour_usd 2.0` for a
# GPU rented at that price. The small model's tokens are far cheaper to compute than a 405B model's,
# so the comparison with the published rows is per model FLOP, not per token.

# %% tags=["remove-input"]
measured = load_measured()
for key, (value, unit, label) in measured_results(measured, usd_per_device_hour=P.local_gpu_hour_usd).items():
    R.add(key, value, unit, label)
display(Markdown(measured_section_markdown(measured, usd_per_device_hour=P.local_gpu_hour_usd)))
if "measured_usd_per_exaflop" in R.results:
    R.add("h100_llama3_405b_usd_per_exaflop", usd_per_exaflop(
        R["h100_tco_per_gpu_hour_usd"], l405["tokens_per_s_per_gpu"] * l405["flops_per_token"] / TERA),
        "USD per 1e18 FLOP", "H100 training Llama 3.1 405B BF16 (published throughput), at this chapter's TCO")
    display(Markdown(
        f"For scale, an H100 training Llama 3.1 405B in BF16 at NVIDIA's published throughput "
        f"({l405['mfu'] * 100:.0f} % MFU) costs \\${fmt(R['h100_llama3_405b_usd_per_exaflop'])} per 10^18 model FLOPs "
        f"at this chapter's TCO of \\${R['h100_tco_per_gpu_hour_usd']:.2f} per GPU-hour: the measured device's "
        f"model compute costs {fmt(R['measured_usd_per_exaflop'] / R['h100_llama3_405b_usd_per_exaflop'])} times as much."))

# %% tags=["remove-cell"]
R.save()
