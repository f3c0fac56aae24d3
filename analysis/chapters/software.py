"""Software chapter: MFU gains across NVIDIA's software releases on unchanged H100s
(:mod:`analysis.software`), priced at the TCO chapter's H100 GPU-hour (``upstream["tco"]``), and
the seed summary's version of them checked. The 15T-token Llama 3.1 405B run is the TCO chapter's
(its cost and tokens are read from ``upstream["tco"]``)."""

from __future__ import annotations

import pandas as pd

from analysis import atlas, benchmarks, costs, hardware, software
from analysis.benchmarks import REFERENCE_RUN
from analysis.chapters import ChapterResults
from analysis.chapters.benchmarks import DENSE, PRECISIONS, RELEASE, SA, model_names
from analysis.data import provenance
from analysis.data.load import fact, framing, load_table
from analysis.units import SECONDS_PER_DAY

MONTHS = (("2024-01", "jan2024", "Jan 2024"), ("2024-12", "dec2024", "Dec 2024"))  # SA's two GPT-3 endpoints
MEGATRON = "nv_megatron_bridge"  # the source ids of NVIDIA's Megatron-Bridge performance summaries, one per release page


def sa_gpt3(bench: pd.DataFrame) -> pd.DataFrame:
    """SemiAnalysis's GPT-3 175B rows, indexed by (precision, date): the report's own numbers (noted as read)."""
    rows = bench[(bench["source_id"] == SA) & (bench["model_id"] == "gpt3_175b")]
    provenance.note_rows("benchmarks", rows)
    return rows.set_index(["precision", "date"])


def release_points(bench: pd.DataFrame) -> pd.DataFrame:
    """Each dense model's MFU at the smallest cluster of every release (:func:`analysis.software.release_series`),
    all models and precisions stacked, for the release figure."""
    return pd.concat([software.release_series(bench, m, p) for m in DENSE for p in PRECISIONS])


def release_gains(bench: pd.DataFrame) -> pd.DataFrame:
    """Throughput gain between NVIDIA's first and last DGXC table of each Llama 3.1 model and precision."""
    dgxc = [s for s in load_table("sources")["source_id"] if s.startswith("nv_dgxc")]
    rows = []
    for model_id in DENSE[1:]:
        for precision in PRECISIONS:
            g = software.first_last_gain(software.release_series(bench[bench["source_id"].isin(dgxc)], model_id,
                                                                 precision))
            rows.append({"model_id": model_id, "precision": precision,
                         "gpus_first": int(g["first"]["gpus"]), "gpus_last": int(g["last"]["gpus"]),
                         "software_first": g["first"]["software"], "mfu_first": g["first"]["mfu"],
                         "software_last": g["last"]["software"], "mfu_last": g["last"]["mfu"], "gain": g["gain"]})
    return pd.DataFrame(rows)


def _add_gpt3_year(res: ChapterResults, bench: pd.DataFrame, price: float, train_tokens: float) -> None:
    """GPT-3 175B through 2024: MFU, throughput gain and cost, January and December."""
    rows = sa_gpt3(bench)
    res.add("gpt3_175b_sa_gpus", rows["gpus"].iloc[0], "GPUs", "H100s of SemiAnalysis's GPT-3 175B runs")
    for p in PRECISIONS:
        jan, dec = rows.loc[(p, "2024-01"), "mfu"], rows.loc[(p, "2024-12"), "mfu"]
        nv_dec = benchmarks.sweep(bench, "gpt3_175b", p, RELEASE).iloc[0]["mfu"]
        res.add(f"gpt3_175b_{p}_mfu_jan2024", jan, "fraction", f"GPT-3 175B {p.upper()} MFU, Jan 2024 software")
        res.add(f"gpt3_175b_{p}_mfu_dec2024", dec, "fraction", f"GPT-3 175B {p.upper()} MFU, Dec 2024 software")
        res.add(f"gpt3_175b_{p}_mfu_dec2024_nvidia", nv_dec, "fraction",
                f"GPT-3 175B {p.upper()} MFU, NVIDIA v25.02 (NeMo 24.12) table")
        res.add(f"gpt3_175b_{p}_throughput_gain_frac", software.throughput_gain(jan, dec), "fraction",
                f"GPT-3 175B {p.upper()} throughput gain, Jan -> Dec 2024 (SemiAnalysis's MFUs)")
        res.add(f"gpt3_175b_{p}_throughput_gain_nvidia_frac", software.throughput_gain(jan, nv_dec), "fraction",
                f"GPT-3 175B {p.upper()} throughput gain, Jan 2024 -> NVIDIA's Dec 2024 table")
    for p in PRECISIONS:
        for date, label, when in MONTHS:
            rate = rows.loc[(p, date), "tokens_per_s_per_gpu"]
            res.add(f"gpt3_175b_{p}_usd_per_million_tokens_{label}", costs.usd_per_million_tokens(price, rate),
                    "USD per million tokens", f"GPT-3 175B {p.upper()} cost per 1M tokens, {when}")
            res.add(f"gpt3_175b_{p}_cost_300b_tokens_{label}_usd", costs.run_cost_usd(train_tokens, price, rate),
                    "USD", f"GPT-3 175B {p.upper()} cost of its training tokens, {when}")


def megatron_releases() -> pd.DataFrame:
    """NVIDIA's Megatron-Bridge rows of ``data/atlas_benchmarks.csv`` (every release the book has),
    with tokens/s per GPU and the printed model TFLOP/s per GPU."""
    table = load_table("atlas_benchmarks")
    rows = table[table["source_id"].str.startswith(MEGATRON)].copy()
    provenance.note_rows("atlas_benchmarks", rows)
    rows["tokens_per_s"] = [atlas.tokens_per_s_per_device(r) for _, r in rows.iterrows()]
    rows["tflops_printed"] = rows["tflops_per_device_reported"]
    return rows


def _add_release_steps(res: ChapterResults) -> None:
    """Release to release on the same systems: each Megatron-Bridge step, and the newest one in
    results (its gains, and how far each lies from the printed TFLOP/s gain of the same step)."""
    steps = res.add_table("megatron_release_steps", software.release_steps(megatron_releases()))
    latest = steps[steps["date_to"] == steps["date_to"].max()]
    res.name("megatron_latest_release", latest["release_to"].iloc[0])
    if latest["release_from"].nunique() == 1:
        res.name("megatron_previous_release", latest["release_from"].iloc[0])
    res.add("megatron_release_steps_count", len(steps), "count", "Release-to-release steps in NVIDIA's Megatron-Bridge tables")
    res.add("megatron_latest_steps_count", len(latest), "count", "Systems and models the newest release repeats")
    names, gpus = model_names(), load_table("gpus").set_index("gpu_id")["name"].to_dict()
    for r in latest.itertuples():
        res.add(f"megatron_{r.gpu_id}_{r.model_id}_{r.precision}_latest_release_gain_frac", r.throughput_gain, "fraction",
                f"{names[r.model_id]} {r.precision.upper()} on {gpus[r.gpu_id]}: tokens/s gain, {r.release_from} -> {r.release_to}")
    for column, what in (("throughput_gain", "tokens/s"), ("printed_tflops_gain", "printed TFLOP/s")):
        for end, pick in (("min", min), ("median", pd.Series.median), ("max", max)):
            res.add(f"megatron_latest_{column}_{end}_frac", pick(latest[column]), "fraction",
                    f"{end.capitalize()} {what} gain over the newest Megatron-Bridge release step")
    res.add("megatron_latest_gain_gap_max_frac", (latest["throughput_gain"] - latest["printed_tflops_gain"]).abs().max(),
            "fraction", "Largest gap between a step's tokens/s gain and its printed TFLOP/s gain (the newest step)")


def _add_seed_check(res: ChapterResults, P, bench: pd.DataFrame, price: float) -> None:
    """What the seed's end-of-year MFU and GPT-3 cost would imply."""
    flops_per_token = float(benchmarks.sweep(bench, "gpt3_175b", "fp8", SA)["flops_per_token"].iloc[0])
    seed_rate = P.seed_mfu_end * hardware.peak_tflops("h100_sxm", "bf16") * 1e12 / flops_per_token
    run_cost = res.add("seed_mfu_run_cost_usd", costs.run_cost_usd(P.gpt3_train_tokens, price, seed_rate), "USD",
                       "GPT-3 175B BF16 cost of its training tokens at the seed's end-of-year MFU")
    res.add("seed_mfu_run_cost_multiple_ratio", run_cost / fact("A23_gpt3_fp8_cost_jan2024"), "ratio",
            "That cost over the original's January 2024 GPT-3 cost")
    per_million = res.add("seed_cost_usd_per_million_tokens", P.seed_gpt3_cost_end_usd / (P.gpt3_train_tokens / 1e6),
                          "USD per million tokens", "The seed's end-of-year GPT-3 cost per 1M tokens")
    res.add("seed_cost_implied_fp8_mfu",
            software.implied_mfu_from_cost(price, per_million, flops_per_token, hardware.peak_tflops("h100_sxm", "fp8")),
            "fraction", "FP8 MFU that the seed's end-of-year GPT-3 cost would need")
    res.add("h100_launch_year", hardware.gpu("h100_sxm")["launch_year"], "year", "First year of H100 availability")


def _add_frontier_run(res: ChapterResults, bench: pd.DataFrame, tco: ChapterResults) -> None:
    """The 2024 GPT-3 BF16 gain applied to the TCO chapter's 15T-token Llama 3.1 405B run on 2,304
    GPUs: its cost and token count are read from ``tco``, not recomputed."""
    s405 = benchmarks.sweep(bench, "llama31_405b", "bf16", RELEASE)
    big = s405[s405["gpus"] == framing("A01_gpus_max_405b")].iloc[0]
    rate = res.add("llama31_405b_bf16_tokens_per_s_per_gpu_2304", big["tokens_per_s_per_gpu"], "tokens/s/GPU",
                   "Llama 3.1 405B BF16 tokens/s per GPU on the largest cluster (NVIDIA v25.02)")
    res.add("llama31_405b_largest_gpus", big["gpus"], "GPUs", "Largest Llama 3.1 405B cluster, NVIDIA v25.02")
    for key in ("llama31_405b_train_trillion_tokens", "llama31_405b_bf16_cost_15t_tokens_usd"):
        res.add(key, tco[key], tco.unit(key), tco.quantities[key].label)
    cost, tokens = res["llama31_405b_bf16_cost_15t_tokens_usd"], res["llama31_405b_train_trillion_tokens"] * 1e12
    days = res.add("llama31_405b_bf16_run_15t_tokens_days", tokens / (rate * big["gpus"]) / SECONDS_PER_DAY,
                   "days", "Llama 3.1 405B BF16 pre-training days on the largest cluster")
    gain = res["gpt3_175b_bf16_throughput_gain_frac"]
    before = res.add("llama31_405b_bf16_cost_15t_tokens_at_jan2024_software_usd", software.cost_before_gain_usd(cost, gain),
                     "USD", "The same run at January 2024 software speed (GPT-3 BF16 gain)")
    res.add("llama31_405b_bf16_software_saving_15t_tokens_usd", before - cost, "USD",
            "What the 2024 software gain saves on the run")
    res.add("llama31_405b_bf16_run_15t_tokens_at_jan2024_software_days", days * (1 + gain), "days",
            "Days for the same run at January 2024 software speed")
    res.add("llama31_405b_bf16_software_saving_15t_tokens_days", days * gain, "days",
            "Days the 2024 software gain saves on the run")


def compute(P, upstream) -> ChapterResults:
    res = ChapterResults("software")
    res.name("model", "gpt3_175b")  # SemiAnalysis's GPT-3 175B runs on 128 H100
    res.name("gpu", "h100_sxm")
    res.name("run_model", REFERENCE_RUN["model_id"])
    bench = benchmarks.load_benchmarks()
    price = res.add("h100_tco_usd_per_gpu_hour", upstream["tco"]["h100_tco_usd_per_gpu_hour"], "USD per GPU-hour",
                    "H100 TCO per GPU-hour")
    res.add("gpt3_train_tokens", P.gpt3_train_tokens, "tokens", "Tokens of GPT-3's original training run")
    _add_gpt3_year(res, bench, price, P.gpt3_train_tokens)
    res.add_table("releases", release_points(bench))
    gains = res.add_table("release_gains", release_gains(bench))
    names = model_names()
    for r in gains.itertuples():
        res.add(f"{r.model_id}_{r.precision}_release_gain_frac", r.gain, "fraction",
                f"{names[r.model_id]} {r.precision.upper()} throughput gain, {r.software_first} -> {r.software_last}")
    res.add("llama31_release_gain_min_frac", gains["gain"].min(), "fraction",
            "Smallest throughput gain between NVIDIA's first and last Llama 3.1 tables")
    res.add("llama31_release_gain_max_frac", gains["gain"].max(), "fraction",
            "Largest throughput gain between NVIDIA's first and last Llama 3.1 tables")
    _add_seed_check(res, P, bench, price)
    _add_frontier_run(res, bench, upstream["tco"])
    _add_release_steps(res)
    return res
