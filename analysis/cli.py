"""``python -m analysis``: list chapters, show parameters, rerun a chapter, build the book.

Exit codes: 0 success; 2 bad input (parameter, scenario or data file; nothing written);
1 failure while executing (the message names the section, cell and error).
"""

from __future__ import annotations

import argparse
import errno
import sys
from pathlib import Path

from analysis import plan_cli
from analysis.errors import ExecutionError, InputError
from analysis.pipeline.outputs import check_out_dir, clip, install_signal_handlers, staged

REPO_ROOT = Path(__file__).resolve().parent.parent


class Parser(argparse.ArgumentParser):
    """argparse, but usage errors are input errors (exit 2) with the same message style."""

    def error(self, message):
        self.print_usage(sys.stderr)
        raise InputError(message)


def _overrides(args) -> tuple[dict, dict]:
    from analysis.params import load_scenario

    overrides, origin = {}, {}
    if getattr(args, "scenario", None) is not None:  # `--scenario ''` is an error, not "no scenario"
        overrides, origin = load_scenario(args.scenario)
    for name, value in args.param or []:
        overrides[name] = value
        origin[name] = f"-p {name}: "
    return overrides, origin


def _check_params_belong(section, names) -> None:
    """``run SECTION -p NAME`` with a parameter that neither the section nor a section it needs
    (which ``run`` executes first) reads would change nothing: say so."""
    from analysis.sections import all_params, run_order

    involved = [s for level in run_order([section.name]) for s in level]
    for name in names:
        if name in all_params() and not any(name in s.param_map for s in involved):
            users = ", ".join(s.name for s in _users(name))
            raise InputError(f"-p {name}: chapter '{section.name}' does not use this parameter "
                             f"(it belongs to: {users}); `python -m analysis params {section.name}` lists its own")


def _users(name: str):
    from analysis.sections import SECTIONS

    return [s for s in SECTIONS if name in s.param_map]


def cmd_sections(args) -> int:
    from analysis.sections import SECTIONS

    for s in SECTIONS:
        print(f"{s.name:<10} {s.title}\n{'':<10} {s.question}")
    return 0


def cmd_params(args) -> int:
    from analysis.sections import get_section

    section = get_section(args.section)
    if not section.params:
        print(f"{section.name}: no parameters")
    for p in section.params:
        print(f"{p.name}\n  default: {p.default!r} {p.unit}\n  valid:   {p.describe_range()}\n"
              f"  what:    {p.description}\n  basis:   {p.basis}; source: {p.source or '-'}"
              f"{'; fact: ' + p.fact if p.fact else ''}\n"
              f"  why:     {p.why}")
    return 0


def _headline_table(section, results: dict) -> str:
    keys = section.headline or list(results)
    rows = [(results[k]["label"], f"{results[k]['value']:,.4g}", results[k]["unit"], k) for k in keys]
    if not rows:
        return "(this page summarises other chapters and records no results of its own)"
    widths = [max(len(r[i]) for r in rows) for i in range(3)]
    return "\n".join(f"{a:<{widths[0]}}  {b:>{widths[1]}}  {c:<{widths[2]}}  ({k})" for a, b, c, k in rows)


def cmd_run(args) -> int:
    from analysis.pipeline import kernels
    from analysis.sections import SECTIONS, run_order

    if args.section in {s.name for s in SECTIONS}:  # the kernel gets ready beside the checks below
        kernels.start_warm_kernel(REPO_ROOT, [s.name for level in run_order([args.section]) for s in level])
    from analysis import constraints
    from analysis.pipeline.build import resolve_all
    from analysis.pipeline.execute import execute_sections
    from analysis.results import load_results
    from analysis.sections import get_section

    section = get_section(args.section)
    out = check_out_dir(args.out)
    overrides, origin = _overrides(args)
    values = resolve_all(overrides, origin)  # everything is validated before anything is written
    _check_params_belong(section, [name for name, _ in args.param or []])
    involved = [s.name for level in run_order([section.name]) for s in level]
    constraints.check({name: values[name] for name in involved}, origin)
    # A staging folder of this process's own: a concurrent run into the same --out cannot mix files
    # with this one, and the numbers printed are read from this run's own staging copy.
    with staged(out) as stage:
        # The sections it needs come from the book's cache where their inputs are unchanged
        # (read only: a build may be running); the section itself always executes.
        execute_sections(values, REPO_ROOT, 0, REPO_ROOT / "_build" / "cache", stage, stage,
                         only=[section.name], always_run=(section.name,), cache_writable=False,
                         tables_out=stage)
        results = load_results(section.name, stage)["results"]
    print(f"{section.title} -> {out / (section.name + '.ipynb')}, {out / (section.name + '.json')}")
    print(_headline_table(section, results))
    return 0


def cmd_build(args) -> int:
    from analysis.pipeline.build import build_book

    overrides, origin = _overrides(args)
    label = None
    if args.scenario is not None:
        from analysis.scenarios import load

        label = load(args.scenario).label
    if args.param:
        changed = ", ".join(f"{name} = {clip(value)[1:-1]}" for name, value in args.param)
        label = f"{label}, with {changed}" if label else f"custom parameters ({changed})"
    report = build_book(overrides, origin, jobs=args.jobs, root=REPO_ROOT, scenario=label)
    ran = sum(not r.cached for r in report.records)
    print(f"Built in {report.seconds:.1f} s ({ran} section(s) executed, "
          f"{'render skipped: nothing changed' if report.unchanged else f'render {report.sphinx_seconds:.1f} s'}).")
    return 0


def cmd_compare(args) -> int:
    from analysis import scenarios
    from analysis.notebook import format_quantity
    from analysis.plots import compare_figure

    out = check_out_dir(args.out)
    loaded = [scenarios.load(path) for path in args.files]  # every file is checked before anything runs
    table = scenarios.compare(loaded)
    names = scenarios.column_names(loaded)  # one column per file given, same names told apart
    for name, s in zip(names, loaded, strict=True):
        print(f"{name}: {s.description}")
    width = max(len(label) for label in table["label"])
    print("\n" + " " * width + "  " + "  ".join(f"{n[:22]:>22}" for n in names))
    for _, row in table.iterrows():
        print(f"{row['label']:<{width}}  " + "  ".join(f"{format_quantity(row[n], row['unit'])[:22]:>22}" for n in names))
    with staged(out) as stage:
        table.to_csv(stage / "compare.csv")
        compare_figure(table, names).savefig(stage / "compare.png", bbox_inches="tight", metadata={"Software": None})
    print(f"\nWrote {out / 'compare.csv'} and {out / 'compare.png'}")
    return 0


def cmd_measure(args) -> int:
    from analysis.data import data_dir
    from analysis.measure import harness

    # one check of the folder, before the measurement runs: the given --out, or data/measured
    out = check_out_dir(args.out if args.out is not None else data_dir() / "measured")
    path, new = harness.run(args.device, args.quick, args.seed, out)
    print(harness.summary(path, new))
    return 0


def _seed(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        n = -1
    if not 0 <= n <= 2**32 - 1:
        raise argparse.ArgumentTypeError(f"--seed expects an integer from 0 to {2**32 - 1}, got {text!r}")
    return n


def _jobs(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        n = 0
    if not 1 <= n <= 64:
        raise argparse.ArgumentTypeError(f"--jobs expects an integer from 1 to 64, got {text!r}")
    return n


def make_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="python -m analysis", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True, parser_class=Parser)
    sub.add_parser("sections", help="list the chapters").set_defaults(func=cmd_sections)
    p = sub.add_parser("params", help="show a chapter's parameters")
    p.add_argument("section")
    p.set_defaults(func=cmd_params)
    for name, helptext in (("run", "rerun one chapter"), ("build", "build the whole book")):
        p = sub.add_parser(name, help=helptext)
        if name == "run":
            p.add_argument("section")
            p.add_argument("--out", default="_build/run", help="output folder (default: _build/run)")
        else:
            p.add_argument("--jobs", type=_jobs, default=2, help="parallel sections (default: 2)")
        p.add_argument("-p", "--param", nargs=2, action="append", metavar=("NAME", "VALUE"),
                       help="override a parameter (repeatable)")
        p.add_argument("--scenario", help="YAML file of parameter overrides")
        p.set_defaults(func=cmd_run if name == "run" else cmd_build)
    p = sub.add_parser("compare", help="key results of scenario files side by side")
    p.add_argument("files", nargs="+", metavar="SCENARIO.yaml")
    p.add_argument("--out", default="_build/compare", help="folder for compare.csv and compare.png")
    p.set_defaults(func=cmd_compare)
    p = sub.add_parser("measure", help="measure this machine: matmul peak and a small model's training step")
    p.add_argument("--device", choices=("cpu", "cuda"), default="cpu",
                   help="cpu (numpy) or cuda (needs PyTorch, requirements-gpu.txt); default: cpu")
    p.add_argument("--quick", action="store_true", help="small sizes, few repeats (seconds on a CPU)")
    p.add_argument("--out", help="folder of benchmarks_measured.csv; runs are appended (default: data/measured)")
    p.add_argument("--seed", type=_seed, default=0, help="seed of every random draw (default: 0)")
    p.set_defaults(func=cmd_measure)
    plan_cli.add_parser(sub)
    return parser


def _interrupted(exc: KeyboardInterrupt) -> str:
    from analysis.pipeline import build

    what = f"{exc.args[0]} received" if exc.args else "interrupted"
    if build.SWAPPED_IN:
        return f"{what} after the new book was swapped in; _build/html holds the finished book"
    return f"{what}: nothing was swapped in; the previous book and results are untouched"


def main(argv=None) -> int:
    install_signal_handlers()
    try:
        args = make_parser().parse_args(argv)
        return args.func(args)
    except InputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except ExecutionError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt as exc:
        print(_interrupted(exc), file=sys.stderr)
        return 130
    except OSError as exc:  # the machine, not the input: a full disk, a folder gone read-only
        if exc.errno == errno.ENOSPC:
            print(f"error: no space left on device while writing {exc.filename or 'the output'}; "
                  "nothing was swapped in", file=sys.stderr)
        else:
            print(f"error: {exc.strerror or exc}: {exc.filename or ''}", file=sys.stderr)
        return 1
