"""Cluster chapter: what a 100,000-H100 cluster delivers in FLOP/s, draws in megawatts, costs in
electricity and capital, and loses to failures (SemiAnalysis, 2024, facts B02-B28).

This chapter owns the cluster's power and energy (``cluster_it_mw``, ``cluster_facility_mw``,
``cluster_annual_energy_twh``, ``cluster_annual_electricity_usd``); the energy chapter reads them.
The power per GPU is the book's one IT-power parameter (``h100_it_w_per_gpu``, C02) times the one
``pue``; SemiAnalysis's own component build-up (B14) is recorded beside it as a check. Capacity
(megawatts at the meter) is at the rated power; energy and the bill are at the average draw, the
rating times the measured ``load_factor``, the book's one energy basis.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from analysis import cluster, energy, flops, hardware
from analysis.chapters import ChapterResults
from analysis.data.load import fact, row
from analysis.data.provenance import aside
from analysis.units import HOURS_PER_YEAR

REPORT_GPUS = 100_000  # the cluster size the report analyses (B02-B06): its bounds are per 100k GPUs
SIZES = np.geomspace(1_000, 300_000, 60)  # cluster sizes of the chapter's figures


def it_w_per_gpu(P) -> float:
    """Critical IT watts per GPU of type ``P.gpu``: the book's parameter for H100 and GB200 NVL72,
    otherwise the chip swapped into the H100 build-up (host, network and storage kept)."""
    if P.gpu == "h100_sxm":
        return P.h100_it_w_per_gpu
    if P.gpu == "gb200_nvl72":
        return P.gb200_it_w_per_gpu
    return energy.it_w_with_chip_swapped(P.h100_it_w_per_gpu, hardware.tdp_w("h100_sxm"), hardware.tdp_w(P.gpu))


def b14_buildup_w() -> dict[str, float]:
    """SemiAnalysis's component build-up of one H100's IT power (B14): chip, server share, and
    storage/network/optics as a fraction of both."""
    chip, server = fact("B14_gpu_w"), fact("B14_server_w_per_gpu")
    return {"chip": chip, "server": server, "network_storage": (chip + server) * fact("B14_network_storage_frac")}


def links_per_gpu(P, upstream) -> tuple[float, float]:
    """NIC-to-leaf links per GPU of the network chapter's fabric, and with Cedar Fever's twin-port
    node optics (B27, B28): the link count comes from the topology, not a parameter."""
    net = upstream["network"]
    return net["backend_nic_links_count"] / P.gpus, net["cedar_backend_nic_links_count"] / P.gpus


def compute_by_size(P, upstream) -> pd.DataFrame:
    """Peak and sustained EFLOP/s and mean minutes to the first link failure, by cluster size."""
    links, alt_links = links_per_gpu(P, upstream)
    mfu = {"fp8": P.mfu_fp8, "bf16": P.mfu_bf16}
    out = {"gpus": SIZES.round()}
    for dtype in mfu:
        out[f"{dtype}_peak_eflops"] = cluster.cluster_peak_flops(SIZES, hardware.peak_tflops(P.gpu, dtype)) / 1e18
    for dtype in mfu:
        out[f"{dtype}_sustained_eflops"] = out[f"{dtype}_peak_eflops"] * mfu[dtype]
    mttf = upstream["network"]["backend_link_mttf_years"]
    out["first_failure_minutes"] = cluster.first_failure_minutes(mttf, SIZES * links)
    out["first_failure_alt_design_minutes"] = cluster.first_failure_minutes(P.alt_link_mttf_years, SIZES * alt_links)
    return pd.DataFrame(out)


def _compute_peaks(P, res: ChapterResults) -> None:
    # the cluster's own peaks first: datasheet peaks times the cluster size, before any report row is read
    res.add("gpu_chip_w", hardware.tdp_w(P.gpu), "W", "GPU board power (TDP)")
    res.add("gpu_memory_gb", hardware.memory_gb(P.gpu), "GB", "GPU memory (HBM) per GPU, from the datasheet")
    fp8, bf16 = hardware.peak_tflops(P.gpu, "fp8"), hardware.peak_tflops(P.gpu, "bf16")
    res.add("report_cluster_gpus", REPORT_GPUS, "GPUs", "GPUs in the report's cluster")
    res.add("cluster_gpus_count", P.gpus, "GPUs", "GPUs in this chapter's cluster")
    res.add("peak_fp8_eflops", cluster.cluster_peak_flops(P.gpus, fp8) / 1e18, "EFLOP/s", "Cluster peak, FP8 dense")
    res.add("peak_bf16_eflops", cluster.cluster_peak_flops(P.gpus, bf16) / 1e18, "EFLOP/s", "Cluster peak, BF16 dense")
    gpt4 = row("training_runs", "gpt4")  # SemiAnalysis's GPT-4 estimate (B07): the report's numbers
    a100_bf16 = hardware.peak_tflops(gpt4["gpu_id"], "bf16")
    gpt4_peak = res.add("gpt4_cluster_peak_bf16_eflops", cluster.cluster_peak_flops(gpt4["gpus"], a100_bf16) / 1e18,
                        "EFLOP/s", "GPT-4's A100 cluster peak, BF16 dense")
    res.add("peak_fp8_vs_a100_cluster_ratio", cluster.peak_ratio(P.gpus, fp8, gpt4["gpus"], a100_bf16), "ratio",
            "Cluster FP8 peak / GPT-4 cluster BF16 peak")
    res.add("peak_bf16_vs_a100_cluster_ratio", cluster.peak_ratio(P.gpus, bf16, gpt4["gpus"], a100_bf16), "ratio",
            "Cluster BF16 peak / GPT-4 cluster BF16 peak")
    res.add("gpt4_cluster_gpus", gpt4["gpus"], "GPUs", "A100s in GPT-4's training cluster")
    res.add("a100_bf16_tflops", a100_bf16, "TFLOP/s", "A100 dense BF16 peak (datasheet)")
    with aside():  # SA's 6.28 EFLOP/s A100 base (B08) divided back per A100: why its ratio (B10) differs from ours
        res.add("report_a100_bf16_tflops", fact("B08_a100_cluster_eflops") * 1e6 / gpt4["gpus"], "TFLOP/s",
                "A100 BF16 peak implied by the report's A100-cluster figure")
    res.add("gpus_to_match_gpt4_cluster_count", gpt4_peak * 1e6 / (fp8 * P.mfu_fp8), "GPUs",
            "GPUs of this type, sustained in FP8, that match the peak of GPT-4's cluster")


def _compute_training_time(P, res: ChapterResults) -> None:
    gpt4 = row("training_runs", "gpt4")
    a100_bf16 = hardware.peak_tflops(gpt4["gpu_id"], "bf16")
    mfu = {"fp8": P.mfu_fp8, "bf16": P.mfu_bf16}[P.dtype]
    days_mid = (gpt4["days_low"] + gpt4["days_high"]) / 2
    res.add("mfu_fp8_frac", P.mfu_fp8, "fraction", "FP8 MFU assumed for a frontier run (parameter)")
    res.add("mfu_bf16_frac", P.mfu_bf16, "fraction", "BF16 MFU assumed for a frontier run (parameter)")
    res.add("mfu_fp8_pct", P.mfu_fp8 * 100, "percent", "FP8 MFU assumed for a frontier run")
    res.add("mfu_bf16_pct", P.mfu_bf16 * 100, "percent", "BF16 MFU assumed for a frontier run")
    res.add("mfu_selected_pct", mfu * 100, "percent", f"MFU assumed in the chosen data type ({P.dtype})")
    res.add("gpt4_train_flop", gpt4["train_flop"], "FLOP", "GPT-4 training compute (input)")
    res.add("gpt4_training_days_low", gpt4["days_low"], "days", "GPT-4 training duration, shortest (input)")
    res.add("gpt4_implied_mfu", flops.implied_mfu(gpt4["train_flop"], gpt4["gpus"], a100_bf16, days_mid),
            "fraction", "MFU implied by GPT-4's run (midpoint of its days)")
    res.add("gpt4_implied_mfu_low", flops.implied_mfu(gpt4["train_flop"], gpt4["gpus"], a100_bf16,
            gpt4["days_high"]),
            "fraction", "MFU implied by GPT-4's run, longest duration")
    res.add("gpt4_implied_mfu_high", flops.implied_mfu(gpt4["train_flop"], gpt4["gpus"], a100_bf16,
            gpt4["days_low"]),
            "fraction", "MFU implied by GPT-4's run, shortest duration")
    res.add("gpt4_retrain_days", flops.training_time_days(
            gpt4["train_flop"], P.gpus, hardware.peak_tflops(P.gpu, P.dtype), mfu),
            "days", f"Days to retrain GPT-4 on this cluster ({P.dtype})")
    res.add("gpt4_retrain_bf16_days", flops.training_time_days(
            gpt4["train_flop"], P.gpus, hardware.peak_tflops(P.gpu, "bf16"), P.mfu_bf16),
            "days", "Days to retrain GPT-4 on this cluster (bf16)")
    run = res.add("run_flop", flops.flop_in_run(P.gpus, hardware.peak_tflops(P.gpu, P.dtype), mfu, P.run_days),
                  "FLOP", f"Model FLOP delivered in a {P.run_days}-day run ({P.dtype})")
    res.add("run_days", P.run_days, "days", "Length of the training run (parameter)")
    res.add("run_flop_vs_gpt4_ratio", run / gpt4["train_flop"], "ratio", "FLOP of the run / GPT-4's training FLOP")


def power(P) -> dict:
    """The cluster's power and energy bill [the units in the keys]: critical IT per GPU and in
    total, at the meter (x PUE, rated: the capacity to provision), its average draw (x load
    factor), energy per year at that draw and its electricity bill (x tariff). The chapter and the
    what-if grid (values may be arrays) call this one chain."""
    it_w = it_w_per_gpu(P)
    it_total_w = cluster.critical_it_w(P.gpus, it_w)
    meter_w = cluster.facility_w(it_total_w, P.pue)
    mwh = cluster.annual_energy_mwh(meter_w, P.load_factor)
    usd = cluster.annual_electricity_usd(mwh, P.tariff_usd_per_kwh)
    return {"cluster_it_w_per_gpu": it_w, "cluster_it_mw": it_total_w / 1e6, "cluster_facility_mw": meter_w / 1e6,
            "cluster_average_facility_mw": meter_w * P.load_factor / 1e6,
            "cluster_annual_energy_twh": mwh / 1e6, "cluster_annual_electricity_usd": usd}


def _compute_power(P, res: ChapterResults) -> None:
    chain = power(P)
    res.add("cluster_it_w_per_gpu", chain["cluster_it_w_per_gpu"], "W per GPU",
            f"Critical IT power per GPU ({P.gpu}: chip, server share, network, storage)")
    with aside():  # SemiAnalysis's own build-up (B14), set beside the book's IT power, feeding nothing
        res.add("b14_server_w_per_gpu", fact("B14_server_w_per_gpu"), "W per GPU",
                "Server share per GPU beyond the chip (B14)")
        res.add("b14_network_storage_frac", fact("B14_network_storage_frac"), "fraction",
                "Storage, switches and optics on top of server IT (B14)")
        res.add("b14_network_storage_pct", fact("B14_network_storage_frac") * 100, "percent",
                "Storage, switches and optics on top of server IT (B14)")
        res.add("b14_server_it_w_per_gpu", fact("B14_gpu_w") + fact("B14_server_w_per_gpu"), "W per GPU",
                "Server IT per GPU from the 100k article's components, chip + server share (B14)")
        res.add("b14_buildup_it_w_per_gpu", sum(b14_buildup_w().values()), "W per GPU",
                "SemiAnalysis's component build-up (B14): 700 W chip + 575 W server share, +10 %")
    res.add("pue", P.pue, "ratio", "Facility power / critical IT power (parameter)")
    res.add("cluster_it_mw", chain["cluster_it_mw"], "MW", "Critical IT power of the cluster")
    res.add("cluster_facility_mw", chain["cluster_facility_mw"], "MW",
            "Rated power of the cluster at the utility meter (the capacity to provision)")
    res.add("load_factor_frac", P.load_factor, "fraction",
            "Average draw while training as a share of the rated power (parameter): the energy basis")
    res.add("cluster_average_facility_mw", chain["cluster_average_facility_mw"], "MW",
            "Average power of the cluster at the meter while training (rated x load factor)")
    twh = res.add("cluster_annual_energy_twh", chain["cluster_annual_energy_twh"], "TWh per year",
                  "Energy the cluster draws per year, at its average draw")
    res.add("tariff_usd_per_kwh", P.tariff_usd_per_kwh, "USD per kWh", "Electricity tariff (parameter)")
    res.add("cluster_annual_electricity_usd", chain["cluster_annual_electricity_usd"], "USD per year",
            "Electricity bill of the cluster per year, at its average draw")
    with aside():
        res.add("cluster_annual_energy_vs_b04_pct", (twh / fact("B04_annual_twh") - 1) * 100, "percent",
                "This chapter's yearly energy against the report's 1.59 TWh (B04)")
        # the report's 1.59 TWh over a year at this chapter's IT power: the facility multiplier it implies
        # if the cluster drew its rating all year (B06)
        res.add("report_implied_pue_at_rated_draw_ratio",
                fact("B04_annual_twh") * 1e6 / HOURS_PER_YEAR / chain["cluster_it_mw"], "ratio",
                "Facility multiplier the report's 1.59 TWh implies at the rated draw all year (B06)")


def _compute_capital(P, res: ChapterResults) -> None:
    capex = res.add("capex_usd", cluster.cluster_capex_usd(P.gpus, P.capex_usd_per_gpu), "USD",
                    "Capital cost of the cluster")
    res.add("capex_usd_per_gpu", P.capex_usd_per_gpu, "USD per GPU", "All-in capital cost per GPU (parameter)")
    with aside():
        res.add("report_capex_busd", fact("B02_capex_usd") / 1e9, "billion USD", "The report's lower bound on capex (B02)")
        res.add("report_implied_capex_usd_per_gpu", fact("B02_capex_usd") / REPORT_GPUS, "USD per GPU",
                "Capex per GPU implied by the report's >$4B for 100k GPUs")
    res.add("electricity_share_of_capex_frac", res["cluster_annual_electricity_usd"] / capex,
            "fraction per year", "Yearly electricity bill / capex")


def _compute_failures(P, res: ChapterResults, upstream) -> None:
    """The network chapter's fabric fails first after ``first_failure_minutes`` (its link count
    and link MTTF, read from ``upstream``); what a failure costs in lost work. The reliability
    chapter reads these results."""
    net = upstream["network"]
    links, alt_links = links_per_gpu(P, upstream)
    mttf = net["backend_link_mttf_years"]
    res.add("links_per_gpu", links, "links per GPU", "NIC-to-leaf links per GPU (network chapter)")
    res.add("backend_link_mttf_years", mttf, net.unit("backend_link_mttf_years"),
            net.quantities["backend_link_mttf_years"].label)
    res.add("first_failure_minutes", net["selected_first_failure_minutes"], "minutes",
            "Mean time to the first link failure")
    res.add("first_failure_alt_design_minutes",
            cluster.first_failure_minutes(P.alt_link_mttf_years, P.gpus * alt_links),
            "minutes", "Mean time to the first link failure, 4-link-per-node design")
    res.add("checkpoint_restart_lost_gpu_days",
            cluster.gpu_days_lost_checkpoint(P.gpus, P.checkpoint_interval_steps, P.step_time_seconds),
            "GPU-days", "Work lost per failure, restart from checkpoint (worst case)")
    copy_s = res.add("weights_copy_seconds", cluster.weights_copy_seconds(hardware.memory_gb(P.gpu), P.backend_gbps),
                     "seconds", "Time to copy one GPU's memory from a peer")
    res.add("in_memory_recovery_lost_gpu_days", cluster.gpu_days_lost_in_memory(P.gpus, P.step_time_seconds, copy_s),
            "GPU-days", "Work lost per failure, in-memory recovery")
    res.add("checkpoint_interval_steps", P.checkpoint_interval_steps, "steps", "Steps between checkpoints (parameter)")
    res.add("checkpoint_restart_lost_steps", P.checkpoint_interval_steps - 1, "steps",
            "Steps redone after a failure just before a checkpoint (worst case)")
    res.add("step_time_seconds", P.step_time_seconds, "s", "Wall-clock time of one training step (parameter)")
    res.add("backend_gbps", P.backend_gbps, "Gbit/s", "Backend link per GPU")
    res.add("alt_links_per_gpu", alt_links, "links per GPU", "Links per GPU, 4-link-per-node design")
    res.add("alt_link_mttf_years", P.alt_link_mttf_years, "years", "Link MTTF, 4-link-per-node design")
    # a single GPU's links fail on average once per MTTF; at this many GPUs, once an hour
    res.add("gpus_failing_hourly_count", cluster.first_failure_minutes(mttf, links) / 60,
            "GPUs", "Cluster size whose first link failure comes after one hour on average")


def compute(P, upstream) -> ChapterResults:
    """Every quantity and table of the cluster chapter at parameters ``P``."""
    res = ChapterResults("cluster")
    res.name("gpu", P.gpu)
    _compute_peaks(P, res)
    _compute_power(P, res)  # before the training time reads the report's MFUs and GPT-4 estimate
    _compute_training_time(P, res)
    _compute_capital(P, res)
    _compute_failures(P, res, upstream)
    res.add_table("compute_by_cluster_size", compute_by_size(P, upstream))
    with aside():
        b14 = b14_buildup_w()
    it_w = res["cluster_it_w_per_gpu"]
    res.add_table("power_build_up", pd.DataFrame({
        "build_up": [f"SemiAnalysis's components (B14):\n{b14['chip']:,.0f} W chip + {b14['server']:,.0f} W server, +10 %",
                     f"This book: h100_it_w_per_gpu\n({it_w:,.0f} W, C02)" if P.gpu == "h100_sxm"
                     else f"This book: {it_w:,.0f} W IT\nper {P.gpu}"],
        "chip_w": [b14["chip"], res["gpu_chip_w"]],
        "rest_of_it_w": [b14["server"] + b14["network_storage"], it_w - res["gpu_chip_w"]],
        "facility_overhead_w": [sum(b14.values()) * (P.pue - 1), it_w * (P.pue - 1)],
    }))
    return res
