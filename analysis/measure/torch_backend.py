"""The CUDA path of ``measure``, with PyTorch (optional: ``requirements-gpu.txt``). Imported only
for ``--device cuda``; nothing else in the package needs torch.

Dense matmuls in bf16, fp16, tf32 and fp32 at several sizes, and one training step of the same
small GPT as :mod:`.gpt_numpy` (same layers, same parameter count, so the same FLOP accounting)
as an ``nn.Module`` under bf16 autocast with AdamW. Times come from CUDA synchronisation around
``time.perf_counter``; warm-up calls absorb compilation and cuBLAS heuristics.
"""

from __future__ import annotations

import math
from functools import partial

from analysis.errors import InputError
from analysis.measure.gpt_numpy import GPTConfig, sample_batch, sinusoidal_positions
from analysis.measure.timing import MatmulResult, matmul_flops, time_calls


def require_cuda():
    """The ``torch`` module if PyTorch and a CUDA device are present; an InputError (exit 2) that
    says what to install otherwise."""
    try:
        import torch
    except ImportError:
        raise InputError("--device cuda needs PyTorch, which is not installed here; install it with "
                         "`pip install -r requirements-gpu.txt` (the CPU path, --device cpu, needs only numpy)") from None
    if not torch.cuda.is_available():
        raise InputError(f"--device cuda: PyTorch {torch.__version__} sees no CUDA device "
                         f"(built for CUDA {torch.version.cuda or 'none'}); use --device cpu")
    return torch


def device_info(torch) -> tuple[str, int, str]:
    """Device name, streaming multiprocessors, and the software versions."""
    props = torch.cuda.get_device_properties(0)
    cudnn = torch.backends.cudnn.version() if torch.backends.cudnn.is_available() else None
    import platform
    software = (f"python {platform.python_version()}; torch {torch.__version__}; CUDA {torch.version.cuda}; "
                f"cuDNN {cudnn}; compute capability {props.major}.{props.minor}")
    return props.name, props.multi_processor_count, software


DTYPES = {"bf16": "bfloat16", "fp16": "float16", "tf32": "float32", "fp32": "float32"}


def measure_matmuls(torch, sizes, precisions, seed: int, warmup: int, repeats: int,
                    min_repeat_s: float) -> list[MatmulResult]:
    """Square matmuls on the GPU; ``tf32`` is fp32 storage with TF32 tensor cores allowed, ``fp32``
    with them forbidden."""
    gen = torch.Generator(device="cuda").manual_seed(seed)
    sync = torch.cuda.synchronize
    results = []
    saved = torch.backends.cuda.matmul.allow_tf32
    try:
        for precision in precisions:
            torch.backends.cuda.matmul.allow_tf32 = precision == "tf32"
            dtype = getattr(torch, DTYPES[precision])
            for n in sizes:
                a = torch.randn(n, n, device="cuda", dtype=dtype, generator=gen)
                b = torch.randn(n, n, device="cuda", dtype=dtype, generator=gen)
                out = torch.empty(n, n, device="cuda", dtype=dtype)
                # partial binds this iteration's tensors (a lambda would read the names, deleted
                # below); deleting the call after timing frees them before the next, larger size
                call = partial(torch.matmul, a, b, out=out)
                del a, b, out
                timing = time_calls(call, warmup, repeats, min_repeat_s, sync=sync)
                results.append(MatmulResult(precision, n, n, n, matmul_flops(n, n, n), timing))
                del call
    finally:
        torch.backends.cuda.matmul.allow_tf32 = saved
    return results


def build_model(torch, cfg: GPTConfig):
    """The small GPT as an ``nn.Module`` with exactly :func:`.gpt_numpy.param_count` parameters."""
    nn, F = torch.nn, torch.nn.functional

    class Block(nn.Module):
        def __init__(self):
            super().__init__()
            d = cfg.hidden_size
            self.ln1, self.qkv, self.o = nn.LayerNorm(d), nn.Linear(d, 3 * d), nn.Linear(d, d)
            self.ln2, self.fc, self.proj = nn.LayerNorm(d), nn.Linear(d, 4 * d), nn.Linear(4 * d, d)

        def forward(self, x):
            b, s, d = x.shape
            q, k, v = self.qkv(self.ln1(x)).split(d, dim=-1)
            q, k, v = (z.view(b, s, cfg.heads, d // cfg.heads).transpose(1, 2) for z in (q, k, v))
            y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
            x = x + self.o(y.transpose(1, 2).reshape(b, s, d))
            return x + self.proj(F.gelu(self.fc(self.ln2(x)), approximate="tanh"))

    class GPT(nn.Module):
        def __init__(self):
            super().__init__()
            self.wte = nn.Embedding(cfg.vocab_size, cfg.hidden_size)
            self.register_buffer("pos", torch.tensor(sinusoidal_positions(cfg.seq_len, cfg.hidden_size),
                                                     dtype=torch.float32), persistent=False)
            self.blocks = nn.ModuleList(Block() for _ in range(cfg.layers))
            self.ln_f = nn.LayerNorm(cfg.hidden_size)
            self.head = nn.Linear(cfg.hidden_size, cfg.vocab_size, bias=False)

        def forward(self, idx, targets):
            x = self.wte(idx) + self.pos
            for block in self.blocks:
                x = block(x)
            logits = self.head(self.ln_f(x))
            return F.cross_entropy(logits.float().view(-1, cfg.vocab_size), targets.reshape(-1))

    for p in (model := GPT()).parameters():
        if p.dim() == 2:
            torch.nn.init.normal_(p, std=0.02)
    for block in model.blocks:  # GPT-2's residual scaling, as in the numpy model
        for w in (block.o.weight, block.proj.weight):
            torch.nn.init.normal_(w, std=0.02 / math.sqrt(2 * cfg.layers))
    return model


def measure_train_step(torch, cfg: GPTConfig, seed: int, warmup: int, repeats: int):
    """Time one step (forward and backward under bf16 autocast, AdamW update); the Timing and the
    parameter count. Flash attention skips the masked half of the score matrix; the FLOP
    convention still counts it (12 L h s), as NVIDIA's and PaLM's MFU do."""
    torch.manual_seed(seed)
    model = build_model(torch, cfg).cuda()
    params = sum(p.numel() for p in model.parameters())
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.0)
    inputs, targets = (torch.tensor(a, device="cuda") for a in sample_batch(cfg, seed))

    def step(model=model, opt=opt):  # bound here, so deleting the names below frees the model
        with torch.autocast("cuda", dtype=torch.bfloat16):
            loss = model(inputs, targets)
        loss.backward()
        opt.step()
        opt.zero_grad(set_to_none=True)

    timing = time_calls(step, warmup, repeats, sync=torch.cuda.synchronize)
    del step, model, opt
    torch.cuda.empty_cache()
    return timing, params
