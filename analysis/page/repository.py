"""The code repository the published book links to (its footer, Jupyter Book's repository and
issue buttons): ``repository.url`` in ``_config.yml`` when the maintainer sets it, else the web
address of the checkout's ``origin`` remote, read at build time; with neither, no link and no
buttons (Jupyter Book's own default would point at executablebooks/jupyter-book)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path


def repository_url(config: dict) -> str:
    """The code repository's URL from a Jupyter Book configuration (``repository.url``), or ''."""
    url = str((config.get("repository") or {}).get("url") or "").strip().rstrip("/")
    return url if url.startswith(("https://", "http://")) else ""


# A remote as git prints it: scp-like (git@host:owner/repo.git), ssh://, https:// (credentials
# dropped: they must never reach a published page). Only owner/repository paths on a web host count.
_REMOTE = re.compile(r"^(?:(?:ssh://)?[^@/\s]+@(?P<ssh_host>[^:/\s]+)(?::\d+)?[:/]|https?://(?:[^@/\s]+@)?(?P<web_host>[^/\s]+)/)"
                     r"(?P<path>[\w.-]+(?:/[\w.-]+)+)/?$")


def remote_url(root: Path) -> str:
    """The web address of the checkout's ``origin`` remote (``git remote get-url origin``), for
    the book's repository link: ``https://host/owner/repo``; '' outside a git checkout of ``root``,
    without an origin, or for a remote that is no web repository (a local path)."""
    def git(*args):
        proc = subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True)
        return proc.stdout.strip() if proc.returncode == 0 else ""

    if git("rev-parse", "--show-toplevel") != str(Path(root).resolve()):
        return ""
    match = _REMOTE.match(git("remote", "get-url", "origin"))
    if not match:
        return ""
    return f"https://{match['ssh_host'] or match['web_host']}/{match['path'].removesuffix('.git')}"


def book_repository(config: dict, root: Path) -> str:
    """The repository the book links to: ``repository.url`` in ``_config.yml`` when the maintainer
    set it, else the checkout's GitHub (or other) remote, else '' (no link, no buttons)."""
    return repository_url(config) or remote_url(root)
