"""Output folders and process hygiene shared by ``run``, ``compare``, ``measure`` and ``build``.

* ``--out`` is checked before any work starts (:mod:`analysis.build.paths`), so a bad path is an exit 2
  naming it, never a traceback after minutes of computing.
* ``run`` and ``compare`` write into a staging folder unique to the process and move the finished
  files in under a lock at the end: two runs into one folder never mix their files.
* SIGTERM and SIGHUP end the process the way Ctrl-C does (the same cleanup, exit 130), and SIGINT
  is handled even when the process was started with it ignored (a background job of a
  non-interactive shell inherits SIGINT ignored, and Python then installs no handler).
* :func:`follow_parent`: a helper process of the build (a worker, the renderer) ends when the
  build does, even when the build is killed.
* :func:`fault_point`: named points where a test can have the process killed (SIGKILL, no
  handler runs), to check what a kill at that instant leaves (``ANALYSIS_FAULT_AT=<name>``).
"""

from __future__ import annotations

import contextlib
import ctypes
import fcntl
import os
import shutil
import signal
import sys
import threading
from pathlib import Path

from analysis.errors import InputError, clip  # noqa: F401 (clip re-exported)


def make_dir(path: Path, flag: str = "--out") -> None:
    """``mkdir -p`` whose failure is an input error naming the path."""
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InputError(f"{flag} {path}: cannot create the folder: {exc.strerror}") from None


@contextlib.contextmanager
def staged(out: Path, flag: str = "--out"):
    """Yield an empty staging folder beside ``out``, unique to this process; on success move
    every file in it into ``out`` while holding ``out``'s lock. On failure nothing reaches ``out``."""
    make_dir(out.parent, flag)
    for stale in out.parent.glob(f".{out.name}.partial-*"):  # left by a killed run
        if not _pid_alive(stale.name.rsplit("-", 1)[-1]):
            shutil.rmtree(stale, ignore_errors=True)
    stage = out.parent / f".{out.name}.partial-{os.getpid()}"
    shutil.rmtree(stage, ignore_errors=True)
    stage.mkdir()
    try:
        yield stage
        make_dir(out, flag)
        with folder_lock(out.parent / f".{out.name}.lock"):
            for item in stage.iterdir():
                target = out / item.name
                if target.is_dir() and not target.is_symlink():
                    shutil.rmtree(target)
                os.replace(item, target)
    finally:
        shutil.rmtree(stage, ignore_errors=True)


def _pid_alive(text: str) -> bool:
    try:
        os.kill(int(text), 0)
    except (ValueError, ProcessLookupError):
        return False
    except PermissionError:  # another user's process
        return True
    return True


@contextlib.contextmanager
def folder_lock(path: Path):
    """An exclusive ``flock`` on ``path``, released on exit. The descriptor is close-on-exec, so
    no kernel inherits it, and ``run`` and ``compare`` fork no workers that could keep it."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield fd
    finally:
        os.close(fd)


STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


class Terminated(KeyboardInterrupt):
    """SIGTERM or SIGHUP, handled like Ctrl-C."""


def _terminate(signum, _frame):
    raise Terminated(signal.Signals(signum).name)


def install_signal_handlers() -> None:
    """Ctrl-C, SIGTERM and SIGHUP all raise KeyboardInterrupt in the main thread."""
    if threading.current_thread() is not threading.main_thread():
        return
    signal.signal(signal.SIGINT, signal.default_int_handler)
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, _terminate)


def fault_point(name: str) -> None:
    """Kill this process here, as kill -9 or a power cut would, when ``ANALYSIS_FAULT_AT`` names
    this point (tests only). The build names its points: section-running, rendered, version-written,
    linked, swapped; a worker, worker-running (given a section to run); a chapter's kernel,
    kernel-running (as it runs its first cell: :func:`analysis.build.execute.preload`)."""
    if os.environ.get("ANALYSIS_FAULT_AT") == name:
        os.kill(os.getpid(), signal.SIGKILL)


def follow_parent(parent: int) -> bool:
    """Have Linux send this process SIGTERM when its parent dies, even by SIGKILL (prctl(2),
    PR_SET_PDEATHSIG). False when the parent ``parent`` died before this process could ask."""
    if sys.platform.startswith("linux"):

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    return os.getppid() == parent
