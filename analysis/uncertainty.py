"""Uncertainty and sensitivity: how sure is each headline number, and what drives it.

Each uncertain input has a distribution in ``data/distributions.csv`` (triangular around this
build's value, or uniform), with its low and high taken from cited data or stated as an
assumption. :func:`simulate` draws them all at once (seeded, vectorized numpy) and pushes the draws
through the book's own functions (TCO, costs, energy, reliability), so the bands are the model's,
not a separate one. :func:`tornado` swings one input at a time from its low to its high.

The reference workload for per-token figures is Llama 3.1 405B in BF16 on 2,304 H100s (NVIDIA
DGXC v25.02), the run SemiAnalysis prices at $1.95 per million tokens (A34).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from analysis import costs, energy, reliability, tco
from analysis.benchmarks import load_benchmarks, pick
from analysis.data import framing, load_table

# The inputs that :func:`evaluate` reads besides the distributions' own: a caller passes every one
# of them (``analysis.chapters.bands.model_values`` fills them from the defaults).

OUTPUTS = {  # key: (label, unit)
    "h100_tco_usd_per_gpu_hour": ("H100 TCO per GPU-hour", "USD per GPU-hour"),
    "gb200_tco_usd_per_gpu_hour": ("GB200 TCO per GPU-hour", "USD per GPU-hour"),
    "gb200_breakeven_speedup": ("GB200 break-even speed-up", "ratio"),
    "gb200_breakeven_speedup_with_downtime": ("GB200 break-even speed-up with downtime", "ratio"),
    "llama31_405b_bf16_usd_per_million_tokens": ("Llama 3.1 405B BF16, USD per 1M tokens", "USD per million tokens"),
    "llama31_405b_bf16_j_per_token": ("Llama 3.1 405B BF16, joules per token", "J per token"),
    "llama31_405b_bf16_household_years_15t_tokens": ("Llama 3.1 405B BF16 on 15T tokens, household-years", "household-years"),
}


def distributions() -> pd.DataFrame:
    """The uncertain inputs, one row each (``data/distributions.csv``)."""
    return load_table("distributions").set_index("param")


def reference_tokens_per_s() -> float:
    """Tokens/s/GPU of the reference run (Llama 3.1 405B BF16, 2,304 H100, DGXC v25.02)."""
    row = pick(load_benchmarks(), source_id="nv_dgxc_v25_02", model_id="llama31_405b", precision="bf16", gpus=2304)
    return float(row["tokens_per_s_per_gpu"])


def draw(values: dict, n: int, seed: int, table: pd.DataFrame | None = None) -> dict:
    """``values`` (every model input by name, at this build's value) with each uncertain input
    replaced by ``n`` seeded draws. Triangular draws peak at the build's value, clipped into the
    range so a scenario outside it still gets a valid distribution."""
    table = distributions() if table is None else table
    rng = np.random.default_rng(seed)
    out = dict(values)
    for name, d in table.iterrows():
        if d["shape"] == "uniform":
            out[name] = rng.uniform(d["low"], d["high"], n)
        else:
            mode = float(np.clip(values.get(name, (d["low"] + d["high"]) / 2), d["low"], d["high"]))
            out[name] = rng.triangular(d["low"], mode, d["high"], n)
    return out


def evaluate(p: dict, tokens_per_s: float, rates: dict) -> dict:
    """Every output of :data:`OUTPUTS` for inputs ``p`` (scalars or equal-length arrays)."""
    h100 = tco.system_tco_per_gpu_hour_usd("h100", p)
    gb200 = tco.system_tco_per_gpu_hour_usd("gb200", p)
    rate = tokens_per_s * p.get("mfu_scale", 1.0)
    j_per_token = energy.joules_per_token(energy.meter_w_per_gpu(p["h100_it_w_per_gpu"], p["pue"]), rate)
    return {
        "h100_tco_usd_per_gpu_hour": h100,
        "gb200_tco_usd_per_gpu_hour": gb200,
        "gb200_breakeven_speedup": tco.breakeven_speedup(gb200, h100),
        "gb200_breakeven_speedup_with_downtime": reliability.breakeven_with_downtime(p, h100, gb200, p["job_gpus"], rates),
        "llama31_405b_bf16_usd_per_million_tokens": costs.usd_per_million_tokens(h100, rate),
        "llama31_405b_bf16_j_per_token": j_per_token,
        "llama31_405b_bf16_household_years_15t_tokens": energy.household_years(framing("A35_train_tokens"), j_per_token, p["household_kwh_per_year"]),
    }


def simulate(values: dict, n: int = 100_000, seed: int = 20250820) -> pd.DataFrame:
    """``n`` seeded draws of every output (a column each). Same seed, same numbers."""
    outputs = evaluate(draw(values, n, seed), reference_tokens_per_s(), reliability.llama3_rates())
    return pd.DataFrame({k: np.broadcast_to(v, (n,)) for k, v in outputs.items()})


def bands(samples: pd.DataFrame, point: dict) -> pd.DataFrame:
    """P10, P50 and P90 of each output beside the point estimate (the model at this build's values)."""
    q = samples.quantile([0.10, 0.50, 0.90]).T
    q.columns = ["p10", "p50", "p90"]
    q.insert(0, "point", pd.Series(point))
    q.insert(0, "unit", [OUTPUTS[k][1] for k in q.index])
    q.insert(0, "label", [OUTPUTS[k][0] for k in q.index])
    return q


def tornado(values: dict, output: str, table: pd.DataFrame | None = None) -> pd.DataFrame:
    """One-at-a-time sensitivity of ``output``: each input at its low and at its high, the others
    at this build's values; sorted by swing, largest first."""
    table = distributions() if table is None else table
    tokens, rates = reference_tokens_per_s(), reliability.llama3_rates()
    base = evaluate(values, tokens, rates)[output]
    rows = []
    for name, d in table.iterrows():
        low = evaluate({**values, name: d["low"]}, tokens, rates)[output]
        high = evaluate({**values, name: d["high"]}, tokens, rates)[output]
        rows.append({"param": name, "low_input": d["low"], "high_input": d["high"], "at_low": float(low),
                     "at_high": float(high), "swing": abs(float(high) - float(low)), "base": float(base)})
    return pd.DataFrame(rows).sort_values("swing", ascending=False).reset_index(drop=True)
