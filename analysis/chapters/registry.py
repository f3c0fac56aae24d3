"""The book's chapters ("sections"), in book order: notebook, parameters, data tables read,
chapters whose results they need, headline results and figures. The command line, the build, the
table of contents (:func:`analysis.build.book.table_of_contents`), the introduction's chapter list
and the tests all read this one list; docs/contributing.md says what else a new chapter needs.
"""

from __future__ import annotations

from dataclasses import dataclass

from analysis.errors import clip
from analysis.params import defaults as d
from analysis.params.parameters import Param, ParameterError, check_names, resolve


@dataclass(frozen=True)
class Section:
    name: str
    title: str
    question: str  # what the chapter answers, for `sections` and the introduction
    params: tuple[Param, ...] = ()
    tables: tuple[str, ...] = ()  # data tables the notebook reads (closure added by the pipeline)
    needs: tuple[str, ...] = ()  # sections whose results JSON this one reads
    headline: tuple[str, ...] = ()  # result keys printed by `run`
    figures: tuple[str, ...] = ()  # figure names (``{glue:figure}`` labels) the page must show
    files: tuple[str, ...] = ()  # other inputs (glob patterns from the repository root) in the cache key

    @property
    def notebook(self) -> str:
        return f"notebooks/{self.name}.py"

    @property
    def param_map(self) -> dict[str, Param]:
        return {p.name: p for p in self.params}


# The modelling chapters, in book order (the sidebar's, the introduction's and `sections`'). The ledger and
# the introduction, below, read their results.
# Every table `analysis.planner.plan` reads (its model, MFU fit with the production runs' term,
# failures, prices, power and grid):
# a chapter that calls the planner declares all of them, so the build lets its kernel read them.
PLANNER_TABLES = ("backtest_runs", "models", "gpus", "benchmarks", "distributions", "llama3_interruptions", "reliability_facts",
                  "cloud_prices", "grid_carbon", "system_power", "accelerators", "report_facts", "job_failures",
                  "sources", "maintenance_parts")

CHAPTERS: tuple[Section, ...] = (
    Section(
        name="cluster",
        title="The 100,000-H100 cluster",
        question="What does a 100k-H100 cluster deliver in FLOP/s, draw in megawatts, cost in "
                 "electricity and capital, and lose to failures?",
        params=(d.GPUS, d.GPU, d.DTYPE, d.MFU_FP8, d.MFU_BF16, d.RUN_DAYS, d.H100_IT_W_PER_GPU,
                d.GB200_IT_W_PER_GPU, d.PUE, d.LOAD_FACTOR, d.TARIFF, d.CAPEX_USD_PER_GPU,
                d.ALT_LINK_MTTF_YEARS, d.CHECKPOINT_INTERVAL_STEPS, d.STEP_TIME_SECONDS, d.BACKEND_GBPS),
        tables=("gpus", "training_runs", "report_facts", "claims"),
        needs=("network",),  # its fabric (links, link MTTF, first failure) sets the first-failure arithmetic
        headline=("peak_fp8_eflops", "peak_bf16_eflops", "peak_fp8_vs_a100_cluster_ratio", "gpt4_implied_mfu",
                  "gpt4_retrain_days", "cluster_it_mw", "cluster_facility_mw", "cluster_annual_energy_twh",
                  "cluster_annual_electricity_usd", "capex_usd", "first_failure_minutes",
                  "checkpoint_restart_lost_gpu_days", "in_memory_recovery_lost_gpu_days"),
        figures=("fig-cluster-eflops", "fig-cluster-power", "fig-cluster-failures"),
    ),
    Section(
        name="network",
        title="The network of a 100,000-H100 cluster",
        question="How many switches, transceivers and copper links does a 100k-GPU backend fabric need under "
                 "each topology, what do they cost and draw, and how many links can fail?",
        params=(d.GPUS, d.H100_GPUS_PER_SERVER, d.SWITCH_RADIX, d.FABRIC_TIERS, d.ISLAND_GPUS,
                d.ISLAND_OVERSUBSCRIPTION, d.RAIL_LAYOUT, d.NODE_PORTS_PER_TRANSCEIVER, d.BACKEND_NIC,
                d.FRONTEND_STORAGE_FRAC, *d.NETWORK_PRICES, d.LINK_MTTF_YEARS, d.ALT_LINK_MTTF_YEARS,
                d.CAPEX_USD_PER_GPU, d.H100_IT_W_PER_GPU, d.PUE, d.LOAD_FACTOR, d.TARIFF),
        tables=("report_facts", "network_components"),
        headline=("network_tiers_count", "network_switches_count", "network_transceivers_count",
                  "backend_nic_links_count", "network_capex_usd", "network_capex_share_of_cluster_frac",
                  "network_it_mw", "network_it_share_frac", "ethernet_vs_infiniband_capex_saving_usd",
                  "middle_of_rack_copper_frac"),
        figures=("fig-network-options-capex", "fig-network-options-failures"),
    ),
    Section(
        name="capex",
        title="Capex: what an H100 and a GB200 GPU cost to buy",
        question="What does a GPU cost per server, per rack and per GPU, how far off are the seed's prices, "
                 "and what is the capital charge per GPU-hour?",
        params=(d.H100_SERVER_USD, d.H100_ALLIN_USD, d.H100_GPUS_PER_SERVER, d.GB200_RACK_USD, d.GB200_ALLIN_USD,
                d.GB200_GPUS_PER_RACK, d.USEFUL_LIFE_YEARS, d.COST_OF_CAPITAL, d.UTILIZATION),
        tables=("report_facts", "claims", "seed_numbers", "gpus"),  # gpus: the verdict names the GPUs
        headline=("h100_capex_usd_per_gpu", "gb200_capex_usd_per_gpu", "gb200_to_h100_capex_ratio",
                  "h100_capex_usd_per_gpu_hour", "gb200_capex_usd_per_gpu_hour"),
        figures=("fig-capex-build-up", "fig-capex-per-hour-vs-life"),
    ),
    Section(
        name="opex",
        title="Opex: what an H100 and a GB200 GPU cost to run",
        question="What does a GPU cost per month in power, datacenter space, maintenance and other items?",
        # the life and the cost of capital set the warranty's share of the life and the spares pool's charge
        params=(d.H100_ALLIN_USD, d.H100_GPUS_PER_SERVER, d.GB200_ALLIN_USD, d.GB200_GPUS_PER_RACK,
                d.H100_IT_W_PER_GPU, d.GB200_IT_W_PER_GPU, d.PUE, d.TARIFF, d.DATACENTER_USD_PER_KW_MONTH,
                *d.MAINTENANCE_INPUTS, d.USEFUL_LIFE_YEARS, d.COST_OF_CAPITAL, d.OTHER_USD_PER_GPU_MONTH,
                d.LOAD_FACTOR),
        tables=("gpus", "report_facts", "claims", "seed_numbers", "cost_anchors", "llama3_interruptions",
                "reliability_facts", "maintenance_parts"),
        headline=("h100_opex_usd_per_gpu_month", "gb200_opex_usd_per_gpu_month", "gb200_to_h100_opex_ratio"),
        figures=("fig-opex-breakdown", "fig-opex-maintenance", "fig-opex-vs-tariff"),
    ),
    Section(
        name="tco",
        title="TCO: dollars per GPU-hour and per million tokens",
        question="What does a GPU-hour and a million training tokens cost, what speed-up must GB200 deliver, "
                 "and how does owning compare with renting?",
        params=(*d.TCO_INPUTS, d.LOCAL_GPU_HOUR_USD),
        tables=("distributions", "llama3_interruptions", "reliability_facts", "benchmarks", "models", "gpus",
                "cloud_prices", "report_facts", "claims", "measured", "seed_numbers", "cost_anchors",
                "owning_cost_anchors", "maintenance_parts", "sources"),
        needs=("uncertainty",),  # the P10-P90 bands of its headline costs
        headline=("h100_tco_usd_per_gpu_hour", "gb200_tco_usd_per_gpu_hour", "gb200_breakeven_speedup",
                  "gpt3_175b_fp8_usd_per_million_tokens", "llama31_405b_bf16_usd_per_million_tokens",
                  "llama31_405b_bf16_cost_15t_tokens_usd"),
        figures=("fig-tco-breakeven", "fig-tco-market", "fig-tco-rent-vs-own"),
    ),
    Section(
        name="benchmarks",
        title="Benchmarks: MFU, throughput and cost per token",
        question="What MFU and tokens/s/GPU do H100 clusters reach on GPT-3 175B and Llama 3.1 from 64 to "
                 "2,304 GPUs, what does a million tokens cost, and how far ahead is GB200 NVL72?",
        params=(d.MFU_CHECK_TOLERANCE, d.LOCAL_GPU_HOUR_USD, d.LOCAL_POWER_W, d.DEEPSEEK_V3_GPU_HOURS,
                d.DEEPSEEK_V3_USD_PER_GPU_HOUR),
        tables=("benchmarks", "models", "gpus", "report_facts", "claims", "measured"),
        needs=("tco",),
        headline=("llama31_405b_bf16_tokens_per_s_per_gpu_2304", "llama31_405b_bf16_usd_per_million_tokens_2304",
                  "llama31_70b_fp8_mfu_relative_drop_64_to_2048_frac", "gb200_vs_h100_deepseek_v3_bf16_throughput_ratio",
                  "gb200_vs_h100_llama4_maverick_bf16_throughput_ratio",
                  "gb200_vs_h100_llama31_405b_bf16_throughput_ratio", "conversion_failures_count"),
        figures=("fig-bench-mfu", "fig-bench-throughput", "fig-bench-gb200"),
    ),
    Section(
        name="scaling",
        title="Scaling: weak against strong",
        question="What do more GPUs buy when each GPU keeps its work (weak scaling) and when a fixed "
                 "batch is spread thinner (strong scaling), and what do the last 1,000 GPUs cost?",
        params=(d.STRONG_MODEL, d.STRONG_PRECISION, d.STRONG_MAX_GPUS, d.MARGINAL_GPUS, d.GRAD_BYTES_PER_PARAM,
                d.BACKEND_GBPS, d.LLAMA3_TRAIN_TOKENS),
        tables=("benchmarks", "models", "gpus", "report_facts", "claims"),
        needs=("benchmarks", "tco"),
        headline=("llama31_405b_fp8_mfu_2304", "strong_efficiency_at_max_frac", "strong_speedup_at_max_ratio",
                  "strong_run_at_max_days", "strong_run_cost_at_max_usd", "strong_last_block_usd_per_speedup",
                  "strong_last_block_vs_first_block_cost_ratio"),
        figures=("fig-scaling-efficiency", "fig-scaling-cost"),
    ),
    Section(
        name="software",
        title="Software gains on unchanged hardware",
        question="How much did NVIDIA's software releases raise MFU on the same H100s in 2024-2025, and "
                 "what is that worth in dollars per token and per training run?",
        params=(d.GPT3_TRAIN_TOKENS, d.SEED_MFU_END, d.SEED_GPT3_COST_END_USD),
        tables=("benchmarks", "models", "gpus", "report_facts", "claims", "sources", "atlas_benchmarks"),
        needs=("tco",),
        headline=("gpt3_175b_bf16_mfu_jan2024", "gpt3_175b_bf16_mfu_dec2024", "gpt3_175b_fp8_mfu_jan2024",
                  "gpt3_175b_fp8_mfu_dec2024", "gpt3_175b_fp8_cost_300b_tokens_jan2024_usd",
                  "gpt3_175b_fp8_cost_300b_tokens_dec2024_usd", "llama31_405b_bf16_software_saving_15t_tokens_usd"),
        figures=("fig-software-mfu",),
    ),
    Section(
        name="atlas",
        title="Accelerator atlas",
        question="What MFU, tokens/s, joules and dollars per token do NVIDIA, AMD and Google accelerators "
                 "reach on the same models once every row is counted under one FLOP convention?",
        params=(d.MFU_CHECK_TOLERANCE, d.H100_IT_W_PER_GPU, d.GB200_IT_W_PER_GPU, d.PUE, d.LOAD_FACTOR),
        tables=("atlas_benchmarks", "accelerators", "models", "gpus", "cloud_prices", "sources"),
        headline=("atlas_accelerators_count", "atlas_vendors_count", "atlas_measured_accelerators_count",
                  "atlas_rows_reproduced_count", "atlas_gb300_nvl72_mfu_frac", "atlas_tpu7x_ironwood_mfu_frac",
                  "atlas_mi355x_mfu_frac"),
        figures=("fig-atlas-mfu", "fig-atlas-energy"),
    ),
    Section(
        name="energy",
        title="Energy: joules per token, household-years and cluster power",
        question="How much electricity does each trained token take at the meter, what is a training run "
                 "in US household-years, what do 100k-GPU clusters draw, and what does it emit?",
        params=(d.H100_IT_W_PER_GPU, d.GB200_IT_W_PER_GPU, d.PUE, d.LOAD_FACTOR, d.HOUSEHOLD_KWH_PER_YEAR,
                d.GRID_G_CO2_PER_KWH, d.LOCAL_POWER_W),
        tables=("distributions", "llama3_interruptions", "reliability_facts", "benchmarks", "models", "gpus",
                "report_facts", "claims", "household_energy", "published_runs", "measured"),
        needs=("cluster", "benchmarks", "uncertainty", "opex"),  # opex: its power item, reconciled with the cluster's bill
        headline=("h100_average_meter_w_per_gpu", "sa_implied_pue_ratio", "gpt3_175b_fp8_j_per_token",
                  "gpt3_175b_bf16_j_per_token", "llama31_405b_bf16_j_per_token",
                  "gpt3_175b_fp8_household_years_300b_tokens", "llama31_405b_bf16_household_years_15t_tokens",
                  "cluster_annual_energy_twh", "gb200_cluster_annual_energy_twh",
                  "llama31_405b_bf16_emissions_15t_tokens_tco2"),
        figures=("fig-energy-joules-per-token", "fig-energy-household-years", "fig-energy-power-build-up"),
    ),
    Section(
        name="reliability",
        title="Reliability: failures, checkpoints and goodput",
        question="How often does a training job fail as it grows, how often should it checkpoint, and what do "
                 "checkpoints, detection and restarts cost in goodput?",
        params=(d.GPUS, d.CHECKPOINT_INTERVAL_STEPS, d.STEP_TIME_SECONDS, d.CHECKPOINT_WRITE_SECONDS,
                d.FAILURE_DETECTION_MINUTES, d.RESTART_MINUTES, d.GOODPUT_TRIALS, d.GOODPUT_SEED,
                d.GB200_GPUS_PER_RACK, d.GB200_NVLINK_FAULTS_PER_RACK_MONTH, d.GB200_GPU_FAULT_RATIO,
                d.FAILURE_MODEL),
        needs=("cluster",),  # the cluster's first link failure and the work a failure loses
        tables=("llama3_interruptions", "reliability_facts", "gpus", "report_facts", "job_failures", "models"),
        headline=("llama3_unexpected_interruptions_per_day", "llama3_gpu_mtbf_hours",
                  "llama3_effective_training_time_frac", "young_interval_minutes", "daly_interval_minutes",
                  "cluster_goodput_frac", "measured_vs_projected_failure_rate_1024_gpus_ratio"),
        figures=("fig-reliability-causes", "fig-reliability-mtbf", "fig-reliability-interval",
                 "fig-reliability-llama3-goodput", "fig-reliability-goodput"),
    ),
    Section(
        name="downtime",
        title="GB200 NVL72's downtime penalty",
        question="How much faster than H100 must GB200 NVL72 be once its failures, blast radius and repair "
                 "times are priced in, and do NVIDIA's measured speed-ups clear that bar?",
        # The server and rack sizes are TCO inputs too; here they are the H100's repair domain and the
        # rack the NVLink fault rate is spread over.
        params=(d.GPUS, d.JOB_GPUS, d.CHECKPOINT_WRITE_SECONDS, d.FAILURE_DETECTION_MINUTES, d.RESTART_MINUTES,
                d.H100_GPUS_PER_SERVER, d.GB200_GPUS_PER_RACK, d.H100_REPAIR_HOURS, d.GB200_REPAIR_HOURS,
                d.GB200_BLAST_RADIUS_GPUS, d.GB200_NVLINK_FAULTS_PER_RACK_MONTH, d.GB200_GPU_FAULT_RATIO),
        tables=("distributions", "llama3_interruptions", "reliability_facts", "benchmarks", "models", "gpus",
                "report_facts", "claims"),
        needs=("tco", "benchmarks", "uncertainty"),
        headline=("gb200_breakeven_speedup", "gb200_breakeven_speedup_with_downtime",
                  "gb200_breakeven_speedup_with_downtime_at_cluster_size", "h100_useful_frac", "gb200_useful_frac",
                  "gb200_vs_h100_llama31_405b_bf16_throughput_ratio"),
        figures=("fig-downtime-breakeven",),
    ),
    Section(
        name="uncertainty",
        title="How sure are these numbers?",
        question="How wide are the bands around the headline costs, joules and break-even, and which inputs "
                 "drive them?",
        params=(*d.TCO_INPUTS, d.HOUSEHOLD_KWH_PER_YEAR, d.JOB_GPUS, d.CHECKPOINT_WRITE_SECONDS,
                d.FAILURE_DETECTION_MINUTES, d.RESTART_MINUTES, d.H100_REPAIR_HOURS, d.GB200_REPAIR_HOURS,
                d.GB200_BLAST_RADIUS_GPUS, d.GB200_NVLINK_FAULTS_PER_RACK_MONTH, d.MC_DRAWS, d.MC_SEED),
        tables=("distributions", "benchmarks", "models", "gpus", "llama3_interruptions", "reliability_facts",
                "report_facts", "maintenance_parts"),
        headline=("llama31_405b_bf16_usd_per_million_tokens_p10", "llama31_405b_bf16_usd_per_million_tokens_p50",
                  "llama31_405b_bf16_usd_per_million_tokens_p90", "gb200_breakeven_speedup_p10",
                  "gb200_breakeven_speedup_p50", "gb200_breakeven_speedup_p90",
                  "gb200_breakeven_speedup_with_downtime_p50"),
        figures=("fig-uncertainty-bands", "fig-uncertainty-tornado-cost", "fig-uncertainty-tornado-breakeven"),
    ),
    Section(
        name="scenarios",
        title="Scenarios side by side",
        question="How do the headline costs, joules and break-even move between the shipped scenarios: "
                 "cheap or expensive power, a neocloud buyer, a mature GB200?",
        tables=("benchmarks", "models", "gpus", "llama3_interruptions", "reliability_facts", "report_facts",
                "sources", "maintenance_parts"),
        files=("data/scenarios/*.yaml",),
        headline=("scenarios_shipped_count",),
        figures=("fig-scenarios-compare",),
    ),
    Section(
        name="plan",
        title="Plan a run",
        question="What would my run cost, how long would it take and how much power would it burn, and how "
                 "well does the planner predict runs that were published?",
        tables=PLANNER_TABLES,
        needs=("energy", "tco"),
        headline=("plan_llama31_405b_days_with_failures", "plan_llama31_405b_gpu_hours", "plan_llama31_405b_cost_usd",
                  "plan_llama31_405b_energy_gpu_tdp_mwh", "plan_llama31_405b_energy_facility_mwh",
                  "plan_gpt3_hardware_full_days", "plan_backtest_runs_count",
                  "plan_backtest_estimated_median_abs_error_frac", "plan_backtest_within_band_frac"),
        figures=("fig-plan-backtest",),
    ),
    Section(
        name="mlperf",
        title="MLPerf Training, priced",
        question="What does each MLPerf Training LLM result cost in GPU-hours, dollars at each price tier and "
                 "megawatt-hours, how efficiently does each doubling of the system scale, and how close is the planner?",
        params=(d.H100_IT_W_PER_GPU, d.GB200_IT_W_PER_GPU, d.PUE, d.LOAD_FACTOR),
        tables=PLANNER_TABLES + ("mlperf_training", "mlperf_benchmarks", "mlperf_convergence"),
        needs=("tco",),  # the book's TCO per GPU-hour is the ladder's last tier
        headline=("mlperf_results_count", "mlperf_405b_fastest_gpu_hours", "mlperf_405b_fastest_usd_on_demand",
                  "mlperf_405b_fastest_usd_sa_owning", "mlperf_405b_fastest_mwh_all_in",
                  "mlperf_planner_median_abs_error_frac", "mlperf_tpu7x_spread_ratio"),
        figures=("fig-mlperf-scaling", "fig-mlperf-tiers"),
    ),
)

SECTIONS: tuple[Section, ...] = CHAPTERS + (
    Section(
        name="claims",
        title="The claims ledger",
        question="Which of the seed's claims hold, which are wrong, and which of the report's own figures "
                 "does the book reproduce?",
        # its own tables, and every chapter's: it recomputes the chapters of its depends_on_default
        # rows at the ends of their defaults' ranges (analysis.chapters.claims.range_table)
        tables=tuple(dict.fromkeys(("claims", "report_facts", "sources", "fact_checks", "seed_numbers", "distributions",
                                    "facts_not_checked", *(t for s in CHAPTERS for t in s.tables)))),
        files=tuple(dict.fromkeys(f for s in CHAPTERS for f in s.files)),
        needs=tuple(s.name for s in CHAPTERS),  # picks up every chapter, present and future
        headline=("claims_reproduced_independently_count", "claims_consistency_count",
                  "claims_depends_on_default_count", "claims_reproduced_by_calibration_count",
                  "claims_input_quoted_count", "claims_corrected_count", "claims_context_count",
                  "claims_unverifiable_count", "claims_pending_count", "facts_checked_count",
                  "facts_reproduced_independently_count", "facts_consistency_count",
                  "facts_depends_on_default_count", "facts_reproduced_by_calibration_count",
                  "facts_input_quoted_count", "facts_corrected_count", "facts_context_count"),
    ),
    Section(
        name="intro",
        title="Introduction",
        question="What is this book, what does each chapter answer, and how do I rerun it?",
        tables=("training_runs", "models", "gpus"),  # models, gpus: the answer and its chart name what they compare
        needs=("cluster", "tco", "benchmarks", "energy", "reliability", "downtime", "uncertainty", "claims", "plan"),
    ),
)


def section_names() -> list[str]:
    return [s.name for s in SECTIONS]


def get_section(name: str) -> Section:
    for section in SECTIONS:
        if section.name == name:
            return section
    raise ParameterError(f"unknown section {clip(name)}; sections: {', '.join(section_names())}")


def all_params() -> dict[str, Param]:
    """Every parameter of every section, by name (a shared parameter appears once)."""
    known: dict[str, Param] = {}
    for section in SECTIONS:
        for p in section.params:
            if known.setdefault(p.name, p) is not p:
                raise TypeError(f"two different parameters are named {p.name}")
    return known


def resolve_section(section: Section, overrides: dict[str, object],
                    origin: dict[str, str] | None = None) -> dict[str, object]:
    """Validated parameter values for ``section``: defaults with ``overrides`` applied. Unknown
    names anywhere in ``overrides`` are an error, so a typo in a scenario never passes silently."""
    check_names(all_params(), overrides, origin)
    try:
        return resolve(section.param_map, overrides)
    except ParameterError as exc:
        name = str(exc).split("'")[1] if "'" in str(exc) else ""
        prefix = (origin or {}).get(name, "")
        raise ParameterError(f"{prefix}{exc} [section {section.name}]") from None


def run_order(names: list[str]) -> list[list[Section]]:
    """``names`` and the sections they need, in levels: each level only needs earlier ones."""
    wanted, todo = {}, list(names)
    while todo:
        s = get_section(todo.pop())
        if s.name not in wanted:
            wanted[s.name] = s
            todo.extend(s.needs)
    levels, done = [], set()
    while len(done) < len(wanted):
        level = [s for s in SECTIONS if s.name in wanted and s.name not in done and set(s.needs) <= done]
        if not level:
            raise TypeError("sections need each other in a cycle")
        levels.append(level)
        done |= {s.name for s in level}
    return levels


def in_order(names: list[str]) -> list[Section]:
    """``names`` and the sections they need, each after those it needs: :func:`run_order`'s
    levels, one after the other."""
    return [s for level in run_order(names) for s in level]
