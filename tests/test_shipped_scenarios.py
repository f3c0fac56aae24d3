"""Every shipped scenario runs: all its chapters execute (in the test book's copy, reusing its
cache, so only the chapters a scenario changes run). `build --scenario` adds only the render,
which the hygiene tests exercise."""

import pytest

from analysis import constraints, scenarios
from analysis.pipeline.build import execute_sections, resolve_all
from analysis.sections import SECTIONS


@pytest.mark.parametrize("scenario", scenarios.shipped(), ids=lambda s: s.path.stem)
def test_shipped_scenario_executes_every_chapter(scenario, book, tmp_path):
    values = resolve_all(scenario.overrides, scenario.origin)
    constraints.check(values, scenario.origin)
    results, notebooks = tmp_path / "results", tmp_path / "notebooks"
    results.mkdir()
    notebooks.mkdir()
    records, _ = execute_sections(values, book, 2, book / "_build" / "cache", results, notebooks)
    assert len(records) == len(SECTIONS)
    assert sorted(p.stem for p in results.glob("*.json")) == sorted(s.name for s in SECTIONS)
