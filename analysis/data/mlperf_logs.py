"""Rebuild ``data/mlperf_training.csv`` and ``data/mlperf_convergence.csv`` from local checkouts of
mlcommons' MLPerf Training results repositories and of mlcommons/logging. The book never runs
this: it reads the committed CSVs, so a build stays offline.

    python -m analysis.data.mlperf_logs --logging ~/src/logging@7bbf792 \\
        v4.0=~/src/training_results_v4.0@6fe9543 v5.1=~/src/training_results_v5.1 ...

``ROUND=DIR[@COMMIT]``: a checkout (or a copy of its ``*/results`` and ``*/systems`` folders) and
the commit it holds; without ``@COMMIT`` the commit is read with ``git -C DIR rev-parse HEAD``.

Each benchmark of each submission is scored by MLPerf's own rule, as mlcommons/logging's
``result_summarizer`` computes it (training rules, "Benchmark Results" and "Score scaling"):

- every ``result_*.txt`` is one run, its time ``run_stop - run_start`` (the ``time_ms`` of the first
  of each ``:::MLLOG`` key); a run whose ``run_stop`` status is not ``success`` did not converge;
- the fastest and the slowest run are dropped (a non-converged run counts as the slowest; more than
  one makes the result invalid; a log without ``run_stop`` is such a run) and the rest averaged: an olympic mean over 3 runs for the LLM
  pretraining benchmarks and 10 for the others (``data/mlperf_benchmarks.csv``, ``runs_required``);
- the mean is multiplied by the factor in ``scaling.json`` where the review committee set one
  (RCP normalisation: a submission that converged in fewer samples than the reference).
- MLPerf Power, where measured (``power/result_N/node_*.txt`` and ``sw_*.txt``), is integrated the
  same way (``power_reading`` x time between readings, scaled to the run's time and ``conversion_eff``)
  and averaged over the runs the time score keeps, then scaled.

Bad input stops the rebuild with exit code 2 and one sentence naming the file and line: a malformed
``:::MLLOG`` line, a system file without an accelerator
count, or a benchmark folder that ``data/mlperf_benchmarks.csv`` does not list. Nothing is written
unless every file reads.
"""

from __future__ import annotations

import argparse
import csv
import glob
import json
import os
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TOKEN = ":::MLLOG "
OUTPUT_TRAINING = ROOT / "data" / "mlperf_training.csv"
OUTPUT_CONVERGENCE = ROOT / "data" / "mlperf_convergence.csv"
REPOSITORY = "mlcommons/training_results_{round}"
LOGGING_REPOSITORY = "mlcommons/logging"
# accelerator_model_name in systems/*.json -> data/gpus.csv id; first match wins; no match: no id
ACCELERATORS = (
    (r"GB300", "gb300_nvl72"), (r"GB200", "gb200_nvl72"), (r"B200", "b200_hgx"),
    (r"H200-SXM", "h200_sxm"), (r"H100", "h100_sxm"), (r"A100", "a100_sxm_80gb"),
    (r"MI355X", "mi355x"), (r"MI325X", "mi325x"), (r"MI300X", "mi300x"),
    (r"TPU-v5p", "tpu_v5p"), (r"TPU-trillium", "tpu_v6e"), (r"(?i)ironwood|tpu7x", "tpu7x_ironwood"),
)
PRECISIONS = (("FP8", "fp8"), ("FP4", "fp4"), ("BF16", "bf16"))
COLUMNS = ["result_id", "round", "benchmark", "submitter", "system", "system_name", "division", "availability",
           "accelerator", "gpu_id", "accelerators", "nodes", "framework", "precision", "global_batch_size",
           "runs", "runs_converged", "minutes_fastest", "minutes_slowest", "olympic_minutes", "scaling_factor",
           "score_minutes", "energy_j", "energy_scope", "log_defects", "source_id", "repository", "commit", "path"]
CONVERGENCE_COLUMNS = ["rcp_id", "round", "benchmark", "batch_size", "runs", "mean_to_converge", "unit",
                       "source_id", "repository", "commit", "path"]


class LogError(ValueError):
    """Bad input to the rebuild; the message names the file and line."""


@dataclass
class Run:
    minutes: float
    converged: bool
    batch: int | None
    org: str | None
    division: str | None
    start_ms: float
    stop_ms: float
    defects: list


# The keys the score reads; a malformed line of any other key (published logs hold a few, e.g. a
# submitter's search-and-replace run through an init_start line) is skipped and counted.
SCORED_KEYS = {"run_start", "run_stop", "global_batch_size", "submission_org", "submission_division",
               "power_measurement_start", "power_measurement_stop", "power_reading", "conversion_eff",
               "interconnect_power_est"}


def _events(path: str, defects: list | None = None):
    """(line number, event) for every ``:::MLLOG`` line of ``path``; anything before the token (a
    rank prefix such as ``0: ``) is dropped, as mlcommons/logging's parser does. A line that does
    not parse stops the rebuild, unless ``defects`` is given and the line names a key the score
    does not read: then its line number is appended to ``defects``."""
    with open(path, encoding="latin-1") as f:
        for lineno, line in enumerate(f, start=1):
            at = line.find(TOKEN)
            if at < 0:
                continue
            rest = line[at + len(TOKEN):]
            try:
                event = json.loads(rest)
                float(event["time_ms"])
                event["key"]
            except (ValueError, KeyError, TypeError) as exc:
                key = re.search(r'"key": ?"([A-Za-z0-9_]+)"', rest)
                if defects is not None and key and key.group(1) not in SCORED_KEYS:
                    defects.append(lineno)
                    continue
                raise LogError(f"{path}:{lineno}: malformed {TOKEN.strip()} line ({exc})") from None
            yield lineno, event


def read_run(path: str) -> Run:
    """One run's time to train in minutes, whether it converged, and its submission metadata."""
    first: dict[str, dict] = {}
    defects: list[int] = []
    for lineno, event in _events(path, defects):
        event["_line"] = lineno
        first.setdefault(event["key"], event)
    batch = first.get("global_batch_size", {}).get("value")
    org, division = first.get("submission_org", {}).get("value"), first.get("submission_division", {}).get("value")
    if "run_start" not in first or "run_stop" not in first:
        # result_summarizer drops such a run ("run_stop not recorded"): it did not converge
        return Run(float("inf"), False, int(batch) if batch is not None else None, org, division, 0.0, 0.0, defects)
    start, stop = float(first["run_start"]["time_ms"]), float(first["run_stop"]["time_ms"])
    if stop < start:
        raise LogError(f"{path}:{first['run_stop']['_line']}: run_stop ({stop:.0f} ms) is before run_start ({start:.0f} ms)")
    status = (first["run_stop"].get("metadata") or {}).get("status")
    return Run((stop - start) / 60_000.0, status == "success", int(batch) if batch is not None else None,
               org, division, start, stop, defects)


def olympic(minutes: list[float], converged: list[bool]) -> tuple[float | None, list[int]]:
    """MLPerf's olympic score: drop the fastest and the slowest run (a non-converged run is the
    slowest; more than one makes the result invalid, None) and average the rest. Returns the score
    and the indices of the runs it keeps, in order of time."""
    failed = converged.count(False)
    if failed > 1 or len(minutes) < 3:
        return None, []
    order = sorted((i for i in range(len(minutes)) if converged[i]), key=lambda i: minutes[i])
    keep = order[1:] if failed else order[1:-1]
    return sum(minutes[i] for i in keep) / len(keep), keep


def _json_line(path: str, key: str) -> int:
    with open(path, encoding="utf-8") as f:
        for lineno, line in enumerate(f, start=1):
            if f'"{key}"' in line:
                return lineno
    return 1


def read_system(path: str) -> dict:
    """A ``systems/*.json`` file with its accelerator count (nodes x accelerators per node)."""
    try:
        with open(path, encoding="utf-8") as f:
            desc = json.load(f)
    except FileNotFoundError:
        raise LogError(f"{path}:1: no system description for this results folder") from None
    except json.JSONDecodeError as exc:
        raise LogError(f"{path}:{exc.lineno}: not valid JSON ({exc.msg})") from None
    counts = {}
    for key in ("number_of_nodes", "accelerators_per_node"):
        raw = str(desc.get(key, "")).strip()
        if not raw.isdigit() or int(raw) < 1:
            where = _json_line(path, key)
            raise LogError(f"{path}:{where}: {key} must be a whole number of at least 1, not {raw!r}")
        counts[key] = int(raw)
    name = str(desc.get("accelerator_model_name", "")).strip()
    if not name:
        raise LogError(f"{path}:{_json_line(path, 'accelerator_model_name')}: no accelerator_model_name")
    desc["_accelerators"] = counts["number_of_nodes"] * counts["accelerators_per_node"]
    desc["_nodes"] = counts["number_of_nodes"]
    return desc


def source_id_for(round_: str) -> str:
    """The ``data/sources.csv`` id of a round's results repository: v5.1 -> mlcommons_training_results_v5_1."""
    return "mlcommons_training_results_" + round_.replace(".", "_")


def gpu_id_for(accelerator: str) -> str:
    for pattern, gpu_id in ACCELERATORS:
        if re.search(pattern, accelerator):
            return gpu_id
    return ""


def precision_for(desc: dict) -> str:
    """The training precision where the system file states it (its notes), else ""."""
    notes = " ".join(str(desc.get(k, "")) for k in ("sw_notes", "hw_notes", "framework"))
    stated = {p for word, p in PRECISIONS if re.search(rf"\b{word}\b", notes, re.I)}
    return stated.pop() if len(stated) == 1 else ""


def _power_j(folder: str, result: str, time_ms: float) -> tuple[float | None, str]:
    """MLPerf Power's energy of one run in joules (result_summarizer's _compute_total_power)."""
    name = Path(result).stem
    nodes = sorted(glob.glob(os.path.join(folder, "power", name, "node_*.txt")))
    switches = sorted(glob.glob(os.path.join(folder, "power", name, "sw_*.txt")))
    if not nodes:
        return None, ""
    total = 0.0
    for path in nodes:
        events = sorted((e for _, e in _events(path)), key=lambda e: float(e["time_ms"]))
        agg, prev, start, stop, last, eff = 0.0, None, None, None, 0.0, 1.0
        for e in events:
            t = float(e["time_ms"])
            if e["key"] == "power_measurement_start":
                start = prev = t
            elif e["key"] == "power_reading" and start is not None and stop is None:
                agg += float(e["value"]) * (t - prev)
                prev, last = t, max(last, t)
            elif e["key"] == "power_measurement_stop":
                stop = t
            elif e["key"] == "conversion_eff":
                eff = float(e["value"])
        if start is None:
            raise LogError(f"{path}:1: no power_measurement_start event")
        window = (stop if stop is not None else last) - start
        if window <= 0:  # MLPerf's own summarizer divides by zero here: the run's energy cannot be scored
            return None, f"not scorable: {Path(path).parent.name}/{Path(path).name} logs power_measurement_stop at its start"
        total += eff * agg * time_ms / window / 1000.0
    for path in switches:
        eff, watts = 1.0, 0.0
        for _, e in _events(path):
            if e["key"] == "conversion_eff":
                eff = float(e["value"])
            if e["key"] == "interconnect_power_est":
                watts = float(e["value"])
                break
        total += eff * watts * time_ms / 1000.0
    return total, "nodes and switches" if switches else "nodes"


def _benchmarks(path: Path) -> dict[str, dict]:
    with open(path, encoding="utf-8", newline="") as f:
        return {r["benchmark"]: r for r in csv.DictReader(f)}


def _submitter(desc: dict, orgs: set, folder: str) -> str:
    """The system file's submitter (as result_summarizer prints it), else the logs' submission_org,
    else the submission folder; placeholders such as SUBMISSION_ORG_PLACEHOLDER are skipped."""
    for name in (str(desc.get("submitter", "")).strip(), *(sorted(orgs) if len(orgs) == 1 else [])):
        if name and not re.search(r"PLACEHOLDER|UNKNOWN", name, re.I):
            return name
    return folder


def score_folder(folder: str, benchmark: dict, round_: str, commit: str, root: str) -> dict:
    """One result (a submission's benchmark folder) as a ``mlperf_training.csv`` row."""
    files = sorted(glob.glob(os.path.join(folder, "result_*.txt")))
    runs = [read_run(f) for f in files]
    minutes = [r.minutes for r in runs]
    converged = [r.converged for r in runs]
    score, keep = olympic(minutes, converged)
    parts = Path(folder).relative_to(root).parts  # <submitter>/results/<system>/<benchmark>
    system_path = os.path.join(root, parts[0], "systems", f"{parts[2]}.json")
    desc = read_system(system_path)
    factor = 1.0
    scaling = os.path.join(folder, "scaling.json")
    if os.path.exists(scaling):
        try:
            with open(scaling, encoding="utf-8") as f:
                factor = float(json.load(f)["scaling_factor"])
        except (ValueError, KeyError, TypeError) as exc:
            raise LogError(f"{scaling}:1: no usable scaling_factor ({exc})") from None
    energy, scope = None, ""
    if os.path.isdir(os.path.join(folder, "power")) and keep:
        per_run = [_power_j(folder, files[i], runs[i].stop_ms - runs[i].start_ms) for i in keep]
        if all(e is not None for e, _ in per_run):
            energy, scope = sum(e for e, _ in per_run) / len(per_run) * factor, per_run[0][1]
        else:
            scope = next(s for e, s in per_run if e is None)
    done = [r.minutes for r in runs if r.converged]
    batches = sorted(r.batch for r in runs if r.batch is not None)
    orgs = {r.org for r in runs if r.org}
    divisions = {r.division for r in runs if r.division}
    rel = "/".join(parts)
    return {
        "result_id": re.sub(r"[^a-z0-9]+", "_", f"{round_}_{parts[0]}_{parts[2]}_{parts[3]}".lower()).strip("_"),
        "round": round_, "benchmark": benchmark["benchmark"],
        "submitter": _submitter(desc, orgs, parts[0]), "system": parts[2],
        "system_name": desc.get("system_name", ""),
        "division": divisions.pop() if len(divisions) == 1 else desc.get("division", ""),
        "availability": desc.get("status", ""), "accelerator": desc["accelerator_model_name"].strip(),
        "gpu_id": gpu_id_for(desc["accelerator_model_name"]), "accelerators": desc["_accelerators"],
        "nodes": desc["_nodes"], "framework": desc.get("framework", ""), "precision": precision_for(desc),
        "global_batch_size": batches[len(batches) // 2] if batches else "",
        "runs": len(runs), "runs_converged": sum(converged),
        "minutes_fastest": f"{min(done):.4f}" if done else "", "minutes_slowest": f"{max(done):.4f}" if done else "",
        "olympic_minutes": "" if score is None else f"{score:.4f}", "scaling_factor": f"{factor:.6g}",
        "score_minutes": "" if score is None else f"{score * factor:.4f}",
        "energy_j": "" if energy is None else f"{energy:.6g}", "energy_scope": scope,
        "log_defects": "; ".join(f"{Path(f).name}:{','.join(map(str, r.defects))}" for f, r in zip(files, runs, strict=True) if r.defects),
        "source_id": source_id_for(round_), "repository": REPOSITORY.format(round=round_), "commit": commit,
        "path": rel,
    }


def read_round(round_: str, root: str, commit: str, benchmarks: dict[str, dict]) -> list[dict]:
    """Every LLM result of one round's checkout."""
    rows = []
    for folder in sorted(glob.glob(os.path.join(root, "*", "results", "*", "*"))):
        if not os.path.isdir(folder) or not glob.glob(os.path.join(folder, "result_*.txt")):
            continue
        name = os.path.basename(folder)
        if name not in benchmarks:
            raise LogError(f"{folder}: benchmark {name!r} is not in data/mlperf_benchmarks.csv; add it "
                           f"(llm true or false) before rebuilding")
        if benchmarks[name]["llm"] != "true":
            continue
        rows.append(score_folder(folder, benchmarks[name], round_, commit, root))
    return rows


def read_convergence(root: str, commit: str, benchmarks: dict[str, dict], rounds: list[str]) -> list[dict]:
    """The reference convergence points (RCPs) of the LLM pretraining benchmarks for ``rounds``, from
    mlcommons/logging's ``rcp_checker/training_<round>.0/rcps_<benchmark>.json``."""
    rows = []
    for round_ in rounds:
        for name, bench in sorted(benchmarks.items()):
            if bench["kind"] != "pretraining":
                continue
            rel = f"mlperf_logging/rcp_checker/training_{round_.lstrip('v')}.0/rcps_{name}.json"
            path = os.path.join(root, rel)
            if not os.path.exists(path):
                continue
            try:
                with open(path, encoding="utf-8") as f:
                    rcps = json.load(f)
            except json.JSONDecodeError as exc:
                raise LogError(f"{path}:{exc.lineno}: not valid JSON ({exc.msg})") from None
            for rcp_id, rcp in sorted(rcps.items()):
                epochs = next((v for k, v in rcp.items() if k.lower().endswith("to converge")), None)
                if not epochs or "BS" not in rcp:
                    raise LogError(f"{path}:{_json_line(path, rcp_id)}: {rcp_id} has no BS or Epochs to converge")
                rows.append({"rcp_id": f"{round_.replace('.', '_')}_{rcp_id}", "round": round_, "benchmark": name, "batch_size": int(rcp["BS"]),
                             "runs": len(epochs), "mean_to_converge": f"{sum(epochs) / len(epochs):.6g}",
                             "unit": bench["convergence_unit"], "source_id": "mlcommons_logging",
                             "repository": LOGGING_REPOSITORY,
                             "commit": commit, "path": rel})
    return rows


def _checkout(spec: str, with_round: bool) -> tuple[str, str, str]:
    round_, _, rest = spec.partition("=") if with_round else ("", "", spec)
    if with_round and not re.fullmatch(r"v\d+\.\d+", round_):
        raise LogError(f"argument {spec!r}: expected ROUND=DIR[@COMMIT] with ROUND like v5.1")
    path, _, commit = rest.partition("@")
    path = os.path.expanduser(path)
    if not os.path.isdir(path):
        raise LogError(f"argument {spec!r}: {path} is not a folder")
    if not commit:
        done = subprocess.run(["git", "-C", path, "rev-parse", "HEAD"], capture_output=True, text=True)
        if done.returncode != 0:
            raise LogError(f"argument {spec!r}: {path} is not a git checkout; give its commit as DIR@COMMIT")
        commit = done.stdout.strip()
    if not re.fullmatch(r"[0-9a-f]{7,40}", commit):
        raise LogError(f"argument {spec!r}: the commit must be hexadecimal, not {commit!r}")
    return round_, path, commit


def _write(path: Path, columns: list[str], rows: list[dict]) -> None:
    """Write ``rows`` to ``path`` atomically (a temporary file in the same folder, then a rename)."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            writer = csv.DictWriter(f, columns, lineterminator="\n")
            writer.writeheader()
            writer.writerows(rows)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m analysis.data.mlperf_logs", description=__doc__.split("\n\n")[0])
    parser.add_argument("rounds", nargs="+", metavar="ROUND=DIR[@COMMIT]")
    parser.add_argument("--logging", metavar="DIR[@COMMIT]", help="a checkout of mlcommons/logging (the RCPs)")
    parser.add_argument("--benchmarks", type=Path, default=ROOT / "data" / "mlperf_benchmarks.csv")
    parser.add_argument("--out", type=Path, default=OUTPUT_TRAINING)
    parser.add_argument("--convergence-out", type=Path, default=OUTPUT_CONVERGENCE)
    args = parser.parse_args(argv)
    try:
        benchmarks = _benchmarks(args.benchmarks)
        checkouts = [_checkout(spec, True) for spec in args.rounds]
        rows = [row for round_, path, commit in sorted(checkouts) for row in read_round(round_, path, commit, benchmarks)]
        convergence = None
        if args.logging:
            _, path, commit = _checkout(args.logging, False)
            convergence = read_convergence(path, commit, benchmarks, [c[0] for c in sorted(checkouts)])
        for target in [args.out] + ([args.convergence_out] if convergence is not None else []):
            if not target.parent.is_dir():
                raise LogError(f"--out: {target.parent} is not a folder")
    except (LogError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    _write(args.out, COLUMNS, rows)
    if convergence is not None:
        _write(args.convergence_out, CONVERGENCE_COLUMNS, convergence)
    print(f"wrote {len(rows)} results to {args.out}" + (f" and {len(convergence)} reference convergence points "
                                                         f"to {args.convergence_out}" if convergence is not None else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
