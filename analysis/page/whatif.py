"""What-if panels: readers move sliders on the published page and the numbers follow, offline.

No model is written twice. The build evaluates each panel's chain on a small grid over its sliders,
all grid points at once (the chain functions take arrays), and writes the grid to
``_static/whatif/<panel>.js``; ``book/static/whatif.js`` only interpolates between grid points
(multilinear, in log space on axes marked ``log``), exactly as :func:`interpolate` does here. At a
grid point the page shows the Python value itself; between points the interpolation error is
bounded by ``tests/test_whatif.py`` (``TOLERANCE_REL``).

Each panel's chain is the function its chapter calls for the same result keys: the GPU-hour cost
and the reference token's cost (:func:`analysis.chapters.bands.evaluate`, over
:mod:`analysis.chapters.gpu_cost`), GB200's useful shares and break-even with downtime
(:mod:`analysis.chapters.downtime`, pricing GPU-hours with the TCO chapter's chain), the cluster's
power (:func:`analysis.chapters.cluster.power`), the cluster job's goodput
(:func:`analysis.chapters.reliability.cluster_time_shares`) and the planner
(:func:`analysis.planner.plan`). A chain that also reads another chapter's parameters names that
chapter (``inputs_from``), so its grid's inputs, and the build's cache key for it, include them.
The tests check the grid against :func:`analysis.chapters.compute_section` at sample points.

    python -m analysis.page.whatif OUT_DIR     # write the grids (the build does this itself)
"""

from __future__ import annotations

import html
import itertools
import json
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from analysis import benchmarks, planner
from analysis import reliability as rel
from analysis.chapters import bands, cluster, downtime, gpu_cost, reliability
from analysis.chapters.registry import get_section, resolve_section
from analysis.data.load import derived, load_table
from analysis.page import formatting
from analysis.page.whatif_plan import DEADLINE_MODEL, budget_base, deadline_base, plan_budget, plan_deadline
from analysis.params.parameters import Parameters
from analysis.planner import backtest
from analysis.units import MINUTES_PER_HOUR

GRID_FOLDER = "whatif"  # under the book's static folder: _static/whatif/<panel>.js


@dataclass(frozen=True)
class Axis:
    """One slider: a chapter parameter (``-p name value``) or, for the planner, a ``plan`` flag."""

    name: str
    label: str
    unit: str
    points: tuple[float, ...]
    scale: str = "linear"  # "log": interpolate in log(x) (job sizes); "inverse": in 1/x (exact for a cost per used hour)
    step: float = 0.0  # slider step in the input's unit (0: continuous)
    flag: str | None = None  # the `python -m analysis plan` flag, for planner panels
    # the outputs are linear along this axis (in x, or in 1/x on "inverse" axes) for fixed other
    # inputs, so the grid interpolates it exactly; on every other axis the grid also holds the
    # panel's opening value, so that the page opens at the chapter's own numbers, not near them
    exact: bool = False


@dataclass(frozen=True)
class Output:
    key: str  # the chapter's result key (or the plan's)
    label: str
    unit: str  # the page writes values as analysis.page.formatting.format_quantity does for this unit
    scale: str = "linear"  # "log": interpolate log(value) (exact for a power law of log axes, e.g. MTBF ~ 1/GPUs)
    result: str = ""  # the chapter's result key this output equals at the panel's opening point (default: key)


@dataclass(frozen=True)
class Panel:
    name: str
    section: str  # the chapter (page) whose parameters the sliders set
    title: str
    axes: tuple[Axis, ...]
    outputs: tuple[Output, ...]
    # P -> {output key: values}: the chapter's parameters (and those of ``inputs_from``) with the
    # axes as equal-length arrays
    evaluate: Callable[[Parameters], dict]
    inputs_from: tuple[str, ...] = ()  # other chapters whose parameters the chain reads
    command: str = "run"  # "run": python -m analysis run SECTION -p ...; "plan": python -m analysis plan ...
    fixed_flags: tuple[tuple[str, str], ...] = ()  # plan flags the panel holds fixed
    note: str = ""
    extra: dict = field(default_factory=dict)


# --- the chains: each is the function its chapter calls for the same keys ------------------------------

def _tco(P) -> dict:
    return bands.evaluate(P, ["h100_tco_usd_per_gpu_hour", "llama31_405b_bf16_usd_per_million_tokens"],
                          tokens_per_s=benchmarks.reference_tokens_per_s())


def _downtime(P) -> dict:
    rates = rel.llama3_rates()
    h100, gb200 = (gpu_cost.tco_usd_per_gpu_hour(P, s) for s in ("h100", "gb200"))  # as the TCO chapter prices them
    shares = downtime.useful_shares(P, P.job_gpus, rates)
    return {"gb200_breakeven_speedup_with_downtime": downtime.breakeven_with_downtime(P, h100, gb200, P.job_gpus, rates),
            "gb200_useful_frac": shares["gb200"][2], "h100_useful_frac": shares["h100"][2]}


def _cluster(P) -> dict:
    return cluster.power(P)


def _goodput(P) -> dict:
    job = reliability.cluster_time_shares(P, rel.llama3_snapshot())
    return {"cluster_goodput_frac": job["shares"]["useful training"],
            "cluster_job_mtbf_minutes": job["job_mtbf_hours"] * MINUTES_PER_HOUR}


PLAN_MODEL, PLAN_GPU = "llama31_405b", "h100_sxm"


def _plan(P) -> dict:
    """The planner, one grid point at a time (it plans one run)."""
    points = np.broadcast_arrays(np.asarray(P.tokens, dtype=float), np.asarray(P.gpus, dtype=float),
                                 np.asarray(P.mfu, dtype=float))
    model = planner.model_from_registry(PLAN_MODEL)
    out = {k: [] for k in ("days_with_failures", "cost_usd", "energy_mwh")}
    for tokens, gpus, mfu in zip(*(a.ravel() for a in points), strict=True):
        result = planner.plan(planner.PlanInputs(model=model, tokens=float(tokens), gpu_id=PLAN_GPU,
                                                 gpus=int(round(gpus)), mfu=float(mfu), draws=2))
        for k in out:
            out[k].append(result.results[k]["value"])
    return {k: np.asarray(v) for k, v in out.items()}


def _log_points(lo: float, hi: float, n: int, digits: int) -> tuple[float, ...]:
    """``n`` points from ``lo`` to ``hi``, evenly spaced in log(x), rounded to ``digits`` decimals."""
    return tuple(float(round(x, digits)) for x in np.geomspace(lo, hi, n))


PANELS: dict[str, Panel] = {p.name: p for p in (
    Panel("tco", "tco", "What if: TCO per GPU-hour and per million tokens",
          axes=(Axis("h100_allin_usd", "H100 server, all-in", "USD per 8-GPU server",
                     (190_000.0, 350_000.0), step=5_000, exact=True),  # from the server price it includes
                # from 3 years: the default warranty (3 years) must not outlast the life
                Axis("useful_life_years", "Useful life", "years", (3.0, 4.0, 5.0, 6.0, 7.0), "inverse", step=0.5),
                Axis("cost_of_capital", "Cost of capital", "fraction per year", (0.0, 0.05, 0.10, 0.15, 0.20), step=0.01),
                Axis("utilization", "Utilization", "fraction", (0.4, 0.7, 1.0), "inverse", step=0.05, exact=True),
                Axis("h100_it_w_per_gpu", "IT power per H100", "W", (1000.0, 1800.0), step=50, exact=True),
                Axis("pue", "PUE", "ratio", (1.05, 1.6), step=0.05, exact=True),
                Axis("tariff_usd_per_kwh", "Electricity tariff", "USD/kWh", (0.03, 0.20), step=0.005, exact=True)),
          outputs=(Output("h100_tco_usd_per_gpu_hour", "H100 TCO per GPU-hour", "USD"),
                   Output("llama31_405b_bf16_usd_per_million_tokens", "Llama 3.1 405B BF16 per 1M tokens", "USD")),
          evaluate=_tco,
          note="For fixed other inputs, TCO per GPU-hour is linear in the server price, the IT power, the PUE and the "
               "tariff and in 1 / utilization, so the grid interpolates those axes exactly; life and cost of capital "
               "are interpolated between the points shown."),
    Panel("downtime", "downtime", "What if: GB200's break-even speed-up with downtime",
          axes=(Axis("job_gpus", "Job size", "GPUs", (1024.0, 2048.0, 4096.0, 8192.0, 16384.0, 32768.0, 65536.0,
                                                        131072.0), "log", step=1),
                Axis("gb200_nvlink_faults_per_rack_month", "NVLink backplane faults", "per rack-month",
                     (0.0, 0.5, 1.0, 2.0, 4.0), step=0.1),
                Axis("gb200_repair_hours", "GB200 rack repair time", "hours", (12.0, 24.0, 48.0, 96.0, 168.0), step=1),
                Axis("gb200_gpu_fault_ratio", "GB200 / H100 GPU fault rate", "x", (0.5, 1.0, 1.5, 2.0, 3.0), step=0.1)),
          outputs=(Output("gb200_breakeven_speedup_with_downtime", "GB200 break-even speed-up with downtime", "x", "log"),
                   Output("gb200_useful_frac", "GB200 share of paid GPU-hours that train", "fraction", "log"),
                   Output("h100_useful_frac", "H100 share of paid GPU-hours that train", "fraction", "log")),
          evaluate=_downtime, inputs_from=("tco",)),
    Panel("cluster", "cluster", "What if: the cluster's power and electricity bill",
          axes=(Axis("gpus", "GPUs", "GPUs", (10_000.0, 50_000.0, 100_000.0, 200_000.0, 300_000.0), step=1000, exact=True),
                Axis("h100_it_w_per_gpu", "IT power per H100", "W", (1000.0, 1800.0), step=10, exact=True),
                Axis("pue", "PUE", "ratio", (1.05, 1.6), step=0.01, exact=True),
                Axis("load_factor", "Average draw, share of rated", "fraction", (0.5, 1.0), step=0.01, exact=True),
                Axis("tariff_usd_per_kwh", "Electricity tariff", "USD/kWh", (0.03, 0.20), step=0.005, exact=True)),
          outputs=(Output("cluster_facility_mw", "Power at the utility meter, rated (capacity)", "MW"),
                   Output("cluster_annual_electricity_usd", "Electricity bill per year, at the average draw", "USD")),
          evaluate=_cluster,
          note="The meter's capacity is at the rated power; the bill is at the average draw (the rated power x the "
               "share of it drawn while training). Both are products of the inputs, so the grid interpolates them "
               "exactly."),
    Panel("goodput", "reliability", "What if: goodput against job size and checkpoint interval",
          # 13 points per axis, evenly spaced in log(x) and rounded: goodput bends sharply where the
          # checkpoint write rivals the interval and the job MTBF
          axes=(Axis("gpus", "Job size", "GPUs", _log_points(1024, 262_144, 13, 0), "log", step=1),
                Axis("checkpoint_interval_steps", "Checkpoint every", "steps", _log_points(10, 1000, 13, 0), "log",
                     step=1),
                Axis("checkpoint_write_seconds", "Checkpoint write", "s", _log_points(1, 120, 13, 1), "log", step=1)),
          outputs=(Output("cluster_goodput_frac", "Expected goodput", "fraction"),
                   Output("cluster_job_mtbf_minutes", "Job MTBF", "minutes", "log")),
          evaluate=_goodput),
    Panel("plan", "plan", "What if: plan a Llama 3.1 405B run on H100",
          axes=(Axis("tokens", "Training tokens", "tokens", (1e12, 30e12), "log", step=1e11, flag="--tokens",
                     exact=True),
                Axis("gpus", "GPUs", "GPUs", (2048.0, 4096.0, 8192.0, 16384.0, 32768.0, 65536.0), "log", step=1,
                     flag="--gpus"),
                Axis("mfu", "MFU", "fraction", (0.25, 0.4, 0.55), "log", step=0.01, flag="--mfu", exact=True)),
          outputs=(Output("days_with_failures", "Wall-clock days with failures", "days", "log",
                          result="plan_llama31_405b_days_with_failures"),
                   Output("cost_usd", "Cost of the GPU-hours at the book's H100 TCO", "USD", "log",
                          result="plan_llama31_405b_cost_usd"),
                   Output("energy_mwh", "Energy at the meter, average draw", "MWh", "log",
                          result="plan_llama31_405b_energy_facility_mwh")),
          evaluate=_plan, command="plan",
          fixed_flags=(("--model", PLAN_MODEL), ("--gpu", PLAN_GPU)),
          note="Days, cost and energy are proportional to the token count and to 1 / MFU, so the grid (interpolating "
               "their logarithms on log axes) is exact along those axes; job size is interpolated between the points "
               "shown."),
    Panel("plan_deadline", "plan", "What if: the H100s a deadline needs for Llama 3.1 70B",
          axes=(Axis("days", "Deadline", "days", (20.0, 30.0, 45.0, 60.0, 90.0, 120.0, 180.0, 270.0, 365.0), "log",
                     step=1, flag="--days"),
                Axis("tokens", "Training tokens", "tokens", (1e12, 2e12, 4e12, 8e12, 15e12), "log", step=1e11,
                     flag="--tokens")),
          outputs=(Output("gpus", "H100s needed (whole 8-GPU nodes)", "GPUs", "log", result="plan_deadline_h100_gpus"),
                   Output("days_with_failures", "Days it takes, failures included", "days", "log",
                          result="plan_deadline_h100_days_with_failures"),
                   Output("cost_usd", "Cost of the GPU-hours at the book's H100 TCO", "USD", "log",
                          result="plan_deadline_h100_cost_usd"),
                   Output("energy_facility_mwh", "Energy at the meter, average draw", "MWh", "log",
                          result="plan_deadline_h100_energy_facility_mwh")),
          evaluate=plan_deadline, command="plan",
          fixed_flags=(("--model", DEADLINE_MODEL), ("--gpu", PLAN_GPU)),
          note="The GPUs a deadline needs are close to a power law of the tokens over the days, which the grid "
               "interpolates in logarithms; whole nodes, the MFU's slow fall with job size and, past the largest "
               "published job, strong scaling bend it between the points shown. Where the days shown exceed the "
               "deadline, no size meets it: the panel shows the fastest.",
          extra={"base": deadline_base}),
    Panel("plan_budget", "plan", "What if: the tokens a budget buys on H100 by a deadline",
          # up to the budgets a 60-day deadline can spend below the size where more H100s train no more (16,384)
          axes=(Axis("budget_usd", "Budget", "USD", (1e6, 2e6, 5e6, 1e7, 2e7, 3e7), "log", step=1e5,
                     flag="--budget-usd"),
                Axis("days", "Deadline", "days", (60.0, 90.0, 120.0, 180.0, 270.0, 365.0), "log", step=1, flag="--days")),
          outputs=(Output("trillion_tokens", "Tokens bought (Llama 3.1 70B)", "trillion tokens", "log",
                          result="plan_budget_usd_h100_book_tco_trillion_tokens"),
                   Output("gpus", "H100s that spend it by the deadline", "GPUs", "log", result="plan_budget_usd_h100_book_tco_gpus")),
          evaluate=plan_budget, command="plan",
          fixed_flags=(("--model", DEADLINE_MODEL), ("--gpu", "h100_sxm")),
          note="Priced at the book's H100 TCO. The tokens a budget buys grow with it nearly in proportion, so the "
               "grid interpolates their logarithms; the smallest job that spends it in time is whole nodes, and "
               "the MFU falls slowly with size, which bends both between the points shown.",
          extra={"base": budget_base}),
)}


# --- grids ---------------------------------------------------------------------------------------

@derived  # a pure function of the data, asked for by every base_values call of the plan panel
def plan_base() -> dict:
    """The plan panel's opening point, the plan chapter's worked example: Llama 3.1 405B's published
    run (its tokens and GPUs, data/backtest_runs.csv) at the MFU of Meta's published throughput, as
    the planner computes it. ``_plan`` reads only these."""
    r = load_table("backtest_runs").set_index("run_id", drop=False).loc[PLAN_MODEL]
    mfu = planner.plan(backtest.inputs_for(r)).steps["mfu"]
    # six digits, as the command writes it: the panel opens at the chapter's days, dollars and MWh to the digit
    return {"tokens": float(r["tokens"]), "gpus": int(r["gpus"]), "mfu": round(float(mfu), 6)}


def base_values(panel: Panel, overrides: dict | None = None) -> dict:
    """The parameters the panel's chain reads: its chapter's and those of ``inputs_from``
    (defaults, then ``overrides``), as :func:`analysis.chapters.compute_section` applies them;
    for the planner, the plan chapter's worked example (:func:`plan_base`), whatever the build's
    parameters: the book's ``gpus`` (the 100,000-GPU cluster) or ``mfu`` are not the run the
    chapter plans, and a panel opened at them showed a run the chapter never states. The build
    keys each grid's cache on these."""
    if panel.command == "plan":
        return panel.extra["base"]() if "base" in panel.extra else plan_base()
    values = {}
    for name in panel.inputs_from:
        values.update(resolve_section(get_section(name), dict(overrides or {})))
    return {**values, **resolve_section(get_section(panel.section), dict(overrides or {}))}


def check_panel(panel: Panel) -> None:
    """Each chapter axis is one of its section's parameters, its points inside the parameter's
    valid range and increasing; ValueError otherwise."""
    params = get_section(panel.section).param_map if panel.command == "run" else {}
    for axis in panel.axes:
        pts = axis.points
        if len(pts) < 2 or any(b <= a for a, b in zip(pts, pts[1:], strict=False)):
            raise ValueError(f"what-if {panel.name}: axis {axis.name} needs increasing points")
        if panel.command == "run":
            if axis.name not in params:
                raise ValueError(f"what-if {panel.name}: {axis.name} is not a parameter of {panel.section}")
            p = params[axis.name]
            if (p.low is not None and pts[0] < p.low) or (p.high is not None and pts[-1] > p.high):
                raise ValueError(f"what-if {panel.name}: {axis.name} points leave its valid range")


def evaluate(panel: Panel, points: dict, overrides: dict | None = None) -> dict:
    """The panel's outputs at ``points`` (axis name -> a value, or equal-length arrays of values),
    the other inputs at the base values: the chapter's own chain, not an interpolation."""
    P = Parameters({**base_values(panel, overrides),
                    **{name: np.asarray(value, dtype=float) for name, value in points.items()}})
    chain = panel.evaluate(P)
    out = {o.key: np.asarray(chain[o.key], dtype=float) for o in panel.outputs}
    if all(np.ndim(v) == 0 for v in points.values()):  # one point: plain numbers
        return {k: float(v.reshape(-1)[0]) for k, v in out.items()}
    return out


def grid(panel: Panel, overrides: dict | None = None) -> dict:
    """The panel's grid: every combination of the axes' points (with the opening value added on the
    axes that are not :attr:`Axis.exact`), evaluated at once by the panel's chain, outputs
    flattened in C order (the last axis varies fastest)."""
    check_panel(panel)
    base = base_values(panel, overrides)
    start = {a.name: float(min(max(base.get(a.name, a.points[0]), a.points[0]), a.points[-1])) for a in panel.axes}
    points = {a.name: a.points if a.exact else tuple(sorted({*a.points, start[a.name]})) for a in panel.axes}
    combos = np.array(list(itertools.product(*(points[a.name] for a in panel.axes))), dtype=float)
    out = evaluate(panel, {a.name: combos[:, i] for i, a in enumerate(panel.axes)}, overrides)
    values = {o.key: [float(v) for v in np.broadcast_to(out[o.key], (len(combos),))] for o in panel.outputs}
    return {"name": panel.name, "section": panel.section, "title": panel.title, "command": panel.command,
            "fixed_flags": [list(f) for f in panel.fixed_flags], "note": panel.note,
            "axes": [{"name": a.name, "label": a.label, "unit": a.unit, "points": list(points[a.name]), "scale": a.scale,
                      "step": a.step, "flag": a.flag, "value": start[a.name], "format": reader_format(a.unit)}
                     for a in panel.axes],
            "outputs": [{"key": o.key, "label": o.label, "unit": o.unit, "scale": o.scale, "format": reader_format(o.unit)}
                        for o in panel.outputs],
            "values": values}


_KINDS = {"money": formatting.money, "percent": formatting.percent, "times": formatting.times,
          "number": formatting.number, "count": formatting.count}


def reader_format(unit: str) -> dict:
    """How the page writes a value of ``unit``, as :func:`analysis.page.formatting.format_quantity`
    writes it for readers: the kind of number (``money``, ``percent``, ``times``, ``count`` or
    ``number``, each a function of that module that ``book/static/whatif.js`` repeats) and the
    unit's text after it (``one``: after exactly 1, where the unit has a singular)."""
    unit = unit.strip()
    if formatting.is_money_unit(unit):
        kind = "money"
    elif unit.startswith("fraction"):
        kind = "percent"
    elif unit == "x":
        kind = "times"
    elif formatting.is_count_unit(unit):
        kind = "count"
    else:
        kind = "number"
    head = _KINDS[kind]
    return {"kind": kind, "suffix": formatting.format_quantity(2.0, unit)[len(head(2.0)):],
            "one": formatting.format_quantity(1.0, unit)[len(head(1.0)):]}


def format_reader(fmt: dict, value: float) -> str:
    """``value`` written as :func:`reader_format`'s ``fmt`` says (what the page shows); a count
    that is not whole is a plain number, as :func:`analysis.page.formatting.format_quantity` writes it."""
    kind = fmt["kind"]
    if kind == "count" and not (float(value).is_integer() or abs(value) >= 1e6):
        kind = "number"
    return _KINDS[kind](value) + (fmt["one"] if value == 1 else fmt["suffix"])


def interpolate(g: dict, point: dict, key: str) -> float:
    """Multilinear interpolation of output ``key`` of grid ``g`` at ``point`` (axis name -> value),
    in log(x) on log axes and in 1/x on inverse axes (of log(value) for outputs on a log scale); values outside an axis are clamped to its ends. The reference for
    ``book/static/whatif.js``'s ``interpolate``, which does the same arithmetic."""
    axes, data = g["axes"], g["values"][key]
    log_values = next(o for o in g["outputs"] if o["key"] == key)["scale"] == "log"
    shape = [len(a["points"]) for a in axes]
    corners = []  # per axis: ((index, weight), (index, weight))
    for a in axes:
        pts = np.asarray(a["points"], dtype=float)
        x = min(max(float(point[a["name"]]), pts[0]), pts[-1])
        if a["scale"] == "log":
            pts, x = np.log(pts), np.log(x)
        elif a["scale"] == "inverse":  # increasing in -1/x
            pts, x = -1.0 / pts, -1.0 / x
        i = int(min(max(np.searchsorted(pts, x, side="right") - 1, 0), len(pts) - 2))
        t = (x - pts[i]) / (pts[i + 1] - pts[i])
        corners.append(((i, 1.0 - t), (i + 1, t)))
    total = 0.0
    for combo in itertools.product(*corners):
        w = float(np.prod([c[1] for c in combo]))
        if w:
            value = data[int(np.ravel_multi_index([c[0] for c in combo], shape))]
            total += w * (np.log(value) if log_values else value)
    return float(np.exp(total)) if log_values else total


def command(g: dict, point: dict | None = None) -> str:
    """The command that reproduces the panel's state (the page builds the same string)."""
    point = point or {a["name"]: a["value"] for a in g["axes"]}
    if g["command"] == "plan":
        flags = [f"{f} {v}" for f, v in g["fixed_flags"]] + [f"{a['flag']} {_fmt(point[a['name']])}" for a in g["axes"]]
        return "python -m analysis plan " + " ".join(flags)
    return f"python -m analysis run {g['section']} " + " ".join(f"-p {a['name']} {_fmt(point[a['name']])}"
                                                                for a in g["axes"])


def _fmt(x: float) -> str:
    return str(int(x)) if float(x).is_integer() and abs(x) < 1e12 else f"{x:g}"


def grid_script(panel: Panel, overrides: dict | None = None) -> str:
    """The ``<panel>.js`` file's text: a script that registers the panel's grid in
    ``window.BOOK_WHATIF``, so the page works from file:// too."""
    doc = json.dumps(grid(panel, overrides), separators=(",", ":"))
    return ("window.BOOK_WHATIF=window.BOOK_WHATIF||{};\n"
            f"window.BOOK_WHATIF[{json.dumps(panel.name)}]={doc};\n")


def write_grids(dest: Path, overrides: dict | None = None) -> dict[str, float]:
    """Write ``dest/<panel>.js`` (:func:`grid_script`) for every panel. Returns seconds per panel."""
    dest = Path(dest)
    dest.mkdir(parents=True, exist_ok=True)
    seconds = {}
    for panel in PANELS.values():
        t0 = time.perf_counter()
        (dest / f"{panel.name}.js").write_text(grid_script(panel, overrides), encoding="utf-8")
        seconds[panel.name] = time.perf_counter() - t0
    return seconds


def read_grid(path: Path) -> dict:
    """The grid a ``<panel>.js`` file registers (for tests and tools)."""
    text = Path(path).read_text(encoding="utf-8")
    return json.loads(text.split("=", 2)[-1].strip().rstrip(";"))


def whatif_panel(name: str) -> str:
    """The panel's container markup for a chapter page: ``book/static/whatif.js`` fills it from the
    grid. Without JavaScript (or in JupyterLab) it says how to rerun instead."""
    panel = PANELS[name]
    base = base_values(panel)
    cmd = command({"command": panel.command, "section": panel.section, "fixed_flags": list(panel.fixed_flags),
                   "axes": [{"name": a.name, "flag": a.flag} for a in panel.axes]},
                  {a.name: base[a.name] for a in panel.axes})
    return (f'<div class="whatif" data-panel="{html.escape(name)}">'
            f'<p class="whatif-title"><strong>{html.escape(panel.title)}</strong></p>'
            f'<p class="whatif-fallback">This interactive panel needs the published book (JavaScript). '
            f'Rerun it here with <code>{html.escape(cmd)}</code>.</p></div>')


if __name__ == "__main__":  # python -m analysis.page.whatif OUT_DIR
    out = write_grids(Path(sys.argv[1] if len(sys.argv) > 1 else "whatif-grids"))
    print(", ".join(f"{k} {v:.2f} s" for k, v in out.items()), f"total {sum(out.values()):.2f} s")
