"""Render the staged book with ``jupyter-book build``, incrementally.

Sphinx keeps its environment and doctrees between builds in ``_build/.render/``, and re-reads
only the pages whose source changed: :func:`sync_tree` copies the staged sources there, writing
only the files whose bytes differ, so an unchanged page keeps its modification time and is not
re-read. A full render takes 7–8 s on the 2-core machine; one changed chapter about 2–3 s.

The scenario banner is not part of Sphinx's configuration (a changed configuration makes Sphinx
write every page again): the configuration holds a fixed marker, and :func:`announce` replaces it
in a copy of the output, or removes the banner for a build at the defaults. A clean build and an
incremental one give the same bytes (``tests/test_build_speed.py``).

A failed render removes ``_build/.render/``, so the next build starts clean and reports every
warning again; so does one interrupted mid-way (its marker file is left behind).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from html import escape as html_escape
from pathlib import Path

from analysis.errors import ExecutionError

MARKER = "@@scenario-announcement@@"
# pydata-sphinx-theme's markup for a local announcement (sections/announcement.html)
BANNER = ('\n<aside class="bd-header-announcement" aria-label="Announcement">\n'
          '  <div class="bd-header-announcement__content">{}</div>\n</aside>')
IN_PROGRESS = ".in-progress"


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
        target = dest / rel
        data = (src / rel).read_bytes()
        if target.is_file() and target.read_bytes() == data:
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)  # a new modification time: Sphinx re-reads this page
        changed += 1
    return changed


def jupyter_book(src: Path, out: Path) -> None:
    exe = Path(sys.executable).parent / "jupyter-book"
    cmd = [str(exe), "build", str(src), "--path-output", str(out), "-W", "-n", "--keep-going", "--quiet"]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0 and "No space left on device" in proc.stdout + proc.stderr:
        raise ExecutionError("jupyter-book build failed: no space left on device; the previous book is untouched")
    if proc.returncode != 0:
        tail = "\n".join((proc.stdout + proc.stderr).strip().splitlines()[-30:])
        raise ExecutionError(f"jupyter-book build failed; the previous book is untouched.\n{tail}")


def render(src: Path, work: Path, html_out: Path, scenario: str | None) -> None:
    """Render the staged book ``src`` (its configuration holding :data:`MARKER` as the
    announcement) with Sphinx's state kept in ``work``; write the finished HTML to ``html_out``."""
    if (work / IN_PROGRESS).exists():  # a render was interrupted: its state is not trusted
        shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True, exist_ok=True)
    (work / IN_PROGRESS).touch()
    try:
        sync_tree(src, work / "src")
        jupyter_book(work / "src", work / "out")
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise
    (work / IN_PROGRESS).unlink()
    # A copy, not links: Sphinx rewrites its output files in place on the next build.
    shutil.copytree(work / "out" / "_build" / "html", html_out)
    announce(html_out, scenario)


def announce(html_dir: Path, scenario: str | None) -> None:
    """Put the scenario banner where the marker is on every page, or remove the banner."""
    banner = BANNER.format(MARKER).encode()
    replacement = BANNER.format(banner_text(scenario)).encode() if scenario else b""
    for page in html_dir.rglob("*.html"):
        data = page.read_bytes()
        if banner in data:
            page.write_bytes(data.replace(banner, replacement))
