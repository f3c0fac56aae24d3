"""Shared fixtures. The expensive one, ``book``, builds the whole book once per test session in a
throwaway copy of the repository, so tests never touch the developer's own ``_build/``."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
COPIED = ("analysis", "notebooks", "book", "data", "_config.yml", "_toc.yml", "requirements.txt")


def copy_repo(dest: Path) -> Path:
    """A minimal working copy of the project (sources, data, book) at ``dest``."""
    dest.mkdir(parents=True, exist_ok=True)
    for name in COPIED:
        src = REPO / name
        if src.is_dir():
            shutil.copytree(src, dest / name, ignore=shutil.ignore_patterns("__pycache__", "generated"))
        else:
            shutil.copy2(src, dest / name)
    return dest


def run_cli(*args: str, cwd: Path = REPO, env=None) -> subprocess.CompletedProcess:
    """``python -m analysis ARGS`` in ``cwd`` (whose ``analysis`` package is imported)."""
    import os
    full_env = {**os.environ, "PYTHONPATH": str(cwd), **(env or {})}
    return subprocess.run([sys.executable, "-m", "analysis", *args], cwd=cwd, capture_output=True,
                          text=True, env=full_env, timeout=600)


@pytest.fixture(scope="session")
def book(tmp_path_factory) -> Path:
    """Root of a repository copy whose book has been built once with default parameters."""
    root = copy_repo(tmp_path_factory.mktemp("book") / "repo")
    proc = run_cli("build", cwd=root)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return root
