"""Kernels forked from a process that has already imported what every chapter imports.

A chapter's kernel normally starts a fresh Python (``python -m ipykernel_launcher``) and imports
IPython, ipykernel, numpy, pandas, matplotlib and ``analysis`` again: about 1.3 s of every
chapter's run on the 2-core machine, more than most chapters compute. Here the process that runs
papermill imports those modules once (:func:`preload`), and each chapter's kernel is a
``fork()`` of it that goes straight to ipykernel's own start-up (:class:`ForkingKernelManager`).

What stays the same as a launched kernel: papermill and nbclient drive it over the same
ZeroMQ sockets; it reads the same connection file, gets the environment, working directory and
argument list jupyter_client computed, runs in a session of its own, and is one process per
chapter, used once and killed, so no chapter's state reaches another. The parent has executed
no chapter code: the only shared state is imported modules (and the data tables it validated,
the same files the section's cache key hashes).

When forking is not safe, the launch falls back to jupyter_client's own subprocess, with the
same outputs, only slower:

- the parent runs another Python thread or a ZeroMQ thread (a fork copies only the calling
  thread, and a lock held by another one would stay held in the child);
- the ``analysis`` package imported here is not the one the section's project root holds (a
  test or benchmark building a copy of the project from another checkout);
- ``ANALYSIS_FORK_KERNELS=0`` is set, or the platform has no ``fork``.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import gc
import importlib
import os
import signal
import sys
import threading
from pathlib import Path

from jupyter_client.manager import AsyncKernelManager

# Set before matplotlib is first imported: the kernel's default backend, as ipykernel sets it
# (kernelapp.init_gui_pylab) and matplotlib reads it once, at import.
INLINE_BACKEND = "module://matplotlib_inline.backend_inline"
PRELOAD = ("numpy", "pandas", "matplotlib", "matplotlib.pyplot", "IPython", "IPython.display",
           "ipykernel.kernelapp", "ipykernel.ipkernel", "ipykernel.zmqshell", "analysis.notebook",
           "analysis.tables", "analysis.plots")
_PRELOADED = {"done": False}


def enabled() -> bool:
    return hasattr(os, "fork") and os.environ.get("ANALYSIS_FORK_KERNELS", "1") != "0"


def preload() -> None:
    """Import what every chapter's kernel imports (each chapter and figure module included), once
    per process. Does nothing when forking is disabled."""
    if _PRELOADED["done"] or not enabled():
        return
    os.environ.setdefault("MPLBACKEND", INLINE_BACKEND)
    if "matplotlib" in sys.modules and os.environ["MPLBACKEND"] == INLINE_BACKEND:
        import matplotlib

        matplotlib.rcParams["backend"] = INLINE_BACKEND  # imported earlier, before the variable was set
    from analysis.sections import SECTIONS

    for name in PRELOAD:
        importlib.import_module(name)
    for section in SECTIONS:
        for layer in ("chapters", "figures"):
            with contextlib.suppress(ModuleNotFoundError):
                importlib.import_module(f"analysis.{layer}.{section.name}")
    _warm_matplotlib()
    _PRELOADED["done"] = True


def _warm_matplotlib() -> None:
    """Draw one throw-away figure in the book's style, so every kernel inherits matplotlib's
    loaded fonts and built mathtext parser (about 0.4 s of a chapter's first figure). It goes
    through no pyplot and no IPython shell, and rcParams are restored: only caches stay warm."""
    import io

    import matplotlib
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    from analysis import plots

    with matplotlib.rc_context(plots.STYLE):
        fig = Figure()
        FigureCanvasAgg(fig)
        ax = fig.add_subplot()
        ax.plot([0, 1], [0, 1], label="a")
        ax.set_title(r"Warm-up $\times 10^{3}$ $\mathregular{x}$")
        ax.set_xlabel("x")
        ax.legend()
        fig.tight_layout()
        fig.savefig(io.BytesIO(), format="png", bbox_inches="tight")


def can_fork_for(root: Path) -> bool:
    """Whether a kernel for a section of the project at ``root`` may be forked from this process."""
    import analysis

    return (enabled() and _PRELOADED["done"]
            and Path(analysis.__file__).resolve().parent.parent == Path(root).resolve()
            and sys.flags.hash_randomization == 0  # kernels run with PYTHONHASHSEED=0; a fork inherits the seed
            and threading.active_count() == 1 and not _zmq_threads())


def _zmq_threads() -> list[str]:
    """Native threads of ZeroMQ in this process (Python's ``threading`` does not list them). The
    BLAS library's worker threads are not counted: OpenBLAS stops them around a fork itself."""
    names = []
    with contextlib.suppress(OSError):
        for task in os.listdir("/proc/self/task"):
            with contextlib.suppress(OSError), open(f"/proc/self/task/{task}/comm") as f:
                names.append(f.read().strip())
    return [n for n in names if n.startswith("ZMQ")]


class ForkedProcess:
    """The parts of :class:`subprocess.Popen` jupyter_client's local provisioner uses, for a
    forked child."""

    def __init__(self, pid: int):
        self.pid, self.returncode = pid, None
        self.stdin = self.stdout = self.stderr = None

    def poll(self) -> int | None:
        if self.returncode is None:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.returncode = os.waitstatus_to_exitcode(status)
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        if self.returncode is None:
            _, status = os.waitpid(self.pid, 0)
            self.returncode = os.waitstatus_to_exitcode(status)
        return self.returncode

    def send_signal(self, signum: int) -> None:
        if self.returncode is None:
            os.kill(self.pid, signum)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)


class ForkingKernelManager(AsyncKernelManager):
    """A kernel manager that forks the kernel from this (preloaded) process where it can; use
    :func:`manager_for` to get one bound to a project root."""

    root = None

    async def _async_launch_kernel(self, kernel_cmd: list[str], **kw) -> None:
        if (self.root is None or not can_fork_for(self.root) or "ipykernel_launcher" not in kernel_cmd
                or Path(kernel_cmd[0]).resolve() != Path(sys.executable).resolve()):
            await super()._async_launch_kernel(kernel_cmd, **kw)
            return
        argv = kernel_cmd[kernel_cmd.index("ipykernel_launcher") + 1:]
        env, cwd = kw.get("env") or dict(os.environ), kw.get("cwd") or os.getcwd()
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            _run_kernel(argv, env, cwd)  # never returns
        provisioner = self.provisioner
        provisioner.process = ForkedProcess(pid)
        provisioner.pid = pid
        provisioner.pgid = pid  # the child leads its own session, as jupyter_client's launch does
        self._reconcile_connection_info(provisioner.connection_info)


def manager_for(root: Path) -> type[ForkingKernelManager]:
    """The kernel manager class nbclient should use for a section of the project at ``root``."""
    return type("ForkingKernelManagerForRoot", (ForkingKernelManager,), {"root": Path(root)})


def _run_kernel(argv: list[str], env: dict, cwd: str) -> None:
    """In the forked child: become a kernel as ``python -m ipykernel_launcher ARGV`` would, then
    exit without running the parent's clean-up (its sockets, locks and threads are not ours)."""
    code = 1
    try:
        gc.freeze()  # the parent's objects are never collected here (their sockets are not ours)
        os.setsid()
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # die with the runner
        for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            signal.signal(sig, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_SETMASK, [])
        devnull = os.open(os.devnull, os.O_RDONLY)
        os.dup2(devnull, 0)  # a launched kernel's stdin is a pipe it never reads, not the terminal
        os.closerange(3, os.sysconf("SC_OPEN_MAX"))  # as Popen's close_fds: no lock or socket of the parent's
        env = {**env, "JPY_PARENT_PID": str(os.getppid())}  # as jupyter_client's launcher sets it
        os.chdir(cwd)
        os.environ.clear()
        os.environ.update(env)
        # The fork happened inside the runner's event loop; the kernel starts its own.
        asyncio.events._set_running_loop(None)
        asyncio.set_event_loop(asyncio.new_event_loop())
        sys.argv = [str(Path(sys.prefix) / "ipykernel_launcher.py"), *argv]
        from ipykernel import kernelapp

        # Two of IPKernelApp's defaults read the environment when the class is defined, which
        # here was in the parent, before jupyter_client set them for this kernel.
        kernelapp.IPKernelApp.launch_instance(
            argv=argv, parent_handle=int(env["JPY_PARENT_PID"]),
            interrupt=int(env.get("JPY_INTERRUPT_EVENT") or 0))
        code = 0
    except BaseException:  # noqa: BLE001 - the child must never return into the parent's code
        import traceback

        traceback.print_exc()
    finally:
        with contextlib.suppress(Exception):
            sys.stdout.flush()
            sys.stderr.flush()
        os._exit(code)
