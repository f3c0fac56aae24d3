"""The published book links to its own repository, issue tracker, licence and citation: the URL
comes from _config.yml's repository block or, left empty there, from the checkout's origin remote
(credentials never copied); with neither, no repository link and no buttons, never Jupyter Book's
default repository."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
import yaml
from conftest import REPO

from analysis.page import appendices, repository


def _checkout(folder: Path, remote: str | None) -> Path:
    folder.mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(folder)], check=True)
    if remote is not None:
        subprocess.run(["git", "-C", str(folder), "remote", "add", "origin", remote], check=True)
    return folder


@pytest.mark.parametrize("remote,url", [
    ("git@github.com:gpu-econ/book.git", "https://github.com/gpu-econ/book"),
    ("https://github.com/gpu-econ/book.git", "https://github.com/gpu-econ/book"),
    ("https://x-access-token:ghs_secret@github.com/gpu-econ/book", "https://github.com/gpu-econ/book"),
    ("ssh://git@gitlab.example.org:2222/team/sub/book.git", "https://gitlab.example.org/team/sub/book"),
    ("/srv/git/book.git", ""),
    ("file:///srv/git/book.git", ""),
    (None, ""),
])
def test_the_remote_becomes_a_web_address_without_credentials(tmp_path, remote, url):
    root = _checkout(tmp_path / "repo", remote)
    assert repository.remote_url(root) == url


def test_outside_a_checkout_there_is_no_remote(tmp_path):
    _checkout(tmp_path / "outer", "git@github.com:o/r.git")
    inner = tmp_path / "outer" / "copy"
    inner.mkdir()
    assert repository.remote_url(inner) == ""  # the folder is not the checkout's root: not its repository


def test_the_config_names_a_repository_block_and_leaves_the_url_to_the_build():
    config = yaml.safe_load((REPO / "_config.yml").read_text(encoding="utf-8"))
    assert set(config["repository"]) == {"url", "path_to_book", "branch"}
    assert config["html"]["use_repository_button"] is False and config["html"]["use_issues_button"] is False


def _staged(tmp_path: Path, root: Path, url: str = "") -> dict:
    src = tmp_path / "src"
    (src / "book").mkdir(parents=True)
    config = yaml.safe_load((REPO / "_config.yml").read_text(encoding="utf-8"))
    config["repository"]["url"] = url
    (src / "_config.yml").write_text(yaml.safe_dump(config), encoding="utf-8")
    appendices.stage_front_matter(src, root)
    staged = yaml.safe_load((src / "_config.yml").read_text(encoding="utf-8"))
    staged["landing"] = (src / "book" / "extra" / "index.html").read_text(encoding="utf-8")
    return staged


@pytest.mark.parametrize("configured", ["", "https://codeberg.org/someone/book"])
def test_the_staged_book_links_its_repository_issues_licence_and_citation(tmp_path, configured):
    root = _checkout(tmp_path / "repo", "git@github.com:gpu-econ/book.git")
    staged = _staged(tmp_path, root, configured)
    url = configured or "https://github.com/gpu-econ/book"
    assert staged["repository"]["url"] == url
    assert staged["html"]["use_repository_button"] is True and staged["html"]["use_issues_button"] is True
    for footer in (staged["html"]["extra_footer"], staged["landing"]):
        assert f'href="{url}"' in footer and f'href="{url}/issues"' in footer
        assert "LICENSE.txt" in footer and "CITATION.cff" in footer and "cite.html" in footer


def test_with_no_repository_known_there_are_no_buttons_and_no_default_link(tmp_path):
    root = _checkout(tmp_path / "repo", None)
    staged = _staged(tmp_path, root)
    assert staged["repository"]["url"] == "" and staged["html"]["use_repository_button"] is False
    assert "executablebooks" not in staged["html"]["extra_footer"] and "The code:" not in staged["html"]["extra_footer"]
    assert "LICENSE.txt" in staged["html"]["extra_footer"] and "CITATION.cff" in staged["html"]["extra_footer"]


def test_jupyter_book_reads_the_staged_repository_into_the_theme(tmp_path):
    """Jupyter Book's own translation of the staged configuration into Sphinx's: the theme gets
    the URL and both buttons (and, with no URL, the empty one, not Jupyter Book's default)."""
    from jupyter_book.config import get_final_config

    root = _checkout(tmp_path / "repo", "git@github.com:gpu-econ/book.git")
    staged = _staged(tmp_path, root)
    staged.pop("landing")
    theme = get_final_config(user_yaml=staged, cli_config={"latex_individualpages": False}, sourcedir=tmp_path)[0]["html_theme_options"]
    assert theme["repository_url"] == "https://github.com/gpu-econ/book"
    assert theme["use_repository_button"] is True and theme["use_issues_button"] is True
    bare = yaml.safe_load((REPO / "_config.yml").read_text(encoding="utf-8"))
    assert get_final_config(user_yaml=bare, cli_config={"latex_individualpages": False}, sourcedir=tmp_path)[0]["html_theme_options"]["repository_url"] == ""
