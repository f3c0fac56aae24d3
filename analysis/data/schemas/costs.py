"""Schemas of the cost tables: cloud_prices, cost_anchors, owning_cost_anchors, network_components,
maintenance_parts, household_energy and distributions (the uncertainty chapter's input ranges)."""

from __future__ import annotations

from analysis.data.schemas.columns import DATE, ID, _int, _num, _source, _text, pa

# The price ladder: what kind of price a row is (cheapest commitments last), and what was read.
# "owning (the book's TCO)" rows are never typed here: the TCO chapter computes them.
PRICE_TIERS = ("on-demand", "neocloud list", "spot/flex", "1-year", "3-year", "market range",
               "owning (SemiAnalysis model)", "owning (the book's TCO)")
PRICE_EVIDENCE = {"primary page", "dated transcription", "model value", "aggregator"}


def _cloud_prices_schema(ids) -> pa.DataFrameSchema:
    return pa.DataFrameSchema(
        {
            "snapshot_id": _text(regex=ID, unique=True),
            "gpu_id": _text(isin=ids("gpus")),
            "period": _text(regex=DATE),
            "low_usd_per_gpu_hour": _num(0.01, 1_000),
            "high_usd_per_gpu_hour": _num(0.01, 1_000),
            "provider": _text(),  # whose price, in a reader's words (a cloud, an index, a model)
            "what": _text(),
            "source_id": _source(ids("sources")),
            "note": _text(nullable=True),
            "tier": _text(isin=PRICE_TIERS),
            "date": _text(regex=DATE),
            "evidence": _text(isin=PRICE_EVIDENCE),
        },
        checks=[pa.Check(lambda d: d["low_usd_per_gpu_hour"] <= d["high_usd_per_gpu_hour"],
                         error="low_usd_per_gpu_hour must not exceed high_usd_per_gpu_hour"),
                pa.Check(lambda d: ~d["tier"].str.startswith("owning") | (d["evidence"] == "model value"),
                         error="an owning tier is a model value (evidence 'model value')")],
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


def _maintenance_parts_schema(ids) -> pa.DataFrameSchema:
    """Prices of the parts other than the GPU that a hardware fault replaces
    (``data/maintenance_parts.csv``), one row per cause of Llama 3's interruption table it
    answers: a blank price means no public source gives it (the swap's labour is still counted)."""
    return pa.DataFrameSchema(
        {
            "component": _text(unique=True, isin=ids("llama3_interruptions")),
            "part": _text(),
            "price_usd": _num(0, 1_000_000, nullable=True),
            "price_usd_high": _num(0, 1_000_000, nullable=True),
            "price_basis": _text(nullable=True, isin={"retail", "volume", "list"}),
            "source_id": _source(ids("sources")),
            "note": _text(),
        },
        checks=[pa.Check(lambda d: d["price_usd"].notna() | d["price_usd_high"].isna(),
                         error="price_usd_high needs price_usd"),
                pa.Check(lambda d: d["price_usd_high"].isna() | (d["price_usd_high"] >= d["price_usd"]),
                         error="price_usd_high must not be below price_usd"),
                pa.Check(lambda d: d["price_usd"].isna() | d["price_basis"].notna(), error="a price needs price_basis")],
        strict=True,
    )


def _cost_anchors_schema(ids) -> pa.DataFrameSchema:
    return pa.DataFrameSchema(
        {
            "anchor_id": _text(regex=ID, unique=True),
            "param": _text(regex=ID),  # the parameter of analysis/params/defaults.py the anchor bears on
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


def _owning_cost_anchors_schema(ids) -> pa.DataFrameSchema:
    """SemiAnalysis's public model values per accelerator (``data/owning_cost_anchors.csv``): the
    cost of owning one GPU-hour, a 3-year rental and the all-in IT power per GPU, dated."""
    return pa.DataFrameSchema(
        {
            "anchor_id": _text(regex=ID, unique=True),
            "gpu_id": _text(isin=ids("gpus")),
            "basis": _text(isin={"hyperscaler_owning", "google_internal_owning"}),
            "owning_usd_per_gpu_hour": _num(0.01, 1_000),
            "rental_3yr_usd_per_gpu_hour": _num(0.01, 1_000, nullable=True),
            "all_in_kw_per_gpu": _num(0.01, 100, nullable=True),
            "model_date": _text(regex=DATE),
            "source_id": _source(ids("sources")),
            "note": _text(nullable=True),
        },
        unique=["gpu_id", "basis"],
        strict=True,
    )
