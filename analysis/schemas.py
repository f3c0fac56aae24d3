"""The declared schema of every table in ``data/``: column types, units in column names, ranges,
allowed values and foreign keys, as pandera schemas. :mod:`analysis.data` loads and validates.

Each schema factory takes ``ids(table, column=None)``, which returns the key values of another
table, so foreign keys (``source_id`` -> sources.csv, ``gpu_id`` -> gpus.csv, ...) are checked
against the validated data.
"""

from __future__ import annotations

import pandera.pandas as pa

ID = r"^[a-z0-9][a-z0-9_]*$"
# Units a report fact or seed number may carry: a closed list, so a typo ("kwh", "USD/hr") is caught.
UNITS = {
    "EFLOP/s", "FLOP", "GB", "GPU-days", "GPUs", "Gbps", "J", "J/token", "MW", "MWh/yr", "TB", "TWh/yr", "USD",
    "USD per 1M tokens", "USD/GPU", "USD/GPU-hour", "USD per GPU-month", "USD/kWh", "USD/rack", "USD/server",
    "USD/yr", "W", "chips", "count", "days", "fraction", "fraction/yr", "household-years", "iterations", "kJ/h",
    "kW", "kWh/yr", "m", "minutes", "months", "nodes", "ports", "s", "sequences", "sites", "steps", "tokens",
    "tokens/household-year", "tokens/s/GPU", "x", "years", "g CO2/kWh", "t CO2", "GWh", "GPU-hours", "h",
}
DATE = r"^\d{4}(-\d{2}(-\d{2})?)?$"




def _num(lo: float, hi: float, nullable: bool = False) -> pa.Column:
    return pa.Column(float, pa.Check.in_range(lo, hi), nullable=nullable, coerce=True)


def _int(lo: int, hi: int, nullable: bool = False) -> pa.Column:
    return pa.Column("Int64", pa.Check.in_range(lo, hi), nullable=nullable, coerce=True)


def _text(nullable: bool = False, regex: str | None = None, isin=None, unique=False) -> pa.Column:
    checks = []
    if regex:
        checks.append(pa.Check.str_matches(regex))
    if isin is not None:
        checks.append(pa.Check.isin(sorted(isin)))
    return pa.Column(str, checks, nullable=nullable, unique=unique)


def _bool_text() -> pa.Column:
    return _text(isin={"true", "false"})


def _source(source_ids) -> pa.Column:
    return _text(isin=source_ids)


def _sources_schema(ids) -> pa.DataFrameSchema:
    kinds = {"report", "paper", "vendor-doc", "code", "dataset", "article", "model-card", "unpublished"}
    return pa.DataFrameSchema(
        {
            "source_id": _text(regex=ID, unique=True),
            "title": _text(),
            "publisher": _text(),
            "date": _text(regex=DATE),
            "url": _text(nullable=True, regex=r"^https?://\S+$"),
            "accessed": _text(regex=DATE),
            "kind": _text(isin=kinds),
            "note": _text(nullable=True),
        },
        checks=[pa.Check(lambda d: d["url"].notna() | (d["kind"] == "unpublished"),
                         error="url is required unless kind is 'unpublished'")],
        strict=True,
    )


def _gpus_schema(ids) -> pa.DataFrameSchema:
    return pa.DataFrameSchema(
        {
            "gpu_id": _text(regex=ID, unique=True),
            "name": _text(),
            "bf16_dense_tflops": _num(1, 100_000),
            "fp8_dense_tflops": _num(1, 100_000, nullable=True),
            "fp4_dense_tflops": _num(1, 100_000, nullable=True),
            "tf32_dense_tflops": _num(1, 100_000, nullable=True),
            "memory_gb": _num(1, 10_000),
            "memory_bandwidth_tbs": _num(0.1, 100),
            "tdp_w": _num(50, 5_000),
            "launch_year": _int(2010, 2035),
            "source_id": _source(ids("sources")),
            "note": _text(nullable=True),
        },
        strict=True,
    )


def _models_schema(ids) -> pa.DataFrameSchema:
    return pa.DataFrameSchema(
        {
            "model_id": _text(regex=ID, unique=True),
            "name": _text(),
            "total_params": _num(1e6, 1e14),
            "active_params": _num(1e6, 1e14),
            "layers": _int(1, 1_000),
            "hidden_size": _int(64, 1_000_000),
            "ffn_hidden_size": _int(64, 10_000_000),
            "attention_heads": _int(1, 10_000),
            "kv_heads": _int(1, 10_000),
            "seq_len": _int(1, 10_000_000),
            "vocab_size": _int(2, 10_000_000),
            "tied_embeddings": _bool_text(),
            "source_id": _source(ids("sources")),
            "note": _text(nullable=True),
        },
        checks=[pa.Check(lambda d: d["active_params"] <= d["total_params"],
                         error="active_params must not exceed total_params")],
        strict=True,
    )


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


def _report_facts_schema(ids) -> pa.DataFrameSchema:
    return pa.DataFrameSchema(
        {
            "fact_id": _text(regex=r"^[ABC][0-9]{2}(_[a-z0-9_]+)?$", unique=True),
            "quantity": _text(),
            "value": _num(-1e30, 1e30),
            "value_high": _num(-1e30, 1e30, nullable=True),
            "unit": _text(isin=UNITS),
            "source_id": _source(ids("sources")),
            "confidence": _text(isin={"verbatim", "derived", "digest"}),
            "note": _text(nullable=True),
        },
        strict=True,
    )


CLAIM_STATUSES = ("reproduced", "corrected", "context", "unverifiable", "pending")


def _claims_schema(ids) -> pa.DataFrameSchema:
    return pa.DataFrameSchema(
        {
            "claim_id": _text(regex=r"^S[0-9]{2}$", unique=True),
            "seed_file": _text(),
            "claim": _text(),
            "seed_value": _text(nullable=True),
            "fact_id": _text(nullable=True, isin=ids("report_facts", "fact_id")),
            "source_id": _source(ids("sources")),
            "section": _text(regex=ID),
            "results_key": _text(nullable=True, regex=ID),
            "tolerance_rel": _num(0, 1, nullable=True),
            "status": _text(isin=CLAIM_STATUSES),
            "explanation": _text(),
        },
        checks=[pa.Check(lambda d: ~d["status"].isin(["reproduced", "corrected"])
                         | (d["results_key"].notna() & d["tolerance_rel"].notna() & d["fact_id"].notna()),
                         error="a reproduced or corrected claim needs fact_id, results_key and tolerance_rel")],
        strict=True,
    )


def _cloud_prices_schema(ids) -> pa.DataFrameSchema:
    return pa.DataFrameSchema(
        {
            "snapshot_id": _text(regex=ID, unique=True),
            "gpu_id": _text(isin=ids("gpus")),
            "period": _text(regex=DATE),
            "low_usd_per_gpu_hour": _num(0.01, 1_000),
            "high_usd_per_gpu_hour": _num(0.01, 1_000),
            "what": _text(),
            "source_id": _source(ids("sources")),
            "note": _text(nullable=True),
        },
        checks=[pa.Check(lambda d: d["low_usd_per_gpu_hour"] <= d["high_usd_per_gpu_hour"],
                         error="low_usd_per_gpu_hour must not exceed high_usd_per_gpu_hour")],
        strict=True,
    )


def _seed_numbers_schema(ids) -> pa.DataFrameSchema:
    return pa.DataFrameSchema(
        {
            "number_id": _text(regex=r"^S[0-9]{2}_[a-z0-9_]+$", unique=True),
            "claim_id": _text(regex=r"^S[0-9]{2}$"),
            "quantity": _text(),
            "value": _num(-1e30, 1e30),
            "value_2": _num(-1e30, 1e30, nullable=True),
            "unit": _text(isin=UNITS),
            "source_id": _source(ids("sources")),
            "note": _text(nullable=True),
        },
        strict=True,
    )


def _household_energy_schema(ids) -> pa.DataFrameSchema:
    return pa.DataFrameSchema(
        {
            "period": _text(regex=DATE),
            "kind": _text(isin={"us_average", "state"}),
            "region": _text(),
            "kwh": _num(1, 100_000),
            "per": _text(isin={"year", "month"}),
            "evidence": _text(isin={"primary", "secondary"}),
            "source_id": _source(ids("sources")),
            "note": _text(nullable=True),
        },
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


def _section_names() -> list[str]:
    from analysis.sections import section_names  # imported late: sections imports the parameters

    return section_names()


def _fact_checks_schema(ids) -> pa.DataFrameSchema:
    return pa.DataFrameSchema(
        {
            "fact_id": _text(isin=ids("report_facts", "fact_id")),
            "section": _text(isin=_section_names()),  # caught at load with its line, not at execution
            "results_key": _text(regex=ID),
            "tolerance_rel": _num(0, 1, nullable=True),
            "status": _text(isin={"reproduced", "context"}),
            "source_id": _source(ids("sources")),  # the fact's source, repeated so every row cites one
            "note": _text(nullable=True),
        },
        checks=[pa.Check(lambda d: (d["status"] != "reproduced") | d["tolerance_rel"].notna(),
                         error="a reproduced fact needs tolerance_rel")],
        unique=["fact_id", "section", "results_key"],
        strict=True,
    )


def _llama3_interruptions_schema(ids) -> pa.DataFrameSchema:
    categories = {"GPU", "Host", "Network", "Dependency", "Unplanned maintenance", "Unknown"}
    sources = ids("sources")
    return pa.DataFrameSchema(
        {
            "component": _text(unique=True),
            "category": _text(isin=categories),
            "count": _int(0, 100_000),
            "pct_printed": _num(0, 100),  # percent as printed by the source, not recomputed
            "source_id": _source(sources),
            "read_via": _text(nullable=True, isin=sources),
        },
        strict=True,
    )


def _reliability_facts_schema(ids) -> pa.DataFrameSchema:
    sources = ids("sources")
    return pa.DataFrameSchema(
        {
            "item_id": _text(regex=ID, unique=True),
            "subject": _text(regex=ID),
            "quantity": _text(),
            "value": _num(-1e30, 1e30),
            "value_high": _num(-1e30, 1e30, nullable=True),
            "relation": _text(isin={"equals", "about", "more_than", "up_to", "range"}),
            "unit": _text(),
            "evidence": _text(isin={"primary", "secondary", "derived"}),
            "source_id": _source(sources),
            "read_via": _text(nullable=True, isin=sources),
            "note": _text(nullable=True),
        },
        checks=[pa.Check(lambda d: (d["relation"] != "range") | (d["value_high"] >= d["value"]),
                         error="a range needs value_high >= value"),
                pa.Check(lambda d: (d["evidence"] != "secondary") | d["read_via"].notna()
                         | d["note"].notna(), error="secondary evidence needs read_via or a note")],
        strict=True,
    )


def _distributions_schema(ids) -> pa.DataFrameSchema:
    return pa.DataFrameSchema(
        {
            "param": _text(regex=ID, unique=True),
            "shape": _text(isin={"triangular", "uniform"}),
            "low": _num(-1e12, 1e12),
            "high": _num(-1e12, 1e12),
            "basis": _text(isin={"cited", "assumption"}),
            "source_id": _source(ids("sources")),
            "note": _text(),
        },
        checks=[pa.Check(lambda d: d["low"] < d["high"], error="low must be below high")],
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


SCHEMAS = {
    "sources": _sources_schema,
    "gpus": _gpus_schema,
    "models": _models_schema,
    "benchmarks": _benchmarks_schema,
    "training_runs": _training_runs_schema,
    "report_facts": _report_facts_schema,
    "claims": _claims_schema,
    "cloud_prices": _cloud_prices_schema,
    "seed_numbers": _seed_numbers_schema,
    "household_energy": _household_energy_schema,
    "published_runs": _published_runs_schema,
    "fact_checks": _fact_checks_schema,
    "llama3_interruptions": _llama3_interruptions_schema,
    "reliability_facts": _reliability_facts_schema,
    "distributions": _distributions_schema,
    "measured": _measured_schema,
}
# Where a table lives under data/, when not at <name>.csv; and tables that may be absent (an
# absent optional table reads as empty, with its columns).
FILES = {"measured": "measured/benchmarks_measured.csv"}
OPTIONAL = {"measured"}
# Tables whose validation reads other tables (foreign keys); a section that reads one of these
# depends on the others too, so its cache key must hash them all.
DEPENDS = {"gpus": ("sources",), "models": ("sources",), "training_runs": ("sources", "gpus"),
           "benchmarks": ("sources", "models", "gpus"), "report_facts": ("sources",),
           "claims": ("sources", "report_facts"), "sources": (),
           "cloud_prices": ("sources", "gpus"), "seed_numbers": ("sources",),
           "household_energy": ("sources",), "published_runs": ("sources", "models", "gpus"),
           "fact_checks": ("sources", "report_facts"),
           "llama3_interruptions": ("sources",), "reliability_facts": ("sources",),
           "distributions": ("sources",), "measured": ("sources", "gpus")}
KEYS = {"sources": "source_id", "gpus": "gpu_id", "models": "model_id",
        "training_runs": "run_id", "report_facts": "fact_id", "claims": "claim_id",
        "cloud_prices": "snapshot_id", "seed_numbers": "number_id", "published_runs": "run_id",
        "llama3_interruptions": "component", "reliability_facts": "item_id", "distributions": "param"}
