"""Kernels forked from a process that has already imported what every chapter imports.

A chapter's kernel normally starts a fresh Python (``python -m ipykernel_launcher``) and imports
IPython, ipykernel, numpy, pandas, matplotlib and ``analysis`` again: about 1.3 s of every
chapter's run on the 2-core machine, more than most chapters compute. Here the process that runs
papermill imports those modules once (:func:`preload`), and each chapter's kernel is a
``fork()`` of it that goes straight to ipykernel's own start-up
(:class:`analysis.pipeline.kernel_manager.ForkingKernelManager`). ``python -m analysis run``
forks a warm kernel at its start instead (:func:`start_warm_kernel`), which imports beside the
command's own checks and then becomes the first kernel the command launches.

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
- this process already has an IPython shell, or has imported pyplot (:func:`_clean_base`);
- ``ANALYSIS_FORK_KERNELS=0`` is set, or the platform is not Linux.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import gc
import importlib
import json
import os
import signal
import sys
import threading
from pathlib import Path

# Set before matplotlib is first imported: the kernel's default backend, as ipykernel sets it
# (kernelapp.init_gui_pylab) and matplotlib reads it once, at import.
INLINE_BACKEND = "module://matplotlib_inline.backend_inline"
PRELOAD = ("numpy", "pandas", "matplotlib", "matplotlib.pyplot", "IPython", "IPython.display",
           "ipykernel.kernelapp", "ipykernel.ipkernel", "ipykernel.zmqshell", "analysis.notebook",
           "analysis.tables", "analysis.plots")
_PRELOADED = {"done": False}


def enabled() -> bool:
    # Linux only: macOS's system libraries are not safe to use in a forked child.
    return sys.platform.startswith("linux") and os.environ.get("ANALYSIS_FORK_KERNELS", "1") != "0"


def preload(sections: list[str] | None = None) -> None:
    """Import what every chapter's kernel imports (each chapter and figure module of ``sections``,
    default all), once per process. Does nothing when forking is disabled, or when this process
    is no clean base for a kernel (:func:`_clean_base`): its kernels are then launched."""
    if _PRELOADED["done"] or _PRELOADED.get("unfit") or not enabled():
        return
    if not _clean_base():
        _PRELOADED["unfit"] = True
        return
    os.environ.setdefault("MPLBACKEND", INLINE_BACKEND)
    if "matplotlib" in sys.modules and os.environ["MPLBACKEND"] == INLINE_BACKEND:
        import matplotlib

        matplotlib.rcParams["backend"] = INLINE_BACKEND  # imported earlier, before the variable was set
    from analysis.sections import SECTIONS

    for name in PRELOAD:
        importlib.import_module(name)
    for name in sections or [s.name for s in SECTIONS]:
        for layer in ("chapters", "figures"):
            with contextlib.suppress(ModuleNotFoundError):
                importlib.import_module(f"analysis.{layer}.{name}")
    _warm_matplotlib()
    _PRELOADED["done"] = True


def _clean_base() -> bool:
    """Whether a kernel forked from this process would start as a launched one does: no IPython
    shell exists yet (a kernel creates the one allowed per process; a test that rendered a
    figure in a notebook style creates one), and pyplot has not picked a backend for this
    process (the kernel's is the inline one)."""
    if "matplotlib.pyplot" in sys.modules:
        return False
    shell = sys.modules.get("IPython.core.interactiveshell")
    return shell is None or not shell.InteractiveShell.initialized()


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


def _safe_to_fork(root: Path) -> bool:
    import analysis

    return (enabled() and Path(analysis.__file__).resolve().parent.parent == Path(root).resolve()
            and sys.flags.hash_randomization == 0  # kernels run with PYTHONHASHSEED=0; a fork inherits the seed
            and threading.active_count() == 1 and not _zmq_threads())


def can_fork_for(root: Path) -> bool:
    """Whether a kernel for a section of the project at ``root`` may be forked from this process."""
    return _PRELOADED["done"] and _safe_to_fork(root)


_WARM: dict = {}  # the warm kernel: {"root": Path, "pid": int, "fd": int}


def start_warm_kernel(root: Path, sections: list[str] | None = None) -> None:
    """Fork, now, a process that imports what a kernel needs (:func:`preload`) beside this one and
    then waits to become the next kernel launched for ``root``: ``python -m analysis run`` imports
    and validates its inputs (about 0.8 s) while the kernel gets ready (about 1 s), on the
    second core. It preloads the chapter modules of ``sections`` (default all). Unused (an input
    error, Ctrl-C), it exits when this process closes the pipe."""
    if _WARM or _PRELOADED["done"] or not _safe_to_fork(root):
        return
    read_fd, write_fd = os.pipe()
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:
        os.close(write_fd)
        code = 1
        try:
            with contextlib.suppress(OSError, AttributeError):
                ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # die with the runner
            preload(sections)
            request = b""
            while chunk := os.read(read_fd, 1 << 16):
                request += chunk
            os.close(read_fd)
            if request:
                run_kernel(*json.loads(request))  # never returns
            code = 0
        finally:
            os._exit(code)
    os.close(read_fd)
    _WARM.update(root=Path(root).resolve(), pid=pid, fd=write_fd)


def warm_kernel_ready(root: Path) -> bool:
    return bool(_WARM) and _WARM["root"] == Path(root).resolve()


def hand_to_warm_kernel(root: Path, argv: list[str], env: dict, cwd: str) -> int | None:
    """Give the warm kernel its launch (connection file, environment, folder); its pid, or None
    when there is none for ``root`` or it has died."""
    if not warm_kernel_ready(root):
        return None
    pid, fd = _WARM.pop("pid"), _WARM.pop("fd")
    _WARM.clear()
    try:
        if os.waitpid(pid, os.WNOHANG)[0]:  # it died while preloading
            return None
        data = json.dumps([argv, env, cwd]).encode()
        while data:
            data = data[os.write(fd, data):]
        return pid
    except OSError:
        return None
    finally:
        os.close(fd)


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


# ipykernel 7 warns on every start that its loopback TCP channels are unencrypted (the kernel is
# local and short-lived) and logs the interrupt that ends it; the runner drops these lines from a
# launched kernel's stderr, and a forked kernel does not log them.
NOISE = ("Kernel is running over TCP without encryption", "KeyboardInterrupt caught in kernel")


class _DropNoise:
    def filter(self, record) -> bool:
        return not any(n in record.getMessage() for n in NOISE)


def _close_inherited_channels() -> None:
    """Close the sockets, pipes and event descriptors inherited from the parent (its ZeroMQ
    channels, its pool's pipes), as Popen's close_fds would. Regular files stay open: matplotlib
    reads glyphs lazily from the font files it opened in :func:`preload`."""
    with contextlib.suppress(OSError):
        for name in os.listdir("/proc/self/fd"):
            fd = int(name)
            if fd <= 2:
                continue
            with contextlib.suppress(OSError):
                if os.readlink(f"/proc/self/fd/{fd}").startswith(("socket:", "pipe:", "anon_inode:")):
                    os.close(fd)


def run_kernel(argv: list[str], env: dict, cwd: str) -> None:
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
        _close_inherited_channels()
        env = {**env, "JPY_PARENT_PID": str(os.getppid())}  # as jupyter_client's launcher sets it
        os.chdir(cwd)
        os.environ.clear()
        os.environ.update(env)
        # The fork happened inside the runner's event loop; the kernel starts its own.
        asyncio.events._set_running_loop(None)
        asyncio.set_event_loop(asyncio.new_event_loop())
        sys.argv = [str(Path(sys.prefix) / "ipykernel_launcher.py"), *argv]
        import logging

        from ipykernel import kernelapp

        logging.getLogger("IPKernelApp").addFilter(_DropNoise())

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


def manager_for(root: Path):
    """The kernel manager class nbclient should use for a section of the project at ``root``
    (:class:`analysis.pipeline.kernel_manager.ForkingKernelManager`)."""
    from analysis.pipeline.kernel_manager import ForkingKernelManager

    return type("ForkingKernelManagerForRoot", (ForkingKernelManager,), {"root": Path(root)})
