"""Schemas of the tables of training runs and benchmarks: benchmarks, training_runs,
published_runs, measured (written by ``python -m analysis measure``), atlas_benchmarks and
backtest_runs."""

from __future__ import annotations

from analysis.data.schemas.columns import DATE, ID, _bool_text, _int, _num, _source, _text, pa


def _benchmarks_schema(ids) -> pa.DataFrameSchema:
    return pa.DataFrameSchema(
        {
            "model_id": _text(isin=ids("models")),
            "gpu_id": _text(isin=ids("gpus")),
            "precision": _text(isin={"bf16", "fp8"}),
            "gpus": _int(1, 10_000_000),
            "software": _text(),
            "date": _text(regex=DATE),
            "tp": _int(1, 1_024, nullable=True),
            "pp": _int(1, 1_024, nullable=True),
            "cp": _int(1, 1_024, nullable=True),
            "vp": _int(1, 1_024, nullable=True),
            "ep": _int(1, 4_096, nullable=True),
            "global_batch": _int(1, 10_000_000, nullable=True),
            "seq_len": _int(1, 10_000_000),
            "mfu_reported": _num(0.001, 1.0, nullable=True),
            "tokens_per_s_per_gpu_reported": _num(0.001, 1e7, nullable=True),
            "mfu_peak_tflops": _num(1, 100_000, nullable=True),
            "publisher": _text(),
            "source_id": _source(ids("sources")),
            "note": _text(nullable=True),
        },
        checks=[pa.Check(lambda d: d["mfu_reported"].notna() | d["tokens_per_s_per_gpu_reported"].notna(),
                         error="mfu_reported or tokens_per_s_per_gpu_reported is required")],
        strict=True,
    )


def _training_runs_schema(ids) -> pa.DataFrameSchema:
    return pa.DataFrameSchema(
        {
            "run_id": _text(regex=ID, unique=True),
            "name": _text(),
            "gpu_id": _text(isin=ids("gpus")),
            "gpus": _int(1, 10_000_000),
            "train_flop": _num(1e15, 1e30),
            "days_low": _num(0.01, 3_650),
            "days_high": _num(0.01, 3_650),
            "precision": _text(isin={"bf16", "fp8", "fp16", "tf32"}),
            "source_id": _source(ids("sources")),
            "note": _text(nullable=True),
        },
        checks=[pa.Check(lambda d: d["days_low"] <= d["days_high"], error="days_low must not exceed days_high")],
        strict=True,
    )


def _published_runs_schema(ids) -> pa.DataFrameSchema:
    return pa.DataFrameSchema(
        {
            "run_id": _text(regex=ID, unique=True),
            "name": _text(),
            "model_id": _text(isin=ids("models")),
            "gpu_id": _text(isin=ids("gpus")),
            "gpu_hours": _num(1, 1e10),
            "power_w_per_gpu": _num(1, 10_000),
            "co2_location_t": _num(0, 1e9, nullable=True),
            "co2_market_t": _num(0, 1e9, nullable=True),
            "train_tokens": _num(1e6, 1e16, nullable=True),
            "source_id": _source(ids("sources")),
            "note": _text(nullable=True),
        },
        strict=True,
    )


MEASURED_WHAT = ("matmul", "train_step")
MEASURED_PRECISIONS = ("fp64", "fp32", "tf32", "bf16", "fp16")
MEASURED_REL_TOL = 1e-4  # derived columns are written with 6 significant digits


def _close(a, b):
    return (a - b).abs() <= MEASURED_REL_TOL * b.abs()


def _is_json_object(text) -> bool:
    import json
    try:
        return isinstance(json.loads(text), dict)
    except (TypeError, ValueError):
        return False


def _measured_schema(ids) -> pa.DataFrameSchema:
    """Rows written by ``python -m analysis measure`` (never typed): one per measurement, with the
    run's provenance. Derived columns must agree with the measured ones they come from."""
    fraction = [pa.Check.greater_than(0), pa.Check.less_than_or_equal_to(1)]

    def train(d):
        return d["what"] == "train_step"

    return pa.DataFrameSchema(
        {
            "run_id": _text(regex=ID),
            "date": _text(regex=DATE),
            "device_kind": _text(isin={"cpu", "cuda"}),
            "device_name": _text(),
            "cores": _int(1, 1_000_000),
            "gpu_id": _text(nullable=True, isin=ids("gpus")),
            "precision": _text(isin=set(MEASURED_PRECISIONS)),
            "what": _text(isin=set(MEASURED_WHAT)),
            "config": _text(),  # matmul m x k x n, or the model configuration
            "params": _num(1, 1e13, nullable=True),
            "seq_len": _int(1, 10_000_000, nullable=True),
            "global_batch": _int(1, 10_000_000, nullable=True),
            "flops_per_token": _num(1, 1e16, nullable=True),
            "flops": _num(1, 1e21),
            "warmup": _int(0, 100_000),
            "repeats": _int(1, 100_000),
            "seconds_median": _num(1e-12, 1e6),
            "seconds_p10": _num(1e-12, 1e6),
            "seconds_p90": _num(1e-12, 1e6),
            "tflops_median": _num(1e-12, 1e6),
            "tokens_per_s": _num(1e-9, 1e12, nullable=True),
            "peak_tflops_measured": _num(1e-12, 1e6, nullable=True),
            "mfu_vs_measured_peak": pa.Column(float, fraction, nullable=True, coerce=True),
            "peak_tflops_datasheet": _num(1, 100_000, nullable=True),
            "mfu_vs_datasheet": pa.Column(float, fraction, nullable=True, coerce=True),
            "software": _text(),
            "seed": _int(0, 2**32 - 1),
            "parameters": pa.Column(str, pa.Check(lambda s: s.map(_is_json_object),
                                                  error="parameters must be a JSON object")),
            "basis": _text(isin={"measured"}),
            "source_id": _source(ids("sources")),
            "note": _text(nullable=True),
        },
        checks=[
            pa.Check(lambda d: (d["seconds_p10"] <= d["seconds_median"]) & (d["seconds_median"] <= d["seconds_p90"]),
                     error="seconds_p10 <= seconds_median <= seconds_p90 must hold"),
            pa.Check(lambda d: _close(d["tflops_median"], d["flops"] / d["seconds_median"] / 1e12),
                     error="tflops_median must equal flops / seconds_median / 1e12"),
            pa.Check(lambda d: ~train(d) | d[["params", "seq_len", "global_batch", "flops_per_token", "tokens_per_s",
                                              "peak_tflops_measured", "mfu_vs_measured_peak"]].notna().all(axis=1),
                     error="a train_step row needs params, seq_len, global_batch, flops_per_token, tokens_per_s, "
                           "peak_tflops_measured and mfu_vs_measured_peak"),
            pa.Check(lambda d: ~train(d) | _close(d["tokens_per_s"],
                                                  d["flops"] / d["flops_per_token"] / d["seconds_median"]),
                     error="tokens_per_s must equal flops / flops_per_token / seconds_median"),
            pa.Check(lambda d: d["mfu_vs_measured_peak"].isna()
                     | _close(d["mfu_vs_measured_peak"], d["tflops_median"] / d["peak_tflops_measured"]),
                     error="mfu_vs_measured_peak must equal tflops_median / peak_tflops_measured"),
            pa.Check(lambda d: d["mfu_vs_datasheet"].isna()
                     | _close(d["mfu_vs_datasheet"], d["tflops_median"] / d["peak_tflops_datasheet"]),
                     error="mfu_vs_datasheet must equal tflops_median / peak_tflops_datasheet"),
            pa.Check(lambda d: ~d.duplicated(["run_id", "what", "precision", "config"], keep=False),
                     error="one row per (run_id, what, precision, shape)"),
        ],
        strict=True,
    )


# --- the accelerator atlas (atlas chapter) -------------------------------------------------------------
FLOP_CONVENTIONS = {
    "6n_12lhs",  # 6 N + 12 L h s: full (non-causal) attention; the book's, PaLM App. B, MaxText before PR #1988
    "6n_6lhs",  # 6 N + 6 L h s: causal attention counted as half (Megatron-Bridge, MaxText since PR #1988)
    "publisher_moe",  # the publisher's own MoE count (MLA attention, routing): reproduced by neither
    "unreproduced",  # a dense row whose printed figure neither count reproduces (note says by how much)
    "throughput_only",  # the publisher prints only throughput (MLPerf)
}


def _atlas_benchmarks_schema(ids) -> pa.DataFrameSchema:
    one_rate = pa.Check(lambda d: d["tokens_per_s_per_device_reported"].notna() | d["samples_per_s_reported"].notna(),
                        error="a row needs tokens_per_s_per_device_reported or samples_per_s_reported")
    return pa.DataFrameSchema(
        {
            "row_id": _text(regex=ID, unique=True),
            "model_id": _text(isin=ids("models")),
            "gpu_id": _text(isin=ids("gpus")),
            "precision": _text(isin={"bf16", "fp8", "fp4"}),
            "devices": _int(1, 10_000_000),
            "release": _text(),
            "date": _text(regex=DATE),
            "global_batch": _int(1, 10_000_000, nullable=True),
            "seq_len": _int(1, 10_000_000),
            "step_time_s": _num(0.001, 100_000, nullable=True),
            "samples_per_s_reported": _num(0.001, 1e9, nullable=True),
            "tokens_per_s_per_device_reported": _num(0.01, 1e9, nullable=True),
            "tflops_per_device_reported": _num(0.1, 100_000, nullable=True),
            "mfu_reported": _num(0.0, 1.0, nullable=True),
            "mfu_peak_tflops": _num(1, 100_000, nullable=True),
            "flop_convention": _text(isin=FLOP_CONVENTIONS),
            "publisher": _text(),
            "source_id": _source(ids("sources")),
            "note": _text(nullable=True),
        },
        checks=[one_rate],
        strict=True,
    )


OUTCOME_BASES = {"included", "excluded", "unknown"}  # what a published time holds beyond the planned run


def _backtest_runs_schema(ids) -> pa.DataFrameSchema:
    """Published training runs with the planner's inputs (shape, tokens, GPUs, throughput and the
    FLOPs it counts) and their published outcomes, each energy and CO2 with the basis and grid its
    source used, for the plan chapter's backtest and the planner's MFU estimate."""
    def given(column):
        return lambda d: d[column].notna()

    return pa.DataFrameSchema(
        {
            "run_id": _text(regex=ID, unique=True),
            "name": _text(),
            "kind": _text(isin={"run", "projection"}),
            "architecture": _text(isin={"dense", "moe"}),
            "params": _num(1e6, 1e14),
            "total_params": _num(1e6, 1e14),
            "layers": _int(1, 1_000),
            "hidden_size": _int(64, 1_000_000),
            "attention_qk_width": _int(64, 10_000_000, nullable=True),
            "attention_v_width": _int(64, 10_000_000, nullable=True),
            "experts": _int(2, 100_000, nullable=True),
            "moe_layers": _int(1, 1_000, nullable=True),
            "seq_len": _int(1, 10_000_000),
            "vocab_size": _int(2, 10_000_000),
            "tied_embeddings": _bool_text(),
            "tokens": _num(1e6, 1e16),
            "gpu_id": _text(isin=ids("gpus")),
            "gpus": _int(1, 10_000_000),
            "gpus_basis": _text(isin={"published", "assumed", "upper bound"}),  # "up to N GPUs": an upper bound
            "tp": _int(1, 1_024, nullable=True),  # the published layout, where the run states it
            "pp": _int(1, 1_024, nullable=True),
            "precision": _text(isin={"bf16", "fp16", "fp8"}),
            "achieved_tflops_per_gpu": _num(0.1, 100_000, nullable=True),
            "flops_counted": _text(nullable=True, isin={"model", "model-6n", "hardware-selective", "hardware-full"}),
            # how the convention is known: the source says it, a published total pins it, or it is our reading
            "flops_counted_basis": _text(nullable=True, isin={"stated", "derived", "assumed"}),
            "tokens_per_s_per_gpu": _num(0.001, 1e9, nullable=True),
            "published_days": _num(0.01, 10_000, nullable=True),
            # days of training without failures, of wall clock, or of an access window (an upper bound on training)
            "days_basis": _text(nullable=True, isin={"no failures", "wall clock", "access window"}),
            "published_gpu_hours": _num(1, 1e10, nullable=True),
            "gpu_hours_failures": _text(nullable=True, isin=OUTCOME_BASES),  # failures inside the GPU-hours
            "time_ablations": _text(nullable=True, isin=OUTCOME_BASES),  # ablations inside the published time
            "time_later_stages": _text(nullable=True, isin=OUTCOME_BASES),  # post-training or other later stages
            "published_energy_mwh": _num(0.001, 1e9, nullable=True),
            "energy_basis": _text(nullable=True, isin={"gpu-tdp", "measured-gpu", "measured-system"}),
            "energy_pue": _num(1.0, 3.0, nullable=True),
            "published_co2_t": _num(0, 1e9, nullable=True),
            "co2_pue": _num(1.0, 3.0, nullable=True),
            "grid_id": _text(nullable=True, isin=ids("grid_carbon")),
            "published_cost_usd": _num(1, 1e12, nullable=True),
            "published_usd_per_gpu_hour": _num(0.01, 1_000, nullable=True),
            "source_id": _source(ids("sources")),
            "note": _text(nullable=True),
        },
        checks=[pa.Check(lambda d: d["achieved_tflops_per_gpu"].isna() == d["flops_counted"].isna(),
                         error="achieved_tflops_per_gpu and flops_counted go together"),
                pa.Check(lambda d: d["published_days"].isna() == d["days_basis"].isna(),
                         error="published_days needs days_basis"),
                pa.Check(lambda d: d["published_gpu_hours"].isna() == d["gpu_hours_failures"].isna(),
                         error="published_gpu_hours needs gpu_hours_failures (included, excluded or unknown), and only it"),
                pa.Check(lambda d: (d["published_days"].isna() & d["published_gpu_hours"].isna())
                         == d["time_ablations"].isna(), error="a published time needs time_ablations, and only it"),
                pa.Check(lambda d: (d["published_days"].isna() & d["published_gpu_hours"].isna())
                         == d["time_later_stages"].isna(), error="a published time needs time_later_stages, and only it"),
                pa.Check(lambda d: d["flops_counted"].isna() == d["flops_counted_basis"].isna(),
                         error="flops_counted needs flops_counted_basis (stated, derived or assumed), and only it"),
                pa.Check(lambda d: d["tp"].isna() == d["pp"].isna(), error="tp and pp go together"),
                pa.Check(lambda d: (given("published_energy_mwh")(d) | given("published_co2_t")(d)) == given("energy_basis")(d),
                         error="published_energy_mwh or published_co2_t needs energy_basis, and only they"),
                pa.Check(lambda d: ~given("energy_pue")(d) | given("published_energy_mwh")(d),
                         error="energy_pue (the PUE inside the published energy) needs published_energy_mwh"),
                pa.Check(lambda d: ~given("co2_pue")(d) | given("published_co2_t")(d),
                         error="co2_pue (the PUE inside the published CO2) needs published_co2_t"),
                pa.Check(lambda d: ~(given("achieved_tflops_per_gpu")(d) & given("tokens_per_s_per_gpu")(d)),
                         error="give at most one of achieved_tflops_per_gpu and tokens_per_s_per_gpu"),
                pa.Check(lambda d: ~given("published_co2_t")(d) | given("grid_id")(d),
                         error="published_co2_t needs grid_id (the grid its source used)"),
                pa.Check(lambda d: d["attention_qk_width"].isna() == d["attention_v_width"].isna(),
                         error="attention_qk_width and attention_v_width go together"),
                pa.Check(lambda d: d["experts"].isna() == d["moe_layers"].isna(),
                         error="experts and moe_layers go together"),
                pa.Check(lambda d: (d["architecture"] == "moe") | (d["params"] == d["total_params"]),
                         error="a dense run's params must equal its total_params"),
                pa.Check(lambda d: d["params"] <= d["total_params"], error="params (active) must not exceed total_params")],
        strict=True,
    )
