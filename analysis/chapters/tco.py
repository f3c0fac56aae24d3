"""TCO chapter: dollars per GPU-hour of H100 and GB200 NVL72, and the speed-up GB200 needs.

(Minimal first version: the quantities other chapters read. The TCO chapter's engineer extends it.)
"""

from __future__ import annotations

from analysis import tco
from analysis.chapters import ChapterResults


def compute(P, upstream) -> ChapterResults:
    res = ChapterResults("tco")
    h100 = res.add("h100_tco_usd_per_gpu_hour", tco.system_tco_per_gpu_hour_usd("h100", P), "USD per GPU-hour",
                   "H100 TCO per GPU-hour")
    gb200 = res.add("gb200_tco_usd_per_gpu_hour", tco.system_tco_per_gpu_hour_usd("gb200", P), "USD per GPU-hour",
                    "GB200 NVL72 TCO per GPU-hour")
    res.add("gb200_breakeven_speedup", tco.breakeven_speedup(gb200, h100), "ratio",
            "Per-GPU speed-up GB200 needs to match H100's performance per TCO dollar")
    return res
