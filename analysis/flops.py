"""FLOP accounting: FLOPs per trained token, and conversions between MFU, tokens/s/GPU,
achieved TFLOP/s and time to train.

Convention (the one NVIDIA's DGXC/NeMo benchmark tables and SemiAnalysis use):
model FLOPs per token = 6 N + 12 L h s, where

- 6 N counts forward (2 N) and backward (4 N) matmul FLOPs of the N parameters that take part
  in a matmul for that token: the *active* parameters of an MoE model, and without the input
  embedding of an untied model, which is a table lookup. A tied embedding doubles as the
  output projection, so it stays in N. (Kaplan et al. 2020, arXiv 2001.08361; Megatron-LM's
  ``num_floating_point_operations`` counts the same matmuls.)
- 12 L h s is the attention-score and attention-over-values work (QK^T and AV: 2 x 2 s h per
  layer forward, x3 for forward + backward), counted for the full, non-causal s x s matrix as in
  PaLM App. B (arXiv 2204.02311), where h = heads x head_dim.
- Recomputation is excluded: MFU counts the work the model needs, not the work the hardware did
  (PaLM Sec. 4.1). That is why MFU <= HFU.

With this convention Llama 3.1 70B at 8,192 tokens gives 4.814e11 FLOP/token, against 4.810e11 in
NVIDIA's DGXC tables (3.94e15 per sample); GPT-3 175B at 2,048 gives 1.077e12 against 1.074e12.
"""

from __future__ import annotations

from analysis.units import SECONDS_PER_DAY, TERA


def matmul_params(active_params: float, vocab_size: int, hidden_size: int, tied_embeddings: bool) -> float:
    """Parameters that take part in a matmul per token: active parameters, less the input
    embedding table when it is not tied to the output projection."""
    return active_params if tied_embeddings else active_params - vocab_size * hidden_size


def attention_flops_per_token(layers: int, hidden_size: int, seq_len: int) -> float:
    """Training FLOPs per token of the attention scores and values, 12 L h s (PaLM App. B)."""
    return 12.0 * layers * hidden_size * seq_len


def training_flops_per_token(active_params: float, layers: int, hidden_size: int, seq_len: int,
                             vocab_size: int, tied_embeddings: bool) -> float:
    """Model FLOPs to train on one token (forward + backward, no recomputation): 6 N + 12 L h s."""
    n = matmul_params(active_params, vocab_size, hidden_size, tied_embeddings)
    return 6.0 * n + attention_flops_per_token(layers, hidden_size, seq_len)


def model_flops_per_token(model, seq_len: int | None = None) -> float:
    """:func:`training_flops_per_token` for a row of ``data/models.csv`` (a mapping or Series);
    ``seq_len`` overrides the model's benchmark sequence length."""
    return training_flops_per_token(
        float(model["active_params"]), int(model["layers"]), int(model["hidden_size"]),
        int(seq_len if seq_len is not None else model["seq_len"]),
        int(model["vocab_size"]), bool(model["tied_embeddings"]))


def achieved_tflops_per_gpu(tokens_per_s_per_gpu: float, flops_per_token: float) -> float:
    """Model TFLOP/s each GPU delivers at a given per-GPU token rate."""
    return tokens_per_s_per_gpu * flops_per_token / TERA


def mfu_from_tokens_per_s(tokens_per_s_per_gpu: float, flops_per_token: float, peak_tflops: float) -> float:
    """Model FLOPs utilization (fraction) from tokens/s/GPU and the dense peak (TFLOP/s)."""
    return achieved_tflops_per_gpu(tokens_per_s_per_gpu, flops_per_token) / peak_tflops


def tokens_per_s_from_mfu(mfu: float, flops_per_token: float, peak_tflops: float) -> float:
    """Tokens/s/GPU from MFU (fraction) and the dense peak (TFLOP/s). Inverse of
    :func:`mfu_from_tokens_per_s`."""
    return mfu * peak_tflops * TERA / flops_per_token


def sustained_flops(gpus: float, peak_tflops: float, mfu: float) -> float:
    """Model FLOP/s a cluster sustains: GPUs x dense peak x MFU."""
    return gpus * peak_tflops * TERA * mfu


def training_time_days(total_flop: float, gpus: float, peak_tflops: float, mfu: float) -> float:
    """Wall-clock days to deliver ``total_flop`` model FLOPs at a given MFU (no downtime)."""
    return total_flop / sustained_flops(gpus, peak_tflops, mfu) / SECONDS_PER_DAY


def implied_mfu(total_flop: float, gpus: float, peak_tflops: float, days: float) -> float:
    """MFU that delivering ``total_flop`` in ``days`` implies. Inverse of :func:`training_time_days`;
    it counts downtime as lost utilization, so it is a whole-run figure, below steady-state MFU."""
    return total_flop / (gpus * peak_tflops * TERA * days * SECONDS_PER_DAY)


def flop_in_run(gpus: float, peak_tflops: float, mfu: float, days: float) -> float:
    """Model FLOPs a cluster delivers in ``days`` of training at a given MFU."""
    return sustained_flops(gpus, peak_tflops, mfu) * days * SECONDS_PER_DAY
