"""What-if grids (analysis.page.whatif): the numbers a page interpolates are the book's own results.

- At grid points, each panel's values equal the chapter's result keys from
  ``analysis.chapters.compute_section`` (or ``analysis.planner.plan``) to 1e-9 relative.
- Between grid points the page interpolates; at the centres of grid cells (where multilinear
  interpolation is worst) the error against the exact Python value stays within ``TOLERANCE_REL``
  per panel. On the axes a panel's note calls exact (the result is linear in x, or in 1/x on
  "inverse" axes, for fixed other inputs) the interpolation is exact to 1e-9.
- The command a panel shows is accepted by the parameter validation and sets the panel's inputs.
"""

from __future__ import annotations

import itertools
import shlex

import numpy as np
import pytest

from analysis.chapters import compute_section
from analysis.page import whatif

EXACT = 1e-9
# The bound on the relative error of an interpolated value at cell centres, each panel's promise
# to its readers (measured worst, printed with -s: tco 0.08 %, downtime 1.3 %, cluster 0 (exact),
# goodput 1.9 %, plan 0.6 %, plan_deadline 7.4 %: whole nodes and the smallest job that fits bend small jobs;
# plan_budget 2.0 %).
TOLERANCE_REL = {"tco": 0.002, "downtime": 0.02, "cluster": EXACT, "goodput": 0.025, "plan": 0.01, "plan_deadline": 0.08,
                 "plan_budget": 0.025}
# Axes on which the panel's outputs are linear (in x, or in 1/x on "inverse" axes), so the grid
# interpolates them exactly for fixed other inputs.
EXACT_AXES = {"tco": ("h100_allin_usd", "utilization", "h100_it_w_per_gpu", "pue", "tariff_usd_per_kwh"),
              "cluster": ("gpus", "h100_it_w_per_gpu", "pue", "load_factor", "tariff_usd_per_kwh"),
              "plan": ("tokens", "mfu")}


@pytest.fixture(scope="module")
def grids():
    return {name: whatif.grid(panel) for name, panel in whatif.PANELS.items()}


def _grid_point(g, index) -> dict:
    return {a["name"]: a["points"][i] for a, i in zip(g["axes"], index, strict=True)}


def _sample_indices(g):
    """Two grid points per panel: the first corner and one with every axis near its middle."""
    return [tuple(0 for _ in g["axes"]), tuple(len(a["points"]) // 2 for a in g["axes"])]


def _flat_index(g, index) -> int:
    return int(np.ravel_multi_index(index, [len(a["points"]) for a in g["axes"]]))


def test_at_least_four_pages_have_panels():
    assert len({p.section for p in whatif.PANELS.values()}) >= 4


@pytest.mark.parametrize("name", list(whatif.PANELS))
def test_axes_are_parameters_inside_their_valid_range(name):
    panel = whatif.PANELS[name]
    whatif.check_panel(panel)  # raises on an unknown parameter or a point outside its range
    base = whatif.base_values(panel)
    for axis in panel.axes:  # the page opens at this build's value, which the slider must reach
        assert axis.points[0] <= base[axis.name] <= axis.points[-1], axis.name


def test_check_panel_refuses_points_outside_the_valid_range():
    panel = whatif.PANELS["cluster"]
    bad = whatif.Axis("pue", "PUE", "ratio", (0.5, 1.5))  # PUE's valid range starts at 1
    with pytest.raises(ValueError, match="pue points leave its valid range"):
        whatif.check_panel(whatif.Panel(**{**panel.__dict__, "axes": (bad,)}))


@pytest.mark.parametrize("name", [n for n, p in whatif.PANELS.items() if p.command == "run"])
def test_grid_values_equal_compute_section(name, grids):
    panel, g = whatif.PANELS[name], grids[name]
    for index in _sample_indices(g):
        point = _grid_point(g, index)
        res = compute_section(panel.section, point)
        for o in panel.outputs:
            assert g["values"][o.key][_flat_index(g, index)] == pytest.approx(res[o.key], rel=EXACT), (o.key, point)
            assert whatif.interpolate(g, point, o.key) == pytest.approx(res[o.key], rel=EXACT)


def test_plan_grid_equals_the_planner(grids):
    from analysis import planner

    panel, g = whatif.PANELS["plan"], grids["plan"]
    for index in _sample_indices(g):
        point = _grid_point(g, index)
        result = planner.plan(planner.PlanInputs(model=planner.model_from_registry(whatif.PLAN_MODEL),
                                                 tokens=point["tokens"], gpu_id=whatif.PLAN_GPU,
                                                 gpus=int(point["gpus"]), mfu=point["mfu"]))
        for o in panel.outputs:
            assert g["values"][o.key][_flat_index(g, index)] == pytest.approx(result.results[o.key]["value"],
                                                                                  rel=EXACT)


def _cell_centre(axis, i: int) -> float:
    lo, hi = axis.points[i], axis.points[i + 1]
    if axis.scale == "log":
        return float(np.sqrt(lo * hi))
    if axis.scale == "inverse":
        return 2.0 / (1.0 / lo + 1.0 / hi)
    return (lo + hi) / 2.0


def _centres(panel, limit: int = 40):
    """Up to ``limit`` cell centres, spread over the grid (every axis off its grid points)."""
    cells = list(itertools.product(*(range(len(a.points) - 1) for a in panel.axes)))
    picks = [cells[i] for i in np.linspace(0, len(cells) - 1, min(limit, len(cells))).astype(int)]
    return [{a.name: _cell_centre(a, i) for a, i in zip(panel.axes, cell, strict=True)} for cell in picks]


@pytest.mark.parametrize("name", list(whatif.PANELS))
def test_interpolation_error_between_grid_points(name, grids):
    panel, g = whatif.PANELS[name], grids[name]
    centres = _centres(panel, 12 if name == "plan" else 40)
    exact = whatif.evaluate(panel, {a.name: np.array([c[a.name] for c in centres]) for a in panel.axes})
    worst = 0.0
    for i, point in enumerate(centres):
        for o in panel.outputs:
            worst = max(worst, abs(whatif.interpolate(g, point, o.key) / exact[o.key][i] - 1.0))
    print(f"{name}: worst relative interpolation error at cell centres {worst:.2e}")
    assert worst <= TOLERANCE_REL[name]


def test_the_axes_marked_exact_are_the_linear_ones():
    assert {n: tuple(a.name for a in p.axes if a.exact) for n, p in whatif.PANELS.items() if n in EXACT_AXES} == EXACT_AXES
    assert not any(a.exact for n, p in whatif.PANELS.items() if n not in EXACT_AXES for a in p.axes)


@pytest.mark.parametrize("name", list(EXACT_AXES))
def test_linear_axes_interpolate_exactly(name, grids):
    """Off-grid on the axes where the model is linear (in x or 1/x), on-grid elsewhere: exact."""
    panel, g = whatif.PANELS[name], grids[name]
    point = {a.name: (_cell_centre(a, 0) if a.name in EXACT_AXES[name] else a.points[len(a.points) // 2])
             for a in panel.axes}
    exact = whatif.evaluate(panel, point)
    for o in panel.outputs:
        assert whatif.interpolate(g, point, o.key) == pytest.approx(exact[o.key], rel=EXACT), o.key


def test_interpolate_clamps_to_the_grid(grids):
    g, panel = grids["cluster"], whatif.PANELS["cluster"]
    inside = {a.name: a.points[-1] for a in panel.axes}
    outside = {**inside, "gpus": 10 * inside["gpus"]}
    assert whatif.interpolate(g, outside, "cluster_facility_mw") == whatif.interpolate(g, inside, "cluster_facility_mw")


def test_cluster_grid_by_hand(grids):
    """100,000 GPUs x 1,389 W x PUE 1.3 = 180.57 MW at the meter, rated (the cluster chapter's default
    build-up), interpolated between 50,000 and 200,000 GPUs and the PUE ends 1.05 and 1.6; the bill
    at the average draw, between the load factor's ends 0.5 and 1.0."""
    point = {"gpus": 100_000, "h100_it_w_per_gpu": 1389.0, "pue": 1.3, "load_factor": 0.82, "tariff_usd_per_kwh": 0.078}
    assert whatif.interpolate(grids["cluster"], point, "cluster_facility_mw") == pytest.approx(180.57, rel=1e-9)
    # a year (8,760 h) of 180.57 MW drawn at the default load factor of 0.82 (measured H100 nodes;
    # data/cost_anchors.csv), at $0.078 per kWh: $101.2 million
    assert whatif.interpolate(grids["cluster"], point, "cluster_annual_electricity_usd") == pytest.approx(
        180.57 * 0.82 * 8760 * 1000 * 0.078, rel=1e-9)


@pytest.mark.parametrize("name", [n for n, p in whatif.PANELS.items() if p.command == "run"])
def test_command_sets_the_panel_inputs(name, grids):
    from analysis.chapters.registry import get_section, resolve_section

    g = grids[name]
    point = {a["name"]: a["points"][-1] for a in g["axes"]}
    words = shlex.split(whatif.command(g, point))
    assert words[:5] == ["python", "-m", "analysis", "run", g["section"]]
    given = dict(zip(words[6::3], words[7::3], strict=True))
    assert words[5::3] == ["-p"] * len(g["axes"])
    values = resolve_section(get_section(g["section"]), given)  # strings, as the command line passes them
    assert {k: values[k] for k in point} == pytest.approx(point)


def test_plan_command(grids):
    g = grids["plan"]
    cmd = whatif.command(g, {"tokens": 1.5e13, "gpus": 16384, "mfu": 0.4})  # the chapter's run: --mfu 0.404285
    assert cmd == ("python -m analysis plan --model llama31_405b --gpu h100_sxm --tokens 1.5e+13 --gpus 16384 "
                   "--mfu 0.4")


def test_panel_markup_is_escaped_and_names_the_command():
    markup = whatif.whatif_panel("tco")
    assert markup.startswith('<div class="whatif" data-panel="tco">')
    assert "python -m analysis run tco -p h100_allin_usd 250000" in markup
    assert "<script" not in markup


def test_write_grids_registers_each_panel(tmp_path):
    whatif.write_grids(tmp_path)
    for name in whatif.PANELS:
        text = (tmp_path / f"{name}.js").read_text()
        assert text.startswith("window.BOOK_WHATIF=window.BOOK_WHATIF||{};")
        assert whatif.read_grid(tmp_path / f"{name}.js")["name"] == name


# --- the chapters outside the build (JupyterLab): start() needs no results files ------------------

def test_start_computes_needed_chapters_outside_the_pipeline(monkeypatch):
    """Opened on its own (no ANALYSIS_RESULTS_DIR), a chapter's start() takes its parameters and
    computes the chapters it needs with them, as compute_section does, whatever results files the
    developer's own _build/ holds; a parameter it shares with them (the job size) reaches them."""
    from analysis.page.notebook import start

    monkeypatch.delenv("ANALYSIS_RESULTS_DIR", raising=False)
    P, upstream = start("downtime", {"job_gpus": 4_096}, show_parameters=False)
    assert P.job_gpus == 4_096 != whatif.base_values(whatif.PANELS["downtime"])["job_gpus"]
    assert set(upstream) == {"tco", "benchmarks", "uncertainty"}
    assert upstream["uncertainty"].parameters["job_gpus"] == 4_096
    # the TCO chapter takes no job size, so the TCO it reads is at the defaults
    assert upstream["tco"]["h100_tco_usd_per_gpu_hour"] == pytest.approx(
        compute_section("tco")["h100_tco_usd_per_gpu_hour"], rel=EXACT)


def test_start_inside_the_pipeline_still_needs_the_results(monkeypatch, tmp_path):
    from analysis.errors import ExecutionError
    from analysis.page.notebook import start

    monkeypatch.setenv("ANALYSIS_RESULTS_DIR", str(tmp_path))
    with pytest.raises(ExecutionError, match="no results for section"):
        start("downtime", {}, show_parameters=False)


def test_a_grid_changes_with_the_parameters_its_chain_reads_and_so_does_its_cache_key():
    """The downtime panel prices GPU-hours with the TCO chapter's chain, so a TCO input (PUE) moves
    its grid, and the inputs the build keys the grid's cache on (base_values) move with it."""
    panel = whatif.PANELS["downtime"]
    assert whatif.base_values(panel, {"pue": 1.15})["pue"] == 1.15 != whatif.base_values(panel)["pue"]
    point = {a.name: a.points[0] for a in panel.axes}
    at_115 = whatif.evaluate(panel, point, {"pue": 1.15})
    assert at_115["gb200_breakeven_speedup_with_downtime"] == pytest.approx(
        compute_section("downtime", {**point, "pue": 1.15, "mc_draws": 1_000})["gb200_breakeven_speedup_with_downtime"],
        rel=EXACT)
    assert at_115["gb200_breakeven_speedup_with_downtime"] != whatif.evaluate(panel, point)[
        "gb200_breakeven_speedup_with_downtime"]


@pytest.mark.parametrize("name", list(whatif.PANELS))
def test_a_panel_opens_at_its_chapters_worked_example(name, grids):
    """What a panel shows before a reader moves anything is what its chapter states: each output at
    the opening point equals the chapter's result (the plan panel: the plan chapter's Llama 3.1 405B
    run on 16,384 H100 at Meta's speed, not the book's 100,000-GPU cluster) within the panel's
    interpolation bound, and so does a build whose other chapters run with another ``gpus``."""
    panel, g = whatif.PANELS[name], grids[name]
    res = compute_section(panel.section, {})
    opening = {a["name"]: a["value"] for a in g["axes"]}
    for o in panel.outputs:
        shown, chapter = whatif.interpolate(g, opening, o.key), res[o.result or o.key]
        assert shown == pytest.approx(chapter, rel=max(TOLERANCE_REL[name], EXACT)), o.key
        fmt = whatif.reader_format(o.unit)  # and printed alike: '75.5 days', '$54.4M' in the box and the panel
        assert whatif.format_reader(fmt, shown) == whatif.format_reader(fmt, chapter), o.key
    if panel.command == "plan":  # the book's parameters never move a planner panel's opening point
        assert whatif.base_values(panel, {"gpus": 100_000, "mfu": 0.5, "days": 7.0}) == whatif.base_values(panel)
    if name == "plan":
        assert opening["gpus"] == res["plan_llama31_405b_gpus"] == 16384


PANEL_VALUES = (0.0123, 0.5, 1.0, 1.25, 7.5, 12.34, 99.4, 173.6, 520.94, 1389.0, 16384.0, 54167.0, 1.5e13, 97_280_282.0)


def test_the_pages_formats_are_the_books():
    """Every axis and output of every panel is written as the book writes that unit
    (:func:`analysis.page.formatting.format_quantity`): '$97.3M', '521 MW', '15 trillion tokens',
    '1.93x', '10 % per year', never a caret or e-notation."""
    from analysis.page.formatting import format_quantity

    units = {item.unit for p in whatif.PANELS.values() for item in (*p.axes, *p.outputs)}
    for unit in units:
        fmt = whatif.reader_format(unit)
        for value in PANEL_VALUES:
            shown = whatif.format_reader(fmt, value)
            assert shown == format_quantity(value, unit), (unit, value)
            assert "^" not in shown and "e+" not in shown, shown
