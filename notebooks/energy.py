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
# (chapter-energy)=
# # Energy: joules per token, household-years and cluster power
#
# SemiAnalysis's 2025 benchmark report puts training energy in household terms: an average US
# household used {glue:text}`fact_A26_household_kwh:,.0f` kWh of electricity in 2022, and training
# GPT-3 175B on its {glue:text}`gpt3_tokens_b:.0f` billion tokens takes about
# {glue:text}`fact_A30_gpt3_fp8_household_years:.0f` such household-years in FP8
# ({ref}`SemiAnalysis, 2025 <src-sa_gb200_2025>`). The method is simple:
# the all-in power of each GPU's share of the cluster, grossed up for the datacenter's overhead, is
# what the utility meter sees; divided by the tokens each GPU trains per second, it is joules per
# token. The report prints neither its power per GPU nor its overhead. This chapter recovers both
# from the report's own figures, applies them to every benchmark row in `data/`, shows the range of
# household baselines, scales up to whole clusters of H100s and GB200s, and turns the energy into carbon.

# %% tags=["parameters", "remove-cell"]
# The runner injects this chapter's parameters here; each is defined once, in analysis/defaults.py.

# %% tags=["remove-input"]
import matplotlib.pyplot as plt
import numpy as np
from IPython.display import Markdown, display

from analysis import cluster, energy, hardware
from analysis.benchmarks import load_benchmarks
from analysis.data import fact, load_table, row
from analysis.measure.report import (
    fmt,
    joules_per_tflop,
    load_measured,
    measured_results,
    measured_section_markdown,
)
from analysis.notebook import (
    bands_table,
    claims_table,
    comparison_table,
    format_quantity,
    glue,
    glue_facts,
    glue_figure,
    markdown_table,
    start,
)
from analysis.plots import PALETTE, add_source, new_figure
from analysis.units import JOULES_PER_KWH, TERA

P, R = start("energy", globals())
glue_facts("A26_household_kwh", "A26_household_w", "A28_gpt3_fp8_j_per_token", "A28_gpt3_bf16_j_per_token",
           "A30_gpt3_fp8_household_years", "A30_gpt3_bf16_household_years", "A31_allin_w_per_gpu",
           "A37_405b_j_per_token", "A38_405b_15t_household_years", "A43_households_64", "A43_households_2048",
           "C01_w_per_gpu", "C02_w_per_gpu", "C05_pue_enterprise_colo", "B03_datacenter_mw", "B04_annual_twh")
glue("fact_A43_energy_increase_pct", fact("A43_energy_increase") * 100, display=False)
glue("gpt3_tokens_b", fact("A23_train_tokens") / 1e9, display=False)
glue("llama_tokens_t", fact("A35_train_tokens") / 1e12, display=False)
gpt3_tokens, llama_tokens = fact("A23_train_tokens"), fact("A35_train_tokens")

# %% [markdown]
# ## From IT watts to the meter
#
# SemiAnalysis takes the all-in draw of the benchmark cluster (GPUs, CPUs, networking, storage)
# and grosses it up by "the PUE of a typical colocation datacenter" (A25). Every one of its
# energy figures, multiplied back by the throughput it rests on, gives the same power per H100 at
# the meter: that is the quantity to recover first. The benchmark rows marked SemiAnalysis in
# `data/benchmarks.csv` hold the MFU the report prints; their tokens per second are derived from
# it with the book's FLOP accounting.

# %% tags=["hide-input"]
bench = load_benchmarks()
h100_chip_w, gb200_chip_w = hardware.tdp_w("h100_sxm"), hardware.tdp_w("gb200_nvl72")
SA = "SemiAnalysis"
sa_rows = {  # the benchmark row behind each of SA's energy figures
    "gpt3_fp8": energy.benchmark_row(bench, "gpt3_175b", "h100_sxm", "fp8", 128, SA, "2024-12"),
    "gpt3_bf16": energy.benchmark_row(bench, "gpt3_175b", "h100_sxm", "bf16", 128, SA, "2024-12"),
    "405b_bf16": energy.benchmark_row(bench, "llama31_405b", "h100_sxm", "bf16", 2304, SA),
    "405b_fp8": energy.benchmark_row(bench, "llama31_405b", "h100_sxm", "fp8", 2304, SA),
    "70b_fp8_64": energy.benchmark_row(bench, "llama31_70b", "h100_sxm", "fp8", 64, SA),
    "70b_fp8_2048": energy.benchmark_row(bench, "llama31_70b", "h100_sxm", "fp8", 2048, SA),
}
# SA's 70B figures are household-years; read them back into J/token on SA's own household basis.
sa_kwh = fact("A26_household_kwh")
sa_j_per_token = {
    "gpt3_fp8": fact("A28_gpt3_fp8_j_per_token"),
    "gpt3_bf16": fact("A28_gpt3_bf16_j_per_token"),
    "405b_bf16": fact("A37_405b_j_per_token"),
    "70b_fp8_64": energy.joules_per_token_from_household_years(fact("A43_households_64"), llama_tokens, sa_kwh),
    "70b_fp8_2048": energy.joules_per_token_from_household_years(fact("A43_households_2048"), llama_tokens, sa_kwh),
}
implied_w = {k: energy.meter_w_from_joules_per_token(j, sa_rows[k]["tokens_per_s_per_gpu"])
             for k, j in sa_j_per_token.items()}
R.add("sa_implied_meter_w_per_h100", np.mean(list(implied_w.values())), "W",
      "Meter power per H100 implied by SA's energy figures (mean)")
R.add("sa_implied_meter_w_per_h100_low", min(implied_w.values()), "W", "... the lowest of SA's figures")
R.add("sa_implied_meter_w_per_h100_high", max(implied_w.values()), "W", "... the highest of SA's figures")

meter_h100 = energy.meter_w_per_gpu(P.h100_it_w_per_gpu, P.colo_pue)
R.add("meter_w_per_h100", meter_h100, "W", "Power per H100 at the meter (IT x facility overhead)")
R.add("overhead_w_per_h100", meter_h100 - P.h100_it_w_per_gpu, "W", "Facility overhead per H100")
R.add("implied_pue_at_c01", energy.implied_pue(R["sa_implied_meter_w_per_h100"], fact("C01_w_per_gpu")),
      "ratio", f"Overhead SA's meter power implies over the {fact('C01_w_per_gpu'):,.0f} W server-only IT (C01)")
R.add("implied_pue_at_c02", energy.implied_pue(R["sa_implied_meter_w_per_h100"], fact("C02_w_per_gpu")),
      "ratio", f"Overhead SA's meter power implies over the {fact('C02_w_per_gpu'):,.0f} W all-in IT (C02)")
R.add("it_w_at_colo_pue_low", R["sa_implied_meter_w_per_h100"] / fact("C05_pue_enterprise_colo"), "W",
      "IT watts per H100 SA's meter power implies at an enterprise-colocation PUE (C05, low end)")
R.add("household_w", energy.household_w(P.household_kwh_per_year), "W", "Average draw of one household")
gb200_it_w = energy.it_w_with_chip_swapped(P.h100_it_w_per_gpu, h100_chip_w, gb200_chip_w)
meter_gb200 = energy.meter_w_per_gpu(gb200_it_w, P.colo_pue)
R.add("it_w_per_gb200", gb200_it_w, "W", f"IT power per GB200 GPU ({gb200_chip_w:,.0f} W chip, H100's non-GPU watts)")
R.add("meter_w_per_gb200", meter_gb200, "W", "Power per GB200 GPU at the meter")
glue("h100_it_w_per_gpu", P.h100_it_w_per_gpu, display=False)
glue("colo_pue", P.colo_pue, display=False)
glue("non_gpu_it_w", P.h100_it_w_per_gpu - h100_chip_w, display=False)
glue("h100_chip_w", h100_chip_w, display=False)
glue("sa_energy_figures", len(implied_w), display=False)
glue("gpus_70b_small", sa_rows["70b_fp8_64"]["gpus"], display=False)
glue("gpus_70b_large", sa_rows["70b_fp8_2048"]["gpus"], display=False)
glue("gb200_chip_w", gb200_chip_w, display=False)

# %% [markdown]
# SA's {glue:text}`sa_energy_figures` energy figures (GPT-3 175B in FP8 and BF16, Llama 3 405B in BF16,
# Llama 3 70B in FP8 at {glue:text}`gpus_70b_small:,` and {glue:text}`gpus_70b_large:,` GPUs) imply
# {glue:text}`sa_implied_meter_w_per_h100_low:,.0f` to
# {glue:text}`sa_implied_meter_w_per_h100_high:,.0f` W per H100 at the meter, one fixed number
# within rounding. The chapter splits it into two parameters: the critical IT power per GPU,
# {glue:text}`h100_it_w_per_gpu:,.0f` W from SA's own DGX H100 build-up with its share of storage,
# management and switches (C02), and a facility overhead of {glue:text}`colo_pue:.2f`, calibrated so
# that their product, {glue:text}`meter_w_per_h100:,.0f` W, lands on the report's figures.
#
# The split is not unique. Over the {glue:text}`fact_C01_w_per_gpu:,.0f` W that the server alone
# draws (C01) the same meter power needs an overhead of {glue:text}`implied_pue_at_c01:.2f`; over
# {glue:text}`fact_C02_w_per_gpu:,.0f` W it needs {glue:text}`implied_pue_at_c02:.2f`. Both sit below
# the {glue:text}`fact_C05_pue_enterprise_colo:.1f`-{glue:text}`fact_C05_pue_enterprise_colo_high:.1f`
# that SA's 2024 energy article gives for enterprise colocation; at that PUE the IT load would have
# to be only {glue:text}`it_w_at_colo_pue_low:,.0f` W per GPU. Only the product matters for joules per
# token, so either parameter can be changed; the figure below shows where the watts go. One H100's
# share at the meter draws about as much as {glue:text}`h100_households:.1f` average US households
# ({glue:text}`household_w:,.0f` W each, around the clock).

# %% tags=["remove-cell"]
glue("h100_households", meter_h100 / R["household_w"], display=False)

# %% tags=["remove-input"]
display(Markdown(comparison_table(R, [("meter_w_per_h100", "A31_allin_w_per_gpu"),
                                      ("household_w", "A26_household_w")])))

# %% tags=["remove-input"]
builds = [  # (label, chip W, rest of IT W, facility overhead W)
    (f"H100, {P.h100_it_w_per_gpu:,.0f} W IT (C02) x {P.colo_pue:.2f}",
     h100_chip_w, P.h100_it_w_per_gpu - h100_chip_w, meter_h100 - P.h100_it_w_per_gpu),
    (f"H100, {fact('C01_w_per_gpu'):,.0f} W IT (C01) x {R['implied_pue_at_c01']:.2f}",
     h100_chip_w, fact("C01_w_per_gpu") - h100_chip_w, R["sa_implied_meter_w_per_h100"] - fact("C01_w_per_gpu")),
    (f"GB200, {gb200_it_w:,.0f} W IT (assumed) x {P.colo_pue:.2f}",
     gb200_chip_w, gb200_it_w - gb200_chip_w, meter_gb200 - gb200_it_w),
]
fig, ax = new_figure("Power of one GPU's share, from the chip to the meter", "Watts per GPU", "",
                     figsize=(7.5, 4.0))
parts = (("GPU chip", PALETTE["blue"]), ("Rest of IT: host, network, storage", PALETTE["sky"]),
         ("Facility overhead (PUE)", PALETTE["orange"]))
for i, (label, *watts) in enumerate(builds):
    left = 0.0
    for w, (name, colour) in zip(watts, parts):
        ax.barh(i, w, left=left, color=colour, edgecolor="white", label=name if i == 0 else None)
        ax.text(left + w / 2, i, f"{w:,.0f}", ha="center", va="center", fontsize=8)
        left += w
    ax.text(left + 20, i, f"{left:,.0f} W", va="center", fontsize=8, fontweight="bold")
ax.axvline(R["sa_implied_meter_w_per_h100"], color=PALETTE["vermillion"], lw=1.5, ls="--",
           label="implied by SA's energy figures (A31)")
ax.axvline(R["household_w"], color=PALETTE["black"], lw=1.0, ls=":", label="one US household's average draw")
ax.set_yticks(range(len(builds)), [b[0] for b in builds], fontsize=8)
ax.invert_yaxis()
ax.set_xlim(0, meter_gb200 * 1.15)
ax.grid(axis="y", visible=False)
ax.set_title(ax.get_title(loc="left"), loc="left", pad=42)
ax.legend(loc="lower left", bbox_to_anchor=(0.0, 1.0), ncol=3, fontsize=8)
add_source(fig, "SemiAnalysis 2024 (C01, C02) and 2025 (A31); facility overhead calibrated (colo_pue); "
                "chip power from data/gpus.csv; household from household_kwh_per_year.")
glue_figure("fig_energy_power_build_up", fig)

# %% [markdown]
# ```{glue:figure} fig_energy_power_build_up
# :name: fig-energy-power-build-up
# :alt: Three horizontal stacked bars in watts per GPU, each split into GPU chip, rest of IT and facility overhead: H100 with SA's all-in IT build-up and the calibrated overhead, H100 with the server-only build-up and a larger overhead reaching the same total, and GB200 with its larger chip reaching well beyond both. A dashed line marks the meter power SemiAnalysis's figures imply and a dotted line one household's average draw.
#
# Where one GPU's watts go. The first two bars reach the meter power SemiAnalysis's figures imply
# (dashed) by two different splits; the third swaps in GB200's {glue:text}`gb200_chip_w:,.0f` W chip and
# keeps the H100's {glue:text}`non_gpu_it_w:,.0f` W of host, network and storage per GPU, an
# assumption, since SA's GB200 power figures are behind its paywall. The dotted line is one average
# US household's draw.
# ```

# %% [markdown]
# ## Joules per trained token, for every benchmark row
#
# With the meter power fixed, joules per token is that power divided by each row's tokens per
# second per GPU. The rows SemiAnalysis's figures rest on reproduce them; NVIDIA's own tables for the
# same models and the GB200 NVL72 rows (NVIDIA's public dgxc v25.05 throughput, not SA's paywalled
# GB200 numbers) fill in the rest.

# %% tags=["hide-input"]
bench = energy.add_joules_per_token(bench, {"h100_sxm": meter_h100, "gb200_nvl72": meter_gb200})
sa_rows = {k: bench.loc[r.name] for k, r in sa_rows.items()}  # the same rows, now with J/token
models = load_table("models").set_index("model_id")


def describe(r) -> str:
    """A benchmark row in words, for result labels: model, precision, GPUs, software."""
    return (f"{models.loc[r['model_id'], 'name']}, {r['precision'].upper()}, {r['gpus']:,} "
            f"{'GB200' if r['gpu_id'] == 'gb200_nvl72' else 'H100'}, {r['software']} ({r['publisher']})")


for key, r in (("gpt3_175b_fp8_joules_per_token", sa_rows["gpt3_fp8"]),
               ("gpt3_175b_bf16_joules_per_token", sa_rows["gpt3_bf16"]),
               ("llama3_405b_bf16_joules_per_token", sa_rows["405b_bf16"]),
               ("llama3_405b_fp8_joules_per_token", sa_rows["405b_fp8"]),
               ("llama3_70b_fp8_joules_per_token_64_gpus", sa_rows["70b_fp8_64"]),
               ("llama3_70b_fp8_joules_per_token_2048_gpus", sa_rows["70b_fp8_2048"])):
    R.add(key, r["joules_per_token"], "J/token", describe(r))
R.add("llama3_70b_fp8_energy_increase", R["llama3_70b_fp8_joules_per_token_2048_gpus"]
      / R["llama3_70b_fp8_joules_per_token_64_gpus"] - 1, "fraction",
      "Llama 3 70B FP8: extra J/token at the larger cluster")
gb200_405b = energy.benchmark_row(bench, "llama31_405b", "gb200_nvl72", "bf16", 128, "NVIDIA")
gb200_405b_fp8 = energy.benchmark_row(bench, "llama31_405b", "gb200_nvl72", "fp8", 128, "NVIDIA")
R.add("gb200_llama3_405b_bf16_joules_per_token", gb200_405b["joules_per_token"], "J/token", describe(gb200_405b))
R.add("gb200_llama3_405b_fp8_joules_per_token", gb200_405b_fp8["joules_per_token"], "J/token",
      describe(gb200_405b_fp8))
R.add("gb200_vs_h100_405b_bf16_energy_ratio", R["gb200_llama3_405b_bf16_joules_per_token"]
      / R["llama3_405b_bf16_joules_per_token"], "x", "GB200 / H100 J/token, Llama 3 405B BF16")
R.add("benchmark_rows_with_energy", len(bench), "rows", "Benchmark rows with a J/token")
glue("gpt3_fp8_over_bf16_pct", (1 - R["gpt3_175b_fp8_joules_per_token"] / R["gpt3_175b_bf16_joules_per_token"]) * 100,
     display=False)
glue("j_405b_over_gpt3", R["llama3_405b_bf16_joules_per_token"] / R["gpt3_175b_bf16_joules_per_token"], display=False)
glue("param_ratio_405b_gpt3", models.loc["llama31_405b", "total_params"] / models.loc["gpt3_175b", "total_params"],
     display=False)
glue("flops_ratio_405b_gpt3", sa_rows["405b_bf16"]["flops_per_token"] / sa_rows["gpt3_bf16"]["flops_per_token"],
     display=False)
glue("seq_405b", sa_rows["405b_bf16"]["seq_len"], display=False)
glue("seq_gpt3", sa_rows["gpt3_bf16"]["seq_len"], display=False)
glue("gpt3_software", sa_rows["gpt3_fp8"]["software"], display=False)
glue("gpu_rate_ratio_405b", gb200_405b["tokens_per_s_per_gpu"] / sa_rows["405b_bf16"]["tokens_per_s_per_gpu"],
     display=False)
glue("energy_increase_pct", R["llama3_70b_fp8_energy_increase"] * 100, display=False)
glue("gb200_saving_pct", (1 - R["gb200_vs_h100_405b_bf16_energy_ratio"]) * 100, display=False)
glue("gb200_405b_tok_s", gb200_405b["tokens_per_s_per_gpu"], display=False)
glue("h100_405b_tok_s", sa_rows["405b_bf16"]["tokens_per_s_per_gpu"], display=False)
glue("meter_ratio_gb200_h100", meter_gb200 / meter_h100, display=False)

# %% [markdown]
# GPT-3 175B takes {glue:text}`gpt3_175b_fp8_joules_per_token:.2f` J per token in FP8 and
# {glue:text}`gpt3_175b_bf16_joules_per_token:.2f` J in BF16 on SA's latest software point,
# {glue:text}`gpt3_software` (report:
# {glue:text}`fact_A28_gpt3_fp8_j_per_token:.2f` and {glue:text}`fact_A28_gpt3_bf16_j_per_token:.2f`): FP8
# saves {glue:text}`gpt3_fp8_over_bf16_pct:.0f` % of the energy. Llama 3 405B in BF16 takes
# {glue:text}`llama3_405b_bf16_joules_per_token:.2f` J, {glue:text}`j_405b_over_gpt3:.2f` times GPT-3's
# BF16 figure for {glue:text}`param_ratio_405b_gpt3:.2f` times the parameters. At the same MFU the ratio
# follows the model FLOPs per token, {glue:text}`flops_ratio_405b_gpt3:.2f` times GPT-3's: the extra is
# attention over {glue:text}`seq_405b:,`-token sequences instead of {glue:text}`seq_gpt3:,`.
#
# Scaling Llama 3 70B in FP8 from {glue:text}`gpus_70b_small:,` to {glue:text}`gpus_70b_large:,` GPUs costs
# {glue:text}`energy_increase_pct:.1f` % more energy per token, because MFU falls while
# the power per GPU does not. SA calls this "~{glue:text}`fact_A43_energy_increase_pct:.0f` %", but
# its own household-years ({glue:text}`fact_A43_households_64:.0f` and
# {glue:text}`fact_A43_households_2048:.0f`) and MFUs give the smaller figure.
#
# GB200 NVL72 draws {glue:text}`meter_ratio_gb200_h100:.2f` times the H100's power per GPU but, on
# NVIDIA's public numbers, trains {glue:text}`gb200_405b_tok_s:.0f` Llama 3.1 405B tokens per second
# per GPU in BF16 against {glue:text}`h100_405b_tok_s:.0f` on H100 ({glue:text}`gpu_rate_ratio_405b:.2f`
# times as many): at
# {glue:text}`gb200_llama3_405b_bf16_joules_per_token:.2f` J per token it uses
# {glue:text}`gb200_saving_pct:.0f` % less energy. That rests on this chapter's assumption for GB200's
# IT power and on NVIDIA's throughput, not on SemiAnalysis's paywalled GB200 results.

# %% tags=["remove-input"]
display(Markdown(comparison_table(R, [
    ("gpt3_175b_fp8_joules_per_token", "A28_gpt3_fp8_j_per_token"),
    ("gpt3_175b_bf16_joules_per_token", "A28_gpt3_bf16_j_per_token"),
    ("llama3_405b_bf16_joules_per_token", "A37_405b_j_per_token"),
    ("llama3_70b_fp8_joules_per_token_64_gpus", "A43_j_per_token_64"),
    ("llama3_70b_fp8_joules_per_token_2048_gpus", "A43_j_per_token_2048"),
    ("llama3_70b_fp8_energy_increase", "A43_energy_increase")])))

# %% tags=["remove-input"]
panel_models = ["llama31_8b", "llama31_70b", "gpt3_175b", "llama31_405b", "llama4_maverick", "deepseek_v3"]
fig, axes = plt.subplots(2, 3, figsize=(9.0, 5.8), sharex=True)
colours = {"bf16": PALETTE["orange"], "fp8": PALETTE["blue"]}
markers = {"h100_sxm": "o", "gb200_nvl72": "s"}
for ax, model_id in zip(axes.flat, panel_models):
    rows = bench[bench["model_id"] == model_id]
    for (software, gpu_id, precision, publisher), series in rows.groupby(
            ["software", "gpu_id", "precision", "publisher"], sort=False):
        series = series.sort_values("gpus")
        sa = publisher == SA
        ax.plot(series["gpus"], series["joules_per_token"], marker=markers[gpu_id], color=colours[precision],
                lw=0.8 if not sa else 0, alpha=0.55 if not sa else 1.0, ms=7 if sa else 4,
                mfc="white" if sa else colours[precision], mew=1.5 if sa else 0.5)
    ax.set_title(models.loc[model_id, "name"], fontsize=9, loc="left")
    ax.set_xscale("log", base=2)
    ax.xaxis.set_major_formatter(plt.FuncFormatter(lambda x, _: f"{x:,.0f}"))
    ax.set_ylim(0, rows["joules_per_token"].max() * 1.25)
    ax.tick_params(labelsize=8)
for ax in axes[1]:
    ax.set_xlabel("GPUs (log scale)", fontsize=9)
for ax in axes[:, 0]:
    ax.set_ylabel("J per token at the meter", fontsize=9)
handles = [plt.Line2D([], [], color=colours["bf16"], lw=0, marker="o", label="BF16"),
           plt.Line2D([], [], color=colours["fp8"], lw=0, marker="o", label="FP8"),
           plt.Line2D([], [], color="grey", lw=0, marker="o", label="H100"),
           plt.Line2D([], [], color="grey", lw=0, marker="s", label="GB200 NVL72 (NVIDIA v25.05)"),
           plt.Line2D([], [], color="grey", lw=0, marker="o", mfc="white", mew=1.5, ms=7,
                      label="SemiAnalysis's points"),
           plt.Line2D([], [], color="grey", lw=0.8, marker="o", ms=4, label="NVIDIA tables, one line per release")]
fig.suptitle("Energy per trained token by model, precision and GPU count", x=0.01, ha="left", fontweight="bold")
fig.legend(handles=handles, loc="upper left", ncol=3, fontsize=8, frameon=False, bbox_to_anchor=(0.01, 0.955))
fig.tight_layout(rect=(0, 0, 1, 0.91))
add_source(fig, f"data/benchmarks.csv throughput; {meter_h100:,.0f} W per H100 and {meter_gb200:,.0f} W per "
                "GB200 at the meter (this chapter's parameters).")
glue_figure("fig_energy_joules_per_token", fig)

# %% [markdown]
# ```{glue:figure} fig_energy_joules_per_token
# :name: fig-energy-joules-per-token
# :alt: Six small panels, one per model (Llama 3.1 8B, 70B, GPT-3 175B, Llama 3.1 405B, Llama 4 Maverick, DeepSeek-V3), of joules per token against GPU count on a log axis, orange for BF16 and blue for FP8, circles for H100 and squares for GB200, with SemiAnalysis's points as hollow markers.
#
# Joules per token at the meter for all {glue:text}`benchmark_rows_with_energy:.0f` benchmark rows.
# FP8 always sits below BF16; energy per token grows with model size and barely moves with GPU
# count; GB200 (squares) sits below H100 for the same model. The MoE models (Maverick,
# DeepSeek-V3) are cheap per token for their size because only their active parameters compute.
# ```

# %% [markdown]
# ## Training runs in household-years
#
# A household-year is {glue:text}`household_kwh_per_year:,.0f` kWh, SemiAnalysis's 2022 figure for an
# average US household and this chapter's default. That figure moves with the year and the source,
# and much more from state to state; `data/household_energy.csv` keeps the published values, each
# with its source.

# %% tags=["hide-input"]
households = energy.with_kwh_per_year(load_table("household_energy"))
us_low, us_high = energy.household_kwh_range(households, "us_average")
state_low, state_high = energy.household_kwh_range(households, "state")
states = households[households["kind"] == "state"]
us_years = households.loc[households["kind"] == "us_average", "period"].str[:4]
glue("state_low_name", states.loc[states["kwh_per_year"].idxmin(), "region"], display=False)
glue("state_high_name", states.loc[states["kwh_per_year"].idxmax(), "region"], display=False)
glue("us_years", f"{us_years.min()}-{us_years.max()}", display=False)
R.add("household_kwh_us_low", us_low, "kWh/yr", "Lowest US-average household use in data/")
R.add("household_kwh_us_high", us_high, "kWh/yr", "Highest US-average household use in data/")
R.add("household_kwh_state_low", state_low, "kWh/yr", "Lowest state-average household use in data/")
R.add("household_kwh_state_high", state_high, "kWh/yr", "Highest state-average household use in data/")
glue("household_kwh_per_year", P.household_kwh_per_year, display=False)
display(Markdown(markdown_table(
    ["Period", "Where", "Published", "kWh per year", "Evidence", "Source"],
    [(h.period, h.region, f"{h.kwh:,.0f} kWh per {h.per}", f"{h.kwh_per_year:,.0f}",
      h.evidence, f"{{ref}}`{h.source_id} <src-{h.source_id}>`") for h in households.itertuples()])))

# %% [markdown]
# The US averages span only {glue:text}`household_kwh_us_low:,.0f` to
# {glue:text}`household_kwh_us_high:,.0f` kWh, so the choice of year barely matters; the states span
# {glue:text}`household_kwh_state_low:,.0f` ({glue:text}`state_low_name`) to
# {glue:text}`household_kwh_state_high:,.0f` kWh ({glue:text}`state_high_name`), a factor of
# {glue:text}`state_spread:.1f`. Household-years below are given on the
# default basis with both ranges.

# %% tags=["hide-input"]
glue("state_spread", state_high / state_low, display=False)
gpt3_t, llama_t = f"{gpt3_tokens / 1e9:,.0f}B tokens", f"{llama_tokens / 1e12:,.0f}T tokens"
runs = [  # (results key, label, benchmark row, tokens)
    ("gpt3_175b_fp8_household_years_300b_tokens", f"GPT-3 175B, {gpt3_t}, FP8", sa_rows["gpt3_fp8"], gpt3_tokens),
    ("gpt3_175b_bf16_household_years_300b_tokens", f"GPT-3 175B, {gpt3_t}, BF16", sa_rows["gpt3_bf16"],
     gpt3_tokens),
    ("llama3_70b_fp8_household_years_15t_tokens_64_gpus",
     f"Llama 3 70B, {llama_t}, FP8, {sa_rows['70b_fp8_64']['gpus']:,} GPUs", sa_rows["70b_fp8_64"], llama_tokens),
    ("llama3_70b_fp8_household_years_15t_tokens_2048_gpus",
     f"Llama 3 70B, {llama_t}, FP8, {sa_rows['70b_fp8_2048']['gpus']:,} GPUs", sa_rows["70b_fp8_2048"], llama_tokens),
    ("llama3_405b_bf16_household_years_15t_tokens", f"Llama 3 405B, {llama_t}, BF16", sa_rows["405b_bf16"],
     llama_tokens),
    ("gb200_llama3_405b_bf16_household_years_15t_tokens", f"Llama 3.1 405B, {llama_t}, BF16, GB200 (NVIDIA)",
     gb200_405b, llama_tokens),
]
for key, label, r, tokens in runs:
    j = r["joules_per_token"]
    R.add(key, energy.household_years(tokens, j, P.household_kwh_per_year), "household-years", label)
    R.add(f"{key}_us_low", energy.household_years(tokens, j, us_high), "household-years",
          f"{label}, highest US-average household")
    R.add(f"{key}_us_high", energy.household_years(tokens, j, us_low), "household-years",
          f"{label}, lowest US-average household")
    R.add(f"{key}_state_low", energy.household_years(tokens, j, state_high), "household-years",
          f"{label}, highest-use state")
    R.add(f"{key}_state_high", energy.household_years(tokens, j, state_low), "household-years",
          f"{label}, lowest-use state")
R.add("gpt3_175b_fp8_tokens_per_household_year",
      energy.tokens_per_household_year(R["gpt3_175b_fp8_joules_per_token"], P.household_kwh_per_year),
      "tokens/household-year", "GPT-3 175B FP8 tokens per household-year")
R.add("llama3_405b_bf16_tokens_per_household_year",
      energy.tokens_per_household_year(R["llama3_405b_bf16_joules_per_token"], P.household_kwh_per_year),
      "tokens/household-year", "Llama 3 405B BF16 tokens per household-year")
glue("gpt3_fp8_tokens_per_hy_b", R["gpt3_175b_fp8_tokens_per_household_year"] / 1e9, display=False)
glue("llama_405b_tokens_per_hy_b", R["llama3_405b_bf16_tokens_per_household_year"] / 1e9, display=False)

# %% [markdown]
# One household-year trains {glue:text}`gpt3_fp8_tokens_per_hy_b:.1f` billion GPT-3 tokens in FP8, so
# GPT-3's {glue:text}`gpt3_tokens_b:.0f` billion tokens take
# {glue:text}`gpt3_175b_fp8_household_years_300b_tokens:.1f` household-years in FP8 and
# {glue:text}`gpt3_175b_bf16_household_years_300b_tokens:.1f` in BF16 (report:
# {glue:text}`fact_A30_gpt3_fp8_household_years:.0f` and {glue:text}`fact_A30_gpt3_bf16_household_years:.0f`).
# On the US averages of {glue:text}`us_years` that is
# {glue:text}`gpt3_175b_fp8_household_years_300b_tokens_us_low:.1f` to
# {glue:text}`gpt3_175b_fp8_household_years_300b_tokens_us_high:.1f` in FP8; counted in
# {glue:text}`state_high_name` or {glue:text}`state_low_name` households,
# {glue:text}`gpt3_175b_fp8_household_years_300b_tokens_state_low:.0f` to
# {glue:text}`gpt3_175b_fp8_household_years_300b_tokens_state_high:.0f`.
#
# Llama 3 405B on {glue:text}`llama_tokens_t:.0f` trillion tokens in BF16 takes
# {glue:text}`llama3_405b_bf16_household_years_15t_tokens:,.0f` household-years
# ({glue:text}`llama3_405b_bf16_household_years_15t_tokens_us_low:,.0f` to
# {glue:text}`llama3_405b_bf16_household_years_15t_tokens_us_high:,.0f` on the US averages; report:
# "{glue:text}`fact_A38_405b_15t_household_years:,.0f`"). Llama 3 70B in FP8 takes
# {glue:text}`llama3_70b_fp8_household_years_15t_tokens_64_gpus:.0f` household-years on
# {glue:text}`gpus_70b_small:,` GPUs and {glue:text}`llama3_70b_fp8_household_years_15t_tokens_2048_gpus:.0f`
# on {glue:text}`gpus_70b_large:,` (report:
# {glue:text}`fact_A43_households_64:.0f` and {glue:text}`fact_A43_households_2048:.0f`). These count one
# clean run at benchmark throughput: SA stresses that experiments and failed runs use far more.

# %% tags=["remove-input"]
display(Markdown(comparison_table(R, [
    ("gpt3_175b_fp8_tokens_per_household_year", "A29_fp8_tokens_per_household_year"),
    ("gpt3_175b_fp8_household_years_300b_tokens", "A30_gpt3_fp8_household_years"),
    ("gpt3_175b_bf16_household_years_300b_tokens", "A30_gpt3_bf16_household_years"),
    ("llama3_405b_bf16_tokens_per_household_year", "A38_405b_tokens_per_household_year"),
    ("llama3_405b_bf16_household_years_15t_tokens", "A38_405b_15t_household_years"),
    ("llama3_70b_fp8_household_years_15t_tokens_64_gpus", "A43_households_64"),
    ("llama3_70b_fp8_household_years_15t_tokens_2048_gpus", "A43_households_2048")])))

# %% tags=["remove-input"]
published = {"gpt3_175b_fp8_household_years_300b_tokens": "A30_gpt3_fp8_household_years",
             "gpt3_175b_bf16_household_years_300b_tokens": "A30_gpt3_bf16_household_years",
             "llama3_70b_fp8_household_years_15t_tokens_64_gpus": "A43_households_64",
             "llama3_70b_fp8_household_years_15t_tokens_2048_gpus": "A43_households_2048",
             "llama3_405b_bf16_household_years_15t_tokens": "A38_405b_15t_household_years"}
fig, ax = new_figure("Training runs in US household-years of electricity", "Household-years (log scale)", "",
                     figsize=(7.5, 4.4))
for i, (key, label, _, _) in enumerate(runs):
    ax.hlines(i, R[f"{key}_state_low"], R[f"{key}_state_high"], color=PALETTE["sky"], lw=9, alpha=0.5,
              label="range over state averages" if i == 0 else None)
    ax.hlines(i, R[f"{key}_us_low"], R[f"{key}_us_high"], color=PALETTE["blue"], lw=9,
              label=f"range over US averages, {us_years.min()}-{us_years.max()}" if i == 0 else None)
    ax.plot(R[key], i, "|", color=PALETTE["black"], ms=16, mew=1.2,
            label=f"this book, {P.household_kwh_per_year:,.0f} kWh per household" if i == 0 else None)
    if key in published:  # drawn just above the bar so it does not hide the band
        ax.plot(fact(published[key]), i - 0.32, "v", color=PALETTE["vermillion"], ms=6,
                label="SemiAnalysis's figure" if i == 0 else None)
    ax.annotate(f"{R[key]:,.0f}", (R[f"{key}_state_high"], i), xytext=(5, 0), textcoords="offset points",
                va="center", fontsize=8)
ax.set_xscale("log")
ax.xaxis.set_major_formatter(plt.FuncFormatter(lambda x, _: f"{x:,.0f}"))
ax.set_yticks(range(len(runs)), [r[1] for r in runs], fontsize=8)
ax.invert_yaxis()
ax.grid(axis="y", visible=False)
ax.set_xlim(R["gpt3_175b_fp8_household_years_300b_tokens_state_low"] / 2,
            R["llama3_405b_bf16_household_years_15t_tokens_state_high"] * 4)
ax.set_title(ax.get_title(loc="left"), loc="left", pad=42)
ax.legend(loc="lower left", bbox_to_anchor=(0.0, 1.0), ncol=2, fontsize=8)
add_source(fig, "J/token from this chapter; household use from data/household_energy.csv (EIA, direct and "
                "via secondary sources); SemiAnalysis 2025 (A30, A38, A43).")
glue_figure("fig_energy_household_years", fig)

# %% [markdown]
# ```{glue:figure} fig_energy_household_years
# :name: fig-energy-household-years
# :alt: Horizontal ranges on a logarithmic axis of household-years for training runs, from GPT-3 175B, the smallest, to Llama 3 405B, the largest, two orders of magnitude apart; each run has a narrow dark band for US averages, a wider light band for state averages, a black tick for the book's value and a red triangle for SemiAnalysis's figure where it gives one.
#
# One training run, counted in years of an average US household's electricity. The dark band
# spans the US averages of {glue:text}`us_years`, the light band the state averages
# ({glue:text}`state_high_name` to {glue:text}`state_low_name`). The
# book's values (ticks) sit under SemiAnalysis's (triangles) wherever it gives one; the GB200 row uses
# NVIDIA's public throughput.
# ```

# %% [markdown]
# ## Cluster scale: H100 and GB200
#
# The same per-GPU meter power, multiplied out to a cluster, gives its draw and its yearly energy.

# %% tags=["hide-input"]
for name, it_w, meter_w in (("h100", P.h100_it_w_per_gpu, meter_h100), ("gb200", gb200_it_w, meter_gb200)):
    it_total = cluster.critical_it_w(P.gpus, it_w)
    facility = cluster.facility_w(it_total, P.colo_pue)
    mwh = cluster.annual_energy_mwh(facility, P.load_factor)
    R.add(f"{name}_cluster_critical_it_mw", it_total / 1e6, "MW", f"{name.upper()} cluster, critical IT")
    R.add(f"{name}_cluster_meter_mw", facility / 1e6, "MW", f"{name.upper()} cluster, at the meter")
    R.add(f"{name}_cluster_annual_twh", mwh / 1e6, "TWh/yr", f"{name.upper()} cluster, energy per year")
    R.add(f"{name}_cluster_households", mwh * 1_000 / P.household_kwh_per_year, "households",
          f"{name.upper()} cluster, households with the same yearly use")
    glue(f"{name}_cluster_households_k", R[f"{name}_cluster_households"] / 1e3, display=False)
glue("gpus", P.gpus, display=False)
glue("twh_vs_b04_pct", (R["h100_cluster_annual_twh"] / fact("B04_annual_twh") - 1) * 100, display=False)
glue("load_factor_pct", P.load_factor * 100, display=False)

# %% [markdown]
# {glue:text}`gpus:,` H100s need {glue:text}`h100_cluster_critical_it_mw:.0f` MW of critical IT and
# {glue:text}`h100_cluster_meter_mw:.0f` MW at the meter: {glue:text}`h100_cluster_annual_twh:.2f` TWh
# a year at {glue:text}`load_factor_pct:.0f` % load, as much electricity as
# {glue:text}`h100_cluster_households_k:.0f` thousand average US households, and comfortably more than the
# report's "over {glue:text}`fact_B03_datacenter_mw:.0f` MW". The 100k-cluster article's
# {glue:text}`fact_B04_annual_twh:.2f` TWh, from its own slightly larger IT build-up and an unstated PUE,
# differs by {glue:text}`twh_vs_b04_pct:.1f` % (the {ref}`cluster chapter <chapter-cluster>` reproduces it
# with its own build-up). The same number of GB200s,
# at {glue:text}`gb200_chip_w:,.0f` W per chip plus the same non-GPU load, need
# {glue:text}`gb200_cluster_meter_mw:.0f` MW and {glue:text}`gb200_cluster_annual_twh:.2f` TWh a year,
# {glue:text}`gb200_cluster_households_k:.0f` thousand households' worth, but each of their GPUs trains
# {glue:text}`gpu_rate_ratio_405b:.1f` times as many Llama 3.1 405B tokens per second.

# %% tags=["remove-input"]
display(Markdown(comparison_table(R, [("h100_cluster_meter_mw", "B03_datacenter_mw"),
                                      ("h100_cluster_annual_twh", "B04_annual_twh")])))

# %% [markdown]
# ## Carbon
#
# Turning energy into emissions takes one more parameter, the carbon intensity of the grid,
# {glue:text}`grid_g_co2_per_kwh:.0f` g CO2 per kWh by default, the average of US generation in 2023
# ({ref}`EIA <src-eia_co2_2023>`). It is a location-based figure: a lab that buys matched
# renewable power reports a lower market-based one. The Llama 3.1 model card
# ({ref}`Meta, 2024 <src-meta_llama31_card>`) publishes both for its own training, which gives a
# check.

# %% tags=["hide-input"]
card = row("published_runs", "llama31_405b_card")
run_kwh = energy.training_energy_j(llama_tokens, R["llama3_405b_bf16_joules_per_token"]) / JOULES_PER_KWH
R.add("llama3_405b_bf16_energy_gwh_15t_tokens", run_kwh / 1e6, "GWh", "Llama 3 405B BF16, 15T tokens, at the meter")
R.add("llama3_405b_bf16_tco2_15t_tokens", energy.tonnes_co2(run_kwh, P.grid_g_co2_per_kwh), "t CO2",
      "Llama 3 405B BF16, 15T tokens, location-based")
card_kwh = energy.energy_kwh_from_gpu_hours(card["gpu_hours"], card["power_w_per_gpu"])
R.add("llama31_405b_card_energy_gwh", card_kwh / 1e6, "GWh", "Llama 3.1 405B as published: GPU-hours x 700 W")
R.add("llama31_405b_card_tco2_at_grid", energy.tonnes_co2(card_kwh, P.grid_g_co2_per_kwh), "t CO2",
      "Llama 3.1 405B: model card energy at this chapter's grid intensity")
R.add("llama31_405b_card_implied_g_co2_per_kwh", energy.implied_g_co2_per_kwh(card["co2_location_t"], card_kwh),
      "g CO2/kWh", "Grid intensity implied by the model card")
R.add("llama3_405b_gpu_hours_15t_tokens", energy.gpu_hours_for_tokens(
    card["train_tokens"], sa_rows["405b_bf16"]["tokens_per_s_per_gpu"]), "GPU-hours",
      "GPU-hours for 15T tokens at benchmark throughput")
card_meter_kwh = energy.energy_kwh_from_gpu_hours(card["gpu_hours"], meter_h100)
R.add("llama31_405b_card_tco2_at_meter", energy.tonnes_co2(card_meter_kwh, P.grid_g_co2_per_kwh), "t CO2",
      "Llama 3.1 405B: published GPU-hours at this chapter's meter power and grid intensity")
glue("grid_g_co2_per_kwh", P.grid_g_co2_per_kwh, display=False)
glue("tco2_15t_k", R["llama3_405b_bf16_tco2_15t_tokens"] / 1e3, display=False)
glue("tco2_card_grid_k", R["llama31_405b_card_tco2_at_grid"] / 1e3, display=False)
glue("tco2_card_meter_k", R["llama31_405b_card_tco2_at_meter"] / 1e3, display=False)
glue("card_gpu_hours_m", card["gpu_hours"] / 1e6, display=False)
glue("card_w", card["power_w_per_gpu"], display=False)
glue("card_tco2", card["co2_location_t"], display=False)
glue("card_tco2_market", card["co2_market_t"], display=False)
glue("card_hours_ratio", card["gpu_hours"] / R["llama3_405b_gpu_hours_15t_tokens"], display=False)
glue("bench_gpu_hours_m", R["llama3_405b_gpu_hours_15t_tokens"] / 1e6, display=False)
glue("card_meter_ratio", meter_h100 / card["power_w_per_gpu"], display=False)
glue("meta_mfu_pct", fact("A33_meta_bf16_mfu") * 100, display=False)
glue("bench_mfu_405b_pct", sa_rows["405b_bf16"]["mfu"] * 100, display=False)


def versus(book: float, card_value: float, unit: str) -> tuple[str, str, str]:
    """This book's value, the model card's, and the difference, formatted for a table row."""
    return format_quantity(book, unit), format_quantity(card_value, unit), f"{(book / card_value - 1) * 100:+.1f} %"


display(Markdown(markdown_table(
    ["Llama 3.1 405B", "This book", "Model card", "Difference"],
    [(f"Location-based emissions: the card's energy ({card['power_w_per_gpu']:.0f} W per GPU-hour) at "
      f"{P.grid_g_co2_per_kwh:.0f} g/kWh",
      *versus(R["llama31_405b_card_tco2_at_grid"], card["co2_location_t"], "t CO2")),
     (f"GPU-hours: {llama_t} at benchmark throughput vs the card's total",
      *versus(R["llama3_405b_gpu_hours_15t_tokens"], card["gpu_hours"], "GPU-hours"))])))

# %% [markdown]
# At {glue:text}`grid_g_co2_per_kwh:.0f` g/kWh, one clean {glue:text}`llama_tokens_t:.0f`-trillion-token
# BF16 run of Llama 3 405B ({glue:text}`llama3_405b_bf16_energy_gwh_15t_tokens:.1f` GWh at the meter) emits
# about
# {glue:text}`tco2_15t_k:.1f` thousand t of CO2.
#
# Meta's card counts the run differently: {glue:text}`card_gpu_hours_m:.2f` million H100-hours at
# {glue:text}`card_w:.0f` W, the GPU's TDP, which the card calls its power "adjusted for power usage
# efficiency". That is {glue:text}`llama31_405b_card_energy_gwh:.1f` GWh, and at the US-average grid
# {glue:text}`tco2_card_grid_k:.1f` thousand t against the card's
# {glue:text}`card_tco2:,.0f` t location-based (and {glue:text}`card_tco2_market:.0f` t market-based): the
# card implies {glue:text}`llama31_405b_card_implied_g_co2_per_kwh:.0f` g/kWh, presumably the mix of
# the grids around Meta's datacenters rather than the national average. Two differences pull in opposite
# directions. Meta's GPU-hours are {glue:text}`card_hours_ratio:.1f` times the
# {glue:text}`bench_gpu_hours_m:.1f` million that {glue:text}`llama_tokens_t:.0f` trillion tokens take at
# benchmark throughput: its production pre-training ran at {glue:text}`meta_mfu_pct:.0f` % BF16 MFU
# (A33) against the benchmark's {glue:text}`bench_mfu_405b_pct:.0f` %, and its total covers all of the
# model's training, not one clean pass over the tokens. Meanwhile {glue:text}`card_w:.0f` W per GPU
# leaves out the host, network, storage and cooling that this chapter's
# {glue:text}`meter_w_per_h100:,.0f` W include, {glue:text}`card_meter_ratio:.1f` times as much. With both,
# Meta's GPU-hours at this chapter's meter power come to
# {glue:text}`tco2_card_meter_k:.1f` thousand t.

# %% [markdown]
# ## How sure: P10, P50 and P90
#
# IT power, facility overhead, throughput and the household basis all carry ranges; drawn together they give these bands for Llama 3.1 405B in BF16.

# %% tags=["remove-input"]
display(Markdown(bands_table(P, ('joules_per_token', 'household_years_15t'))))

# %% [markdown]
# ## The seed's claims, checked
#
# The summary this book started from says that SemiAnalysis compares training energy with US
# household use, and that training GPT-175B uses the yearly electricity of several households. Both
# are set against the original text and this chapter's results (the build fails if a "reproduced"
# claim drifts out of its tolerance).

# %% tags=["remove-input"]
display(Markdown(claims_table("energy", R)))

# %% [markdown]
# ## Measured on this machine
#
# Everything above rests on published throughput from H100 and GB200 clusters. This section does
# not: it turns what `python -m analysis measure` measured on the machine that built this book (one
# training step of a small GPT-style model on one device, with warm-up runs and repeats) into
# joules per token, at a power that is a parameter, `local_power_w`. The default fits the shipped
# measurement; set what your meter shows, e.g. `python -m analysis run energy -p local_power_w 700`
# for a GPU board at its TDP. The small model's tokens take far fewer FLOPs than a 405B model's, so
# the comparison with the published rows is per model FLOP, not per token.

# %% tags=["remove-input"]
measured = load_measured()
for key, (value, unit, label) in measured_results(measured, power_w=P.local_power_w).items():
    R.add(key, value, unit, label)
display(Markdown(measured_section_markdown(measured, power_w=P.local_power_w)))
if "measured_joules_per_tflop" in R.results:
    ref = sa_rows["405b_bf16"]
    R.add("h100_llama3_405b_joules_per_tflop", joules_per_tflop(
        meter_h100, ref["tokens_per_s_per_gpu"] * ref["flops_per_token"] / TERA),
        "J per TFLOP", "H100 training Llama 3.1 405B BF16 (published throughput), at this chapter's meter power")
    display(Markdown(
        f"For scale, an H100 training Llama 3.1 405B in BF16 at the published throughput "
        f"({ref['mfu'] * 100:.0f} % MFU) takes {fmt(R['h100_llama3_405b_joules_per_tflop'])} J per 10^12 model FLOPs "
        f"at this chapter's {meter_h100:,.0f} W per GPU at the meter: the measured device takes "
        f"{fmt(R['measured_joules_per_tflop'] / R['h100_llama3_405b_joules_per_tflop'])} times as much energy per FLOP."))

# %% tags=["remove-cell"]
R.save()
