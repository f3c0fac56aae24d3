"""The verdict each chapter's "In short" box opens with: one sentence that answers the chapter's
question (:data:`analysis.chapters.registry.SECTIONS`), with its condition, built from the chapter's own
results, so it changes with a scenario or ``-p`` like every other number.

``verdict(section, value)`` takes ``value(key) -> float`` (a recorded result); each sentence
names the basis of its numbers (utilization, with or without failures, which model).
"""

from __future__ import annotations

from collections.abc import Callable

from analysis.page.formatting import count, money, number, percent, times

Value = Callable[[str], float]


def _intro(v: Value) -> str:
    need, deepseek, best = v("gb200_breakeven_speedup"), v("gb200_vs_h100_deepseek_v3_bf16_throughput_ratio"), \
        v("gb200_vs_h100_llama4_maverick_fp8_throughput_ratio")
    return (f"GB200 NVL72 pays off against H100 if it trains at least {times(need)} faster per GPU "
            f"(the TCO ratio at {percent(v('utilization_pct') / 100)} utilization); NVIDIA's published speed-ups "
            f"reach {times(best)} on Llama 4 Maverick but {times(deepseek)} on DeepSeek-V3 "
            f"({'below' if deepseek < need else 'above'} the bar), and once failures "
            f"and repairs are priced in the bar rises to {times(v('gb200_breakeven_speedup_with_downtime'))}.")


def _tco(v: Value) -> str:
    return (f"At {percent(v('utilization_pct') / 100)} utilization an H100 costs "
            f"{money(v('h100_tco_usd_per_gpu_hour'))} per GPU-hour to own and a GB200 "
            f"{money(v('gb200_tco_usd_per_gpu_hour'))}, so GB200 must train {times(v('gb200_breakeven_speedup'))} "
            "faster per GPU to cost the same per token.")


def _capex(v: Value) -> str:
    return (f"A GB200 NVL72 GPU costs {times(v('gb200_to_h100_capex_ratio'))} an H100's to buy all-in "
            f"({money(v('gb200_capex_usd_per_gpu'))} against {money(v('h100_capex_usd_per_gpu'))}), the larger "
            "part of the speed-up GB200 must deliver.")


def _opex(v: Value) -> str:
    return (f"A GB200 NVL72 GPU costs {times(v('gb200_to_h100_opex_ratio'))} an H100's to run "
            f"({money(v('gb200_opex_usd_per_gpu_month'))} against {money(v('h100_opex_usd_per_gpu_month'))} "
            "a GPU-month, power, space and maintenance), less than its capex ratio.")


def _cluster(v: Value) -> str:
    return (f"A {count(v('cluster_gpus_count'))}-H100 cluster peaks at {number(v('peak_fp8_eflops'))} EFLOP/s in dense FP8, draws "
            f"{number(v('cluster_facility_mw'))} MW at the meter and costs {money(v('capex_usd'))}; with "
            f"SemiAnalysis's link lifetimes its first link fails {number(v('first_failure_minutes'))} minutes after a "
            "start, on average.")


def _network(v: Value) -> str:
    return (f"The network is {percent(v('network_capex_share_of_cluster_frac'))} of the cluster's capex "
            f"({money(v('network_capex_usd'))} for this chapter's InfiniBand design) and "
            f"{number(v('network_it_mw'))} MW of its IT power.")


def _benchmarks(v: Value) -> str:
    return (f"On NVIDIA's own tables GB200 NVL72 trains Llama 3.1 405B (BF16) "
            f"{times(v('gb200_vs_h100_llama31_405b_bf16_throughput_ratio'))} faster per GPU than H100, but "
            f"DeepSeek-V3 only {times(v('gb200_vs_h100_deepseek_v3_bf16_throughput_ratio'))}; the book's one FLOP "
            "count makes every row's MFU comparable.")


def _scaling(v: Value) -> str:
    return (f"Adding GPUs to one fixed run buys speed at a falling rate: at the largest size it runs "
            f"{times(v('strong_speedup_at_max_ratio'))} faster at {percent(v('strong_efficiency_at_max_frac'))} "
            f"strong-scaling efficiency and costs {money(v('strong_run_cost_at_max_usd'))} (Llama 3.1 405B FP8, "
            "NVIDIA's tables).")


def _software(v: Value) -> str:
    return (f"Software alone raised GPT-3 175B FP8 MFU on unchanged H100s from "
            f"{percent(v('gpt3_175b_fp8_mfu_jan2024'))} to {percent(v('gpt3_175b_fp8_mfu_dec2024'))} in 2024, "
            f"worth {money(v('llama31_405b_bf16_software_saving_15t_tokens_usd'))} on a Llama 3.1 405B run.")


def _atlas(v: Value) -> str:
    return (f"Under one FLOP count the best Llama 3.1 70B results sit within a few points of each other: "
            f"GB300 NVL72 {percent(v('atlas_gb300_nvl72_mfu_frac'))}, Ironwood "
            f"{percent(v('atlas_tpu7x_ironwood_mfu_frac'))} and H100 {percent(v('atlas_h100_sxm_mfu_frac'))} MFU "
            "(each against its own precision's dense peak).")


def _energy(v: Value) -> str:
    return (f"An H100 draws {count(v('h100_meter_w_per_gpu'))} W at the meter, and one clean pass of Llama 3.1 "
            f"405B over {number(v('llama31_405b_train_trillion_tokens'))}T tokens uses the electricity of "
            f"{count(v('llama31_405b_bf16_household_years_15t_tokens'))} US household-years.")


def _reliability(v: Value) -> str:
    return (f"A Llama 3-sized job ({count(v('llama3_gpus'))} H100) is interrupted {number(v('llama3_unexpected_interruptions_per_day'))} "
            f"times a day and still trains {percent(v('llama3_effective_training_time_frac'))} of the time "
            f"(Monte Carlo mean) when it checkpoints every {number(v('daly_interval_minutes'))} minutes.")


def _downtime(v: Value) -> str:
    return (f"Priced with failures and repairs, GB200 must train {times(v('gb200_breakeven_speedup_with_downtime'))} "
            f"faster per GPU, not {times(v('gb200_breakeven_speedup'))}: it trains "
            f"{percent(v('gb200_useful_frac'))} of its paid hours against H100's {percent(v('h100_useful_frac'))} "
            f"({count(v('job_gpus'))}-GPU job).")


def _uncertainty(v: Value) -> str:
    return (f"Across the inputs' ranges the break-even speed-up stays between {times(v('gb200_breakeven_speedup_p10'))} "
            f"and {times(v('gb200_breakeven_speedup_p90'))} (P10-P90), and Llama 3.1 405B BF16 tokens cost "
            f"{money(v('llama31_405b_bf16_usd_per_million_tokens_p10'))} to "
            f"{money(v('llama31_405b_bf16_usd_per_million_tokens_p90'))} per million (no failures).")


def _scenarios(v: Value) -> str:
    return (f"The shipped scenarios move the H100 TCO from {money(v('cheap_power_texas__h100_tco_usd_per_gpu_hour'))} "
            f"(cheap Texas power) to {money(v('neocloud_buyer__h100_tco_usd_per_gpu_hour'))} per GPU-hour "
            f"(a neocloud buyer), against {money(v('report_defaults__h100_tco_usd_per_gpu_hour'))} at the "
            "report's defaults.")


def _plan(v: Value) -> str:
    return (f"Llama 3.1 405B on {number(v('plan_llama31_405b_train_trillion_tokens'))}T tokens at Meta's measured speed takes "
            f"{number(v('plan_llama31_405b_days_with_failures'))} days with failures and costs "
            f"{money(v('plan_llama31_405b_cost_usd'))} at the book's H100 TCO; on published runs the planner's "
            f"time is within {percent(v('plan_backtest_estimated_median_abs_error_frac'))} (median) when it "
            "estimates the throughput.")


def _mlperf(v: Value) -> str:
    return (f"The fastest MLPerf v5.1 Llama 3.1 405B result took {count(v('mlperf_405b_fastest_gpu_hours'))} "
            f"GPU-hours, {money(v('mlperf_405b_fastest_usd_on_demand'))} at on-demand prices and "
            f"{money(v('mlperf_405b_fastest_usd_sa_owning'))} at the cost of owning: the price tier, not the "
            "benchmark, sets the bill.")


def _claims(v: Value) -> str:
    return (f"Of {count(v('claims_total_count'))} seed claims the book corrects "
            f"{count(v('claims_corrected_count'))} and reproduces {count(v('claims_reproduced_independently_count'))} "
            f"from independent sources; of {count(v('facts_checked_count'))} report figures it checks, "
            f"{count(v('facts_corrected_count'))} are corrected.")


VERDICTS: dict[str, Callable[[Value], str]] = {
    "intro": _intro, "tco": _tco, "capex": _capex, "opex": _opex, "cluster": _cluster, "network": _network,
    "benchmarks": _benchmarks, "scaling": _scaling, "software": _software, "atlas": _atlas, "energy": _energy,
    "reliability": _reliability, "downtime": _downtime, "uncertainty": _uncertainty, "scenarios": _scenarios,
    "plan": _plan, "mlperf": _mlperf, "claims": _claims,
}


def verdict(section: str, value: Value) -> str:
    """The verdict sentence of ``section``'s "In short" box (KeyError for a chapter without one)."""
    return VERDICTS[section](value)
