"""A small GPT-style model in pure numpy, with a hand-written backward pass and Adam, for timing
one training step on a CPU.

Architecture (GPT-2 style, pre-LayerNorm): token embedding (untied from the output projection)
plus a fixed sinusoidal position code (no parameters); ``layers`` blocks of [LayerNorm, causal
multi-head attention, residual, LayerNorm, MLP (4 x hidden, GELU, tanh form), residual]; a final
LayerNorm; a bias-free output projection to the vocabulary; softmax cross-entropy against the
next token. Attention computes the full ``seq x seq`` score matrix and masks its upper triangle,
so the work done is exactly what the book's FLOP convention counts (12 L h s, full matrix).

FLOPs: :func:`flops_per_token` applies :func:`analysis.flops.training_flops_per_token`
(6 N + 12 L h s, N without the untied input embedding). :func:`matmul_flops_per_token` counts
the same thing independently, matmul by matmul from the layer shapes, and every model call
counts the matmuls it actually executes (:attr:`TinyGPT.matmul_flops`); tests check all three.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass

import numpy as np

from analysis.flops import training_flops_per_token

GELU_C = math.sqrt(2.0 / math.pi)
LN_EPS = 1e-5


@dataclass(frozen=True)
class GPTConfig:
    vocab_size: int
    hidden_size: int
    heads: int
    layers: int
    seq_len: int
    batch: int

    def __post_init__(self):
        if self.hidden_size % self.heads:
            raise ValueError("hidden_size must be a multiple of heads")

    @property
    def tokens_per_step(self) -> int:
        return self.batch * self.seq_len

    def describe(self) -> str:
        return (f"gpt L{self.layers} d{self.hidden_size} h{self.heads} s{self.seq_len} "
                f"b{self.batch} V{self.vocab_size}")

    def as_dict(self) -> dict:
        return asdict(self)


def param_count(cfg: GPTConfig) -> int:
    """Parameters of the model: embedding and output projection (V d each), per layer 12 d^2
    weights plus 13 d biases and LayerNorm gains/biases, and the final LayerNorm (2 d)."""
    d, v = cfg.hidden_size, cfg.vocab_size
    return 2 * v * d + cfg.layers * (12 * d * d + 13 * d) + 2 * d


def flops_per_token(cfg: GPTConfig) -> float:
    """Training FLOPs per token by the book's accounting (:mod:`analysis.flops`): 6 N + 12 L h s
    with N the parameters less the untied input embedding."""
    return training_flops_per_token(param_count(cfg), cfg.layers, cfg.hidden_size, cfg.seq_len,
                                    cfg.vocab_size, tied_embeddings=False)


def matmul_flops_per_token(cfg: GPTConfig) -> float:
    """Independent count from the layer shapes: the forward matmuls of one token (per layer QKV
    2 d 3d, output 2 d d, MLP 2 x 2 d 4d, scores and values 2 x 2 s d; the head 2 d V), times 3
    for forward + backward (each backward matmul needs two products of the forward one's size)."""
    d, s = cfg.hidden_size, cfg.seq_len
    per_layer = 2 * d * 3 * d + 2 * d * d + 2 * (2 * d * 4 * d) + 2 * (2 * s * d)
    return 3.0 * (cfg.layers * per_layer + 2 * d * cfg.vocab_size)


def non_matmul_params(cfg: GPTConfig) -> int:
    """Biases and LayerNorm parameters: 6 N counts them as if they were matmul weights."""
    return cfg.layers * 13 * cfg.hidden_size + 2 * cfg.hidden_size


def sinusoidal_positions(seq_len: int, hidden_size: int) -> np.ndarray:
    """The fixed sine/cosine position code of Vaswani et al. (2017), shape (seq_len, hidden)."""
    pos = np.arange(seq_len)[:, None]
    i = np.arange(hidden_size // 2)[None, :]
    angle = pos / (10_000.0 ** (2 * i / hidden_size))
    out = np.zeros((seq_len, hidden_size))
    out[:, 0::2], out[:, 1::2] = np.sin(angle), np.cos(angle)
    return out


def init_params(cfg: GPTConfig, seed: int, dtype=np.float32) -> dict[str, np.ndarray]:
    """GPT-2 initialisation: weights N(0, 0.02), residual projections scaled by 1/sqrt(2 L),
    biases 0, LayerNorm gains 1."""
    rng = np.random.default_rng(seed)
    d, v = cfg.hidden_size, cfg.vocab_size
    normal = lambda *shape, std=0.02: (rng.standard_normal(shape) * std).astype(dtype)  # noqa: E731
    resid = 0.02 / math.sqrt(2 * cfg.layers)
    p = {"wte": normal(v, d)}
    for i in range(cfg.layers):
        p |= {f"h{i}.ln1_g": np.ones(d, dtype), f"h{i}.ln1_b": np.zeros(d, dtype),
              f"h{i}.w_qkv": normal(d, 3 * d), f"h{i}.b_qkv": np.zeros(3 * d, dtype),
              f"h{i}.w_o": normal(d, d, std=resid), f"h{i}.b_o": np.zeros(d, dtype),
              f"h{i}.ln2_g": np.ones(d, dtype), f"h{i}.ln2_b": np.zeros(d, dtype),
              f"h{i}.w_fc": normal(d, 4 * d), f"h{i}.b_fc": np.zeros(4 * d, dtype),
              f"h{i}.w_proj": normal(4 * d, d, std=resid), f"h{i}.b_proj": np.zeros(d, dtype)}
    p |= {"lnf_g": np.ones(d, dtype), "lnf_b": np.zeros(d, dtype), "w_head": normal(d, v)}
    return p


def sample_batch(cfg: GPTConfig, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Seeded random token ids: inputs and next-token targets, each (batch, seq_len)."""
    tokens = np.random.default_rng(seed).integers(0, cfg.vocab_size, size=(cfg.batch, cfg.seq_len + 1))
    return tokens[:, :-1], tokens[:, 1:]


def _layer_norm(x, g, b):
    mu = x.mean(-1, keepdims=True)
    xc = x - mu
    rstd = 1.0 / np.sqrt((xc * xc).mean(-1, keepdims=True) + LN_EPS)
    xhat = xc * rstd
    return xhat * g + b, (xhat, rstd)


def _layer_norm_backward(dy, g, cache):
    xhat, rstd = cache
    dxhat = dy * g
    dx = rstd * (dxhat - dxhat.mean(-1, keepdims=True) - xhat * (dxhat * xhat).mean(-1, keepdims=True))
    return dx, (dy * xhat).sum(axis=(0, 1)), dy.sum(axis=(0, 1))


def _gelu(x):
    t = np.tanh(GELU_C * (x + 0.044715 * x * x * x))  # x * x * x: numpy float32 ** is slow
    return 0.5 * x * (1.0 + t), t


def _gelu_backward(dy, x, t):
    return dy * (0.5 * (1.0 + t) + 0.5 * x * (1.0 - t * t) * GELU_C * (1.0 + 3 * 0.044715 * x * x))


class TinyGPT:
    """The model and its Adam state. ``matmul_flops`` adds up 2 m n k for every matmul run."""

    def __init__(self, cfg: GPTConfig, seed: int, dtype=np.float32, lr: float = 1e-3):
        self.cfg, self.dtype, self.lr = cfg, dtype, lr
        self.params = init_params(cfg, seed, dtype)
        self.pos = sinusoidal_positions(cfg.seq_len, cfg.hidden_size).astype(dtype)
        mask = np.tril(np.ones((cfg.seq_len, cfg.seq_len), dtype=bool))
        self.neg_mask = np.where(mask, 0.0, -np.inf).astype(dtype)
        self.m = {k: np.zeros_like(v) for k, v in self.params.items()}
        self.v = {k: np.zeros_like(v) for k, v in self.params.items()}
        self.t = 0
        self.matmul_flops = 0

    def _mm(self, a, b):
        out = a @ b
        self.matmul_flops += 2 * a.shape[-1] * out.size
        return out

    def _heads(self, x):  # (B, s, d) -> (B, H, s, d/H)
        b, s, d = x.shape
        return x.reshape(b, s, self.cfg.heads, d // self.cfg.heads).transpose(0, 2, 1, 3)

    def _merge(self, x):  # (B, H, s, d/H) -> (B, s, d)
        b, h, s, hd = x.shape
        return x.transpose(0, 2, 1, 3).reshape(b, s, h * hd)

    def loss_and_grads(self, inputs, targets) -> tuple[float, dict[str, np.ndarray]]:
        """Mean next-token cross-entropy and the gradient of every parameter."""
        p, cfg = self.params, self.cfg
        scale = 1.0 / math.sqrt(cfg.hidden_size // cfg.heads)
        x = p["wte"][inputs] + self.pos
        caches = []
        for i in range(cfg.layers):
            a, ln1 = _layer_norm(x, p[f"h{i}.ln1_g"], p[f"h{i}.ln1_b"])
            qkv = self._mm(a, p[f"h{i}.w_qkv"]) + p[f"h{i}.b_qkv"]
            q, k, v = (self._heads(z) for z in np.split(qkv, 3, axis=-1))
            scores = self._mm(q, k.transpose(0, 1, 3, 2)) * scale + self.neg_mask
            att = np.exp(scores - scores.max(-1, keepdims=True))
            att /= att.sum(-1, keepdims=True)
            y = self._merge(self._mm(att, v))
            x = x + self._mm(y, p[f"h{i}.w_o"]) + p[f"h{i}.b_o"]
            m, ln2 = _layer_norm(x, p[f"h{i}.ln2_g"], p[f"h{i}.ln2_b"])
            f_pre = self._mm(m, p[f"h{i}.w_fc"]) + p[f"h{i}.b_fc"]
            f, t = _gelu(f_pre)
            x = x + self._mm(f, p[f"h{i}.w_proj"]) + p[f"h{i}.b_proj"]
            caches.append((a, ln1, q, k, v, att, y, m, ln2, f_pre, f, t))
        hf, lnf = _layer_norm(x, p["lnf_g"], p["lnf_b"])
        logits = self._mm(hf, p["w_head"])
        logits = logits - logits.max(-1, keepdims=True)
        probs = np.exp(logits)
        probs /= probs.sum(-1, keepdims=True)
        n = targets.size
        b_idx, s_idx = np.indices(targets.shape)
        loss = float(-np.log(probs[b_idx, s_idx, targets]).mean())

        g = {}
        dlogits = probs
        dlogits[b_idx, s_idx, targets] -= 1.0
        dlogits /= n
        g["w_head"] = self._mm(hf.reshape(n, -1).T, dlogits.reshape(n, -1))
        dx, g["lnf_g"], g["lnf_b"] = _layer_norm_backward(self._mm(dlogits, p["w_head"].T), p["lnf_g"], lnf)
        for i in reversed(range(cfg.layers)):
            a, ln1, q, k, v, att, y, m, ln2, f_pre, f, t = caches[i]
            g[f"h{i}.w_proj"] = self._mm(f.reshape(n, -1).T, dx.reshape(n, -1))
            g[f"h{i}.b_proj"] = dx.sum(axis=(0, 1))
            df_pre = _gelu_backward(self._mm(dx, p[f"h{i}.w_proj"].T), f_pre, t)
            g[f"h{i}.w_fc"] = self._mm(m.reshape(n, -1).T, df_pre.reshape(n, -1))
            g[f"h{i}.b_fc"] = df_pre.sum(axis=(0, 1))
            dm, g[f"h{i}.ln2_g"], g[f"h{i}.ln2_b"] = _layer_norm_backward(
                self._mm(df_pre, p[f"h{i}.w_fc"].T), p[f"h{i}.ln2_g"], ln2)
            dx = dx + dm
            g[f"h{i}.w_o"] = self._mm(y.reshape(n, -1).T, dx.reshape(n, -1))
            g[f"h{i}.b_o"] = dx.sum(axis=(0, 1))
            dy = self._heads(self._mm(dx, p[f"h{i}.w_o"].T))
            datt = self._mm(dy, v.transpose(0, 1, 3, 2))
            dv = self._mm(att.transpose(0, 1, 3, 2), dy)
            dscores = att * (datt - (datt * att).sum(-1, keepdims=True)) * scale
            dq = self._mm(dscores, k)
            dk = self._mm(dscores.transpose(0, 1, 3, 2), q)
            dqkv = np.concatenate([self._merge(dq), self._merge(dk), self._merge(dv)], axis=-1)
            g[f"h{i}.w_qkv"] = self._mm(a.reshape(n, -1).T, dqkv.reshape(n, -1))
            g[f"h{i}.b_qkv"] = dqkv.sum(axis=(0, 1))
            da, g[f"h{i}.ln1_g"], g[f"h{i}.ln1_b"] = _layer_norm_backward(
                self._mm(dqkv, p[f"h{i}.w_qkv"].T), p[f"h{i}.ln1_g"], ln1)
            dx = dx + da
        g["wte"] = np.zeros_like(p["wte"])
        np.add.at(g["wte"], inputs.reshape(-1), dx.reshape(n, -1))
        return loss, g

    def adam_update(self, grads: dict[str, np.ndarray], b1=0.9, b2=0.999, eps=1e-8) -> None:
        """One Adam step (Kingma & Ba 2015) with bias correction, in place."""
        self.t += 1
        c1, c2 = 1.0 - b1 ** self.t, 1.0 - b2 ** self.t
        for name, grad in grads.items():
            m, v = self.m[name], self.v[name]
            m *= b1
            m += (1.0 - b1) * grad
            v *= b2
            v += (1.0 - b2) * grad * grad
            self.params[name] -= (self.lr / c1) * m / (np.sqrt(v / c2) + eps)

    def train_step(self, inputs, targets) -> float:
        """Forward, backward and Adam update; returns the loss before the update."""
        loss, grads = self.loss_and_grads(inputs, targets)
        self.adam_update(grads)
        return loss
