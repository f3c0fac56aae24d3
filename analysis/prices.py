"""The price ladder: one hourly price per accelerator and tier (``data/cloud_prices.csv``'s
``tier``: on-demand, neocloud list, spot/flex, 1-year, 3-year, market range, owning), so that
every dollar figure can say which tier it uses and how far the tiers spread.

Within a tier an accelerator's price is the median of the midpoints of its rows of the latest year
that has any, its own rows where it has them and stand-ins ("proxy:" rows, another device's price)
only where it has none, of the strongest evidence class among them (:data:`EVIDENCE_ORDER`); low
and high are the lowest low and the highest high of those rows.
"""

from __future__ import annotations

import pandas as pd

from analysis.data.load import derived, load_table

# The tiers in ladder order, dearest first as a buyer usually meets them.
TIERS = ("on-demand", "neocloud list", "market range", "spot/flex", "1-year", "3-year",
         "owning (SemiAnalysis model)", "owning (the book's TCO)")
LIST_TIERS = ("on-demand", "neocloud list", "market range")  # what a buyer pays without a commitment
# Within a tier the strongest evidence present is used: a provider's page before a transcription of
# it, before an aggregator's copy, before a model value (SemiAnalysis's 3-year rent beside Google's
# transcribed 3-year price, for example, is not averaged in).
EVIDENCE_ORDER = ("primary page", "dated transcription", "aggregator", "model value")
BOOK_TCO_TIER = "owning (the book's TCO)"


def tier_rows(rows: pd.DataFrame) -> pd.DataFrame:
    """Of one accelerator's rows in one tier, those that price it: of the latest year, own prices
    before stand-ins, of the strongest evidence class present."""
    if rows.empty:
        return rows
    year = rows["period"].str[:4]
    rows = rows[year == year.max()]
    own = rows[~rows["what"].str.startswith("proxy:")]
    rows = own if not own.empty else rows
    best = min(rows["evidence"], key=EVIDENCE_ORDER.index)
    return rows[rows["evidence"] == best]


def ladder(prices: pd.DataFrame, book_tco: dict[str, float] | None = None) -> pd.DataFrame:
    """One row per accelerator and tier that has a price: ``usd_per_gpu_hour`` (median of the
    rows' midpoints), ``low``/``high``, ``rows``, ``proxy`` (stand-ins only), ``period`` (latest),
    ``evidence`` (the classes read, joined) and ``source_ids``. ``book_tco`` adds the book's own
    TCO per GPU-hour (the TCO chapter's result) as the last tier."""
    return _with_book_tco(_tier_prices(prices), book_tco)


def cloud_ladder(book_tco: dict[str, float] | None = None) -> pd.DataFrame:
    """:func:`ladder` of ``data/cloud_prices.csv``, whose tiers are computed once per state of the
    data (the chapters that price in every scenario differ only in ``book_tco``)."""
    return _with_book_tco(_cloud_tier_prices(), book_tco)


@derived
def _cloud_tier_prices() -> pd.DataFrame:
    return _tier_prices(load_table("cloud_prices"))


def _tier_prices(prices: pd.DataFrame) -> pd.DataFrame:
    out = []
    by_pair = dict(list(prices.groupby(["gpu_id", "tier"], sort=False)))  # each accelerator and tier's rows, split once
    for gpu_id in sorted(prices["gpu_id"].unique()):
        for tier in TIERS:
            if (gpu_id, tier) not in by_pair:
                continue
            rows = tier_rows(by_pair[(gpu_id, tier)])
            mid = (rows["low_usd_per_gpu_hour"] + rows["high_usd_per_gpu_hour"]) / 2
            out.append({"gpu_id": gpu_id, "tier": tier, "usd_per_gpu_hour": float(mid.median()),
                        "low": float(rows["low_usd_per_gpu_hour"].min()), "high": float(rows["high_usd_per_gpu_hour"].max()),
                        "rows": len(rows), "proxy": bool(rows["what"].str.startswith("proxy:").all()),
                        "period": rows["period"].max(), "evidence": ", ".join(sorted(set(rows["evidence"]))),
                        "source_ids": ", ".join(sorted(set(rows["source_id"])))})
    return pd.DataFrame(out)


def _with_book_tco(tiers: pd.DataFrame, book_tco: dict[str, float] | None) -> pd.DataFrame:
    book = [{"gpu_id": gpu_id, "tier": BOOK_TCO_TIER, "usd_per_gpu_hour": float(value), "low": float(value),
             "high": float(value), "rows": 0, "proxy": False, "period": "", "evidence": "the book's model",
             "source_ids": ""} for gpu_id, value in sorted((book_tco or {}).items())]
    table = pd.concat([tiers, pd.DataFrame(book)], ignore_index=True) if book else tiers
    table["tier_order"] = table["tier"].map({t: i for i, t in enumerate(TIERS)})
    return table.sort_values(["gpu_id", "tier_order"]).reset_index(drop=True)


def spread(ladder_: pd.DataFrame) -> pd.DataFrame:
    """Per accelerator: the dearest and the cheapest tier price, their tiers, and their ratio."""
    rows = []
    for gpu_id, g in ladder_.groupby("gpu_id", sort=True):
        hi, lo = g.loc[g["usd_per_gpu_hour"].idxmax()], g.loc[g["usd_per_gpu_hour"].idxmin()]
        rows.append({"gpu_id": gpu_id, "tiers": len(g), "dearest_tier": hi["tier"], "dearest_usd": hi["usd_per_gpu_hour"],
                     "cheapest_tier": lo["tier"], "cheapest_usd": lo["usd_per_gpu_hour"],
                     "spread_ratio": hi["usd_per_gpu_hour"] / lo["usd_per_gpu_hour"]})
    return pd.DataFrame(rows)


def list_price(ladder_: pd.DataFrame, gpu_id: str) -> tuple[float, str] | None:
    """The price a buyer without a commitment pays, and its tier: the first of :data:`LIST_TIERS`
    the accelerator has (on-demand before neocloud list before a market range)."""
    for tier in LIST_TIERS:
        hit = ladder_[(ladder_["gpu_id"] == gpu_id) & (ladder_["tier"] == tier)]
        if not hit.empty:
            return float(hit["usd_per_gpu_hour"].iloc[0]), tier
    return None
