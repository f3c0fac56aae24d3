"""Every shipped scenario runs.

- Each computes every chapter through the chapter layer (what `run` does, no kernel): the values
  the build would resolve for each chapter, and finite results.
- The scenario that changes the most chapters also executes every chapter's notebook, in one
  IPython shell (tests/notebooks_in_process.py, as test_ranges' all-low and all-high runs).

Every notebook under values far from the defaults is executed by test_ranges' all-low and all-high
runs, so executing each scenario's notebooks too would add minutes and no new code path. The
build's own execution under a scenario (kernels, the cache) and `build --scenario`'s render are
exercised by the hygiene tests and tests/test_book.py."""

import numpy as np
import pytest
from conftest import run_notebooks_in_process

from analysis.build.book import resolve_all
from analysis.chapters import check_inputs, compute_section
from analysis.chapters import compare as scenarios
from analysis.chapters.registry import SECTIONS

SHIPPED = scenarios.shipped()


def _changed_chapters(scenario) -> int:
    return sum(1 for s in SECTIONS if set(scenario.overrides) & set(s.param_map))


@pytest.mark.parametrize("scenario", SHIPPED, ids=lambda s: s.path.stem)
def test_shipped_scenario_computes_every_chapter(scenario):
    values = resolve_all(scenario.overrides, scenario.origin)
    check_inputs(values, scenario.origin)
    done = {}
    for s in SECTIONS:
        compute_section(s.name, scenario.overrides, done)
    assert sorted(done) == sorted(s.name for s in SECTIONS)
    for s in SECTIONS:
        chapter = done[s.name]
        assert chapter.parameters == values[s.name], s.name  # what `build --scenario` would run it with
        bad = {k: q.value for k, q in chapter.quantities.items() if not np.all(np.isfinite(q.value))}
        assert not bad, (s.name, bad)


def test_the_scenario_changing_most_chapters_executes_every_notebook(tmp_path):
    scenario = max(SHIPPED, key=_changed_chapters)  # the first such, in shipped() order
    assert _changed_chapters(scenario) >= 3, scenario.path
    values = resolve_all(scenario.overrides, scenario.origin)
    check_inputs(values, scenario.origin)
    results = run_notebooks_in_process(values, tmp_path)
    assert sorted(p.stem for p in results.glob("*.json")) == sorted(s.name for s in SECTIONS)
