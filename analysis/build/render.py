"""Render the staged book with Jupyter Book's own command line, ``jupyter-book build``, in a process
of its own (:class:`Renderer`) that the build starts first: while the inputs are checked and the
sections execute it imports Jupyter Book, the book's Sphinx extensions and every module the last
render imported; when the pages are staged it runs the command in process, through click's public
``main(args=..., standalone_mode=False)``, so the render does not wait on Python, Sphinx and their
imports.

Sphinx keeps its environment and output in ``_build/.render/`` between builds and re-reads only
the pages whose files are newer than its last read (:func:`analysis.build.site.sync_tree` rewrites only
what changed). The HTML is copied out (Sphinx rewrites its output in place next time), without the
files no page links any more, and the scenario banner is set in the copy (:mod:`analysis.build.site`).
A failed or interrupted render removes ``_build/.render/``, so the next one starts clean.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import yaml

from analysis.build.outputs import follow_parent
from analysis.build.site import announce, drop_unlinked_files, sync_tree
from analysis.errors import ExecutionError

IN_PROGRESS = ".in-progress"
IMPORTED = "imported-modules.txt"  # what the last render imported, loaded ahead of the next one
OPTIONS = ("-W", "-n", "--keep-going", "--quiet")  # every warning is an error, every reference checked


class Renderer:
    """The render process (``python -m analysis.build.render PID CONFIG WORK``), started before
    anything else; :meth:`render` hands it one render, :meth:`stop` ends it unused."""

    def __init__(self, config: Path, work: Path):
        self.work, self.log = work, tempfile.TemporaryFile()  # the log: Jupyter Book's and Sphinx's messages
        self.proc = subprocess.Popen([sys.executable, "-m", "analysis.build.render", str(os.getpid()), str(config), str(work)],
                                     stdin=subprocess.PIPE, stdout=self.log, stderr=subprocess.STDOUT, text=True)

    def render(self, src: Path, html_out: Path, scenario: str | None) -> None:
        """``jupyter-book build`` of the staged sources ``src`` (incrementally, in the renderer's
        ``work`` folder); the finished HTML, banner set, goes to ``html_out``."""
        work = self.work
        if (work / IN_PROGRESS).exists():  # a render was interrupted: its state is not trusted
            shutil.rmtree(work, ignore_errors=True)
        work.mkdir(parents=True, exist_ok=True)
        (work / IN_PROGRESS).touch()
        sync_tree(src, work / "src")
        with contextlib.suppress(BrokenPipeError):  # a renderer that died: its exit status and log say why
            self.proc.stdin.write(json.dumps(["build", str(work / "src"), "--path-output", str(work / "out"), *OPTIONS]) + "\n")
            self.proc.stdin.close()
        if self.proc.wait() != 0:
            self.log.seek(0)
            tail = "\n".join(self.log.read().decode(errors="replace").strip().splitlines()[:40])  # warnings first
            shutil.rmtree(work, ignore_errors=True)
            raise ExecutionError(f"jupyter-book build failed (exit status {self.proc.returncode}); "
                                 f"the previous book is untouched.\n{tail}")
        (work / IN_PROGRESS).unlink()
        shutil.copytree(work / "out" / "_build" / "html", html_out)
        drop_unlinked_files(html_out)
        announce(html_out, scenario)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait()
        self.log.close()


def serve(parent: int, config: Path, work: Path) -> int:
    """The render process: import Jupyter Book, the extensions ``config`` lists and every module
    the last render in ``work`` imported (Sphinx's extensions import most of theirs only when set
    up), then run the ``jupyter-book`` command line read from standard input, if any (a failed
    build exits non-zero), and record the modules it imported."""
    if not follow_parent(parent):
        return 1
    from jupyter_book.cli.main import main  # noqa: PLC0415 (loaded in the render process, while the chapters execute)

    sphinx = (yaml.safe_load(config.read_text(encoding="utf-8")) or {}).get("sphinx") or {}
    recorded = []
    with contextlib.suppress(OSError):  # no render yet, or its state removed
        recorded = (work / IMPORTED).read_text(encoding="utf-8").split()
    for name in [*(sphinx.get("config") or {}).get("extensions", []), *recorded]:
        with contextlib.suppress(Exception):  # one an upgrade removed: the render imports what it needs
            importlib.import_module(name)
    line = sys.stdin.readline()
    if line:  # none: the build needed no render
        main.main(args=json.loads(line), standalone_mode=False)
        (work / IMPORTED).write_text("\n".join(sorted(set(sys.modules) - {"__main__"})), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(serve(int(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3])))
