"""Atlas chapter: every accelerator with public training numbers under one FLOP count
(:mod:`analysis.atlas`), with joules and dollars per unit of model work (PFLOP, EFLOP: the rows run
different models, so one basis for every row), software gains kept apart from changes in FLOP
counting, and which accelerators are measured and which are specs only."""

from __future__ import annotations

import pandas as pd

from analysis import atlas
from analysis import prices as ladder_prices
from analysis.chapters import ChapterResults
from analysis.data.load import load_table

SHORT = {"gb300_nvl72": "GB300", "gb200_nvl72": "GB200", "b200_hgx": "B200", "h200_sxm": "H200", "h100_sxm": "H100",
         "a100_sxm_80gb": "A100", "mi300x": "MI300X", "mi325x": "MI325X", "mi355x": "MI355X", "tpu_v5p": "TPU v5p",
         "tpu_v6e": "TPU v6e", "tpu7x_ironwood": "Ironwood", "trainium2": "Trainium2"}


# The measured devices the chapter's answer compares: NVIDIA's newest rack, Google's newest TPU and the H100.
COMPARED = ("gb300_nvl72", "tpu7x_ironwood", "h100_sxm")

COVERAGE = ["model_id", "precision", "j_per_pflop", "usd_per_eflop_low", "usd_per_eflop_central", "usd_per_eflop_high",
            "price_is_proxy", "price_tiers", "breakeven_usd_per_device_hour"]


def registry(summary: pd.DataFrame) -> pd.DataFrame:
    """Every registry part with its vendor, dense and sparse BF16 peaks, whether it has measured
    training rows here and, for a measured one, its summary row's joules and dollars per token
    (``COVERAGE``). A part without an ``accelerators.csv`` row takes its vendor from the first word
    of its name when that is a known vendor, else "unknown"."""
    gpus = load_table("gpus")
    acc = load_table("accelerators").set_index("gpu_id")
    out = gpus[["gpu_id", "name", "bf16_dense_tflops", "fp8_dense_tflops", "memory_gb", "tdp_w", "launch_year"]].copy()
    maker = out["name"].str.split().str[0]  # "NVIDIA H800 SXM 80GB" -> NVIDIA, for parts without an accelerators.csv row
    out["vendor"] = out["gpu_id"].map(acc["vendor"]).fillna(maker.where(maker.isin(set(acc["vendor"])))).fillna("unknown")
    out["bf16_sparse_tflops"] = out["gpu_id"].map(acc["bf16_sparse_tflops"])
    out["measured"] = out["gpu_id"].isin(set(summary["gpu_id"]))
    return out.merge(summary[["gpu_id", *COVERAGE]], on="gpu_id", how="left")


def _power(P) -> dict[str, float]:
    acc = load_table("accelerators").set_index("gpu_id")
    gpus = load_table("gpus").set_index("gpu_id")
    return {g: atlas.it_w_per_device(g, acc, gpus, P.h100_it_w_per_gpu, P.gb200_it_w_per_gpu) for g in acc.index}


def compute(P, upstream) -> ChapterResults:
    res = ChapterResults("atlas")
    # the scale-up domain of a TPU v5p, from Google's documentation, before anything reads a report number
    acc = load_table("accelerators").set_index("gpu_id")
    res.add("atlas_tpu_v5p_pod_chips_count", acc.loc["tpu_v5p", "pod_devices"], "chips",
            "TPU v5p chips in one pod, its largest inter-chip (ICI) domain (Google's v5p documentation)")
    res.add("atlas_tpu_v5p_cube_chips_count", acc.loc["tpu_v5p", "cube_devices"], "chips",
            "TPU v5p chips in one 4x4x4 cube, the unit a pod is built of (Google's v5p documentation)")
    rows = res.add_table("rows", atlas.load_atlas(P.mfu_check_tolerance))
    res.add("atlas_rows_count", len(rows), "count", "Measured training rows in the atlas")
    prints = rows[rows["printed_flops_per_token"].notna()]
    res.add("atlas_rows_printing_flops_count", len(prints), "count", "Rows that print a TFLOP/s or an MFU")
    res.add("atlas_rows_reproduced_count", (prints["reproduced_by"] != "").sum(), "count",
            "Rows whose printed figure the book reproduces under one of the two attention counts")
    res.add("atlas_rows_label_holds_count", rows["label_holds"].sum(), "count",
            "Rows whose recorded FLOP convention is the one that reproduces them")

    # the two attention counts, for the dense models at 8,192 tokens
    models = load_table("models").set_index("model_id")
    for m in ("llama31_8b", "llama31_70b", "llama31_405b"):
        ratio = atlas.flops_per_token(models.loc[m], 8192, "6n_6lhs") / atlas.flops_per_token(models.loc[m], 8192, "6n_12lhs")
        res.add(f"atlas_{m}_causal_over_full_flops_ratio", ratio, "ratio",
                f"{m}: FLOPs per token with causal attention counted as half, over the book's count, at 8,192 tokens")
    moe = prints[prints["flop_convention"] == "publisher_moe"]
    res.add("atlas_moe_printed_vs_book_min_ratio", moe["printed_vs_book_ratio"].min(), "ratio",
            "DeepSeek-V3: lowest ratio of a publisher's FLOPs per token to the book's")
    res.add("atlas_moe_printed_vs_book_max_ratio", moe["printed_vs_book_ratio"].max(), "ratio",
            "DeepSeek-V3: highest ratio of a publisher's FLOPs per token to the book's")

    # MFU, tokens/s, energy and price per measured accelerator
    res.add("atlas_pue", P.pue, "ratio", "Facility PUE the joules per PFLOP use")
    res.add("atlas_load_factor_frac", P.load_factor, "fraction",
            "Average draw as a share of the rated power, the joules' basis (parameter)")
    res.add("atlas_h100_it_w_per_device", P.h100_it_w_per_gpu, "W", "All-in IT watts per H100: the 8-GPU server reference")
    res.add("atlas_gb200_it_w_per_device", P.gb200_it_w_per_gpu, "W", "All-in IT watts per GB200 GPU: the NVL72 reference")
    power = _power(P)
    prices_table = load_table("cloud_prices")
    prices = {g: atlas.price_range(prices_table, g) for g in power}
    summary = atlas.energy_and_cost(atlas.summary_rows(rows), power, P.pue, prices, P.load_factor)
    summary["price_is_proxy"] = [atlas.price_is_proxy(prices_table, g) for g in summary["gpu_id"]]
    summary["price_tiers"] = [atlas.price_tiers(prices_table, g) for g in summary["gpu_id"]]
    # the spread across every tier of the ladder (commitments and owning included), beside the list price
    spread = ladder_prices.spread(ladder_prices.cloud_ladder()).set_index("gpu_id")
    summary = summary.join(spread[["cheapest_tier", "cheapest_usd", "dearest_tier", "dearest_usd", "spread_ratio"]],
                           on="gpu_id")
    res.add_table("spread", spread.reset_index())
    ironwood = spread.loc["tpu7x_ironwood"]
    res.add("atlas_tpu7x_ironwood_dearest_usd_per_device_hour", ironwood["dearest_usd"], "USD per GPU-hour",
            f"Ironwood: dearest tier price ({ironwood['dearest_tier']})")
    res.add("atlas_tpu7x_ironwood_cheapest_usd_per_device_hour", ironwood["cheapest_usd"], "USD per GPU-hour",
            f"Ironwood: cheapest tier price ({ironwood['cheapest_tier']})")
    res.add("atlas_tpu7x_ironwood_tier_spread_ratio", ironwood["spread_ratio"], "ratio",
            "Ironwood: dearest over cheapest tier price")
    latest = res.add_table("latest", atlas.energy_and_cost(atlas.latest_rows(rows), power, P.pue, prices, P.load_factor))
    h100 = latest[latest["gpu_id"] == "h100_sxm"].set_index(["model_id", "precision"])["tokens_per_s_per_device"]
    h100_price = prices["h100_sxm"][1]
    res.add("atlas_h100_usd_per_device_hour_central", h100_price, "USD per GPU-hour",
            "H100 central list price (on-demand, neocloud list, market range), latest year of cloud_prices.csv")
    breakeven = []
    for r in summary.itertuples():
        tag = r.gpu_id
        what = f"{r.model_id} {r.precision.upper()}, {r.release}"
        res.add(f"atlas_{tag}_tokens_per_s_per_device", r.tokens_per_s_per_device, "tokens/s/GPU",
                f"{SHORT[tag]}: tokens/s per device, {what}")
        res.add(f"atlas_{tag}_model_tflops_per_device", r.model_tflops_per_device, "TFLOP/s",
                f"{SHORT[tag]}: model TFLOP/s per device (6N+12Lhs), {what}")
        res.add(f"atlas_{tag}_mfu_frac", r.mfu, "fraction",
                f"{SHORT[tag]}: MFU under 6N+12Lhs against the {r.peak_label} peak ({r.peak_tflops:,.0f} TFLOP/s), {what}")
        if pd.notna(r.j_per_pflop):
            res.add(f"atlas_{tag}_j_per_pflop", r.j_per_pflop, "J per PFLOP",
                    f"{SHORT[tag]}: joules at the meter per PFLOP of model work, {what}")
            res.add(f"atlas_{tag}_meter_w_per_device", r.meter_w_per_device, "W", f"{SHORT[tag]}: average watts at the meter per device while training")
        if pd.notna(r.usd_per_eflop_central):
            for name in ("low", "central", "high"):
                res.add(f"atlas_{tag}_usd_per_eflop_{name}", getattr(r, f"usd_per_eflop_{name}"),
                        "USD per 1e18 FLOP", f"{SHORT[tag]}: cost per EFLOP of model work at the {name} price, {what}")
        key = (r.model_id, r.precision)
        value = (atlas.breakeven_usd_per_device_hour(r.tokens_per_s_per_device, h100[key], h100_price)
                 if key in h100.index else float("nan"))
        breakeven.append(value)
        if pd.notna(value) and tag != "h100_sxm":
            res.add(f"atlas_{tag}_breakeven_usd_per_device_hour", value, "USD per GPU-hour",
                    f"{SHORT[tag]}: hourly price at which it matches the H100's cost per token")
    summary["breakeven_usd_per_device_hour"] = breakeven
    res.add_table("summary", summary)
    compared = summary.set_index("gpu_id").loc[list(COMPARED)]
    for i, gpu_id in enumerate(COMPARED, start=1):
        res.name(f"compared_gpu_{i}", gpu_id)
    if compared["model_id"].nunique() == 1:
        res.name("compared_model", compared["model_id"].iloc[0])
    res.add("atlas_measured_with_energy_count", summary["j_per_pflop"].notna().sum(), "count",
            "Measured accelerators with a joules-per-PFLOP figure")
    res.add("atlas_measured_with_price_count", summary["usd_per_eflop_central"].notna().sum(), "count",
            "Measured accelerators with a sourced hourly price")
    res.add("atlas_summary_models_count", summary["model_id"].nunique(), "count",
            "Different models behind the summary's rows (so its columns are per unit of model work)")
    res.add("atlas_measured_with_proxy_price_count", summary["price_is_proxy"].sum(), "count",
            "Measured accelerators priced by a stand-in device's hourly price")
    stand_in = prices_table[(prices_table["gpu_id"] == "gb300_nvl72") & prices_table["what"].str.startswith("proxy:")]
    res.add("atlas_gb300_nvl72_stand_in_usd_per_device_hour_low", stand_in["low_usd_per_gpu_hour"].min(), "USD per GPU-hour",
            "GB300: lowest on-demand price of the B300 in 8-GPU servers (stand-ins, not used for its cost)")
    res.add("atlas_gb300_nvl72_stand_in_usd_per_device_hour_high", stand_in["high_usd_per_gpu_hour"].max(), "USD per GPU-hour",
            "GB300: highest on-demand price of the B300 in 8-GPU servers (stand-ins, not used for its cost)")

    # the registry: measured or specs only, with each measured part's joules and dollars per unit of work
    reg = res.add_table("registry", registry(summary))
    res.add("atlas_accelerators_count", len(reg), "count", "Accelerators in the registry")
    res.add("atlas_vendors_count", reg["vendor"].nunique(), "count", "Vendors in the registry")
    res.add("atlas_measured_accelerators_count", reg["measured"].sum(), "count", "Accelerators with measured training rows")
    res.add("atlas_specs_only_count", (~reg["measured"]).sum(), "count", "Accelerators with specifications only")

    # software gains on the same chip, apart from FLOP-counting changes
    gains = res.add_table("gains", atlas.release_gains(rows))
    for r in gains.itertuples():
        res.add(f"atlas_{r.gpu_id}_{r.model_id}_{r.precision}_release_gain_frac", r.throughput_gain, "fraction",
                f"{SHORT[r.gpu_id]} {r.model_id} {r.precision.upper()}: tokens/s gain, {r.release_first} -> {r.release_last}")
        res.add(f"atlas_{r.gpu_id}_{r.model_id}_{r.precision}_printed_gain_frac", r.printed_tflops_gain, "fraction",
                f"{SHORT[r.gpu_id]} {r.model_id} {r.precision.upper()}: printed TFLOP/s gain over the same releases")
    v6e = rows.set_index("row_id").loc["mt_v6e_70b_bf16"]
    res.add("atlas_v6e_llama31_70b_mfu_printed", v6e["mfu_reported"], "fraction", "TPU v6e Llama 3.1 70B: MFU MaxText prints")
    res.add("atlas_v6e_llama31_70b_mfu_causal_count", v6e["mfu_reported"] * res["atlas_llama31_70b_causal_over_full_flops_ratio"],
            "fraction", "The same throughput counted with causal attention as half (MaxText since PR #1988)")
    return res
