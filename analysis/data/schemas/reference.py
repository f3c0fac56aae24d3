"""Schemas of the reference tables: sources, gpus, models and accelerators (the atlas's
per-device figures)."""

from __future__ import annotations

from analysis.data.schemas.columns import DATE, ID, _bool_text, _int, _num, _source, _text, pa


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
            # chips in one pod (the largest ICI domain) and in one cube (a rack) of the row's source
            "pod_devices": _int(1, 1_000_000, nullable=True),
            "cube_devices": _int(1, 1_000_000, nullable=True),
            "note": _text(nullable=True),
        },
        strict=True,
    )
