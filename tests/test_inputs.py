"""Hostile and contradictory inputs: each gets exit code 2 and one sentence naming the file (and
line) or the parameters, before any work, and nothing is written."""

import os

import pandas as pd
import pytest

from analysis.chapters import compare as scenarios
from analysis.chapters.registry import get_section
from analysis.cli import _check_params_belong, main
from analysis.data import load as data

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
      "-p", "maintenance_basis", "support contract", "-p", "support_frac_per_year", "0",
      "-p", "other_usd_per_gpu_month", "0"],
     ("tariff_usd_per_kwh", "other_usd_per_gpu_month")),
    # a warranty longer than the life it covers (issue 43), in each chapter that prices maintenance
    (["run", "opex", "-p", "warranty_years", "5"], ("warranty_years", "useful_life_years")),
    (["run", "tco", "-p", "useful_life_years", "2"], ("warranty_years", "useful_life_years")),
    (["run", "scaling", "-p", "strong_max_gpus", "2"], ("strong_max_gpus", "strong_model")),
    (["run", "downtime", "-p", "job_gpus", "2000000", "-p", "checkpoint_write_seconds", "3600"],
     ("job_gpus", "checkpoint_write_seconds")),
    # found by the bound sweep and a random search; the chapters used to fail on these (exit 1)
    (["run", "scaling", "-p", "backend_gbps", "1"], ("grad_bytes_per_param", "backend_gbps")),
    (["run", "scaling", "-p", "grad_bytes_per_param", "0", "-p", "strong_model", "llama31_8b"],
     ("grad_bytes_per_param", "strong_model")),
    (["run", "network", "-p", "gpus", "2000000", "-p", "switch_radix", "4", "-p", "island_gpus", "10000000"],
     ("gpus", "switch_radix", "island_gpus")),
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
    columns = [c for c in table.columns if c not in ("schema_version", "label", "unit")]
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


# (id, what a numeric cell holds, the reason given) - the grammar of -p and scenario files (analysis.params.grammar)
NOT_DECIMAL_CELLS = [
    ("underscores", "1_000", "write it without '_' separators"),
    ("arabic-indic-digits", "\u0661\u0660\u0660\u0660", "write it with the digits 0-9"),
    ("nul-byte", "70\x000", "write it in decimal digits"),
    ("leading-zero", "0700", "a leading zero is not allowed (YAML would read 0100 as octal 64)"),
    ("hex", "0x2bc", "write it in decimal digits"),
]


@pytest.mark.parametrize("case", NOT_DECIMAL_CELLS, ids=[c[0] for c in NOT_DECIMAL_CELLS])
def test_a_number_in_a_data_table_obeys_the_command_lines_grammar(case, data_copy):
    """Each of these reads as a number to pandas (700 or 1000): refused, at FILE:LINE:COLUMN of its
    cell, counted across a quoted cell with a comma and a newline in the same record."""
    _, cell, reason = case
    path = data_copy / "gpus.csv"
    frame = pd.read_csv(path, dtype=str, keep_default_na=False)
    frame.loc[0, "name"] = 'Big, "quoted"\nname'  # before tdp_w, on the record's first line
    frame.loc[1, "tdp_w"] = cell
    frame.to_csv(path, index=False)
    text = path.read_bytes().decode("utf-8")
    start = text.index(frame.loc[1, "gpu_id"] + ",")  # the second record, the third line of data
    line = text.count("\n", 0, start) + 1
    column = text.index("," + cell + ",", start) + 1 - start + 1
    with pytest.raises(data.DataError) as raised:
        data.load_table("gpus")
    assert f"gpus.csv:{line}:{column}: row 2, column 'tdp_w': {cell!r} is not a decimal number ({reason})" \
        in str(raised.value), str(raised.value)
    assert line == 4  # header, a first record over two lines, then this one


def test_cell_positions_follow_quotes_across_commas_and_lines(tmp_path):
    from analysis.data.positions import cell_position

    path = tmp_path / "t.csv"
    path.write_text('a,b,c\n"x, ""y""\nz",7,8\n', encoding="utf-8")
    assert cell_position(path, 2, 0) == (2, 1)
    assert cell_position(path, 2, 1) == (3, 4)  # after the quoted cell's closing quote on line 3
    assert cell_position(path, 2, 2) == (3, 6)
    assert cell_position(path, 2, 3) is None  # no fourth cell


def test_a_literal_nan_is_refused_where_only_an_empty_cell_means_missing(data_copy):
    path = data_copy / "gpus.csv"
    frame = pd.read_csv(path, dtype=str, keep_default_na=False)
    column = next(c for c in frame.columns if (frame[c] == "").any())  # a nullable column
    frame.loc[0, column] = "NaN"
    frame.to_csv(path, index=False)
    with pytest.raises(data.DataError, match=rf"gpus.csv:2:\d+: row 1, column '{column}': 'NaN' is not a value"):
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
    from analysis.build.outputs import staged

    out = tmp_path / "run"
    stale = tmp_path / ".run.partial-999999999"  # no such process
    stale.mkdir()
    with staged(out) as stage:
        (stage / "x.json").write_text("{}")
    assert (out / "x.json").is_file() and not stale.exists() and not list(tmp_path.glob(".run.partial-*"))


# --- one number grammar, every YAML error, names and descriptions (issue 27) ----------------------------

# (id, file bytes, text the message must contain): each exits 2 naming the file (and line), in run,
# build and compare alike
YAML_ERRORS = [
    ("nul-byte", b"parameters:\n  gpus: 1\x00\n", ":2: not valid YAML: the character U+0000"),
    ("bell-character", b"parameters:\n  pue: \x07\n", ":2: not valid YAML: the character U+0007"),
    ("scanner", b"parameters:\n\tpue: 1\n", ":2: not valid YAML"),
    ("parser", b"parameters: {pue: 1.2\n", "not valid YAML"),
    ("composer", b"parameters: {}\n---\nparameters: {}\n", "not valid YAML"),
    ("constructor-date", b"parameters:\n  run_days: 2024-13-45\n", ":2: not a valid value"),
    ("underscore-digits", b"parameters:\n  gpus: 1_000\n", ":2: '1_000' is not a decimal number (write it without '_'"),
    ("arabic-indic-digits", "parameters:\n  gpus: \"١٠٠٠\"\n".encode(), "write it with the digits 0-9"),
    ("five-thousand-digits", b"parameters:\n  gpus: " + b"9" * 5_000 + b"\n", ":2: '9999"),
    ("name-a-list", b"name: [1, 2]\nparameters: {}\n", ":1: 'name' must be text, not list"),
    ("description-a-number", b"description: 5\nparameters: {}\n", ":1: 'description' must be text"),
    ("name-100-kb", b"name: " + b"x" * 100_000 + b"\nparameters: {}\n", "'name' is 100,000 characters long; at most 200"),
    ("description-too-long", b"description: " + b"y" * 2_001 + b"\nparameters: {}\n", "at most 2,000 are allowed"),
]
COMMANDS = {"run": ["run", "cluster", "--scenario"], "build": ["build", "--scenario"],
            "compare": ["compare", REPORT_DEFAULTS]}


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("case", YAML_ERRORS, ids=[c[0] for c in YAML_ERRORS])
def test_every_yaml_error_is_an_input_error_naming_the_file(case, command, out, tmp_path, capsys):
    _, content, expect = case
    path = tmp_path / "s.yaml"
    path.write_bytes(content)
    args = [*COMMANDS[command], str(path)] + (["--out", str(out)] if command != "build" else [])
    code, err = _main(args, capsys)
    assert code == 2 and f"{path}:" in err and expect in err and not out.exists(), err
    assert err.count("\n") == 1 and len(err) < 600, err  # one sentence, the file's text not echoed


@pytest.mark.parametrize("value,reason", [("1_000", "without '_'"), ("١٠٠٠", "digits 0-9"), ("0100", "leading zero"),
                                          ("1:30", "decimal digits"), ("0x10", "decimal digits")])
def test_the_command_line_has_the_scenario_files_number_grammar(value, reason, out, tmp_path, capsys):
    code, err = _main(["run", "cluster", "--out", str(out), "-p", "gpus", value], capsys)
    assert code == 2 and "parameter 'gpus'" in err and "not a number" in err and reason in err, err
    path = tmp_path / "s.yaml"
    path.write_text(f'parameters:\n  gpus: "{value}"\n', encoding="utf-8")  # quoted: YAML's text, our grammar
    code, err = _main(["run", "cluster", "--out", str(out), "--scenario", str(path)], capsys)
    assert code == 2 and f"{path}:2: parameter 'gpus'" in err and reason in err, err


@pytest.mark.parametrize("value", ["250000", "2.5e5", "+250000", " 250000 ", "250000.0"])
def test_decimal_numbers_still_parse(value):
    from analysis.params.defaults import H100_ALLIN_USD

    assert H100_ALLIN_USD.parse(value) == 250_000


def test_the_planner_flags_have_the_same_grammar(capsys):
    base = ["plan", "--model", "llama31_70b", "--tokens", "1e12", "--gpu", "h100_sxm"]
    for value, reason in (("1_000", "without '_'"), ("١٠٠٠", "digits 0-9")):
        code, err = _main([*base, "--gpus", value], capsys)
        assert code == 2 and "--gpus expects an integer" in err and reason in err, err


BIDI = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c"


def test_bidi_and_control_characters_never_reach_a_reader(tmp_path, capsys):
    """A right-to-left override in a name would mirror the banner's warning sentence in the browser;
    an escape sequence would move the terminal's cursor. Both go, wherever the name is shown."""
    from analysis.build.site import banner_text

    path = tmp_path / "evil\u202e.yaml"
    path.write_text('name: "Cheap \\u202epower\\u2066 \\e[2J\\x07here"\n'
                    'description: "Texas \\u200fpower\\u061c"\nparameters:\n  tariff_usd_per_kwh: 0.05\n', encoding="utf-8")
    s = scenarios.load(path)
    assert s.name == "Cheap power [2Jhere" and s.description == "Texas power"
    shown = [s.name, s.description, s.label, banner_text(s.label), *scenarios.column_names([s])]
    assert not any(c in text for text in shown for c in BIDI + "\x1b\x07"), shown
    assert s.label == "Cheap power [2Jhere (evil.yaml)"
    code, _ = _main(["compare", REPORT_DEFAULTS, str(path), "--out", str(tmp_path / "o")], capsys)
    printed = capsys.readouterr().out
    header = (tmp_path / "o" / "compare.csv").read_text(encoding="utf-8").splitlines()[0]
    assert code == 0 and not any(c in printed + header for c in BIDI + "\x1b"), header
    assert "Cheap power [2Jhere" in header


@pytest.mark.parametrize("name", ["=HYPERLINK(\"http://x\")", "+1", "-2+3", "@SUM(A1)"])
def test_a_formula_name_is_neutralised_in_the_compare_csv(name, tmp_path, capsys):
    path = tmp_path / "f.yaml"
    path.write_text(f"name: '{name}'\nparameters:\n  tariff_usd_per_kwh: 0.05\n", encoding="utf-8")
    code, _ = _main(["compare", REPORT_DEFAULTS, str(path), "--out", str(tmp_path / "o")], capsys)
    table = pd.read_csv(tmp_path / "o" / "compare.csv", index_col=0)
    assert code == 0 and f"'{name}" in table.columns and name not in table.columns, list(table.columns)


def test_a_dollar_name_is_text_in_the_compare_chart(tmp_path):
    """Mathtext would render '$x^2$' as a formula and fail outright on an unknown macro; the legend
    shows the name as typed, a name that starts with '_' included (a legend skips such labels)."""
    import matplotlib

    matplotlib.use("Agg")
    from analysis.page.plots import compare_figure

    paths = []
    for i, name in enumerate(["Report defaults", r"costs $\nosuchmacro$ and $x^2$", "_underscore"]):
        paths.append(tmp_path / f"s{i}.yaml")
        paths[-1].write_text(f"name: '{name}'\nparameters:\n  tariff_usd_per_kwh: {0.05 + i / 100}\n", encoding="utf-8")
    loaded = [scenarios.load(p) for p in paths]
    names = scenarios.column_names(loaded)
    fig = compare_figure(scenarios.compare(loaded), names)
    fig.savefig(tmp_path / "c.png")  # raises on the unknown macro if the name were parsed as math
    legend = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]  # the legend sits above the chart
    assert legend == names


def test_a_long_name_is_wrapped_to_the_column(tmp_path):
    import matplotlib

    matplotlib.use("Agg")
    from analysis.page.plots import compare_figure

    path = tmp_path / "long.yaml"
    path.write_text("name: " + " ".join(["word"] * 40) + "\nparameters:\n  tariff_usd_per_kwh: 0.05\n")
    loaded = [scenarios.load(REPORT_DEFAULTS), scenarios.load(path)]
    fig = compare_figure(scenarios.compare(loaded), scenarios.column_names(loaded))
    assert max(len(line) for t in fig.axes[0].get_legend().get_texts() for line in t.get_text().splitlines()) <= 48
