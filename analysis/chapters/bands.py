"""P10 / P50 / P90 bands around a chapter's point estimates, from the uncertainty analysis
(:mod:`analysis.uncertainty`): the chapters that print a band (TCO, energy, reliability) and the
uncertainty chapter itself all call :func:`band_frame`, so a band is computed one way."""

from __future__ import annotations

import pandas as pd

from analysis import reliability, uncertainty
from analysis.sections import all_params


def model_values(chapter_values: dict | None = None) -> dict:
    """Every model input by name at its default, updated with ``chapter_values`` (a chapter's
    parameters): the point the distributions are centred on."""
    values = {name: p.default for name, p in all_params().items()}
    values["mfu_scale"] = 1.0
    values.update(chapter_values or {})
    return values


def band_frame(P, keys=None) -> pd.DataFrame:
    """Point, P10, P50 and P90 (with label and unit) of the uncertainty outputs ``keys`` (all when
    None), indexed by output key, at the chapter's parameters ``P`` (``P.mc_draws`` seeded draws,
    seed ``P.mc_seed``; inputs the chapter does not list sit at their defaults)."""
    values = model_values(vars(P))
    point = uncertainty.evaluate(values, uncertainty.reference_tokens_per_s(), reliability.llama3_rates())
    table = uncertainty.bands(uncertainty.simulate(values, P.mc_draws, P.mc_seed),
                              {k: float(v) for k, v in point.items()})
    return table if keys is None else table.loc[list(keys)]
