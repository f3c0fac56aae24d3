"""Render the staged book with Jupyter Book's own command line, ``jupyter-book build``, run by a
process of its own (:class:`Renderer`) that the build starts first: it imports Jupyter Book and the
book's Sphinx extensions while the sections execute, then waits. When the pages are staged it runs
the command in process, through click's public ``main(args=..., standalone_mode=False)``, so the
render does not wait on a second start-up of Python, Sphinx and its extensions.

Sphinx keeps its environment and output in ``_build/.render/`` between builds and, as for any
project, re-reads only the pages whose files are newer than its last read: :func:`sync_tree`
writes only the staged files whose bytes differ, so an unchanged page keeps its modification
time. The HTML is then copied out (Sphinx rewrites its output in place next time), without the
files no page links any more, and the scenario banner is set in the copy: the configuration holds
a fixed marker, because a changed configuration makes Sphinx write every page again. A failed or
interrupted render removes ``_build/.render/``, so the next one starts clean.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from html import escape as html_escape
from pathlib import Path

import yaml

from analysis.errors import ExecutionError
from analysis.outputs import follow_parent

MARKER = "@@scenario-announcement@@"
# pydata-sphinx-theme's markup for a local announcement (sections/announcement.html)
BANNER = ('\n<aside class="bd-header-announcement" aria-label="Announcement">\n'
          '  <div class="bd-header-announcement__content">{}</div>\n</aside>')
IN_PROGRESS = ".in-progress"
IMPORTED = "imported-modules.txt"  # what the last render imported, loaded ahead of the next one
OPTIONS = ("-W", "-n", "--keep-going", "--quiet")  # every warning is an error, every reference checked


def banner_text(scenario: str) -> str:
    """The banner every page of a scenario build shows; the user's text is escaped (the theme
    inserts it as raw HTML)."""
    return (f"Scenario: {html_escape(scenario)}. The numbers on this page are not the report's defaults; "
            "the Assumptions appendix lists what changed.")


def sync_tree(src: Path, dest: Path) -> int:
    """Make ``dest`` a copy of ``src``, writing only files whose bytes differ and removing files
    ``src`` lacks. Returns the number of files written or removed."""
    changed = 0
    wanted = {p.relative_to(src) for p in src.rglob("*") if p.is_file()}
    if dest.exists():
        for path in sorted(dest.rglob("*"), reverse=True):
            rel = path.relative_to(dest)
            if path.is_file() and rel not in wanted:
                path.unlink()
                changed += 1
            elif path.is_dir() and not any(path.iterdir()):
                path.rmdir()
    for rel in sorted(wanted):
        target, data = dest / rel, (src / rel).read_bytes()
        if target.is_file() and target.read_bytes() == data:
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)  # a new modification time: Sphinx re-reads this page
        changed += 1
    return changed


class Renderer:
    """The render process (``python -m analysis.pipeline.render PID CONFIG WORK``), started before
    the sections execute; :meth:`render` hands it one render, :meth:`stop` ends it unused."""

    def __init__(self, config: Path, work: Path):
        self.work, self.log = work, tempfile.TemporaryFile()  # the log: Jupyter Book's and Sphinx's messages
        self.proc = subprocess.Popen([sys.executable, "-m", "analysis.pipeline.render", str(os.getpid()), str(config), str(work)],
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
    from jupyter_book.cli.main import main

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


def announce(html_dir: Path, scenario: str | None) -> None:
    """Put the scenario banner where the marker is on every page, or remove the banner."""
    banner = BANNER.format(MARKER).encode()
    replacement = BANNER.format(banner_text(scenario)).encode() if scenario else b""
    for page in html_dir.rglob("*.html"):
        data = page.read_bytes()
        if banner in data:
            page.write_bytes(data.replace(banner, replacement))


LINKED = re.compile(rb'(?:src|href)="(?:\.\./)*(_images/[^"#?]+|_downloads/[^"#?]+)"')


def drop_unlinked_files(html_dir: Path) -> None:
    """Remove from ``_images/`` and ``_downloads/`` the files no page links: what an incremental
    build keeps of earlier versions of the pages it re-read (a clean build has none)."""
    linked = {m.decode() for page in html_dir.rglob("*.html") for m in LINKED.findall(page.read_bytes())}
    for folder in ("_images", "_downloads"):
        for path in sorted((html_dir / folder).rglob("*"), reverse=True):
            rel = path.relative_to(html_dir).as_posix()
            if path.is_file() and rel not in linked:
                path.unlink()
            elif path.is_dir() and not any(path.iterdir()):
                path.rmdir()


if __name__ == "__main__":
    sys.exit(serve(int(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3])))
