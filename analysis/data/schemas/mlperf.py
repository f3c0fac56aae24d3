"""Schemas of the MLPerf Training tables: the benchmarks' reference table (hand-written, cited),
and the two tables ``python -m analysis.data.mlperf_logs`` writes from the results repositories and
mlcommons/logging (never edited by hand)."""

from __future__ import annotations

from analysis.data.schemas.columns import DATE, ID, _bool_text, _int, _num, _source, _text, pa

ROUND = r"^v\d+\.\d+$"
COMMIT = r"^[0-9a-f]{40}$"
BENCHMARK_KINDS = {"pretraining", "finetuning"}


def _mlperf_benchmarks_schema(ids) -> pa.DataFrameSchema:
    return pa.DataFrameSchema(
        {
            "benchmark": _text(regex=ID, unique=True),
            "name": _text(),
            "llm": _bool_text(),
            "kind": _text(nullable=True, isin=BENCHMARK_KINDS),
            "model_id": _text(nullable=True, isin=ids("models")),
            "seq_len": _int(1, 1_000_000, nullable=True),
            "runs_required": _int(3, 100),
            "convergence_unit": _text(nullable=True, isin={"samples", "tokens"}),
            "target": _text(nullable=True),
            "rounds": _text(regex=r"^v\d+\.\d+(;v\d+\.\d+)*$"),
            "source_id": _source(ids("sources")),
            "note": _text(),
        },
        checks=[pa.Check(lambda d: (d["llm"] == "false") | (d["kind"].notna() & d["seq_len"].notna()),
                         error="an LLM benchmark needs its kind and sequence length"),
                pa.Check(lambda d: (d["kind"] != "pretraining") | d["convergence_unit"].notna(),
                         error="a pretraining benchmark needs the unit its reference convergence counts")],
        strict=True,
    )


def _mlperf_training_schema(ids) -> pa.DataFrameSchema:
    return pa.DataFrameSchema(
        {
            "result_id": _text(regex=ID, unique=True),
            "round": _text(regex=ROUND),
            "benchmark": _text(isin=ids("mlperf_benchmarks")),
            "submitter": _text(),
            "system": _text(),
            "system_name": _text(nullable=True),
            "division": _text(isin={"closed", "open"}),
            "availability": _text(nullable=True),
            "accelerator": _text(),
            "gpu_id": _text(nullable=True, isin=ids("gpus")),
            "accelerators": _int(1, 1_000_000),
            "nodes": _int(1, 1_000_000),
            "framework": _text(nullable=True),
            "precision": _text(nullable=True, isin={"bf16", "fp8", "fp4"}),
            "global_batch_size": _int(1, 10_000_000, nullable=True),
            "runs": _int(1, 100),
            "runs_converged": _int(0, 100),
            "minutes_fastest": _num(0, 1e6, nullable=True),
            "minutes_slowest": _num(0, 1e6, nullable=True),
            "olympic_minutes": _num(0, 1e6, nullable=True),
            "scaling_factor": _num(0.5, 5),
            "score_minutes": _num(0, 1e6, nullable=True),
            "energy_j": _num(0, 1e15, nullable=True),
            "energy_scope": _text(nullable=True),
            "log_defects": _text(nullable=True),
            "source_id": _source(ids("sources")),
            "repository": _text(regex=r"^mlcommons/training_results_v\d+\.\d+$"),
            "commit": _text(regex=COMMIT),
            "path": _text(),
        },
        checks=[pa.Check(lambda d: d["runs_converged"] <= d["runs"], error="runs_converged exceeds runs"),
                pa.Check(lambda d: d["repository"] == "mlcommons/training_results_" + d["round"], error="repository is not the round's"),
                pa.Check(lambda d: d["score_minutes"].isna() | (
                    (d["score_minutes"] - d["olympic_minutes"] * d["scaling_factor"]).abs() <= 1e-3 * d["score_minutes"]),
                    error="score_minutes must be olympic_minutes x scaling_factor"),
                pa.Check(lambda d: d["olympic_minutes"].isna() | (
                    (d["olympic_minutes"] >= d["minutes_fastest"] - 1e-3) & (d["olympic_minutes"] <= d["minutes_slowest"] + 1e-3)),
                    error="olympic_minutes must lie between the fastest and the slowest run")],
        strict=True,
    )


def _mlperf_convergence_schema(ids) -> pa.DataFrameSchema:
    return pa.DataFrameSchema(
        {
            "rcp_id": _text(regex=ID, unique=True),
            "round": _text(regex=ROUND),
            "benchmark": _text(isin=ids("mlperf_benchmarks")),
            "batch_size": _int(1, 10_000_000),
            "runs": _int(1, 1_000),
            "mean_to_converge": _num(1, 1e15),
            "unit": _text(isin={"samples", "tokens"}),
            "source_id": _source(ids("sources")),
            "repository": _text(),
            "commit": _text(regex=COMMIT),
            "path": _text(),
        },
        strict=True,
    )


__all__ = ["BENCHMARK_KINDS", "DATE", "_mlperf_benchmarks_schema", "_mlperf_convergence_schema",
           "_mlperf_training_schema"]
