"""Benchmarks chapter: MFU, throughput and cost per token, and GB200 NVL72 against H100.

(Minimal first version: the quantities other chapters read. The benchmarks chapter's engineer extends it.)
"""

from __future__ import annotations

from analysis import benchmarks
from analysis.chapters import ChapterResults

# (model id, precision) pairs NVIDIA publishes on both GB200 NVL72 and H100.
GB200_COMPARED = (("deepseek_v3", "bf16"), ("llama4_maverick", "bf16"), ("llama4_maverick", "fp8"),
                  ("llama31_405b", "bf16"), ("llama31_405b", "fp8"))


def compute(P, upstream) -> ChapterResults:
    res = ChapterResults("benchmarks")
    bench = benchmarks.load_benchmarks()
    for model_id, precision in GB200_COMPARED:
        gb = benchmarks.best_rate_row(bench, model_id, precision, "gb200_nvl72")
        h = benchmarks.best_rate_row(bench, model_id, precision, "h100_sxm")
        res.add(f"gb200_vs_h100_{model_id}_{precision}_throughput_ratio",
                gb["tokens_per_s_per_gpu"] / h["tokens_per_s_per_gpu"], "ratio",
                f"{model_id} {precision.upper()} tokens/s per GPU, GB200 NVL72 / H100 (NVIDIA)")
    return res
