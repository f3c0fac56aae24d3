"""The fast paths of the build (issue 20) give the same bytes as the slow ones, and are taken.

- kernels: warm (``run``), forked from a preloaded process, or launched by jupyter_client give
  byte-identical notebooks, results and tables;
- an incremental build (Sphinx re-reading only changed pages, the scenario banner set after
  rendering) gives the same HTML, results and notebooks as a clean build;
- validated tables cached on disk are re-validated when any file their validation reads changes;
- the renderer's file sync keeps unchanged files' modification times.

Timings are measured by ``make bench``, not here.
"""

from __future__ import annotations

import filecmp
import os
import shutil
import time
from pathlib import Path

import pytest

from tests.conftest import copy_repo, run_cli


def _tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def _assert_same_tree(a: Path, b: Path) -> None:
    left, right = _tree(a), _tree(b)
    assert sorted(left) == sorted(right), set(left) ^ set(right)
    differ = [name for name in left if left[name] != right[name]]
    assert not differ, f"{len(differ)} files differ, e.g. {differ[:5]}"


def test_warm_forked_and_launched_kernels_give_identical_outputs(tmp_path):
    root = copy_repo(tmp_path / "repo")  # no _build: run executes the network chapter too
    fast = run_cli("run", "cluster", "--out", str(tmp_path / "fast"), cwd=root, env={"ANALYSIS_DEBUG_KERNELS": "1"})
    assert fast.returncode == 0, fast.stderr[-2000:]
    # network: the warm kernel started with the command; cluster: forked from the preloaded process
    assert fast.stderr.count("kernel: warm") == 1 and fast.stderr.count("kernel: forked") == 1, fast.stderr
    slow = run_cli("run", "cluster", "--out", str(tmp_path / "slow"), cwd=root,
                   env={"ANALYSIS_DEBUG_KERNELS": "1", "ANALYSIS_FORK_KERNELS": "0"})
    assert slow.returncode == 0, slow.stderr[-2000:]
    assert slow.stderr.count("kernel: launched") == 2, slow.stderr
    _assert_same_tree(tmp_path / "fast", tmp_path / "slow")
    assert len(_tree(tmp_path / "fast")) >= 6  # two notebooks, two results files, their tables


def test_incremental_build_matches_a_clean_build(book, tmp_path):
    """Build a fresh copy with one parameter changed (clean, banner on every page), then go back
    to the defaults there (two chapters re-run, Sphinx re-reads their pages, banner removed): the
    book, results and notebooks equal the session's clean build at the defaults byte for byte."""
    root = copy_repo(tmp_path / "repo")
    changed = run_cli("build", "-p", "gpt3_train_tokens", "4e11", cwd=root)
    assert changed.returncode == 0, changed.stderr[-3000:]
    banner = "Scenario: custom parameters (gpt3_train_tokens = 4e11)"
    assert banner in (root / "_build" / "html" / "book" / "generated" / "capex.html").read_text()
    back = run_cli("build", cwd=root, env={"ANALYSIS_DEBUG_KERNELS": "1"})
    assert back.returncode == 0, back.stderr[-3000:]
    assert "software     ran" in back.stderr and "capex        unchanged (cached)" in back.stderr, back.stderr
    assert "kernel: forked" in back.stderr and "kernel: launched" not in back.stderr, back.stderr
    assert (root / "_build" / ".render" / "out").is_dir()  # Sphinx's state was kept, not rebuilt
    assert banner not in (root / "_build" / "html" / "book" / "generated" / "capex.html").read_text()
    for folder in ("html", "results", "executed"):
        _assert_same_tree(root / "_build" / folder, book / "_build" / folder)


def test_an_unused_warm_kernel_exits_with_the_command(tmp_path):
    marker = str(tmp_path / "unique-out-folder")
    proc = run_cli("run", "capex", "-p", "h100_server_usd", "-5", "--out", marker)
    assert proc.returncode == 2 and "h100_server_usd" in proc.stderr, proc.stderr
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        alive = [pid for pid in os.listdir("/proc") if pid.isdigit() and _cmdline_has(pid, marker)]
        if not alive:
            return
        time.sleep(0.1)
    pytest.fail(f"processes of the finished command still running: {alive}")


def _cmdline_has(pid: str, text: str) -> bool:
    try:
        return text in Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace")
    except OSError:
        return False


def test_validated_tables_are_cached_on_disk_and_revalidated_on_any_change(data_copy, tmp_path, monkeypatch):
    from analysis import data

    monkeypatch.setattr(data, "TABLE_CACHE_DIR", tmp_path / "tables")
    first = data.load_table("gpus")
    assert list((tmp_path / "tables").glob("gpus-*.pkl"))

    def no_validation(*_):
        raise AssertionError("validated again")

    monkeypatch.setattr(data, "_validate_file", no_validation)
    data.clear_cache()  # a new process: only the disk cache is left
    assert data.load_table("gpus").equals(first)
    # gpus' validation reads sources.csv (every source_id must exist there): editing it must
    # invalidate the cached gpus table too.
    with (data_copy / "sources.csv").open("a", encoding="utf-8") as f:
        f.write("\n")
    data.clear_cache()
    with pytest.raises(AssertionError, match="validated again"):
        data.load_table("gpus")


def test_a_damaged_cache_entry_is_validated_afresh(data_copy, tmp_path, monkeypatch):
    from analysis import data

    monkeypatch.setattr(data, "TABLE_CACHE_DIR", tmp_path / "tables")
    expected = data.load_table("models")
    (entry,) = (tmp_path / "tables").glob("models-*.pkl")
    entry.write_bytes(b"not a pickle")
    data.clear_cache()
    assert data.load_table("models").equals(expected)


def test_sync_tree_writes_only_what_changed(tmp_path):
    from analysis.pipeline.render import sync_tree

    src, dest = tmp_path / "src", tmp_path / "dest"
    for rel, text in (("a.md", "a"), ("book/b.md", "b"), ("book/generated/c.ipynb", "c")):
        (src / rel).parent.mkdir(parents=True, exist_ok=True)
        (src / rel).write_text(text)
    assert sync_tree(src, dest) == 3
    old = {p: (dest / p).stat().st_mtime_ns for p in ("a.md", "book/b.md")}
    time.sleep(0.01)
    (src / "book" / "b.md").write_text("b2")
    (src / "a.md").write_text("a")  # rewritten with the same bytes
    (src / "book" / "generated" / "c.ipynb").unlink()
    (dest / "stale.md").write_text("x")
    assert sync_tree(src, dest, skip="book/generated") == 2  # b.md written, stale.md removed
    assert (dest / "a.md").stat().st_mtime_ns == old["a.md"]
    assert (dest / "book" / "b.md").read_text() == "b2" and not (dest / "stale.md").exists()
    assert (dest / "book" / "generated" / "c.ipynb").exists()  # skipped: left alone
    assert sync_tree(src, dest) == 1 and not (dest / "book" / "generated" / "c.ipynb").exists()
    assert filecmp.cmp(src / "book" / "b.md", dest / "book" / "b.md", shallow=False)


def test_announce_sets_or_removes_the_scenario_banner(tmp_path):
    from analysis.pipeline.render import BANNER, MARKER, announce

    page = "<div>top</div>" + BANNER.format(MARKER) + "\n<main>body</main>"
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "p.html").write_text(page)
    shutil.copytree(tmp_path / "a", tmp_path / "b")
    announce(tmp_path / "a", "<script>x</script> & co")
    text = (tmp_path / "a" / "p.html").read_text()
    assert "Scenario: &lt;script&gt;x&lt;/script&gt; &amp; co." in text and MARKER not in text
    announce(tmp_path / "b", None)
    assert (tmp_path / "b" / "p.html").read_text() == "<div>top</div>\n<main>body</main>"
