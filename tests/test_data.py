"""The data layer: every table validates, every row cites a known source, and a bad row is
rejected with its file, line and column."""

import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from analysis.data import load as data
from analysis.data.load import DataError, load_table

TABLES = list(data.SCHEMAS)

# Datasheet headlines that are 2:4-sparse (exactly 2x dense); a registry peak must never equal one.
KNOWN_SPARSE_TFLOPS = {
    ("a100_sxm_80gb", "bf16"): 624, ("a100_sxm_80gb", "tf32"): 312,
    ("h100_sxm", "bf16"): 1979, ("h100_sxm", "fp8"): 3958, ("h100_sxm", "tf32"): 989,
    ("h200_sxm", "bf16"): 1979, ("h200_sxm", "fp8"): 3958, ("h200_sxm", "tf32"): 989,
    ("b200_hgx", "bf16"): 4500, ("b200_hgx", "fp8"): 9000, ("b200_hgx", "fp4"): 18000,
    ("gb200_nvl72", "bf16"): 5000, ("gb200_nvl72", "fp8"): 10000, ("gb200_nvl72", "fp4"): 20000,
    ("gb300_nvl72", "bf16"): 5000, ("gb300_nvl72", "fp8"): 10000,
}


@pytest.mark.parametrize("name", TABLES)
def test_every_table_validates_and_cites_known_sources(name):
    table = load_table(name)
    assert len(table) > 0
    if name != "sources":
        assert set(table["source_id"]) <= set(load_table("sources")["source_id"])


def test_required_gpus_and_models_are_present():
    assert {"a100_sxm_80gb", "h100_sxm", "h200_sxm", "b200_hgx", "gb200_nvl72", "gb300_nvl72"} <= set(load_table("gpus")["gpu_id"])
    assert {"gpt3_175b", "llama31_8b", "llama31_70b", "llama31_405b", "llama4_maverick", "deepseek_v3"} <= set(load_table("models")["model_id"])


def test_peaks_are_dense_never_the_sparse_headline():
    gpus = load_table("gpus").set_index("gpu_id")
    for (gpu_id, dtype), sparse in KNOWN_SPARSE_TFLOPS.items():
        value = gpus.loc[gpu_id, f"{dtype}_dense_tflops"]
        assert value != pytest.approx(sparse, rel=0.005), f"{gpu_id} {dtype} is the sparse figure"


def test_fp8_is_twice_bf16_where_both_exist():
    gpus = load_table("gpus")
    both = gpus[gpus["fp8_dense_tflops"].notna()]
    assert len(both) >= 5
    for g in both.itertuples():
        # AWS prints 1,299 FP8 and 667 BF16 TFLOPS for Trainium2 (1.95x), its own figures
        rel = 0.03 if g.gpu_id == "trainium2" else 0.001
        assert g.fp8_dense_tflops == pytest.approx(2 * g.bf16_dense_tflops, rel=rel), g.gpu_id


def _edit(folder, table, line, column, value):
    """Set one cell of ``folder/table.csv`` (``line`` is the 1-based file line, header = 1)."""
    path = folder / f"{table}.csv"
    frame = pd.read_csv(path, dtype=str, keep_default_na=False)
    frame.loc[line - 2, column] = value
    frame.to_csv(path, index=False)


@pytest.mark.parametrize("column,value,expect", [
    ("source_id", "", "must not be empty"),
    ("source_id", "no_such_source", "is not a source_id in"),
    ("tdp_w", "seven hundred", "is not a decimal number (write it in decimal digits)"),
    ("tdp_w", "-700", "in_range"),
])
def test_bad_row_names_file_line_and_column(data_copy, column, value, expect):
    _edit(data_copy, "gpus", 3, column, value)
    with pytest.raises(DataError) as err:
        load_table("gpus")
    message = str(err.value)
    assert f"{data_copy / 'gpus.csv'}:3" in message
    assert f"column '{column}'" in message
    assert expect in message


def test_missing_column_is_reported(data_copy):
    path = data_copy / "models.csv"
    pd.read_csv(path, dtype=str).drop(columns=["layers"]).to_csv(path, index=False)
    with pytest.raises(DataError, match="layers"):
        load_table("models")


def test_benchmark_row_needs_mfu_or_throughput(data_copy):
    _edit(data_copy, "benchmarks", 2, "mfu_reported", "")
    _edit(data_copy, "benchmarks", 2, "tokens_per_s_per_gpu_reported", "")
    with pytest.raises(DataError, match=r"benchmarks.csv:2: row 1.*mfu_reported or tokens_per_s_per_gpu_reported"):
        load_table("benchmarks")


def test_reproduced_claim_needs_key_and_tolerance(data_copy):
    claims = pd.read_csv(data_copy / "claims.csv", dtype=str, keep_default_na=False)
    line = int(claims.index[claims["status"] == "reproduced_independently"][0]) + 2
    _edit(data_copy, "claims", line, "tolerance_rel", "")
    with pytest.raises(DataError, match="tolerance_rel"):
        load_table("claims")


def test_undeclared_table_is_refused_inside_a_section(monkeypatch):
    monkeypatch.setenv("ANALYSIS_ALLOWED_TABLES", "gpus,sources")
    load_table("gpus")
    with pytest.raises(DataError, match="not declared"):
        load_table("models")


def test_every_claim_s01_to_s22_has_a_status():
    claims = load_table("claims")
    assert list(claims["claim_id"]) == [f"S{i:02d}" for i in range(1, 23)]
    assert claims["status"].isin(data.CLAIM_STATUSES).all()
    cluster_claims = claims[claims["claim_id"].isin([f"S{i}" for i in range(17, 23)])]
    assert (cluster_claims["status"] != "pending").all()


def test_importing_the_data_layer_does_not_import_pandera():
    """pandera is imported when a schema is first built, not when analysis.data.load or analysis.data.schemas
    is imported: most processes read validated tables from the disk cache and never validate."""
    code = "import analysis.data.load, analysis.data.schemas, sys; assert 'pandera' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], cwd=data.REPO_ROOT, check=True)


def test_the_table_cache_key_hashes_every_module_of_the_schemas_package(monkeypatch):
    from analysis.data import cache

    modules = sorted((data.REPO_ROOT / "analysis" / "data" / "schemas").glob("*.py"))
    assert {m.name for m in modules} >= {"__init__.py", "columns.py", "ledger.py"}
    inputs = data._table_inputs("gpus", str(data.DATA_DIR))
    assert {f"analysis/data/schemas/{m.name}" for m in modules} <= set(inputs["code"])
    edited = modules[-1]  # a schema module gpus' schema does not live in: the key changes all the same
    original = Path.read_bytes
    monkeypatch.setattr(Path, "read_bytes", lambda self: original(self) + (b"#" if self == edited else b""))
    data._validating_code.cache_clear()
    try:
        assert cache.key_of(data._table_inputs("gpus", str(data.DATA_DIR))) != cache.key_of(inputs)
    finally:
        monkeypatch.undo()
        data._validating_code.cache_clear()
