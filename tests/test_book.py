"""The built book: pages, figures, parameter tables, results contract, claims, caching and the
guarantee that a failed build leaves the last good book in place."""

import hashlib
import json
import re

import pytest
from conftest import run_cli

from analysis.chapters.registry import SECTIONS
from analysis.data import provenance
from analysis.data.load import load_table
from analysis.page.formatting import is_count_unit
from analysis.params import defaults as d


def _page(book, name):
    return (book / "_build" / "html" / "book" / "generated" / f"{name}.html").read_text()


def _tree_digest(folder):
    h = hashlib.sha256()
    for p in sorted(folder.rglob("*")):
        if p.is_file():
            h.update(str(p.relative_to(folder)).encode() + p.read_bytes())
    return h.hexdigest()


@pytest.mark.parametrize("section", SECTIONS, ids=lambda s: s.name)
def test_every_chapter_page_exists_with_its_figures(book, section):
    html = _page(book, section.name)
    for figure in section.figures:
        block = re.search(rf'<figure[^>]*id="{figure}".*?</figure>', html, re.S)
        assert block, f"{section.name}: figure {figure} missing"
        src = re.search(r'<img[^>]+src="([^"]+)"', block.group(0)).group(1)
        assert (book / "_build" / "html" / "book" / "generated" / src).resolve().stat().st_size > 5_000


def test_index_leads_to_the_introduction(book):
    index = (book / "_build" / "html" / "index.html").read_text()
    assert "book/generated/intro.html" in index


@pytest.mark.parametrize("section", SECTIONS, ids=lambda s: s.name)
def test_no_unrendered_glue_or_raw_parameters(book, section):
    html = _page(book, section.name)
    assert "{glue" not in html and "glue:text" not in html
    assert "injected-parameters" not in html and "Parameters" not in html.split("<article")[0]
    assert "Failed to format" not in html


def test_parameter_table_is_shown_and_marks_changes(book, tmp_path):
    assert "Parameters this chapter ran with" in _page(book, "cluster")
    out = tmp_path / "run"
    assert run_cli("run", "cluster", "-p", "pue", "1.2", "--notebook", "--out", str(out), cwd=book).returncode == 0
    nb = (out / "cluster.ipynb").read_text()
    assert "**1.2** (changed)" in nb and "1 parameter(s) differ" in nb
    assert '"remove-cell"' in nb  # papermill's injected cell is hidden from readers


@pytest.mark.parametrize("section", SECTIONS, ids=lambda s: s.name)
def test_results_follow_the_contract(book, section):
    doc = json.loads((book / "_build" / "results" / f"{section.name}.json").read_text())
    assert set(doc) == {"schema_version", "section", "parameters", "names", "results"} and doc["section"] == section.name
    assert all(isinstance(v, str) for v in doc["names"].values())  # ids of the models and GPUs it names
    assert set(doc["parameters"]) == {p.name for p in section.params}
    for key, r in doc["results"].items():
        assert set(r) - {"reads"} == {"value", "unit", "label"}, key
        # what the result's computation read (analysis.data.provenance), sorted tags
        assert r.get("reads", []) == sorted(r.get("reads", [])) and all(
            t.split(":", 1)[0] in provenance.KINDS for t in r.get("reads", [])), key
        # a number: a float, or an int for a whole count (22 claims, not 22.0)
        assert isinstance(r["value"], float) or (type(r["value"]) is int and is_count_unit(r["unit"])), key
    assert set(section.headline) <= set(doc["results"])


def test_cluster_results_have_the_required_keys(book):
    results = json.loads((book / "_build" / "results" / "cluster.json").read_text())["results"]
    for key in ("peak_fp8_eflops", "peak_bf16_eflops", "peak_fp8_vs_a100_cluster_ratio", "gpt4_implied_mfu",
                "gpt4_retrain_days", "cluster_it_mw", "cluster_annual_energy_twh", "cluster_annual_electricity_usd",
                "capex_usd", "first_failure_minutes"):
        assert key in results


def test_corrected_claims_really_differ_from_the_original():
    """A claim marked corrected has a seed number outside the original's tolerance band, unless
    the seed quotes the original faithfully and the ledger corrects the original itself (S17:
    SemiAnalysis's ~150 MW, B14; the ledger checks that the book differs from it)."""
    claims = load_table("claims").set_index("claim_id")
    facts = load_table("report_facts").set_index("fact_id")
    fact_status = load_table("fact_checks").set_index("fact_id")["status"]
    seeds = load_table("seed_numbers")
    corrected = claims[claims["status"] == "corrected"]
    assert len(corrected) >= 4
    for claim_id, c in corrected.iterrows():
        numbers = seeds[seeds["claim_id"] == claim_id]
        assert len(numbers), f"{claim_id}: corrected, but no seed number in seed_numbers.csv"
        original = facts.loc[c["fact_id"], "value"]
        if fact_status.get(c["fact_id"]) == "corrected":
            assert any(v == original for v in numbers["value"]), claim_id
        else:
            assert any(abs(v / original - 1) > c["tolerance_rel"] for v in numbers["value"]), claim_id


def test_summary_numbers_come_from_the_chapter(book):
    intro = _page(book, "intro")
    results = json.loads((book / "_build" / "results" / "cluster.json").read_text())["results"]
    assert f"{results['peak_fp8_eflops']['value']:.0f} EFLOP/s" in re.sub(r"\s+", " ", re.sub("<[^>]+>", "", intro))


def test_appendices_list_every_parameter_and_source(book):
    assumptions = (book / "_build" / "html" / "book" / "generated" / "assumptions.html").read_text()
    for p in SECTIONS[0].params:
        assert p.name in assumptions
    sources = (book / "_build" / "html" / "book" / "generated" / "sources.html").read_text()
    for source_id in load_table("sources")["source_id"]:
        assert f'id="src-{source_id.replace("_", "-")}"' in sources


def test_unchanged_rebuild_executes_and_renders_nothing(book):
    before = _tree_digest(book / "_build" / "html")
    proc = run_cli("build", cwd=book)
    assert proc.returncode == 0, proc.stderr
    total = len(SECTIONS)
    assert f"0 chapter(s) run, {total} from the cache, nothing changed, so nothing to render" in proc.stdout
    assert re.search(r"^Built in \d+\.\d s: .* Open \S+/_build/html/index\.html$", proc.stdout, re.M), proc.stdout
    # one progress line per chapter as it finishes, numbered, every one from the cache
    lines = re.findall(r"^\[ *(\d+)/(\d+)\] (\w+) +from the cache$", proc.stderr, re.M)
    assert [(int(i), int(n)) for i, n, _ in lines] == [(i, total) for i in range(1, total + 1)], proc.stderr
    assert sorted(name for *_, name in lines) == sorted(s.name for s in SECTIONS)
    assert _tree_digest(book / "_build" / "html") == before


def test_failed_build_leaves_previous_book_untouched(book):
    before = _tree_digest(book / "_build" / "html")
    results_before = _tree_digest(book / "_build" / "results")
    nb = book / "notebooks" / "cluster.py"
    original = nb.read_text()
    try:
        nb.write_text(original.replace("save(R)", "1 / 0\nsave(R)"))
        proc = run_cli("build", cwd=book)
    finally:
        nb.write_text(original)
    assert proc.returncode == 1
    assert "section 'cluster' failed in cell" in proc.stderr and "ZeroDivisionError" in proc.stderr
    assert "previous book is untouched" in proc.stderr
    assert _tree_digest(book / "_build" / "html") == before
    assert _tree_digest(book / "_build" / "results") == results_before
    assert not list((book / "_build").glob(".stage-*"))


def test_changed_parameter_reruns_only_dependent_sections(book, tmp_path):
    """A parameter of one chapter reruns it and, of the chapters that read its results directly or
    through another, those whose inputs changed: the software chapter's GPT-3 token count reruns
    it and the ledger (which reads it); the introduction reads only the ledger's results, which
    come out the same, so it is taken from the cache. No other chapter runs."""
    before = {p.name: p.read_bytes() for p in (book / "_build" / "results").glob("*.json")}
    scenario = tmp_path / "s.yaml"
    scenario.write_text("parameters:\n  gpt3_train_tokens: 4.0e+11\n")
    proc = run_cli("build", "--scenario", str(scenario), cwd=book)
    assert proc.returncode == 0, proc.stderr
    affected = {s.name for s in SECTIONS if "gpt3_train_tokens" in s.param_map}
    while True:
        more = {s.name for s in SECTIONS if set(s.needs) & affected} - affected
        if not more:
            break
        affected |= more
    assert affected == {"software", "claims", "intro"}
    ran = set(re.findall(r"^\[ *\d+/\d+\] (\w+) +ran in +\d+\.\d s$", proc.stdout + proc.stderr, re.M))
    assert ran == {"software", "claims"} and f"{len(ran)} chapter(s) run, {len(SECTIONS) - 2} from the cache" in proc.stdout
    after = {p.name: p.read_bytes() for p in (book / "_build" / "results").glob("*.json")}
    assert after["claims.json"] == before["claims.json"]  # why the introduction did not rerun
    assert sorted(n for n in after if after[n] != before[n]) == ["software.json"]
    assert json.loads(after["software.json"])["parameters"]["gpt3_train_tokens"] == 4e11
    assert "(changed)" in (book / "_build" / "executed" / "software.ipynb").read_text()
    for page in ("cluster", "tco", "assumptions"):  # every page says which scenario it shows
        assert "Scenario: s (s.yaml)" in _page(book, page) or "scenario <strong>s (s.yaml)" in _page(book, page)
    proc = run_cli("build", cwd=book)  # back to defaults: every section comes from the cache
    assert proc.returncode == 0 and "0 chapter(s) run" in proc.stdout


def test_two_clean_builds_are_byte_identical(book, tmp_path):
    """Same inputs, a second fresh copy executed with an empty cache: results JSON, executed
    notebooks (their figures are the PNGs the book's pages show, byte for byte) and chapter tables
    identical to the book's. The render of identical notebooks is Sphinx's, and not repeated here."""
    from conftest import copy_repo

    from analysis.build.book import execute_sections, resolve_all

    other = copy_repo(tmp_path / "again")
    results, notebooks = tmp_path / "results", tmp_path / "executed"
    results.mkdir()
    notebooks.mkdir()
    records, _ = execute_sections(resolve_all({}), other, 2, tmp_path / "cache", results, notebooks)
    assert sorted(r.section for r in records if not r.cached) == sorted(s.name for s in SECTIONS)
    for mine, theirs in ((results, book / "_build" / "results"), (notebooks, book / "_build" / "executed")):
        names = sorted(p.relative_to(mine) for p in mine.rglob("*") if p.is_file())
        assert {p for p in names if p.suffix in (".json", ".ipynb")} == {
            p.relative_to(theirs) for p in theirs.rglob("*") if p.suffix in (".json", ".ipynb")}, mine.name
        for name in names:
            assert (mine / name).read_bytes() == (theirs / name).read_bytes(), f"{mine.name}/{name} differs"


def test_a_long_html_table_is_stored_once_in_its_notebook(book):
    """A sortable table's plain-text form in the executed notebook is one line (caption and row
    count), not its HTML again; the page shows the HTML, with every row."""
    tables = 0
    for path in sorted((book / "_build" / "executed").glob("*.ipynb")):
        for cell in json.loads(path.read_text())["cells"]:
            for output in cell.get("outputs", []):
                html = "".join(output.get("data", {}).get("text/html", []))
                if "book-datatable-wrap" not in html:
                    continue
                tables += 1
                plain = "".join(output["data"]["text/plain"])
                rows = len(re.findall(r"<tr[ >]", html)) - 1  # every row, shown or folded, less the heading's
                assert "<" not in plain and "\n" not in plain, f"{path.name}: {plain[:80]}"
                assert plain.endswith(f"{rows:,} row{'s' if rows != 1 else ''} (HTML)"), f"{path.name}: {plain}"
                page = _page(book, path.stem)
                assert html.split("<tbody>")[1].split("</tbody>")[0] in page, f"{path.name}: rows not on the page"
    assert tables >= 5  # the benchmark chapter's every-row table and the MLPerf chapter's


def test_built_pages_need_no_network(book):
    """No page loads a script or stylesheet from another host (the build and the book work offline)."""
    remote = re.compile(r'<(?:script|link)\b[^>]*\b(?:src|href)="(?:https?:)?//[^"]*"[^>]*>', re.I)
    pages = list((book / "_build" / "html").rglob("*.html"))
    assert len(pages) >= len(SECTIONS)
    for page in pages:
        hits = [m for m in remote.findall(page.read_text()) if "stylesheet" in m or "<script" in m.lower()]
        assert not hits, f"{page.name} loads {hits[:2]}"


def test_data_appendix_lists_every_table_with_a_download(book):
    from analysis.data.schemas import SCHEMAS

    page = (book / "_build" / "html" / "book" / "generated" / "data_tables.html").read_text()
    downloads = book / "_build" / "html" / "_downloads"
    for name in SCHEMAS:
        if (book / "data" / f"{name}.csv").is_file():
            assert f"{name}.csv" in page, name
            assert list(downloads.glob(f"*/{name}.csv")), f"{name}.csv is not offered for download"


def test_chapters_offer_their_data_as_csv(book):
    downloads = book / "_build" / "html" / "_downloads"
    offered = {p.name.split("__")[0] for p in downloads.glob("*/*__*.csv")}
    assert {"cluster", "tco", "uncertainty", "scenarios", "claims"} <= offered
    for section in SECTIONS:  # every chapter offers its results table
        if section.name != "intro":
            assert list(downloads.glob(f"*/{section.name}__results.csv")), section.name
    page = _page(book, "tco")
    assert "Download the data: cost per 1M tokens for every benchmark row (CSV)" in re.sub(r"<[^>]+>", "", page)


def test_a_key_with_one_unit_has_one_value_across_the_built_chapters(book):
    """The issue's symptom, checked on what the book actually printed: every results JSON."""
    import math

    seen, clashes = {}, []
    for path in sorted((book / "_build" / "results").glob("*.json")):
        doc = json.loads(path.read_text())
        for key, r in doc["results"].items():
            first = seen.setdefault((key, r["unit"]), (doc["section"], r["value"]))
            if not math.isclose(first[1], r["value"], rel_tol=1e-9, abs_tol=1e-12):
                clashes.append(f"{key} [{r['unit']}]: {first[1]} in {first[0]}, {r['value']} in {doc['section']}")
    assert len(seen) > 300 and clashes == []


def test_a_pue_change_reaches_joules_per_token_and_household_years(book, tmp_path):
    """`run energy -p pue 1.15` (the README's scenario) moves the energy chapter's results."""
    default = json.loads((book / "_build" / "results" / "energy.json").read_text())["results"]
    out = tmp_path / "run"
    assert run_cli("run", "energy", "-p", "pue", "1.15", "--out", str(out), cwd=book).returncode == 0
    changed = json.loads((out / "energy.json").read_text())["results"]
    for key in ("llama31_405b_bf16_j_per_token", "llama31_405b_bf16_household_years_15t_tokens",
                "gpt3_175b_fp8_j_per_token", "cluster_annual_energy_twh"):
        assert changed[key]["value"] == pytest.approx(default[key]["value"] * 1.15 / d.PUE.default, rel=1e-9), key
