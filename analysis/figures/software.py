"""Figures, reader tables and prose numbers of the software chapter, drawn from its
:class:`~analysis.chapters.ChapterResults` (:func:`analysis.chapters.software.compute`)."""

from __future__ import annotations

import matplotlib.dates as mdates
import pandas as pd
from matplotlib.lines import Line2D

from analysis.chapters.benchmarks import DENSE, model_names
from analysis.data.load import fact, load_table, row
from analysis.figures.benchmarks import COLOUR, STYLE
from analysis.page import notebook  # notebook.glue, looked up when called (tests replace it)
from analysis.page.formatting import money, percent
from analysis.page.names import gpu_short_name, model_name
from analysis.page.plots import add_source, new_figure
from analysis.page.tables import markdown_table, pct

MARKER = {"NVIDIA": "o", "SemiAnalysis": "s"}
FACTS = ("A13_h100_usd_per_gpu_hour", "A17_jan2024_years_after", "A14_a3mega_mfu_gap_dense",
         "A14_a3mega_mfu_gap_moe", "A14_price_discount", "A15_pytorch_parity_months")

COMPARED = {
    "gpt3": [("gpt3_175b_bf16_mfu_dec2024_nvidia", "A18_mfu_bf16_dec2024"),
             ("gpt3_175b_fp8_mfu_dec2024_nvidia", "A20_mfu_fp8_dec2024"),
             ("gpt3_175b_bf16_throughput_gain_nvidia_frac", "A19_bf16_throughput_gain"),
             ("gpt3_175b_fp8_throughput_gain_frac", "A21_fp8_throughput_gain")],
    "dollars": [("gpt3_175b_fp8_usd_per_million_tokens_jan2024", "A22_fp8_cost_per_1m_jan2024"),
                ("gpt3_175b_fp8_usd_per_million_tokens_dec2024", "A22_fp8_cost_per_1m_dec2024"),
                ("gpt3_175b_fp8_cost_300b_tokens_jan2024_usd", "A23_gpt3_fp8_cost_jan2024"),
                ("gpt3_175b_fp8_cost_300b_tokens_dec2024_usd", "A23_gpt3_fp8_cost_dec2024"),
                ("gpt3_175b_bf16_usd_per_million_tokens_dec2024", "A24_bf16_cost_per_1m_dec2024"),
                ("gpt3_175b_bf16_cost_300b_tokens_dec2024_usd", "A24_bf16_cost_300b_dec2024")],
    "frontier": [("llama31_405b_bf16_cost_15t_tokens_usd", "A35_405b_15t_cost")],
}


def glue_prose(E, P) -> None:
    """Glue what the prose prints in its own units: fractions as percentages (``_pct``), dollars
    in thousands and millions (``_k``, ``_m``), cents per million tokens, token counts in billions
    and trillions, the report facts it quotes as percentages, and the seed's own words."""
    for key, q in E.quantities.items():
        if q.unit == "fraction":
            notebook.glue(f"{key}_pct", q.value * 100)
        if q.unit == "USD":
            notebook.glue(f"{key}_k", q.value / 1e3)
            notebook.glue(f"{key}_m", q.value / 1e6)
    notebook.glue("fp8_cents_jan", E["gpt3_175b_fp8_usd_per_million_tokens_jan2024"] * 100)
    notebook.glue("fp8_cents_dec", E["gpt3_175b_fp8_usd_per_million_tokens_dec2024"] * 100)
    notebook.glue("seed_cost_cents", E["seed_cost_usd_per_million_tokens"] * 100)
    notebook.glue("gpt3_tokens_b", E["gpt3_train_tokens"] / 1e9)
    notebook.glue("llama3_train_tokens_t", E["llama31_405b_train_trillion_tokens"])
    notebook.glue("seed_mfu_pct", P.seed_mfu_end * 100)
    notebook.glue("seed_cost_k", P.seed_gpt3_cost_end_usd / 1e3)
    notebook.glue("fact_A19_pct", fact("A19_bf16_throughput_gain") * 100)
    notebook.glue("fact_A21_pct", fact("A21_fp8_throughput_gain") * 100)
    notebook.glue("fact_A23_jan_k", fact("A23_gpt3_fp8_cost_jan2024") / 1e3)
    notebook.glue("fact_A35_m", fact("A35_405b_15t_cost") / 1e6)
    for fact_id in ("A14_a3mega_mfu_gap_dense", "A14_a3mega_mfu_gap_moe", "A14_price_discount"):
        f = row("report_facts", fact_id)
        notebook.glue(f"fact_{fact_id}_pct", f["value"] * 100)
        if f["value_high"] == f["value_high"]:  # not NaN
            notebook.glue(f"fact_{fact_id}_high_pct", f["value_high"] * 100)
    claims = load_table("claims").set_index("claim_id")
    for claim_id in ("S11", "S12"):
        notebook.glue(f"seed_{claim_id}", claims.loc[claim_id, "seed_value"])
    glue_releases(E)


def release_figure(E):
    """MFU against software release date, each dense model and precision, same H100 hardware."""
    points = E.tables["releases"]
    names = model_names()
    fig, ax = new_figure("MFU across software releases, same H100 hardware", "Software release date",
                         "MFU (% of dense peak)", figsize=(7.0, 4.4))
    for (model_id, precision), s in points.groupby(["model_id", "precision"]):
        s = s.sort_values(["date", "publisher"])
        when = pd.to_datetime(s["date"], format="%Y-%m")
        ax.plot(when, s["mfu"] * 100, STYLE[precision], color=COLOUR[model_id], lw=1.2)
        for publisher, marker in MARKER.items():
            mask = (s["publisher"] == publisher).to_numpy()
            ax.plot(when[mask], s["mfu"][mask] * 100, marker, color=COLOUR[model_id], ms=4,
                    mfc="none" if publisher == "SemiAnalysis" else COLOUR[model_id], ls="none")
    handles = [Line2D([], [], color=COLOUR[m], label=names[m]) for m in DENSE]
    handles += [Line2D([], [], color="grey", ls="-", label="BF16"), Line2D([], [], color="grey", ls="--", label="FP8")]
    handles += [Line2D([], [], color="grey", marker=m, ls="none", mfc="none" if p == "SemiAnalysis" else "grey",
                       label=f"{p} figure") for p, m in MARKER.items()]
    ax.legend(handles=handles, fontsize=8, ncol=2, loc="lower right")
    ax.set_ylim(0, 70)
    ax.xaxis.set_major_locator(mdates.MonthLocator(bymonth=(1, 4, 7, 10)))
    ax.xaxis.set_major_formatter(mdates.DateFormatter("%b %Y"))
    add_source(fig, "SemiAnalysis 2025 (hollow squares); NVIDIA dgxc-benchmarking v24.11.1, v25.02, v25.04 and NeMo "
                    "24.09 docs (dots). Smallest published cluster per release.")
    return fig


def megatron_steps_table(E) -> str:
    """Every step between two Megatron-Bridge releases of the same system, model and precision:
    tokens/s before and after, their gain, and the gain in the printed model TFLOP/s."""
    names = model_names()
    rows = [[gpu_short_name(r.gpu_id), names[r.model_id], r.precision.upper(), f"{r.release_from} → {r.release_to}",
             f"{r.tokens_per_s_from:,.0f}", f"{r.tokens_per_s_to:,.0f}", f"{r.throughput_gain * 100:+.1f} %",
             f"{r.printed_tflops_gain * 100:+.1f} %"]
            for r in E.tables["megatron_release_steps"].sort_values(["date_to", "gpu_id", "model_id"],
                                                                    ascending=[False, True, True]).itertuples()]
    return markdown_table(["System", "Model", "Precision", "Releases", "Tokens/s before", "Tokens/s after",
                           "Throughput gain", "Printed TFLOP/s gain"], rows, "lllcrrrr")


def glue_releases(E) -> None:
    """Glue the names of the two newest Megatron-Bridge releases, as the results record them."""
    notebook.glue("megatron_latest_release", E.names["megatron_latest_release"])
    notebook.glue("megatron_previous_release", E.names["megatron_previous_release"])


def release_gains_table(E) -> str:
    """First and last NVIDIA release of each Llama 3.1 model and precision, and the gain between."""
    names = model_names()
    rows = []
    for r in E.tables["release_gains"].itertuples():
        size = f"{r.gpus_first:,}" if r.gpus_first == r.gpus_last else f"{r.gpus_first:,} → {r.gpus_last:,}"
        rows.append([names[r.model_id], r.precision.upper(), size, r.software_first, pct(r.mfu_first),
                     r.software_last, pct(r.mfu_last), f"{r.gain * 100:+.1f} %"])
    return markdown_table(["Model", "Precision", "GPUs", "First release", "MFU", "Last release", "MFU",
                           "Throughput gain"], rows, "llrlrlrr")


def verdict(R) -> str:
    """The first sentence of the chapter's "In short" box: its answer, with its condition,
    built from its results ``R``, so it moves with a scenario or ``-p`` like every number; the
    models and GPUs it names are the ones its results record (``R.names``)."""
    return (f"Software alone raised {model_name(R.names['model'])} FP8 MFU on unchanged {gpu_short_name(R.names['gpu'])}s "
            f"from {percent(R['gpt3_175b_fp8_mfu_jan2024'])} to {percent(R['gpt3_175b_fp8_mfu_dec2024'])} in 2024, "
            f"worth {money(R['llama31_405b_bf16_software_saving_15t_tokens_usd'])} on a "
            f"{model_name(R.names['run_model'])} run.")


# The result keys of the box the chapter opens with, and its closing line.
ANSWER = ["gpt3_175b_fp8_mfu_jan2024", "gpt3_175b_fp8_mfu_dec2024", "gpt3_175b_fp8_cost_300b_tokens_dec2024_usd", "llama31_405b_bf16_software_saving_15t_tokens_usd"]
ANSWER_MORE = "Below: the headline figure, then the parameters this chapter ran with, the method and the sources."
