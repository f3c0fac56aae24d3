"""``python -m analysis plan``: its flags, their checks and its output. :mod:`analysis.cli`
registers it with :func:`add_parser`; the arithmetic is :mod:`analysis.planner`'s.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import replace

from analysis.build import paths
from analysis.errors import InputError, finite_or_refused
from analysis.params.grammar import number_flag
from analysis.planner import report_csv

_number = number_flag  # one number grammar with -p and scenario files (analysis.params.grammar)

# The planner's numeric flags and the PlanInputs field each sets (None: required, no default). When a
# plan is not finite, finite_or_refused leaves each optional flag at its default in turn to name
# the one at fault.
PLAN_FIELDS = {"--mfu": "mfu", "--tokens-per-s-per-gpu": "tokens_per_s_per_gpu", "--achieved-tflops": "achieved_tflops",
               "--usd-per-gpu-hour": "usd_per_gpu_hour", "--pue": "pue", "--tariff-usd-per-kwh": "tariff_usd_per_kwh",
               "--grid-kg-co2-per-kwh": "grid_g_co2_per_kwh", "--checkpoint-write-seconds": "checkpoint_write_seconds",
               "--restart-minutes": "restart_minutes", "--tokens": None, "--gpus": None, "--params": None,
               "--active-params": None, "--layers": None, "--hidden": None, "--seq-len": None}


def _plan_numbers(args) -> dict:
    """The numeric plan flags given, optional ones first (the likelier cause of an overflow)."""
    given = {f: getattr(args, f[2:].replace("-", "_")) for f in PLAN_FIELDS}
    return {f: v for f, v in sorted(given.items(), key=lambda fv: PLAN_FIELDS[fv[0]] is None) if v is not None}


def _plan_without(planner, inputs, flag: str | None):
    """The plan of ``inputs``, with ``flag`` (if given) left at the planner's default."""
    if flag is None:
        return planner.plan(inputs)
    if PLAN_FIELDS[flag] is None:
        return None
    unset = {PLAN_FIELDS[flag]: None, **({"flops_counted": None} if flag == "--achieved-tflops" else {})}
    return planner.plan(replace(inputs, **unset))


def _model(args, load_table):
    from analysis import planner

    if (args.model is None) == (args.params is None):
        raise InputError("give exactly one of --model and --params")
    if args.params is not None:
        missing = [f for f, v in (("--layers", args.layers), ("--hidden", args.hidden), ("--seq-len", args.seq_len)) if v is None]
        if missing:
            raise InputError(f"--params needs {', '.join(missing)}")
        if args.active_params is not None and args.active_params > args.params:
            raise InputError(f"--active-params ({args.active_params:g}) must not exceed --params ({args.params:g})")
        return planner.model_from_shape(args.params, args.layers, args.hidden, args.seq_len, args.active_params)
    if args.active_params is not None:
        raise InputError("--active-params goes with --params (a registry model has its own active parameters)")
    known = load_table("models")["model_id"].tolist()
    if args.model not in known:
        raise InputError(f"--model {args.model}: unknown model; known: {', '.join(known)}")
    model = planner.model_from_registry(args.model)
    if args.seq_len is not None:
        model["seq_len"] = args.seq_len
    return model


def _check_choices(args, load_table) -> None:
    """Every flag whose valid values come from data: checked before any arithmetic."""
    from analysis.planner import power

    gpus_known = load_table("gpus")["gpu_id"].tolist()
    if args.gpu is not None and args.gpu not in gpus_known:
        raise InputError(f"--gpu {args.gpu}: unknown GPU; known: {', '.join(gpus_known)}")
    if args.grid is not None and args.grid not in power.grid_ids():
        raise InputError(f"--grid {args.grid}: unknown grid; known: {', '.join(power.grid_ids())}")
    if args.grid is not None and args.grid_kg_co2_per_kwh is not None:
        raise InputError("give at most one of --grid and --grid-kg-co2-per-kwh")
    given = [f for f, v in (("--mfu", args.mfu), ("--tokens-per-s-per-gpu", args.tokens_per_s_per_gpu),
                            ("--achieved-tflops", args.achieved_tflops)) if v is not None]
    if len(given) > 1:
        raise InputError(f"conflicting throughput flags {' and '.join(given)}: give at most one")
    if args.flops_counted is not None and args.mfu is None and args.achieved_tflops is None:
        raise InputError("--flops-counted says which FLOPs --mfu or --achieved-tflops counts; give one of them with it")
    if args.full_recompute and given:
        raise InputError(f"--full-recompute scales an estimated MFU; with {given[0]} given it would change nothing: "
                         "say which FLOPs a given figure counts with --flops-counted hardware-full instead")
    _check_inverse(args)
    inverse = args.days is not None or args.budget_usd is not None
    if args.tokens is None and not (args.budget_usd is not None and args.days is not None):
        raise InputError("give --tokens (only --budget-usd with --days may leave it out: then the plan says the tokens "
                         "the budget buys)")
    if args.power_mw is None and not inverse:
        missing = [f for f, v in (("--gpu", args.gpu), ("--gpus", args.gpus)) if v is None]
        if missing:
            raise InputError(f"give {' and '.join(missing)} (or --power-mw for the largest job a power budget fits, "
                             "--days for the job a deadline needs, --budget-usd for what a budget buys)")
    elif args.power_mw is not None and args.gpus is not None:
        raise InputError("give at most one of --gpus and --power-mw (the budget sets the GPU count)")
    if args.power_basis is not None and args.power_mw is None:
        raise InputError("--power-basis goes with --power-mw")
    if args.gpu is not None and args.precision == "fp8":
        from analysis.hardware import gpu
        if gpu(args.gpu)["fp8_dense_tflops"] != gpu(args.gpu)["fp8_dense_tflops"]:  # NaN: no FP8 path
            raise InputError(f"--precision fp8: {args.gpu} has no FP8 tensor path")


def _check_inverse(args) -> None:
    """The inverse modes' flags: each a positive, finite number (argparse checks the range), and
    never beside --gpus, which they set."""
    for flag, value in (("--days", args.days), ("--budget-usd", args.budget_usd)):
        if value is not None and args.gpus is not None:
            raise InputError(f"{flag} sets the GPU count: give {flag} or --gpus, not both")


def _check_outputs(doc: dict) -> None:
    """The one place a plan's outputs are checked before anything is printed or written: every
    result is a finite number or null (not modelled)."""
    import math

    for key, r in doc.get("results", {}).items():
        for field in ("value", "p10", "p50", "p90"):
            v = r.get(field)
            if v is not None and not math.isfinite(v):
                raise InputError(f"the plan's {key} ({field}) is not finite ({v}): the inputs are outside what the "
                                 "model can answer; check --tokens, --gpus and the throughput")


def cmd_plan(args) -> int:
    from analysis import planner
    from analysis.data.load import load_table
    from analysis.planner import report

    model = _model(args, load_table)
    _check_choices(args, load_table)
    inputs = planner.PlanInputs(
        model=model, tokens=args.tokens if args.tokens is not None else 1.0, gpu_id=args.gpu, gpus=args.gpus or 1, precision=args.precision, mfu=args.mfu,
        tokens_per_s_per_gpu=args.tokens_per_s_per_gpu, achieved_tflops=args.achieved_tflops,
        flops_counted=args.flops_counted, usd_per_gpu_hour=args.usd_per_gpu_hour, pue=args.pue,
        tariff_usd_per_kwh=args.tariff_usd_per_kwh, grid_id=args.grid,
        grid_g_co2_per_kwh=None if args.grid_kg_co2_per_kwh is None else args.grid_kg_co2_per_kwh * 1_000.0,
        energy_basis=args.energy_basis, checkpoint_write_seconds=args.checkpoint_write_seconds,
        restart_minutes=args.restart_minutes, failure_model=args.failure_model, full_recompute=args.full_recompute)
    name = model.get("name", args.model)
    try:
        if args.days is not None or args.budget_usd is not None:
            doc, text = _inverse(args, inputs, name)
        elif args.power_mw is not None:
            from analysis.planner import budget, report_budget

            basis = args.power_basis or "facility"
            if args.gpu is not None:
                answer = budget.largest_job(inputs, args.power_mw, basis)
                doc = report_budget.answer_json(answer, args.power_mw, basis)
                text = report_budget.format_answer(answer, args.power_mw, basis, name, args.tokens)
            else:
                rows = budget.budget_table(inputs, args.power_mw, basis)
                doc = report_budget.table_json(rows, args.power_mw, basis)
                text = report_budget.format_budget_table(rows, args.power_mw, basis, name, args.tokens, args.precision)
            doc = {"schema_version": planner.inputs.SCHEMA_VERSION, "mode": "power", **doc}
        else:
            # an overflow is an exit 2 naming the flag behind it, never Infinity or NaN in the output
            result = finite_or_refused(lambda flag: _plan_without(planner, inputs, flag), _plan_numbers(args),
                                       planner.Plan.to_json, "plan")
            doc = result.to_json()
            text = report.format_table(result, report.title(name, args.tokens, args.gpus, args.gpu, args.precision))
    except planner.PlanError as exc:
        raise InputError(str(exc)) from None
    _check_outputs(doc if "results" in doc else doc.get("plan") or {})
    for row in doc.get("rows", []):
        _check_outputs(row.get("plan") or {})
    doc = {"schema_version": planner.inputs.SCHEMA_VERSION, **doc}  # docs/schemas/plan.schema.json
    body = report_csv.to_csv(doc, args.gpu).rstrip("\n") if args.csv else json.dumps(doc, indent=2, allow_nan=False)
    if args.out is not None:  # checked before any work (analysis.cli.check_outputs); written whole or not at all
        paths.write_text_atomic(paths.check_out_file("--out", args.out), body + "\n")
    print(body if args.json or args.csv else text)
    if args.out is not None and not (args.json or args.csv):
        print(f"\nWrote {args.out}")
    return 0


def _inverse(args, inputs, name: str) -> tuple[dict, str]:
    """``--days`` and ``--budget-usd``: (the JSON document, the readable text)."""
    from analysis.planner import SCHEMA_VERSION, inverse, inverse_table, report_inverse

    basis = args.power_basis or "facility"
    tokens_given = args.tokens is not None
    if args.budget_usd is None:  # a deadline
        if args.gpu is not None:
            answer = inverse.deadline_job(inputs, args.days, args.power_mw, basis)
            doc = {"schema_version": SCHEMA_VERSION, "mode": "deadline",
                   **report_inverse.deadline_json(answer, inverse_table.throughput_evidence(args.gpu, args.precision))}
            return doc, report_inverse.format_deadline(answer, name, args.tokens, args.precision)
        rows = inverse_table.deadline_table(inputs, args.days, args.power_mw, basis)
        best = inverse_table.best_of(rows, "cost")
        return (report_inverse.deadline_table_json(rows, best, args.days),
                report_inverse.format_deadline_table(rows, best, args.days, name, args.tokens, args.precision))
    buys = "days" if tokens_given else "tokens"
    rows = inverse_table.spend_table(inputs, args.budget_usd, args.days, tokens_given, args.gpu, args.power_mw, basis)
    if args.gpu is not None and len(rows) == 1 and "answer" in rows[0]:
        a = rows[0]["answer"]
        doc = {"schema_version": SCHEMA_VERSION, "mode": "budget",
               **report_inverse.spend_json(a, rows[0]["evidence"], rows[0]["proxy"])}
        return doc, report_inverse.format_spend(a, name, args.precision)
    if not any("answer" in r for r in rows):
        reasons = "; ".join(f"{r['gpu_id']} ({r['tier']}): {r['reason']}" for r in rows) or "no priced accelerator"
        raise planner_error(f"--budget-usd {args.budget_usd:g}: no accelerator and price tier gives an answer: {reasons}")
    best = inverse_table.best_of(rows, buys)
    return (report_inverse.spend_table_json(rows, best, args.budget_usd, args.days, buys),
            report_inverse.format_spend_table(rows, best, args.budget_usd, args.days, buys, name, args.tokens, args.precision))


def planner_error(message: str):
    from analysis.planner import PlanError

    return PlanError(message)


def add_parser(sub) -> argparse.ArgumentParser:
    """Add the ``plan`` subcommand and its flags to ``sub`` (argparse subparsers)."""
    p = sub.add_parser("plan", help="plan a training run: days, GPU-hours, cost, energy, carbon (with bands)")
    what = p.add_argument_group("the run")
    what.add_argument("--model", help="a model id from data/models.csv")
    what.add_argument("--params", type=_number("--params", float, 1e6, 1e15), help="instead of --model: parameters")
    what.add_argument("--active-params", type=_number("--active-params", float, 1e6, 1e15), help="active parameters (MoE)")
    what.add_argument("--layers", type=_number("--layers", int, 1, 10_000, low_open=False), help="layers (with --params)")
    what.add_argument("--hidden", type=_number("--hidden", int, 1, 1e7, low_open=False), help="hidden size (with --params)")
    what.add_argument("--seq-len", type=_number("--seq-len", int, 1, 1e8, low_open=False), help="sequence length")
    what.add_argument("--tokens", type=_number("--tokens", float, 1e3, 1e18),
                      help="tokens to train on (required, except with --budget-usd and --days)")
    what.add_argument("--gpu", help="a GPU id from data/gpus.csv (with --power-mw and no --gpu: every priced one)")
    what.add_argument("--gpus", type=_number("--gpus", int, 1, 10_000_000, low_open=False), help="GPUs in the job")
    what.add_argument("--precision", choices=("bf16", "fp16", "fp8"), default="bf16",
                      help="training precision (default bf16; fp16 runs at the 16-bit tensor peak)")
    what.add_argument("--power-mw", type=_number("--power-mw", float, 0, 1e5),
                      help="instead of --gpus: the largest job this power budget fits, in MW")
    what.add_argument("--power-basis", choices=("facility", "it"),
                      help="what --power-mw counts: facility (all-in IT x PUE, the default) or it (IT power alone)")
    back = p.add_argument_group("plan backwards (instead of --gpus; without --gpu, every priced accelerator)")
    back.add_argument("--days", type=_number("--days", float, 0, 36_500),
                      help="a deadline in days of wall clock, failures included: the smallest job that meets it")
    back.add_argument("--budget-usd", type=_number("--budget-usd", float, 0, 1e13),
                      help="a budget in USD: with --tokens the days it buys, with --days the tokens it buys by then")
    speed = p.add_argument_group("how fast (at most one; none: an MFU estimated from benchmarks and published runs)")
    speed.add_argument("--mfu", type=_number("--mfu", float, 0, 1), help="model FLOPs utilization, a fraction")
    speed.add_argument("--tokens-per-s-per-gpu", type=_number("--tokens-per-s-per-gpu", float, 0, 1e9), help="measured throughput")
    speed.add_argument("--achieved-tflops", type=_number("--achieved-tflops", float, 0, 1e5), help="achieved TFLOP/s per GPU")
    speed.add_argument("--flops-counted", choices=("model-6n", "model", "hardware-selective", "hardware-full"),
                       help="which FLOPs --mfu or --achieved-tflops counts: model-6n (6N only), model (6N plus attention), "
                            "hardware-selective or hardware-full (with recomputation); without it the band spans 6N, "
                            "6N plus attention and hardware FLOPs with full recomputation")
    speed.add_argument("--full-recompute", action="store_true",
                       help="the run recomputes every layer's forward pass (full activation checkpointing): an "
                            "estimated MFU counts that extra work out")
    money = p.add_argument_group("prices and power")
    money.add_argument("--usd-per-gpu-hour", type=_number("--usd-per-gpu-hour", float, 0, 1e4), help="GPU-hour price")
    money.add_argument("--pue", type=_number("--pue", float, 1, 3, low_open=False), help="power usage effectiveness")
    money.add_argument("--tariff-usd-per-kwh", type=_number("--tariff-usd-per-kwh", float, 0, 1, low_open=False), help="electricity price (TCO)")
    money.add_argument("--energy-basis", choices=("gpu-tdp", "facility"),
                       help="energy the plan leads with: gpu-tdp (GPU TDP x GPU-hours, x PUE if given) or facility "
                            "(all-in IT power x PUE); default facility where the GPU has a sourced build-up")
    money.add_argument("--grid", help="a grid from data/grid_carbon.csv (default: the US average)")
    money.add_argument("--grid-kg-co2-per-kwh", type=_number("--grid-kg-co2-per-kwh", float, 0, 2, low_open=False),
                       help="a custom grid carbon intensity (instead of --grid)")
    fail = p.add_argument_group("failures")
    # The short spellings are the flags' first names, kept so existing commands still work.
    fail.add_argument("--checkpoint-write-seconds", "--checkpoint-write-s", dest="checkpoint_write_seconds",
                      type=_number("--checkpoint-write-seconds", float, 0, 86_400), help="seconds to write a checkpoint")
    fail.add_argument("--restart-minutes", "--restart-min", dest="restart_minutes",
                      type=_number("--restart-minutes", float, 0, 10_000), help="minutes to restart after a failure")
    fail.add_argument("--failure-model", choices=("per-gpu", "measured-fit"), default="per-gpu",
                      help="per-GPU rates (Llama 3) or a fit to measured job failures")
    out = p.add_argument_group("output")
    form = out.add_mutually_exclusive_group()
    form.add_argument("--json", action="store_true", help="print one JSON object (docs/schemas/plan.schema.json)")
    form.add_argument("--csv", action="store_true",
                      help="print one CSV row per quantity: value, unit, P10, P50, P90 and basis, for spreadsheets")
    out.add_argument("--out", help="save the result to this file (JSON, or CSV with --csv)")
    p.set_defaults(func=cmd_plan)
    return p
