"""What a plan takes and gives: :class:`PlanInputs`, :class:`Plan`, the result keys and the
models (from ``data/models.csv``, from a shape, or from a backtest row)."""

from __future__ import annotations

from dataclasses import dataclass, field

import pandas as pd

from analysis.data.load import row


class PlanError(ValueError):
    """Inputs a plan cannot use; the message names the flag and the valid values."""


SCHEMA_VERSION = 2  # of plan's JSON: 2 added schema_version, throughput's FLOP conventions and strong scaling,
# memory pressure in the estimate, the unusual-input notes and the inverse modes (--days, --budget-usd)

# Result keys in output order: (unit, label). The energy, household-years and CO2 lead with one
# basis (``Plan.energy_basis``); both bases are also given by name.
KEYS = {
    "days": ("days", "Training time without failures"),
    "days_with_failures": ("days", "Wall-clock time with failures and restarts"),
    "gpu_hours": ("GPU-hours", "GPU-hours paid (GPUs x wall-clock hours)"),
    "cost_usd": ("USD", "Cost of the GPU-hours"),
    "energy_mwh": ("MWh", "Energy, on the basis the plan leads with"),
    "household_years": ("household-years", "Energy in US household-years"),
    "co2_t": ("t CO2", "Carbon dioxide, location-based"),
    "energy_gpu_tdp_mwh": ("MWh", "Energy, GPU TDP x GPU-hours (x PUE where given)"),
    "co2_gpu_tdp_t": ("t CO2", "Carbon dioxide, GPU TDP basis"),
    "energy_facility_mwh": ("MWh", "Energy at the meter, all-in IT power x PUE x load factor (average draw)"),
    "co2_facility_t": ("t CO2", "Carbon dioxide, facility basis"),
    "interruptions": ("count", "Interruptions (unexpected and planned)"),
    "goodput": ("fraction", "Goodput (useful share of wall-clock time)"),
    "checkpoint_interval_min": ("minutes", "Checkpoint interval (Daly's optimum)"),
}
PRECISIONS = ("bf16", "fp16", "fp8")
# FP16 mixed precision runs at the 16-bit tensor peak: equal to BF16's on A100 and H100, and the
# FP16 peak on V100, which has no BF16 path (gpus.csv keeps it in the bf16 column, noted there).
PEAK_COLUMN = {"bf16": "bf16", "fp16": "bf16", "fp8": "fp8"}


@dataclass
class PlanInputs:
    """One run to plan. ``model`` is a ``models.csv``-like mapping (active_params, layers,
    hidden_size, seq_len, vocab_size, tied_embeddings; optionally attention widths and MoE router,
    :func:`analysis.flops.flops_per_token_parts`). Throughput: at most one of ``mfu``,
    ``tokens_per_s_per_gpu`` and ``achieved_tflops`` (with ``flops_counted``); none estimates the
    MFU (:mod:`analysis.planner.mfu`) without the run ``exclude_run`` (the backtest's
    leave-one-run-out). ``flops_counted`` is what a given MFU or TFLOP/s counts; None spans the
    conventions (:mod:`analysis.planner.rates`). ``strong_scaling``: whether past the largest
    published job the strong-scaling model carries the throughput (None: for an estimate only). ``None`` means the book's default (and, for the uncertain ones, its range).
    ``energy_basis`` is ``"gpu-tdp"``, ``"facility"`` or None (facility where the accelerator has
    a sourced power build-up, else GPU TDP); ``grid_id`` names a row of ``data/grid_carbon.csv``,
    ``grid_g_co2_per_kwh`` a custom intensity (give at most one)."""

    model: dict
    tokens: float
    gpu_id: str
    gpus: int
    precision: str = "bf16"
    mfu: float | None = None
    tokens_per_s_per_gpu: float | None = None
    achieved_tflops: float | None = None
    flops_counted: str | None = None
    usd_per_gpu_hour: float | None = None
    pue: float | None = None
    tariff_usd_per_kwh: float | None = None
    grid_g_co2_per_kwh: float | None = None
    grid_id: str | None = None
    energy_basis: str | None = None
    checkpoint_write_seconds: float | None = None
    restart_minutes: float | None = None
    failure_model: str = "per-gpu"
    full_recompute: bool = False  # every layer's forward pass recomputed: an estimated MFU counts that work out
    strong_scaling: bool | None = None  # None: for an estimate only; True: also a given throughput (the inverse modes)
    exclude_run: str | None = None
    draws: int = 4_000
    seed: int = 0


@dataclass
class Plan:
    """The plan's quantities (``key -> {"value", "unit", "p10", "p50", "p90"}``), the steps behind
    them (``steps``: name -> value), the notes that say how each step was made, the sourced rental
    prices, and the named pieces the JSON carries: the energy basis it leads with, both bases'
    power per GPU, the grid and the throughput with its measured error."""

    results: dict
    steps: dict = field(default_factory=dict)
    notes: list = field(default_factory=list)
    prices: list = field(default_factory=list)
    energy_basis: str | None = "facility"
    bases: dict = field(default_factory=dict)
    grid: dict = field(default_factory=dict)
    throughput: dict = field(default_factory=dict)
    samples: dict = field(default_factory=dict, repr=False)  # the seeded draws behind the bands (not in the JSON)

    def to_json(self) -> dict:
        return {"schema_version": SCHEMA_VERSION, "results": {k: dict(v) for k, v in self.results.items()},
                "energy_basis": self.energy_basis,
                "energy_bases": self.bases, "grid": self.grid, "throughput": self.throughput,
                "notes": list(self.notes)}


# --- models ------------------------------------------------------------------------------------------

def model_from_registry(model_id: str) -> dict:
    """A row of ``data/models.csv`` as a plain mapping."""

    return dict(row("models", model_id))


def model_from_shape(params: float, layers: int, hidden_size: int, seq_len: int,
                     active_params: float | None = None) -> dict:
    """A model given by its size and shape. With no vocabulary, every parameter counts as a matmul
    parameter (tied embeddings, vocabulary 0), which is 6 N + 12 L h s for N = ``params`` (or
    ``active_params`` for an MoE)."""
    active = params if active_params is None else active_params
    return {"name": f"{params:.3g}-parameter model", "active_params": float(active), "total_params": float(params),
            "layers": int(layers), "hidden_size": int(hidden_size), "seq_len": int(seq_len), "vocab_size": 0,
            "tied_embeddings": True}


OPTIONAL_SHAPE = ("attention_qk_width", "attention_v_width", "experts", "moe_layers")


def model_from_run(r) -> dict:
    """A ``data/backtest_runs.csv`` row's model as a ``models.csv``-like mapping (``params`` are
    the active parameters that count in 6 N; MoE rows add the attention widths and the router)."""
    model = {"name": r["name"], "active_params": float(r["params"]), "total_params": float(r["total_params"]),
             "layers": int(r["layers"]), "hidden_size": int(r["hidden_size"]), "seq_len": int(r["seq_len"]),
             "vocab_size": int(r["vocab_size"]), "tied_embeddings": bool(r["tied_embeddings"])}
    for key in OPTIONAL_SHAPE:
        if key in r and pd.notna(r[key]):
            model[key] = float(r[key])
    return model
