"""The declared schema of every table in ``data/``: column types, units in column names, ranges,
allowed values and foreign keys, as pandera schemas. :mod:`analysis.data.load` loads and validates.

Each schema factory takes ``ids(table, column=None)``, which returns the key values of another
table, so foreign keys (``source_id`` -> sources.csv, ``gpu_id`` -> gpus.csv, ...) are checked
against the validated data.

The schemas are grouped by domain: :mod:`.columns` (the column helpers and the lazy pandera
proxy ``pa``), :mod:`.reference`, :mod:`.runs`, :mod:`.ledger`, :mod:`.costs` and
:mod:`.reliability`. This module holds the registry (``SCHEMAS``, ``FILES``, ``OPTIONAL``,
``DEPENDS``, ``KEYS``) and re-exports the shared names. pandera is not imported here.
"""

from __future__ import annotations

from analysis.data.schemas.columns import (
    DATE,
    ID,
    UNITS,
    pa,
)
from analysis.data.schemas.costs import (
    _cloud_prices_schema,
    _cost_anchors_schema,
    _distributions_schema,
    _household_energy_schema,
    _maintenance_parts_schema,
    _network_components_schema,
    _owning_cost_anchors_schema,
)
from analysis.data.schemas.energy import _grid_carbon_schema, _system_power_schema
from analysis.data.schemas.ledger import (
    AGREEING_STATUSES,
    CLAIM_STATUSES,
    FACT_STATUSES,
    JUDGED_STATUSES,
    TOLERANCE_WITHOUT_REASON,
    USES,
    _claims_schema,
    _fact_checks_schema,
    _facts_not_checked_schema,
    _report_facts_schema,
    _seed_numbers_schema,
)
from analysis.data.schemas.mlperf import (
    _mlperf_benchmarks_schema,
    _mlperf_convergence_schema,
    _mlperf_training_schema,
)
from analysis.data.schemas.reference import (
    _accelerators_schema,
    _gpus_schema,
    _models_schema,
    _sources_schema,
)
from analysis.data.schemas.reliability import (
    _job_failures_schema,
    _llama3_interruptions_schema,
    _reliability_facts_schema,
)
from analysis.data.schemas.runs import (
    FLOP_CONVENTIONS,
    MEASURED_PRECISIONS,
    MEASURED_REL_TOL,
    MEASURED_WHAT,
    _atlas_benchmarks_schema,
    _backtest_runs_schema,
    _benchmarks_schema,
    _measured_schema,
    _published_runs_schema,
    _training_runs_schema,
)

__all__ = [
    "AGREEING_STATUSES",
    "CLAIM_STATUSES",
    "DATE",
    "DEPENDS",
    "FACT_STATUSES",
    "FILES",
    "FLOP_CONVENTIONS",
    "ID",
    "JUDGED_STATUSES",
    "KEYS",
    "MEASURED_PRECISIONS",
    "MEASURED_REL_TOL",
    "MEASURED_WHAT",
    "OPTIONAL",
    "SCHEMAS",
    "TOLERANCE_WITHOUT_REASON",
    "UNITS",
    "USES",
    "pa",
]

SCHEMAS = {
    "sources": _sources_schema,
    "gpus": _gpus_schema,
    "models": _models_schema,
    "benchmarks": _benchmarks_schema,
    "training_runs": _training_runs_schema,
    "report_facts": _report_facts_schema,
    "claims": _claims_schema,
    "cloud_prices": _cloud_prices_schema,
    "seed_numbers": _seed_numbers_schema,
    "household_energy": _household_energy_schema,
    "published_runs": _published_runs_schema,
    "fact_checks": _fact_checks_schema,
    "llama3_interruptions": _llama3_interruptions_schema,
    "reliability_facts": _reliability_facts_schema,
    "job_failures": _job_failures_schema,
    "distributions": _distributions_schema,
    "measured": _measured_schema,
    "accelerators": _accelerators_schema,
    "atlas_benchmarks": _atlas_benchmarks_schema,
    "network_components": _network_components_schema,
    "backtest_runs": _backtest_runs_schema,
    "cost_anchors": _cost_anchors_schema,
    "grid_carbon": _grid_carbon_schema,
    "system_power": _system_power_schema,
    "owning_cost_anchors": _owning_cost_anchors_schema,
    "maintenance_parts": _maintenance_parts_schema,
    "facts_not_checked": _facts_not_checked_schema,
    "mlperf_benchmarks": _mlperf_benchmarks_schema,
    "mlperf_training": _mlperf_training_schema,
    "mlperf_convergence": _mlperf_convergence_schema,
}
# Where a table lives under data/, when not at <name>.csv; and tables that may be absent (an
# absent optional table reads as empty, with its columns).
FILES = {"measured": "measured/benchmarks_measured.csv"}
OPTIONAL = {"measured"}
# Tables whose validation reads other tables (foreign keys); a section that reads one of these
# depends on the others too, so its cache key must hash them all.
DEPENDS = {"gpus": ("sources",), "models": ("sources",), "training_runs": ("sources", "gpus"),
           "benchmarks": ("sources", "models", "gpus"), "report_facts": ("sources",),
           "claims": ("sources", "report_facts"), "sources": (),
           "cloud_prices": ("sources", "gpus"), "seed_numbers": ("sources",),
           "household_energy": ("sources",), "published_runs": ("sources", "models", "gpus"),
           "fact_checks": ("sources", "report_facts"),
           "llama3_interruptions": ("sources",), "reliability_facts": ("sources",), "job_failures": ("sources",),
           "distributions": ("sources",), "measured": ("sources", "gpus"),
           "accelerators": ("sources", "gpus"), "atlas_benchmarks": ("sources", "models", "gpus"),
           "network_components": ("sources",), "backtest_runs": ("sources", "gpus", "grid_carbon"), "cost_anchors": ("sources",),
           "grid_carbon": ("sources",), "system_power": ("sources", "gpus"),
           "owning_cost_anchors": ("sources", "gpus"), "maintenance_parts": ("sources", "llama3_interruptions"),
           "facts_not_checked": ("sources", "report_facts"),
           "mlperf_benchmarks": ("sources", "models"), "mlperf_training": ("sources", "gpus", "mlperf_benchmarks"),
           "mlperf_convergence": ("sources", "mlperf_benchmarks")}
KEYS = {"sources": "source_id", "gpus": "gpu_id", "models": "model_id",
        "training_runs": "run_id", "report_facts": "fact_id", "claims": "claim_id",
        "cloud_prices": "snapshot_id", "seed_numbers": "number_id", "published_runs": "run_id",
        "llama3_interruptions": "component", "reliability_facts": "item_id", "job_failures": "row_id",
        "distributions": "param", "accelerators": "gpu_id", "atlas_benchmarks": "row_id",
        "network_components": "component_id", "backtest_runs": "run_id", "cost_anchors": "anchor_id",
        "grid_carbon": "grid_id", "system_power": "gpu_id",
        "owning_cost_anchors": "anchor_id", "maintenance_parts": "component", "facts_not_checked": "fact_id",
        "mlperf_benchmarks": "benchmark", "mlperf_training": "result_id", "mlperf_convergence": "rcp_id"}
