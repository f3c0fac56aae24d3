"""The book's chapters ("sections"): notebook, parameters, data tables read, chapters whose
results they need, headline results and figures. The CLI, the pipeline and the tests all read
this one list, so a new chapter is one entry here plus its notebook and a line in ``_toc.yml``.
"""

from __future__ import annotations

from dataclasses import dataclass

from analysis import defaults as d
from analysis.params import Param, ParameterError, check_names, resolve


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

    @property
    def notebook(self) -> str:
        return f"notebooks/{self.name}.py"

    @property
    def param_map(self) -> dict[str, Param]:
        return {p.name: p for p in self.params}


SECTIONS: tuple[Section, ...] = (
    Section(
        name="cluster",
        title="The 100,000-H100 cluster",
        question="What does a 100k-H100 cluster deliver in FLOP/s, draw in megawatts, cost in "
                 "electricity and capital, and lose to failures?",
        params=(d.GPUS, d.GPU, d.DTYPE, d.MFU_FP8, d.MFU_BF16, d.RUN_DAYS, d.SERVER_W_PER_GPU,
                d.NETWORK_STORAGE_FRAC, d.PUE, d.LOAD_FACTOR, d.TARIFF, d.CAPEX_PER_GPU,
                d.LINK_MTTF_YEARS, d.LINKS_PER_GPU, d.ALT_LINK_MTTF_YEARS, d.ALT_LINKS_PER_GPU,
                d.CHECKPOINT_INTERVAL_STEPS, d.STEP_TIME_S, d.BACKEND_GBPS),
        tables=("gpus", "training_runs", "report_facts", "claims"),
        headline=("peak_fp8_eflops", "peak_bf16_eflops", "peak_ratio_vs_a100_cluster", "gpt4_implied_mfu",
                  "gpt4_retrain_days", "critical_it_mw", "annual_energy_twh", "annual_electricity_usd",
                  "capex_usd", "first_failure_minutes", "gpu_days_lost_checkpoint",
                  "gpu_days_lost_in_memory"),
        figures=("fig-cluster-eflops", "fig-cluster-power", "fig-cluster-failures"),
    ),
    Section(
        name="capex",
        title="Capex: what an H100 and a GB200 GPU cost to buy",
        question="What does a GPU cost per server, per rack and per GPU, how far off are the seed's prices, "
                 "and what is the capital charge per GPU-hour?",
        params=(d.H100_SERVER_USD, d.H100_ALLIN_USD, d.H100_GPUS_PER_SERVER, d.GB200_RACK_USD, d.GB200_ALLIN_USD,
                d.GB200_GPUS_PER_RACK, d.USEFUL_LIFE_YEARS, d.COST_OF_CAPITAL, d.UTILIZATION),
        tables=("report_facts", "claims", "seed_numbers"),
        headline=("h100_capex_per_gpu_usd", "gb200_capex_per_gpu_usd", "gb200_to_h100_capex_ratio",
                  "h100_capex_per_gpu_hour_usd", "gb200_capex_per_gpu_hour_usd"),
        figures=("fig-capex-build-up", "fig-capex-per-hour-vs-life"),
    ),
    Section(
        name="opex",
        title="Opex: what an H100 and a GB200 GPU cost to run",
        question="What does a GPU cost per month in power, datacenter space, maintenance and other items?",
        params=(d.H100_ALLIN_USD, d.H100_GPUS_PER_SERVER, d.GB200_ALLIN_USD, d.GB200_GPUS_PER_RACK,
                d.H100_IT_W_PER_GPU, d.GB200_IT_W_PER_GPU, d.PUE, d.TARIFF, d.DATACENTER_USD_PER_KW_MONTH,
                d.MAINTENANCE_FRAC_PER_YEAR, d.OTHER_USD_PER_GPU_MONTH),
        tables=("gpus", "report_facts", "claims", "seed_numbers"),
        headline=("h100_opex_per_gpu_month_usd", "gb200_opex_per_gpu_month_usd", "gb200_to_h100_opex_ratio"),
        figures=("fig-opex-breakdown", "fig-opex-vs-tariff"),
    ),
    Section(
        name="tco",
        title="TCO: dollars per GPU-hour and per million tokens",
        question="What does a GPU-hour and a million training tokens cost, what speed-up must GB200 deliver, "
                 "and how does owning compare with renting?",
        params=(d.H100_ALLIN_USD, d.H100_GPUS_PER_SERVER, d.GB200_ALLIN_USD, d.GB200_GPUS_PER_RACK,
                d.USEFUL_LIFE_YEARS, d.COST_OF_CAPITAL, d.UTILIZATION, d.H100_IT_W_PER_GPU, d.GB200_IT_W_PER_GPU,
                d.PUE, d.TARIFF, d.DATACENTER_USD_PER_KW_MONTH, d.MAINTENANCE_FRAC_PER_YEAR,
                d.OTHER_USD_PER_GPU_MONTH, d.LOCAL_GPU_HOUR_USD),
        tables=("benchmarks", "models", "gpus", "cloud_prices", "report_facts", "claims", "measured"),
        headline=("h100_tco_per_gpu_hour_usd", "gb200_tco_per_gpu_hour_usd", "gb200_breakeven_speedup",
                  "gpt3_175b_fp8_usd_per_million_tokens", "llama3_405b_bf16_usd_per_million_tokens",
                  "llama3_405b_bf16_cost_15t_tokens_usd"),
        figures=("fig-tco-breakeven", "fig-tco-rent-vs-own"),
    ),
    Section(
        name="energy",
        title="Energy: joules per token, household-years and cluster power",
        question="How much electricity does each trained token take at the meter, what is a training run "
                 "in US household-years, what do 100k-GPU clusters draw, and what does it emit?",
        params=(d.H100_IT_W_PER_GPU, d.COLO_PUE, d.HOUSEHOLD_KWH_PER_YEAR, d.GRID_G_CO2_PER_KWH,
                d.GPUS, d.LOAD_FACTOR, d.LOCAL_POWER_W),
        tables=("benchmarks", "models", "gpus", "report_facts", "claims", "household_energy", "published_runs",
                "measured"),
        headline=("meter_w_per_h100", "gpt3_175b_fp8_joules_per_token", "gpt3_175b_bf16_joules_per_token",
                  "llama3_405b_bf16_joules_per_token", "gpt3_175b_fp8_household_years_300b_tokens",
                  "llama3_405b_bf16_household_years_15t_tokens", "h100_cluster_annual_twh",
                  "gb200_cluster_annual_twh", "llama3_405b_bf16_tco2_15t_tokens"),
        figures=("fig-energy-joules-per-token", "fig-energy-household-years", "fig-energy-power-build-up"),
    ),
    Section(
        name="intro",
        title="Introduction",
        question="What is this book, what does each chapter answer, and how do I rerun it?",
        tables=("claims", "report_facts", "training_runs"),
        needs=("cluster", "tco"),
    ),
)


def section_names() -> list[str]:
    return [s.name for s in SECTIONS]


def get_section(name: str) -> Section:
    for section in SECTIONS:
        if section.name == name:
            return section
    raise ParameterError(f"unknown section '{name}'; sections: {', '.join(section_names())}")


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
