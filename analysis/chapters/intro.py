"""Introduction: the book's short version, read from the chapters that compute it.

The introduction computes nothing. It copies the results its summary prints from ``upstream``
(each under the owning chapter's key, unit and label, so the one-value test checks that the copy
is the original) and two data rows (GPT-4's training time). :data:`READS` is the list of every
key it reads, by chapter.
"""

from __future__ import annotations

from analysis.chapters import ChapterError, ChapterResults
from analysis.data.load import load_table
from analysis.data.schemas import CLAIM_STATUSES, FACT_STATUSES

# (chapter, result key) the summary prints, in the order it prints them.
READS: tuple[tuple[str, str], ...] = (
    ("cluster", "cluster_gpus_count"),
    ("cluster", "peak_fp8_eflops"),
    ("cluster", "gpt4_retrain_days"),
    ("cluster", "cluster_it_mw"),
    ("cluster", "cluster_facility_mw"),
    ("cluster", "load_factor_frac"),
    ("cluster", "cluster_annual_energy_twh"),
    ("cluster", "cluster_annual_electricity_usd"),
    ("cluster", "capex_usd"),
    ("cluster", "electricity_share_of_capex_frac"),
    ("cluster", "first_failure_minutes"),
    ("cluster", "checkpoint_restart_lost_gpu_days"),
    ("tco", "h100_tco_usd_per_gpu_hour"),
    ("tco", "gb200_tco_usd_per_gpu_hour"),
    ("tco", "gb200_breakeven_speedup"),
    ("tco", "h100_tco_vs_report_pct"),
    ("tco", "utilization_pct"),
    # the reference token's cost: recorded by the uncertainty chapter at the same point as the TCO
    # chapter's (one value per key, tests/test_chapters.py), beside its band
    ("uncertainty", "llama31_405b_bf16_usd_per_million_tokens"),
    ("uncertainty", "llama31_405b_bf16_usd_per_million_tokens_p10"),
    ("uncertainty", "llama31_405b_bf16_usd_per_million_tokens_p90"),
    ("benchmarks", "gb200_vs_h100_deepseek_v3_bf16_throughput_ratio"),
    ("benchmarks", "gb200_vs_h100_llama4_maverick_fp8_throughput_ratio"),
    ("benchmarks", "fastest_gb200_vs_h100_throughput_ratio"),
    ("benchmarks", "slowest_gb200_vs_h100_throughput_ratio"),
    ("downtime", "gb200_breakeven_speedup_with_downtime"),
    ("reliability", "llama3_effective_training_time_frac"),
    ("energy", "gpt3_175b_fp8_j_per_token"),
    ("energy", "llama31_405b_bf16_household_years_15t_tokens"),
    ("plan", "plan_llama31_405b_facility_household_years"),
    *(("claims", f"claims_{status}_count") for status in CLAIM_STATUSES),
    *(("claims", f"facts_{status}_count") for status in FACT_STATUSES),
    ("claims", "facts_checked_count"),
)


# (chapter, role) of the models and GPUs its answer names, as those chapters record them (``names``).
READ_NAMES: tuple[tuple[str, str], ...] = tuple(
    ("benchmarks", role) for role in ("h100", "gb200", "fastest_model", "slowest_model"))


def read(upstream: dict[str, ChapterResults], section: str, key: str):
    """The :class:`~analysis.chapters.Quantity` ``key`` of chapter ``section``; an error naming
    both (and what the chapter has) when it is missing."""
    chapter = upstream[section]
    if key not in chapter:
        raise ChapterError(f"intro: chapter '{section}' has no result '{key}'; it has: {', '.join(chapter.quantities)}")
    return chapter.quantities[key]


def compute(P, upstream) -> ChapterResults:
    res = ChapterResults("intro")
    for section, role in READ_NAMES:
        if role not in upstream[section].names:
            raise ChapterError(f"intro: chapter '{section}' names no '{role}'; it names: "
                               f"{', '.join(upstream[section].names) or 'nothing'}")
        res.name(role, upstream[section].names[role])
    for section, key in READS:
        q = read(upstream, section, key)
        res.add(key, q.value, q.unit, q.label)
    gpt4 = load_table("training_runs").set_index("run_id").loc["gpt4"]
    res.add("gpt4_training_days_low", gpt4["days_low"], "days", "GPT-4's training time on A100s, low (B07)")
    res.add("gpt4_training_days_high", gpt4["days_high"], "days", "GPT-4's training time on A100s, high (B07)")
    return res
