"""The fast paths give the notebooks' bytes, and every cache is data that is checked before use.

- ``run`` computes in process through the chapter layer, and writes the results JSON the
  chapter's notebook writes, byte for byte, for every chapter (needs read from the build's cache,
  or computed); ``run --notebook`` executes the notebook too, and the two agree;
- validated tables are cached as JSON (never a pickle), revalidated when any file their validation
  reads changes; a pickle placed in the cache never runs;
- a tampered, truncated or moved cache entry (a section, a what-if grid, the Data appendix, a
  table) is recomputed, saying so in one line; entries no key can reach are pruned;
- the renderer's file sync keeps unchanged files' modification times; the banner is set after
  rendering.

Timings are measured by ``make bench``, not here.
"""

from __future__ import annotations

import json
import pickle
import shutil
import time
from pathlib import Path

import pytest

from analysis.build.book import resolve_all
from analysis.build.run import run_section
from analysis.chapters.registry import SECTIONS
from analysis.data import cache
from tests.conftest import copy_repo, run_cli


@pytest.mark.parametrize("section", SECTIONS, ids=lambda s: s.name)
def test_run_writes_the_notebooks_results_byte_for_byte(book, section, tmp_path, monkeypatch):
    """Needs from the book's cache (their entries match), the chapter itself computed (its own
    entry is hidden from this run)."""
    from analysis.build import run

    read = cache.read
    monkeypatch.setattr(run.cache, "read", lambda folder, name, *a: None if name == section.name else read(folder, name, *a))
    results = run_section(section.name, {}, resolve_all({}), book, tmp_path)
    built = book / "_build" / "results" / f"{section.name}.json"
    assert (tmp_path / f"{section.name}.json").read_bytes() == built.read_bytes()
    assert (tmp_path / f"{section.name}__results.csv").read_bytes() == \
        (book / "_build" / "executed" / "data" / f"{section.name}__results.csv").read_bytes()
    assert results == json.loads(built.read_text())["results"]


@pytest.mark.parametrize("name", ["plan", "tco"])
def test_run_after_a_build_takes_the_section_from_its_own_entry(book, name, tmp_path, monkeypatch):
    """``run plan`` after a build computes nothing: the build's entry for the same inputs is read."""
    from analysis.build import run

    def computed(*_, **__):
        raise AssertionError("computed, though the build's entry matches")

    monkeypatch.setattr(run, "compute_section", computed)
    results = run_section(name, {}, resolve_all({}), book, tmp_path)
    built = book / "_build" / "results" / f"{name}.json"
    assert (tmp_path / f"{name}.json").read_bytes() == built.read_bytes()
    assert results == json.loads(built.read_text())["results"]
    with pytest.raises(AssertionError, match="computed"):  # other inputs: no entry, so it computes
        run_section(name, {"pue": 1.4}, resolve_all({"pue": 1.4}), book, tmp_path / "other")


@pytest.mark.parametrize("name", ["energy", "intro"])
def test_run_without_a_build_computes_every_need_to_the_same_bytes(book, name, tmp_path):
    root = copy_repo(tmp_path / "repo")  # no _build: every chapter it needs is computed here
    run_section(name, {}, resolve_all({}), root, tmp_path)
    assert (tmp_path / f"{name}.json").read_bytes() == (book / "_build" / "results" / f"{name}.json").read_bytes()


def test_run_notebook_executes_the_chapter_and_agrees_with_the_chapter_layer(tmp_path):
    args = ("run", "cluster", "-p", "gpus", "50000", "--out")
    fast = run_cli(*args, str(tmp_path / "fast"))
    slow = run_cli(*args, str(tmp_path / "slow"), "--notebook")
    assert fast.returncode == 0 and slow.returncode == 0, fast.stderr + slow.stderr
    assert (tmp_path / "fast" / "cluster.json").read_bytes() == (tmp_path / "slow" / "cluster.json").read_bytes()
    assert sorted(p.name for p in (tmp_path / "fast").iterdir()) == ["cluster.json", "cluster__results.csv"]
    notebook = (tmp_path / "slow" / "cluster.ipynb").read_text()
    assert "gpus = 50000" in notebook and '"remove-cell"' in notebook
    assert (tmp_path / "slow" / "cluster__compute_by_cluster_size.csv").is_file()
    assert fast.stdout.splitlines()[1:] == slow.stdout.splitlines()[1:]  # the same headline table


def test_tables_are_cached_as_data_and_revalidated_on_any_change(data_copy, tmp_path, monkeypatch):
    from analysis.data import load as data

    monkeypatch.setattr(data, "TABLE_CACHE_DIR", tmp_path / "tables")
    first = data.load_table("gpus")
    (entry,) = (tmp_path / "tables").glob("gpus-*")
    assert sorted(p.name for p in entry.iterdir()) == ["entry.json", "table.json"]
    json.loads((entry / "table.json").read_bytes())  # plain JSON

    def no_validation(*_):
        raise AssertionError("validated again")

    monkeypatch.setattr(data, "_validate_file", no_validation)
    data.clear_cache()  # a new process: only the disk cache is left
    cached = data.load_table("gpus")
    assert cached.equals(first) and list(cached.dtypes) == list(first.dtypes)
    # gpus' validation reads sources.csv (every source_id must exist there): editing it must
    # invalidate the cached gpus table too.
    with (data_copy / "sources.csv").open("a", encoding="utf-8") as f:
        f.write("\n")
    data.clear_cache()
    with pytest.raises(AssertionError, match="validated again"):
        data.load_table("gpus")


def test_every_table_comes_back_from_the_cache_exactly(data_copy, tmp_path, monkeypatch):
    import pandas as pd

    from analysis.data import load as data
    from analysis.data.schemas import SCHEMAS

    monkeypatch.setattr(data, "TABLE_CACHE_DIR", tmp_path / "tables")
    fresh = {name: data.load_table(name) for name in SCHEMAS}
    data.clear_cache()
    for name, table in fresh.items():
        pd.testing.assert_frame_equal(data.load_table(name), table, check_exact=True)


class _Payload:
    def __reduce__(self):
        return (Path.touch, (Path("/tmp/analysis-pickle-ran"),))


def test_a_pickle_in_the_table_cache_never_runs(tmp_path):
    marker = Path("/tmp/analysis-pickle-ran")
    marker.unlink(missing_ok=True)
    root = copy_repo(tmp_path / "repo")
    plan = ("plan", "--model", "llama31_70b", "--tokens", "15e12", "--gpu", "h100_sxm", "--gpus", "4096", "--json")
    before = run_cli(*plan, cwd=root)
    assert before.returncode == 0, before.stderr
    tables = root / "_build" / "cache" / "tables"
    (entry,) = tables.glob("gpus-*")
    payload = pickle.dumps(_Payload())
    for target in (entry / "table.json", tables / "gpus.pkl", tables / f"{entry.name}.pkl"):
        target.write_bytes(payload)
    manifest = json.loads((entry / "entry.json").read_text())  # even with a checksum that matches
    manifest["files"]["table.json"] = {"sha256": cache.sha256(payload), "bytes": len(payload)}
    (entry / "entry.json").write_text(json.dumps(manifest))
    after = run_cli(*plan, cwd=root)
    assert after.returncode == 0 and after.stdout == before.stdout, after.stderr
    assert not marker.exists()


def test_a_table_entry_edited_is_validated_afresh_with_a_message(tmp_path):
    root = copy_repo(tmp_path / "repo")
    plan = ("plan", "--model", "llama31_70b", "--tokens", "15e12", "--gpu", "h100_sxm", "--gpus", "4096", "--json")
    before = run_cli(*plan, cwd=root)
    (entry,) = (root / "_build" / "cache" / "tables").glob("gpus-*")
    columns = json.loads((entry / "table.json").read_text())
    bf16 = next(c for c in columns if c[0] == "bf16_dense_tflops")
    bf16[2] = [v * 2 if v else v for v in bf16[2]]  # the H100's BF16 peak doubled
    (entry / "table.json").write_text(json.dumps(columns))
    after = run_cli(*plan, cwd=root)
    assert after.returncode == 0 and after.stdout == before.stdout, after.stderr
    assert after.stderr.count("table gpus: the cache entry") == 1 and "changed since it was written" in after.stderr


def test_cache_entries_tampered_truncated_or_moved_are_recomputed(book):
    """A section's results edited, another's notebook truncated, a third's entry replaced by one
    made for other inputs (as if moved from another key's folder), a what-if grid with code
    appended, the Data appendix with a script prepended, and stale entries of an older layout:
    the next build recomputes each, says so once, and its book is the one it had."""
    build, html = book / "_build", book / "_build" / "html"
    sections = build / "cache" / "sections"

    def entry(name):
        data = (build / "results" / f"{name}.json").read_bytes()
        return next(p for p in sections.glob(f"{name}-*") if (p / f"{name}.json").read_bytes() == data)

    good = (build / "results" / "cluster.json").read_bytes()
    tampered = json.loads(good)
    tampered["results"]["peak_fp8_eflops"]["value"] = 1.0
    (entry("cluster") / "cluster.json").write_text(json.dumps(tampered))
    capex = entry("capex") / "capex.ipynb"
    capex.write_bytes(capex.read_bytes()[:100])
    manifest = json.loads((entry("tco") / "entry.json").read_text())
    manifest["inputs"]["parameters"]["tariff_usd_per_kwh"] = 0.0866
    manifest["key"] = cache.key_of(manifest["inputs"])
    (entry("tco") / "entry.json").write_text(json.dumps(manifest))
    (grid,) = (build / "cache" / "pages").glob("whatif-tco-*")
    (grid / "text").write_bytes((grid / "text").read_bytes() + b"alert('grid');\n")
    (page,) = (build / "cache" / "pages").glob("data_tables-*")
    (page / "text").write_bytes(b"<script>alert('page')</script>\n" + (page / "text").read_bytes())
    (build / "cache" / "whatif").mkdir()  # the layout before: a grid file, a pickled table, a section folder
    (build / "cache" / "whatif" / "tco-0123.js").write_text("alert(1)")
    (build / "cache" / "tables" / "gpus-0123.pkl").write_bytes(b"\x80")
    (sections / "no_such_chapter-0123").mkdir()
    proc = run_cli("build", cwd=book)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stderr.count("recomputing") == 5, proc.stderr
    for what in ("cluster: the cache entry", "capex: the cache entry", "tco: the cache entry",
                 "page whatif-tco: the cache entry", "page data_tables: the cache entry"):
        assert what in proc.stderr, proc.stderr
    assert "made for another key" in proc.stderr and "3 chapter(s) run" in proc.stdout
    assert (build / "results" / "cluster.json").read_bytes() == good
    assert "alert" not in (html / "_static" / "whatif" / "tco.js").read_text()
    assert "alert('page')" not in (html / "book" / "generated" / "data_tables.html").read_text()
    assert not (build / "cache" / "whatif").exists() and not list((build / "cache" / "tables").glob("*.pkl"))
    assert not (sections / "no_such_chapter-0123").exists()


def test_a_cache_entry_keeps_its_most_recent_versions(tmp_path):
    for n in range(5):
        cache.write(tmp_path, "s", {"n": n}, {"f": b"x"}, keep=3)
        time.sleep(0.01)
    assert len(list(tmp_path.glob("s-*"))) == 3
    assert cache.read(tmp_path, "s", {"n": 4}, "s") == {"f": b"x"} and cache.read(tmp_path, "s", {"n": 0}, "s") is None


def test_sync_tree_writes_only_what_changed(tmp_path):
    from analysis.build.site import sync_tree

    src, dest = tmp_path / "src", tmp_path / "dest"
    for rel, text in (("a.md", "a"), ("book/b.md", "b"), ("book/generated/c.ipynb", "c")):
        (src / rel).parent.mkdir(parents=True, exist_ok=True)
        (src / rel).write_text(text)
    assert sync_tree(src, dest) == 3
    old = (dest / "a.md").stat().st_mtime_ns
    time.sleep(0.01)
    (src / "book" / "b.md").write_text("b2")
    (src / "a.md").write_text("a")  # rewritten with the same bytes
    (src / "book" / "generated" / "c.ipynb").unlink()
    (dest / "stale.md").write_text("x")
    assert sync_tree(src, dest) == 3  # b.md written, stale.md and c.ipynb removed
    assert (dest / "a.md").stat().st_mtime_ns == old
    assert (dest / "book" / "b.md").read_text() == "b2" and not (dest / "stale.md").exists()
    assert not (dest / "book" / "generated").exists()


def test_announce_sets_or_removes_the_scenario_banner(tmp_path):
    from analysis.build.site import BANNER, MARKER, announce

    page = "<div>top</div>" + BANNER.format(MARKER) + "\n<main>body</main>"
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "p.html").write_text(page)
    shutil.copytree(tmp_path / "a", tmp_path / "b")
    announce(tmp_path / "a", "<script>x</script> & co")
    text = (tmp_path / "a" / "p.html").read_text()
    assert "Scenario: &lt;script&gt;x&lt;/script&gt; &amp; co." in text and MARKER not in text
    announce(tmp_path / "b", None)
    assert (tmp_path / "b" / "p.html").read_text() == "<div>top</div>\n<main>body</main>"


def test_files_no_page_links_are_dropped(tmp_path):
    from analysis.build.site import drop_unlinked_files

    for rel in ("_images/a.png", "_images/old.png", "_downloads/1/t.csv", "_downloads/2/old.csv", "_static/x.js"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("x")
    (tmp_path / "book").mkdir()
    (tmp_path / "book" / "p.html").write_text('<img src="../_images/a.png"><a href="../_downloads/1/t.csv">')
    drop_unlinked_files(tmp_path)
    left = sorted(str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*") if p.is_file())
    assert left == ["_downloads/1/t.csv", "_images/a.png", "_static/x.js", "book/p.html"]


def test_run_from_another_folder_writes_into_the_project(tmp_path):
    root = copy_repo(tmp_path / "repo")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    proc = run_cli("run", "capex", cwd=elsewhere, env={"PYTHONPATH": str(root)})
    assert proc.returncode == 0, proc.stderr
    assert (root / "_build" / "run" / "capex.json").is_file() and not list(elsewhere.iterdir())


def test_the_build_starts_the_longest_chains_of_needs_first():
    """The first started is the one most others wait on: the uncertainty chapter, which tco,
    benchmarks, energy, plan, claims and the introduction follow (a chain of 7); the last is the
    introduction, which nothing follows."""
    from analysis.build.scheduler import chain_lengths

    lengths = chain_lengths()
    assert max(lengths, key=lengths.get) == "uncertainty" and lengths["uncertainty"] == 7
    assert min(lengths, key=lengths.get) == "intro" and lengths["intro"] == 1
    assert lengths["claims"] == 2 and lengths["plan"] == 3  # the ledger waits on every chapter
