"""The headline results as one point model, and the P10 / P50 / P90 bands around them.

:func:`evaluate` computes the headline results (:data:`OUTPUTS`) at parameters ``P`` through the
chapters' own chain functions, the ones those chapters call for the same keys: the GPU-hour
costs (:func:`analysis.chapters.gpu_cost.system_costs`, as the TCO chapter), the reference run's
cost and energy per token (as the TCO and energy chapters, :func:`analysis.chapters.energy.h100_j_per_token`)
and GB200's break-even with downtime (:func:`analysis.chapters.downtime.breakeven_with_downtime`).
Values may be arrays, so :func:`band_frame` evaluates it once on every seeded draw of the uncertain
inputs (:mod:`analysis.uncertainty`). The chapters that print a band (TCO, energy, downtime), the
uncertainty chapter, the what-if grids and the scenario comparison all call these two functions.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from analysis import benchmarks, costs, reliability, tco, uncertainty
from analysis.chapters import downtime, energy, gpu_cost
from analysis.chapters.registry import all_params
from analysis.data.load import framing
from analysis.params.parameters import Parameters, resolve

OUTPUTS = {  # key: (label, unit), as the owning chapter records it
    "h100_tco_usd_per_gpu_hour": ("H100 TCO per GPU-hour", "USD per GPU-hour"),
    "gb200_tco_usd_per_gpu_hour": ("GB200 TCO per GPU-hour", "USD per GPU-hour"),
    "gb200_breakeven_speedup": ("GB200 break-even speed-up", "ratio"),
    "gb200_breakeven_speedup_with_downtime": ("GB200 break-even speed-up with downtime", "ratio"),
    "llama31_405b_bf16_usd_per_million_tokens": ("Llama 3.1 405B BF16, USD per 1M tokens at NVIDIA's benchmark speed, no failures",
                                                 "USD per million tokens"),
    "llama31_405b_bf16_j_per_token": ("Llama 3.1 405B BF16, joules per token", "J per token"),
    "llama31_405b_bf16_household_years_15t_tokens": ("Llama 3.1 405B BF16 on 15T tokens, household-years", "household-years"),
}
COST_KEYS = ("h100_tco_usd_per_gpu_hour", "gb200_tco_usd_per_gpu_hour", "gb200_breakeven_speedup",
             "llama31_405b_bf16_usd_per_million_tokens", "gb200_breakeven_speedup_with_downtime")
ENERGY_KEYS = ("llama31_405b_bf16_j_per_token", "llama31_405b_bf16_household_years_15t_tokens")
# A Monte Carlo input only, no chapter's parameter: the throughput of the reader's cluster against
# NVIDIA's reference run (data/distributions.csv), 1 at the point estimate.
MFU_SCALE = "mfu_scale"


def book_parameters(overrides: dict | None = None) -> Parameters:
    """Every parameter of the book at its default, with ``overrides`` (validated) applied: the
    inputs of a scenario as a whole (the scenario comparison)."""
    return Parameters(resolve(all_params(), dict(overrides or {})))


def evaluate(P, keys=None, *, mfu_scale=1.0, tokens_per_s: float | None = None,
             rates: dict | None = None) -> dict:
    """The outputs ``keys`` (all of :data:`OUTPUTS` when None) at parameters ``P`` (scalars or
    equal-length arrays; ``P`` needs only the parameters those outputs read). ``mfu_scale`` scales
    the reference run's throughput; ``tokens_per_s`` (the reference run's) and ``rates`` (Llama 3's
    failure rates) are looked up when not given."""
    keys = list(OUTPUTS if keys is None else keys)
    unknown = sorted(set(keys) - set(OUTPUTS))
    if unknown:
        raise KeyError(f"no band output {', '.join(unknown)}; outputs: {', '.join(OUTPUTS)}")
    rate = (benchmarks.reference_tokens_per_s() if tokens_per_s is None else tokens_per_s) * mfu_scale
    out = {}
    if set(keys) & set(COST_KEYS):
        h100, gb200 = (gpu_cost.tco_usd_per_gpu_hour(P, s) for s in ("h100", "gb200"))
        out.update({"h100_tco_usd_per_gpu_hour": h100, "gb200_tco_usd_per_gpu_hour": gb200,
                    "gb200_breakeven_speedup": tco.breakeven_speedup(gb200, h100),
                    "llama31_405b_bf16_usd_per_million_tokens": costs.usd_per_million_tokens(h100, rate)})
        if "gb200_breakeven_speedup_with_downtime" in keys:
            out["gb200_breakeven_speedup_with_downtime"] = downtime.breakeven_with_downtime(
                P, h100, gb200, P.job_gpus, reliability.llama3_rates() if rates is None else rates)
    if set(keys) & set(ENERGY_KEYS):
        j = out["llama31_405b_bf16_j_per_token"] = energy.h100_j_per_token(P, rate)
        out["llama31_405b_bf16_household_years_15t_tokens"] = energy.household_years(P, framing("A35_train_tokens"), j)
    return {k: out[k] for k in keys}


def draws(P, n: int, seed: int, table: pd.DataFrame | None = None) -> tuple[Parameters, np.ndarray]:
    """``P`` with each uncertain input it has replaced by ``n`` seeded draws
    (:func:`analysis.uncertainty.draw`, centred on ``P``'s values), and the draws of ``mfu_scale``."""
    table = uncertainty.distributions() if table is None else table
    modes = {name: getattr(P, name) for name in table.index if name in P}
    drawn = uncertainty.draw({**modes, MFU_SCALE: 1.0}, n, seed, table)
    scale = drawn.pop(MFU_SCALE, np.ones(n))
    return P.replace(**{name: values for name, values in drawn.items() if name in P}), scale


def band_frame(P, keys=None, *, tokens_per_s: float | None = None, rates: dict | None = None) -> pd.DataFrame:
    """Point, P10, P50 and P90 (with label and unit) of the outputs ``keys`` (all when None),
    indexed by output key, at the chapter's parameters ``P``: ``P.mc_draws`` seeded draws, seed
    ``P.mc_seed``, of the uncertain inputs ``P`` has (the others do not move these outputs).
    ``tokens_per_s`` and ``rates`` as for :func:`evaluate`."""
    keys = list(OUTPUTS if keys is None else keys)
    tokens = benchmarks.reference_tokens_per_s() if tokens_per_s is None else tokens_per_s
    rates = reliability.llama3_rates() if rates is None else rates
    point = evaluate(P, keys, tokens_per_s=tokens, rates=rates)
    drawn, scale = draws(P, P.mc_draws, P.mc_seed)
    samples = evaluate(drawn, keys, mfu_scale=scale, tokens_per_s=tokens, rates=rates)
    table = uncertainty.bands(pd.DataFrame({k: np.broadcast_to(v, (P.mc_draws,)) for k, v in samples.items()}), point)
    table.insert(0, "unit", [OUTPUTS[k][1] for k in table.index])
    table.insert(0, "label", [OUTPUTS[k][0] for k in table.index])
    return table.loc[keys]


def band_width_held(P, key: str, held, *, tokens_per_s: float | None = None, rates: dict | None = None) -> dict:
    """How much of the P10-P90 band of output ``key`` the inputs ``held`` make: the band with every
    uncertain input drawn (the draws of :func:`band_frame`), and with the same draws but the
    ``held`` inputs at ``P``'s values. Returns both bands' ``p10``/``p90``, ``width``/``width_held``
    and ``share``, 1 - width_held / width: the part of the band those inputs account for."""
    tokens = benchmarks.reference_tokens_per_s() if tokens_per_s is None else tokens_per_s
    rates = reliability.llama3_rates() if rates is None else rates
    drawn, scale = draws(P, P.mc_draws, P.mc_seed)
    fixed = drawn.replace(**{name: getattr(P, name) for name in held})
    out = {}
    for tag, params in (("", drawn), ("_held", fixed)):
        values = np.broadcast_to(evaluate(params, [key], mfu_scale=scale, tokens_per_s=tokens, rates=rates)[key],
                                 (P.mc_draws,))
        p10, p90 = np.quantile(values, [0.10, 0.90])
        out.update({f"p10{tag}": float(p10), f"p90{tag}": float(p90), f"width{tag}": float(p90 - p10)})
    out["share"] = 1.0 - out["width_held"] / out["width"]
    return out


def tornado_frame(P, output: str, *, tokens_per_s: float | None = None, rates: dict | None = None) -> pd.DataFrame:
    """One-at-a-time sensitivity of ``output`` to each uncertain input (:func:`analysis.uncertainty.tornado`)
    at the chapter's parameters ``P``; ``tokens_per_s`` and ``rates`` as for :func:`evaluate`."""
    tokens = benchmarks.reference_tokens_per_s() if tokens_per_s is None else tokens_per_s
    rates = reliability.llama3_rates() if rates is None else rates

    def at(changes: dict) -> float:
        changes = dict(changes)
        scale = changes.pop(MFU_SCALE, 1.0)
        return float(evaluate(P.replace(**changes), [output], mfu_scale=scale, tokens_per_s=tokens,
                              rates=rates)[output])

    table = uncertainty.distributions()
    return uncertainty.tornado(at, table[[name == MFU_SCALE or name in P for name in table.index]])
