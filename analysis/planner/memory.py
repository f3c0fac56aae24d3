"""How hard a model presses on an accelerator's memory, and the parallelism a run of its size
would use: the memory term of the MFU estimate (:mod:`analysis.planner.production_term`) and the
layout of the strong-scaling model (:mod:`analysis.planner.scaling`). Physics and counting rules,
nothing fitted.

**Training state** (Rajbhandari et al. 2020, ZeRO, Sec. 3.1): mixed-precision Adam keeps 16 bytes
per parameter, 2 for the 16-bit weights, 2 for their gradients and 12 for the FP32 master weights,
momentum and variance. With ZeRO stage 1 (Megatron's distributed optimizer, what the published runs
name: DeepSeek's "ZeRO-1 data parallelism", Falcon's "combined with ZeRO") the 12 optimizer bytes
are split across all the job's GPUs, the 4 bytes of weights and gradients are split only by the
model-parallel degree (tensor x pipeline). An MoE's experts live on their expert-parallel ranks:
the parameters a token does not touch (total - active) are split over min(experts, GPUs) ranks
(an MoE whose expert count is not given has at least total / active experts, since each token
uses one or more).

**Activations** (Korthikanti et al. 2022, Sec. 4, Table 2): a transformer layer keeps
s b h (34 + 5 a s / h) bytes for a micro-batch of b sequences of s tokens; with the attention
scores recomputed (their selective recomputation, or a fused attention kernel that never stores
them) 34 s b h, split t ways by tensor parallelism with sequence parallelism. A run with full
recomputation keeps each layer's input only, 2 s b h, and one layer's 34 s b h while it recomputes
it. In the 1F1B pipeline schedule the first stage holds p micro-batches of L / p layers, L layers'
worth whatever p (their eq. 5). The micro-batch here is one sequence, the smallest a step can use.

**Memory pressure** (:func:`memory_pressure`): those bytes on one GPU of a purely data-parallel
job (no tensor or pipeline parallelism, ZeRO-1 over the job) over the GPU's HBM. Above 1 the run
must add model parallelism, about that many GPUs per model copy; below 1 it has room to spare.

**Layout** (:func:`layout`): the published tensor and pipeline degrees where a run states them,
else the smallest tensor x pipeline product (tensor parallelism within a node, 1 to 8 GPUs, as
Megatron-LM places it) whose bytes per GPU fit the HBM; virtual pipeline stages of about
:data:`LAYERS_PER_VIRTUAL_STAGE` layers, as NVIDIA's recipes use (``data/benchmarks.csv``: 405B
126 layers / PP 9 / VP 7 = 2, GPT-3 96 / 8 / 12 = 1, 70B 80 / 4 / 5 = 4).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from analysis.hardware import gpu

REPLICATED_BYTES_PER_PARAM = 4.0  # 16-bit weights and gradients (ZeRO Sec. 3.1)
OPTIMIZER_BYTES_PER_PARAM = 12.0  # FP32 master weights, Adam momentum and variance, sharded by ZeRO-1
STATE_BYTES_PER_PARAM = REPLICATED_BYTES_PER_PARAM + OPTIMIZER_BYTES_PER_PARAM  # 16
ACTIVATION_BYTES_PER_TOKEN_HIDDEN = 34.0  # per layer, attention scores recomputed (Korthikanti Table 2)
CHECKPOINT_BYTES_PER_TOKEN_HIDDEN = 2.0  # per layer under full recomputation: the layer's 16-bit input
LAYERS_PER_VIRTUAL_STAGE = 2  # NVIDIA's recipes: 1 to 4 layers per virtual pipeline stage, 2 the middle
TENSOR_DEGREES = (1, 2, 4, 8)  # tensor parallelism stays inside an 8-GPU NVLink node
GB = 1e9


def hbm_bytes(gpu_id: str) -> float:
    """The accelerator's HBM in bytes (``data/gpus.csv``, decimal GB)."""
    return float(gpu(gpu_id)["memory_gb"]) * GB


def _model_numbers(model) -> tuple[float, float, float, int, int, int]:
    """(active params, total params, experts or 1, layers, hidden size, sequence length)."""
    active = float(model["active_params"])
    total = float(model.get("total_params", active) or active)
    experts = model.get("experts")
    if experts is None or experts != experts:  # NaN or absent: a dense model, or an MoE whose expert count is not given
        # each token uses at least one expert, so an MoE has at least total / active of them
        experts = 1.0 if total <= active else float(np.ceil(total / active))
    experts = float(experts)
    return active, max(total, active), experts, int(model["layers"]), int(model["hidden_size"]), int(model["seq_len"])


def activation_bytes(model, tp=1, full_recompute: bool = False):
    """Bytes of activations one GPU keeps for a micro-batch of one sequence, all layers' worth
    (1F1B), split ``tp`` ways (sequence parallelism)."""
    _, _, _, layers, hidden, seq = _model_numbers(model)
    per_layer = float(seq) * hidden
    if full_recompute:
        total = CHECKPOINT_BYTES_PER_TOKEN_HIDDEN * per_layer * layers + ACTIVATION_BYTES_PER_TOKEN_HIDDEN * per_layer
    else:
        total = ACTIVATION_BYTES_PER_TOKEN_HIDDEN * per_layer * layers
    return total / np.asarray(tp, dtype=float)


def replicated_params(model, gpus):
    """Parameters whose 16-bit weights and gradients every data-parallel rank keeps: the active
    ones, and the experts' others split over min(experts, GPUs) expert-parallel ranks."""
    active, total, experts, *_ = _model_numbers(model)
    ep = np.minimum(experts, np.asarray(gpus, dtype=float))
    return active + (total - active) / ep


def bytes_per_gpu(model, gpus, tp=1, pp=1, full_recompute: bool = False):
    """Bytes one GPU holds: 16-bit weights and gradients over tensor x pipeline, the optimizer
    state over every GPU of the job (ZeRO-1), activations over tensor."""
    _, total, *_ = _model_numbers(model)
    gpus = np.asarray(gpus, dtype=float)
    mp = np.asarray(tp, dtype=float) * np.asarray(pp, dtype=float)
    return (REPLICATED_BYTES_PER_PARAM * replicated_params(model, gpus) / mp
            + OPTIMIZER_BYTES_PER_PARAM * total / gpus + activation_bytes(model, tp, full_recompute))


def memory_pressure(model, gpus, gpu_id: str, full_recompute: bool = False):
    """:func:`bytes_per_gpu` of a purely data-parallel job of ``gpus`` over the HBM: above 1, the
    GPUs' worth of memory one model copy needs; below 1, the share of a GPU it fills."""
    return bytes_per_gpu(model, gpus, 1, 1, full_recompute) / hbm_bytes(gpu_id)


@dataclass(frozen=True)
class Layout:
    """A parallelism layout: tensor, pipeline and virtual-pipeline degrees, the bytes per GPU it
    leaves, their share of the HBM, and where it comes from (``"published"`` or ``"rule"``)."""

    tp: int
    pp: int
    vp: int
    bytes_per_gpu: float
    hbm_share: float
    source: str

    @property
    def model_parallel_gpus(self) -> int:
        return self.tp * self.pp

    def describe(self) -> str:
        where = "as published" if self.source == "published" else "the smallest that fits its HBM"
        return (f"tensor-parallel {self.tp} x pipeline-parallel {self.pp} ({where}), {self.hbm_share:.0%} of "
                f"each GPU's memory")


def _virtual_stages(layers: int, pp: int) -> int:
    return max(1, layers // (pp * LAYERS_PER_VIRTUAL_STAGE)) if pp > 1 else 1


def layout(model, gpus: int, gpu_id: str, full_recompute: bool = False, published: tuple | None = None) -> Layout:
    """The layout of a ``gpus``-GPU job (see the module docstring); ``published`` is (tp, pp)
    where the run states it. A model too big to fit even at the largest degrees gets those, with
    an HBM share above 1."""
    hbm = hbm_bytes(gpu_id)
    layers = _model_numbers(model)[3]
    if published is not None:
        tp, pp = int(published[0]), int(published[1])
        used = float(bytes_per_gpu(model, gpus, tp, pp, full_recompute))
        return Layout(tp, pp, _virtual_stages(layers, pp), used, used / hbm, "published")
    best = None
    for tp in TENSOR_DEGREES:
        if tp > gpus:
            break
        fixed = float(bytes_per_gpu(model, gpus, tp, np.inf, full_recompute))  # what pipelining cannot split
        split = REPLICATED_BYTES_PER_PARAM * float(replicated_params(model, gpus)) / tp
        room = hbm - fixed
        pp = 1 if split <= room else (int(np.ceil(split / room)) if room > 0 else layers + 1)
        if pp > layers or tp * pp > gpus:
            continue
        if best is None or tp * pp < best[0] * best[1]:
            best = (tp, pp)
    tp, pp = best if best is not None else (min(max(TENSOR_DEGREES), gpus), max(1, min(layers, gpus // 8)))
    used = float(bytes_per_gpu(model, gpus, tp, pp, full_recompute))
    return Layout(tp, pp, _virtual_stages(layers, pp), used, used / hbm, "rule")


def fits_one_step(model, gpus: int, gpu_id: str, full_recompute: bool = False) -> tuple[bool, float, float]:
    """Whether one training step can fit at all: the training state (16 bytes per parameter)
    and one sequence's activations kept with full recomputation, against the HBM of every GPU of
    the job together. Returns (fits, bytes needed, bytes of HBM in the job). Below it no layout
    exists without moving state off the GPUs."""
    _, total, _, layers, hidden, seq = _model_numbers(model)
    need = STATE_BYTES_PER_PARAM * total + float(activation_bytes(model, 1, full_recompute=True))
    have = hbm_bytes(gpu_id) * gpus
    return need <= have, need, have
