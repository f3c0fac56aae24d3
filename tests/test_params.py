"""Parameters: one definition each, strict validation, scenarios, and notebooks that agree."""

import ast
from pathlib import Path

import jupytext
import pytest

from analysis.chapters.registry import (
    SECTIONS,
    all_params,
    get_section,
    resolve_section,
    run_order,
)
from analysis.data.load import load_table
from analysis.params import defaults
from analysis.params.parameters import Param, ParameterError
from analysis.params.scenario_file import load_scenario

REPO = Path(__file__).resolve().parent.parent
CLUSTER = get_section("cluster")
INJECTION = "__import__('os').system('touch /tmp/analysis-injected')"


def test_every_parameter_is_documented_and_its_default_valid():
    sources = set(load_table("sources")["source_id"])
    for p in all_params().values():
        assert p.unit and p.description and len(p.why) > 20, p.name
        assert p.source in sources or p.basis == "assumption", p.name
        assert p.parse(p.default) == p.default, p.name


@pytest.mark.parametrize("raw,expected", [("50000", 50_000), ("5e4", 50_000), ("5.0e4", 50_000), (50000, 50_000)])
def test_integer_parameter_accepts_spellings(raw, expected):
    assert defaults.GPUS.parse(raw) == expected


@pytest.mark.parametrize("raw,why", [
    ("abc", "not a number"), ("nan", "not finite"), ("inf", "not finite"), ("1.5", "not a whole number"),
    ("50_000", "without '_' separators"), ("٥٠٠٠٠", "with the digits 0-9"),  # one grammar with scenario files
    ("0", "out of range"), ("3000000", "out of range"), (True, "expected"), (INJECTION, "not a number"),
])
def test_bad_values_are_rejected_with_name_range_and_unit(raw, why):
    with pytest.raises(ParameterError) as err:
        defaults.GPUS.parse(raw)
    message = str(err.value)
    assert "'gpus'" in message and "1 to 2,000,000" in message and "GPUs" in message and why in message


def test_choice_parameter_rejects_unknown_and_code():
    assert defaults.GPU.parse("gb200_nvl72") == "gb200_nvl72"
    for raw in ("h100", INJECTION):
        with pytest.raises(ParameterError, match="one of: .*h100_sxm"):
            defaults.GPU.parse(raw)
    assert not Path("/tmp/analysis-injected").exists()


def test_papermill_injects_strings_as_inert_literals():
    """Even a string that did reach papermill would be a quoted literal, never code."""
    from papermill.translators import PythonTranslator

    literal = PythonTranslator.translate(INJECTION)
    assert ast.literal_eval(literal) == INJECTION


def test_unknown_override_name_is_an_error_with_suggestion():
    with pytest.raises(ParameterError, match="unknown parameter 'gpu_count'"):
        resolve_section(CLUSTER, {"gpu_count": 5})
    with pytest.raises(ParameterError, match="did you mean pue"):
        resolve_section(CLUSTER, {"pu": 1.2})


def test_scenario_errors_name_file_and_line(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text("description: test\nparameters:\n  pue: 1.2\n  tarif_usd_per_kwh: 0.05\n")
    overrides, origin = load_scenario(path)
    with pytest.raises(ParameterError, match=rf"{path}:4: unknown parameter 'tarif_usd_per_kwh'"):
        resolve_section(CLUSTER, overrides, origin)
    path.write_text("parameters:\n  pue: 9\n")
    overrides, origin = load_scenario(path)
    with pytest.raises(ParameterError, match=rf"{path}:2: parameter 'pue'.*out of range"):
        resolve_section(CLUSTER, overrides, origin)
    path.write_text("parameters: [1, 2]\n")
    with pytest.raises(ParameterError, match="mapping"):
        load_scenario(path)


def test_scenario_overrides_subset_and_keeps_defaults(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text("parameters:\n  pue: 1.1\n  gpus: 16384\n")
    values = resolve_section(CLUSTER, *load_scenario(path))
    assert values["pue"] == 1.1 and values["gpus"] == 16_384
    assert values["tariff_usd_per_kwh"] == defaults.TARIFF.default


def _parameters_cell(section):
    nb = jupytext.read(REPO / section.notebook)
    cells = [c for c in nb.cells if "parameters" in c.metadata.get("tags", [])]
    assert len(cells) == 1, f"{section.notebook} needs exactly one cell tagged parameters"
    assert nb.metadata["kernelspec"]["name"] == "python3"
    return cells[0].source


@pytest.mark.parametrize("section", SECTIONS, ids=lambda s: s.name)
def test_the_runner_injects_every_parameter_of_a_section(section):
    """Parameter cells hold no code: every value a chapter reads is injected by the runner."""
    from analysis.build.book import resolve_all

    assert _parameters_cell(section).strip().startswith("#")
    assert set(resolve_all({}, {})[section.name]) == {p.name for p in section.params}


def test_sections_run_after_what_they_need():
    levels = [[s.name for s in level] for level in run_order(["intro"])]
    assert levels[-1] == ["intro"] and {"network", "uncertainty"} <= set(levels[0])
    assert "cluster" in levels[1]  # it reads the network chapter's link counts
    assert "tco" in levels[1]  # it reads the uncertainty chapter's bands


def test_param_requires_range_for_numbers():
    with pytest.raises(TypeError):
        Param("x", 1.0, "u", "d", "w")
    assert defaults.PUE.parse("1.25") == 1.25


def test_defaults_that_quote_a_report_fact_equal_it():
    from analysis.data.load import fact

    quoted = [p for p in all_params().values() if p.fact]
    for p in quoted:
        assert p.default == pytest.approx(fact(p.fact)), p.name
