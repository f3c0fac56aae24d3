"""Uncertainty chapter: P10 / P50 / P90 bands around the headline results, and which inputs move
the cost of a token and GB200's break-even most.

The bands come from :func:`analysis.chapters.bands.band_frame`, the one function every chapter
that prints a band calls; the tornado swings from :func:`analysis.chapters.bands.tornado_frame`.
Both evaluate the chapters' own chain functions (:func:`analysis.chapters.bands.evaluate`). This
module adds what the page needs on top: the point values under the same keys and units as the
chapters that own them (tests/test_chapters.py checks that they are the owners' values under every
scenario), each input's range beside this build's value, and reader-facing labels (each
parameter's ``description``) for the tornado bars.
"""

from __future__ import annotations

import pandas as pd

from analysis import benchmarks, reliability, uncertainty
from analysis.chapters import QUANTILES, ChapterResults, downtime, gpu_cost
from analysis.chapters.bands import MFU_SCALE, band_frame, band_width_held, tornado_frame
from analysis.chapters.registry import all_params

# The two results the tornado charts explain (table name: uncertainty output key).
TORNADO_OUTPUTS = {
    "tornado_cost": "llama31_405b_bf16_usd_per_million_tokens",
    "tornado_breakeven": "gb200_breakeven_speedup_with_downtime",
}
TORNADO_BARS = 8  # the inputs that swing each result most; the rest barely move it
# The inputs of maintenance built from its parts that have a sourced range (data/distributions.csv):
# how much of the TCO's band they make is shown beside the tornado.
MAINTENANCE_INPUTS = ("gpu_swap_share", "gpu_share_of_server_price", "warranty_years", "swap_person_hours",
                      "technician_usd_per_hour", "spares_restock_days")

# ``mfu_scale`` is a Monte Carlo input only (no chapter parameter), so it has no description.
EXTRA_LABELS = {MFU_SCALE: "Throughput of your cluster relative to NVIDIA's reference run"}

def input_labels() -> dict[str, str]:
    """Reader-facing name of every model input: the parameter's description."""
    return {**{name: p.description for name, p in all_params().items()}, **EXTRA_LABELS}


def inputs_frame(P) -> pd.DataFrame:
    """The uncertain inputs (``data/distributions.csv``) that the bands' model reads, with this
    build's value beside their range (``mfu_scale``, a Monte Carlo input only, at 1), and a label.
    A distribution no band reads (the load factor's, which the claims ledger uses for its range) is
    left out."""
    labels = input_labels()
    table = uncertainty.distributions().reset_index()
    table = table[[name == MFU_SCALE or name in P for name in table["param"]]].reset_index(drop=True)
    table.insert(1, "label", [labels[name] for name in table["param"]])
    table.insert(4, "value", [1.0 if name == MFU_SCALE else float(getattr(P, name)) for name in table["param"]])
    return table


def tornado_bars(P, output: str, bars: int = TORNADO_BARS, **lookups) -> pd.DataFrame:
    """The ``bars`` inputs that swing ``output`` most (:func:`analysis.chapters.bands.tornado_frame`,
    which takes the ``lookups``), each with a ``label`` for the chart."""
    table = tornado_frame(P, output, **lookups).head(bars).copy()
    labels = input_labels()
    table.insert(1, "label", [labels[name] for name in table["param"]])
    return table


def compute(P, upstream) -> ChapterResults:
    res = ChapterResults("uncertainty")
    gpu_cost.name_systems(res)
    res.name("reference_model", benchmarks.REFERENCE_RUN["model_id"])
    res.add("monte_carlo_draws_count", P.mc_draws, "count", "Seeded Monte Carlo draws behind every band")
    # the reference run's throughput and Llama 3's failure rates: data, looked up once
    lookups = {"tokens_per_s": benchmarks.reference_tokens_per_s(), "rates": reliability.llama3_rates()}
    bands = res.add_table("bands", band_frame(P, **lookups))
    for key, row in bands.iterrows():
        res.add(key, row["point"], row["unit"], row["label"])
        for q in QUANTILES:
            res.add(f"{key}_{q}", row[q], row["unit"], f"{row['label']}, {q.upper()}")
    res.add_table("inputs", inputs_frame(P))
    for name, output in TORNADO_OUTPUTS.items():
        res.add_table(name, tornado_bars(P, output, **lookups))
    _maintenance_share(P, res, lookups)
    return res


def _maintenance_share(P, res: ChapterResults, lookups: dict) -> None:
    """How much of the H100 TCO's P10-P90 band maintenance makes: the band with its components
    (:data:`MAINTENANCE_INPUTS`) drawn and held at this build's values, same draws otherwise."""
    held = band_width_held(P, "h100_tco_usd_per_gpu_hour", MAINTENANCE_INPUTS, **lookups)
    res.add("h100_tco_band_width_usd_per_gpu_hour", held["width"], "USD per GPU-hour",
            "Width of the H100 TCO's P10-P90 band")
    res.add("h100_tco_band_width_without_maintenance_usd_per_gpu_hour", held["width_held"], "USD per GPU-hour",
            "Width of the H100 TCO's P10-P90 band with maintenance held at this build's value")
    res.add("maintenance_share_of_h100_tco_band_pct", held["share"] * 100, "percent",
            "Share of the H100 TCO's P10-P90 band that maintenance makes")


def top_driver(res: ChapterResults, tornado: str) -> str:
    """The label of the input that swings a tornado's result most (``tornado_cost`` or
    ``tornado_breakeven``), for the prose."""
    return str(res.tables[tornado]["label"].iloc[0])


def check_inputs(P, origin: dict) -> None:
    """The downtime chapter's refusal (:func:`analysis.chapters.downtime.check_inputs`): the bands
    price the same job, with the same recovery."""
    downtime.check_inputs(P, origin)
