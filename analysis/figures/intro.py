"""The introduction's display numbers and tables, from its
:class:`~analysis.chapters.ChapterResults` (``analysis.chapters.intro``)."""

from __future__ import annotations

from analysis.data import CLAIM_STATUSES
from analysis.tables import markdown_table


def prose_numbers(E) -> dict[str, float]:
    """Results rescaled for the summary's sentences (percentages, millions and billions of
    dollars), glued under these names by :func:`analysis.notebook.glue_values`."""
    return {
        "electricity_share_of_capex_pct": E["electricity_share_of_capex_frac"] * 100,
        "cluster_annual_electricity_musd": E["cluster_annual_electricity_usd"] / 1e6,
        "capex_busd": E["capex_usd"] / 1e9,
        "llama3_effective_training_time_pct": E["llama3_effective_training_time_frac"] * 100,
    }


def status_markdown(E) -> str:
    """How many seed claims and how many checked report figures have each status (a status that
    does not apply to report figures shows a dash)."""
    rows = [(s.replace("_", " "), str(int(E[f"claims_{s}_count"])),
             str(int(E[f"facts_{s}_count"])) if f"facts_{s}_count" in E else "—") for s in CLAIM_STATUSES]
    return markdown_table(["Status", "Seed claims", "Report figures"], rows)

ANSWER = ["h100_tco_usd_per_gpu_hour", "gb200_tco_usd_per_gpu_hour", "utilization_pct", "gb200_breakeven_speedup", "llama31_405b_bf16_usd_per_million_tokens", "cluster_facility_mw", "llama3_effective_training_time_frac"]
ANSWER_MORE = "Below: the short version for a 100,000-GPU cluster, then what each chapter answers."
