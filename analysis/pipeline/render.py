"""Render the staged book with Jupyter Book's own command line, ``jupyter-book build``.

Sphinx keeps its environment and output in ``_build/.render/`` between builds and, as for any
project, re-reads only the pages whose files are newer than its last read: :func:`sync_tree`
writes only the staged files whose bytes differ, so an unchanged page keeps its modification
time. The HTML is then copied out (Sphinx rewrites its output in place next time), without the
files no page links any more, and the scenario banner is set in the copy: the configuration holds
a fixed marker, because a changed configuration makes Sphinx write every page again. A failed or
interrupted render removes ``_build/.render/``, so the next one starts clean.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tempfile
from html import escape as html_escape
from pathlib import Path

from analysis.errors import ExecutionError

MARKER = "@@scenario-announcement@@"
# pydata-sphinx-theme's markup for a local announcement (sections/announcement.html)
BANNER = ('\n<aside class="bd-header-announcement" aria-label="Announcement">\n'
          '  <div class="bd-header-announcement__content">{}</div>\n</aside>')
IN_PROGRESS = ".in-progress"
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


def render(src: Path, work: Path, html_out: Path, scenario: str | None) -> None:
    """``jupyter-book build`` of the staged sources ``src`` (incrementally, in ``work``); the
    finished HTML, banner set, goes to ``html_out``."""
    if (work / IN_PROGRESS).exists():  # a render was interrupted: its state is not trusted
        shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True, exist_ok=True)
    (work / IN_PROGRESS).touch()
    sync_tree(src, work / "src")
    built = work / "out" / "_build" / "html"
    with tempfile.TemporaryFile() as log:
        command = Path(sys.executable).with_name("jupyter-book")  # the console script beside this Python
        proc = subprocess.run([str(command), "build", str(work / "src"), "--path-output", str(work / "out"),
                               *OPTIONS], stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        if proc.returncode != 0:
            log.seek(0)
            tail = "\n".join(log.read().decode(errors="replace").strip().splitlines()[:40])  # warnings first
            shutil.rmtree(work, ignore_errors=True)
            raise ExecutionError(f"jupyter-book build failed (exit status {proc.returncode}); "
                                 f"the previous book is untouched.\n{tail}")
    (work / IN_PROGRESS).unlink()
    shutil.copytree(built, html_out)
    drop_unlinked_files(html_out)
    announce(html_out, scenario)


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
