"""Render the staged book with ``jupyter-book build``, incrementally and started early.

Sphinx keeps its environment and doctrees between builds in ``_build/.render/``, and re-reads
only the pages whose source changed: :func:`sync_tree` copies the staged sources there, writing
only the files whose bytes differ, so an unchanged page keeps its modification time and is not
re-read. A full render takes 7–8 s on the 2-core machine; one changed chapter about 2 s.

:class:`Renderer` starts ``jupyter-book`` when the first chapter starts executing: it imports
Sphinx and the extensions and loads the environment (about 1 s) beside the chapters, then waits
for them.

The scenario banner is not part of Sphinx's configuration (a changed configuration makes Sphinx
write every page again): the configuration holds a fixed marker, and :func:`announce` replaces it
in a copy of the output, or removes the banner for a build at the defaults. A clean build and an
incremental one give the same bytes (``tests/test_build_speed.py``).

A failed render removes ``_build/.render/``, so the next build starts clean and reports every
warning again; so does one interrupted mid-way (its marker file is left behind).
"""

from __future__ import annotations

import contextlib
import os
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
GENERATED = "book/generated"  # the executed chapters and generated appendices


def banner_text(scenario: str) -> str:
    """The banner every page of a scenario build shows; the user's text is escaped (the theme
    inserts it as raw HTML)."""
    return (f"Scenario: {html_escape(scenario)}. The numbers on this page are not the report's defaults; "
            "the Assumptions appendix lists what changed.")


def sync_tree(src: Path, dest: Path, skip: str | None = None) -> int:
    """Make ``dest`` a copy of ``src``, writing only files whose bytes differ and removing files
    ``src`` lacks; files under the relative folder ``skip`` are left alone on both sides.
    Returns the number of files written or removed."""
    def kept(rel: Path) -> bool:
        return skip is None or not rel.is_relative_to(skip)

    changed = 0
    wanted = {rel for rel in (p.relative_to(src) for p in src.rglob("*") if p.is_file()) if kept(rel)}
    if dest.exists():
        for path in sorted(dest.rglob("*"), reverse=True):
            rel = path.relative_to(dest)
            if not kept(rel):
                continue
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


class Renderer:
    """``jupyter-book build`` of the staged book, started early: the process imports Sphinx and
    the book's extensions and loads the previous environment (about 1 s) while chapters still
    execute, then waits; :meth:`finish` syncs the executed chapters in and lets it build.

    Sphinx checks the configuration's files (favicon, static and extra folders) when it starts,
    so :meth:`start` syncs every staged file except the executed chapters first; a chapter file
    left from the last build is replaced only at :meth:`finish`, so Sphinx sees it changed then.
    """

    def __init__(self, work: Path):
        self.work, self.proc, self.log = work, None, None

    def start(self, src: Path) -> None:
        if self.proc is not None:
            return
        if (self.work / IN_PROGRESS).exists():  # a render was interrupted: its state is not trusted
            shutil.rmtree(self.work, ignore_errors=True)
        self.work.mkdir(parents=True, exist_ok=True)
        (self.work / IN_PROGRESS).touch()
        sync_tree(src, self.work / "src", skip=GENERATED)
        self.log = tempfile.TemporaryFile()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "analysis.pipeline.render", str(self.work / "src"), str(self.work / "out")],
            stdin=subprocess.PIPE, stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True)

    def finish(self, src: Path, html_out: Path, scenario: str | None) -> None:
        """Build, and write the finished HTML (banner set) to ``html_out``."""
        self.start(src)
        try:
            sync_tree(src, self.work / "src")
            # Sphinx links a static file with "?v=<checksum>" when the file is already in the
            # output as it writes a page; myst-nb's stylesheet and MathJax arrive only after the
            # pages. Starting without _static/ gives the pages a clean build writes.
            shutil.rmtree(self.work / "out" / "_build" / "html" / "_static", ignore_errors=True)
            self.proc.communicate(b"go\n")
            self.log.seek(0)
            output = self.log.read().decode(errors="replace")
            if self.proc.returncode != 0:
                if "No space left on device" in output:
                    raise ExecutionError("jupyter-book build failed: no space left on device; "
                                         "the previous book is untouched")
                tail = "\n".join(output.strip().splitlines()[-30:])
                raise ExecutionError(f"jupyter-book build failed; the previous book is untouched.\n{tail}")
        except BaseException:
            self.cancel()
            shutil.rmtree(self.work, ignore_errors=True)
            raise
        self.cancel()  # closes the log; the process has ended
        (self.work / IN_PROGRESS).unlink()
        # A copy, not links: Sphinx rewrites its output files in place on the next build.
        shutil.copytree(self.work / "out" / "_build" / "html", html_out)
        announce(html_out, scenario)

    def cancel(self) -> None:
        """Stop a renderer still waiting or building (a failed or interrupted build, or one whose
        pages turned out unchanged)."""
        if self.proc is not None:
            with contextlib.suppress(OSError):
                self.proc.kill()
            self.proc.wait()
            self.proc = None
        if self.log is not None:
            self.log.close()
            self.log = None


def announce(html_dir: Path, scenario: str | None) -> None:
    """Put the scenario banner where the marker is on every page, or remove the banner."""
    banner = BANNER.format(MARKER).encode()
    replacement = BANNER.format(banner_text(scenario)).encode() if scenario else b""
    for page in html_dir.rglob("*.html"):
        data = page.read_bytes()
        if banner in data:
            page.write_bytes(data.replace(banner, replacement))


def prune_stale_outputs(html_dir: Path, images: set[str], downloads: set[str]) -> None:
    """Remove what an incremental build leaves of earlier versions of re-read pages: images in
    ``_images/`` and files in ``_downloads/<digest>/`` that no page uses now (``images`` and
    ``downloads``: the names Sphinx's environment holds, which a clean build would copy)."""
    for path in sorted((html_dir / "_images").glob("*")):
        if path.is_file() and path.name not in images:
            path.unlink()
    for path in sorted((html_dir / "_downloads").glob("*/*")):
        if path.is_file() and f"{path.parent.name}/{path.name}" not in downloads:
            path.unlink()
            if not any(path.parent.iterdir()):
                path.parent.rmdir()


def drop_stale_search_terms(index_file: Path) -> None:
    """An incremental build keeps, with no page, the words that only earlier versions of its
    re-read pages had; a clean build has no such word. Rewritten with Sphinx's own serializer."""
    from sphinx.search import js_index

    if not index_file.is_file():
        return
    data = js_index.loads(index_file.read_text(encoding="utf-8"))
    stale = False
    for key in ("terms", "titleterms"):
        kept = {word: docs for word, docs in data.get(key, {}).items() if docs != []}
        stale |= len(kept) != len(data.get(key, {}))
        data[key] = kept
    if stale:
        index_file.write_text(js_index.dumps(data), encoding="utf-8")


def _serve(src: str, out: str) -> None:
    """The renderer process: ``jupyter-book build`` whose Sphinx application, once created,
    waits for a line "go" on standard input before it builds (anything else: exit 3)."""
    with contextlib.suppress(OSError, AttributeError):  # die with the build (Linux): never outlive its lock
        import ctypes
        import signal

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    from sphinx.application import Sphinx

    build = Sphinx.build

    def build_when_told(self, *args, **kwargs):
        if sys.stdin.readline().strip() != "go":
            raise SystemExit(3)
        # The search index keeps the index entries (glossary terms) only of the pages it writes:
        # mark the pages that have some as changed, so the index holds all of them, as a clean build's does.
        for docname, entries in self.env.get_domain("index").entries.items():
            if entries and Path(self.env.doc2path(docname)).is_file():
                os.utime(self.env.doc2path(docname))
        result = build(self, *args, **kwargs)
        drop_stale_search_terms(Path(self.outdir) / "searchindex.js")
        prune_stale_outputs(Path(self.outdir), {uniq for _, uniq in self.env.images.values()},
                            {dest for _, dest in self.env.dlfiles.values()})
        return result

    Sphinx.build = build_when_told
    from jupyter_book.cli.main import main

    sys.argv = ["jupyter-book", "build", src, "--path-output", out, "-W", "-n", "--keep-going", "--quiet"]
    main()


if __name__ == "__main__":
    _serve(*sys.argv[1:3])
