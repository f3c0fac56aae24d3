"""Figures, reader tables and prose numbers of the atlas chapter, drawn from its
:class:`~analysis.chapters.ChapterResults` (:func:`analysis.chapters.atlas.compute`)."""

from __future__ import annotations

import numpy as np

from analysis.chapters.atlas import SHORT
from analysis.page import notebook  # notebook.glue, looked up when called (tests replace it)
from analysis.page.formatting import percent
from analysis.page.names import gpu_short_name, model_name
from analysis.page.plots import PALETTE, add_source, bar_labels_above, legend_above, new_figure
from analysis.page.tables import markdown_table, pct, rate, usd

VENDOR_COLOUR = {"NVIDIA": PALETTE["green"], "AMD": PALETTE["vermillion"], "Google": PALETTE["blue"],
                 "AWS": PALETTE["orange"], "unknown": PALETTE["black"]}
MODELS = {"llama31_8b": "Llama 3.1 8B", "llama31_70b": "Llama 3.1 70B", "llama31_405b": "Llama 3.1 405B",
          "mixtral_8x7b": "Mixtral 8x7B", "deepseek_v3": "DeepSeek-V3"}
CONVENTION = {"6n_12lhs": "6N+12Lhs", "6n_6lhs": "6N+6Lhs (causal half)", "publisher_moe": "publisher's MoE count",
              "unreproduced": "not reproduced", "throughput_only": "prints none"}


def glue_prose(E) -> None:
    """Glue fractions as percentages (``_pct``) and the counts the prose spells out."""
    for key, q in E.quantities.items():
        if q.unit in ("fraction", "ratio"):
            notebook.glue(f"{key}_pct", q.value * 100)
    notebook.glue("atlas_v6e_pr1988_drop_points", (E["atlas_v6e_llama31_70b_mfu_printed"]
                                           - E["atlas_v6e_llama31_70b_mfu_causal_count"]) * 100)


def _vendor(E):
    return E.tables["registry"].set_index("gpu_id")["vendor"]


def _dense_latest(E):
    """The latest Llama 3.1 70B and 405B rows of every accelerator, 405B first, by MFU."""
    latest = E.tables["latest"]
    latest = latest[latest["model_id"].isin(["llama31_70b", "llama31_405b"])]
    return latest.sort_values(["model_id", "mfu"])


def _bars(E, column, scale, title, xlabel, source):
    rows = _dense_latest(E).dropna(subset=[column])
    vendor = _vendor(E)
    fig, ax = new_figure(title, xlabel, "", figsize=(7.0, 2.4 + 0.62 * len(rows)))
    y = np.arange(len(rows))
    ax.barh(y, rows[column] * scale, 0.45, color=[VENDOR_COLOUR[vendor[g]] for g in rows["gpu_id"]])
    ax.set_ylim(len(rows) - 0.5, -0.95)  # first row on top, room for its name
    bar_labels_above(ax, [f"{MODELS[m]} {SHORT[g]} {p.upper()}"
                          for m, g, p in zip(rows["model_id"], rows["gpu_id"], rows["precision"], strict=True)])
    ax.grid(axis="y", visible=False)
    add_source(fig, source)
    return fig, ax, rows, y


def mfu_figure(E):
    """MFU under the book's count for every latest Llama 3.1 70B and 405B row, by accelerator, with
    a tick at what the publisher's own FLOP count would give for the same throughput. Each bar is
    against the dense peak of its own precision (its label says which)."""
    fig, ax, rows, y = _bars(E, "mfu", 100, "MFU, one FLOP count (6N + 12Lhs)",
                             "MFU (% of the dense peak of the bar's precision)",
                             "NVIDIA Megatron-Bridge performance summary; Google tpu-recipes and MaxText tiering; "
                             "dense peaks from data/gpus.csv. Green NVIDIA, blue Google.")
    ax.scatter(rows["printed_vs_book_ratio"] * rows["mfu"] * 100, y, marker="|", s=120, color=PALETTE["black"],
               label="what the publisher's own count would print", zorder=3)
    ax.set_xlim(0, 75)
    legend_above(ax)
    return fig


def energy_figure(E):
    """Joules at the meter per PFLOP of model work for the same rows as :func:`mfu_figure`: one
    basis for every bar, whichever model it ran (70B and 405B tokens differ five-fold in FLOPs)."""
    fig, ax, rows, y = _bars(E, "j_per_pflop", 1, "Energy per unit of model work, at the meter",
                             "J per PFLOP of model FLOPs", "throughput as in the MFU figure; power: data/gpus.csv "
                             "TDPs with the book's H100 or GB200 build-up, data/accelerators.csv for TPUs. "
                             "Green NVIDIA, blue Google.")
    for yi, j in zip(y, rows["j_per_pflop"], strict=True):
        ax.annotate(f"{j:,.0f}", (j, yi), textcoords="offset points", xytext=(3, -3))
    ax.set_xlim(0, rows["j_per_pflop"].max() * 1.25)
    return fig


NO_POWER = "n/a (no published power)"
NO_PRICE = "no sourced price"


def cost_text(r, breakeven: bool = False) -> str:
    """$ per EFLOP of model work of a summary or registry row: one figure, a low–high range, a range
    marked as a stand-in device's price, or why there is none (with ``breakeven``, and where the H100
    has the same model and precision, the hourly price that would match the H100's cost per token)."""
    if np.isnan(r.usd_per_eflop_central):
        if breakeven and not np.isnan(r.breakeven_usd_per_device_hour):
            return f"{NO_PRICE}; matches the H100 at {usd(r.breakeven_usd_per_device_hour)}/h"
        return NO_PRICE
    if r.usd_per_eflop_low == r.usd_per_eflop_high:
        cost = usd(r.usd_per_eflop_central)
    else:
        cost = f"{usd(r.usd_per_eflop_low)}–{usd(r.usd_per_eflop_high)}"
    cost = f"{cost} ({r.price_tiers})"
    cost = f"{cost} (proxy price)" if r.price_is_proxy else cost
    if breakeven and not np.isnan(r.breakeven_usd_per_device_hour):  # the second view, beside the price
        cost = f"{cost}; matches the H100 at {usd(r.breakeven_usd_per_device_hour)}/h"
    return cost


def spread_text(r) -> str:
    """The spread of an accelerator's hourly price across every tier of the ladder."""
    if np.isnan(r.spread_ratio):
        return NO_PRICE
    return (f"{usd(r.dearest_usd)}/h {r.dearest_tier} to {usd(r.cheapest_usd)}/h {r.cheapest_tier} "
            f"({r.spread_ratio:.1f}x)")


def energy_text(r) -> str:
    """Joules per PFLOP of model work, or why there is none."""
    return NO_POWER if np.isnan(r.j_per_pflop) else f"{r.j_per_pflop:,.0f}"


def mfu_text(r) -> str:
    """An MFU with the peak it is against: "48.2 % of FP8 dense (5,000 TFLOP/s)"."""
    return f"{pct(r.mfu)} of {r.peak_label} ({r.peak_tflops:,.0f} TFLOP/s)"


def model_text(r) -> str:
    """The model and precision behind a row's numbers: "Llama 3.1 70B, FP8"."""
    return f"{MODELS[r.model_id]}, {r.precision.upper()}"


SUMMARY_HEADERS = ["accelerator", "model", "precision", "release", "model TFLOP/s per device", "MFU (book), of the peak",
                   "J per PFLOP", "$ per EFLOP (list tiers)", "hourly price across tiers",
                   "break-even $/h vs H100, same model"]


def summary_table(E) -> str:
    """One row per measured accelerator, every cross-accelerator column per unit of model work (the
    rows run different models, each named)."""
    s = E.tables["summary"]
    body = []
    for r in s.itertuples():
        body.append([SHORT[r.gpu_id], MODELS[r.model_id], r.precision.upper(), r.release,
                     f"{r.model_tflops_per_device:,.0f}", mfu_text(r), energy_text(r), cost_text(r), spread_text(r),
                     "" if np.isnan(r.breakeven_usd_per_device_hour) else usd(r.breakeven_usd_per_device_hour)])
    return markdown_table(SUMMARY_HEADERS, body, "lllllrrrlr", columns=SUMMARY_COLUMNS, name="summary",
                          title="one row per measured accelerator")


# The summary's columns the prose reads, shown at every width; the model's precision and release
# are in the full table (its fold and CSV), the precision also in the MFU cell ("of FP8 dense").
SUMMARY_COLUMNS = ["accelerator", "model", "model TFLOP/s per device", "MFU (book), of the peak", "J per PFLOP",
                   "$ per EFLOP (list tiers)", "hourly price across tiers", "break-even $/h vs H100, same model"]


def rows_table(E) -> str:
    rows = E.tables["rows"].sort_values(["model_id", "gpu_id", "date"])
    body = [[MODELS[r.model_id], SHORT[r.gpu_id], r.precision.upper(), r.release, f"{r.devices:,}", rate(r.tokens_per_s_per_device),
             mfu_text(r), CONVENTION[r.flop_convention],
             "" if np.isnan(r.printed_vs_book_ratio) else f"{r.printed_vs_book_ratio:.3f}"] for r in rows.itertuples()]
    return markdown_table(["model", "accelerator", "precision", "release", "devices", "tokens/s/device",
                           "MFU (book), of the peak", "publisher's count", "publisher / book FLOPs"], body, "llllrrrlr",
                          key=[], name="rows", title="every atlas row under the book's FLOP count")


def registry_table(E) -> str:
    """The registry, measured or specs only; a measured part also shows, from the summary, the model
    its numbers come from and its J per PFLOP and $ per EFLOP of model work (or why either is missing)."""
    reg = E.tables["registry"]
    body = [[r.name, r.vendor, f"{r.bf16_dense_tflops:,.0f}",
             "" if np.isnan(r.bf16_sparse_tflops) else f"{r.bf16_sparse_tflops:,.0f}",
             "" if np.isnan(r.fp8_dense_tflops) else f"{r.fp8_dense_tflops:,.0f}", f"{r.memory_gb:,.0f}",
             "not published" if np.isnan(r.tdp_w) else f"{r.tdp_w:,.0f}",
             f"measured ({model_text(r)})" if r.measured else "specs only",
             energy_text(r) if r.measured else "", cost_text(r, breakeven=True) if r.measured else ""]
            for r in reg.itertuples()]
    return markdown_table(["accelerator", "vendor", "BF16 dense", "BF16 sparse", "FP8 dense", "HBM (GB)", "TDP (W)",
                           "in this atlas", "J per PFLOP", "$ per EFLOP"], body, "llrrrrrlrr",
                          key=reg["measured"].to_numpy(dtype=bool), columns=REGISTRY_COLUMNS, name="registry",
                          title="the accelerator registry")


# The registry's rows and columns the prose reads: the measured accelerators, with their peaks and
# the model, joules and dollars of their rows; specs-only parts, sparse peaks, memory and vendor
# are in the full table (its fold and CSV).
REGISTRY_COLUMNS = ["accelerator", "BF16 dense", "FP8 dense", "TDP (W)", "in this atlas", "J per PFLOP", "$ per EFLOP"]


def gains_table(E) -> str:
    g = E.tables["gains"]
    body = [[SHORT[r.gpu_id], MODELS[r.model_id], r.precision.upper(), f"{r.release_first} → {r.release_last}",
             f"{r.devices_first:,} → {r.devices_last:,}", pct(r.throughput_gain), pct(r.printed_tflops_gain)]
            for r in g.itertuples()]
    key = [i for i, r in enumerate(g.itertuples()) if (r.gpu_id, r.model_id) in PROSE_GAINS]
    return markdown_table(["accelerator", "model", "precision", "releases", "devices", "tokens/s gain",
                           "printed TFLOP/s gain"], body, "lllllrr", key=key, name="gains",
                          title="software gains per accelerator, model and precision")


# The gains the prose reads (accelerator, model); the others fold.
PROSE_GAINS = (("gb300_nvl72", "llama31_70b"), ("h100_sxm", "llama31_70b"), ("gb200_nvl72", "deepseek_v3"),
               ("gb300_nvl72", "deepseek_v3"))


def verdict(R) -> str:
    """The first sentence of the chapter's "In short" box: its answer, with its condition,
    built from its results ``R``, so it moves with a scenario or ``-p`` like every number; the
    models and GPUs it names are the ones its results record (``R.names``)."""
    gpus = [R.names[f"compared_gpu_{i}"] for i in (1, 2, 3)]
    shown = ", ".join(f"{gpu_short_name(g)} {percent(R[f'atlas_{g}_mfu_frac'])}" for g in gpus[:-1])
    return (f"Under one FLOP count the best {model_name(R.names['compared_model'])} results sit within a few points "
            f"of each other: {shown} and {gpu_short_name(gpus[-1])} {percent(R[f'atlas_{gpus[-1]}_mfu_frac'])} MFU "
            "(each against its own precision's dense peak).")


# The result keys of the box the chapter opens with, and its closing line.
ANSWER = ["atlas_gb300_nvl72_mfu_frac", "atlas_tpu7x_ironwood_mfu_frac", "atlas_h100_sxm_mfu_frac",
          "atlas_tpu7x_ironwood_cheapest_usd_per_device_hour"]
ANSWER_MORE = "Below: the headline figure, then the parameters this chapter ran with, the method and the sources."
