"""Shipped scenarios load and move the results they should; `compare` checks its files."""

import pytest

from analysis.chapters import compare as scenarios
from analysis.cli import main


def test_every_shipped_scenario_is_documented_and_valid():
    shipped = scenarios.shipped()
    assert len(shipped) >= 5 and shipped[0].path.stem == "report-defaults"
    for s in shipped:
        assert s.name and len(s.description) > 40, s.path


def test_scenarios_move_what_they_change():
    by_stem = {s.path.stem: scenarios.key_results(s) for s in scenarios.shipped()}
    base = by_stem["report-defaults"]
    assert by_stem["cheap-power-texas"]["h100_tco_usd_per_gpu_hour"] < base["h100_tco_usd_per_gpu_hour"]
    assert by_stem["expensive-power-california"]["llama31_405b_bf16_usd_per_million_tokens"] > base["llama31_405b_bf16_usd_per_million_tokens"]
    assert by_stem["neocloud-buyer"]["h100_tco_usd_per_gpu_hour"] > base["h100_tco_usd_per_gpu_hour"]
    mature = by_stem["gb200-mature"]
    assert mature["gb200_breakeven_speedup_with_downtime"] < base["gb200_breakeven_speedup_with_downtime"]
    assert mature["gb200_breakeven_speedup"] == pytest.approx(base["gb200_breakeven_speedup"])
    # power prices do not change the joules
    assert by_stem["cheap-power-texas"]["llama31_405b_bf16_j_per_token"] == pytest.approx(base["llama31_405b_bf16_j_per_token"])


@pytest.mark.parametrize("text,expect", [
    ("parameters:\n  tarif: 0.05\n", ":2: unknown parameter 'tarif'"),
    ("parameters:\n  pue: 7\n", ":2: parameter 'pue'"),
    ("parameters: [1]\n", "expected a mapping"),
    ("name: [not, text]\nparameters: {}\n", ":1: 'name' must be text, not list"),
    ("parameters: !!python/name:os.system\n", "not valid YAML"),
])
def test_compare_rejects_bad_files_naming_file_and_key(tmp_path, capsys, text, expect):
    bad = tmp_path / "bad.yaml"
    bad.write_text(text)
    out = tmp_path / "out"
    code = main(["compare", str(scenarios.SCENARIO_DIR / "report-defaults.yaml"), str(bad), "--out", str(out)])
    err = capsys.readouterr().err
    assert code == 2 and str(bad) in err and expect in err and not out.exists()


def test_compare_writes_table_and_figure(tmp_path, capsys):
    files = [str(s.path) for s in scenarios.shipped()[:2]]
    assert main(["compare", *files, "--out", str(tmp_path)]) == 0
    printed = capsys.readouterr().out
    assert "H100 TCO per GPU-hour" in printed
    assert (tmp_path / "compare.csv").is_file() and (tmp_path / "compare.png").stat().st_size > 5_000
