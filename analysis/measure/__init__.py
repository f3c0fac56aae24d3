"""Measure your own hardware: ``python -m analysis measure [--device cpu|cuda] [--quick]``.

Two measurements, each with warm-up runs and repeats, reported as median and spread:

- dense matmul throughput at several sizes and data types (:mod:`.timing`), whose best median is
  the device's *measured matmul peak*, the "maximum achievable matmul FLOP/s";
- one training step (forward, backward, Adam update) of a small GPT-style model
  (:mod:`.gpt_numpy` on CPU, :mod:`.torch_backend` on CUDA), whose FLOPs come from
  :func:`analysis.flops.training_flops_per_token`, giving its MFU against the measured peak and,
  for a GPU in ``data/gpus.csv``, against the datasheet dense peak.

:mod:`.rows` turns the measurements into rows of the ``measured`` table
(``data/measured/benchmarks_measured.csv``) with the run's provenance, validates them and appends
them atomically; :mod:`.harness` runs it all for the CLI; :mod:`.report` shows measured rows in
the book. The CPU path needs numpy only; PyTorch (``requirements-gpu.txt``) is imported only for
``--device cuda``.
"""
