"""Energy chapter: joules per trained token at the meter, training runs in US household-years,
the power of 100k-GPU clusters, and carbon (SemiAnalysis, 2025, facts A25-A43).

The rated meter power per GPU is the book's one IT power per system (``h100_it_w_per_gpu``,
``gb200_it_w_per_gpu``) times its one ``pue``; every energy figure (joules per token,
household-years, carbon) is at the average draw, that rating times the measured ``load_factor``
(the book's one energy basis). SemiAnalysis prints neither power nor overhead; its energy figures,
multiplied back by the throughput each rests on, imply one meter power per H100 (A31), about the
book's *rated* power drawn around the clock, and the overhead that implies over
``h100_it_w_per_gpu`` is recorded beside the ``pue`` parameter as a check, with how far the book's
joules per token land from SA's. The cluster's electricity bill, as the cluster chapter states it
and as the opex chapter prices one GPU's power, is reconciled here (:func:`_bills`). Llama 3.1 405B in BF16 uses the
book's one reference row (:func:`analysis.benchmarks.reference_row`), as the TCO chapter and the
uncertainty band do; the 100k cluster's power and energy come from the cluster chapter and the GB200 / H100
throughput ratio from the benchmarks chapter.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from analysis import benchmarks, cluster, energy, hardware
from analysis.chapters import ChapterResults, gpu_cost, read_bands
from analysis.data.load import fact, framing, load_table, row
from analysis.data.provenance import aside
from analysis.measure.report import joules_per_tflop, load_measured, measured_results
from analysis.units import HOURS_PER_MONTH, HOURS_PER_YEAR, JOULES_PER_KWH, SECONDS_PER_HOUR, TERA

SA = "SemiAnalysis"
# The benchmark row behind each of SA's H100 energy figures: model, precision, GPUs, date.
SA_ROWS = {
    "gpt3_175b_fp8": ("gpt3_175b", "fp8", 128, "2024-12"),
    "gpt3_175b_bf16": ("gpt3_175b", "bf16", 128, "2024-12"),
    "llama31_70b_fp8_64_gpus": ("llama31_70b", "fp8", 64, None),
    "llama31_70b_fp8_2048_gpus": ("llama31_70b", "fp8", 2048, None),
}
BANDS = ("llama31_405b_bf16_j_per_token", "llama31_405b_bf16_household_years_15t_tokens")


def h100_meter_w_per_gpu(P):
    """Rated power per H100 at the meter [W]: ``h100_it_w_per_gpu`` x ``pue`` (capacity). Values may be arrays."""
    return energy.meter_w_per_gpu(P.h100_it_w_per_gpu, P.pue)


def h100_average_meter_w_per_gpu(P):
    """Average power per H100 at the meter while training [W]: the rated power x ``load_factor``,
    the book's energy basis. Values may be arrays."""
    return energy.average_meter_w_per_gpu(P.h100_it_w_per_gpu, P.pue, P.load_factor)


def h100_j_per_token(P, tokens_per_s):
    """Joules at the meter per token an H100 trains at ``tokens_per_s`` per GPU [J], at the average
    draw; the chapter's joules per token and the uncertainty band's are this function."""
    return energy.joules_per_token(h100_average_meter_w_per_gpu(P), tokens_per_s)


def household_years(P, tokens, j_per_token):
    """Household-years of electricity [household-years] in ``tokens`` at ``j_per_token``, on the
    ``household_kwh_per_year`` basis."""
    return energy.household_years(tokens, j_per_token, P.household_kwh_per_year)


def sa_j_per_token() -> dict[str, float]:
    """SA's printed J/token for each H100 figure; its Llama 3 70B figures are household-years,
    read back into J/token on SA's own household basis (A26)."""
    tokens, kwh = framing("A35_train_tokens"), fact("A26_household_kwh")
    return {
        "gpt3_175b_fp8": fact("A28_gpt3_fp8_j_per_token"),
        "gpt3_175b_bf16": fact("A28_gpt3_bf16_j_per_token"),
        "llama31_405b_bf16": fact("A37_405b_j_per_token"),
        "llama31_70b_fp8_64_gpus": energy.joules_per_token_from_household_years(fact("A43_households_64"), tokens, kwh),
        "llama31_70b_fp8_2048_gpus": energy.joules_per_token_from_household_years(
            fact("A43_households_2048"), tokens, kwh),
    }


def sa_rows_tokens_per_s(bench: pd.DataFrame) -> dict[str, float]:
    """Tokens/s/GPU of the row behind each of SA's figures (405B BF16: the book's reference row)."""
    out = {k: energy.benchmark_row(bench, m, "h100_sxm", p, g, SA, d)["tokens_per_s_per_gpu"]
           for k, (m, p, g, d) in SA_ROWS.items()}
    out["llama31_405b_bf16"] = benchmarks.reference_tokens_per_s()
    return out


def _meter_power(P, res: ChapterResults, bench: pd.DataFrame) -> None:
    # the chips' board powers first, from the datasheets (data/gpus.csv), before any report number is read
    h100_chip = res.add("h100_chip_w", hardware.tdp_w("h100_sxm"), "W", "H100 SXM board power (TDP)")
    gb200_chip = res.add("gb200_chip_w", hardware.tdp_w("gb200_nvl72"), "W", "GB200 GPU board power (TDP)")
    res.add("h100_it_w_per_gpu", P.h100_it_w_per_gpu, "W per GPU", "All-in critical IT power per H100 (parameter)")
    res.add("gb200_it_w_per_gpu", P.gb200_it_w_per_gpu, "W per GPU", "All-in critical IT power per GB200 GPU (parameter)")
    res.add("pue", P.pue, "ratio", "Facility power / critical IT power (parameter)")
    res.add("load_factor_frac", P.load_factor, "fraction",
            "Average draw while training, as a share of the rated power (parameter): the energy basis")
    h100 = res.add("h100_meter_w_per_gpu", h100_meter_w_per_gpu(P), "W per GPU",
                   "Rated power per H100 at the meter (IT x PUE)")
    gb200 = res.add("gb200_meter_w_per_gpu", energy.meter_w_per_gpu(P.gb200_it_w_per_gpu, P.pue), "W per GPU",
                    "Rated power per GB200 GPU at the meter (IT x PUE)")
    h100_average = res.add("h100_average_meter_w_per_gpu", h100_average_meter_w_per_gpu(P), "W per GPU",
                           "Average power per H100 at the meter while training (IT x PUE x load factor)")
    res.add("gb200_average_meter_w_per_gpu", energy.average_meter_w_per_gpu(P.gb200_it_w_per_gpu, P.pue, P.load_factor),
            "W per GPU", "Average power per GB200 GPU at the meter while training (IT x PUE x load factor)")
    res.add("h100_overhead_w_per_gpu", h100 - P.h100_it_w_per_gpu, "W per GPU", "Facility overhead per H100")
    res.add("h100_rest_of_it_w_per_gpu", P.h100_it_w_per_gpu - h100_chip, "W per GPU",
            "H100 IT power beyond the chip: host, network, storage")
    res.add("gb200_rest_of_it_w_per_gpu", P.gb200_it_w_per_gpu - gb200_chip, "W per GPU",
            "GB200 IT power beyond the chip: Grace CPU, NVLink switches, network, storage")
    res.add("gb200_vs_h100_meter_ratio", gb200 / h100, "ratio", "GB200 / H100 power per GPU at the meter")

    with aside():  # SA's own figures read back into watts, beside the book's: they feed nothing after
        sa, tokens_per_s = sa_j_per_token(), sa_rows_tokens_per_s(bench)
        implied = {k: energy.meter_w_from_joules_per_token(j, tokens_per_s[k]) for k, j in sa.items()}
        sa_w = res.add("sa_implied_h100_meter_w_per_gpu", np.mean(list(implied.values())), "W per GPU",
                       "Meter power per H100 implied by SA's energy figures (mean of five)")
        res.add("sa_implied_h100_meter_low_w_per_gpu", min(implied.values()), "W per GPU",
                "... the lowest of SA's five figures")
        res.add("sa_implied_h100_meter_high_w_per_gpu", max(implied.values()), "W per GPU",
                "... the highest of SA's five figures")
        res.add("sa_energy_figures_count", len(implied), "count", "SA's H100 energy figures")
        res.add("sa_implied_pue_ratio", energy.implied_pue(sa_w, P.h100_it_w_per_gpu), "ratio",
                "Overhead SA's meter power implies over h100_it_w_per_gpu, drawn at the rating all the time")
        res.add("sa_implied_draw_vs_rated_ratio", sa_w / h100, "ratio",
                "SA's implied meter power over the book's rated meter power per H100: the draw SA's figures assume")
        res.add("sa_implied_pue_over_c01_ratio", energy.implied_pue(sa_w, fact("C01_w_per_gpu")), "ratio",
                f"Overhead SA's meter power implies over the {fact('C01_w_per_gpu'):,.0f} W server-only IT (C01)")
        # W = J/s: at the same throughput, J/token differ from SA's exactly as the meter powers do
        res.add("j_per_token_vs_sa_pct", (h100_average / sa_w - 1) * 100, "percent",
                "This chapter's J/token (average draw) against SA's figures (mean over the five)")
        res.add("j_per_token_at_rated_draw_vs_sa_pct", (h100 / sa_w - 1) * 100, "percent",
                "The same at the rated draw all the time, SA's basis (mean over the five)")
        res.add("h100_it_at_colo_pue_w_per_gpu", sa_w / fact("C05_pue_enterprise_colo"), "W per GPU",
                "IT watts per H100 SA's meter power implies at an enterprise-colocation PUE (C05, low end)")
    with aside():  # SA's light-bulb aside (A27): a watt is a joule each second
        bulb_w = fact("A27_bulb_w")
        res.add("bulb_j_per_s", bulb_w, "J per second", "A 60 W bulb, joules each second (A27)")
        res.add("bulb_kj_per_hour", bulb_w * SECONDS_PER_HOUR / 1e3, "kJ per hour", "A 60 W bulb, kilojoules an hour")
    household = res.add("household_w", energy.household_w(P.household_kwh_per_year), "W",
                        "Average draw of one household")
    res.add("h100_meter_in_households_ratio", h100_average / household, "ratio",
            "Households whose average draw equals one H100's average share at the meter")
    res.add("household_j", energy.household_j_per_year(P.household_kwh_per_year), "J per household-year",
            "One household-year of electricity in joules")


def _sa_worked_example(P, res: ChapterResults) -> None:
    """SemiAnalysis's 2024 worked example (C03, C04): 20,480 H100s at the book's IT power per H100,
    with the example's own utilization, PUE and tariff, the only ones SA states."""
    gpus, utilization, pue, tariff = framing("C03_gpus"), fact("C04_utilization"), fact("C04_pue"), fact("C04_tariff")
    it_w = cluster.critical_it_w(gpus, P.h100_it_w_per_gpu)
    facility_w = cluster.facility_w(it_w, pue)
    mwh = cluster.annual_energy_mwh(facility_w, utilization)
    res.add("sa_example_gpus_count", gpus, "count", "GPUs in SA's worked example (C03)")
    res.add("sa_example_utilization_frac", utilization, "fraction", "Utilization in SA's worked example (C04)")
    res.add("sa_example_pue", pue, "ratio", "PUE in SA's worked example (C04)")
    res.add("sa_example_tariff_usd_per_kwh", tariff, "USD per kWh", "Tariff in SA's worked example (C04)")
    res.add("sa_example_it_mw", it_w / 1e6, "MW", "Critical IT of SA's worked example")
    res.add("sa_example_grid_mw", facility_w * utilization / 1e6, "MW",
            "Average power from the grid in SA's worked example (IT x PUE x utilization)")
    res.add("sa_example_annual_mwh", mwh, "MWh per year", "Energy per year of SA's worked example")
    res.add("sa_example_annual_electricity_usd", cluster.annual_electricity_usd(mwh, tariff), "USD per year",
            "Electricity bill per year of SA's worked example")


def _joules_per_token(P, res: ChapterResults, bench: pd.DataFrame, throughput_ratio) -> pd.DataFrame:
    """Joules per token of SA's rows, the reference run and GB200's; ``throughput_ratio`` is the
    benchmarks chapter's GB200 / H100 Llama 3.1 405B BF16 ratio (a Quantity, copied as it is)."""
    h100, gb200 = res["h100_average_meter_w_per_gpu"], res["gb200_average_meter_w_per_gpu"]
    # the reference row (NVIDIA's) first, then the rows of SemiAnalysis's own figures
    res.add("llama31_405b_bf16_j_per_token", h100_j_per_token(P, benchmarks.reference_tokens_per_s()),
            "J per token", "Llama 3.1 405B, BF16, 2,304 H100 (NVIDIA DGXC v25.02, the reference row)")
    tokens_per_s = sa_rows_tokens_per_s(bench)
    labels = {"gpt3_175b_fp8": "GPT-3 175B, FP8, 128 H100 (SemiAnalysis, Dec 2024)",
              "gpt3_175b_bf16": "GPT-3 175B, BF16, 128 H100 (SemiAnalysis, Dec 2024)",
              "llama31_70b_fp8_64_gpus": "Llama 3.1 70B, FP8, 64 H100 (SemiAnalysis)",
              "llama31_70b_fp8_2048_gpus": "Llama 3.1 70B, FP8, 2,048 H100 (SemiAnalysis)"}
    for key, label in labels.items():
        res.add(f"{key}_j_per_token", h100_j_per_token(P, tokens_per_s[key]), "J per token", label)
    fp8 = benchmarks.reference_row(bench, "fp8")
    res.add("llama31_405b_fp8_j_per_token", energy.joules_per_token(h100, fp8["tokens_per_s_per_gpu"]), "J per token",
            "Llama 3.1 405B, FP8, 2,304 H100 (NVIDIA DGXC v25.02)")
    increase = res["llama31_70b_fp8_2048_gpus_j_per_token"] / res["llama31_70b_fp8_64_gpus_j_per_token"] - 1
    res.add("llama31_70b_fp8_energy_increase_frac", increase, "fraction",
            "Llama 3.1 70B FP8: extra J/token at 2,048 GPUs over 64")
    with aside():
        res.add("report_llama31_70b_fp8_energy_increase_pct", fact("A43_energy_increase") * 100, "percent",
                "SA's stated extra energy per token at 2,048 GPUs over 64 (A43)")
    res.add("reference_run_gpus", benchmarks.reference_row(bench)["gpus"], "GPUs", "H100s in the 405B reference run")
    for precision in ("bf16", "fp8"):
        gb = benchmarks.best_rate_row(bench, "llama31_405b", precision, "gb200_nvl72")
        res.add(f"gb200_llama31_405b_{precision}_tokens_per_s_per_gpu", gb["tokens_per_s_per_gpu"],
                "tokens per second per GPU", f"Llama 3.1 405B {precision.upper()}, GB200 NVL72, "
                f"{gb['gpus']:,} GPUs ({gb['software']})")
        res.add(f"gb200_llama31_405b_{precision}_j_per_token", energy.joules_per_token(gb200, gb["tokens_per_s_per_gpu"]),
                "J per token", f"Llama 3.1 405B, {precision.upper()}, {gb['gpus']:,} GB200 NVL72 ({gb['software']})")
    throughput_ratio = res.add("gb200_vs_h100_llama31_405b_bf16_throughput_ratio", throughput_ratio.value,
                               throughput_ratio.unit, throughput_ratio.label)
    ratio = res.add("gb200_vs_h100_llama31_405b_bf16_energy_ratio", res["gb200_vs_h100_meter_ratio"] / throughput_ratio,
                    "ratio", "GB200 / H100 J per token, Llama 3.1 405B BF16 (meter power / throughput ratio)")
    res.add("gb200_llama31_405b_bf16_energy_saving_pct", (1 - ratio) * 100, "percent",
            "Energy per token GB200 saves against H100, Llama 3.1 405B BF16")

    gpt3 = benchmarks.pick(bench, model_id="gpt3_175b", gpu_id="h100_sxm", precision="bf16", gpus=128,
                           publisher=SA, date="2024-12")
    ref = benchmarks.reference_row(bench)
    models = load_table("models").set_index("model_id")
    res.add("llama31_405b_vs_gpt3_175b_bf16_energy_ratio",
            res["llama31_405b_bf16_j_per_token"] / res["gpt3_175b_bf16_j_per_token"], "ratio",
            "Llama 3.1 405B / GPT-3 175B J per token, BF16")
    res.add("llama31_405b_vs_gpt3_175b_param_ratio",
            models.loc["llama31_405b", "total_params"] / models.loc["gpt3_175b", "total_params"], "ratio",
            "Llama 3.1 405B / GPT-3 175B parameters")
    res.add("llama31_405b_vs_gpt3_175b_flop_per_token_ratio", ref["flops_per_token"] / gpt3["flops_per_token"],
            "ratio", "Llama 3.1 405B / GPT-3 175B model FLOP per token")
    with aside():  # SA's 405B figure over the book's throughput ratio: GPT-3's J/token in SA's comparison (A37)
        res.add("gpt3_175b_bf16_j_per_token_from_a37_405b", fact("A37_405b_j_per_token")
                / res["llama31_405b_vs_gpt3_175b_bf16_energy_ratio"], "J per token",
                "GPT-3 175B BF16 J/token that SA's 8.8 J for Llama 3.1 405B implies at the book's throughput ratio")
    res.add("llama31_405b_seq_len_tokens", ref["seq_len"], "tokens", "Sequence length of the 405B reference row")
    res.add("gpt3_175b_seq_len_tokens", gpt3["seq_len"], "tokens", "Sequence length of SA's GPT-3 rows")
    for key, (_, _, gpus, _) in (("small", SA_ROWS["llama31_70b_fp8_64_gpus"]),
                                 ("large", SA_ROWS["llama31_70b_fp8_2048_gpus"])):
        res.add(f"llama31_70b_fp8_{key}_cluster_gpus", gpus, "GPUs", f"GPUs of SA's {key} Llama 3.1 70B run")

    table = energy.add_joules_per_token(bench, {"h100_sxm": h100, "gb200_nvl72": gb200})
    table["model_name"] = table["model_id"].map(models["name"])
    res.add("benchmark_rows_with_energy_count", len(table), "rows", "Benchmark rows with a J/token")
    return table


def _households(P, res: ChapterResults, runs: list[tuple[str, str, float, float, str | None]]) -> pd.DataFrame:
    """Household ranges from ``data/household_energy.csv`` and, for each run ``(key, label, tokens,
    J/token, SA's fact id)``, household-years on the default basis and over the ranges."""
    households = energy.with_kwh_per_year(load_table("household_energy"))
    us_low, us_high = energy.household_kwh_range(households, "us_average")
    state_low, state_high = energy.household_kwh_range(households, "state")
    res.add("household_us_low_kwh_per_year", us_low, "kWh per year", "Lowest US-average household use in data/")
    res.add("household_us_high_kwh_per_year", us_high, "kWh per year", "Highest US-average household use in data/")
    res.add("household_state_low_kwh_per_year", state_low, "kWh per year", "Lowest state-average household use")
    res.add("household_state_high_kwh_per_year", state_high, "kWh per year", "Highest state-average household use")
    res.add("household_kwh_per_year", P.household_kwh_per_year, "kWh per year", "Household-year basis (parameter)")
    res.add("household_state_spread_ratio", state_high / state_low, "ratio", "Highest / lowest state household use")
    rows = []
    for key, label, tokens, j, fact_id in runs:
        ranges = {"_us_low": us_high, "_us_high": us_low, "_state_low": state_high,
                  "_state_high": state_low}  # more kWh per household, fewer years
        values = {"": household_years(P, tokens, j),
                  **{suffix: energy.household_years(tokens, j, kwh) for suffix, kwh in ranges.items()}}
        for suffix, value in values.items():
            res.add(f"{key}{suffix}", value, "household-years", label + {
                    "": "", "_us_low": ", highest US-average household", "_us_high": ", lowest US-average household",
                    "_state_low": ", highest-use state", "_state_high": ", lowest-use state"}[suffix])
        rows.append({"key": key, "label": label, "book": values[""], "us_low": values["_us_low"],
                     "us_high": values["_us_high"], "state_low": values["_state_low"],
                     "state_high": values["_state_high"], "sa": fact(fact_id) if fact_id else np.nan})
    res.add_table("households", households)
    return pd.DataFrame(rows)


def _cluster_scale(P, res: ChapterResults, cluster: ChapterResults) -> None:
    """The 100k cluster as the cluster chapter computed it, and the same count of GB200 GPUs: same
    PUE and load, so power and energy scale with the IT watts per GPU."""
    for key in ("cluster_gpus_count", "cluster_it_w_per_gpu", "cluster_it_mw", "cluster_facility_mw",
                "cluster_average_facility_mw", "cluster_annual_energy_twh", "cluster_annual_electricity_usd"):
        q = cluster.quantities[key]
        res.add(key, q.value, q.unit, q.label)
    scale = P.gb200_it_w_per_gpu / cluster["cluster_it_w_per_gpu"]
    res.add("gb200_cluster_it_mw", cluster["cluster_it_mw"] * scale, "MW", "GB200 cluster of the same size, critical IT")
    res.add("gb200_cluster_facility_mw", cluster["cluster_facility_mw"] * scale, "MW",
            "GB200 cluster of the same size, at the meter")
    res.add("gb200_cluster_annual_energy_twh", cluster["cluster_annual_energy_twh"] * scale, "TWh per year",
            "GB200 cluster of the same size, energy per year")
    for name in ("cluster", "gb200_cluster"):
        kwh = res[f"{name}_annual_energy_twh"] * 1e9
        res.add(f"{name}_households_count", kwh / P.household_kwh_per_year, "households",
                f"Households with the same yearly use as the {name.replace('_', ' ')}")


def _bills(res: ChapterResults, cluster: ChapterResults, opex: ChapterResults) -> None:
    """The cluster's yearly electricity bill two ways: as the cluster chapter states it (power at
    the meter x load factor x a year x tariff) and as the opex chapter prices one H100's power a
    month, times the months of a year and the cluster's GPUs. Both are at the average draw, so they
    agree; the rated draw all year, SemiAnalysis's basis, bills 1 / load factor as much."""
    month = res.add("opex_h100_power_usd_per_gpu_month", opex["h100_power_usd_per_gpu_month"], "USD per GPU-month",
                    "H100 electricity per GPU-month as the opex chapter prices it (average draw)")
    from_opex = res.add("cluster_annual_electricity_from_opex_usd",
                        month * HOURS_PER_YEAR / HOURS_PER_MONTH * res["cluster_gpus_count"], "USD per year",
                        "The cluster's yearly bill from the opex chapter's power item: x 12 months x its GPUs")
    bill = res["cluster_annual_electricity_usd"]
    q = cluster.quantities["tariff_usd_per_kwh"]
    res.add("tariff_usd_per_kwh", q.value, q.unit, q.label)
    # to the cent: the two chains multiply the same numbers in another order
    res.add("cluster_electricity_opex_minus_cluster_usd", round(from_opex - bill, 2), "USD per year",
            "The opex chapter's bill for the cluster less the cluster chapter's, to the cent")
    res.add("cluster_annual_electricity_at_rated_draw_usd", bill / cluster["load_factor_frac"], "USD per year",
            "The cluster's yearly bill at the rated draw all year (SemiAnalysis's basis)")


def _carbon(P, res: ChapterResults, bench: pd.DataFrame) -> None:
    card = row("published_runs", "llama31_405b_card")
    tokens = framing("A35_train_tokens")
    run_kwh = energy.training_energy_j(tokens, res["llama31_405b_bf16_j_per_token"]) / JOULES_PER_KWH
    res.add("grid_g_co2_per_kwh", P.grid_g_co2_per_kwh, "g CO2 per kWh", "Grid carbon intensity (parameter)")
    res.add("llama31_405b_bf16_energy_15t_tokens_gwh", run_kwh / 1e6, "GWh",
            "Llama 3.1 405B BF16, 15T tokens, one clean pass at NVIDIA's benchmark speed, at the meter")
    res.add("llama31_405b_bf16_emissions_15t_tokens_tco2", energy.tonnes_co2(run_kwh, P.grid_g_co2_per_kwh), "t CO2",
            "Llama 3.1 405B BF16, 15T tokens, location-based")
    card_kwh = energy.energy_kwh_from_gpu_hours(card["gpu_hours"], card["power_w_per_gpu"])
    res.add("llama31_405b_card_energy_gwh", card_kwh / 1e6, "GWh", "Llama 3.1 405B as published: GPU-hours x 700 W")
    res.add("llama31_405b_card_emissions_at_grid_tco2", energy.tonnes_co2(card_kwh, P.grid_g_co2_per_kwh), "t CO2",
            "Llama 3.1 405B: model card energy at this chapter's grid intensity")
    res.add("llama31_405b_card_implied_grid_g_co2_per_kwh", energy.implied_g_co2_per_kwh(card["co2_location_t"], card_kwh),
            "g CO2 per kWh", "Grid intensity implied by the model card")
    hours = res.add("llama31_405b_bf16_15t_tokens_gpu_hours",
                    energy.gpu_hours_for_tokens(card["train_tokens"], benchmarks.reference_tokens_per_s()),
                    "GPU-hours", "GPU-hours for 15T tokens at the reference throughput")
    meter_kwh = energy.energy_kwh_from_gpu_hours(card["gpu_hours"], res["h100_average_meter_w_per_gpu"])
    res.add("llama31_405b_card_emissions_at_meter_tco2", energy.tonnes_co2(meter_kwh, P.grid_g_co2_per_kwh), "t CO2",
            "Llama 3.1 405B: published GPU-hours at this chapter's average meter power and grid intensity")
    res.add("llama31_405b_card_gpu_hours", card["gpu_hours"], "GPU-hours", "Llama 3.1 405B model card: H100-hours")
    res.add("llama31_405b_card_w_per_gpu", card["power_w_per_gpu"], "W per GPU", "Llama 3.1 model card: power per GPU")
    res.add("llama31_405b_card_location_tco2", card["co2_location_t"], "t CO2", "Model card, location-based")
    res.add("llama31_405b_card_market_tco2", card["co2_market_t"], "t CO2", "Model card, market-based")
    res.add("llama31_405b_card_vs_benchmark_gpu_hours_ratio", card["gpu_hours"] / hours, "ratio",
            "Model card GPU-hours / GPU-hours of one clean pass at the reference throughput")
    res.add("h100_meter_vs_card_power_ratio", res["h100_average_meter_w_per_gpu"] / card["power_w_per_gpu"], "ratio",
            "This chapter's average meter power per H100 / the model card's 700 W")
    ref = benchmarks.reference_row(bench)
    res.add("llama31_405b_train_flop", ref["flops_per_token"] * card["train_tokens"], "FLOP",
            "Llama 3.1 405B's pre-training compute: the model card's tokens x 6N + 12Lhs per token")
    with aside():
        res.add("meta_llama3_pretraining_mfu_pct", fact("A33_meta_bf16_mfu") * 100, "percent",
                "Meta's 405B pre-training BF16 MFU (A33)")
    res.add("llama31_405b_bf16_reference_mfu_pct", benchmarks.reference_row(bench)["mfu"] * 100, "percent",
            "MFU of the 405B BF16 reference row")


def _measured(P, res: ChapterResults, bench: pd.DataFrame) -> None:
    """The reader's own measurement (``python -m analysis measure``) at ``local_power_w``."""
    measured = load_measured()
    for key, (value, unit, label) in measured_results(measured, power_w=P.local_power_w).items():
        res.add(key, value, unit, label)
    if "measured_joules_per_tflop" in res:
        ref = benchmarks.reference_row(bench)
        res.add("h100_llama31_405b_bf16_j_per_tflop", joules_per_tflop(
                res["h100_average_meter_w_per_gpu"], benchmarks.reference_tokens_per_s() * ref["flops_per_token"] / TERA),
                "J per TFLOP", "H100 training Llama 3.1 405B BF16 (reference throughput), at this chapter's average meter power")
        res.add("measured_vs_h100_j_per_tflop_ratio",
                res["measured_joules_per_tflop"] / res["h100_llama31_405b_bf16_j_per_tflop"], "ratio",
                "Energy per model FLOP of the measured device / an H100's")
    res.add_table("measured", measured)


def compute(P, upstream) -> ChapterResults:
    """Every quantity and table of the energy chapter at parameters ``P``; ``upstream`` holds the
    cluster and benchmarks chapters' results."""
    res = ChapterResults("energy")
    gpu_cost.name_systems(res)  # its h100_* and gb200_* results
    res.name("reference_model", benchmarks.REFERENCE_RUN["model_id"])
    bench = benchmarks.load_benchmarks()
    gpt3_tokens, llama_tokens = framing("A23_train_tokens"), framing("A35_train_tokens")
    res.add("gpt3_175b_train_billion_tokens", gpt3_tokens / 1e9, "billion tokens", "GPT-3 175B training tokens (A23)")
    res.add("llama31_405b_train_trillion_tokens", llama_tokens / 1e12, "trillion tokens",
            "Llama 3 405B pre-training tokens SA uses (A35)")
    _meter_power(P, res, bench)
    with aside():  # SemiAnalysis's 2024 worked example runs on its own inputs and feeds nothing after
        _sa_worked_example(P, res)
    ratio_key = "gb200_vs_h100_llama31_405b_bf16_throughput_ratio"
    res.add_table("joules_per_token", _joules_per_token(P, res, bench, upstream["benchmarks"].quantities[ratio_key]))

    kwh = P.household_kwh_per_year
    for key, name in (("gpt3_175b_fp8", "GPT-3 175B FP8"), ("llama31_405b_bf16", "Llama 3.1 405B BF16")):
        res.add(f"{key}_tokens_per_household_year", energy.tokens_per_household_year(res[f"{key}_j_per_token"], kwh),
                "tokens per household-year", f"{name} tokens one household-year of electricity trains")
    res.add("gpt3_175b_fp8_billion_tokens_per_household_year", res["gpt3_175b_fp8_tokens_per_household_year"] / 1e9,
            "billion tokens per household-year", "GPT-3 175B FP8 tokens per household-year")
    gpt3, llama = f"{gpt3_tokens / 1e9:,.0f}B tokens", f"{llama_tokens / 1e12:,.0f}T tokens"
    runs = [  # (results key, label, tokens, J/token, SA's figure)
        ("gpt3_175b_fp8_household_years_300b_tokens", f"GPT-3 175B, {gpt3}, FP8", gpt3_tokens,
         res["gpt3_175b_fp8_j_per_token"], "A30_gpt3_fp8_household_years"),
        ("gpt3_175b_bf16_household_years_300b_tokens", f"GPT-3 175B, {gpt3}, BF16", gpt3_tokens,
         res["gpt3_175b_bf16_j_per_token"], "A30_gpt3_bf16_household_years"),
        ("llama31_70b_fp8_64_gpus_household_years_15t_tokens", f"Llama 3.1 70B, {llama}, FP8, 64 GPUs", llama_tokens,
         res["llama31_70b_fp8_64_gpus_j_per_token"], "A43_households_64"),
        ("llama31_70b_fp8_2048_gpus_household_years_15t_tokens", f"Llama 3.1 70B, {llama}, FP8, 2,048 GPUs",
         llama_tokens, res["llama31_70b_fp8_2048_gpus_j_per_token"], "A43_households_2048"),
        ("llama31_405b_bf16_household_years_15t_tokens",
         f"Llama 3.1 405B, {llama}, BF16, one clean pass at NVIDIA's benchmark speed", llama_tokens,
         res["llama31_405b_bf16_j_per_token"], "A38_405b_15t_household_years"),
        ("gb200_llama31_405b_bf16_household_years_15t_tokens", f"Llama 3.1 405B, {llama}, BF16, GB200 (NVIDIA)",
         llama_tokens, res["gb200_llama31_405b_bf16_j_per_token"], None),
    ]
    res.add_table("household_years", _households(P, res, runs))
    _cluster_scale(P, res, upstream["cluster"])
    _bills(res, upstream["cluster"], upstream["opex"])
    _carbon(P, res, bench)
    res.add_table("bands", read_bands(upstream["uncertainty"], BANDS))
    q = upstream["uncertainty"].quantities["monte_carlo_draws_count"]
    res.add("monte_carlo_draws_count", q.value, q.unit, q.label)
    _measured(P, res, bench)
    return res
