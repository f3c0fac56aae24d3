"""Hostile and contradictory inputs: each gets exit code 2 and one sentence naming the file (and
line) or the parameters, before any work, and nothing is written."""

import os

import pandas as pd
import pytest

from analysis import data, scenarios
from analysis.cli import _check_params_belong, main
from analysis.sections import get_section

REPORT_DEFAULTS = str(scenarios.SCENARIO_DIR / "report-defaults.yaml")

# (id, file content, text the message must contain)
HOSTILE_SCENARIOS = [
    ("alias-bomb", "a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
                   "parameters: {}\n", ":2: anchors and aliases"),
    ("yaml11-octal", "parameters:\n  gpus: 0100\n", ":2: '0100' is not a decimal number"),
    ("yaml11-base-60", "parameters:\n  run_days: 1:30\n", ":2: '1:30' is not a decimal number"),
    ("hex", "parameters:\n  gpus: 0x10\n", "is not a decimal number"),
    ("duplicate-key", "parameters:\n  pue: 1.2\n  pue: 1.3\n", ":3: duplicate key 'pue' (first on line 2)"),
    ("two-parameter-blocks", "parameters:\n  pue: 1.2\nparameters:\n  gpus: 5\n", ":3: duplicate key 'parameters'"),
    ("deep-nesting", "parameters: " + "[" * 20_000 + "]" * 20_000 + "\n", "nested more than"),
    ("integer-name", "parameters:\n  1: 2\n", ":2: key 1 is not text"),
    ("null-name", "parameters:\n  ~: 2\n", ":2: key None is not text"),
    ("too-large", "parameters: {}\n" + "#" * 300_000 + "\n", "larger than"),
    ("blank-line-before", "\n\nparameters:\n\n  pue: high\n", ":5: parameter 'pue'"),
]


@pytest.fixture
def out(tmp_path, monkeypatch):
    monkeypatch.delenv("ANALYSIS_DATA_DIR", raising=False)
    data.clear_cache()
    yield tmp_path / "out"
    data.clear_cache()


def _main(args, capsys):
    code = main(args)
    return code, capsys.readouterr().err


@pytest.mark.parametrize("case", HOSTILE_SCENARIOS, ids=[c[0] for c in HOSTILE_SCENARIOS])
def test_hostile_scenario_file(case, out, tmp_path, capsys):
    _, text, expect = case
    path = tmp_path / "s.yaml"
    path.write_text(text)
    code, err = _main(["run", "cluster", "--out", str(out), "--scenario", str(path)], capsys)
    assert code == 2 and str(path) in err and expect in err and not out.exists(), err
    assert len(err) < 400 and err.count("\n") == 1, err  # one sentence


@pytest.mark.parametrize("special", ["/dev/zero", "/dev/urandom", "fifo", "folder"])
def test_scenario_must_be_a_regular_file(special, out, tmp_path, capsys):
    path = special
    if special == "fifo":
        path = str(tmp_path / "fifo")
        os.mkfifo(path)  # would block forever in a plain open() for reading
    elif special == "folder":
        path = str(tmp_path)
    code, err = _main(["build", "--scenario", path], capsys)
    assert code == 2 and "not a regular file" in err and path in err, err


def test_empty_scenario_name_is_refused(capsys):
    code, err = _main(["build", "--scenario", ""], capsys)
    assert code == 2 and "--scenario: the file name is empty" in err


def test_a_huge_value_is_not_echoed_back(out, capsys):
    code, err = _main(["run", "cluster", "--out", str(out), "-p", "pue", "9" * 100_000], capsys)
    assert code == 2 and "parameter 'pue'" in err and len(err) < 600, len(err)


@pytest.mark.parametrize("command", [["run", "cluster"], ["compare", REPORT_DEFAULTS], ["measure", "--quick"]])
@pytest.mark.parametrize("where", ["root", "file", "under-a-file"])
def test_out_is_checked_before_any_work(command, where, tmp_path, capsys):
    a_file = tmp_path / "f.txt"
    a_file.write_text("x")
    target = {"root": "/", "file": str(a_file), "under-a-file": str(a_file / "sub")}[where]
    code, err = _main([*command, "--out", target], capsys)
    assert code == 2 and "--out" in err and (target in err or where == "root"), err
    assert a_file.read_text() == "x"


def test_a_parameter_of_another_chapter_is_reported(out, capsys):
    code, err = _main(["run", "cluster", "--out", str(out), "-p", "h100_server_usd", "200000"], capsys)
    assert code == 2 and "-p h100_server_usd: chapter 'cluster' does not use this parameter" in err, err
    assert "capex" in err and not out.exists()


def test_a_parameter_of_a_needed_chapter_belongs():
    _check_params_belong(get_section("scaling"), ["mfu_check_tolerance"])  # benchmarks runs first
    with pytest.raises(Exception, match="does not use"):
        _check_params_belong(get_section("cluster"), ["mfu_check_tolerance"])


@pytest.mark.parametrize("args,names", [
    (["run", "capex", "-p", "h100_server_usd", "260000"], ("h100_server_usd", "h100_allin_usd")),
    (["run", "capex", "-p", "gb200_rack_usd", "5000000"], ("gb200_rack_usd", "gb200_allin_usd")),
    (["run", "opex", "-p", "tariff_usd_per_kwh", "0", "-p", "datacenter_usd_per_kw_month", "0",
      "-p", "maintenance_frac_per_year", "0", "-p", "other_usd_per_gpu_month", "0"],
     ("tariff_usd_per_kwh", "other_usd_per_gpu_month")),
    (["run", "scaling", "-p", "strong_max_gpus", "2"], ("strong_max_gpus", "strong_model")),
    (["run", "downtime", "-p", "job_gpus", "2000000", "-p", "checkpoint_write_seconds", "3600"],
     ("job_gpus", "checkpoint_write_seconds")),
])
def test_conflicting_parameters_name_both(args, names, out, capsys):
    code, err = _main([*args, "--out", str(out)], capsys)
    assert code == 2 and all(f"'{n}'" in err for n in names) and not out.exists(), err


def test_a_gpu_without_an_fp8_path_is_not_a_valid_cluster_gpu(out, capsys):
    code, err = _main(["run", "cluster", "--out", str(out), "-p", "gpu", "a100_sxm_80gb"], capsys)
    assert code == 2 and "parameter 'gpu'" in err and "h100_sxm" in err, err


def test_compare_keeps_every_scenario_and_tells_same_names_apart(tmp_path, capsys):
    twin = tmp_path / "twin.yaml"
    twin.write_text("name: Report defaults\nparameters:\n  tariff_usd_per_kwh: 0.5\n")
    code, _ = _main(["compare", REPORT_DEFAULTS, REPORT_DEFAULTS, str(twin), "--out", str(tmp_path / "o")], capsys)
    assert code == 0
    table = pd.read_csv(tmp_path / "o" / "compare.csv", index_col=0)
    columns = [c for c in table.columns if c not in ("label", "unit")]
    assert len(columns) == 3 and len(set(columns)) == 3, columns
    assert "twin.yaml" in columns[2]
    assert table.loc["h100_tco_usd_per_gpu_hour", columns[2]] > table.loc["h100_tco_usd_per_gpu_hour", columns[0]]
    assert table[columns[0]].equals(table[columns[1]])


# --- data files ----------------------------------------------------------------------------------------

def _lines(path):
    return path.read_text(encoding="utf-8").splitlines(keepends=True)


def test_line_numbers_count_blank_lines_and_newlines_in_cells(data_copy):
    path = data_copy / "gpus.csv"
    frame = pd.read_csv(path, dtype=str, keep_default_na=False)
    frame.loc[0, "note"] = "two\nlines"  # a quoted cell over two lines: pandas joins them
    frame.loc[1, "tdp_w"] = "-700"
    frame.to_csv(path, index=False)
    lines = _lines(path)
    path.write_text("".join([lines[0], "\n", *lines[1:]]), encoding="utf-8")  # a blank line: pandas skips it
    # header 1, blank 2, first row 3-4, the bad second row 5
    with pytest.raises(data.DataError, match=r"gpus.csv:5: row 2, column 'tdp_w'"):
        data.load_table("gpus")


def test_a_literal_nan_is_refused_where_only_an_empty_cell_means_missing(data_copy):
    path = data_copy / "gpus.csv"
    frame = pd.read_csv(path, dtype=str, keep_default_na=False)
    column = next(c for c in frame.columns if (frame[c] == "").any())  # a nullable column
    frame.loc[0, column] = "NaN"
    frame.to_csv(path, index=False)
    with pytest.raises(data.DataError, match=rf"gpus.csv:2: row 1, column '{column}': 'NaN' is not a value"):
        data.load_table("gpus")


def test_a_header_only_table_is_blamed_on_itself(data_copy):
    path = data_copy / "gpus.csv"
    path.write_text(_lines(path)[0])
    with pytest.raises(data.DataError, match=r"gpus.csv: has a header but no rows"):
        data.load_table("benchmarks")


def test_a_foreign_key_error_names_both_files(data_copy):
    path = data_copy / "benchmarks.csv"
    frame = pd.read_csv(path, dtype=str, keep_default_na=False)
    frame.loc[0, "gpu_id"] = "no_such_gpu"
    frame.to_csv(path, index=False)
    with pytest.raises(data.DataError, match=r"benchmarks.csv:2: .*'no_such_gpu' is not a gpu_id in .*gpus.csv"):
        data.load_table("benchmarks")


def test_no_internal_check_names_in_messages(data_copy):
    path = data_copy / "models.csv"
    lines = _lines(path)
    lines = [lines[0].rstrip("\n") + ",\n"] + [ln.rstrip("\n") + ",x\n" for ln in lines[1:]]
    path.write_text("".join(lines))
    with pytest.raises(data.DataError) as err:
        data.load_table("models")
    assert "Unnamed" not in str(err.value) and "column_in_schema" not in str(err.value), err.value
    assert "header is empty" in str(err.value)


def test_a_fact_check_for_an_unknown_chapter_is_caught_at_load_with_its_line(data_copy):
    path = data_copy / "fact_checks.csv"
    frame = pd.read_csv(path, dtype=str, keep_default_na=False)
    frame.loc[1, "section"] = "no_such_chapter"
    frame.to_csv(path, index=False)
    with pytest.raises(data.DataError, match=r"fact_checks.csv:3: row 2, column 'section'"):
        data.load_table("fact_checks")


def test_staging_clears_what_a_killed_run_left(tmp_path):
    from analysis.outputs import staged

    out = tmp_path / "run"
    stale = tmp_path / ".run.partial-999999999"  # no such process
    stale.mkdir()
    with staged(out) as stage:
        (stage / "x.json").write_text("{}")
    assert (out / "x.json").is_file() and not stale.exists() and not list(tmp_path.glob(".run.partial-*"))
