"""The rendered site's files, edited after Jupyter Book has written them (pure functions on a
folder, kept apart from the build that calls them, :mod:`analysis.build.render`):

* :func:`sync_tree` stages a book for Sphinx, writing only the files whose bytes differ, so an
  unchanged page keeps its modification time and Sphinx does not read it again;
* :func:`announce` sets the scenario banner in every page (the configuration holds a fixed
  :data:`MARKER`, since a changed configuration makes Sphinx write every page again);
* :func:`drop_unlinked_files` removes the images and downloads no page links any more.
"""

from __future__ import annotations

import re
from html import escape as html_escape
from pathlib import Path

MARKER = "@@scenario-announcement@@"
# pydata-sphinx-theme's markup for a local announcement (sections/announcement.html)
BANNER = ('\n<aside class="bd-header-announcement" aria-label="Announcement">\n'
          '  <div class="bd-header-announcement__content">{}</div>\n</aside>')
LINKED = re.compile(rb'(?:src|href)="(?:\.\./)*(_images/[^"#?]+|_downloads/[^"#?]+)"')


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


def announce(html_dir: Path, scenario: str | None) -> None:
    """Put the scenario banner where the marker is on every page, or remove the banner."""
    banner = BANNER.format(MARKER).encode()
    replacement = BANNER.format(banner_text(scenario)).encode() if scenario else b""
    for page in html_dir.rglob("*.html"):
        data = page.read_bytes()
        if banner in data:
            page.write_bytes(data.replace(banner, replacement))


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
