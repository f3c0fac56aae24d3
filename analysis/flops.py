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
    ``seq_len`` overrides the model's benchmark sequence length. A model that gives its attention
    widths or its MoE router (:func:`flops_per_token_parts`) has them counted."""
    return sum(flops_per_token_parts(model, seq_len).values())


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


# --- FLOP conventions: model FLOPs and hardware FLOPs with activation recomputation -------------------
#
# A paper's "achieved TFLOP/s per GPU" may count model FLOPs (the work the model needs, as above) or
# hardware FLOPs (the work the GPUs did, recomputation included). Per token, with n matmul parameters
# (:func:`matmul_params`), of which V h form the output (logit) layer, L layers, hidden size h and
# sequence length s:
#
# - ``"model"``: 6 n + 12 L h s (this module's convention);
# - ``"model-6n"``: 6 n alone, attention not counted (Kaplan et al.'s C = 6 N; the 24.6 TFLOP/s
#   OpenAI gave Patterson et al. for GPT-3 on V100);
# - ``"hardware-selective"``: selective recomputation re-runs the attention-score part only:
#   6 n + 24 L h s. Korthikanti et al. 2022 (arXiv 2205.05198, App. A, eq. 7-9): hardware FLOPs
#   per iteration 72 B L s h^2 (1 + s/3h + v/12hL) against model FLOPs 72 B L s h^2 (1 + s/6h + v/12hL);
# - ``"hardware-full"``: full recomputation re-runs every layer's forward pass (one more 2 n + 4 L h s
#   on the layers) but not the logit layer: 8 (n - V h) + 6 V h + 16 L h s. Narayanan et al. 2021
#   (arXiv 2104.04473, Sec. 5.1, eq. 3): 96 B s l h^2 (1 + s/6h + V/16lh) per iteration, which is
#   about 8 P per token; hence their training time ~ 8 T P / (n X).

FLOP_CONVENTIONS = ("model", "model-6n", "hardware-selective", "hardware-full")


def hardware_flops_per_token(model, seq_len: int | None = None, recompute: str = "none") -> float:
    """FLOPs the GPUs execute per trained token of ``model`` (a row of ``data/models.csv``, or a
    mapping with the same fields) under activation recomputation ``recompute``: ``"none"`` (equal
    to :func:`model_flops_per_token`), ``"selective"`` (Korthikanti et al. 2022) or ``"full"``
    (Narayanan et al. 2021). See the block comment above for the formulas."""
    parts = flops_per_token_parts(model, seq_len)
    n = (parts["matmul"] + parts["router"]) / 6.0  # every matmul parameter, the router's included
    attention = parts["attention"]
    if recompute == "none":
        return 6.0 * n + attention
    if recompute == "selective":
        return 6.0 * n + 2.0 * attention
    if recompute == "full":
        logits = float(model["vocab_size"]) * int(model["hidden_size"])
        return 8.0 * (n - logits) + 6.0 * logits + attention * 4.0 / 3.0
    raise ValueError(f"recompute must be 'none', 'selective' or 'full', not {recompute!r}")


def flops_per_token_counted(model, flops_counted: str, seq_len: int | None = None) -> float:
    """FLOPs per token under the convention ``flops_counted`` (one of :data:`FLOP_CONVENTIONS`)."""
    if flops_counted == "model-6n":  # 6 N alone, attention not counted (Kaplan et al.'s C = 6 N; Patterson's GPT-3)
        parts = flops_per_token_parts(model, seq_len)
        return parts["matmul"] + parts["router"]
    recompute = {"model": "none", "hardware-selective": "selective", "hardware-full": "full"}
    if flops_counted not in recompute:
        raise ValueError(f"flops_counted must be one of {', '.join(FLOP_CONVENTIONS)}, not {flops_counted!r}")
    return hardware_flops_per_token(model, seq_len, recompute[flops_counted])


def model_tflops_from_achieved(achieved_tflops: float, flops_counted: str, model, seq_len: int | None = None) -> float:
    """Model TFLOP/s per GPU behind an achieved figure that counts ``flops_counted`` FLOPs: the
    GPUs' rate times the share of their FLOPs that the model needs (e.g. 140 hardware TFLOP/s with
    full recomputation on GPT-3 175B are about 105 model TFLOP/s)."""
    return achieved_tflops * model_flops_per_token(model, seq_len) / flops_per_token_counted(model, flops_counted, seq_len)


def tokens_per_s_from_achieved(achieved_tflops: float, flops_counted: str, model, seq_len: int | None = None) -> float:
    """Tokens/s/GPU at an achieved TFLOP/s that counts ``flops_counted`` FLOPs."""
    return achieved_tflops * TERA / flops_per_token_counted(model, flops_counted, seq_len)


def training_time_days_from(total_flop: float, gpus: float, *, mfu: float | None = None,
                            peak_tflops: float | None = None, achieved_tflops: float | None = None,
                            flops_counted: str = "model", model=None, seq_len: int | None = None) -> float:
    """Days (no downtime) to deliver ``total_flop`` *model* FLOPs on ``gpus`` GPUs, given either
    an MFU with the dense peak, or an achieved TFLOP/s per GPU with the convention it counts
    (``flops_counted``; a hardware convention needs the ``model`` to convert). Giving both, or
    neither, is an error."""
    if (mfu is None) == (achieved_tflops is None):
        raise ValueError("give exactly one of mfu (with peak_tflops) and achieved_tflops")
    if mfu is not None:
        if peak_tflops is None:
            raise ValueError("mfu needs peak_tflops")
        return training_time_days(total_flop, gpus, peak_tflops, mfu)
    if flops_counted == "model":
        model_tflops = achieved_tflops
    elif model is None:
        raise ValueError(f"achieved TFLOP/s counted as {flops_counted!r} needs the model to convert")
    else:
        model_tflops = model_tflops_from_achieved(achieved_tflops, flops_counted, model, seq_len)
    return training_time_days(total_flop, gpus, model_tflops, 1.0)


def dense_transformer(layers: int, hidden_size: int, seq_len: int, vocab_size: int, name: str = "") -> dict:
    """A GPT-style dense model as a ``models.csv``-like mapping from its shape, with Narayanan et
    al.'s parameter count P = 12 l h^2 (1 + 13/12h + (V + s)/12lh) (tied embeddings, learned
    positions): the configurations of their Table 1, which print no parameter count to 0.1 %."""
    params = 12.0 * layers * hidden_size**2 * (1 + 13 / (12 * hidden_size) + (vocab_size + seq_len) / (12 * layers * hidden_size))
    return {"name": name, "active_params": params, "total_params": params, "layers": layers,
            "hidden_size": hidden_size, "seq_len": seq_len, "vocab_size": vocab_size, "tied_embeddings": True}


# --- MoE and attention wider than the hidden size -----------------------------------------------------
#
# An MoE token passes through its *active* experts only, so 6 N counts the active parameters (as
# above). Two terms that a dense 6 N + 12 L h s misses or mis-sizes:
#
# - the router: each MoE layer scores the token against every expert, an h x E matmul, whatever
#   the top-k; 2 h E FLOPs forward per MoE layer, 6 h E with the backward pass. Published active
#   counts may already include these weights (DeepSeek-V3's 37B does not say): for DeepSeek-V3 it
#   is 0.3 % of the total, below the other errors, so the double count, if any, is left;
# - attention wider than h: Q K^T runs over heads x query/key head dim and A V over heads x value
#   head dim. For multi-head latent attention (DeepSeek-V2/V3: 128 heads, 192-dim queries and keys,
#   128-dim values) that is 24,576 and 16,384 against a 7,168 hidden size, 2.9x the 12 L h s term.


def attention_flops_per_token_widths(layers: int, seq_len: int, qk_width: float, v_width: float) -> float:
    """Training FLOPs per token of attention with query/key width ``qk_width`` (heads x query/key
    head dim) and value width ``v_width`` (heads x value head dim): 6 L s (qk_width + v_width), the
    full s x s matrix as in :func:`attention_flops_per_token` (which it equals when both widths are h)."""
    return 6.0 * layers * seq_len * (qk_width + v_width)


def router_flops_per_token(moe_layers: int, hidden_size: int, experts: int) -> float:
    """Training FLOPs per token of the MoE router: the h x E gating matmul of every MoE layer,
    forward and backward, 6 L_moe h E (DeepSeek-V3: 58 x 7,168 x 256 x 6 = 6.4e8, 0.3 % of its 6 N)."""
    return 6.0 * moe_layers * hidden_size * experts


def _optional(model, key: str) -> float | None:
    value = model.get(key) if hasattr(model, "get") else None
    try:
        value = float(value)
    except (TypeError, ValueError):
        return None
    return None if value != value else value  # NaN (an empty CSV cell) means not given


def flops_per_token_parts(model, seq_len: int | None = None) -> dict[str, float]:
    """Model FLOPs per trained token of ``model`` by part: ``matmul`` (6 n over the active matmul
    parameters, :func:`matmul_params`), ``attention`` (12 L h s, or
    :func:`attention_flops_per_token_widths` where the model gives ``attention_qk_width`` and
    ``attention_v_width``) and ``router`` (:func:`router_flops_per_token` where it gives ``experts``
    and ``moe_layers``; else 0). Their sum is :func:`model_flops_per_token`."""
    layers, hidden = int(model["layers"]), int(model["hidden_size"])
    s = int(seq_len if seq_len is not None else model["seq_len"])
    n = matmul_params(float(model["active_params"]), int(model["vocab_size"]), hidden, bool(model["tied_embeddings"]))
    qk, v = _optional(model, "attention_qk_width"), _optional(model, "attention_v_width")
    attention = (attention_flops_per_token(layers, hidden, s) if qk is None or v is None
                 else attention_flops_per_token_widths(layers, s, qk, v))
    experts, moe_layers = _optional(model, "experts"), _optional(model, "moe_layers")
    router = 0.0 if experts is None or moe_layers is None else router_flops_per_token(int(moe_layers), hidden, int(experts))
    return {"matmul": 6.0 * n, "attention": attention, "router": router}
