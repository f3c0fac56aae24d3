"""Schemas of the planner's energy tables: grid_carbon (grid carbon intensities: named regions for
``--grid``, and the factors published runs used) and system_power (the published power of the
server or rack each accelerator ships in)."""

from __future__ import annotations

from analysis.data.schemas.columns import ID, _int, _num, _source, _text, pa


def _grid_carbon_schema(ids) -> pa.DataFrameSchema:
    return pa.DataFrameSchema(
        {
            "grid_id": _text(regex=ID, unique=True),
            "name": _text(),
            "kind": _text(isin={"region", "run factor"}),
            "kg_co2_per_kwh": _num(0.0, 2.0),
            "year": _int(1990, 2035),
            "source_id": _source(ids("sources")),
            "note": _text(nullable=True),
        },
        strict=True,
    )


def _system_power_schema(ids) -> pa.DataFrameSchema:
    return pa.DataFrameSchema(
        {
            "gpu_id": _text(isin=ids("gpus"), unique=True),
            "system_name": _text(),
            "system": _text(isin={"hgx8", "dgx16", "nvl72", "tpu_host", "node"}),
            "devices_per_system": _int(1, 100_000),
            "system_w": _num(100, 10_000_000, nullable=True),
            "system_w_basis": _text(nullable=True, isin={"max", "expected average", "rack"}),
            "source_id": _source(ids("sources")),
            "note": _text(nullable=True),
        },
        checks=[pa.Check(lambda d: d["system_w"].isna() == d["system_w_basis"].isna(),
                         error="system_w and system_w_basis go together")],
        strict=True,
    )
