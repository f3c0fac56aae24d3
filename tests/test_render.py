"""The render process (:class:`analysis.build.render.Renderer`): it loads Jupyter Book while the
sections execute, renders one staged book with ``jupyter-book build``'s own options (every warning
an error), reports a failed render with Sphinx's warning, and never outlives the build.

A tiny staged book (one page, the book's own extension list) keeps each case to seconds; the whole
book renders through the same class in every build the other tests make."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

from analysis.build.render import IMPORTED, Renderer
from analysis.build.site import MARKER
from analysis.errors import ExecutionError

REPO = Path(__file__).resolve().parent.parent


def stage(src: Path, page: str) -> Path:
    """A one-page book in ``src`` with the book's Sphinx configuration and the banner marker."""
    config = yaml.safe_load((REPO / "_config.yml").read_text(encoding="utf-8"))
    config["sphinx"]["config"] = {"extensions": config["sphinx"]["config"]["extensions"]}
    config["html"] = {"announcement": MARKER}
    config["exclude_patterns"] = ["_build"]
    src.mkdir(parents=True)
    (src / "_config.yml").write_text(yaml.safe_dump(config), encoding="utf-8")
    (src / "_toc.yml").write_text("format: jb-book\nroot: index\n", encoding="utf-8")
    (src / "index.md").write_text(page, encoding="utf-8")
    return src


def tree_bytes(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _render(src: Path, work: Path, html: Path, scenario: str | None) -> Renderer:
    renderer = Renderer(src / "_config.yml", work)
    try:
        renderer.render(src, html, scenario)
    finally:
        renderer.stop()
    return renderer


def test_a_staged_book_renders_then_a_sphinx_warning_fails_the_next_render(tmp_path):
    """One clean render; the next one gives the same bytes with the last render's modules loaded
    ahead as without; then a page with a broken reference fails the render with an error naming
    Sphinx's warning, nothing written, and the renderer's state removed so the next starts clean."""
    src, work = stage(tmp_path / "src", "(start)=\n# A page\n\nSee {ref}`start`.\n"), tmp_path / "work"
    assert _render(src, work, tmp_path / "html", "my scenario").proc.returncode == 0
    page = (tmp_path / "html" / "index.html").read_text(encoding="utf-8")
    assert "Scenario: my scenario." in page and MARKER not in page and "A page" in page
    assert (work / "out").is_dir() and not (work / ".in-progress").exists()  # kept for the next render
    assert {"sphinx", "myst_nb", "jupyter_book"} <= set((work / IMPORTED).read_text().split())  # loaded ahead next time
    # an edited page rendered with those modules loaded ahead, then again without them: the same bytes
    (src / "index.md").write_text("(start)=\n# A page, edited\n\nSee {ref}`start`.\n", encoding="utf-8")
    _render(src, work, tmp_path / "html-warm", None)
    (work / IMPORTED).unlink()
    os.utime(work / "src" / "index.md", (time.time() + 5, time.time() + 5))  # read again
    _render(src, work, tmp_path / "html-cold", None)
    assert tree_bytes(tmp_path / "html-warm") == tree_bytes(tmp_path / "html-cold")
    written = [(tmp_path / html / "index.html").stat().st_mtime_ns for html in ("html-warm", "html-cold")]
    assert written[1] > written[0]  # the page was written again, not kept
    assert "A page, edited" in (tmp_path / "html-warm" / "index.html").read_text(encoding="utf-8")
    (src / "index.md").write_text("# A page\n\nSee {ref}`no-such-label`.\n", encoding="utf-8")
    with pytest.raises(ExecutionError) as failed:
        _render(src, work, tmp_path / "html-2", None)
    assert "jupyter-book build failed" in str(failed.value) and "no-such-label" in str(failed.value)
    assert not work.exists() and not (tmp_path / "html-2").exists()


def test_an_unused_renderer_ends_when_stopped(tmp_path):
    src = stage(tmp_path / "src", "# A page\n")
    renderer = Renderer(src / "_config.yml", tmp_path / "work")
    renderer.stop()
    assert renderer.proc.returncode is not None


def test_the_renderer_ends_when_the_build_is_killed(tmp_path):
    """The build starts the renderer and is then killed (SIGKILL, no handler runs): the renderer
    is told by the kernel (prctl PR_SET_PDEATHSIG) and ends too."""
    src = stage(tmp_path / "src", "# A page\n")
    code = ("import sys, time\nfrom pathlib import Path\nfrom analysis.build.render import Renderer\n"
            f"r = Renderer(Path({str(src / '_config.yml')!r}), Path({str(tmp_path / 'work')!r}))\nprint(r.proc.pid, flush=True)\ntime.sleep(600)\n")
    build = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True,
                             env={**os.environ, "PYTHONPATH": str(REPO)})
    pid = int(build.stdout.readline())
    build.kill()
    build.wait()
    deadline = time.monotonic() + 30
    while running(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not running(pid)


def running(pid: int) -> bool:
    """The process exists and has not ended (a zombie, reaped by no one here, has)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False
