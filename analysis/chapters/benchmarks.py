"""Benchmarks chapter: MFU, throughput and cost per token on H100 clusters of 64 to 2,304 GPUs,
and GB200 NVL72 against H100.

Every row of ``data/benchmarks.csv`` is completed (MFU and tokens/s/GPU, :mod:`analysis.benchmarks`)
and priced at the TCO chapter's cost of a GPU-hour (``upstream["tco"]``), so a cost per token here
moves with every TCO input, PUE included.
"""

from __future__ import annotations

import pandas as pd

from analysis import benchmarks, costs, flops, hardware, scaling
from analysis.chapters import ChapterResults, gpu_cost
from analysis.data.load import framing, load_table
from analysis.measure.report import load_measured, measured_results

RELEASE = "nv_dgxc_v25_02"  # the NVIDIA release whose tables SemiAnalysis's figures match
SA = "sa_gb200_2025"
DENSE = ("gpt3_175b", "llama31_8b", "llama31_70b", "llama31_405b")  # the H100 sweeps, by size
PRECISIONS = ("bf16", "fp8")
BOOK_CONVENTION = "6N + 12Lhs (this book, NVIDIA, SemiAnalysis)"  # a key of flops_per_token_conventions

# (model id, precision) pairs NVIDIA publishes on both GB200 NVL72 and H100.
GB200_COMPARED = (("deepseek_v3", "bf16"), ("llama4_maverick", "bf16"), ("llama4_maverick", "fp8"),
                  ("llama31_405b", "bf16"), ("llama31_405b", "fp8"))


def model_names() -> dict[str, str]:
    """Reader-facing model names by model id (``data/models.csv``)."""
    return load_table("models").set_index("model_id")["name"].to_dict()


def source_inventory(bench: pd.DataFrame) -> pd.DataFrame:
    """One row per source of ``bench``: publisher, release dates, models, GPU range and row count."""
    names = model_names()
    rows = []
    for source_id, group in bench.groupby("source_id", sort=False):
        rows.append({"source_id": source_id, "publisher": group["publisher"].iloc[0],
                     "dates": ", ".join(sorted(group["date"].unique())),
                     "models": ", ".join(sorted({names[m] for m in group["model_id"]})),
                     "gpus_min": int(group["gpus"].min()), "gpus_max": int(group["gpus"].max()),
                     "rows": len(group)})
    return pd.DataFrame(rows)


def convention_table(ref: pd.Series, model: pd.Series) -> pd.DataFrame:
    """One measured run read under each FLOP convention (and the book's count against the
    2:4-sparse datasheet peak, which NVIDIA datasheets headline at exactly twice the dense one)."""
    conventions = benchmarks.flops_per_token_conventions(model, int(ref["seq_len"]))
    rows = [{"convention": label, "flops_per_token": per_token,
             "mfu": flops.mfu_from_tokens_per_s(ref["tokens_per_s_per_gpu"], per_token, ref["peak_tflops"])}
            for label, per_token in conventions.items()]
    book = conventions[BOOK_CONVENTION]
    rows.append({"convention": "6N + 12Lhs against the 2:4-sparse datasheet peak", "flops_per_token": book,
                 "mfu": flops.mfu_from_tokens_per_s(ref["tokens_per_s_per_gpu"], book, 2 * ref["peak_tflops"])})
    return pd.DataFrame(rows)


def sweep_points(bench: pd.DataFrame) -> pd.DataFrame:
    """The dense H100 sweeps of the figures: NVIDIA's v25.02 rows, and SemiAnalysis's stated points
    from its December 2024 software (its January 2024 points are older software: software chapter)."""
    nv = bench[(bench["source_id"] == RELEASE) & bench["model_id"].isin(DENSE) & (bench["gpu_id"] == "h100_sxm")]
    sa = bench[(bench["source_id"] == SA) & bench["model_id"].isin(DENSE) & (bench["date"] >= "2024-12")]
    cols = ["model_id", "precision", "source_id", "gpus", "mfu", "tokens_per_s_per_gpu"]
    return pd.concat([nv, sa])[cols].sort_values(["source_id", "model_id", "precision", "gpus"])


def _add_sweeps(res: ChapterResults, bench: pd.DataFrame) -> pd.Series:
    """MFU against cluster size; returns the 2,304-GPU Llama 3.1 405B BF16 row."""
    res.add_table("sweeps", sweep_points(bench))
    sa70 = {p: benchmarks.sweep(bench, "llama31_70b", p, SA) for p in PRECISIONS}
    nv70 = benchmarks.sweep(bench, "llama31_70b", "fp8", RELEASE)
    res.add("sa_llama31_70b_small_gpus", sa70["fp8"]["gpus"].iloc[0], "GPUs",
            "Smallest Llama 3 70B cluster in SemiAnalysis's text")
    res.add("sa_llama31_70b_large_gpus", sa70["fp8"]["gpus"].iloc[-1], "GPUs",
            "Largest Llama 3 70B cluster in SemiAnalysis's text")
    nv70_bf16 = benchmarks.sweep(bench, "llama31_70b", "bf16", RELEASE)  # the table SA's BF16 MFUs quote (A40)
    res.add("llama31_70b_bf16_mfu_relative_drop_nvidia_frac",
            scaling.relative_drop(nv70_bf16["mfu"].iloc[0], nv70_bf16["mfu"].iloc[-1]), "fraction",
            "Llama 3.1 70B BF16 MFU relative drop, NVIDIA v25.02 table")
    for p in PRECISIONS:
        small, large = sa70[p]["mfu"].iloc[0], sa70[p]["mfu"].iloc[-1]
        res.add(f"sa_llama31_70b_{p}_mfu_small", small, "fraction",
                f"Llama 3 70B {p.upper()} MFU on the smallest cluster (SemiAnalysis)")
        res.add(f"sa_llama31_70b_{p}_mfu_large", large, "fraction",
                f"Llama 3 70B {p.upper()} MFU on the largest cluster (SemiAnalysis)")
        res.add(f"llama31_70b_{p}_mfu_relative_drop_64_to_2048_frac", scaling.relative_drop(small, large), "fraction",
                f"Llama 3 70B {p.upper()} MFU relative drop, smallest to largest cluster (SemiAnalysis's figures)")
    res.add("llama31_70b_fp8_mfu_relative_drop_nvidia_frac",
            scaling.relative_drop(nv70["mfu"].iloc[0], nv70["mfu"].iloc[-1]), "fraction",
            "Llama 3.1 70B FP8 MFU relative drop, NVIDIA v25.02 table")
    res.add("llama31_70b_fp8_mfu_2048_nvidia", nv70["mfu"].iloc[-1], "fraction",
            "Llama 3.1 70B FP8 MFU at the largest size, NVIDIA v25.02 table")
    nv405 = benchmarks.sweep(bench, "llama31_405b", "bf16", RELEASE)
    big405 = nv405[nv405["gpus"] == framing("A01_gpus_max_405b")].iloc[0]
    res.add("llama31_405b_bf16_tokens_per_s_per_gpu_2304", big405["tokens_per_s_per_gpu"], "tokens/s/GPU",
            "Llama 3.1 405B BF16 tokens/s per GPU on the largest cluster (NVIDIA v25.02)")
    return big405


def _add_conventions(res: ChapterResults, bench: pd.DataFrame) -> pd.Series:
    """The FLOP conventions and peaks behind an "MFU"; returns the reference 70B FP8 row."""
    ref = benchmarks.sweep(bench, "llama31_70b", "fp8", RELEASE).iloc[0]
    table = res.add_table("flop_conventions",
                          convention_table(ref, load_table("models").set_index("model_id").loc["llama31_70b"]))
    book = table.loc[table["convention"] == BOOK_CONVENTION, "flops_per_token"].iloc[0]
    res.add("llama31_70b_flop_per_token", book, "FLOP per token",
            f"Llama 3.1 70B model FLOPs per token (seq {int(ref['seq_len']):,})")
    res.add("llama31_70b_reference_seq_len_tokens", ref["seq_len"], "tokens", "Sequence length of the reference run")
    res.add("llama31_70b_fp8_reference_gpus", ref["gpus"], "GPUs", "GPUs of the Llama 3.1 70B FP8 reference run")
    res.add("llama31_70b_fp8_reference_tokens_per_s_per_gpu", ref["tokens_per_s_per_gpu"], "tokens/s/GPU",
            "Llama 3.1 70B FP8 tokens/s per GPU, smallest cluster, NVIDIA v25.02")
    dense = table.iloc[:-1]["mfu"]  # the sparse-peak row is a different peak, not a FLOP convention
    res.add("mfu_convention_spread_ratio", dense.max() / dense.min(), "ratio",
            "Highest / lowest 'MFU' of one run across FLOP conventions")
    for gpu_id, short in (("h100_sxm", "h100"), ("gb200_nvl72", "gb200")):
        res.add(f"{short}_bf16_dense_peak_tflops", hardware.peak_tflops(gpu_id, "bf16"), "TFLOP/s",
                f"{short.upper()} dense BF16 peak (GPU registry)")
        res.add(f"{short}_bf16_nvidia_peak_tflops", benchmarks.publisher_peak_tflops(bench, gpu_id, "bf16"), "TFLOP/s",
                f"{short.upper()} BF16 peak NVIDIA divides by in its MFU tables")
    res.add("gb200_bf16_peak_gap_frac", res["gb200_bf16_dense_peak_tflops"] / res["gb200_bf16_nvidia_peak_tflops"] - 1,
            "fraction", "How much higher NVIDIA's GB200 MFUs read for its rounded-down peak")
    return ref


def _add_precision(res: ChapterResults, bench: pd.DataFrame, ref: pd.Series) -> None:
    """FP8 against BF16: throughput and MFU ratios, and the share FP8's faster path covered."""
    pairs = benchmarks.precision_pairs(bench[bench["source_id"] == RELEASE])
    pair70 = pairs[(pairs["model_id"] == "llama31_70b") & (pairs["gpus"] == ref["gpus"])].iloc[0]
    factor = hardware.peak_tflops("h100_sxm", "fp8") / hardware.peak_tflops("h100_sxm", "bf16")
    res.add("h100_fp8_over_bf16_peak_ratio", factor, "ratio", "H100 dense FP8 peak / BF16 peak")
    res.add("llama31_70b_fp8_over_bf16_throughput_ratio", pair70["throughput_ratio"], "ratio",
            "Llama 3.1 70B FP8 / BF16 tokens/s per GPU, smallest cluster, v25.02")
    res.add("llama31_70b_fp8_over_bf16_mfu_ratio", pair70["mfu_ratio"], "ratio",
            "Llama 3.1 70B FP8 / BF16 MFU, smallest cluster, v25.02")
    res.add("llama31_70b_fp8_accelerated_share_frac", benchmarks.accelerated_share(pair70["throughput_ratio"], factor),
            "fraction", "Share of the BF16 step that FP8's 2x path must cover to give the measured speed-up "
            "(Llama 3.1 70B)")
    res.add("fp8_over_bf16_throughput_min_ratio", pairs["throughput_ratio"].min(), "ratio",
            "Lowest FP8/BF16 throughput ratio, v25.02")
    res.add("fp8_over_bf16_throughput_max_ratio", pairs["throughput_ratio"].max(), "ratio",
            "Highest FP8/BF16 throughput ratio, v25.02")


def _add_costs(res: ChapterResults, bench: pd.DataFrame, prices: dict, big405: pd.Series) -> None:
    """Every row priced, and the headline 405B cost (the 405B / 70B comparison is
    :func:`_add_throughput_ratios`')."""
    priced = res.add_table("priced", benchmarks.with_costs(bench, prices).sort_values(
        ["model_id", "gpu_id", "precision", "date", "gpus"]))
    nv = priced[priced["source_id"] == RELEASE]
    res.add_table("headline", pd.concat(
        [nv[(nv["model_id"] == m) & (nv["precision"] == p)].sort_values("gpus").iloc[[0, -1]]
         for m in DENSE for p in PRECISIONS]))
    res.add("llama31_405b_bf16_usd_per_million_tokens_2304",
            costs.usd_per_million_tokens(prices["h100_sxm"], big405["tokens_per_s_per_gpu"]),
            "USD per million tokens", "Llama 3.1 405B BF16 cost per 1M tokens on the largest cluster")
    res.add("priced_rows_count", len(priced), "count", "Benchmark rows priced")


def _add_deepseek_run(P, res: ChapterResults, h100_usd_per_gpu_hour: float, llama405_run_usd: float) -> None:
    """DeepSeek-V3's published training cost (A36): its GPU-hours at its own assumed rental price,
    and at this build's H100 cost of a GPU-hour, the basis of SemiAnalysis's Llama 3.1 405B figure."""
    run = res.add("deepseek_v3_run_usd", costs.gpu_hours_cost_usd(P.deepseek_v3_gpu_hours, P.deepseek_v3_usd_per_gpu_hour),
                  "USD", "DeepSeek-V3's training run: its H800 GPU-hours at its assumed rental price")
    res.add("deepseek_v3_run_million_usd", run / 1e6, "million USD", "The same in millions")
    res.add("deepseek_v3_gpu_hours", P.deepseek_v3_gpu_hours, "GPU-hours", "DeepSeek-V3's H800 GPU-hours (parameter)")
    res.add("deepseek_v3_usd_per_gpu_hour", P.deepseek_v3_usd_per_gpu_hour, "USD per GPU-hour",
            "DeepSeek's assumed H800 rental price (parameter)")
    at_tco = res.add("deepseek_v3_run_at_h100_tco_usd", costs.gpu_hours_cost_usd(P.deepseek_v3_gpu_hours, h100_usd_per_gpu_hour),
                     "USD", "DeepSeek-V3's GPU-hours at this build's H100 cost of a GPU-hour")
    res.add("deepseek_v3_run_at_h100_tco_million_usd", at_tco / 1e6, "million USD", "The same in millions")
    res.add("llama31_405b_vs_deepseek_v3_run_cost_ratio", llama405_run_usd / run, "ratio",
            "Llama 3.1 405B on 15T tokens (TCO chapter) / DeepSeek-V3's published cost")
    res.add("llama31_405b_vs_deepseek_v3_run_cost_same_basis_ratio", llama405_run_usd / at_tco, "ratio",
            "The same, both at this build's H100 cost of a GPU-hour")


def gb200_comparison(bench: pd.DataFrame, prices: dict, tco_ratio: float) -> pd.DataFrame:
    """GB200 NVL72 against H100 for each compared model and precision: each GPU type's best row
    (:func:`analysis.benchmarks.best_rate_row`), the throughput ratio, performance per TCO dollar
    and each side's cost per 1M tokens."""
    rows = []
    for model_id, precision in GB200_COMPARED:
        gb = benchmarks.best_rate_row(bench, model_id, precision, "gb200_nvl72")
        h = benchmarks.best_rate_row(bench, model_id, precision, "h100_sxm")
        ratio = gb["tokens_per_s_per_gpu"] / h["tokens_per_s_per_gpu"]
        rows.append({"model_id": model_id, "precision": precision,
                     "gb200_gpus": int(gb["gpus"]), "gb200_software": gb["software"],
                     "gb200_tokens_per_s_per_gpu": gb["tokens_per_s_per_gpu"],
                     "h100_gpus": int(h["gpus"]), "h100_software": h["software"],
                     "h100_tokens_per_s_per_gpu": h["tokens_per_s_per_gpu"],
                     "throughput_ratio": ratio, "perf_per_tco_ratio": costs.perf_per_tco_ratio(ratio, tco_ratio),
                     "gb200_usd_per_million_tokens": costs.usd_per_million_tokens(prices["gb200_nvl72"],
                                                                                  gb["tokens_per_s_per_gpu"]),
                     "h100_usd_per_million_tokens": costs.usd_per_million_tokens(prices["h100_sxm"],
                                                                                 h["tokens_per_s_per_gpu"])})
    return pd.DataFrame(rows)


def _add_throughput_ratios(res: ChapterResults, bench: pd.DataFrame) -> None:
    """Comparisons that need NVIDIA's throughputs and the models' sizes only, recorded before the
    chapter reads the report's rows or the TCO: GB200 over H100 per model (A49-A51), and Llama 3.1
    405B over 70B in parameters and in cost per token (one GPU-hour price cancels: A42)."""
    names, ratios = model_names(), {}
    for model_id, precision in GB200_COMPARED:
        gb = benchmarks.best_rate_row(bench, model_id, precision, "gb200_nvl72")
        h = benchmarks.best_rate_row(bench, model_id, precision, "h100_sxm")
        what = f"{names[model_id]} {precision.upper()}"
        # the two cells each ratio is formed from, as NVIDIA's table prints them (facts A49-A51 quote them)
        res.add(f"gb200_{model_id}_{precision}_best_tokens_per_s_per_gpu", gb["tokens_per_s_per_gpu"], "tokens/s/GPU",
                f"{what} tokens/s per GPU, GB200 NVL72's best row ({gb['gpus']:,} GPUs, {gb['software']})")
        res.add(f"h100_{model_id}_{precision}_best_tokens_per_s_per_gpu", h["tokens_per_s_per_gpu"], "tokens/s/GPU",
                f"{what} tokens/s per GPU, H100's best row ({h['gpus']:,} GPUs, {h['software']})")
        if model_id == "llama31_405b":
            res.add(f"gb200_{model_id}_{precision}_best_mfu_printed", gb["mfu_reported"], "fraction",
                    f"{what} MFU NVIDIA prints for GB200 NVL72's best row (against its {gb['peak_tflops']:,.0f} TFLOP/s)")
        ratios[(model_id, precision)] = res.add(f"gb200_vs_h100_{model_id}_{precision}_throughput_ratio",
                                                gb["tokens_per_s_per_gpu"] / h["tokens_per_s_per_gpu"], "ratio",
                                                f"{what} tokens/s per GPU, GB200 NVL72 / H100 (NVIDIA)")
    for end, pick in (("fastest", max), ("slowest", min)):  # the extremes, named for the page
        model_id, precision = pick(ratios, key=ratios.get)
        res.name(f"{end}_model", model_id)
        res.add(f"{end}_gb200_vs_h100_throughput_ratio", ratios[(model_id, precision)], "ratio",
                f"GB200 NVL72 / H100 tokens/s per GPU, the {end} comparison ({names[model_id]} {precision.upper()})")
    nv405 = benchmarks.sweep(bench, "llama31_405b", "bf16", RELEASE)
    big405 = nv405[nv405["gpus"] == framing("A01_gpus_max_405b")].iloc[0]
    big70 = benchmarks.sweep(bench, "llama31_70b", "bf16", RELEASE).iloc[-1]
    res.add("llama31_405b_to_70b_bf16_cost_ratio", big70["tokens_per_s_per_gpu"] / big405["tokens_per_s_per_gpu"],
            "ratio", "Llama 3.1 405B / 70B BF16 cost per token, largest clusters (at one GPU-hour price)")
    models = load_table("models").set_index("model_id")
    res.add("llama31_405b_to_70b_param_ratio",
            models.loc["llama31_405b", "total_params"] / models.loc["llama31_70b", "total_params"], "ratio",
            "Llama 3.1 405B / 70B parameter count")


def _add_gb200(res: ChapterResults, bench: pd.DataFrame, prices: dict, tco_ratio: float) -> None:
    names = model_names()
    table = res.add_table("gb200", gb200_comparison(bench, prices, tco_ratio))
    for r in table.itertuples():
        what = f"{names[r.model_id]} {r.precision.upper()}"
        res.add(f"gb200_vs_h100_{r.model_id}_{r.precision}_perf_per_tco_ratio", r.perf_per_tco_ratio, "ratio",
                f"{what} performance per TCO dollar, GB200 / H100")
    res.add("gb200_wins_count", (table["perf_per_tco_ratio"] >= 1).sum(), "count",
            "Comparisons in which GB200 trains a token for less than H100")
    res.add("gb200_compared_count", len(table), "count", "GB200 / H100 comparisons")
    first = table.set_index(["model_id", "precision"])
    res.add("gb200_deepseek_v3_gpus", first.loc[("deepseek_v3", "bf16"), "gb200_gpus"], "GPUs",
            "GB200 GPUs of the DeepSeek-V3 comparison (smallest published)")
    res.add("h100_llama4_maverick_gpus", first.loc[("llama4_maverick", "bf16"), "h100_gpus"], "GPUs",
            "H100s of the Llama 4 Maverick comparison")
    res.add("h100_deepseek_v3_gpus", first.loc[("deepseek_v3", "bf16"), "h100_gpus"], "GPUs",
            "H100s of the DeepSeek-V3 comparison")


def _add_conversion_check(res: ChapterResults, bench: pd.DataFrame, tolerance: float) -> None:
    """Does each printed MFU follow from its printed throughput? The failures, diagnosed."""
    check = benchmarks.conversion_check(bench, tolerance)
    failures = res.add_table("conversion_failures", check[~check["passes"]])
    dense = check["model_id"].isin(DENSE)
    res.add("mfu_check_tolerance_frac", tolerance, "fraction", "Tolerance of the MFU conversion check")
    res.add("conversion_rows_checked_count", len(check), "count", "Rows printing both MFU and tokens/s/GPU")
    res.add("conversion_passes_count", check["passes"].sum(), "count",
            "Rows whose MFU the package reproduces within tolerance")
    res.add("conversion_failures_count", len(failures), "count",
            "Rows whose printed MFU does not follow from their throughput")
    res.add("conversion_dense_failures_count", (~check.loc[dense, "passes"]).sum(), "count",
            "Dense-model rows whose printed MFU does not follow from their throughput")
    res.add("conversion_dense_worst_miss_frac", (check.loc[dense, "ratio"] - 1).abs().max(), "fraction",
            "Largest relative MFU miss among dense-model rows")
    typo = failures[failures["diagnosis"].str.contains("FP8 peak")]
    res.add("typo_rows_count", len(typo), "count", "Rows whose MFU was divided by the FP8 peak")
    if len(typo):
        fp8_over_bf16 = hardware.peak_tflops("gb200_nvl72", "fp8") / hardware.peak_tflops("gb200_nvl72", "bf16")
        res.add("typo_gpus", typo["gpus"].iloc[0], "GPUs", "GPUs of the misprinted row")
        res.add("llama4_maverick_gb200_bf16_mfu_printed", typo["mfu_reported"].iloc[0], "fraction",
                "Printed MFU of the misprinted row")
        res.add("llama4_maverick_gb200_bf16_mfu_against_bf16_peak", typo["mfu_reported"].iloc[0] * fp8_over_bf16,
                "fraction", "The misprinted MFU recomputed against the BF16 peak")
    moe_miss = (failures.drop(typo.index)["ratio"] - 1).abs()
    if len(moe_miss):
        res.add("moe_conversion_miss_min_frac", moe_miss.min(), "fraction",
                "Smallest MFU miss of the mixture-of-experts rows (publisher's FLOP count)")
        res.add("moe_conversion_miss_max_frac", moe_miss.max(), "fraction",
                "Largest MFU miss of the mixture-of-experts rows (publisher's FLOP count)")


def compute(P, upstream) -> ChapterResults:
    res = ChapterResults("benchmarks")
    gpu_cost.name_systems(res)  # its gb200_vs_h100_* results
    res.name("reference_model", benchmarks.REFERENCE_RUN["model_id"])
    bench = benchmarks.load_benchmarks()
    _add_throughput_ratios(res, bench)
    tco = upstream["tco"]
    prices = {"h100_sxm": tco["h100_tco_usd_per_gpu_hour"], "gb200_nvl72": tco["gb200_tco_usd_per_gpu_hour"]}
    tco_ratio = tco["gb200_breakeven_speedup"]  # GB200 TCO / H100 TCO per GPU-hour
    res.add("h100_tco_usd_per_gpu_hour", prices["h100_sxm"], "USD per GPU-hour", "H100 TCO per GPU-hour")
    res.add("gb200_tco_usd_per_gpu_hour", prices["gb200_nvl72"], "USD per GPU-hour", "GB200 NVL72 TCO per GPU-hour")
    res.add("gb200_breakeven_speedup", tco_ratio, "ratio",
            "Per-GPU speed-up GB200 needs to match H100's performance per TCO dollar")

    res.add_table("sources", source_inventory(bench))
    res.add("benchmark_rows_count", len(bench), "count", "Rows of data/benchmarks.csv")
    res.add("dgxc_releases_count", bench.loc[bench["source_id"].str.startswith("nv_dgxc"), "source_id"].nunique(),
            "count", "NVIDIA DGXC releases in the data")
    ref = _add_conventions(res, bench)
    big405 = _add_sweeps(res, bench)
    _add_precision(res, bench, ref)
    _add_costs(res, bench, prices, big405)
    _add_gb200(res, bench, prices, tco_ratio)
    _add_deepseek_run(P, res, prices["h100_sxm"], tco["llama31_405b_bf16_cost_15t_tokens_usd"])
    _add_conversion_check(res, bench, P.mfu_check_tolerance)
    res.add_table("measured", load_measured())
    for key, (value, unit, label) in measured_results(res.tables["measured"], P.local_gpu_hour_usd,
                                                      P.local_power_w).items():
        res.add(key, value, unit, label)
    return res
