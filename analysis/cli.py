"""``python -m analysis``: list chapters, show parameters, rerun a chapter, build the book, keep
the notebooks' parameters cells in step with the parameter definitions.

Exit codes: 0 success; 2 bad input (parameter, scenario or data file, output path, a read-only
folder; nothing written); 1 failure while executing (the message names the section, cell and
error); 130 interrupted (Ctrl-C, SIGTERM, SIGHUP).
"""

from __future__ import annotations

import argparse
import errno
import os
import sys
from pathlib import Path

from analysis.build import paths
from analysis.build.outputs import clip, install_signal_handlers, staged
from analysis.errors import ExecutionError, InputError, echo, terminal_safe
from analysis.params.grammar import NEGATIVE_VALUE
from analysis.planner import cli as plan_cli

REPO_ROOT = Path(__file__).resolve().parent.parent


class Parser(argparse.ArgumentParser):
    """argparse, but usage errors are input errors (exit 2) with the same message style."""

    def error(self, message):
        self.print_usage(sys.stderr)
        raise InputError(message)


def _overrides(args) -> tuple[dict, dict]:
    from analysis.params.scenario_file import load_scenario

    overrides, origin = {}, {}
    if getattr(args, "scenario", None) is not None:  # `--scenario ''` is an error, not "no scenario"
        overrides, origin = load_scenario(args.scenario)
    for name, value in args.param or []:
        overrides[name] = value
        origin[name] = f"-p {echo(name)}: "
    return overrides, origin


def _check_params_belong(section, names) -> None:
    """``run SECTION -p NAME`` with a parameter that neither the section nor a section it needs
    (which ``run`` executes first) reads would change nothing: say so."""
    from analysis.chapters.registry import all_params, in_order

    involved = in_order([section.name])
    for name in names:
        if name in all_params() and not any(name in s.param_map for s in involved):
            users = ", ".join(s.name for s in _users(name))
            raise InputError(f"-p {name}: chapter '{section.name}' does not use this parameter "
                             f"(it belongs to: {users}); `python -m analysis params {section.name}` lists its own")


def _users(name: str):
    from analysis.chapters.registry import SECTIONS

    return [s for s in SECTIONS if name in s.param_map]


def cmd_sections(args) -> int:
    from analysis.chapters.registry import SECTIONS

    for s in SECTIONS:
        print(f"{s.name:<10} {s.title}\n{'':<10} {s.question}")
    return 0


def cmd_params(args) -> int:
    from analysis.chapters.registry import get_section

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
    """The headline results as the book prints them ($31,250 per GPU, 1.73x: the chapter's answer
    box, :func:`analysis.page.formatting.result_value`), each with its key."""
    from analysis.page.formatting import result_value

    keys = section.headline or list(results)
    rows = [(results[k]["label"], result_value(results[k]["value"], results[k]["unit"]), k) for k in keys]
    if not rows:
        return "(this page summarises other chapters and records no results of its own)"
    widths = [max(len(r[i]) for r in rows) for i in range(2)]
    return "\n".join(f"{a:<{widths[0]}}  {b:>{widths[1]}}  ({k})" for a, b, k in rows)


def cmd_run(args) -> int:
    from analysis.build.book import resolve_all
    from analysis.build.run import run_section
    from analysis.chapters import check_inputs
    from analysis.chapters.registry import get_section, in_order

    section = get_section(args.section)
    out = paths.check_out_dir("--out", args.out if args.out is not None else REPO_ROOT / "_build" / "run", staged_beside=True)
    overrides, origin = _overrides(args)
    values = resolve_all(overrides, origin)  # everything is validated before anything is written
    _check_params_belong(section, [name for name, _ in args.param or []])
    involved = [s.name for s in in_order([section.name])]
    check_inputs({name: values[name] for name in involved}, origin)
    # A staging folder of this process's own: a concurrent run into the same --out cannot mix files
    # with this one, and the numbers printed are this run's own.
    with staged(out) as stage:
        results = run_section(section.name, overrides, values, REPO_ROOT, stage, notebook=args.notebook)
    written = [out / f"{section.name}.json", *([out / f"{section.name}.ipynb"] if args.notebook else [])]
    print(f"{section.title} -> {', '.join(str(p) for p in written)}")
    print(_headline_table(section, results))
    return 0


def cmd_build(args) -> int:
    from analysis.build.book import build_book

    overrides, origin = _overrides(args)
    label = None
    if args.scenario is not None:
        from analysis.chapters.compare import load

        label = load(args.scenario).label
    if args.param:
        changed = ", ".join(f"{name} = {clip(value)[1:-1]}" for name, value in args.param)
        label = f"{label}, with {changed}" if label else f"custom parameters ({changed})"
    report = build_book(overrides, origin, jobs=args.jobs, root=REPO_ROOT, scenario=label)
    ran = sum(not r.cached for r in report.records)
    rendered = "nothing changed, so nothing to render" if report.unchanged else f"rendered in {report.sphinx_seconds:.1f} s"
    print(f"Built in {report.seconds:.1f} s: {ran} chapter(s) run, {len(report.records) - ran} from the cache, "
          f"{rendered}. Open {REPO_ROOT / '_build' / 'html' / 'index.html'}")
    return 0


def cmd_compare(args) -> int:
    from analysis.chapters import compare as scenarios
    from analysis.page.notebook import format_quantity
    from analysis.page.plots import compare_figure

    out = paths.check_out_dir("--out", args.out, staged_beside=True)
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
        scenarios.write_csv(table, stage / "compare.csv")
        compare_figure(table, names).savefig(stage / "compare.png", bbox_inches="tight", metadata={"Software": None})
    print(f"\nWrote {out / 'compare.csv'} and {out / 'compare.png'}")
    return 0


def cmd_notebooks(args) -> int:
    """Check (or with ``--sync`` rewrite) each notebook's parameters cell against
    analysis/params/defaults.py (:mod:`analysis.page.parameter_cells`)."""
    from analysis.page import parameter_cells

    changed = parameter_cells.sync(REPO_ROOT, write=args.sync)
    names = ", ".join(str(p.relative_to(REPO_ROOT)) for p in changed)
    if args.sync:
        print(f"Rewrote the parameters cell of {names}." if changed else "Every parameters cell matches defaults.py.")
        return 0
    if changed:
        raise ExecutionError(f"the parameters cell of {names} differs from analysis/params/defaults.py; "
                             "run `python -m analysis notebooks --sync`")
    print("Every parameters cell matches defaults.py.")
    return 0


def cmd_measure(args) -> int:
    from analysis.data.load import data_dir
    from analysis.measure import harness

    # one check of the folder, before the measurement runs: the given --out, or data/measured
    out = paths.check_out_dir("--out", args.out if args.out is not None else data_dir() / "measured")
    path, new = harness.run(args.device, args.quick, args.seed, out)
    print(harness.summary(path, new))
    return 0


def _seed(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        n = -1
    if not 0 <= n <= 2**32 - 1:
        raise argparse.ArgumentTypeError(f"--seed expects an integer from 0 to {2**32 - 1}, got {clip(text)}")
    return n


def _jobs(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        n = 0
    if not 1 <= n <= 64:
        raise argparse.ArgumentTypeError(f"--jobs expects an integer from 1 to 64, got {clip(text)}")
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
            p.add_argument("--out", help="output folder (default: _build/run in the project)")
            p.add_argument("--notebook", action="store_true",
                           help="also execute the chapter's notebook (papermill) into the output folder")
        else:
            p.add_argument("--jobs", type=_jobs, default=2, help="parallel sections (default: 2)")
        p.add_argument("-p", "--param", nargs=2, action="append", metavar=("NAME", "VALUE"),
                       help="override a parameter (repeatable)")
        # `-p NAME -inf` arrives here as `--assign NAME=-inf` (see _values_not_flags)
        p.add_argument("--assign", dest="param", action="append", type=_name_value, help=argparse.SUPPRESS)
        p.add_argument("--scenario", help="YAML file of parameter overrides")
        p.set_defaults(func=cmd_run if name == "run" else cmd_build)
    p = sub.add_parser("compare", help="key results of scenario files side by side")
    p.add_argument("files", nargs="+", metavar="SCENARIO.yaml")
    p.add_argument("--out", default=str(REPO_ROOT / "_build" / "compare"),
                   help="folder for compare.csv and compare.png (default: _build/compare in the project)")
    p.set_defaults(func=cmd_compare)
    p = sub.add_parser("measure", help="measure this machine: matmul peak and a small model's training step")
    p.add_argument("--device", choices=("cpu", "cuda"), default="cpu",
                   help="cpu (numpy) or cuda (needs PyTorch, requirements-gpu.txt); default: cpu")
    p.add_argument("--quick", action="store_true", help="small sizes, few repeats (seconds on a CPU)")
    p.add_argument("--out", help="folder of benchmarks_measured.csv; runs are appended (default: data/measured)")
    p.add_argument("--seed", type=_seed, default=0, help="seed of every random draw (default: 0)")
    p.set_defaults(func=cmd_measure)
    p = sub.add_parser("notebooks", help="check each notebook's parameters cell against defaults.py")
    p.add_argument("--sync", action="store_true", help="rewrite the parameters cells from analysis/params/defaults.py")
    p.set_defaults(func=cmd_notebooks)
    plan_cli.add_parser(sub)
    return parser


def _name_value(text: str) -> list[str]:
    name, _, value = text.partition("=")
    return [name, value]


def _values_not_flags(argv: list[str]) -> list[str]:
    """``argv`` with each word that is a value though argparse would take it for a flag (``-inf``,
    ``-1e5``: inputs.NEGATIVE_VALUE) joined to the option before it: ``--gpus -inf`` becomes
    ``--gpus=-inf`` and ``-p gpus -inf`` becomes ``--assign gpus=-inf``, so the value reaches its
    check and the message gives the valid range."""
    out: list[str] = []
    for i, word in enumerate(argv):
        if word == "--":
            return out + argv[i:]
        if NEGATIVE_VALUE.match(word) and out:
            if len(out) >= 2 and out[-2] in ("-p", "--param"):
                name = out.pop()
                out[-1:] = ["--assign", f"{name}={word}"]
                continue
            if out[-1].startswith("--") and "=" not in out[-1]:
                out[-1] = f"{out[-1]}={word}"
                continue
        out.append(word)
    return out


# What each command's --out names: a file (plan), a folder (measure appends to its table there) or
# a folder whose files are staged beside it and moved in at the end (run, compare).
OUT_KINDS = {"run": "staged folder", "compare": "staged folder", "measure": "folder", "plan": "file"}


def check_outputs(args) -> None:
    """Check ``--out`` before the command does any work (exit 2 naming the flag; analysis.build.paths)."""
    kind, out = OUT_KINDS.get(args.command), getattr(args, "out", None)
    if out is None or kind is None:
        return
    if kind == "file":
        paths.check_out_file("--out", out)
    else:
        paths.check_out_dir("--out", out, staged_beside=kind == "staged folder")


# What an interrupt leaves, per command (the build's sentence depends on how far its swap got).
STOPPED = {"run": "the run stopped; results reach --out only when a run completes",
           "compare": "the comparison stopped; compare.csv and compare.png reach --out only when it completes",
           "plan": "planning stopped; --out is written only when a plan completes",
           "measure": "the measurement stopped; rows are appended only when a measurement completes"}


def _interrupted(exc: KeyboardInterrupt, command: str | None = None) -> str:
    what = f"{exc.args[0]} received" if exc.args else "interrupted"
    if command != "build":
        return f"{what}: {STOPPED[command]}" if command in STOPPED else what
    from analysis.build import book

    if book.SWAPPED_IN:
        return f"{what} after the new book was swapped in; _build/html holds the finished book"
    return f"{what}: nothing was swapped in; the previous book and results are untouched"


def os_error_exit(exc: OSError) -> tuple[int, str]:
    """Exit code and sentence for an OSError no command turned into an input error. A folder that
    cannot be written (read-only file system, no permission) is the user's to fix: exit 2; a full
    disk or another fault of the machine: exit 1."""
    where = exc.filename or "the output"
    if exc.errno == errno.ENOSPC:
        return 1, f"no space left on device while writing {where}; nothing was swapped in"
    if exc.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
        return 2, f"cannot write {where}: {exc.strerror}; give a writable location"
    return 1, f"{exc.strerror or exc}: {exc.filename or ''}"


def _quiet_stdout() -> None:
    """After a closed pipe (``plan --json | head -c 10``): point stdout at /dev/null so the final
    flush at exit finds nothing to write (the recipe in Python's signal module documentation)."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)


def main(argv=None) -> int:
    install_signal_handlers()
    args = None
    try:
        args = make_parser().parse_args(_values_not_flags(sys.argv[1:] if argv is None else list(argv)))
        check_outputs(args)
        code = args.func(args)
        sys.stdout.flush()  # a reader that went away shows here, inside the handlers below
        return code
    except BrokenPipeError:  # the reader has what it wanted: not an error
        _quiet_stdout()
        return 0
    except InputError as exc:
        print(f"error: {terminal_safe(str(exc))}", file=sys.stderr)
        return 2
    except ExecutionError as exc:
        print(f"error: {terminal_safe(str(exc))}", file=sys.stderr)
        return 1
    except KeyboardInterrupt as exc:
        print(_interrupted(exc, getattr(args, "command", None)), file=sys.stderr)
        return 130
    except OSError as exc:
        code, message = os_error_exit(exc)
        print(f"error: {terminal_safe(message)}", file=sys.stderr)
        return code
