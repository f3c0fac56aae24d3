"""Figures, reader tables and prose numbers of the atlas chapter, drawn from its
:class:`~analysis.chapters.ChapterResults` (:func:`analysis.chapters.atlas.compute`)."""

from __future__ import annotations

import numpy as np

from analysis.chapters.atlas import SHORT
from analysis.plots import PALETTE, add_source, new_figure
from analysis.tables import markdown_table, pct, rate, usd

VENDOR_COLOUR = {"NVIDIA": PALETTE["green"], "AMD": PALETTE["vermillion"], "Google": PALETTE["blue"],
                 "AWS": PALETTE["orange"], "unknown": PALETTE["black"]}
MODELS = {"llama31_8b": "Llama 3.1 8B", "llama31_70b": "Llama 3.1 70B", "llama31_405b": "Llama 3.1 405B",
          "mixtral_8x7b": "Mixtral 8x7B", "deepseek_v3": "DeepSeek-V3"}
CONVENTION = {"6n_12lhs": "6N+12Lhs", "6n_6lhs": "6N+6Lhs (causal half)", "publisher_moe": "publisher's MoE count",
              "unreproduced": "not reproduced", "none": "prints none"}


def glue_prose(E) -> None:
    """Glue fractions as percentages (``_pct``) and the counts the prose spells out."""
    from analysis.notebook import glue

    for key, q in E.quantities.items():
        if q.unit in ("fraction", "ratio"):
            glue(f"{key}_pct", q.value * 100)
    glue("atlas_v6e_pr1988_drop_points", (E["atlas_v6e_llama31_70b_mfu_printed"]
                                           - E["atlas_v6e_llama31_70b_mfu_causal_count"]) * 100)


def _vendor(E):
    return E.tables["registry"].set_index("gpu_id")["vendor"]


def mfu_figure(E):
    """MFU under the book's count for every latest Llama 3.1 70B and 405B row, by accelerator."""
    rows = E.tables["rows"]
    latest = rows[rows["model_id"].isin(["llama31_70b", "llama31_405b"])]
    latest = latest[latest["date"] == latest.groupby(["gpu_id", "model_id", "precision"])["date"].transform("max")]
    latest = latest.sort_values(["model_id", "mfu"])
    vendor = _vendor(E)
    fig, ax = new_figure("MFU under one FLOP count (6N + 12Lhs, dense peak)", "MFU (%)", "", figsize=(8, 6))
    labels = [f"{MODELS[m]} {SHORT[g]} {p.upper()}" for m, g, p in zip(latest["model_id"], latest["gpu_id"], latest["precision"], strict=True)]
    y = np.arange(len(latest))
    ax.barh(y, latest["mfu"] * 100, color=[VENDOR_COLOUR[vendor[g]] for g in latest["gpu_id"]])
    ax.scatter(latest["printed_vs_book_ratio"] * latest["mfu"] * 100, y, marker="|", s=120, color=PALETTE["black"],
               label="what the publisher's own count would print", zorder=3)
    ax.set_yticks(y, labels)
    ax.legend(loc="lower right", fontsize=8)
    add_source(fig, "NVIDIA Megatron-Bridge performance summary; Google tpu-recipes and MaxText tiering; "
                    "dense peaks from data/gpus.csv. Green NVIDIA, blue Google.")
    return fig


def energy_figure(E):
    """Joules per token against tokens per second per device for each measured accelerator's
    summary workload."""
    s = E.tables["summary"].dropna(subset=["j_per_token"])
    vendor = _vendor(E)
    fig, ax = new_figure("Energy per token at the meter (IT power x PUE / tokens/s)", "tokens/s per device (log)",
                         "J per token (log)", figsize=(7, 5))
    ax.scatter(s["tokens_per_s_per_device"], s["j_per_token"], s=60, color=[VENDOR_COLOUR[vendor[g]] for g in s["gpu_id"]])
    for r in s.itertuples():
        ax.annotate(f"{SHORT[r.gpu_id]} ({MODELS[r.model_id]})", (r.tokens_per_s_per_device, r.j_per_token),
                    textcoords="offset points", xytext=(5, 4), fontsize=8)
    ax.set_xscale("log")
    ax.set_yscale("log")
    add_source(fig, "throughput as in the MFU figure and MLPerf Training v5.1; power: data/gpus.csv TDPs, "
                    "data/accelerators.csv and the book's H100/GB200 build-ups")
    return fig


def summary_table(E) -> str:
    s = E.tables["summary"]
    body = []
    for r in s.itertuples():
        cost = (f"{usd(r.usd_per_million_tokens_low)}–{usd(r.usd_per_million_tokens_high)}"
                if not np.isnan(r.usd_per_million_tokens_central) else "no sourced price")
        body.append([SHORT[r.gpu_id], MODELS[r.model_id], r.precision.upper(), r.release, rate(r.tokens_per_s_per_device),
                     pct(r.mfu), "n/a (no published power)" if np.isnan(r.j_per_token) else f"{r.j_per_token:.2f}",
                     cost, "" if np.isnan(r.breakeven_usd_per_device_hour) else usd(r.breakeven_usd_per_device_hour)])
    return markdown_table(["accelerator", "model", "precision", "release", "tokens/s/device", "MFU (book)",
                           "J/token", "$ per 1M tokens", "break-even $/h vs H100"], body, "lllllrrrr")


def rows_table(E) -> str:
    rows = E.tables["rows"].sort_values(["model_id", "gpu_id", "date"])
    body = [[MODELS[r.model_id], SHORT[r.gpu_id], r.precision.upper(), r.release, f"{r.devices:,}", rate(r.tokens_per_s_per_device),
             pct(r.mfu), CONVENTION[r.flop_convention],
             "" if np.isnan(r.printed_vs_book_ratio) else f"{r.printed_vs_book_ratio:.3f}"] for r in rows.itertuples()]
    return markdown_table(["model", "accelerator", "precision", "release", "devices", "tokens/s/device", "MFU (book)",
                           "publisher's count", "publisher / book FLOPs"], body, "llllrrrlr")


def registry_table(E) -> str:
    reg = E.tables["registry"]
    body = [[r.name, r.vendor, f"{r.bf16_dense_tflops:,.0f}",
             "" if np.isnan(r.bf16_sparse_tflops) else f"{r.bf16_sparse_tflops:,.0f}",
             "" if np.isnan(r.fp8_dense_tflops) else f"{r.fp8_dense_tflops:,.0f}", f"{r.memory_gb:,.0f}",
             "not published" if np.isnan(r.tdp_w) else f"{r.tdp_w:,.0f}", "measured" if r.measured else "specs only"]
            for r in reg.itertuples()]
    return markdown_table(["accelerator", "vendor", "BF16 dense", "BF16 sparse", "FP8 dense", "HBM (GB)", "TDP (W)",
                           "in this atlas"], body, "llrrrrrl")


def gains_table(E) -> str:
    g = E.tables["gains"]
    body = [[SHORT[r.gpu_id], MODELS[r.model_id], r.precision.upper(), f"{r.release_first} → {r.release_last}",
             f"{r.devices_first:,} → {r.devices_last:,}", pct(r.throughput_gain), pct(r.printed_tflops_gain)]
            for r in g.itertuples()]
    return markdown_table(["accelerator", "model", "precision", "releases", "devices", "tokens/s gain",
                           "printed TFLOP/s gain"], body, "lllllrr")
