"""The declared schema of every table in ``data/``: column types, units in column names, ranges,
allowed values and foreign keys, as pandera schemas. :mod:`analysis.data` loads and validates.

Each schema factory takes ``ids(table, column=None)``, which returns the key values of another
table, so foreign keys (``source_id`` -> sources.csv, ``gpu_id`` -> gpus.csv, ...) are checked
against the validated data.
"""

from __future__ import annotations


class _Pandera:
    """pandera, imported when a schema is first built (validating a table), not when this module
    is: with the validated tables cached on disk (:mod:`analysis.data`), most processes never
    validate, and pandera's import is a sixth of a second of every command's start."""

    def __getattr__(self, name: str):
        import pandera.pandas

        return getattr(pandera.pandas, name)


pa = _Pandera()

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
            "memory_bandwidth_tbs": _num(0.1, 100, nullable=True),  # empty where the vendor's figure was not read
            "tdp_w": _num(50, 5_000, nullable=True),  # empty where the vendor publishes none (TPUs, Trainium)
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


# Statuses of the claims ledger (data/README.md). The first three say the book's value agrees with
# the original within the row's tolerance, and how much that agreement is worth: recomputed from
# inputs that neither include the figure nor were tuned to it; reproduced only because an input was
# calibrated to it; or the figure itself (or a unit conversion of it) is the input, shown back.
AGREEING_STATUSES = ("reproduced_independently", "reproduced_by_calibration", "input_quoted")
FACT_STATUSES = (*AGREEING_STATUSES, "corrected", "context")
CLAIM_STATUSES = (*FACT_STATUSES, "unverifiable", "pending")
# Above this relative tolerance a row must say why (tolerance_why): the source's own rounding.
TOLERANCE_WITHOUT_REASON = 0.03
USES = r"^[a-z0-9_]+:[a-z0-9_]+(;[a-z0-9_]+:[a-z0-9_]+)*$"  # section:results_key;section:results_key


def _tolerance_checks() -> list[pa.Check]:
    """Rules shared by claims.csv and fact_checks.csv: a tolerance above 3 % says why; an agreeing
    or corrected row has a tolerance to be judged by."""
    return [
        pa.Check(lambda d: d["tolerance_rel"].isna() | (d["tolerance_rel"] <= TOLERANCE_WITHOUT_REASON)
                 | d["tolerance_why"].notna(),
                 error=f"a tolerance_rel above {TOLERANCE_WITHOUT_REASON} needs tolerance_why (the source's rounding)"),
        pa.Check(lambda d: ~d["status"].isin([*AGREEING_STATUSES, "corrected"]) | d["tolerance_rel"].notna(),
                 error="a reproduced, input_quoted or corrected row needs tolerance_rel"),
    ]


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
            "tolerance_why": _text(nullable=True),
        },
        checks=[pa.Check(lambda d: ~d["status"].isin([*AGREEING_STATUSES, "corrected"])
                         | (d["results_key"].notna() & d["tolerance_rel"].notna() & d["fact_id"].notna()),
                         error="a reproduced, input_quoted or corrected claim needs fact_id, results_key and tolerance_rel"),
                *_tolerance_checks()],
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
            "status": _text(isin=FACT_STATUSES),
            "source_id": _source(ids("sources")),  # the fact's source, repeated so every row cites one
            "note": _text(nullable=True),
            "uses": _text(nullable=True, regex=USES),  # other chapters that show the same fact
            # places that show the fact beside a different number on another basis (a cost at the
            # book's own TCO against the report's at its $1.42): shown, never counted as checks
            "context_uses": _text(nullable=True, regex=USES),
            "tolerance_why": _text(nullable=True),
        },
        checks=[*_tolerance_checks(),
                pa.Check(lambda d: d["status"].isin(AGREEING_STATUSES) | d["note"].notna(),
                         error="a corrected or context fact needs a note that says why it differs")],
        unique=["fact_id"],  # one check per fact; the other chapters that show it are its uses
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


def _job_failures_schema(ids) -> pa.DataFrameSchema:
    """Measured (and projected) job-level mean time to failure by job size. A row states the MTTF
    (``mttf_value`` in ``mttf_unit``) or the counts it follows from (``failures`` in
    ``window_days``), never both; ``in_fit`` rows feed ``reliability.fit_job_mttf``."""
    sources = ids("sources")
    stated = lambda d: d["mttf_value"].notna()  # noqa: E731
    counted = lambda d: d["failures"].notna() & d["window_days"].notna()  # noqa: E731
    return pa.DataFrameSchema(
        {
            "row_id": _text(regex=ID, unique=True),
            "cluster": _text(),
            "accelerator": _text(),
            "job_gpus": _int(1, 10_000_000),
            "kind": _text(isin={"measured", "counted", "projected"}),
            "relation": _text(isin={"equals", "about", "up_to"}),  # of the MTTF: 'up_to' for "40+ restarts"
            "mttf_value": _num(0, 1e7, nullable=True),
            "mttf_unit": _text(nullable=True, isin={"minutes", "hours", "days"}),
            "failures": _num(0, 1e9, nullable=True),
            "window_days": _num(0, 1e5, nullable=True),
            "in_fit": _bool_text(),
            "evidence": _text(isin={"primary", "secondary"}),
            "source_id": _source(sources),
            "read_via": _text(nullable=True, isin=sources),
            "location": _text(),
            "quote": _text(),
            "note": _text(nullable=True),
        },
        checks=[pa.Check(lambda d: stated(d) != counted(d),
                         error="give mttf_value (with mttf_unit) or failures and window_days, not both"),
                pa.Check(lambda d: stated(d) == d["mttf_unit"].notna(), error="mttf_value needs mttf_unit"),
                pa.Check(lambda d: d["failures"].notna() == d["window_days"].notna(),
                         error="failures and window_days go together"),
                pa.Check(lambda d: (d["in_fit"] != "true") | ((d["kind"] != "projected") & (d["relation"] == "equals")),
                         error="only measured or counted rows with relation 'equals' may be fitted"),
                pa.Check(lambda d: (d["evidence"] != "secondary") | d["read_via"].notna(),
                         error="secondary evidence needs read_via")],
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


# --- the accelerator atlas (atlas chapter) -------------------------------------------------------------
FLOP_CONVENTIONS = {
    "6n_12lhs",  # 6 N + 12 L h s: full (non-causal) attention; the book's, PaLM App. B, MaxText before PR #1988
    "6n_6lhs",  # 6 N + 6 L h s: causal attention counted as half (Megatron-Bridge, MaxText since PR #1988)
    "publisher_moe",  # the publisher's own MoE count (MLA attention, routing): reproduced by neither
    "unreproduced",  # a dense row whose printed figure neither count reproduces (note says by how much)
    "throughput_only",  # the publisher prints only throughput (MLPerf)
}


def _accelerators_schema(ids) -> pa.DataFrameSchema:
    return pa.DataFrameSchema(
        {
            "gpu_id": _text(isin=ids("gpus"), unique=True),
            "vendor": _text(isin={"NVIDIA", "AMD", "Google", "AWS", "Intel"}),
            "system": _text(isin={"hgx8", "nvl72", "oam8", "tpu_pod", "trn2"}),
            "bf16_sparse_tflops": _num(1, 100_000, nullable=True),
            "fp8_sparse_tflops": _num(1, 100_000, nullable=True),
            "source_id": _source(ids("sources")),  # the vendor figures of the row (sparse peaks; TPUs: no sparsity)
            "it_w_per_device": _num(50, 10_000, nullable=True),
            "it_w_source_id": _text(nullable=True, isin=ids("sources")),
            "note": _text(nullable=True),
        },
        strict=True,
    )


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


def _network_components_schema(ids) -> pa.DataFrameSchema:
    """Prices and powers of network parts (``data/network_components.csv``): a blank price or
    power means no public source gives it; ``*_high`` closes a range or an 'up to'."""
    return pa.DataFrameSchema(
        {
            "component_id": _text(regex=ID, unique=True),
            "kind": _text(isin={"switch", "transceiver", "cable", "nic"}),
            "name": _text(),
            "ports_400g": _int(1, 1_024),
            "power_w": _num(0, 100_000, nullable=True),
            "power_w_high": _num(0, 100_000, nullable=True),
            "power_basis": _text(nullable=True, isin={"typical", "max", "with_copper", "delta"}),
            "price_usd": _num(0, 10_000_000, nullable=True),
            "price_usd_high": _num(0, 10_000_000, nullable=True),
            "price_basis": _text(nullable=True, isin={"list", "volume", "delta"}),
            "source_id": _source(ids("sources")),
            "note": _text(),
        },
        checks=[pa.Check(lambda d: d["power_w"].notna() | d["power_w_high"].isna(),
                         error="power_w_high needs power_w"),
                pa.Check(lambda d: d["price_usd"].notna() | d["price_usd_high"].isna(),
                         error="price_usd_high needs price_usd"),
                pa.Check(lambda d: d["power_w"].isna() | d["power_basis"].notna(), error="a power needs power_basis"),
                pa.Check(lambda d: d["price_usd"].isna() | d["price_basis"].notna(), error="a price needs price_basis")],
        strict=True,
    )


def _backtest_runs_schema(ids) -> pa.DataFrameSchema:
    """Published training runs with the planner's inputs (shape, tokens, GPUs, throughput and the
    FLOPs it counts) and their published outcomes, for the plan chapter's backtest."""
    return pa.DataFrameSchema(
        {
            "run_id": _text(regex=ID, unique=True),
            "name": _text(),
            "kind": _text(isin={"run", "projection"}),
            "params": _num(1e6, 1e14),
            "layers": _int(1, 1_000),
            "hidden_size": _int(64, 1_000_000),
            "seq_len": _int(1, 10_000_000),
            "vocab_size": _int(2, 10_000_000),
            "tied_embeddings": _bool_text(),
            "tokens": _num(1e6, 1e16),
            "gpu_id": _text(isin=ids("gpus")),
            "gpus": _int(1, 10_000_000),
            "gpus_basis": _text(isin={"published", "assumed"}),
            "precision": _text(isin={"bf16", "fp8"}),
            "achieved_tflops_per_gpu": _num(0.1, 100_000, nullable=True),
            "flops_counted": _text(nullable=True, isin={"model", "hardware-selective", "hardware-full"}),
            "published_days": _num(0.01, 10_000, nullable=True),
            "days_basis": _text(nullable=True, isin={"no failures", "wall clock"}),
            "published_gpu_hours": _num(1, 1e10, nullable=True),
            "published_energy_mwh": _num(0.001, 1e9, nullable=True),
            "published_co2_t": _num(0, 1e9, nullable=True),
            "published_cost_usd": _num(1, 1e12, nullable=True),
            "published_usd_per_gpu_hour": _num(0.01, 1_000, nullable=True),
            "source_id": _source(ids("sources")),
            "note": _text(nullable=True),
        },
        checks=[pa.Check(lambda d: d["achieved_tflops_per_gpu"].isna() == d["flops_counted"].isna(),
                         error="achieved_tflops_per_gpu and flops_counted go together"),
                pa.Check(lambda d: d["published_days"].isna() == d["days_basis"].isna(),
                         error="published_days needs days_basis")],
        strict=True,
    )


def _cost_anchors_schema(ids) -> pa.DataFrameSchema:
    return pa.DataFrameSchema(
        {
            "anchor_id": _text(regex=ID, unique=True),
            "param": _text(regex=ID),  # the parameter of analysis/defaults.py the anchor bears on
            "value": _num(0, 1e6),
            "value_high": _num(0, 1e6, nullable=True),
            "unit": _text(),
            "period": _text(),
            "what": _text(),
            "source_id": _source(ids("sources")),
            "confidence": _text(isin={"high", "medium", "low"}),
            "note": _text(nullable=True),
        },
        checks=[pa.Check(lambda d: d["value_high"].isna() | (d["value_high"] > d["value"]),
                         error="value_high must be above value")],
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
    "job_failures": _job_failures_schema,
    "distributions": _distributions_schema,
    "measured": _measured_schema,
    "accelerators": _accelerators_schema,
    "atlas_benchmarks": _atlas_benchmarks_schema,
    "network_components": _network_components_schema,
    "backtest_runs": _backtest_runs_schema,
    "cost_anchors": _cost_anchors_schema,
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
           "llama3_interruptions": ("sources",), "reliability_facts": ("sources",), "job_failures": ("sources",),
           "distributions": ("sources",), "measured": ("sources", "gpus"),
           "accelerators": ("sources", "gpus"), "atlas_benchmarks": ("sources", "models", "gpus"),
           "network_components": ("sources",), "backtest_runs": ("sources", "gpus"), "cost_anchors": ("sources",)}
KEYS = {"sources": "source_id", "gpus": "gpu_id", "models": "model_id",
        "training_runs": "run_id", "report_facts": "fact_id", "claims": "claim_id",
        "cloud_prices": "snapshot_id", "seed_numbers": "number_id", "published_runs": "run_id",
        "llama3_interruptions": "component", "reliability_facts": "item_id", "job_failures": "row_id",
        "distributions": "param", "accelerators": "gpu_id", "atlas_benchmarks": "row_id",
        "network_components": "component_id", "backtest_runs": "run_id", "cost_anchors": "anchor_id"}
