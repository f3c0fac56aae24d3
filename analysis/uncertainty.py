"""Uncertainty and sensitivity: how sure is each headline number, and what drives it.

Each uncertain input has a distribution in ``data/distributions.csv`` (triangular around this
build's value, or uniform), with its low and high taken from cited data or stated as an
assumption. :func:`draw` draws them all at once (seeded, vectorized numpy); :func:`bands` reads
P10, P50 and P90 off the outputs; :func:`tornado` swings one input at a time from its low to its
high. The model the draws go through is not here: the chapter layer evaluates the chapters' own
chain functions on the draws (:mod:`analysis.chapters.bands`), so the bands are the model's, not a
separate one.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import numpy as np
import pandas as pd

from analysis.data.load import load_table


def distributions() -> pd.DataFrame:
    """The uncertain inputs, one row each (``data/distributions.csv``), indexed by ``param``."""
    return load_table("distributions").set_index("param")


def draw(modes: Mapping[str, float], n: int, seed: int, table: pd.DataFrame | None = None) -> dict[str, np.ndarray]:
    """``n`` seeded draws of every uncertain input of ``table`` (default: :func:`distributions`),
    in the table's order. Triangular draws peak at ``modes[name]`` (this build's value) clipped
    into the range, so a scenario outside it still gets a valid distribution, or at the middle of
    the range for an input ``modes`` lacks (a chapter that does not use it)."""
    table = distributions() if table is None else table
    rng = np.random.default_rng(seed)
    return {name: draw_one(rng, d, modes.get(name, (d["low"] + d["high"]) / 2), n) for name, d in table.iterrows()}


def draw_one(rng: np.random.Generator, distribution, mode: float, n: int) -> np.ndarray:
    """``n`` draws of one input from ``rng``: its ``distribution`` (a row of
    ``data/distributions.csv``: shape, low, high) is uniform, or triangular with its peak at
    ``mode`` clipped into the range."""
    low, high = distribution["low"], distribution["high"]
    if distribution["shape"] == "uniform":
        return rng.uniform(low, high, n)
    return rng.triangular(low, float(np.clip(mode, low, high)), high, n)


def bands(samples: pd.DataFrame, point: Mapping[str, float]) -> pd.DataFrame:
    """P10, P50 and P90 of each column of ``samples`` beside its point estimate (the model at this
    build's values), indexed by output."""
    q = samples.quantile([0.10, 0.50, 0.90]).T
    q.columns = ["p10", "p50", "p90"]
    q.insert(0, "point", pd.Series({k: float(v) for k, v in point.items()}))
    return q


def tornado(evaluate: Callable[[dict], float], table: pd.DataFrame | None = None) -> pd.DataFrame:
    """One-at-a-time sensitivity of one output: ``evaluate(changes)`` is the output with the
    inputs in ``changes`` (name: value) moved and the others at this build's values; each input of
    ``table`` goes to its low and to its high. Sorted by swing, largest first."""
    table = distributions() if table is None else table
    base = float(evaluate({}))
    rows = []
    for name, d in table.iterrows():
        low, high = float(evaluate({name: d["low"]})), float(evaluate({name: d["high"]}))
        rows.append({"param": name, "low_input": d["low"], "high_input": d["high"], "at_low": low,
                     "at_high": high, "swing": abs(high - low), "base": base})
    return pd.DataFrame(rows).sort_values("swing", ascending=False, kind="stable").reset_index(drop=True)
