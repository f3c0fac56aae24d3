"""The kernel manager and client that papermill's nbclient uses for the book's chapters: the
kernel is the warm one or a fork of this process where :mod:`analysis.pipeline.kernels` allows,
else jupyter_client's own launched process; the client stops waiting for a new kernel as soon
as it is ready."""

from __future__ import annotations

import contextlib
import os
import sys
import time
from pathlib import Path
from queue import Empty

from jupyter_client.asynchronous import AsyncKernelClient
from jupyter_client.manager import AsyncKernelManager
from traitlets import DottedObjectName

from analysis.pipeline import kernels


class QuickReadyClient(AsyncKernelClient):
    """jupyter_client's client, except that waiting for a new kernel ends at the kernel's "idle"
    for the kernel-info request instead of after 0.2 s with no IOPub message (0.2 s of every
    chapter, idle). Every IOPub message the request caused is still read off first."""

    async def wait_for_ready(self, timeout: float | None = None) -> None:
        deadline = time.time() + (float("inf") if timeout is None else timeout)
        while True:
            request = self.kernel_info()
            with contextlib.suppress(Empty):
                reply = await self.shell_channel.get_msg(timeout=1)
                if (reply["msg_type"] == "kernel_info_reply" and reply["parent_header"].get("msg_id") == request
                        and await self._iopub_idle_after(request)):
                    self._handle_kernel_info_reply(reply)
                    return
            if not await self._async_is_alive():
                raise RuntimeError("Kernel died before replying to kernel_info")
            if time.time() > deadline:
                raise RuntimeError(f"Kernel didn't respond in {timeout:.0f} seconds")

    async def _iopub_idle_after(self, request: str) -> bool:
        """Read IOPub up to the "idle" status of ``request``; False if IOPub stays silent 0.2 s
        (not connected yet: the caller asks again, as jupyter_client does)."""
        while True:
            try:
                msg = await self.iopub_channel.get_msg(timeout=0.2)
            except Empty:
                return False
            if (msg["msg_type"] == "status" and msg["parent_header"].get("msg_id") == request
                    and msg["content"].get("execution_state") == "idle"):
                return True


class ForkingKernelManager(AsyncKernelManager):
    """A kernel manager that forks the kernel from this (preloaded) process where it can; use
    :func:`manager_for` to get one bound to a project root."""

    root = None
    client_class = DottedObjectName("analysis.pipeline.kernel_manager.QuickReadyClient")

    async def _async_launch_kernel(self, kernel_cmd: list[str], **kw) -> None:
        if (self.root is None or "ipykernel_launcher" not in kernel_cmd
                or Path(kernel_cmd[0]).resolve() != Path(sys.executable).resolve()):
            _note("launched")
            await super()._async_launch_kernel(kernel_cmd, **kw)
            return
        argv = kernel_cmd[kernel_cmd.index("ipykernel_launcher") + 1:]
        env, cwd = kw.get("env") or dict(os.environ), kw.get("cwd") or os.getcwd()
        pid = kernels.hand_to_warm_kernel(self.root, argv, env, cwd)
        _note("warm" if pid is not None else "forked" if kernels.can_fork_for(self.root) else "launched")
        if pid is None and not kernels.can_fork_for(self.root):
            await super()._async_launch_kernel(kernel_cmd, **kw)
            return
        if pid is None:
            sys.stdout.flush()
            sys.stderr.flush()
            pid = os.fork()
            if pid == 0:
                kernels.run_kernel(argv, env, cwd)  # never returns
        provisioner = self.provisioner
        provisioner.process = kernels.ForkedProcess(pid)
        provisioner.pid = pid
        provisioner.pgid = pid  # the child leads its own session, as jupyter_client's launch does
        self._reconcile_connection_info(provisioner.connection_info)


def _note(kind: str) -> None:
    """With ``ANALYSIS_DEBUG_KERNELS`` set, say on stderr how each kernel started (warm, forked or
    launched): the tests check that the fast paths are the ones taken."""
    if os.environ.get("ANALYSIS_DEBUG_KERNELS"):
        print(f"kernel: {kind}", file=sys.stderr, flush=True)
