"""Strong scaling in a plan: past the largest job the throughput evidence covers, more GPUs are not
free (:mod:`analysis.scaling`, the scaling chapter's model).

The MFU estimate is measured on published runs up to :func:`evidence_gpus` GPUs (16,384, Meta's
Llama 3 jobs) whose global batch grew with the job. A bigger job cannot keep growing its batch:
the planner holds it at ``max_global_batch_tokens`` (the parameter: Llama 3.1 405B's 16M tokens
at 16,384 GPUs) and spreads it over more GPUs, so each does less per step while the pipeline's
fill and drain and the gradient exchange do not shrink. The step time at N GPUs is then the
scaling chapter's: compute / N + the bubble + the exchange (:func:`analysis.scaling.strong_scaling`),
calibrated on the planner's own throughput at the evidence's largest size, with the layout a job
of this model would use there (:func:`analysis.planner.memory.layout`). Past the most GPUs the
batch can feed (one sequence per model copy per step) added GPUs add nothing: the efficiency falls
as 1 / N. Up to the evidence's largest size the estimate stands as it is.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from analysis import scaling
from analysis.data.load import derived
from analysis.params import defaults as d
from analysis.planner import memory
from analysis.planner.mfu import production_runs


@derived
def evidence_gpus() -> int:
    """The largest job among the published runs the MFU estimate is fitted to."""
    return int(production_runs()["gpus"].max())


@dataclass(frozen=True)
class StrongScaling:
    """The strong-scaling model of one plan: ``ref_gpus`` (up to it, efficiency 1),
    ``limit_gpus`` (the most GPUs the batch feeds), the layout and the batch in sequences;
    ``note`` says how it was set up (or why it could not be, and what stands in)."""

    ref_gpus: int
    limit_gpus: int
    layout: memory.Layout
    batch_sequences: int
    ref_step_s: float
    params: float
    note: str
    calibrated: bool

    def efficiency(self, gpus):
        """Per-GPU throughput at ``gpus`` over that at :attr:`ref_gpus` (1 at or below it)."""
        n = np.atleast_1d(np.asarray(gpus, dtype=float))
        out = np.ones_like(n)
        beyond = n > self.ref_gpus
        if not beyond.any():
            return out if np.ndim(gpus) else float(out[0])
        if not self.calibrated or self.limit_gpus <= self.ref_gpus:
            out[beyond] = self.ref_gpus / n[beyond]
            return out if np.ndim(gpus) else float(out[0])
        fed = np.minimum(n[beyond], self.limit_gpus)
        lay = self.layout
        curve = scaling.strong_scaling(np.unique(fed), self.ref_gpus, self.ref_step_s, self.params, lay.tp, lay.pp, None,
                                       lay.vp, self.batch_sequences, d.GRAD_BYTES_PER_PARAM.default,
                                       d.BACKEND_GBPS.default)
        eff = np.interp(fed, curve["gpus"].to_numpy(float), curve["efficiency"].to_numpy(float))
        out[beyond] = eff * fed / n[beyond]  # beyond the batch's limit the extra GPUs idle
        return out if np.ndim(gpus) else float(out[0])


def strong_scaling(model, gpu_id: str, rate_at_ref: float, full_recompute: bool = False) -> StrongScaling:
    """The strong-scaling model for ``model`` on ``gpu_id``, calibrated on ``rate_at_ref``
    (tokens/s/GPU at :func:`evidence_gpus`)."""
    ref = evidence_gpus()
    seq = int(model["seq_len"])
    batch_tokens = float(d.MAX_GLOBAL_BATCH_TOKENS.default)
    batch = max(1, int(batch_tokens // seq))
    lay = memory.layout(model, ref, gpu_id, full_recompute)
    limit = scaling.max_gpus_for_batch(batch, lay.tp, lay.pp, None)
    ref_step = batch * seq / (ref * rate_at_ref)
    params = float(model.get("total_params", model["active_params"]) or model["active_params"])
    exchange = float(scaling.grad_sync_s(params, lay.tp, lay.pp, ref, d.GRAD_BYTES_PER_PARAM.default,
                                         d.BACKEND_GBPS.default))
    calibrated = exchange < ref_step and limit > ref
    if limit <= ref:
        note = (f"a batch of {batch_tokens / 1e6:.0f}M tokens feeds at most {limit:,} GPUs of this model "
                f"({lay.tp} x {lay.pp} per copy, one {seq:,}-token sequence per copy per step): more GPUs than "
                f"{ref:,} add nothing")
    elif not calibrated:
        note = (f"the gradient exchange alone ({exchange:.3g} s) outlasts a step at {ref:,} GPUs ({ref_step:.3g} s): "
                f"more GPUs than {ref:,} add nothing")
    else:
        note = (f"beyond {ref:,} GPUs (the largest published run the estimate rests on) the batch stays at "
                f"{batch_tokens / 1e6:.0f}M tokens and each step is compute / N + the pipeline bubble + the gradient "
                f"exchange (the scaling chapter's model), at {lay.describe()}; up to {limit:,} GPUs")
    return StrongScaling(ref, int(limit), lay, batch, ref_step, params, note, calibrated)
