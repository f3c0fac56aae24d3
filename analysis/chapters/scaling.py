"""Scaling chapter: weak scaling measured on NVIDIA's sweeps, strong scaling from a small model
(:mod:`analysis.scaling`) calibrated on one measured run, and what the last GPUs of a fixed-batch
cluster cost at the TCO chapter's price of an H100-hour (``upstream["tco"]``)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from analysis import benchmarks, scaling
from analysis.chapters import ChapterError, ChapterResults
from analysis.chapters.benchmarks import PRECISIONS, RELEASE, model_names
from analysis.data.load import load_table
from analysis.params.constraints import where
from analysis.params.parameters import ParameterError

# Results of the benchmarks chapter this chapter's prose sets beside its own.
FROM_BENCHMARKS = ("llama31_70b_fp8_mfu_relative_drop_64_to_2048_frac",
                   "llama31_70b_bf16_mfu_relative_drop_64_to_2048_frac",
                   "llama31_70b_fp8_mfu_relative_drop_nvidia_frac")


def weak_table(bench: pd.DataFrame) -> pd.DataFrame:
    """NVIDIA's v25.02 weak-scaling sweeps (:func:`analysis.scaling.weak_scaling_table`), with the
    sequences each GPU trains per step (constant along a weak sweep)."""
    weak = scaling.weak_scaling_table(bench, RELEASE)
    rows = bench[(bench["source_id"] == RELEASE) & (bench["gpu_id"] == "h100_sxm")]
    per_gpu = (rows["global_batch"] / rows["gpus"]).groupby([rows["model_id"], rows["precision"]]).first()
    weak["sequences_per_gpu_per_step"] = [per_gpu[(m, p)] for m, p in zip(weak["model_id"], weak["precision"],
                                                                          strict=True)]
    return weak


def _add_weak(res: ChapterResults, bench: pd.DataFrame) -> None:
    weak = res.add_table("weak", weak_table(bench))
    growth = weak["gpus_large"] / weak["gpus_small"]
    res.add("weak_growth_min_ratio", growth.min(), "ratio", "Smallest growth in GPU count of a v25.02 weak sweep")
    res.add("weak_growth_max_ratio", growth.max(), "ratio", "Largest growth in GPU count of a v25.02 weak sweep")
    res.add("weak_efficiency_min_frac", weak["efficiency"].min(), "fraction",
            "Lowest weak-scaling efficiency, NVIDIA v25.02 sweeps")
    res.add("weak_efficiency_max_frac", weak["efficiency"].max(), "fraction",
            "Highest weak-scaling efficiency, NVIDIA v25.02 sweeps")
    recipe = weak.set_index(["model_id", "precision"]).loc[("llama31_70b", "fp8")]  # the layout SA describes (A41)
    for kind, name in (("tp", "Tensor"), ("pp", "Pipeline"), ("cp", "Context")):
        res.add(f"llama31_70b_fp8_nvidia_{kind}", scaling.degree(recipe[kind]), "count",
                f"{name}-parallel degree of NVIDIA's Llama 3.1 70B FP8 recipe")
    for precision in PRECISIONS:
        s = benchmarks.sweep(bench, "llama31_405b", precision, RELEASE)
        res.add(f"llama31_405b_{precision}_mfu_2304", s["mfu"].iloc[-1], "fraction",
                f"Llama 3.1 405B {precision.upper()} MFU on the largest cluster (NVIDIA v25.02)")
    res.add("llama31_405b_largest_gpus", s["gpus"].iloc[-1], "GPUs", "Largest Llama 3.1 405B cluster, NVIDIA v25.02")


def strong_sweep(P, ref: pd.Series, params: float, usd_per_gpu_hour: float) -> tuple[pd.DataFrame, dict]:
    """The strong-scaling curve from the measured row ``ref`` (its global batch held fixed) to
    ``P.strong_max_gpus`` (or the most GPUs the batch can use), in whole replicas, with the first
    and last ``P.marginal_gpus`` block ends included; days and run cost of ``P.llama3_train_tokens``
    at ``usd_per_gpu_hour``. Returns the curve and the sizes that matter (reference, top, blocks)."""
    ref_step_s = scaling.step_time_from_rate_s(ref["global_batch"], ref["seq_len"], ref["gpus"],
                                               ref["tokens_per_s_per_gpu"])
    limit = scaling.max_gpus_for_batch(ref["global_batch"], ref["tp"], ref["pp"], ref["cp"])
    top = min(P.strong_max_gpus, limit)
    if top <= ref["gpus"]:
        raise ChapterError(f"strong_max_gpus ({P.strong_max_gpus}) must exceed the reference size ({ref['gpus']})")
    replica = scaling.model_parallel_gpus(ref["tp"], ref["pp"], ref["cp"])
    grid = np.arange(ref["gpus"], top + 1, replica, dtype=float)  # whole replicas only
    first_block = (float(ref["gpus"]), float(min(ref["gpus"] + P.marginal_gpus, top)))
    last_block = (float(max(ref["gpus"], top - P.marginal_gpus)), float(top))
    points = np.unique(np.concatenate([grid, first_block, last_block, [top]]))
    try:
        curve = scaling.strong_scaling(points, ref["gpus"], ref_step_s, params, ref["tp"], ref["pp"], ref["cp"],
                                       ref["vp"], ref["global_batch"], P.grad_bytes_per_param, P.backend_gbps)
    except ValueError as exc:  # the exchange alone outlasts the step NVIDIA measured at the reference size
        raise ParameterError(f"parameters 'grad_bytes_per_param' ({P.grad_bytes_per_param:g}) and 'backend_gbps' "
                             f"({P.backend_gbps:g}) conflict with the measured step: {exc}") from None
    curve["days"] = scaling.time_to_train_days(P.llama3_train_tokens, ref["global_batch"] * ref["seq_len"],
                                               curve["step_s"])
    curve["cost_usd"] = scaling.cluster_run_cost_usd(curve["gpus"], curve["days"], usd_per_gpu_hour)
    sizes = {"ref": float(ref["gpus"]), "top": float(top), "limit": limit, "ref_step_s": ref_step_s,
             "first_block": first_block, "last_block": last_block}
    return curve, sizes


def _add_strong(res: ChapterResults, P, bench: pd.DataFrame, usd_per_gpu_hour: float) -> None:
    ref_rows = res.add_table("strong_reference_sweep", benchmarks.sweep(bench, P.strong_model, P.strong_precision,
                                                                        RELEASE))
    ref = ref_rows.iloc[0]
    params = load_table("models").set_index("model_id").loc[P.strong_model, "total_params"]
    curve, sizes = strong_sweep(P, ref, params, usd_per_gpu_hour)
    res.add_table("strong", curve)
    at = curve.set_index("gpus")
    top, first, last = sizes["top"], sizes["first_block"], sizes["last_block"]
    res.add("strong_ref_gpus", ref["gpus"], "GPUs", "Strong-scaling reference cluster (measured)")
    res.add("strong_ref_tokens_per_s_per_gpu", ref["tokens_per_s_per_gpu"], "tokens/s/GPU",
            "Measured per-GPU throughput at the reference size")
    res.add("strong_global_batch_sequences", ref["global_batch"], "sequences", "Fixed global batch")
    res.add("strong_seq_len_tokens", ref["seq_len"], "tokens", "Sequence length of the reference run")
    res.add("strong_ref_step_seconds", sizes["ref_step_s"], "seconds", "Measured step time at the reference size")
    res.add("strong_batch_limit_gpus", sizes["limit"], "GPUs",
            "Most GPUs the fixed global batch can use (one sequence per replica)")
    res.add("strong_max_gpus_used", top, "GPUs", "Largest cluster of the strong-scaling sweep")
    res.add("strong_gpu_multiple_ratio", top / sizes["ref"], "ratio", "Largest cluster / reference cluster")
    res.add("strong_marginal_block_gpus", last[1] - last[0], "GPUs", "GPUs in the first and last blocks compared")
    res.add("strong_last_block_start_gpus", last[0], "GPUs", "Cluster size where the last block starts")
    res.add("strong_comm_at_ref_seconds", at.loc[sizes["ref"], "comm_s"], "seconds",
            "Gradient exchange per step at the reference size")
    res.add("strong_comm_at_max_seconds", at.loc[top, "comm_s"], "seconds",
            "Gradient exchange per step at the largest size")
    res.add("strong_bubble_seconds", at.loc[top, "bubble_s"], "seconds", "Pipeline fill and drain per step (any size)")
    res.add("strong_compute_at_max_seconds", at.loc[top, "compute_s"], "seconds", "Compute per step at the largest size")
    res.add("strong_step_at_max_seconds", at.loc[top, "step_s"], "seconds", "Step time at the largest size")
    res.add("strong_speedup_at_max_ratio", at.loc[top, "speedup"], "ratio",
            "Strong-scaling speed-up at the largest size over the reference")
    res.add("strong_efficiency_at_max_frac", at.loc[top, "efficiency"], "fraction",
            "Strong-scaling efficiency at the largest size")
    res.add("strong_run_at_ref_days", at.loc[sizes["ref"], "days"], "days", "Days to train on the reference cluster")
    res.add("strong_run_at_max_days", at.loc[top, "days"], "days", "Days to train on the largest cluster")
    res.add("strong_run_cost_at_ref_usd", at.loc[sizes["ref"], "cost_usd"], "USD", "Run cost on the reference cluster")
    res.add("strong_run_cost_at_max_usd", at.loc[top, "cost_usd"], "USD", "Run cost on the largest cluster")
    block = int(last[1] - last[0])
    for label, (a, b) in (("first", first), ("last", last)):
        res.add(f"strong_{label}_block_usd_per_speedup",
                scaling.marginal_usd_per_speedup(at.loc[a, "cost_usd"], at.loc[b, "cost_usd"], at.loc[a, "speedup"],
                                                 at.loc[b, "speedup"]),
                "USD per 1x speed-up", f"Extra run cost per unit of speed-up, {label} {block:,} GPUs")
        res.add(f"strong_{label}_block_usd_per_day_saved",
                scaling.marginal_usd_per_day_saved(at.loc[a, "cost_usd"], at.loc[b, "cost_usd"], at.loc[a, "days"],
                                                   at.loc[b, "days"]),
                "USD per day", f"Extra run cost per day saved, {label} {block:,} GPUs")
    if not res["strong_first_block_usd_per_speedup"] > 0:  # perfect scaling: more GPUs cost nothing extra
        raise ParameterError(f"parameters 'grad_bytes_per_param' ({P.grad_bytes_per_param:g}) and 'backend_gbps' "
                             f"({P.backend_gbps:g}) make the gradient exchange free, so the first "
                             f"{P.marginal_gpus:,} GPUs add no cost and the cost ratio of the blocks is undefined")
    res.add("strong_last_block_vs_first_block_cost_ratio",
            res["strong_last_block_usd_per_speedup"] / res["strong_first_block_usd_per_speedup"], "ratio",
            "Cost per unit of speed-up, last block / first block")
    res.add("strong_last_block_speed_gain_frac", at.loc[top, "speedup"] / at.loc[last[0], "speedup"] - 1, "fraction",
            "Speed gained by the last block of GPUs")
    res.add("strong_last_block_time_saved_frac", 1 - at.loc[top, "days"] / at.loc[last[0], "days"], "fraction",
            "Training time saved by the last block of GPUs")
    res.add("strong_last_block_cost_increase_frac", at.loc[top, "cost_usd"] / at.loc[last[0], "cost_usd"] - 1,
            "fraction", "Run cost added by the last block of GPUs")
    res.add("weak_efficiency_same_model_frac",
            scaling.weak_scaling_efficiency(ref["tokens_per_s_per_gpu"], ref_rows.iloc[-1]["tokens_per_s_per_gpu"]),
            "fraction", "Measured weak-scaling efficiency of the same model and precision, NVIDIA v25.02")
    res.add("weak_same_model_largest_gpus", ref_rows.iloc[-1]["gpus"], "GPUs",
            "Largest measured cluster of the same model and precision")


def compute(P, upstream) -> ChapterResults:
    res = ChapterResults("scaling")
    res.name("model", P.strong_model)
    bench = benchmarks.load_benchmarks()
    for key in FROM_BENCHMARKS:
        q = upstream["benchmarks"].quantities[key]
        res.add(key, q.value, q.unit, q.label)
    price = res.add("h100_tco_usd_per_gpu_hour", upstream["tco"]["h100_tco_usd_per_gpu_hour"], "USD per GPU-hour",
                    "H100 TCO per GPU-hour")
    res.add("llama3_train_tokens", P.llama3_train_tokens, "tokens", "Tokens of the Llama 3 405B pre-training run")
    res.add("grad_bytes_per_param", P.grad_bytes_per_param, "bytes", "Bytes per gradient exchanged")
    res.add("backend_gbps", P.backend_gbps, "Gbit/s", "Backend link per GPU")
    _add_weak(res, bench)
    _add_strong(res, P, bench, price)
    return res


def strong_model_name(P) -> str:
    """The reader-facing name of the strong-scaling model."""
    return model_names()[P.strong_model]


# --- inputs this chapter can use (analysis.chapters.check_inputs) ------------------------------------

def strong_reference_gpus(P) -> int | None:
    """The smallest measured cluster of the sweep of ``strong_model`` in ``strong_precision``: the
    strong-scaling curve starts there, so ``strong_max_gpus`` must exceed it."""
    rows = benchmarks.sweep(load_table("benchmarks"), P.strong_model, P.strong_precision, RELEASE)
    return int(rows["gpus"].min()) if len(rows) else None


def strong_reference_step(P) -> dict | None:
    """The reference run (the smallest measured cluster of ``strong_model`` in
    ``strong_precision``): its GPUs, pipeline degree, measured step and gradient exchange (seconds)
    at ``grad_bytes_per_param`` and ``backend_gbps``. The chapter calibrates its compute as the
    step minus the exchange, so the exchange must be the shorter; and with no exchange and no
    pipeline bubble, more GPUs would cost nothing extra and its cost ratios are undefined."""
    rows = benchmarks.sweep(benchmarks.load_benchmarks(), P.strong_model, P.strong_precision, RELEASE)
    if not len(rows):
        return None
    ref = rows.iloc[0]
    params = load_table("models").set_index("model_id").loc[P.strong_model, "total_params"]
    pp = scaling.degree(ref["pp"])
    return {"gpus": int(ref["gpus"]), "pp": pp,
            "step_s": float(scaling.step_time_from_rate_s(ref["global_batch"], ref["seq_len"], ref["gpus"],
                                                          ref["tokens_per_s_per_gpu"])),
            "exchange_s": float(scaling.grad_sync_s(params, scaling.degree(ref["tp"]), pp, ref["gpus"],
                                                    P.grad_bytes_per_param, P.backend_gbps))}


def check_inputs(P, origin: dict) -> None:
    """Refuse parameters this chapter cannot use together (exit 2, naming both)."""
    reference = strong_reference_gpus(P)
    if reference is not None and P.strong_max_gpus <= reference:
        raise ParameterError(
            f"{where(origin, 'strong_max_gpus', 'strong_model')}parameters 'strong_max_gpus' ({P.strong_max_gpus:,}) "
            f"and 'strong_model' ({P.strong_model}, {P.strong_precision}) conflict: the sweep starts at "
            f"{reference:,} measured GPUs, so strong_max_gpus must exceed {reference:,}")
    ref = strong_reference_step(P)
    if ref is None:
        return
    g, b, model = P.grad_bytes_per_param, P.backend_gbps, P.strong_model
    at = where(origin, "backend_gbps", "grad_bytes_per_param", "strong_model")
    if ref["exchange_s"] >= ref["step_s"]:
        raise ParameterError(
            f"{at}parameters 'grad_bytes_per_param' ({g:g}) and 'backend_gbps' ({b:g}) conflict: the gradient "
            f"exchange of {model} would take {ref['exchange_s']:.3g} s, longer than the whole {ref['step_s']:.3g} s "
            f"step measured on {ref['gpus']:,} GPUs; backend_gbps must exceed "
            f"{b * ref['exchange_s'] / ref['step_s']:.3g} at {g:g} bytes per parameter")
    if ref["exchange_s"] == 0 and ref["pp"] == 1:
        raise ParameterError(
            f"{at}parameters 'grad_bytes_per_param' (0) and 'strong_model' ({model}) conflict: with no gradient "
            "exchange and no pipeline (its measured recipe has pipeline degree 1), strong scaling is perfect, more "
            "GPUs cost nothing extra and the chapter's cost per speed-up is undefined; set grad_bytes_per_param "
            "above 0 or choose a model trained with a pipeline")
