"""TCO chapter: dollars per GPU-hour of H100 and GB200 NVL72 from independent public inputs, the
speed-up GB200 needs, how far that lands from the report's $1.42 basis and ~1.6x ratio (and what
cost of capital would close the gap), what maintenance built from its parts does to the TCO,
dollars per million training tokens for every benchmark row (at the book's TCO, and at the
report's $1.42 to check its arithmetic), the owner's cost held against the market (owners' costs
and rental tiers, the margin a renter pays and the utilization at which owning costs what each
rental does), the P10-P90 bands, and the reader's own measured device.

Other chapters read ``h100_tco_usd_per_gpu_hour``, ``gb200_tco_usd_per_gpu_hour`` (USD per
GPU-hour) and ``gb200_breakeven_speedup`` (ratio) from ``upstream["tco"]``. The cost chain is
:func:`analysis.chapters.gpu_cost.system_costs`; dollars per token are :mod:`analysis.costs`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from analysis import costs, maintenance, prices, tco
from analysis.benchmarks import REFERENCE_RUN, load_benchmarks, pick
from analysis.chapters import ChapterResults, gpu_cost, read_bands
from analysis.data.load import fact, framing, load_table, row
from analysis.data.provenance import aside
from analysis.measure import report
from analysis.units import HOURS_PER_MONTH, TERA

LABELS = {"h100": "H100", "gb200": "GB200 NVL72"}
GPU_IDS = {"h100": "h100_sxm", "gb200": "gb200_nvl72"}  # benchmark and price rows' gpu_id per system
BAND_KEYS = ("h100_tco_usd_per_gpu_hour", "gb200_tco_usd_per_gpu_hour", "gb200_breakeven_speedup",
             "llama31_405b_bf16_usd_per_million_tokens")
# The break-even figure: GB200 capex per GPU from half to one and a half times this build's, at
# three levels of GB200 opex.
CAPEX_GRID_MULTIPLES = np.linspace(0.5, 1.5, 41)
OPEX_MULTIPLES = (0.75, 1.0, 1.25)
# Benchmark rows priced by name (the report's own cost figures, A22-A35).
GPT3_FP8 = {"publisher": "SemiAnalysis", "model_id": "gpt3_175b", "precision": "fp8"}
LLAMA31_405B_BF16_2304 = {**REFERENCE_RUN, "precision": "bf16"}  # the book's reference run
# The rental tiers of the price ladder (analysis.prices) the owner's cost is held against, longest
# commitment first.
MARKET_TIERS = ("3-year", "1-year", "neocloud list", "on-demand")
# The maintenance parameters whose sourced ranges (data/distributions.csv) bound the maintenance bill.
MAINTENANCE_RANGED = ("gpu_swap_share", "gpu_share_of_server_price", "warranty_years", "swap_person_hours",
                      "technician_usd_per_hour", "spares_restock_days")


def _per_gpu_hour(P, res: ChapterResults) -> dict[str, dict[str, float]]:
    """Capital charge, opex and TCO per GPU-hour of both systems, the break-even speed-up and
    capital's share of the H100's TCO. Returns each system's :func:`analysis.chapters.gpu_cost.system_costs`."""
    systems = {name: gpu_cost.system_costs(P, name) for name in LABELS}
    for name, c in systems.items():
        res.add(f"{name}_capex_usd_per_gpu_hour", c["capex_usd_per_gpu_hour"], "USD per GPU-hour",
                f"{LABELS[name]} capital charge per GPU-hour")
        res.add(f"{name}_opex_usd_per_gpu_hour", c["opex_usd_per_gpu_hour"], "USD per GPU-hour",
                f"{LABELS[name]} opex per GPU-hour")
        res.add(f"{name}_tco_usd_per_gpu_hour", c["tco_usd_per_gpu_hour"], "USD per GPU-hour",
                f"{LABELS[name]} TCO per GPU-hour")
    res.add("gb200_breakeven_speedup",
            tco.breakeven_speedup(res["gb200_tco_usd_per_gpu_hour"], res["h100_tco_usd_per_gpu_hour"]), "ratio",
            "Per-GPU speed-up GB200 needs to match H100's performance per TCO dollar")
    res.add("h100_capex_share_of_tco_pct", res["h100_capex_usd_per_gpu_hour"] / res["h100_tco_usd_per_gpu_hour"] * 100,
            "percent", "Capital's share of H100 TCO")
    return systems


def per_gpu_hour_frame(res: ChapterResults) -> pd.DataFrame:
    """Capital charge, opex and TCO per GPU-hour, one row each, one column per system."""
    parts = {"capital charge": "capex", "opex": "opex", "TCO": "tco"}
    return pd.DataFrame({name: [res[f"{name}_{p}_usd_per_gpu_hour"] for p in parts.values()] for name in LABELS},
                        index=pd.Index(list(parts), name="usd_per_gpu_hour"))


def _against_report(P, systems: dict, res: ChapterResults) -> None:
    """The book's independent TCO against the report's $1.42 per H100-hour (A13) and ~1.6x (A12),
    and the capital charge and floor that tell whether any cost of capital could close the gap."""
    h100 = systems["h100"]
    target = fact("A13_h100_usd_per_gpu_hour")
    res.add("useful_life_years", P.useful_life_years, "years", "Useful life over which capex is recovered")
    res.add("cost_of_capital_pct", P.cost_of_capital * 100, "percent per year", "Cost of capital")
    res.add("h100_tco_vs_report_pct", (res["h100_tco_usd_per_gpu_hour"] / target - 1) * 100, "percent",
            "The book's H100 TCO against the report's $1.42 basis (A13)")
    res.add("gb200_breakeven_speedup_vs_report_pct",
            (res["gb200_breakeven_speedup"] / fact("A12_tco_ratio") - 1) * 100, "percent",
            "The book's GB200 / H100 TCO ratio against the report's ~1.6x (A12)")
    res.add("a13_h100_capex_usd_per_gpu_hour", target - h100["opex_usd_per_gpu_hour"], "USD per GPU-hour",
            "Capital charge the report's H100 basis leaves after this build's opex")
    floor = tco.tco_per_gpu_hour_usd(h100["capex_usd_per_gpu"], h100["opex_usd_per_gpu_month"], 0.0,
                                     P.useful_life_years, P.utilization)
    res.add("h100_tco_at_zero_cost_of_capital_usd_per_gpu_hour", floor, "USD per GPU-hour",
            "H100 TCO with free capital (straight-line depreciation plus opex)")
    res.add("gb200_to_h100_capex_ratio", systems["gb200"]["capex_usd_per_gpu"] / h100["capex_usd_per_gpu"], "ratio",
            "GB200 / H100 all-in capex per GPU")
    res.add("gb200_to_h100_it_w_ratio", P.gb200_it_w_per_gpu / P.h100_it_w_per_gpu, "ratio",
            "GB200 / H100 critical IT power per GPU")
    res.add("h100_opex_share_of_tco_pct", h100["opex_usd_per_gpu_hour"] / res["h100_tco_usd_per_gpu_hour"] * 100,
            "percent", "Opex's share of H100 TCO")


def a13_check_frame(P, systems: dict) -> pd.DataFrame:
    """What would make the H100's TCO the report's $1.42 (A13): the cost of capital implied with the
    book's opex and with the seed's unverifiable $249 opex (S09), at this build's life and one year
    more, beside the book's own rate. NaN where no non-negative rate reaches $1.42."""
    h100 = systems["h100"]
    target = fact("A13_h100_usd_per_gpu_hour")
    hours = HOURS_PER_MONTH * P.utilization
    opex_cases = {"the book's opex": h100["opex_usd_per_gpu_hour"],
                  "the seed's $249 opex (S09)": row("seed_numbers", "S09_h100_opex")["value"] / hours}
    rows = [{"opex": case, "useful_life_years": life, "opex_usd_per_gpu_hour": opex_hour,
             "implied_cost_of_capital": tco.implied_cost_of_capital(target, h100["capex_usd_per_gpu"], opex_hour,
                                                                    life, P.utilization),
             "book_cost_of_capital": P.cost_of_capital}
            for case, opex_hour in opex_cases.items() for life in (P.useful_life_years, P.useful_life_years + 1)]
    return pd.DataFrame(rows)


def _report_basis_costs(bench: pd.DataFrame, res: ChapterResults) -> None:
    """The report's per-token and per-run figures at its own $1.42 basis (A13, quoted): these check
    the throughput and FLOP arithmetic behind A22-A35, whatever the book's TCO."""
    basis = fact("A13_h100_usd_per_gpu_hour")
    jan = pick(bench, **GPT3_FP8, date="2024-01")
    dec = pick(bench, **GPT3_FP8, date="2024-12")
    l405 = pick(bench, **LLAMA31_405B_BF16_2304)
    for key, r, label in (("gpt3_175b_fp8_usd_per_million_tokens_jan2024", jan, "GPT-3 175B FP8, Jan 2024 software"),
                          ("gpt3_175b_fp8_usd_per_million_tokens", dec, "GPT-3 175B FP8, Dec 2024 software"),
                          ("llama31_405b_bf16_usd_per_million_tokens", l405, "Llama 3.1 405B BF16")):
        res.add(f"{key}_at_report_basis", costs.usd_per_million_tokens(basis, r["tokens_per_s_per_gpu"]),
                "USD per million tokens", f"{label}, per 1M tokens at the report's $1.42 per GPU-hour")
    res.add("gpt3_175b_fp8_cost_300b_tokens_usd_at_report_basis",
            costs.run_cost_usd(framing("A23_train_tokens"), basis, dec["tokens_per_s_per_gpu"]), "USD",
            "GPT-3 175B FP8 on its 300B tokens, Dec 2024 software, at the report's $1.42 per GPU-hour")
    res.add("llama31_405b_bf16_cost_15t_tokens_usd_at_report_basis",
            costs.run_cost_usd(framing("A35_train_tokens"), basis, l405["tokens_per_s_per_gpu"]), "USD",
            "Llama 3.1 405B BF16 on 15T tokens, at the report's $1.42 per GPU-hour")


def priced_benchmarks(res: ChapterResults) -> pd.DataFrame:
    """Every H100 and GB200 benchmark row with its USD per million tokens at its system's TCO."""
    bench = load_benchmarks()
    tco_by_gpu = {GPU_IDS[name]: res[f"{name}_tco_usd_per_gpu_hour"] for name in LABELS}
    bench = bench[bench["gpu_id"].isin(list(tco_by_gpu))].copy()
    bench["model"] = bench["model_id"].map(load_table("models").set_index("model_id")["name"])
    bench["usd_per_million_tokens"] = costs.usd_per_million_tokens(bench["gpu_id"].map(tco_by_gpu),
                                                                   bench["tokens_per_s_per_gpu"])
    columns = ["model_id", "model", "gpu_id", "publisher", "precision", "gpus", "software", "date", "tokens_per_s_per_gpu",
               "flops_per_token", "mfu", "basis", "usd_per_million_tokens", "source_id"]
    return bench.sort_values(["model_id", "gpu_id", "precision", "date", "gpus"])[columns].reset_index(drop=True)


def _token_costs(bench: pd.DataFrame, res: ChapterResults) -> None:
    """The report's per-token and per-run figures, rebuilt at this build's H100 TCO."""
    h100 = res["h100_tco_usd_per_gpu_hour"]
    jan = pick(bench, **GPT3_FP8, date="2024-01")
    dec = pick(bench, **GPT3_FP8, date="2024-12")
    l405 = pick(bench, **LLAMA31_405B_BF16_2304)
    res.add("gpt3_175b_fp8_usd_per_million_tokens_jan2024", jan["usd_per_million_tokens"], "USD per million tokens",
            "GPT-3 175B FP8, Jan 2024 software, per 1M tokens")
    res.add("gpt3_175b_fp8_usd_per_million_tokens", dec["usd_per_million_tokens"], "USD per million tokens",
            "GPT-3 175B FP8, Dec 2024 software, per 1M tokens")
    res.add("llama31_405b_bf16_usd_per_million_tokens", l405["usd_per_million_tokens"], "USD per million tokens",
            "Llama 3.1 405B BF16, USD per 1M tokens at NVIDIA's benchmark speed, no failures")
    res.add("gpt3_175b_fp8_cost_300b_tokens_usd",
            costs.run_cost_usd(framing("A23_train_tokens"), h100, dec["tokens_per_s_per_gpu"]),
            "USD", "GPT-3 175B FP8 on its 300B tokens, Dec 2024 software")
    res.add("llama31_405b_bf16_cost_15t_tokens_usd",
            costs.run_cost_usd(framing("A35_train_tokens"), h100, l405["tokens_per_s_per_gpu"]),
            "USD", "Llama 3.1 405B BF16 on 15T tokens, one clean pass at NVIDIA's benchmark speed")
    # The same numbers in the units the prose reads them in.
    res.add("gpt3_175b_fp8_cents_per_million_tokens_jan2024", jan["usd_per_million_tokens"] * 100,
            "US cents per million tokens", "GPT-3 175B FP8, Jan 2024 software, per 1M tokens")
    res.add("gpt3_175b_fp8_cents_per_million_tokens", dec["usd_per_million_tokens"] * 100,
            "US cents per million tokens", "GPT-3 175B FP8, Dec 2024 software, per 1M tokens")
    res.add("llama31_405b_bf16_cost_15t_tokens_million_usd", res["llama31_405b_bf16_cost_15t_tokens_usd"] / 1e6,
            "million USD", "Llama 3.1 405B BF16 on 15T tokens, one clean pass at NVIDIA's benchmark speed")
    res.add("llama31_405b_train_trillion_tokens", framing("A35_train_tokens") / 1e12, "trillion tokens",
            "Llama 3.1 405B training tokens")
    res.add("llama31_405b_bf16_reference_gpus", l405["gpus"], "GPUs", "GPUs of the Llama 3.1 405B BF16 reference run")
    res.add("llama31_405b_bf16_2304_mfu_pct", l405["mfu"] * 100, "percent",
            "Llama 3.1 405B BF16 on 2,304 H100 (NVIDIA), MFU")
    res.add("llama31_405b_bf16_2304_model_tflops_per_gpu", l405["tokens_per_s_per_gpu"] * l405["flops_per_token"] / TERA,
            "TFLOP/s per GPU", "Llama 3.1 405B BF16 on 2,304 H100 (NVIDIA), model FLOP/s per GPU")


def breakeven_frame(P, systems: dict, res: ChapterResults) -> pd.DataFrame:
    """The GB200 break-even speed-up against GB200 capex per GPU, at three levels of its opex, the
    H100 held at this build's TCO."""
    gb200 = systems["gb200"]
    rows = [{"capex_multiple": c, "gb200_capex_usd_per_gpu": c * gb200["capex_usd_per_gpu"], "opex_multiple": k,
             "gb200_opex_usd_per_gpu_month": gb200["opex_usd_per_gpu_month"] * k,
             "breakeven_speedup": tco.breakeven_speedup(
                 tco.tco_per_gpu_hour_usd(c * gb200["capex_usd_per_gpu"], gb200["opex_usd_per_gpu_month"] * k,
                                          P.cost_of_capital, P.useful_life_years, P.utilization),
                 res["h100_tco_usd_per_gpu_hour"])}
            for k in OPEX_MULTIPLES for c in CAPEX_GRID_MULTIPLES]
    return pd.DataFrame(rows)


def rental_frame(res: ChapterResults) -> pd.DataFrame:
    """Dated rental price snapshots with the margin each implies over this build's TCO (the owning
    tiers of the price ladder are not rentals, so they are left out), by accelerator, oldest first."""
    rentals = load_table("cloud_prices")
    rentals = rentals[~rentals["tier"].str.startswith("owning")]
    tco_by_gpu = {GPU_IDS[name]: res[f"{name}_tco_usd_per_gpu_hour"] for name in LABELS}
    rentals = rentals.assign(tco_usd_per_gpu_hour=rentals["gpu_id"].map(tco_by_gpu))
    rentals["margin_low"] = tco.rental_margin(rentals["low_usd_per_gpu_hour"], rentals["tco_usd_per_gpu_hour"])
    rentals["margin_high"] = tco.rental_margin(rentals["high_usd_per_gpu_hour"], rentals["tco_usd_per_gpu_hour"])
    return rentals.sort_values(["gpu_id", "period", "date", "low_usd_per_gpu_hour", "snapshot_id"]).reset_index(drop=True)


def _rental_margins(prices: pd.DataFrame, res: ChapterResults) -> None:
    latest = prices[prices["gpu_id"] == GPU_IDS["h100"]].sort_values(["period", "date"], kind="stable").iloc[-1]
    where = f"{latest['provider']}'s {latest['tier']} price of {latest['period']}"
    res.add("h100_latest_rental_margin_low_frac", latest["margin_low"], "fraction",
            f"Rental margin over the book's TCO at the low end of {where}")
    res.add("h100_latest_rental_margin_high_frac", latest["margin_high"], "fraction",
            f"Rental margin over the book's TCO at the high end of {where}")


def _measured(P, res: ChapterResults) -> None:
    """The reader's measured device (``python -m analysis measure``), priced at ``local_gpu_hour_usd``,
    against an H100 training Llama 3.1 405B at this build's TCO, per model FLOP."""
    measured = res.add_table("measured", report.load_measured())
    for key, (value, unit, label) in report.measured_results(measured, usd_per_device_hour=P.local_gpu_hour_usd).items():
        res.add(key, value, unit, label)
    if "measured_usd_per_exaflop" in res:
        res.add("h100_llama31_405b_bf16_usd_per_exaflop", report.usd_per_exaflop(
            res["h100_tco_usd_per_gpu_hour"], res["llama31_405b_bf16_2304_model_tflops_per_gpu"]),
            "USD per 1e18 FLOP", "H100 training Llama 3.1 405B BF16 (published throughput), at this chapter's TCO")
        res.add("measured_to_h100_usd_per_exaflop_ratio",
                res["measured_usd_per_exaflop"] / res["h100_llama31_405b_bf16_usd_per_exaflop"], "ratio",
                "Cost of model compute, measured device / H100 on Llama 3.1 405B")


def _maintenance(P, systems: dict, res: ChapterResults) -> None:
    """What maintenance built from its parts (the opex chapter's build-up) does to the H100's TCO:
    its share, the TCO at the book's earlier share-of-capex default (9.1 %), on a support contract, with
    no warranty, and with every maintenance component at the cheap or the dear end of its range."""
    hours = HOURS_PER_MONTH * P.utilization
    h100 = systems["h100"]
    month = gpu_cost.maintenance_usd_per_gpu_month(P, "h100")
    res.add("h100_maintenance_usd_per_gpu_hour", month / hours, "USD per GPU-hour", "H100 maintenance per GPU-hour")
    res.add("h100_maintenance_share_of_tco_pct", month / hours / h100["tco_usd_per_gpu_hour"] * 100, "percent",
            "Maintenance's share of the H100's TCO")
    earlier = maintenance.earlier_default_frac_per_year()
    res.add("earlier_default_maintenance_pct_per_year", earlier * 100, "percent per year",
            "The book's earlier maintenance default: Llama 3's GPU and HBM3 faults at the whole all-in capex")
    earlier_month = h100["capex_usd_per_gpu"] * earlier / 12
    res.add("h100_tco_at_earlier_maintenance_usd_per_gpu_hour", h100["tco_usd_per_gpu_hour"] + (earlier_month - month) / hours,
            "USD per GPU-hour", "H100 TCO with the earlier maintenance default (a share of capex)")
    res.add("h100_tco_with_support_contract_usd_per_gpu_hour",
            gpu_cost.tco_usd_per_gpu_hour(P.replace(maintenance_basis="support contract"), "h100"), "USD per GPU-hour",
            "H100 TCO with maintenance as a vendor's support contract at list")
    res.add("h100_tco_without_warranty_usd_per_gpu_hour", gpu_cost.tco_usd_per_gpu_hour(P.replace(warranty_years=0.0), "h100"),
            "USD per GPU-hour", "H100 TCO with no warranty: every failed part bought")
    ranges = load_table("distributions").set_index("param").loc[list(MAINTENANCE_RANGED), ["low", "high"]]
    ends = {name: [gpu_cost.tco_usd_per_gpu_hour(P.replace(**{name: float(v)}), "h100") for v in r]
            for name, r in ranges.iterrows()}
    for end, extreme in (("low", min), ("high", max)):
        chosen = {name: float(ranges.loc[name].iloc[values.index(extreme(values))]) for name, values in ends.items()}
        res.add(f"h100_tco_at_maintenance_{end}_usd_per_gpu_hour",
                gpu_cost.tco_usd_per_gpu_hour(P.replace(**chosen), "h100"), "USD per GPU-hour",
                f"H100 TCO with every maintenance component at the {'cheap' if end == 'low' else 'dear'} end of its range")


def market_frame(P, res: ChapterResults) -> pd.DataFrame:
    """The book's owner's cost of each system beside what the market shows for the same GPU, one
    row per figure: the owners' costs (the book's TCO, SemiAnalysis's registry, the report's
    $1.42 for the H100) and the rental tiers of the price ladder (:data:`MARKET_TIERS`), each
    rental with the margin a renter pays over the book's TCO and the utilization at which owning
    costs what it does (:func:`analysis.tco.breakeven_utilization`, from the TCO at full use)."""
    ladder = prices.cloud_ladder()
    registry = load_table("owning_cost_anchors").query("basis == 'hyperscaler_owning'").set_index("gpu_id")
    rows = []
    for name, gpu_id in GPU_IDS.items():
        book = res[f"{name}_tco_usd_per_gpu_hour"]
        full = gpu_cost.tco_usd_per_gpu_hour(P.replace(utilization=1.0), name)
        base = {"system": name, "gpu_id": gpu_id}
        rows.append({**base, "kind": "owning", "figure": "the book's TCO", "usd_per_gpu_hour": book,
                     "low": book, "high": book, "period": "", "evidence": "the book's model", "source_ids": ""})
        rows.append({**base, "kind": "owning", "figure": "SemiAnalysis's owning cost (its registry)",
                     "usd_per_gpu_hour": registry.loc[gpu_id, "owning_usd_per_gpu_hour"],
                     "low": registry.loc[gpu_id, "owning_usd_per_gpu_hour"],
                     "high": registry.loc[gpu_id, "owning_usd_per_gpu_hour"], "period": registry.loc[gpu_id, "model_date"],
                     "evidence": "model value", "source_ids": registry.loc[gpu_id, "source_id"]})
        if name == "h100":
            basis = fact("A13_h100_usd_per_gpu_hour")
            rows.append({**base, "kind": "owning", "figure": "the report's owner's TCO (A13)", "usd_per_gpu_hour": basis,
                         "low": basis, "high": basis, "period": "2025", "evidence": "report", "source_ids": "sa_gb200_2025"})
        for tier in MARKET_TIERS:
            hit = ladder[(ladder["gpu_id"] == gpu_id) & (ladder["tier"] == tier)]
            if hit.empty:
                continue
            r = hit.iloc[0]
            rows.append({**base, "kind": "rental", "figure": tier, "usd_per_gpu_hour": r["usd_per_gpu_hour"],
                         "low": r["low"], "high": r["high"], "period": r["period"], "evidence": r["evidence"],
                         "source_ids": r["source_ids"]})
        for row_ in rows:
            if row_["system"] == name:
                row_["margin_over_book_tco"] = tco.rental_margin(row_["usd_per_gpu_hour"], book)
                row_["breakeven_utilization"] = (tco.breakeven_utilization(full, row_["usd_per_gpu_hour"])
                                                 if row_["kind"] == "rental" else float("nan"))
    return pd.DataFrame(rows)


def _market(P, res: ChapterResults) -> pd.DataFrame:
    """The market table and, for the prose and the verdict, each H100 and GB200 rental tier's
    margin and break-even utilization, and the owners' costs against the book's."""
    frame = res.add_table("market", market_frame(P, res))
    slug = {"3-year": "3_year", "1-year": "1_year", "neocloud list": "neocloud_list", "on-demand": "on_demand"}
    for r in frame[frame["kind"] == "rental"].itertuples():
        label, key = LABELS[r.system], f"{r.system}_{slug[r.figure]}"
        res.add(f"{key}_rent_usd_per_gpu_hour", r.usd_per_gpu_hour, "USD per GPU-hour", f"{label} rental, {r.figure} tier")
        res.add(f"{key}_renter_margin_pct", r.margin_over_book_tco * 100, "percent",
                f"{label}: margin a renter pays over the book's TCO, {r.figure} tier")
        res.add(f"{key}_breakeven_utilization_pct", r.breakeven_utilization * 100, "percent",
                f"{label}: utilization at which owning costs the {r.figure} rental")
    res.add("h100_tco_vs_report_owner_pct", (res["h100_tco_usd_per_gpu_hour"] / fact("A13_h100_usd_per_gpu_hour") - 1) * 100,
            "percent", "The book's H100 TCO against the report's owner's $1.42 (A13)")
    return frame


def owning_anchors_frame(res: ChapterResults) -> pd.DataFrame:
    """SemiAnalysis's public owning cost, 3-year rental and all-in power per GPU (its InferenceX
    registry, ``data/owning_cost_anchors.csv``), with the book's TCO beside the two it computes."""
    anchors = load_table("owning_cost_anchors")
    gpus = load_table("gpus").set_index("gpu_id")["name"]
    book = {GPU_IDS[name]: res[f"{name}_tco_usd_per_gpu_hour"] for name in LABELS}
    anchors["name"] = anchors["gpu_id"].map(gpus)
    anchors["book_tco_usd_per_gpu_hour"] = anchors["gpu_id"].map(book).where(anchors["basis"] == "hyperscaler_owning")
    return anchors


def _owning_anchors(P, res: ChapterResults) -> None:
    """The book's TCO and IT power per GPU beside SemiAnalysis's registry (an anchor, not an input)."""
    sa = load_table("owning_cost_anchors")
    sa = sa[sa["basis"] == "hyperscaler_owning"].set_index("gpu_id")
    res.add("utilization_pct", P.utilization * 100, "percent",
            "Utilization the TCO assumes: share of hours a GPU is paid for or used")
    for name, gpu_id in GPU_IDS.items():
        res.add(f"sa_registry_{name}_owning_usd_per_gpu_hour", sa.loc[gpu_id, "owning_usd_per_gpu_hour"],
                "USD per GPU-hour", f"{LABELS[name]}: SemiAnalysis's owning cost, large-hyperscaler volume "
                f"(InferenceX registry, {sa.loc[gpu_id, 'model_date']})")
        res.add(f"sa_registry_{name}_all_in_w_per_gpu", sa.loc[gpu_id, "all_in_kw_per_gpu"] * 1_000, "W per GPU",
                f"{LABELS[name]}: SemiAnalysis's all-in power per GPU (InferenceX registry)")
        res.add(f"{name}_tco_vs_sa_registry_pct",
                (res[f"{name}_tco_usd_per_gpu_hour"] / sa.loc[gpu_id, "owning_usd_per_gpu_hour"] - 1) * 100,
                "percent", f"The book's {LABELS[name]} TCO against SemiAnalysis's registry owning cost")
    ratio = res.add("sa_registry_gb200_to_h100_owning_ratio",
                    sa.loc["gb200_nvl72", "owning_usd_per_gpu_hour"] / sa.loc["h100_sxm", "owning_usd_per_gpu_hour"],
                    "ratio", "GB200 / H100 owning cost per GPU-hour in SemiAnalysis's registry")
    res.add("gb200_breakeven_speedup_vs_sa_registry_pct", (res["gb200_breakeven_speedup"] / ratio - 1) * 100, "percent",
            "The book's GB200 / H100 TCO ratio against the registry's")
    res.add_table("owning_anchors", owning_anchors_frame(res))


def compute(P, upstream) -> ChapterResults:
    res = ChapterResults("tco")
    gpu_cost.name_systems(res)
    res.add("load_factor_frac", P.load_factor, "fraction",
            "Average draw while training as a share of the rated power (parameter): the electricity's basis")
    systems = _per_gpu_hour(P, res)
    res.add_table("per_gpu_hour", per_gpu_hour_frame(res))
    _owning_anchors(P, res)
    _maintenance(P, systems, res)
    with aside():  # the report's $1.42 and ~1.6x beside the book's: they feed nothing computed after
        _against_report(P, systems, res)
        res.add_table("a13_check", a13_check_frame(P, systems))
    anchors = load_table("cost_anchors")
    res.add_table("anchors", anchors[anchors["param"] == "cost_of_capital"].reset_index(drop=True))
    bench = res.add_table("usd_per_million_tokens_by_row", priced_benchmarks(res))
    _token_costs(bench, res)
    with aside():  # the report's cost figures at its own $1.42 basis (A13): checks of its arithmetic
        _report_basis_costs(bench, res)
    res.add_table("breakeven", breakeven_frame(P, systems, res))
    _rental_margins(res.add_table("rental", rental_frame(res)), res)
    with aside():  # the market's prices beside the book's owner's cost: a check, feeding nothing computed after
        _market(P, res)
    res.add_table("bands", read_bands(upstream["uncertainty"], BAND_KEYS))
    for key in ("monte_carlo_draws_count", "maintenance_share_of_h100_tco_band_pct",
                "h100_tco_band_width_usd_per_gpu_hour", "h100_tco_band_width_without_maintenance_usd_per_gpu_hour"):
        q = upstream["uncertainty"].quantities[key]
        res.add(key, q.value, q.unit, q.label)
    _measured(P, res)
    return res
