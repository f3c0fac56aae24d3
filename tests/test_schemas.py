"""Every machine-readable output carries a ``schema_version`` and matches its JSON Schema in
docs/schemas/: the results JSON (the build, ``run`` and the notebooks write the same bytes), ``plan
--json`` in each of its shapes, ``plan --csv`` and compare.csv. A change of shape fails here until
the schema, its version and the CHANGELOG move with it."""

from __future__ import annotations

import csv
import io
import json

import jsonschema
import pytest
from conftest import REPO, run_cli

from analysis.chapters import compare, compute_section, results
from analysis.chapters.registry import SECTIONS
from analysis.cli import main
from analysis.planner.inputs import SCHEMA_VERSION

SCHEMAS = REPO / "docs" / "schemas"


def validator(name: str) -> jsonschema.Draft202012Validator:
    schema = json.loads((SCHEMAS / name).read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def _errors(v, doc) -> list[str]:
    return [f"{list(e.absolute_path)}: {e.message[:300]}" for e in v.iter_errors(doc)]


def test_every_schema_is_valid_and_its_version_is_the_codes():
    for path in sorted(SCHEMAS.glob("*.schema.json")):
        validator(path.name)
    assert validator("results.schema.json").schema["properties"]["schema_version"]["const"] == results.SCHEMA_VERSION
    assert validator("plan.schema.json").schema["properties"]["schema_version"]["const"] == SCHEMA_VERSION
    assert validator("plan-csv-row.schema.json").schema["properties"]["schema_version"]["const"] == \
        str(SCHEMA_VERSION)
    assert validator("compare-row.schema.json").schema["properties"]["schema_version"]["const"] == \
        str(compare.SCHEMA_VERSION)


# --- the results JSON ------------------------------------------------------------------------------

def test_every_chapters_results_json_matches_its_schema():
    v, done = validator("results.schema.json"), {}
    for section in SECTIONS:
        doc = json.loads(compute_section(section.name, {}, done).to_json())
        assert doc["schema_version"] == results.SCHEMA_VERSION
        assert _errors(v, doc) == [], section.name


def test_run_writes_results_that_match_the_schema(tmp_path):
    proc = run_cli("run", "capex", "-p", "useful_life_years", "5", "--out", str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    doc = json.loads((tmp_path / "capex.json").read_text())
    assert _errors(validator("results.schema.json"), doc) == []
    assert doc["parameters"]["useful_life_years"] == 5.0


def test_the_built_books_results_match_the_schema(book):
    v = validator("results.schema.json")
    files = sorted((book / "_build" / "results").glob("*.json"))
    assert {p.stem for p in files} == {s.name for s in SECTIONS}
    for path in files:
        assert _errors(v, json.loads(path.read_text())) == [], path.name


def test_the_schema_refuses_a_changed_shape():
    v = validator("results.schema.json")
    doc = json.loads(compute_section("capex").to_json())
    assert _errors(v, doc) == []
    for broken in ({**doc, "schema_version": 2}, {k: x for k, x in doc.items() if k != "schema_version"},
                   {**doc, "extra": 1}, {**doc, "results": {"k": {"value": "1", "unit": "", "label": "x"}}}):
        assert _errors(v, broken), broken.keys()


# --- plan --json and plan --csv -------------------------------------------------------------------------

PLANS = {"one plan": ["--gpu", "h100_sxm", "--gpus", "16384"],
         "given throughput, no price": ["--gpu", "mi300x", "--gpus", "64", "--tokens-per-s-per-gpu", "500"],
         "a power budget": ["--gpu", "h100_sxm", "--power-mw", "50"],
         "every accelerator in a budget": ["--power-mw", "50"],
         "a deadline": ["--gpu", "h100_sxm", "--days", "60"],
         "a deadline, every accelerator": ["--days", "60"],
         "what a budget buys": ["--gpu", "h100_sxm", "--budget-usd", "2e7"],
         "what a budget buys, every accelerator": ["--budget-usd", "2e7"]}


def _plan(args, capsys, *form) -> str:
    code = main(["plan", "--model", "llama31_405b", "--tokens", "15e12", *args, *form])
    out = capsys.readouterr()
    assert code == 0, out.err
    return out.out


@pytest.mark.parametrize("case", PLANS, ids=list(PLANS))
def test_plan_json_and_csv_match_their_schemas(case, capsys):
    doc = json.loads(_plan(PLANS[case], capsys, "--json"))
    assert doc["schema_version"] == SCHEMA_VERSION
    assert _errors(validator("plan.schema.json"), doc) == []
    rows = list(csv.DictReader(io.StringIO(_plan(PLANS[case], capsys, "--csv"))))
    row_schema = validator("plan-csv-row.schema.json")
    for row in rows:
        assert _errors(row_schema, row) == [], row
    plans = [r["plan"] for r in doc["rows"] if r["plan"]] if "rows" in doc else [doc.get("plan", doc)]
    priced = [r for r in rows if r["key"]]
    assert len(priced) == sum(len(p["results"]) for p in plans)  # one row per quantity of each plan
    first = plans[0]["results"]
    for key in ("gpu_hours", "cost_usd", "energy_mwh"):
        row = next(r for r in priced if r["key"] == key)
        for column in ("value", "p10", "p50", "p90"):
            assert row[column] == ("" if first[key][column] is None else repr(float(first[key][column])))
        assert row["unit"] == first[key]["unit"] and row["basis"]


def test_plan_csv_says_what_each_quantity_rests_on(capsys):
    rows = {r["key"]: r for r in csv.DictReader(io.StringIO(_plan(PLANS["one plan"], capsys, "--csv")))}
    assert rows["days"]["basis"].startswith("throughput: MFU") and "estimated" in rows["days"]["basis"]
    assert rows["cost_usd"]["basis"].startswith("price per GPU-hour: the book's TCO")
    assert rows["energy_gpu_tdp_mwh"]["basis"] == "energy basis: gpu-tdp"
    assert rows["co2_t"]["basis"].startswith("energy basis: facility; grid: US average")
    given = {r["key"]: r for r in csv.DictReader(io.StringIO(_plan(PLANS["given throughput, no price"], capsys, "--csv")))}
    assert given["days"]["basis"] == "throughput: tokens/s/GPU (given)"
    assert given["cost_usd"]["value"] == "" and given["cost_usd"]["basis"].startswith("price per GPU-hour: none")


def test_plan_csv_out_writes_the_csv(tmp_path, capsys):
    out = tmp_path / "plan.csv"
    printed = _plan(PLANS["one plan"], capsys, "--csv", "--out", str(out))
    assert out.read_text(encoding="utf-8") == printed


# --- compare.csv --------------------------------------------------------------------------------------

def test_compare_csv_matches_its_schema(tmp_path, capsys):
    files = [str(compare.SCENARIO_DIR / name) for name in ("report-defaults.yaml", "cheap-power-texas.yaml")]
    assert main(["compare", *files, "--out", str(tmp_path)]) == 0, capsys.readouterr().err
    text = (tmp_path / "compare.csv").read_text(encoding="utf-8")
    assert text.splitlines()[0].startswith("key,schema_version,label,unit,")
    rows = list(csv.DictReader(io.StringIO(text)))
    v = validator("compare-row.schema.json")
    assert rows and all(_errors(v, row) == [] for row in rows), [_errors(v, r) for r in rows]
    assert len(rows[0]) == 4 + len(files)


def test_schema_readme_lists_every_schema():
    readme = (SCHEMAS / "README.md").read_text(encoding="utf-8")
    for path in SCHEMAS.glob("*.schema.json"):
        assert path.name in readme, path.name
