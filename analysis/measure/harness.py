"""Run a measurement for ``python -m analysis measure``: the settings for each device and mode,
the two measurements, the rows with their provenance, and a readable summary.

Settings are named here once. ``--quick`` on a CPU keeps every call small (matmuls up to 1,024,
a 2-layer, 128-wide model) so the whole run takes seconds on two cores; the full run measures
larger sizes with more repeats.
"""

from __future__ import annotations

import os
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path

from analysis.data.load import load_table
from analysis.errors import ExecutionError
from analysis.hardware import peak_tflops
from analysis.measure import rows as rowlib
from analysis.measure import torch_backend as tb
from analysis.measure.gpt_numpy import GPTConfig, TinyGPT, flops_per_token, param_count, sample_batch
from analysis.measure.timing import MatmulResult, measure_matmul_numpy, peak_by_precision, tflops, time_calls


@dataclass(frozen=True)
class Settings:
    sizes: tuple[int, ...]  # square matmul sizes n (n x n @ n x n)
    precisions: tuple[str, ...]  # matmul data types
    step_precision: str  # data type of the training step (and of the peak its MFU is measured against)
    warmup: int
    repeats: int
    min_repeat_s: float  # a timed repeat of a matmul lasts at least this long
    model: GPTConfig

    def as_dict(self) -> dict:
        return asdict(self)


SETTINGS = {
    ("cpu", True): Settings((256, 512, 1024), ("fp32", "fp64"), "fp32", 2, 7, 0.02,
                            GPTConfig(vocab_size=512, hidden_size=128, heads=4, layers=2, seq_len=64, batch=8)),
    ("cpu", False): Settings((256, 512, 1024, 2048), ("fp32", "fp64"), "fp32", 3, 15, 0.1,
                             GPTConfig(vocab_size=2048, hidden_size=256, heads=8, layers=4, seq_len=128, batch=8)),
    ("cuda", True): Settings((2048, 4096, 8192), ("bf16", "fp16", "tf32"), "bf16", 3, 10, 0.05,
                             GPTConfig(vocab_size=8192, hidden_size=1024, heads=16, layers=4, seq_len=1024, batch=8)),
    ("cuda", False): Settings((1024, 2048, 4096, 8192, 16384), ("bf16", "fp16", "tf32", "fp32"), "bf16", 5, 30, 0.2,
                              GPTConfig(vocab_size=32768, hidden_size=2048, heads=16, layers=8, seq_len=2048, batch=8)),
}
# Registry dtype (data/gpus.csv column) holding the datasheet dense peak for a measured precision.
DATASHEET_DTYPE = {"bf16": "bf16", "tf32": "tf32"}


def _datasheet_tflops(gpu_id: str | None, precision: str) -> float | None:
    if gpu_id is None or precision not in DATASHEET_DTYPE:
        return None
    return peak_tflops(gpu_id, DATASHEET_DTYPE[precision])


def _time_numpy_step(cfg: GPTConfig, seed: int, warmup: int, repeats: int):
    model = TinyGPT(cfg, seed)
    inputs, targets = sample_batch(cfg, seed + 1)
    return time_calls(lambda: model.train_step(inputs, targets), warmup, repeats), param_count(cfg)


def best_of(first: list[MatmulResult], second: list[MatmulResult]) -> list[MatmulResult]:
    """Per matmul configuration, the sweep with the faster median (the maximum achievable)."""
    return [max(a, b, key=lambda m: m.tflops_median) for a, b in zip(first, second, strict=True)]


def run(device: str, quick: bool, seed: int, out_dir: Path) -> tuple[Path, list[dict]]:
    """Measure, build the rows, validate them with the runs already in ``out_dir`` and append
    them. Input problems (torch missing, a bad existing table) are raised before any timing.

    The matmul sweep runs first. If the training step then beats the sweep's peak, the machine was
    busier during the sweep than during the step: the sweep is repeated once and, per size, the
    faster of the two kept (``matmul_sweeps`` = 2 in the row's parameters)."""
    settings, cfg = SETTINGS[(device, quick)], SETTINGS[(device, quick)].model
    taken = set(rowlib.existing_rows(out_dir)["run_id"])  # also validates the existing table
    started = datetime.now(UTC)
    parameters = {"device": device, "quick": quick, **settings.as_dict(),
                  "load_avg_1min": round(os.getloadavg()[0], 2) if hasattr(os, "getloadavg") else None,
                  "threads_env": {k: os.environ[k] for k in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS",
                                                             "MKL_NUM_THREADS") if k in os.environ}}
    if device == "cuda":
        torch = tb.require_cuda()
        name, cores, software = tb.device_info(torch)
        gpu_id = rowlib.match_gpu_id(name, load_table("gpus"))

        def sweep():
            return tb.measure_matmuls(torch, settings.sizes, settings.precisions, seed, settings.warmup,
                                      settings.repeats, settings.min_repeat_s)

        def step():
            return tb.measure_train_step(torch, cfg, seed, settings.warmup, settings.repeats)
    else:
        name, cores, gpu_id, software = rowlib.cpu_name(), rowlib.cpu_cores(), None, rowlib.numpy_software()

        def sweep():
            return measure_matmul_numpy(settings.sizes, settings.precisions, seed, settings.warmup,
                                        settings.repeats, settings.min_repeat_s)

        def step():
            return _time_numpy_step(cfg, seed, settings.warmup, settings.repeats)
    matmuls = sweep()
    step_timing, params = step()
    if params != param_count(cfg):
        raise ExecutionError(f"the {device} model has {params} parameters; the FLOP accounting assumes "
                             f"{param_count(cfg)}")
    step_tflops = tflops(flops_per_token(cfg) * cfg.tokens_per_step, step_timing.seconds_median)
    parameters["matmul_sweeps"] = 1
    if step_tflops > peak_by_precision(matmuls)[settings.step_precision]:
        matmuls, parameters["matmul_sweeps"] = best_of(matmuls, sweep()), 2
    info = rowlib.run_info(device, name, cores, gpu_id, software, seed, parameters, taken, now=started)
    new = [rowlib.matmul_row(info, m, _datasheet_tflops(gpu_id, m.precision)) for m in matmuls]
    new.append(rowlib.train_step_row(
        info, settings.step_precision, cfg.describe(), params, cfg.seq_len, cfg.batch, flops_per_token(cfg),
        step_timing, peak_by_precision(matmuls)[settings.step_precision],
        _datasheet_tflops(gpu_id, settings.step_precision)))
    return rowlib.append_rows(new, out_dir), new


def summary(path: Path, new: list[dict]) -> str:
    """A plain-text table of one run's rows."""
    first = new[0]
    head = (f"Measured on {first['device_name']} ({first['cores']} cores{', ' + first['gpu_id'] if first['gpu_id'] else ''}); "
            f"{first['software']}; seed {first['seed']}; run {first['run_id']}")
    cols = ("what", "precision", "config", "seconds_median", "seconds_p10", "seconds_p90", "tflops_median",
            "tokens_per_s", "mfu_vs_measured_peak", "mfu_vs_datasheet")
    table = [cols] + [tuple(r.get(c) or "-" for c in cols) for r in new]
    widths = [max(len(str(row[i])) for row in table) for i in range(len(cols))]
    lines = ["  ".join(f"{str(v):<{w}}" for v, w in zip(row, widths, strict=True)) for row in table]
    return "\n".join([head, "", *lines, "", f"{len(new)} rows appended to {path}"])
