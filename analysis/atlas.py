"""The accelerator atlas: training throughput of every accelerator with public numbers, put under
one FLOP count, with the energy and price of a token.

Publishers divide different FLOP counts by different peaks. ``data/atlas_benchmarks.csv`` keeps what
each printed (tokens/s, or samples/s, or step time and batch; and a TFLOP/s or an MFU) and the
convention it counts FLOPs by. This module recomputes every row from its throughput under the
book's count (6 N + 12 L h s, :mod:`analysis.flops`) and the registry's dense peak, so MFUs compare
across vendors, and checks that each printed figure follows from its throughput under the
convention the row records:

- ``6n_12lhs``: full, non-causal attention (the book, PaLM App. B, MaxText before its PR #1988);
- ``6n_6lhs``: causal attention counted as half (Megatron-Bridge's "Model TFLOP/sec/GPU", MaxText
  since PR #1988 and the tpu-recipes tables).

Across accelerators every column is on one basis, per unit of model work: model TFLOP/s per device
(tokens/s times the book's FLOPs per token), joules per PFLOP and dollars per EFLOP of model FLOPs.
The rows run different models (an accelerator's published row is on the model its publisher ran), so
per-token figures would compare a 405B token with an 8B one; the model stays named in every row.
Each MFU is against the registry's dense peak of the row's precision (:data:`PEAK_LABEL`), and a
value above 100 % of that peak, or of the peak the publisher divides by, is refused
(:func:`check_mfu`).

Energy: the all-in critical IT power of one device (chip plus its share of host, network and
storage) times the facility PUE, over model FLOP/s (or tokens/s). Where a vendor publishes only a chip TDP, the rest
of the IT load is taken from a reference build-up of the same system kind (an 8-GPU server: the
H100's; an NVL72 rack: the GB200's) with the chip swapped (:func:`analysis.energy.it_w_with_chip_swapped`).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from analysis.costs import usd_per_million_tokens
from analysis.data.load import DataError, load_table, table_path
from analysis.energy import it_w_with_chip_swapped, joules_per_token, meter_w_per_gpu
from analysis.flops import attention_flops_per_token, matmul_params, mfu_from_tokens_per_s
from analysis.prices import LIST_TIERS

CONVENTIONS = ("6n_12lhs", "6n_6lhs")  # the two counts a printed figure is tested against
PEAK_LABEL = {"bf16": "BF16 dense", "fp8": "FP8 dense", "fp4": "FP4 dense"}  # the peak an MFU is against
SECONDS_PER_HOUR = 3_600.0
MODEL_ORDER = ("llama31_70b", "llama31_405b", "llama31_8b", "mixtral_8x7b", "deepseek_v3")


def flops_per_token(model, seq_len: int, convention: str) -> float:
    """Training FLOPs per token of a ``data/models.csv`` row under ``convention``: ``6n_12lhs``
    (6 N + 12 L h s, full attention; the book's) or ``6n_6lhs`` (causal attention counted as half)."""
    hidden, layers = int(model["hidden_size"]), int(model["layers"])
    n = matmul_params(float(model["active_params"]), int(model["vocab_size"]), hidden, bool(model["tied_embeddings"]))
    attention = attention_flops_per_token(layers, hidden, seq_len)
    if convention == "6n_12lhs":
        return 6.0 * n + attention
    if convention == "6n_6lhs":
        return 6.0 * n + attention / 2.0
    raise ValueError(f"no FLOP count for convention {convention!r}; expected one of {', '.join(CONVENTIONS)}")


def tokens_per_s_per_device(row) -> float:
    """Tokens per second per device, from what the row printed: tokens/s/device itself, else
    samples/s x sequence length / devices (MLPerf), else global batch x sequence length / step time / devices."""
    if pd.notna(row["tokens_per_s_per_device_reported"]):
        return float(row["tokens_per_s_per_device_reported"])
    if pd.notna(row["samples_per_s_reported"]):
        return float(row["samples_per_s_reported"]) * int(row["seq_len"]) / int(row["devices"])
    return float(row["global_batch"]) * int(row["seq_len"]) / float(row["step_time_s"]) / int(row["devices"])


def printed_flops_per_token(row) -> float:
    """FLOPs per token the publisher's own printed figure implies at its throughput: printed TFLOP/s
    per device over tokens/s, or printed MFU x the peak it divides by over tokens/s; NaN if it prints neither."""
    rate = tokens_per_s_per_device(row)
    if pd.notna(row["tflops_per_device_reported"]):
        return float(row["tflops_per_device_reported"]) * 1e12 / rate
    if pd.notna(row["mfu_reported"]):
        return float(row["mfu_reported"]) * float(row["mfu_peak_tflops"]) * 1e12 / rate
    return float("nan")


def load_atlas(tolerance: float) -> pd.DataFrame:
    """``atlas_benchmarks.csv`` with, per row: ``tokens_per_s_per_device``, the book's
    ``flops_per_token`` (6N+12Lhs), the registry's dense ``peak_tflops`` for the row's precision,
    ``mfu`` under the book's count, ``printed_flops_per_token``, its ratio to the book's
    (``printed_vs_book_ratio``), the convention(s) that reproduce the printed figure within
    ``tolerance`` (``reproduced_by``, "" if none) and ``label_holds`` (the row's recorded convention
    is the one that reproduces it; a ``publisher_moe``/``unreproduced`` row holds when none does)."""
    bench = load_table("atlas_benchmarks")
    models = load_table("models").set_index("model_id")
    gpus = load_table("gpus").set_index("gpu_id")
    out = bench.copy()
    out["tokens_per_s_per_device"] = [tokens_per_s_per_device(r) for _, r in bench.iterrows()]
    out["flops_per_token"] = [flops_per_token(models.loc[m], s, "6n_12lhs")
                              for m, s in zip(bench["model_id"], bench["seq_len"], strict=True)]
    out["peak_tflops"] = [float(gpus.loc[g, f"{p}_dense_tflops"]) for g, p in zip(bench["gpu_id"], bench["precision"], strict=True)]
    out["mfu"] = mfu_from_tokens_per_s(out["tokens_per_s_per_device"], out["flops_per_token"], out["peak_tflops"])
    out["printed_flops_per_token"] = [printed_flops_per_token(r) for _, r in bench.iterrows()]
    out["printed_vs_book_ratio"] = out["printed_flops_per_token"] / out["flops_per_token"]
    reproduced = []
    for r in out.itertuples():
        hits = [c for c in CONVENTIONS
                if abs(r.printed_flops_per_token / flops_per_token(models.loc[r.model_id], r.seq_len, c) - 1) <= tolerance]
        reproduced.append(",".join(hits))
    out["reproduced_by"] = reproduced
    prints = out["printed_flops_per_token"].notna()
    out["label_holds"] = np.where(
        out["flop_convention"].isin(CONVENTIONS), out["reproduced_by"] == out["flop_convention"],
        np.where(prints, out["reproduced_by"] == "", out["flop_convention"] == "throughput_only"))
    out["peak_label"] = out["precision"].map(PEAK_LABEL)
    check_mfu(out)
    return out


def check_mfu(rows: pd.DataFrame) -> None:
    """Refuse an MFU above 100 % of a named peak: the book's, against the registry's dense peak of
    the row's precision, and the publisher's own (printed MFU, or printed TFLOP/s over the peak it
    divides by). Such a row holds a sparse peak, the wrong precision or a misprint."""
    for r in rows.itertuples():
        checks = [(r.mfu, f"the {PEAK_LABEL[r.precision]} peak in data/gpus.csv ({r.peak_tflops:,.0f} TFLOP/s)")]
        if pd.notna(r.mfu_reported):
            checks.append((r.mfu_reported, f"the peak the publisher divides by ({r.mfu_peak_tflops:,.0f} TFLOP/s), as printed"))
        if pd.notna(r.tflops_per_device_reported) and pd.notna(r.mfu_peak_tflops):
            checks.append((r.tflops_per_device_reported / r.mfu_peak_tflops,
                           f"the peak the publisher divides by ({r.mfu_peak_tflops:,.0f} TFLOP/s), from its TFLOP/s"))
        for value, peak in checks:
            if value > 1:
                raise DataError(f"{table_path('atlas_benchmarks')}: row {r.row_id}: MFU {value:.1%} of {peak} is "
                                "above 100 %; a dense peak cannot be exceeded (a sparse peak, the wrong precision or "
                                "a misprint)")


def it_w_per_device(gpu_id: str, accelerators: pd.DataFrame, gpus: pd.DataFrame, h100_it_w: float,
                    gb200_it_w: float) -> float:
    """All-in critical IT watts of one device: the table's own figure where it has one (TPUs), the
    book's parameters for H100 and GB200, else the chip's TDP plus the rest of the reference
    build-up of its system kind (8-GPU servers: the H100's; NVL72: the GB200's). NaN where neither
    a figure nor a TDP is published."""
    acc = accelerators.loc[gpu_id]
    if pd.notna(acc["it_w_per_device"]):
        return float(acc["it_w_per_device"])
    if gpu_id == "h100_sxm":
        return h100_it_w
    if gpu_id == "gb200_nvl72":
        return gb200_it_w
    chip = float(gpus.loc[gpu_id, "tdp_w"])
    if np.isnan(chip):
        return float("nan")
    if acc["system"] == "nvl72":
        return it_w_with_chip_swapped(gb200_it_w, float(gpus.loc["gb200_nvl72", "tdp_w"]), chip)
    return it_w_with_chip_swapped(h100_it_w, float(gpus.loc["h100_sxm", "tdp_w"]), chip)


def priced_rows(prices: pd.DataFrame, gpu_id: str) -> pd.DataFrame:
    """The ``cloud_prices.csv`` rows that price ``gpu_id`` at a list tier (on-demand, neocloud list or
    a market range: what a buyer pays without a commitment, :data:`analysis.prices.LIST_TIERS`):
    those of the latest year, and of these the device's own prices where it has any; stand-ins
    (``what`` starting "proxy:") only where it has none."""
    rows = prices[(prices["gpu_id"] == gpu_id) & prices["tier"].isin(LIST_TIERS)]
    if rows.empty:
        return rows
    year = rows["period"].str[:4]
    rows = rows[year == year.max()]
    own = rows[~rows["what"].str.startswith("proxy:")]
    return own if not own.empty else rows


def price_range(prices: pd.DataFrame, gpu_id: str) -> tuple[float, float, float] | None:
    """(low, central, high) USD per device-hour from :func:`priced_rows`: the lowest low, the median of
    the rows' midpoints, the highest high; None if unpriced."""
    rows = priced_rows(prices, gpu_id)
    if rows.empty:
        return None
    mid = (rows["low_usd_per_gpu_hour"] + rows["high_usd_per_gpu_hour"]) / 2
    return float(rows["low_usd_per_gpu_hour"].min()), float(mid.median()), float(rows["high_usd_per_gpu_hour"].max())


def price_tiers(prices: pd.DataFrame, gpu_id: str) -> str:
    """The tiers of the rows behind :func:`price_range`, in ladder order, joined ("" if unpriced)."""
    tiers = set(priced_rows(prices, gpu_id)["tier"])
    return ", ".join(t for t in LIST_TIERS if t in tiers)


def price_is_proxy(prices: pd.DataFrame, gpu_id: str) -> bool:
    """Whether ``gpu_id`` is priced only by stand-ins (another device's hourly price, ``what``
    starting "proxy:"), so that a table can say so beside the cost."""
    rows = priced_rows(prices, gpu_id)
    return bool(not rows.empty and rows["what"].str.startswith("proxy:").all())


def latest_rows(atlas: pd.DataFrame) -> pd.DataFrame:
    """For each device, model and precision, the rows of the latest release that published it."""
    keys = ["gpu_id", "model_id", "precision"]
    latest = atlas.groupby(keys)["date"].transform("max")
    return atlas[atlas["date"] == latest]


def summary_rows(atlas: pd.DataFrame) -> pd.DataFrame:
    """One row per measured device: its first model in :data:`MODEL_ORDER`, at the latest release
    that has it, the fastest of its precisions in tokens/s."""
    latest = latest_rows(atlas)
    picked = []
    for _, rows in latest.groupby("gpu_id", sort=False):
        model = next(m for m in MODEL_ORDER if m in set(rows["model_id"]))
        same = rows[rows["model_id"] == model]
        picked.append(same.loc[same["tokens_per_s_per_device"].idxmax()])
    return pd.DataFrame(picked).reset_index(drop=True)


def energy_and_cost(rows: pd.DataFrame, it_w: dict[str, float], pue: float,
                    prices: dict[str, tuple[float, float, float] | None], load_factor: float) -> pd.DataFrame:
    """``rows`` plus ``it_w_per_device``, ``meter_w_per_device`` (IT x PUE x ``load_factor``: the
    average draw at the meter while training, the book's energy basis), the model work a device
    does (``model_tflops_per_device``: tokens/s x the book's FLOPs per token), joules per PFLOP of it
    (``j_per_pflop``) and per token (``j_per_token``, for one model only) and, where a price is
    known, dollars per EFLOP (``usd_per_eflop_*``) and per million tokens at the low, central and
    high price (cheapest price gives the low cost)."""
    out = rows.copy()
    out["it_w_per_device"] = out["gpu_id"].map(it_w)
    out["meter_w_per_device"] = meter_w_per_gpu(out["it_w_per_device"], pue) * load_factor
    out["model_tflops_per_device"] = out["tokens_per_s_per_device"] * out["flops_per_token"] / 1e12
    out["j_per_pflop"] = out["meter_w_per_device"] / (out["model_tflops_per_device"] / 1e3)  # W / (PFLOP/s)
    out["j_per_token"] = joules_per_token(out["meter_w_per_device"], out["tokens_per_s_per_device"])
    eflop_per_hour = out["model_tflops_per_device"] * 1e12 * SECONDS_PER_HOUR / 1e18
    for i, name in enumerate(("low", "central", "high")):
        price = out["gpu_id"].map(lambda g, i=i: prices.get(g)[i] if prices.get(g) else np.nan)
        out[f"usd_per_device_hour_{name}"] = price
        out[f"usd_per_eflop_{name}"] = price / eflop_per_hour
        out[f"usd_per_million_tokens_{name}"] = usd_per_million_tokens(price, out["tokens_per_s_per_device"])
    return out


def breakeven_usd_per_device_hour(rate: float, reference_rate: float, reference_usd_per_hour: float) -> float:
    """The hourly price at which a device training ``rate`` tokens/s costs the same per token as a
    reference device training ``reference_rate`` at ``reference_usd_per_hour``."""
    return reference_usd_per_hour * rate / reference_rate


def release_gains(atlas: pd.DataFrame) -> pd.DataFrame:
    """Software gains on the same chip: for each device, model and precision published in more than
    one release by the same publisher, the first and last release, the throughput gain (tokens/s)
    and the gain in the publisher's printed TFLOP/s. With one FLOP convention across the releases the
    two agree; a gap would be a change in counting, not in speed."""
    rows = []
    for (gpu_id, model_id, precision), g in atlas.groupby(["gpu_id", "model_id", "precision"]):
        g = g.sort_values("date")
        if g["release"].nunique() < 2:
            continue
        first, last = g.iloc[0], g.iloc[-1]
        rows.append({"gpu_id": gpu_id, "model_id": model_id, "precision": precision,
                     "release_first": first["release"], "release_last": last["release"],
                     "devices_first": int(first["devices"]), "devices_last": int(last["devices"]),
                     "tokens_first": first["tokens_per_s_per_device"], "tokens_last": last["tokens_per_s_per_device"],
                     "throughput_gain": last["tokens_per_s_per_device"] / first["tokens_per_s_per_device"] - 1,
                     "printed_tflops_gain": last["tflops_per_device_reported"] / first["tflops_per_device_reported"] - 1})
    return pd.DataFrame(rows)
