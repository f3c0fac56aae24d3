"""Scenarios chapter: the headline results of every shipped scenario file
(``data/scenarios/*.yaml``), side by side.

Each scenario is evaluated by :func:`analysis.chapters.compare.compare`, the point model the uncertainty
bands are centred on, so a scenario's numbers are the chapters' numbers at its parameters. Results
are recorded as ``<scenario file stem>__<output key>`` (``cheap_power_texas__h100_tco_usd_per_gpu_hour``),
in the output's own unit.
"""

from __future__ import annotations

import pandas as pd

from analysis.chapters import ChapterResults, gpu_cost
from analysis.chapters import compare as scenarios


def scenario_key(scenario: scenarios.Scenario, output: str) -> str:
    """The result key of one output of one scenario: file stem (dashes as underscores), two
    underscores, output key."""
    return f"{scenario.path.stem.replace('-', '_')}__{output}"


def files_frame(shipped: list[scenarios.Scenario]) -> pd.DataFrame:
    """One row per scenario file: name, file name and why."""
    return pd.DataFrame({"scenario": [s.name for s in shipped], "file": [s.path.name for s in shipped],
                         "description": [s.description for s in shipped]})


def changes_frame(shipped: list[scenarios.Scenario]) -> pd.DataFrame:
    """One row per parameter a scenario changes (scenario, parameter, value); a scenario that
    changes nothing has no row."""
    rows = [{"scenario": s.name, "parameter": name, "value": value}
            for s in shipped for name, value in s.overrides.items()]
    return pd.DataFrame(rows, columns=["scenario", "parameter", "value"])


def compute(P, upstream) -> ChapterResults:
    res = ChapterResults("scenarios")
    gpu_cost.name_systems(res)
    shipped = scenarios.shipped()
    table = scenarios.compare(shipped)
    res.add("scenarios_shipped_count", len(shipped), "count", "Scenario files shipped with the book")
    for s in shipped:
        for key in table.index:
            res.add(scenario_key(s, key), table.loc[key, s.name], table.loc[key, "unit"],
                    f"{s.name}: {table.loc[key, 'label']}")
    res.add_table("scenarios", table.reset_index(names="output"))
    res.add_table("files", files_frame(shipped))
    res.add_table("changes", changes_frame(shipped))
    return res
